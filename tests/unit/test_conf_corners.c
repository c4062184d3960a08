/*
 * test_conf_corners.c - our reading of OpenSM 3.3.23's corners against
 * the hand-written expectations in tests/data/conf/corners/ (the same
 * lines tests/interop/test_convert_corners.sh checks against OpenSM on
 * ibsim): the P_KeyTable every port of the seed fabric gets, whether
 * OpenSM rejects the file, and the diagnostic codes `ibpart check` must
 * give.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"
#include "topo/topo_lib.h"

static char *path_of(const char *env, const char *rel)
{
	const char *base = getenv(env);
	char *b = malloc(2048);
	snprintf(b, 2048, "%s/%s", base ? base : ".", rel);
	return b;
}

static ibp_fabric *seed_fabric(void)
{
	char *p = path_of("IBP_EXAMPLES", "seed/seed.topo");
	ibp_fabric *f = NULL;
	assert_int_equal(ibp_fabric_load(p, NULL, &f, NULL), 0);
	free(p);
	return f;
}

/* the sorted, space separated P_Keys of a "#! node: ..." line */
static void normalise(const char *in, char *out, size_t n)
{
	unsigned vals[64];
	size_t k = 0;
	const char *s = in;
	while (*s && k < 64) {
		char *end;
		unsigned long v = strtoul(s, &end, 16);
		if (end == s) {
			s++;
			continue;
		}
		vals[k++] = (unsigned)v;
		s = end;
	}
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
			unsigned t = vals[j];
			vals[j] = vals[j - 1];
			vals[j - 1] = t;
		}
	out[0] = 0;
	for (size_t i = 0; i < k; i++) {
		size_t l = strlen(out);
		snprintf(out + l, n - l, "0x%04x ", vals[i]);
	}
}

static void predicted(const ibp_conf *c, const ibp_fabric *f, size_t node,
		      char *out, size_t n)
{
	ibp_node_type t = ibp_fabric_node_type(f, node);
	uint64_t guid =
	    ibp_fabric_port_guid(f, node, t == IBP_NODE_SWITCH ? 0 : 1);
	uint64_t sm = ibp_fabric_port_guid(f, 0, 1);
	char buf[512] = "";
	if (ibp_conf_opensm_verdict(c)->rejected) {
		snprintf(buf, sizeof(buf), "0xffff");
	} else {
		for (size_t i = 0; i < ibp_conf_group_count(c); i++) {
			const ibp_conf_group *g = ibp_conf_group_at(c, i);
			ibp_membership m = ibp_conf_group_port_membership(
			    g, guid, t, sm, NULL);
			if (m == IBP_MEMB_NONE)
				continue;
			size_t l = strlen(buf);
			snprintf(buf + l, sizeof(buf) - l, "0x%04x ",
				 ibp_conf_group_pkey(g) |
				     (m == IBP_MEMB_LIMITED ? 0 : 0x8000));
		}
	}
	normalise(buf, out, n);
}

static void check_file(const ibp_fabric *f, const char *path)
{
	FILE *in = fopen(path, "rb");
	assert_non_null(in);
	char text[16384];
	size_t len = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[len] = 0;

	ibp_conf_options o;
	ibp_conf_options_init(&o);
	o.fabric = f;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = NULL;
	assert_int_equal(
	    ibp_conf_parse_buffer(path, text, len, &o, &c, d, NULL), 0);
	bool want_crash = strstr(text, "#! crash") != NULL;
	bool want_reject = want_crash || strstr(text, "#! rejected") != NULL;
	assert_int_equal(ibp_conf_opensm_verdict(c)->crashes, want_crash);
	if (ibp_conf_opensm_verdict(c)->rejected != want_reject)
		fail_msg("%s: rejected %d, expected %d", path,
			 ibp_conf_opensm_verdict(c)->rejected, want_reject);

	size_t nn = want_crash ? 0 : ibp_fabric_node_count(f);
	for (size_t node = 0; node < nn; node++) {
		const char *desc = ibp_fabric_node_desc(f, node);
		char expect_raw[512];
		snprintf(expect_raw, sizeof(expect_raw), "%s",
			 want_reject ? "0xffff"
				     : (node == 0 ? "0xffff" : "0x7fff"));
		char key[128];
		snprintf(key, sizeof(key), "#! %s:", desc);
		const char *at = strstr(text, key);
		if (at) {
			at += strlen(key);
			size_t l = strcspn(at, "\r\n");
			snprintf(expect_raw, sizeof(expect_raw), "%.*s", (int)l,
				 at);
		}
		char want[512], got[512];
		normalise(expect_raw, want, sizeof(want));
		predicted(c, f, node, got, sizeof(got));
		if (strcmp(want, got))
			fail_msg("%s: %s: expected [%s], got [%s]", path, desc,
				 want, got);
	}

	/* every "#! code X" must be among the findings */
	for (const char *s = text; (s = strstr(s, "#! code ")); s++) {
		char code[64];
		sscanf(s + 8, "%63[a-z0-9-]", code);
		bool found = false;
		for (size_t i = 0; i < ibp_diags_count(d); i++)
			found |= !strcmp(ibp_diags_get(d, i)->code, code);
		if (!found) {
			ibp_diags_print(d, stderr);
			fail_msg("%s: no finding with code %s", path, code);
		}
	}
	/* a file OpenSM reads otherwise than written has an error; one
	 * without #! code lines is clean */
	if (!strstr(text, "#! code"))
		assert_int_equal(ibp_conf_error_count(c), 0);
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_corners(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	char *dir = path_of("IBP_TESTDATA", "conf/corners");
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || (strcmp(e->d_name + l - 5, ".conf") &&
			      strcmp(e->d_name + l - 5, ".crlf")))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		check_file(f, path);
		n++;
	}
	closedir(dp);
	assert_true(n >= 16);
	free(dir);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_corners),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
