/*
 * test_service_guard_vf.c - the isolation guard's kept answer
 * (service_guard_state.c) with an alias map in effect judges every
 * change as the whole-plan guard (service_guard.c) does: two services on
 * the same topology (tests/interop/data/live-2sw.topo), operator's lines
 * and alias map (VFs of node-b, node-c and dual-host), one judging
 * incrementally and one with the whole plan
 * (ibp_service_set_guard_whole), take the same random changes - ports,
 * their VFs' alias GUIDs and an unknown GUID added full or limited,
 * removed, P_Keys deleted, by a caller whose profile refuses
 * shared-physical-port and by one it only warns - and give the same
 * answer each time: accepted or refused (409), the same findings, the
 * same warnings; after each one the kept answer equals the whole audit
 * of the plan (ibp_service_guard_check).  With the default reading of
 * aliases (OpenSM skips them) and with --vf-guids physical (each
 * written on its port).  The refusals are shared-physical-port's and
 * tenant-bridge's, as the whole audit's rules (docs/audit.md) say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ibpart/sys/service.h"
#include "service/service_lib.h"
#include "guard_side.h"

#define STEPS 100

static const char operator_text[] =
    "Default=0x7fff, ipoib : 0x0002c90000000101=full, ALL=limited ;\n"
    "storage=0x0010 : 0x0002c90000000201=full, 0x0002c903000c0401=full ;\n";

/* node-b's VF 1 and 2, node-c's VF 1, dual-host port 1's VF 1 */
static const char alias_text[] = "0x0002c903000b0301 0x0002c90000000301 1\n"
				 "0x0002c903000b0302 0x0002c90000000301 2\n"
				 "0x0002c903000c0401 0x0002c90000000401 1\n"
				 "0x0002c903000e0501 0x0002c90000000501 1\n";

static const char *const guids[] = {
    "0002c90000000201", "0002c90000000301", "0002c90000000401",
    "0002c90000000501", "0002c90000000601", "0002c903000b0301",
    "0002c903000b0302", "0002c903000c0401", "0002c903000e0501",
    "0002c9030000dead", /* unknown */
};
#define NGUIDS (sizeof(guids) / sizeof(guids[0]))

static uint64_t rnd = 0x9e3779b97f4a7c15ull;
static unsigned next(unsigned n)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return (unsigned)(rnd % n);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void side_open(struct side *x, const char *name, const char *topo,
		      const char *aliases, ibp_vf_guids vf, bool whole)
{
	guard_side_dir(x, name, operator_text);
	struct ibp_service_options o;
	ibp_service_options_init(&o, IBP_SERVICE_OPTIONS_VERSION);
	o.db_path = x->db;
	o.partitions_path = x->conf;
	o.topology_path = topo;
	o.vf_guids = vf;
	ibp_error err;
	assert_int_equal(ibp_service_open(&o, &x->s, &err), IBP_OK);
	assert_int_equal(ibp_service_set_alias_guids(x->s, aliases, &err),
			 IBP_OK);
	ibp_service_set_guard_whole(x->s, whole);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A JSON array of findings as a sorted list of their code, ports and
 * partitions (the order of the two guards' lists may differ). */
static char *canon(const char *json)
{
	if (!json)
		return strdup("");
	json_t *a = json_loads(json, 0, NULL);
	assert_true(json_is_array(a));
	size_t n = json_array_size(a);
	char **v = calloc(n + 1, sizeof(*v));
	size_t len = 1;
	for (size_t i = 0; i < n; i++) {
		json_t *f = json_array_get(a, i);
		json_t *k =
		    json_pack("{sOsOsO}", "code", json_object_get(f, "code"),
			      "ports", json_object_get(f, "ports"),
			      "partitions", json_object_get(f, "partitions"));
		v[i] = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
		len += strlen(v[i]) + 1;
		json_decref(k);
	}
	qsort(v, n, sizeof(*v), by_str);
	char *out = calloc(len, 1);
	for (size_t i = 0; i < n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
		free(v[i]);
	}
	free(v);
	json_decref(a);
	return out;
}

struct answer {
	int rc, http;
	char *findings, *warnings;
};

static void answer_free(struct answer *a)
{
	free(a->findings);
	free(a->warnings);
}

static struct answer ask(struct side *x, bool warned, ibp_service_op op,
			 const char *body)
{
	static const char *const warn[] = {"shared-physical-port", NULL};
	struct ibp_service_caller c;
	ibp_service_caller_init(&c, IBP_SERVICE_CALLER_VERSION);
	c.user = warned ? "k8s" : "plain";
	c.warn_rules = warned ? warn : NULL;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	struct answer a;
	a.rc =
	    ibp_service_change_as(x->s, &c, op, body, strlen(body), NULL, &e);
	a.http = a.rc ? ibp_service_error_http(&e) : 200;
	a.findings = canon(e.findings);
	a.warnings = canon(c.warnings);
	free(c.warnings);
	ibp_service_error_clear(&e);
	return a;
}

static void run(ibp_vf_guids vf, const char *name)
{
	char topo[512], aliases[512];
	const char *data = getenv("IBP_TESTDATA");
	snprintf(topo, sizeof(topo), "%s/../interop/data/live-2sw.topo",
		 data ? data : "tests/data");
	struct side inc, whole;
	side_open(&whole, name, topo, NULL, vf, true);
	snprintf(aliases, sizeof(aliases), "%s/vf.aliases", whole.dir);
	write_file(aliases, alias_text);
	ibp_error err;
	assert_int_equal(ibp_service_set_alias_guids(whole.s, aliases, &err),
			 IBP_OK);
	side_open(&inc, name, topo, aliases, vf, false);
	size_t refused = 0, warned = 0, spp = 0;
	for (unsigned step = 1; step <= STEPS; step++) {
		unsigned op = next(10);
		unsigned pkey = 0x20 + next(4);
		char body[512];
		int at = snprintf(body, sizeof(body),
				  "{\"pkey\":\"0x%x\",\"membership\":\"%s\","
				  "\"guids\":[",
				  pkey, next(3) ? "full" : "limited");
		for (unsigned k = 0, n = 1 + next(3); k < n; k++)
			at += snprintf(body + at, sizeof(body) - (size_t)at,
				       "%s\"%s\"", k ? "," : "",
				       guids[next(NGUIDS)]);
		snprintf(body + at, sizeof(body) - (size_t)at, "]}");
		ibp_service_op o =
		    op < 3 ? IBP_SERVICE_REMOVE_GUIDS : IBP_SERVICE_ADD_GUIDS;
		if (op == 3) { /* a whole P_Key away */
			char p[16];
			snprintf(p, sizeof(p), "0x%x", pkey);
			struct ibp_service_error e1, e2;
			ibp_service_error_init(&e1);
			ibp_service_error_init(&e2);
			int r1 = ibp_service_delete_pkey(whole.s, p, NULL, &e1);
			int r2 = ibp_service_delete_pkey(inc.s, p, NULL, &e2);
			assert_int_equal(r1, r2);
			ibp_service_error_clear(&e1);
			ibp_service_error_clear(&e2);
			continue;
		}
		bool w = next(2);
		struct answer a = ask(&whole, w, o, body);
		struct answer b = ask(&inc, w, o, body);
		if (a.http != b.http || strcmp(a.findings, b.findings) ||
		    strcmp(a.warnings, b.warnings))
			fail_msg("step %u %s: whole %d [%s] warnings [%s], "
				 "kept %d [%s] warnings [%s]",
				 step, body, a.http, a.findings, a.warnings,
				 b.http, b.findings, b.warnings);
		refused += a.http == 409;
		warned += *a.warnings != 0;
		spp += strstr(a.findings, "shared-physical-port") ||
		       strstr(a.warnings, "shared-physical-port");
		answer_free(&a);
		answer_free(&b);
		char why[512];
		unsigned long drifts = 0;
		if (ibp_service_guard_check(inc.s, why, sizeof(why), &drifts))
			fail_msg("step %u %s: %s", step, body, why);
		assert_int_equal(ibp_service_revision(inc.s),
				 ibp_service_revision(whole.s));
	}
	uint64_t fast = 0, full = 0, wfast = 0;
	ibp_service_guard_counts(inc.s, &fast, &full);
	ibp_service_guard_counts(whole.s, &wfast, NULL);
	fprintf(stderr,
		"%s: %u steps, %zu refused, %zu with warnings, %zu with "
		"shared-physical-port; kept answer %llu, whole plan %llu\n",
		name, STEPS, refused, warned, spp, (unsigned long long)fast,
		(unsigned long long)full);
	assert_int_equal(wfast, 0);
	assert_true(fast > full); /* the kept answer judged most */
	assert_true(refused > 0 && warned > 0 && spp > 0);
	guard_side_close(&inc);
	guard_side_close(&whole);
}

static void test_alias(void **state)
{
	(void)state;
	run(IBP_VF_GUIDS_ALIAS, "test_guard_vf_alias");
}

static void test_physical(void **state)
{
	(void)state;
	run(IBP_VF_GUIDS_PHYSICAL, "test_guard_vf_physical");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alias),
	    cmocka_unit_test(test_physical),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
