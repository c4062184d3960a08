/*
 * krb_token.c - a test client's half of Kerberos over HTTP: one
 * GSS-API token for the service HTTP@HOST from the credentials cache
 * (KRB5CCNAME), written raw to stdout (base64 makes it the value of
 * "Authorization: Negotiate").
 * The krb5 mechanism's own token, not SPNEGO, as Slurm's UFM client
 * (pykerberos authGSSClientInit/authGSSClientStep) builds it once per
 * run and then sends on every request of that run.
 *
 *   krb_token HOST >FILE   exit 0 and the token; 1 and the GSS-API reason
 */
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, OM_uint32 major, OM_uint32 minor)
{
	OM_uint32 m, ctx = 0;
	gss_buffer_desc t;
	gss_display_status(&m, minor ? minor : major,
			   minor ? GSS_C_MECH_CODE : GSS_C_GSS_CODE,
			   GSS_C_NO_OID, &ctx, &t);
	fprintf(stderr, "krb_token: %s: %.*s\n", what, (int)t.length,
		(const char *)t.value);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: krb_token HOST\n");
		return 2;
	}
	char svc[300];
	snprintf(svc, sizeof(svc), "HTTP@%s", argv[1]);
	gss_buffer_desc nb = {strlen(svc), svc};
	gss_name_t target;
	OM_uint32 minor, major = gss_import_name(
			     &minor, &nb, GSS_C_NT_HOSTBASED_SERVICE, &target);
	if (GSS_ERROR(major))
		die("import_name", major, minor);
	gss_ctx_id_t ctx = GSS_C_NO_CONTEXT;
	gss_buffer_desc out = GSS_C_EMPTY_BUFFER;
	major = gss_init_sec_context(
	    &minor, GSS_C_NO_CREDENTIAL, &ctx, target, gss_mech_krb5, 0, 0,
	    GSS_C_NO_CHANNEL_BINDINGS, GSS_C_NO_BUFFER, NULL, &out, NULL, NULL);
	if (GSS_ERROR(major))
		die("init_sec_context", major, minor);
	fwrite(out.value, 1, out.length, stdout);
	gss_release_buffer(&minor, &out);
	gss_delete_sec_context(&minor, &ctx, GSS_C_NO_BUFFER);
	gss_release_name(&minor, &target);
	return 0;
}
