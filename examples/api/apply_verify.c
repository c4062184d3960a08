/*
 * apply_verify.c - a third-party program on libibpart's public API alone:
 * bring up the built-in simulated fabric of a topology, apply a plan to it
 * as the partition manager (SubnSet(P_KeyTable) over real SMPs), then
 * verify that every port holds what the plan says.
 *
 *   cc apply_verify.c $(pkg-config --cflags --libs ibpart) -o apply_verify
 *   ./apply_verify TOPOLOGY PARTITIONS.CONF
 *
 * The same calls drive a real subnet: open the session with
 * ibp_live_open() (libibumad) instead of ibp_live_open_transport().
 * Exit: 0 the fabric holds the plan, 1 it does not, 2 bad input, 3 the
 * fabric or the system failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include <ibpart/apply.h>
#include <ibpart/diag.h>
#include <ibpart/live.h>
#include <ibpart/sys/live.h>
#include <ibpart/sys/sim.h>
#include <ibpart/topo.h>
#include <ibpart/sys/transport_sim.h>
#include <ibpart/verify.h>
#include <ibpart/version.h>

static void progress(void *ctx, long ms, const char *msg)
{
	(void)ctx;
	printf("  [%ld ms] %s\n", ms, msg);
}

static int fail(const char *what, const ibp_error *err, int status)
{
	char buf[1024];
	ibp_error_format(err, buf, sizeof(buf));
	fprintf(stderr, "apply_verify: %s: %s\n", what, buf);
	return status == IBP_EPARSE || status == IBP_EINVAL ? 2 : 3;
}

/* The plan's warnings and errors, one line each, read finding by
 * finding (ibp_diags_print would quote the line with a caret). */
static void show(ibp_diags *d)
{
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_NOTE)
			continue;
		fprintf(stderr, "%s:%u:%u: %s: %s [%s]\n", x->file, x->line,
			x->col, ibp_severity_str(x->severity), x->message,
			x->code);
	}
	ibp_diags_free(d);
}

static int verify(ibp_live *l, const char *conf, size_t *differences)
{
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = conf;
	ibp_verify_result *r = NULL;
	ibp_error err;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_verify(l, &vo, &r, d, &err);
	show(d);
	if (rc)
		return fail("verify", &err, rc);
	size_t ports = 0;
	*differences = ibp_verify_result_differences(r, &ports);
	const ibp_drift *dr = ibp_verify_result_drift(r);
	printf("verify: %zu ports checked, %zu differences on %zu ports\n",
	       ibp_drift_ports_checked(dr), *differences, ports);
	/* the first few differences, item by item */
	for (size_t i = 0; i < ibp_drift_count(dr) && i < 3; i++) {
		const struct ibp_drift_item *it = ibp_drift_at(dr, i);
		printf("  node %zu port %u: %s (want 0x%04x, have 0x%04x)\n",
		       it->node, it->port, ibp_drift_kind_str(it->kind),
		       it->want_pkey, it->have_pkey);
	}
	ibp_verify_result_free(r);
	return 0;
}

static int apply(ibp_live *l, const char *conf)
{
	struct ibp_apply_options ao;
	ibp_apply_options_init(&ao, IBP_APPLY_OPTIONS_VERSION);
	ao.conf_path = conf;
	/* The simulated SM port has IsSM set: the SM there is this program
	 * itself, not another SM that would undo the push. */
	ao.force = true;
	ibp_apply *a = NULL;
	ibp_error err;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_apply_plan(l, &ao, &a, d, &err);
	show(d);
	if (rc)
		return fail("plan", &err, rc);
	printf("apply: %zu ports to change\n", ibp_apply_port_count(a));
	rc = ibp_apply_run(a, NULL, &err);
	/* A result struct carries the version of the header this program
	 * was built with: a newer library fills only what it has. */
	struct ibp_apply_counts c = {.version = IBP_APPLY_COUNTS_VERSION};
	ibp_error cerr;
	int crc = ibp_apply_counts_get(a, &c, &cerr);
	if (crc) {
		ibp_apply_free(a);
		return fail("counts", &cerr, crc);
	}
	printf("apply: %zu ports changed, %lu SubnSet, complete: %s\n",
	       ibp_apply_ports_changed(a, NULL), c.smps_set,
	       ibp_apply_complete(a) ? "yes" : "no");
	ibp_apply_free(a);
	return rc ? fail("push", &err, rc) : 0;
}

/* The session over the simulator's SMAs, from the SM's port. */
static int run(ibp_fabric *f, ibp_transport *t, uint64_t sm_guid,
	       const char *conf)
{
	struct ibp_live_options lo;
	ibp_live_options_init(&lo, IBP_LIVE_OPTIONS_VERSION);
	lo.ca = "sim";
	lo.progress = progress;
	ibp_live *l = NULL;
	ibp_error err;
	int rc = ibp_live_open_transport(&lo, t, sm_guid, &l, &err);
	if (!rc)
		rc = ibp_live_discover(l, &err);
	if (!rc) {
		ibp_live_set_topology(l, f);
		rc = ibp_live_find_sm(l, NULL, &err);
	}
	if (rc) {
		ibp_live_close(l);
		return fail("session", &err, rc);
	}
	size_t before = 0, after = 0;
	int ex = verify(l, conf, &before);
	if (!ex)
		ex = apply(l, conf);
	if (!ex)
		ex = verify(l, conf, &after);
	ibp_live_close(l);
	if (!ex && after)
		ex = 1;
	if (!ex)
		printf("the fabric holds the plan (%zu differences before, "
		       "none after)\n",
		       before);
	return ex;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: apply_verify TOPOLOGY CONF\n");
		return 2;
	}
	printf("libibpart %s (headers %s)\n", ibp_version(NULL, NULL, NULL),
	       IBP_VERSION_STRING);
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = NULL;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_fabric_load(argv[1], &fo, &f, d);
	show(d);
	if (rc)
		return 2;
	size_t sn;
	unsigned sp;
	ibp_error err;
	ibp_error_clear(&err);
	ibp_sim *sim = NULL;
	ibp_transport *t = NULL;
	int ex = 0;
	if ((rc = ibp_fabric_default_sm_port(f, &sn, &sp)) ||
	    (rc = ibp_fabric_assign_lids(f, ibp_fabric_port_guid(f, sn, sp),
					 &err)) ||
	    (rc = ibp_sim_new(f, &sim, &err)) ||
	    (rc = ibp_transport_sim_new(sim, sn, sp, NULL, &t, &err)))
		ex = fail("simulated fabric", &err, rc);
	else
		ex = run(f, t, ibp_fabric_port_guid(f, sn, sp), argv[2]);
	ibp_transport_close(t);
	ibp_sim_free(sim);
	ibp_fabric_free(f);
	return ex;
}
