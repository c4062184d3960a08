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
 *     ibp_analysis_input_load() with analysis_input's, each served.
 * Prints one line per check, "ok" at the end; exit 1 on a failed check.
 *
 *   old_caller TOPOLOGY PLAN
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
	ibp_tables_result r;
	int rc = ibp_tables_compute(to, &r, NULL, err);
	ibp_matrix *m = NULL;
	if (!rc)
		rc = ibp_matrix_build(r.tables, mo, &m, err);
	size_t n = 0, node;
	unsigned port;
	while (!rc && ibp_matrix_endpoint(m, n, &node, &port))
		n++;
	if (!rc)
		printf("matrix: %zu end ports\n", n);
	ibp_matrix_free(m);
	ibp_tables_result_free(&r);
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

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: old_caller TOPOLOGY PLAN\n");
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
	ibp_live_close(l);
	ibp_transport_close(t);
	ibp_sim_session_free(ss);
	if (!bad)
		printf("ok\n");
	return bad;
}
