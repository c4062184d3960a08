/*
 * old_caller.c - a program built against version 1 of the monitor's
 * options (monitor_options_v1.h, a smaller struct than today's) run
 * against the current libibpart.so:
 *   - ibp_monitor_options_init(&o, 1) writes only version 1's fields:
 *     the bytes after the old struct stay as they were;
 *   - ibp_monitor_sweep_run() reads only those fields and sweeps the
 *     simulated fabric of TOPOLOGY and PLAN: the struct is the last bytes
 *     of a page followed by an inaccessible one, so a read past version
 *     1's fields faults (garbage after it, as in a boxed struct, can go
 *     unnoticed when the code asks the version before using a field);
 *   - version 0 and a version newer than the library's are refused with
 *     IBP_EINVAL, nothing swept;
 *   - nested options: ibp_tables_compute() with version 1 of its options
 *     (without vf_guids), its fabric and policy options, and
 *     ibp_matrix_build() with its options, each struct guarded the same
 *     way, computes; a policy or matrix options version out of range is
 *     refused with IBP_EINVAL;
 *   - the other stable options a version 2 added to, each at version 1
 *     and guarded the same way: a simulated session opened with
 *     sim_session's, ibp_verify() and ibp_apply_plan()/ibp_apply_run()
 *     on it with verify's, apply's and apply_run's, and
 *     ibp_analysis_input_load() with analysis_input's, each served;
 *   - the result structs the library fills (results_v1.h: ibp_plan,
 *     ibp_tables_result, ibp_explanation, ibp_apply_counts,
 *     ibp_apply_opensm_result, ibp_osm_conf), each at version 1 as the
 *     last bytes before an inaccessible page: filled (a library writing
 *     its whole newer struct would fault), then cleared keeping the
 *     version; versions 0 and newer than the library's refused with
 *     IBP_EINVAL and nothing written.
 * Prints one line per check, "ok" at the end; exit 1 on a failed check.
 *
 *   old_caller TOPOLOGY PLAN OPENSM_CONF
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stddef.h>

#include <ibpart/analysis.h>
#include <ibpart/analysis_input.h>
#include <ibpart/apply.h>
#include <ibpart/live.h>
#include <ibpart/monitor.h>
#include <ibpart/sys/monitor.h>
#include <ibpart/sys/sim_session.h>
#include <ibpart/sys/transport.h>
#include <ibpart/tables_compute.h>
#include <ibpart/verify.h>

#include "monitor_options_v1.h"
#include "results_v1.h"

/* The old struct, then bytes a newer struct would have had there. */
struct boxed {
	struct old_monitor_options o;
	unsigned char after[256];
};

static int failed(const char *what)
{
	printf("FAIL %s\n", what);
	return 1;
}

/* size bytes at the end of a readable page, the next page
 * inaccessible: reading or writing past them faults.  NULL on failure. */
static void *guarded_bytes(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return NULL;
	unsigned char *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + page, (size_t)page, PROT_NONE))
		return NULL;
	return m + page - size;
}

/* The version 1 monitor options, guarded. */
static struct old_monitor_options *guarded(void)
{
	return guarded_bytes(sizeof(struct old_monitor_options));
}

/* ibp_tables_compute() of TOPOLOGY and PLAN with version 1 of its
 * options, pointing at the fabric and policy options, then the matrix
 * of the tables; every struct guarded.  policy_version and
 * matrix_version are written after _init. */
static int nested(const char *topo, const char *plan, unsigned policy_version,
		  unsigned matrix_version, ibp_error *err)
{
	size_t v1 = offsetof(ibp_tables_compute_options, vf_guids);
	ibp_tables_compute_options *to = guarded_bytes(v1);
	ibp_fabric_options *fo = guarded_bytes(sizeof(*fo));
	ibp_policy_options *po = guarded_bytes(sizeof(*po));
	ibp_matrix_options *mo = guarded_bytes(sizeof(*mo));
	if (!to || !fo || !po || !mo)
		return IBP_ENOMEM;
	ibp_tables_compute_options_init(to, 1);
	ibp_fabric_options_init(fo, IBP_FABRIC_OPTIONS_VERSION);
	ibp_policy_options_init(po, IBP_POLICY_OPTIONS_VERSION);
	ibp_matrix_options_init(mo, IBP_MATRIX_OPTIONS_VERSION);
	po->version = policy_version;
	mo->version = matrix_version;
	to->topology_path = topo;
	to->plan_path = plan;
	to->fabric = fo;
	to->policy = po;
	struct old_tables_result *r = guarded_bytes(sizeof(*r));
	if (!r)
		return IBP_ENOMEM;
	*r = (struct old_tables_result){.version = 1};
	ibp_tables_result *rr = (ibp_tables_result *)(void *)r;
	int rc = ibp_tables_compute(to, rr, NULL, err);
	ibp_matrix *m = NULL;
	if (!rc)
		rc = ibp_matrix_build(r->tables, mo, &m, err);
	size_t n = 0, node;
	unsigned port;
	while (!rc && ibp_matrix_endpoint(m, n, &node, &port))
		n++;
	if (!rc)
		printf("matrix: %zu end ports\n", n);
	ibp_matrix_free(m);
	ibp_tables_result_free(rr);
	if (r->version != 1 || r->tables)
		return failed("the tables result freed, its version kept");
	return rc;
}

static int sweep(ibp_live *l, const struct old_monitor_options *o,
		 ibp_error *err)
{
	ibp_monitor_state *st = ibp_monitor_state_new();
	ibp_monitor_sweep *s = NULL;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_monitor_sweep_run(
	    l, (const struct ibp_monitor_options *)(const void *)o, st, &s, d,
	    err);
	char *text = rc ? NULL : ibp_monitor_sweep_prometheus(s);
	if (text)
		printf("swept: %zu bytes of Prometheus text\n", strlen(text));
	else if (!rc)
		rc = IBP_ENOMEM;
	free(text);
	ibp_monitor_sweep_free(s);
	ibp_diags_free(d);
	ibp_monitor_state_free(st);
	return rc;
}

/* "NAME version 1: served", or the error; 1 on failure. */
static int served(const char *name, int rc, ibp_error *err)
{
	char buf[512] = "served";
	if (rc)
		ibp_error_format(err, buf, sizeof(buf));
	printf("%s version 1: %s\n", name, buf);
	return rc ? failed("a version 1 caller is served") : 0;
}

/* The options a version 2 grew, each at version 1 in a guarded struct
 * as long as version 1's fields: 0, or 1 on a failed check. */
static int version_1_structs(ibp_live *l, const char *topo, const char *plan)
{
	ibp_error err;
	int bad = 0;
	struct ibp_sim_session_options *so = guarded_bytes(
	    offsetof(struct ibp_sim_session_options, alias_guids_path));
	struct ibp_verify_options *vo =
	    guarded_bytes(offsetof(struct ibp_verify_options, vf_guids));
	struct ibp_apply_options *ao =
	    guarded_bytes(offsetof(struct ibp_apply_options, alias_guids_path));
	struct ibp_apply_run_options *ro = guarded_bytes(
	    offsetof(struct ibp_apply_run_options, state_default));
	ibp_analysis_input_options *io =
	    guarded_bytes(offsetof(ibp_analysis_input_options, vf_guids));
	if (!so || !vo || !ao || !ro || !io)
		return failed("guard pages");
	ibp_sim_session_options_init(so, 1);
	so->topo_path = topo;
	so->conf_path = plan;
	ibp_sim_session *ss = NULL;
	bad |= served("sim session options",
		      ibp_sim_session_open(so, &ss, NULL, &err), &err);
	ibp_sim_session_free(ss);
	ibp_verify_options_init(vo, 1);
	vo->conf_path = plan;
	ibp_verify_result *vr = NULL;
	bad |=
	    served("verify options", ibp_verify(l, vo, &vr, NULL, &err), &err);
	ibp_verify_result_free(vr);
	ibp_apply_options_init(ao, 1);
	ao->conf_path = plan;
	ao->force = true; /* the simulated SM runs beside */
	ibp_apply *a = NULL;
	int rc = ibp_apply_plan(l, ao, &a, NULL, &err);
	bad |= served("apply options", rc, &err);
	ibp_apply_run_options_init(ro, 1);
	if (!rc)
		bad |= served("apply run options", ibp_apply_run(a, ro, &err),
			      &err);
	ibp_apply_free(a);
	ibp_analysis_input_options_init(io, 1);
	io->topology_path = topo;
	io->plan_path = plan;
	ibp_analysis_input *in = NULL;
	bad |= served("analysis input options",
		      ibp_analysis_input_load(io, &in, NULL, &err), &err);
	ibp_analysis_input_free(in);
	return bad;
}

/* ---------------------------------------------- result structs */

/* A library call filling the result r (ctx: what it needs). */
typedef int (*fill_fn)(void *r, void *ctx, ibp_error *err);

/* size bytes of a result at version v, guarded; 0x5a after the version
 * field.  NULL on failure. */
static void *guarded_result(size_t size, unsigned v)
{
	unsigned char *r = guarded_bytes(size);
	if (r) {
		memset(r, 0x5a, size);
		memcpy(r, &v, sizeof(v));
	}
	return r;
}

/* Versions 0 and current + 1 of the result NAME: fill refuses them with
 * IBP_EINVAL and writes nothing.  0, or 1 on a failed check. */
static int refused(const char *name, size_t size, unsigned current,
		   fill_fn fill, void *ctx)
{
	unsigned wrong[] = {0, current + 1};
	int bad = 0;
	for (size_t i = 0; i < 2; i++) {
		unsigned char *r = guarded_result(size, wrong[i]);
		if (!r)
			return failed("guard pages");
		ibp_error err;
		int rc = fill(r, ctx, &err);
		size_t k = sizeof(unsigned);
		while (k < size && r[k] == 0x5a)
			k++;
		bool ok =
		    rc == IBP_EINVAL && k == size && strstr(err.message, name);
		printf("%s version %u: %s\n", name, wrong[i],
		       ok ? "refused, nothing written" : "accepted");
		if (!ok)
			bad |= failed("a result version out of range is "
				      "refused, nothing written");
	}
	return bad;
}

/* "NAME version 1: filled", or why not; 1 on failure. */
static int filled(const char *name, int rc, bool ok, ibp_error *err)
{
	char buf[512] = "filled";
	if (rc)
		ibp_error_format(err, buf, sizeof(buf));
	else if (!ok)
		snprintf(buf, sizeof(buf), "not as expected");
	printf("%s version 1: %s\n", name, buf);
	return rc || !ok ? failed("a version 1 result is filled") : 0;
}

static int fill_plan(void *r, void *plan, ibp_error *err)
{
	ibp_plan_read_options o;
	ibp_plan_read_options_init(&o, IBP_PLAN_READ_OPTIONS_VERSION);
	o.plan_path = plan;
	return ibp_plan_read(&o, r, NULL, err);
}

static int fill_tables(void *r, void *paths, ibp_error *err)
{
	char **p = paths;
	ibp_tables_compute_options o;
	ibp_tables_compute_options_init(&o, IBP_TABLES_COMPUTE_OPTIONS_VERSION);
	o.topology_path = p[0];
	o.plan_path = p[1];
	return ibp_tables_compute(&o, r, NULL, err);
}

static int fill_explanation(void *r, void *m, ibp_error *err)
{
	return ibp_matrix_explain_ports(m, ibp_matrix_endpoint_label(m, 0),
					ibp_matrix_endpoint_label(m, 1), r,
					err);
}

static int fill_counts(void *r, void *a, ibp_error *err)
{
	return ibp_apply_counts_get(a, r, err);
}

struct via {
	ibp_live *l;
	const char *plan;
};

static int fill_via_opensm(void *r, void *ctx, ibp_error *err)
{
	const struct via *v = ctx;
	struct ibp_apply_opensm_options o;
	ibp_apply_opensm_options_init(&o, IBP_APPLY_OPENSM_OPTIONS_VERSION);
	o.conf_path = v->plan;
	o.dry_run = true;
	return ibp_apply_via_opensm(v->l, &o, r, NULL, err);
}

static int fill_reload(void *r, void *partitions, ibp_error *err)
{
	struct ibp_opensm_reload_options o;
	ibp_opensm_reload_options_init(&o, IBP_OPENSM_RELOAD_OPTIONS_VERSION);
	o.partitions = partitions;
	o.pid = getpid(); /* no OpenSM: refused after r->pid is set */
	return ibp_opensm_reload(NULL, &o, r, err);
}

static int fill_osm_conf(void *r, void *path, ibp_error *err)
{
	return ibp_osm_conf_load_diags(path, r, NULL, err);
}

/* Each result struct at version 1 before a guard page, filled and
 * cleared; out of range versions refused.  0, or 1 on a failed check. */
static int results(ibp_live *l, const char *topo, const char *plan,
		   const char *osmconf)
{
	ibp_error err;
	int bad = 0, rc;

	struct old_plan *pl = guarded_result(sizeof(*pl), 1);
	if (!pl)
		return failed("guard pages");
	rc = fill_plan(pl, (void *)plan, &err);
	bad |= filled("ibp_plan", rc, pl->conf && pl->diags, &err);
	ibp_plan_clear((ibp_plan *)(void *)pl);
	bad |=
	    filled("ibp_plan cleared", 0, pl->version == 1 && !pl->conf, &err);
	bad |= refused("ibp_plan", sizeof(*pl), IBP_PLAN_VERSION, fill_plan,
		       (void *)plan);

	const char *paths[] = {topo, plan};
	bad |= refused("ibp_tables_result", sizeof(struct old_tables_result),
		       IBP_TABLES_RESULT_VERSION, fill_tables, paths);

	/* the explanation: on a matrix of the tables */
	ibp_tables_result tr = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_matrix *m = NULL;
	rc = fill_tables(&tr, paths, &err);
	if (!rc)
		rc = ibp_matrix_build(tr.tables, NULL, &m, &err);
	struct old_explanation *ex = guarded_result(sizeof(*ex), 1);
	if (!ex)
		return failed("guard pages");
	if (!rc)
		rc = fill_explanation(ex, m, &err);
	bad |=
	    filled("ibp_explanation", rc, ex->src == 0 && ex->dst == 1, &err);
	char *json = rc ? NULL : ibp_explanation_json(m, (void *)ex);
	bad |= filled("ibp_explanation json", 0, json != NULL, &err);
	free(json);
	ibp_explanation_free((ibp_explanation *)(void *)ex);
	bad |= filled("ibp_explanation freed", 0,
		      ex->version == 1 && !ex->shared, &err);
	if (m)
		bad |= refused("ibp_explanation", sizeof(*ex),
			       IBP_EXPLANATION_VERSION, fill_explanation, m);
	ibp_matrix_free(m);
	ibp_tables_result_free(&tr);

	/* the counts of an apply planned (not run) on the session */
	struct ibp_apply_options ao;
	ibp_apply_options_init(&ao, IBP_APPLY_OPTIONS_VERSION);
	ao.conf_path = plan;
	ao.force = true;
	ibp_apply *a = NULL;
	rc = ibp_apply_plan(l, &ao, &a, NULL, &err);
	struct old_apply_counts *c = guarded_result(sizeof(*c), 1);
	if (!c)
		return failed("guard pages");
	if (!rc)
		rc = fill_counts(c, a, &err);
	bad |= filled("struct ibp_apply_counts", rc, c->smps_set == 0, &err);
	if (a)
		bad |= refused("struct ibp_apply_counts", sizeof(*c),
			       IBP_APPLY_COUNTS_VERSION, fill_counts, a);
	ibp_apply_free(a);

	/* via OpenSM, a dry run: the file made, nothing installed */
	struct via vl = {l, plan};
	struct old_apply_opensm_result *os = guarded_result(sizeof(*os), 1);
	if (!os)
		return failed("guard pages");
	rc = fill_via_opensm(os, &vl, &err);
	bad |= filled("struct ibp_apply_opensm_result", rc,
		      os->text && os->len && os->seen == IBP_OPENSM_NOT_ASKED,
		      &err);
	ibp_apply_opensm_result_clear((void *)os);
	bad |= filled("struct ibp_apply_opensm_result cleared", 0,
		      os->version == 1 && !os->text, &err);
	bad |= refused("struct ibp_apply_opensm_result", sizeof(*os),
		       IBP_APPLY_OPENSM_RESULT_VERSION, fill_via_opensm, &vl);
	/* the reload: this process is no OpenSM, refused once r->pid is
	 * set, the text kept */
	os = guarded_result(sizeof(*os), 1);
	if (!os)
		return failed("guard pages");
	os->text = NULL;
	rc = fill_reload(os, (void *)osmconf, &err);
	bad |= filled("struct ibp_apply_opensm_result reload",
		      rc == IBP_EINVAL ? 0 : IBP_EIO,
		      os->pid == getpid() && !os->text, &err);
	bad |= refused("struct ibp_apply_opensm_result", sizeof(*os),
		       IBP_APPLY_OPENSM_RESULT_VERSION, fill_reload,
		       (void *)osmconf);

	struct old_osm_conf *oc = guarded_result(sizeof(*oc), 1);
	if (!oc)
		return failed("guard pages");
	rc = fill_osm_conf(oc, (void *)osmconf, &err);
	bad |= filled("ibp_osm_conf", rc,
		      oc->have_m_key && oc->m_key == 0x1234 &&
			  oc->keep_pkey_indexes,
		      &err);
	bad |= refused("ibp_osm_conf", sizeof(*oc), IBP_OSM_CONF_VERSION,
		       fill_osm_conf, (void *)osmconf);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr,
			"usage: old_caller TOPOLOGY PLAN OPENSM_CONF\n");
		return 2;
	}
	struct boxed b;
	memset(&b, 0xa5, sizeof(b));
	ibp_monitor_options_init((struct ibp_monitor_options *)(void *)&b.o,
				 OLD_MONITOR_OPTIONS_VERSION);
	for (size_t i = 0; i < sizeof(b.after); i++)
		if (b.after[i] != 0xa5) {
			printf(
			    "init wrote byte %zu past the version 1 struct\n",
			    i);
			return failed("init stays within version 1");
		}
	if (b.o.version != OLD_MONITOR_OPTIONS_VERSION || b.o.retries != -1)
		return failed("init wrote version 1's defaults");
	printf("init: version %u, retries %d, nothing written past it\n",
	       b.o.version, b.o.retries);
	b.o.conf_path = argv[2];

	struct ibp_sim_session_options so;
	ibp_sim_session_options_init(&so, IBP_SIM_SESSION_OPTIONS_VERSION);
	so.topo_path = argv[1];
	so.conf_path = argv[2];
	ibp_sim_session *ss = NULL;
	ibp_transport *t = NULL;
	ibp_live *l = NULL;
	ibp_error err;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_sim_session_open(&so, &ss, d, &err);
	ibp_diags_free(d);
	if (!rc)
		rc = ibp_monitor_open_sim(ss, NULL, &t, &l, &err);
	if (rc) {
		char buf[512];
		ibp_error_format(&err, buf, sizeof(buf));
		printf("simulated fabric: %s\n", buf);
		return 2;
	}
	struct old_monitor_options *g = guarded();
	if (!g) {
		printf("no guard page: mmap/mprotect failed\n");
		return 2;
	}
	*g = b.o;
	int bad = 0;
	if (sweep(l, g, &err)) {
		char buf[512];
		ibp_error_format(&err, buf, sizeof(buf));
		printf("sweep with version 1 options: %s\n", buf);
		bad |= failed("a version 1 caller is served");
	}
	unsigned wrong[] = {0, IBP_MONITOR_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		g->version = wrong[i];
		rc = sweep(l, g, &err);
		printf("version %u: %s\n", wrong[i],
		       rc == IBP_EINVAL ? "refused" : "accepted");
		if (rc != IBP_EINVAL)
			bad |= failed("a version out of range is refused");
	}
	rc = nested(argv[1], argv[2], IBP_POLICY_OPTIONS_VERSION,
		    IBP_MATRIX_OPTIONS_VERSION, &err);
	if (rc) {
		char buf[512];
		ibp_error_format(&err, buf, sizeof(buf));
		printf("tables with version 1 options: %s\n", buf);
		bad |= failed("nested version 1 options are served");
	}
	for (size_t i = 0; i < 2; i++) {
		unsigned pv = wrong[i] ? IBP_POLICY_OPTIONS_VERSION + 1 : 0;
		unsigned mv = wrong[i] ? IBP_MATRIX_OPTIONS_VERSION + 1 : 0;
		rc = nested(argv[1], argv[2], pv, IBP_MATRIX_OPTIONS_VERSION,
			    &err);
		printf("policy options version %u: %s\n", pv,
		       rc == IBP_EINVAL ? "refused" : "accepted");
		if (rc != IBP_EINVAL)
			bad |= failed("a policy version out of range is "
				      "refused");
		rc = nested(argv[1], argv[2], IBP_POLICY_OPTIONS_VERSION, mv,
			    &err);
		printf("matrix options version %u: %s\n", mv,
		       rc == IBP_EINVAL ? "refused" : "accepted");
		if (rc != IBP_EINVAL)
			bad |= failed("a matrix version out of range is "
				      "refused");
	}
	bad |= version_1_structs(l, argv[1], argv[2]);
	bad |= results(l, argv[1], argv[2], argv[3]);
	ibp_live_close(l);
	ibp_transport_close(t);
	ibp_sim_session_free(ss);
	if (!bad)
		printf("ok\n");
	return bad;
}
