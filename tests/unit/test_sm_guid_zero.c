/*
 * test_sm_guid_zero.c - discovery of a node whose NodeInfo reports a GUID
 * of 0 (IBA vol. 1, 14.2.5.3: NodeGUID and PortGUID are never 0), on the
 * simulated fabric told to report it (ibp_sim_set_node_info_port_guid /
 * _node_guid): the node is left out of the discovered fabric as OpenSM
 * leaves it out of its sweep - no port with GUID 0 or a stale GUID, no
 * link, no route, so a plan's table for it is never written - the rest
 * of the fabric is found, and a finding (port-guid-zero, node-guid-zero)
 * names the node, its port and the directed route.  One-at-a-time and
 * pipelined walks alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport_sim.h"
#include "ibpart/verify.h"
#include "seed_live.h"
#include "pkey/pkey_table_lib.h"
#include "pkey/tables_lib.h"
#include "sim_fixture.h"
#include "topo/topo_lib.h"

/* An SM on sim from (sm_node, 1), max_wire_smps `window`. */
static ibp_sm *new_sm(ibp_sim *s, size_t sm_node, unsigned window,
		      ibp_transport **t)
{
	assert_int_equal(ibp_transport_sim_new(s, sm_node, 1, NULL, t, NULL),
			 IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.retries = 0;
	o.max_wire_smps = window;
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(*t, &o, &sm, NULL), IBP_OK);
	return sm;
}

/* The seed fabric (*f) and a simulation of it. */
static ibp_sim *seed_sim(ibp_fabric **f)
{
	*f = fixture_seed_fabric();
	assert_non_null(*f);
	ibp_sim *s;
	assert_int_equal(ibp_sim_new(*f, &s, NULL), IBP_OK);
	return s;
}

/* Free what a case made (any may be NULL). */
static void done(ibp_sm *sm, ibp_transport *t, ibp_sim *s, ibp_fabric *f)
{
	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_sim_free(s);
	ibp_fabric_free(f);
}

/* The one finding discovery made: its code, a warning, and the words
 * its message must hold. */
static void assert_one_finding(const ibp_sm *sm, const char *code,
			       const char *const *words, size_t nwords)
{
	const ibp_diags *d = ibp_sm_discovery_findings(sm);
	assert_non_null(d);
	assert_int_equal(ibp_diags_count(d), 1);
	const ibp_diag *g = ibp_diags_get(d, 0);
	assert_string_equal(g->code, code);
	assert_int_equal(g->severity, IBP_SEV_WARNING);
	for (size_t i = 0; i < nwords; i++)
		if (!strstr(g->message, words[i]))
			fail_msg("\"%s\" not in the finding: %s", words[i],
				 g->message);
}

/* The seed fabric with tenantB-node-02's port reporting PortGUID 0 in
 * NodeInfo: seven nodes found, that one not (by neither GUID), leaf-01's
 * port 6 unlinked, one port-guid-zero finding naming it and route
 * 0,1,6; the strict plan's table for the port is refused by the push
 * and the port keeps the table it had. */
static void test_port_guid_zero_left_out(void **state)
{
	(void)state;
	for (unsigned window = 1; window <= 4; window += 3) {
		ibp_fabric *f;
		ibp_sim *s = seed_sim(&f);
		size_t bad = fixture_node(f, "tenantB-node-02");
		size_t leaf = fixture_node(f, "leaf-01");
		uint64_t bad_guid = ibp_fabric_node_guid(f, bad);
		uint64_t bad_port = ibp_fabric_port_guid(f, bad, 1);
		assert_int_equal(
		    ibp_sim_set_node_info_port_guid(s, bad, 1, 0, NULL),
		    IBP_OK);
		assert_int_equal(ibp_sim_node_info_port_guid(s, bad, 1), 0);
		/* the fabric itself still has the GUID */
		assert_int_equal(ibp_fabric_port_guid(f, bad, 1), bad_port);

		ibp_transport *t;
		ibp_sm *sm = new_sm(s, fixture_node(f, "sm-01"), window, &t);
		assert_int_equal(ibp_sm_discover(sm, NULL), IBP_OK);
		const ibp_fabric *d = ibp_sm_fabric(sm);
		assert_int_equal(ibp_fabric_node_count(d), 7);
		size_t n;
		unsigned p;
		assert_int_not_equal(ibp_fabric_find_node_guid(d, bad_guid, &n),
				     IBP_OK);
		assert_int_not_equal(ibp_fabric_find_port_guid(d, 0, &n, &p),
				     IBP_OK);
		assert_int_not_equal(
		    ibp_fabric_find_port_guid(d, bad_port, &n, &p), IBP_OK);
		/* the others are there, their ports by GUID */
		size_t other = fixture_node(f, "tenantB-node-01");
		assert_int_equal(
		    ibp_fabric_find_port_guid(
			d, ibp_fabric_port_guid(f, other, 1), &n, &p),
		    IBP_OK);
		size_t dleaf;
		assert_int_equal(ibp_fabric_find_node_guid(
				     d, ibp_fabric_node_guid(f, leaf), &dleaf),
				 IBP_OK);
		assert_false(ibp_fabric_port_peer(d, dleaf, 6, &n, &p));
		assert_true(ibp_fabric_port_peer(d, dleaf, 5, &n, &p));

		char guid[24];
		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)bad_guid);
		const char *words[] = {"tenantB-node-02", guid,
				       "port 1",	  "0,1,6",
				       "PortGUID",	  "14.2.5.3"};
		assert_one_finding(sm, "port-guid-zero", words, 6);

		/* no table of it is read ... */
		ibp_tables *cur;
		assert_int_equal(ibp_sm_read_tables(sm, &cur, NULL), IBP_OK);
		assert_false(ibp_sm_discovery_findings(sm) == NULL);
		for (size_t i = 0; i < ibp_tables_count(cur); i++) {
			size_t tn;
			unsigned tp;
			ibp_tables_at(cur, i, &tn, &tp);
			assert_int_not_equal(ibp_fabric_port_guid(d, tn, tp),
					     0);
		}
		ibp_tables_free(cur);
		/* ... nor written: a plan naming it is refused there */
		ibp_tables *want = ibp_tables_new(f);
		ibp_pkey_table *wt = ibp_tables_get_or_create(want, bad, 1);
		assert_non_null(wt);
		assert_int_equal(ibp_pkey_table_set(wt, 0, 0x8002, NULL),
				 IBP_OK);
		struct ibp_sm_report rep;
		assert_int_equal(ibp_sm_push(sm, want, &rep, NULL), IBP_ENOENT);
		assert_false(rep.complete);
		assert_int_equal(rep.nchanged, 0);
		assert_int_equal(rep.blocks_written, 0);
		assert_int_equal(rep.nfailed, 1);
		assert_int_equal(rep.failed[0].node_guid, bad_guid);
		ibp_sm_report_free(&rep);
		const ibp_pkey_table *held =
		    ibp_tables_get(ibp_sim_tables(s), bad, 1);
		assert_non_null(held);
		assert_int_equal(ibp_pkey_table_get(held, 0), 0xffff);
		ibp_tables_free(want);

		done(sm, t, s, f);
	}
}

/* A switch, the SM's CA and a dual-port CA, both of whose ports are
 * linked to the switch. */
static const char dual_topo[] =
    "switchguid=0x0000000000000010\n"
    "Switch\t4 \"S-0000000000000010\"\t\t# \"sw\"\n"
    "[1]\t\"H-0000000000000020\"[1]\t\t# \"sm\"\n"
    "[2]\t\"H-0000000000000030\"[1]\t\t# \"dual\"\n"
    "[3]\t\"H-0000000000000030\"[2]\t\t# \"dual\"\n"
    "\n"
    "caguid=0x0000000000000020\n"
    "Ca\t1 \"H-0000000000000020\"\t\t# \"sm\"\n"
    "[1](0x0000000000000021)\t\"S-0000000000000010\"[1]\n"
    "\n"
    "caguid=0x0000000000000030\n"
    "Ca\t2 \"H-0000000000000030\"\t\t# \"dual\"\n"
    "[1](0x0000000000000031)\t\"S-0000000000000010\"[2]\n"
    "[2](0x0000000000000032)\t\"S-0000000000000010\"[3]\n";

static ibp_fabric *dual_fabric(void)
{
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = NULL;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_fabric_load_buffer("dual.topo", dual_topo,
					sizeof(dual_topo) - 1, &o, &f, d);
	if (rc)
		ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	assert_int_equal(rc, IBP_OK);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, NULL), IBP_OK);
	return f;
}

/* One port of a dual-port CA reports PortGUID 0, the other its own: the
 * node is found by the good port; the bad one has neither a GUID (0 or
 * the other port's) nor a link, and the plan's table for it is refused
 * while the good port's is written. */
static void test_one_port_of_two(void **state)
{
	(void)state;
	for (unsigned window = 1; window <= 4; window += 3) {
		for (unsigned badp = 1; badp <= 2; badp++) {
			ibp_fabric *f = dual_fabric();
			ibp_sim *s;
			assert_int_equal(ibp_sim_new(f, &s, NULL), IBP_OK);
			size_t dual = fixture_node(f, "dual");
			unsigned goodp = 3 - badp;
			assert_int_equal(ibp_sim_set_node_info_port_guid(
					     s, dual, badp, 0, NULL),
					 IBP_OK);
			ibp_transport *t;
			ibp_sm *sm =
			    new_sm(s, fixture_node(f, "sm"), window, &t);
			assert_int_equal(ibp_sm_discover(sm, NULL), IBP_OK);
			const ibp_fabric *d = ibp_sm_fabric(sm);
			assert_int_equal(ibp_fabric_node_count(d), 3);
			size_t dn, n;
			unsigned p;
			assert_int_equal(
			    ibp_fabric_find_node_guid(d, 0x30, &dn), IBP_OK);
			assert_int_equal(ibp_fabric_port_guid(d, dn, goodp),
					 0x30 + goodp);
			uint64_t g = ibp_fabric_port_guid(d, dn, badp);
			assert_true(g == 0 || g == 0x30 + badp);
			assert_int_not_equal(g, 0x30 + goodp);
			assert_false(ibp_fabric_port_peer(d, dn, badp, &n, &p));
			assert_true(ibp_fabric_port_peer(d, dn, goodp, &n, &p));
			char port[16];
			snprintf(port, sizeof(port), "port %u", badp);
			char route[16];
			snprintf(route, sizeof(route), "0,1,%u", badp + 1);
			const char *words[] = {"\"dual\"", port, route,
					       "0x0000000000000030"};
			assert_one_finding(sm, "port-guid-zero", words, 4);

			ibp_tables *want = ibp_tables_new(f);
			for (unsigned q = 1; q <= 2; q++) {
				ibp_pkey_table *wt =
				    ibp_tables_get_or_create(want, dual, q);
				assert_non_null(wt);
				assert_int_equal(
				    ibp_pkey_table_set(wt, 0, 0x8005, NULL),
				    IBP_OK);
			}
			struct ibp_sm_report rep;
			assert_int_equal(ibp_sm_push(sm, want, &rep, NULL),
					 IBP_ENOENT);
			assert_int_equal(rep.nfailed, 1);
			assert_int_equal(rep.failed[0].port, badp);
			ibp_sm_report_free(&rep);
			const ibp_tables *held = ibp_sim_tables(s);
			assert_int_equal(
			    ibp_pkey_table_get(ibp_tables_get(held, dual, badp),
					       0),
			    0xffff);
			/* the good port is written when it comes first */
			if (goodp == 1)
				assert_int_equal(
				    ibp_pkey_table_get(
					ibp_tables_get(held, dual, goodp), 0),
				    0x8005);
			ibp_tables_free(want);
			done(sm, t, s, f);
		}
	}
}

/* The switch reports NodeGUID 0: it and everything behind it are left
 * out (OpenSM cannot sweep past it either), the SM's own CA is all that
 * is found, and node-guid-zero names the switch and route 0,1.  The
 * SM's own port reporting PortGUID 0 fails the discovery: nothing can
 * be walked from it. */
static void test_node_guid_zero_and_local_port(void **state)
{
	(void)state;
	ibp_fabric *f;
	ibp_sim *s = seed_sim(&f);
	size_t leaf = fixture_node(f, "leaf-01");
	size_t smn = fixture_node(f, "sm-01");
	assert_int_equal(ibp_sim_set_node_info_node_guid(s, leaf, 0, NULL),
			 IBP_OK);
	assert_int_equal(ibp_sim_set_node_info_node_guid(s, 99, 0, NULL),
			 IBP_ERANGE);
	assert_int_equal(ibp_sim_set_node_info_port_guid(s, smn, 0, 0, NULL),
			 IBP_ERANGE);
	ibp_transport *t;
	ibp_sm *sm = new_sm(s, smn, 4, &t);
	assert_int_equal(ibp_sm_discover(sm, NULL), IBP_OK);
	assert_int_equal(ibp_fabric_node_count(ibp_sm_fabric(sm)), 1);
	const char *words[] = {"switch \"leaf-01\"", "0,1", "NodeGUID"};
	assert_one_finding(sm, "node-guid-zero", words, 3);
	done(sm, t, NULL, NULL);

	assert_int_equal(ibp_sim_set_node_info_node_guid(
			     s, leaf, ibp_fabric_node_guid(f, leaf), NULL),
			 IBP_OK);
	assert_int_equal(ibp_sim_set_node_info_port_guid(s, smn, 1, 0, NULL),
			 IBP_OK);
	sm = new_sm(s, smn, 4, &t);
	ibp_error err;
	ibp_error_clear(&err);
	assert_int_equal(ibp_sm_discover(sm, &err), IBP_EIO);
	assert_non_null(strstr(err.message, "local port"));
	const char *w2[] = {"sm-01", "directed route 0, "};
	assert_one_finding(sm, "port-guid-zero", w2, 2);
	done(sm, t, s, f);
}

/* What the commands are given: verify's findings (stderr) and JSON
 * ("discovery", diag.h's form) hold the finding, the plan's port GUID of
 * the node left out is absent (not drift); discover's findings hold it
 * and the topology it writes has no such node. */
static void test_verify_and_discover_tell_it(void **state)
{
	(void)state;
	char conf[1024];
	ibp_sim_session *ss;
	ibp_transport *t;
	assert_int_equal(seed_sim_open(conf, sizeof(conf), &ss, &t), 0);
	const ibp_fabric *f = ibp_sim_session_fabric(ss);
	size_t bad = fixture_node(f, "tenantB-node-02");
	assert_int_equal(ibp_sim_set_node_info_port_guid(
			     ibp_sim_session_sim(ss), bad, 1, 0, NULL),
			 IBP_OK);
	ibp_live *l;
	assert_int_equal(seed_live_open(ss, t, &l), 0);

	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = conf;
	ibp_verify_result *r = NULL;
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(ibp_verify(l, &vo, &r, d, NULL), IBP_OK);
	assert_true(ibp_diags_has_code(d, "port-guid-zero"));
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	char *j = ibp_verify_result_json(r);
	assert_non_null(j);
	const char *disc = strstr(j, "\"discovery\"");
	assert_non_null(disc);
	assert_non_null(strstr(disc, "\"port-guid-zero\""));
	assert_non_null(strstr(disc, "tenantB-node-02"));
	assert_non_null(strstr(j, "\"0x506b4b0300a1b203\"")); /* absent */
	free(j);
	ibp_verify_result_free(r);
	ibp_diags_free(d);

	char path[] = "/tmp/test_sm_guid_zero_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char aliases[sizeof(path) + 16];
	snprintf(aliases, sizeof(aliases), "%s.aliases", path);
	d = ibp_diags_new();
	assert_int_equal(
	    ibp_live_write_discovery(l, path, aliases, d, NULL, NULL), IBP_OK);
	assert_true(ibp_diags_has_code(d, "port-guid-zero"));
	ibp_diags_free(d);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char line[512];
	size_t nodes = 0;
	while (fgets(line, sizeof(line), fp)) {
		assert_null(strstr(line, "tenantB-node-02"));
		nodes += !strncmp(line, "Ca", 2) || !strncmp(line, "Switch", 6);
	}
	fclose(fp);
	assert_int_equal(nodes, 7);
	unlink(path);
	unlink(aliases);
	ibp_live_close(l);
	ibp_transport_close(t);
	ibp_sim_session_free(ss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_port_guid_zero_left_out),
	    cmocka_unit_test(test_one_port_of_two),
	    cmocka_unit_test(test_node_guid_zero_and_local_port),
	    cmocka_unit_test(test_verify_and_discover_tell_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
