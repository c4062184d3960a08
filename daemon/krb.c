/*
 * krb.c - Kerberos on /ufmRestKrb: "Authorization: Negotiate <token>"
 * (RFC 4559) accepted with MIT krb5's GSS-API, the acceptor's key from
 * --krb-keytab.  UFM serves this prefix for Slurm's kerberos_auth mode,
 * whose client builds one token per run and sends it on every request
 * of the run (ufm_version, then the P_Key call): a replay cache would
 * refuse the second use, so the acceptor runs without one.  That makes
 * a token a bearer credential for its authenticator's lifetime (the
 * realm's clock skew, 5 minutes by default), which is why the prefix is
 * served over HTTPS only (ibpartd.c refuses --krb-keytab with --http).
 *
 * One request, one token: a mechanism that needs a second leg
 * (GSS_S_CONTINUE_NEEDED) is refused, as HTTP keeps no state between
 * requests.  The principal's local name (the krb5 auth_to_local rules:
 * by default user@DEFAULT.REALM is "user") names the users-file line
 * that gives its role; a principal with no line is refused (403).
 */
#include <gnutls/gnutls.h>
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibpartd.h"

struct krb {
	gss_cred_id_t cred;
};

static void gss_why(OM_uint32 major, OM_uint32 minor, char *err, size_t n)
{
	OM_uint32 m, ctx = 0;
	gss_buffer_desc text = GSS_C_EMPTY_BUFFER;
	bool mech = GSS_ERROR(major) && minor;
	gss_display_status(&m, mech ? minor : major,
			   mech ? GSS_C_MECH_CODE : GSS_C_GSS_CODE,
			   GSS_C_NO_OID, &ctx, &text);
	snprintf(err, n, "%.*s", (int)text.length,
		 text.value ? (const char *)text.value : "GSS-API error");
	gss_release_buffer(&m, &text);
}

int krb_open(const char *keytab, struct krb **out, char *err, size_t n)
{
	struct krb *k = calloc(1, sizeof(*k));
	if (!k) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	/* "none:": the Slurm client reuses its token (top of file) */
	gss_key_value_element_desc el[] = {{"keytab", keytab},
					   {"rcache", "none:"}};
	gss_key_value_set_desc store = {2, el};
	OM_uint32 minor;
	OM_uint32 major = gss_acquire_cred_from(
	    &minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, GSS_C_NO_OID_SET,
	    GSS_C_ACCEPT, &store, &k->cred, NULL, NULL);
	if (GSS_ERROR(major)) {
		char why[200];
		gss_why(major, minor, why, sizeof(why));
		snprintf(err, n, "--krb-keytab %s: %s", keytab, why);
		free(k);
		return -1;
	}
	*out = k;
	return 0;
}

void krb_close(struct krb *k)
{
	if (!k)
		return;
	OM_uint32 minor;
	gss_release_cred(&minor, &k->cred);
	free(k);
}

/* The base64 after "Negotiate " decoded; false when there is none. */
static bool negotiate_token(const char *header, gnutls_datum_t *out)
{
	if (!header || strncasecmp(header, "Negotiate ", 10))
		return false;
	header += 10 + strspn(header + 10, " ");
	gnutls_datum_t in = {(unsigned char *)header, (unsigned)strlen(header)};
	return *header && !gnutls_base64_decode2(&in, out);
}

/* The principal's local name, else its full display name. */
static void principal_name(gss_name_t src, char *name, size_t n)
{
	OM_uint32 minor;
	gss_buffer_desc b = GSS_C_EMPTY_BUFFER;
	if (GSS_ERROR(gss_localname(&minor, src, GSS_C_NO_OID, &b)) &&
	    GSS_ERROR(gss_display_name(&minor, src, &b, NULL)))
		b.length = 0;
	snprintf(name, n, "%.*s", (int)b.length,
		 b.value ? (const char *)b.value : "");
	gss_release_buffer(&minor, &b);
	for (char *p = name; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			*p = '?';
}

int krb_accept(struct krb *k, const char *header, char *name, size_t n,
	       char **reply, char *err, size_t errn)
{
	*reply = NULL;
	gnutls_datum_t tok;
	if (!negotiate_token(header, &tok)) {
		snprintf(err, errn,
			 "a Kerberos token is needed (Authorization: "
			 "Negotiate <base64>)");
		return 1;
	}
	gss_buffer_desc in = {tok.size, tok.data};
	gss_buffer_desc outb = GSS_C_EMPTY_BUFFER;
	gss_ctx_id_t ctx = GSS_C_NO_CONTEXT;
	gss_name_t src = GSS_C_NO_NAME;
	OM_uint32 minor;
	OM_uint32 major = gss_accept_sec_context(
	    &minor, &ctx, k->cred, &in, GSS_C_NO_CHANNEL_BINDINGS, &src, NULL,
	    &outb, NULL, NULL, NULL);
	gnutls_free(tok.data);
	int rc = -1;
	if (major == GSS_S_COMPLETE) {
		principal_name(src, name, n);
		rc = *name ? 0 : -1;
		if (rc)
			snprintf(err, errn,
				 "the Kerberos principal has no name");
	} else if (major == GSS_S_CONTINUE_NEEDED) {
		snprintf(err, errn,
			 "the Negotiate token needs a second leg: send a "
			 "Kerberos (krb5) token, or SPNEGO with krb5 first");
	} else {
		char why[200];
		gss_why(major, minor, why, sizeof(why));
		snprintf(err, errn, "the Kerberos token was refused: %s", why);
	}
	if (!rc && outb.length) {
		gnutls_datum_t raw = {outb.value, (unsigned)outb.length}, b64;
		if (!gnutls_base64_encode2(&raw, &b64)) {
			*reply = strndup((char *)b64.data, b64.size);
			gnutls_free(b64.data);
		}
	}
	gss_release_buffer(&minor, &outb);
	gss_release_name(&minor, &src);
	gss_delete_sec_context(&minor, &ctx, GSS_C_NO_BUFFER);
	return rc;
}
