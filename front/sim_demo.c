/*
 * sim_demo.c - the seed document's walkthrough on a sim session (see
 * front/sim_demo.h): two sessions on the seed's own files, one in the
 * asked mode told in full, one in the other mode for what changes, each
 * check recorded in the result.  The narrative goes to the caller's
 * FILE *; nothing is printed elsewhere.  A front end's story told with
 * the library's simulator (sys/sim_session.h), so it is front/'s, not
 * libibpart's.
 */
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front/print.h"
#include "front/sim_demo.h"
#include "ibpart/pkey.h"
#include "ibpart/sys/sim_session.h"

#define NSEED 7

/* The seed document's connectivity table, transcribed from it (rows:
 * SM Node, UFM Server, TenantA, TenantA, TenantB, TenantB, Storage Node;
 * the same order as columns; '-' the diagonal). */
static const char *const seed_names[NSEED] = {
    "sm-01",	       "ufm-server",	  "tenantA-node-01", "tenantA-node-02",
    "tenantB-node-01", "tenantB-node-02", "storage-node"};
static const char seed_table[] = "-YNNNNN"
				 "Y-NNNNN"
				 "NN-YNNY"
				 "NNY-NNY"
				 "NNNN-YY"
				 "NNNNY-Y"
				 "NNYYYY-";

struct ibp_sim_demo {
	char mode[8], other[8];
	struct ibp_sim_demo_check *checks;
	size_t nchecks, cap, failures;
	size_t differ, other_differ;
};

/* One run: its options, its narrative, its result. */
struct demo {
	const struct ibp_sim_demo_options *o;
	FILE *out;
	ibp_sim_demo *r;
	ibp_diags *diags;
	ibp_error *err;
};

static void say(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(FILE *out, const char *fmt, ...)
{
	if (!out)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

static void heading(FILE *out, const char *text)
{
	say(out, "\n== %s\n\n", text);
}

void ibp_sim_demo_options_init(struct ibp_sim_demo_options *o, unsigned version)
{
	memset(o, 0, sizeof(*o));
	o->version = version;
	o->mode = "strict";
}

static bool holds_seed(const char *dir)
{
	char probe[PATH_MAX + 64];
	struct stat st;
	snprintf(probe, sizeof(probe), "%s/seed/seed.topo", dir);
	return stat(probe, &st) == 0 && S_ISREG(st.st_mode);
}

int ibp_sim_demo_find_examples(const char *hint, char *out, size_t len)
{
	if (len)
		out[0] = 0;
	if (hint && *hint && holds_seed(hint)) {
		snprintf(out, len, "%s", hint);
		return IBP_OK;
	}
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return IBP_ENOENT;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return IBP_ENOENT;
	*slash = 0;
	static const char *const rel[] = {"/../examples",
					  "/../share/ibpart/examples",
					  "/../../examples", "/examples"};
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", exe, rel[i]);
		if (holds_seed(dir)) {
			snprintf(out, len, "%s", dir);
			return IBP_OK;
		}
	}
	return IBP_ENOENT;
}

/* Record a check; false when out of memory. */
static bool add_check(ibp_sim_demo *r, bool held, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool add_check(ibp_sim_demo *r, bool held, const char *fmt, ...)
{
	if (r->nchecks == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 8;
		void *p = realloc(r->checks, cap * sizeof(*r->checks));
		if (!p)
			return false;
		r->checks = p;
		r->cap = cap;
	}
	struct ibp_sim_demo_check *c = &r->checks[r->nchecks++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
	c->held = held;
	r->failures += !held;
	return true;
}

/* Compare the probe matrix with the seed's table.  out: one line per
 * sender whose row differs. */
static size_t check_seed_matrix(const ibp_sim_session *s,
				const struct ibp_sim_probe_result *m, FILE *out)
{
	unsigned char diff[NSEED * NSEED];
	size_t nd =
	    ibp_sim_probe_compare(s, m, seed_names, NSEED, seed_table, diff);
	for (int i = 0; out && i < NSEED; i++) {
		char line[2][512] = {"", ""}; /* gained, lost */
		for (int j = 0; j < NSEED; j++) {
			char *dst = line[seed_table[i * NSEED + j] == 'Y'];
			size_t l = strlen(dst);
			if (diff[i * NSEED + j])
				snprintf(dst + l, 512 - l, " %s",
					 seed_names[j]);
		}
		if (line[0][0])
			say(out, "  %-16s also reaches%s\n", seed_names[i],
			    line[0]);
		if (line[1][0])
			say(out, "  %-16s no longer reaches%s\n", seed_names[i],
			    line[1]);
	}
	return nd;
}

/* What one entry of a P_KeyTable means, in the seed's words. */
static const char *entry_meaning(uint16_t k, char *buf, size_t len)
{
	if (ibp_pkey_base(k) == 0x7fff)
		return ibp_pkey_is_full(k) ? "management partition (full)"
					   : "management partition (limited)";
	if (!ibp_pkey_is_valid(k))
		return "empty slot";
	snprintf(buf, len, "partition 0x%04x, %s membership", ibp_pkey_base(k),
		 ibp_pkey_is_full(k) ? "full" : "limited");
	return buf;
}

/* The first entries of the table port `name` holds. */
static void print_table(const ibp_sim_session *s, const char *name, FILE *out)
{
	size_t n;
	unsigned p;
	if (!out || ibp_sim_session_port(s, name, &n, &p, NULL) != IBP_OK)
		return;
	const ibp_tables *held = ibp_sim_session_port_tables(s);
	unsigned cap = ibp_tables_port_capacity(held, n, p, NULL), inuse = 0;
	say(out, "PKeys table for %s (GUID 0x%016llx), as the port holds it:\n",
	    name,
	    (unsigned long long)ibp_fabric_port_guid(ibp_sim_session_fabric(s),
						     n, p));
	for (unsigned i = 0; i < 4 && i < cap; i++) {
		uint16_t k = ibp_tables_pkey_at(held, n, p, i);
		char buf[64];
		say(out, "  Pkey[%u] 0x%04x  <- %s\n", i, k,
		    entry_meaning(k, buf, sizeof(buf)));
	}
	for (unsigned i = 0; i < cap; i++)
		inuse += ibp_tables_pkey_at(held, n, p, i) != 0;
	say(out, "  ... %u entries in all (PartitionCap); %u in use\n", cap,
	    inuse);
}

/* The P_Key index a user would pass to reach dst: the first entry of
 * src's table that dst's table accepts (0 when none does). */
static unsigned pick_index(const ibp_sim_session *s, const char *src,
			   const char *dst)
{
	size_t sn, dn;
	unsigned sp, dp;
	if (ibp_sim_session_port(s, src, &sn, &sp, NULL) != IBP_OK ||
	    ibp_sim_session_port(s, dst, &dn, &dp, NULL) != IBP_OK)
		return 0;
	const ibp_tables *held = ibp_sim_session_port_tables(s);
	unsigned sused = 0, dused = 0;
	if (!ibp_tables_port_capacity(held, sn, sp, &sused) ||
	    !ibp_tables_port_capacity(held, dn, dp, &dused))
		return 0;
	for (unsigned i = 0; i < sused; i++) {
		uint16_t k = ibp_tables_pkey_at(held, sn, sp, i);
		for (unsigned j = 0; ibp_pkey_is_valid(k) && j < dused; j++)
			if (ibp_pkey_match(ibp_tables_pkey_at(held, dn, dp, j),
					   k))
				return i;
	}
	return 0;
}

/* A pingpong that should complete (or not: want_ok false); a check that
 * fails, and the line why, when it ends otherwise. */
static int pingpong(struct demo *d, ibp_sim_session *s, const char *src,
		    const char *dst, bool want_ok, const char *unexpected)
{
	struct ibp_sim_pingpong_options po;
	ibp_sim_pingpong_options_init(&po, IBP_SIM_PINGPONG_OPTIONS_VERSION);
	po.pkey_index = pick_index(s, src, dst);
	say(d->out, "$ ibpart sim ... pingpong %s %s --pkey-index %u\n", src,
	    dst, po.pkey_index);
	struct ibp_sim_pingpong_result res;
	int rc =
	    ibp_sim_session_pingpong(s, src, dst, &po, d->out, &res, d->err);
	if (rc != IBP_OK)
		return rc;
	bool held = (res.outcome == IBP_SIM_PINGPONG_COMPLETED) == want_ok;
	if (!held)
		say(d->out, "UNEXPECTED: %s\n", unexpected);
	if (!add_check(d->r, held, "pingpong %s -> %s %s", src, dst,
		       want_ok ? "completes" : "fails"))
		return ibp_error_set(d->err, IBP_ENOMEM, "out of memory");
	return IBP_OK;
}

/* Push (again) with enforcement e, the SM's report to log (NULL: none). */
static int push(struct demo *d, ibp_sim_session *s, ibp_part_enforce e,
		FILE *log)
{
	int rc = ibp_sim_session_push(s, e, d->err);
	if (log)
		ibp_sm_report_print(ibp_sim_session_report(s), log);
	return rc;
}

/* The seed's files, a session on them in mode, pushed; main: the
 * opening lines and the SM's report to the narrative. */
static int open_seed(struct demo *d, const char *mode, bool main,
		     ibp_sim_session **s)
{
	char topo[PATH_MAX + 32], conf[PATH_MAX + 32];
	snprintf(topo, sizeof(topo), "%s/seed/seed.topo", d->o->examples_dir);
	snprintf(conf, sizeof(conf), "%s/seed/seed-block.conf",
		 d->o->examples_dir);
	struct ibp_sim_session_options o;
	ibp_sim_session_options_init(&o, IBP_SIM_SESSION_OPTIONS_VERSION);
	o.max_input_size = d->o->max_input_size;
	o.topo_path = topo;
	o.conf_path = conf;
	o.mode = mode;
	o.push = false; /* the opening lines first, then the push's report */
	FILE *log = main ? d->out : NULL;
	say(log,
	    "ibpart demo: the seed's multi-tenant fabric, simulated "
	    "(mode %s)\n",
	    mode);
	say(log,
	    "fabric: %s\nplan:   %s (the seed's PartitionConfig block, names "
	    "resolved through the fabric's node descriptions)\n",
	    topo, conf);
	if (main)
		heading(log, "1. The SM discovers the fabric by directed route "
			     "and pushes the plan: SubnSet(P_KeyTable) only "
			     "for blocks that differ, each read back");
	ibp_diags *found = ibp_diags_new();
	if (!found)
		return ibp_error_set(d->err, IBP_ENOMEM, "out of memory");
	int rc = ibp_sim_session_open(&o, s, found, d->err);
	/* the seed's plan's warnings are part of the story: only errors */
	bool all =
	    rc != IBP_OK || ibp_diags_count_severity(found, IBP_SEV_ERROR);
	if (d->diags)
		ibp_diags_append(d->diags, found, all ? NULL : topo);
	ibp_diags_free(found);
	if (rc == IBP_OK && (rc = push(d, *s, IBP_ENFORCE_BOTH, log))) {
		ibp_sim_session_free(*s);
		*s = NULL;
	}
	return rc;
}

/* The other mode, briefly: TenantA-01's table and how the matrix
 * differs from the seed's. */
static int run_other_mode(struct demo *d)
{
	ibp_sim_session *s;
	int rc = open_seed(d, d->r->other, false, &s);
	if (rc != IBP_OK)
		return rc;
	print_table(s, "tenantA-node-01", d->out);
	say(d->out, "\n");
	struct ibp_sim_probe_result m = {0};
	rc = ibp_sim_session_probe_matrix(s, NULL, &m, d->err);
	if (rc == IBP_OK) {
		d->r->other_differ = check_seed_matrix(s, &m, NULL);
		say(d->out,
		    "%s mode: %zu of the seed table's 42 cells differ "
		    "(probe matrix):\n",
		    d->r->other, d->r->other_differ);
		check_seed_matrix(s, &m, d->out);
	}
	ibp_sim_probe_result_free(&m);
	ibp_sim_session_free(s);
	return rc;
}

/* Sections 2 and 3: LIDs, TenantA-01's table, smpquery pkeys. */
static int show_tables(struct demo *d, ibp_sim_session *s)
{
	const ibp_fabric *f = ibp_sim_session_fabric(s);
	say(d->out, "LIDs (OpenSM's order on this fabric):");
	for (size_t i = 0; i < ibp_fabric_node_count(f); i++) {
		bool sw = ibp_fabric_node_type(f, i) == IBP_NODE_SWITCH;
		say(d->out, " %s=%u", ibp_fabric_node_desc(f, i),
		    ibp_fabric_port_lid(f, i, sw ? 0 : 1));
	}
	say(d->out, "\n");

	heading(d->out, "2. TenantA-01's P_Key table (the seed: Pkey[0] "
			"0x8001, then empty slots)");
	print_table(s, "tenantA-node-01", d->out);

	size_t an;
	unsigned ap;
	int rc = ibp_sim_session_port(s, "tenantA-node-01", &an, &ap, d->err);
	if (rc != IBP_OK)
		return rc;
	unsigned lid = ibp_fabric_port_lid(f, an, ap);
	char cmd[128];
	snprintf(cmd, sizeof(cmd),
		 "3. $ smpquery pkeys %u %u    (tenantA-node-01: LID %u, "
		 "port %u; read over LID-routed SMPs)",
		 lid, ap, lid, ap);
	heading(d->out, cmd);
	char spec[16];
	snprintf(spec, sizeof(spec), "%u", lid);
	return ibp_sim_session_smpquery_pkeys(s, spec, ap, d->out, d->err);
}

/* Sections 4 to 6: the pingpongs, one of them with switch enforcement
 * off. */
static int show_pingpongs(struct demo *d, ibp_sim_session *s)
{
	int rc;
	heading(d->out, "4. Within TenantA: tenantA-node-01 -> "
			"tenantA-node-02 (expected: 1000 iterations "
			"complete)");
	if ((rc = pingpong(d, s, "tenantA-node-01", "tenantA-node-02", true,
			   "the pingpong failed")))
		return rc;
	heading(d->out, "5. Across partitions: tenantB-node-01 -> "
			"tenantA-node-01 (expected: transport retry counter "
			"exceeded)");
	if ((rc = pingpong(d, s, "tenantB-node-01", "tenantA-node-01", false,
			   "the pingpong got through")))
		return rc;
	say(d->out, "\nThe leaf switch's partition enforcement (OpenSM's "
		    "--part_enforce both) stopped it on the way out to "
		    "tenantA-node-01.  With switch enforcement off, the "
		    "receiving HCA is the check the seed describes; the SM "
		    "re-pushes with --part-enforce off:\n\n");
	if ((rc = push(d, s, IBP_ENFORCE_OFF, d->out)))
		return rc;
	say(d->out, "\n");
	if ((rc = pingpong(d, s, "tenantB-node-01", "tenantA-node-01", false,
			   "the pingpong got through")) ||
	    (rc = push(d, s, IBP_ENFORCE_BOTH, NULL)))
		return rc;
	heading(d->out, "6. Shared storage (limited member of both tenants) "
			"<-> full tenant members (expected: both complete)");
	if ((rc = pingpong(d, s, "tenantA-node-01", "storage-node", true,
			   "tenantA -> storage failed")))
		return rc;
	say(d->out, "\n");
	return pingpong(d, s, "tenantB-node-02", "storage-node", true,
			"tenantB -> storage failed");
}

/* Section 7: the probe matrix against the seed's table; counters. */
static int show_matrix(struct demo *d, ibp_sim_session *s)
{
	bool strict = !strcmp(d->r->mode, "strict");
	heading(d->out, "7. Connectivity: a probe between every ordered pair "
			"of host ports through the data plane (row sends, "
			"column receives)");
	struct ibp_sim_probe_result m = {0};
	int rc = ibp_sim_session_probe_matrix(s, d->out, &m, d->err);
	if (rc != IBP_OK)
		return rc;
	size_t n = d->r->differ =
	    check_seed_matrix(s, &m, strict ? NULL : d->out);
	ibp_sim_probe_result_free(&m);
	if (strict && !add_check(d->r, n == 0,
				 "the probe matrix equals the seed's table"))
		return ibp_error_set(d->err, IBP_ENOMEM, "out of memory");
	if (strict && n == 0)
		say(d->out,
		    "\nequals the seed document's table: all 42 cells\n");
	else if (strict)
		say(d->out,
		    "\nDIFFERS from the seed document's table in %zu cell(s)\n",
		    n);
	else
		say(d->out,
		    "\n%zu cell(s) differ from the seed document's table "
		    "(OpenSM's rules, see below)\n",
		    n);
	say(d->out, "\ncounters after the demo's traffic:\n");
	return ibp_sim_session_counters(s, d->out, d->err);
}

/* Sections 1 to 7, in the run's mode. */
static int run_main_mode(struct demo *d)
{
	ibp_sim_session *s;
	int rc = open_seed(d, d->r->mode, true, &s);
	if (rc == IBP_OK)
		rc = show_tables(d, s);
	if (rc == IBP_OK)
		rc = show_pingpongs(d, s);
	if (rc == IBP_OK)
		rc = show_matrix(d, s);
	ibp_sim_session_free(s);
	return rc;
}

int ibp_sim_demo_run(const struct ibp_sim_demo_options *o, FILE *out,
		     ibp_sim_demo **res, ibp_diags *diags, ibp_error *err)
{
	*res = NULL;
	ibp_error_clear(err);
	if (!o || o->version == 0 ||
	    o->version > IBP_SIM_DEMO_OPTIONS_VERSION || !o->examples_dir ||
	    !o->mode ||
	    (strcmp(o->mode, "strict") && strcmp(o->mode, "opensm")))
		return ibp_error_set(err, IBP_EINVAL,
				     "bad demo options (version, examples "
				     "directory, mode strict|opensm)");
	ibp_sim_demo *r = calloc(1, sizeof(*r));
	if (!r)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	bool strict = !strcmp(o->mode, "strict");
	snprintf(r->mode, sizeof(r->mode), "%s", o->mode);
	snprintf(r->other, sizeof(r->other), "%s",
		 strict ? "opensm" : "strict");
	struct demo d = {o, out, r, diags, err};
	int rc = run_main_mode(&d);
	if (rc == IBP_OK) {
		heading(out, strict ? "8. What changes under OpenSM 3.3.23's "
				      "own rules (--mode opensm)"
				    : "8. What the seed's strict model changes "
				      "(--mode strict)");
		rc = run_other_mode(&d);
	}
	if (rc != IBP_OK) {
		ibp_sim_demo_free(r);
		return rc;
	}
	*res = r;
	return IBP_OK;
}

void ibp_sim_demo_free(ibp_sim_demo *r)
{
	if (!r)
		return;
	free(r->checks);
	free(r);
}

size_t ibp_sim_demo_check_count(const ibp_sim_demo *r)
{
	return r->nchecks;
}

const struct ibp_sim_demo_check *ibp_sim_demo_check_at(const ibp_sim_demo *r,
						       size_t i)
{
	return i < r->nchecks ? &r->checks[i] : NULL;
}

size_t ibp_sim_demo_failures(const ibp_sim_demo *r)
{
	return r->failures;
}

size_t ibp_sim_demo_differences(const ibp_sim_demo *r, size_t *other_mode)
{
	if (other_mode)
		*other_mode = r->other_differ;
	return r->differ;
}

void ibp_sim_demo_print(const ibp_sim_demo *r, FILE *out)
{
	fprintf(out,
		"\nWhy: OpenSM always creates the default partition 0x7fff and "
		"makes every end port a member - limited, the SM's port full - "
		"before it reads partitions.conf, and no rule in the file can "
		"take a port out.  So under OpenSM each tenant node also holds "
		"0x7fff (limited): it reaches the full members of 0x7fff (the "
		"SM and the UFM server, and through QP1 the SA), while two "
		"tenants still cannot meet there (limited-limited never "
		"matches).  The seed's table (SM ✗ tenants) needs the strict "
		"model.  And OpenSM fed the seed's block verbatim rejects the "
		"whole file and makes every port a full member of 0xffff: no "
		"isolation at all (`ibpart check` says so).\n");
	if (r->failures)
		fprintf(out, "\n%zu check(s) did not hold\n", r->failures);
}

char *ibp_sim_demo_json(const ibp_sim_demo *r)
{
	json_t *root = json_object(), *checks = json_array();
	if (!root || !checks ||
	    json_object_set_new(root, "checks", checks) < 0) {
		json_decref(checks);
		json_decref(root);
		return NULL;
	}
	bool ok =
	    !json_object_set_new(root, "mode", json_string(r->mode)) &&
	    !json_object_set_new(root, "other_mode", json_string(r->other));
	for (size_t i = 0; ok && i < r->nchecks; i++)
		ok = !json_array_append_new(
		    checks, json_pack("{s:s, s:b}", "check", r->checks[i].what,
				      "held", r->checks[i].held));
	ok = ok &&
	     !json_object_set_new(root, "failures",
				  json_integer((json_int_t)r->failures)) &&
	     !json_object_set_new(root, "seed_table_differences",
				  json_integer((json_int_t)r->differ)) &&
	     !json_object_set_new(root, "other_mode_differences",
				  json_integer((json_int_t)r->other_differ));
	char *s =
	    ok ? json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(root);
	return s;
}
