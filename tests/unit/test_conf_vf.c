/*
 * test_conf_vf.c - `--vf-guids physical` (conf_vf.c): a plan's alias
 * GUIDs read as their physical ports' GUIDs (the alias kept), no
 * guid-alias-ignored, the note guid-alias-physical; a port named limited
 * and full in one P_Key through its GUIDs written full whatever the
 * order (vf-physical-full), both with allow_both_pkeys; the
 * canonical writer names the port with the alias in a comment;
 * shared-physical-port still reported; the default mode and a version 1
 * caller unchanged; ibpartd's reading (PHYSICAL_GENERATED) moves the
 * generated section's aliases only; with NVIDIA's virtualization (vports) the
 * GUIDs that are no port are vport-unmodelled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "conf/conf_lib.h"
#include "conf/partitions_marker.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"
#include "policy/opensm_conf_lib.h"
#include "sim_fixture.h"
#include "ibpart/sys/alias_map.h"

#define PORT_A 0x506b4b0300a1b200ull /* tenantA-node-01 */
#define VF_A1  0x0002c903000000a1ull
#define VF_A2  0x0002c903000000a2ull

static const char map_text[] = "0x0002c903000000a1 0x506b4b0300a1b200 1\n"
			       "0x0002c903000000a2 0x506b4b0300a1b200 2\n";

struct run {
	ibp_fabric *f;
	ibp_alias_map *m;
	ibp_conf *c;
	ibp_diags *d;
};

static void parse(struct run *r, const char *plan, ibp_vf_guids mode,
		  bool allow_both, unsigned version)
{
	r->f = fixture_seed_fabric();
	assert_non_null(r->f);
	assert_int_equal(ibp_alias_map_load_buffer("a.map", map_text,
						   strlen(map_text), &r->m,
						   NULL, NULL),
			 0);
	ibp_conf_options co;
	ibp_conf_options_init(&co, version);
	co.fabric = r->f;
	co.aliases = r->m;
	co.allow_both_pkeys = allow_both;
	if (version >= 2)
		co.vf_guids = mode;
	else /* a version 1 caller's padding: never read */
		memset(&co.vf_guids, 0xff, sizeof(co.vf_guids));
	r->d = ibp_diags_new();
	assert_int_equal(ibp_conf_parse_buffer("p.conf", plan, strlen(plan),
					       &co, &r->c, r->d, NULL),
			 0);
}

static void done(struct run *r)
{
	ibp_conf_free(r->c);
	ibp_alias_map_free(r->m);
	ibp_diags_free(r->d);
	ibp_fabric_free(r->f);
}

static size_t count_code(const ibp_diags *d, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < ibp_diags_count(d); i++)
		n += !strcmp(ibp_diags_get(d, i)->code, code);
	return n;
}

static const ibp_conf_member *member(const ibp_conf *c, size_t part, size_t j)
{
	return ibp_conf_partition_member(ibp_conf_partition_at(c, part), j);
}

/* The port's membership of P_Key pkey as the policy reads it. */
static ibp_membership port_in(const ibp_conf *c, uint16_t pkey)
{
	for (size_t i = 0; i < ibp_conf_group_count(c); i++)
		if (ibp_conf_group_pkey(ibp_conf_group_at(c, i)) == pkey)
			return ibp_conf_group_port_membership(
			    ibp_conf_group_at(c, i), PORT_A, IBP_NODE_CA, 0,
			    NULL);
	return IBP_MEMB_NONE;
}

static void test_physical(void **state)
{
	(void)state;
	struct run r;
	parse(&r,
	      "a=0x0a01 : 0x0002c903000000a1=full ;\n"
	      "b=0x0b01 : 0x0002c903000000a2=full ;\n",
	      IBP_VF_GUIDS_PHYSICAL, false, IBP_CONF_OPTIONS_VERSION);
	const ibp_conf_member *m = member(r.c, 0, 0);
	assert_int_equal(m->guid, PORT_A);
	assert_int_equal(m->alias, VF_A1);
	assert_int_equal(count_code(r.d, "guid-alias-ignored"), 0);
	assert_int_equal(count_code(r.d, "guid-alias-physical"), 1);
	assert_int_equal(count_code(r.d, "duplicate-member"), 0);
	/* the port is in both partitions for the policy */
	assert_int_equal(port_in(r.c, 0x0a01), IBP_MEMB_FULL);
	assert_int_equal(port_in(r.c, 0x0b01), IBP_MEMB_FULL);
	/* written: the port's GUID, the alias in a comment */
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_int_equal(ibp_conf_write_opensm(r.c, r.f, out, NULL), 0);
	fclose(out);
	assert_non_null(strstr(buf, "0x506b4b0300a1b200=full,"
				    "\t# VF alias 0x0002c903000000a1 of "
				    "tenantA-node-01") ||
			strstr(buf, "0x506b4b0300a1b200=full ;"
				    "\t# VF alias 0x0002c903000000a1 of "
				    "tenantA-node-01"));
	assert_null(strstr(buf, "0x0002c903000000a1="));
	free(buf);
	/* the sharing is still the audit's high finding */
	ibp_findings *fs = ibp_findings_new();
	assert_int_equal(
	    ibp_audit_shared_physical_port(fs, r.f, r.c, r.m, NULL), 0);
	assert_int_equal(ibp_findings_count(fs), 1);
	assert_int_equal(ibp_findings_get(fs, 0)->ports[0], PORT_A);
	ibp_findings_free(fs);
	done(&r);
}

static void test_alias_default(void **state)
{
	(void)state;
	static const char plan[] = "a=0x0a01 : 0x0002c903000000a1=full ;\n";
	for (unsigned v = 1; v <= IBP_CONF_OPTIONS_VERSION; v++) {
		struct run r;
		parse(&r, plan, IBP_VF_GUIDS_ALIAS, false, v);
		assert_int_equal(member(r.c, 0, 0)->guid, VF_A1);
		assert_int_equal(member(r.c, 0, 0)->alias, 0);
		assert_int_equal(count_code(r.d, "guid-alias-ignored"), 1);
		assert_int_equal(count_code(r.d, "guid-alias-physical"), 0);
		done(&r);
	}
}

/* ibpartd's reading of its file (PHYSICAL_GENERATED): the generated
 * section's alias on its port, the operator's above the marker left an
 * alias (OpenSM skips it: guid-alias-ignored); no marker, none. */
static void test_generated_only(void **state)
{
	(void)state;
	static const char file[] =
	    "op=0x0c01 : 0x0002c903000000a2=full ;\n" IBP_PARTITIONS_MARKER "\n"
	    "a=0x0a01 : 0x0002c903000000a1=full ;\n";
	struct run r;
	parse(&r, file, IBP_VF_GUIDS_PHYSICAL_GENERATED, false,
	      IBP_CONF_OPTIONS_VERSION);
	assert_int_equal(member(r.c, 0, 0)->guid, VF_A2);
	assert_int_equal(member(r.c, 0, 0)->alias, 0);
	assert_int_equal(member(r.c, 1, 0)->guid, PORT_A);
	assert_int_equal(member(r.c, 1, 0)->alias, VF_A1);
	assert_int_equal(count_code(r.d, "guid-alias-ignored"), 1);
	assert_int_equal(count_code(r.d, "guid-alias-physical"), 1);
	assert_int_equal(port_in(r.c, 0x0c01), IBP_MEMB_NONE);
	assert_int_equal(port_in(r.c, 0x0a01), IBP_MEMB_FULL);
	done(&r);
	/* the same without the marker line: not ibpartd's, nothing moved */
	parse(&r,
	      "op=0x0c01 : 0x0002c903000000a2=full ;\n"
	      "a=0x0a01 : 0x0002c903000000a1=full ;\n",
	      IBP_VF_GUIDS_PHYSICAL_GENERATED, false, IBP_CONF_OPTIONS_VERSION);
	assert_int_equal(member(r.c, 1, 0)->guid, VF_A1);
	assert_int_equal(count_code(r.d, "guid-alias-ignored"), 1);
	assert_int_equal(port_in(r.c, 0x0a01), IBP_MEMB_NONE);
	done(&r);
}

/* The port limited, its VF full in one P_Key: full whatever the order,
 * said once; with allow_both_pkeys `both`. */
static void test_full_wins(void **state)
{
	(void)state;
	static const char *const plans[] = {
	    "a=0x0a01 : 0x506b4b0300a1b200=limited, "
	    "0x0002c903000000a1=full ;\n",
	    "a=0x0a01 : 0x0002c903000000a1=full, "
	    "0x506b4b0300a1b200=limited ;\n",
	    "a=0x0a01 : 0x0002c903000000a1=full ;\n"
	    "a=0x0a01 : 0x0002c903000000a2=limited ;\n",
	};
	for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		struct run r;
		parse(&r, plans[i], IBP_VF_GUIDS_PHYSICAL, false,
		      IBP_CONF_OPTIONS_VERSION);
		assert_int_equal(count_code(r.d, "vf-physical-full"), 1);
		assert_int_equal(port_in(r.c, 0x0a01), IBP_MEMB_FULL);
		done(&r);
		parse(&r, plans[i], IBP_VF_GUIDS_PHYSICAL, true,
		      IBP_CONF_OPTIONS_VERSION);
		assert_int_equal(count_code(r.d, "vf-physical-full"), 1);
		assert_int_equal(port_in(r.c, 0x0a01), IBP_MEMB_BOTH);
		done(&r);
	}
}

/* NVIDIA's OpenSM with virt_enabled 2: the GUIDs that are no port of
 * the fabric - unknown ones and aliases - are vport-unmodelled, not
 * guid-unknown / guid-alias-ignored / unknown-guid; a node GUID stays
 * guid-unknown; opensm.conf's virt_enabled read as that SM reads it. */
static void test_vports(void **state)
{
	(void)state;
	static const char plan[] = "a=0x0a01 : 0x0002c903000000a1=full, "
				   "0x0002c90300ff0001=full, "
				   "0x506b4b0300a1b1ff=full, "
				   "0x506b4b0300a1b201=full ;\n";
	struct run r;
	r.f = fixture_seed_fabric();
	assert_non_null(r.f);
	assert_int_equal(ibp_alias_map_load_buffer("a.map", map_text,
						   strlen(map_text), &r.m, NULL,
						   NULL),
			 0);
	for (int vports = 0; vports < 2; vports++) {
		ibp_conf_options co;
		ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
		co.fabric = r.f;
		co.aliases = r.m;
		co.vports = vports;
		r.d = ibp_diags_new();
		assert_int_equal(ibp_conf_parse_buffer("p.conf", plan,
						       strlen(plan), &co, &r.c,
						       r.d, NULL),
				 0);
		assert_int_equal(count_code(r.d, "vport-unmodelled"),
				 vports ? 1 : 0);
		assert_int_equal(count_code(r.d, "guid-alias-ignored"),
				 vports ? 0 : 1);
		assert_int_equal(count_code(r.d, "unknown-guid"),
				 vports ? 0 : 1);
		/* the node GUID, and without vports the unknown one too */
		assert_int_equal(count_code(r.d, "guid-unknown"), 1);
		for (size_t i = 0; vports && i < ibp_diags_count(r.d); i++) {
			const ibp_diag *x = ibp_diags_get(r.d, i);
			if (!strcmp(x->code, "vport-unmodelled"))
				assert_non_null(
				    strstr(x->message, "2 GUID(s)"));
		}
		ibp_conf_free(r.c);
		ibp_diags_free(r.d);
	}
	ibp_alias_map_free(r.m);
	ibp_fabric_free(r.f);
	/* opensm.conf */
	ibp_osm_conf oc = {.version = IBP_OSM_CONF_VERSION};
	static const char on[] = "virt_enabled 2\n";
	assert_int_equal(ibp_osm_conf_parse("o", on, strlen(on), &oc, NULL), 0);
	assert_true(oc.have_virt_enabled && oc.have_nvidia);
	assert_int_equal(oc.virt_enabled, 2);
	static const char bad[] = "virt_enabled yes\n";
	assert_int_equal(ibp_osm_conf_parse("o", bad, strlen(bad), &oc, NULL),
			 0);
	assert_int_equal(oc.virt_enabled, 0);
	assert_int_equal(ibp_osm_conf_parse("o", "", 0, &oc, NULL), 0);
	assert_false(oc.have_virt_enabled);
}

/* The note names each alias once, however many P_Keys it is in: one VF
 * in three P_Keys is 3 members, 1 alias named, no "...". */
static void test_note_distinct(void **state)
{
	(void)state;
	struct run r;
	parse(&r,
	      "a=0x0a01 : 0x0002c903000000a1=full ;\n"
	      "b=0x0b01 : 0x0002c903000000a1=full ;\n"
	      "c=0x0c01 : 0x0002c903000000a1=limited ;\n",
	      IBP_VF_GUIDS_PHYSICAL, false, IBP_CONF_OPTIONS_VERSION);
	const char *msg = NULL;
	for (size_t i = 0; i < ibp_diags_count(r.d); i++)
		if (!strcmp(ibp_diags_get(r.d, i)->code, "guid-alias-physical"))
			msg = ibp_diags_get(r.d, i)->message;
	assert_non_null(msg);
	assert_non_null(strstr(msg, "3 alias GUID member(s)"));
	const char *at = strstr(msg, "0x0002c903000000a1");
	assert_non_null(at);
	assert_null(strstr(at + 1, "0x0002c903000000a1"));
	assert_null(strstr(msg, "..."));
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_physical),
	    cmocka_unit_test(test_note_distinct),
	    cmocka_unit_test(test_alias_default),
	    cmocka_unit_test(test_generated_only),
	    cmocka_unit_test(test_full_wins),
	    cmocka_unit_test(test_vports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
