/*
 * test_audit_vf.c - the audit's shared-physical-port
 * (ibp_audit_shared_physical_port): virtual functions (alias GUIDs) of one
 * physical port, or a VF and the port itself, in different partitions
 * other than the default one are one high finding naming the physical
 * port and the partitions; VFs of one port in one partition, one VF in
 * two partitions, VFs of different ports, the default partition, a plan
 * without an alias map and a plan OpenSM rejects are not.
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
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"
#include "sim_fixture.h"
#include "ibpart/sys/alias_map.h"

/* The seed fabric's tenantA-node-01 (port A) and tenantB-node-01 (port
 * B); A's VFs 1 and 2 are 0x...a1, 0x...a2, B's VF 1 is 0x...b1. */
#define PORT_A 0x506b4b0300a1b200ull
#define PORT_B 0x506b4b0300a1b202ull

static const char map_text[] = "0x0002c903000000a1 0x506b4b0300a1b200 1\n"
			       "0x0002c903000000a2 0x506b4b0300a1b200 2\n"
			       "0x0002c903000000b1 0x506b4b0300a1b202 1\n";

/* The findings of plan on the fabric, with the alias map or without,
 * with a tenant map (NULL: none). */
static ibp_findings *audit_tenants(const char *plan, bool with_map,
				   const char *tenants)
{
	ibp_fabric *f = fixture_seed_fabric();
	assert_non_null(f);
	ibp_alias_map *m = NULL;
	if (with_map)
		assert_int_equal(ibp_alias_map_load_buffer("a.map", map_text,
							   strlen(map_text), &m,
							   NULL, NULL),
				 0);
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = f;
	co.aliases = m;
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_buffer("p.conf", plan, strlen(plan),
					       &co, &c, NULL, NULL),
			 0);
	ibp_tenant_map *t = NULL;
	if (tenants)
		assert_int_equal(ibp_tenant_map_load_buffer(f, "t.txt", tenants,
							    strlen(tenants), &t,
							    NULL, NULL),
				 0);
	ibp_findings *out = ibp_findings_new();
	assert_int_equal(ibp_audit_shared_physical_port(out, f, c, m, t), 0);
	ibp_tenant_map_free(t);
	ibp_conf_free(c);
	ibp_alias_map_free(m);
	ibp_fabric_free(f);
	return out;
}

static ibp_findings *audit(const char *plan, bool with_map)
{
	return audit_tenants(plan, with_map, NULL);
}

static void none(const char *plan)
{
	ibp_findings *out = audit(plan, true);
	if (ibp_findings_count(out))
		fail_msg("a finding for: %s: %s", plan,
			 ibp_findings_get(out, 0)->message);
	ibp_findings_free(out);
}

static void test_two_tenants_vfs(void **state)
{
	(void)state;
	ibp_findings *out = audit("Default=0x7fff : ALL=limited, SELF=full ;\n"
				  "a=0x0a01 : 0x0002c903000000a1=full ;\n"
				  "b=0x0b01 : 0x0002c903000000a2=full, "
				  "0x0002c903000000b1=full ;\n",
				  true);
	assert_int_equal(ibp_findings_count(out), 1);
	const ibp_finding *x = ibp_findings_get(out, 0);
	assert_string_equal(x->code, "shared-physical-port");
	assert_int_equal(x->severity, IBP_AUDIT_HIGH);
	assert_int_equal(x->nports, 1);
	assert_int_equal(x->ports[0], PORT_A);
	assert_int_equal(x->npartitions, 2);
	assert_int_equal(x->partitions[0], 0x0a01);
	assert_int_equal(x->partitions[1], 0x0b01);
	assert_non_null(strstr(x->message, "tenantA-node-01 port 1"));
	assert_non_null(ibp_audit_rule_find("shared-physical-port"));
	ibp_findings_free(out);
	/* limited members share the table just the same; and the port's
	 * own GUID with one of its VFs */
	out = audit("a=0x0a01 : 0x0002c903000000a1=limited ;\n"
		    "b=0x0b01 : 0x506b4b0300a1b200=limited ;\n",
		    true);
	assert_int_equal(ibp_findings_count(out), 1);
	assert_int_equal(ibp_findings_get(out, 0)->ports[0], PORT_A);
	assert_non_null(
	    strstr(ibp_findings_get(out, 0)->message, "the port itself"));
	ibp_findings_free(out);
}

static void test_not_shared(void **state)
{
	(void)state;
	/* one partition for both VFs of A */
	none("a=0x0a01 : 0x0002c903000000a1, 0x0002c903000000a2 ;\n");
	/* one VF in two partitions, nothing else of its port */
	none("a=0x0a01 : 0x0002c903000000a1=full ;\n"
	     "b=0x0b01 : 0x0002c903000000a1=full ;\n");
	/* VFs of different ports */
	none("a=0x0a01 : 0x0002c903000000a1=full ;\n"
	     "b=0x0b01 : 0x0002c903000000b1=full ;\n");
	/* the default partition is everyone's */
	none("Default=0x7fff : 0x0002c903000000a1=full, SELF=full ;\n"
	     "b=0x0b01 : 0x0002c903000000a2=full ;\n");
	/* the physical port in two partitions, no VF */
	none("a=0x0a01 : 0x506b4b0300a1b200=full ;\n"
	     "b=0x0b01 : 0x506b4b0300a1b200=full ;\n");
	/* a plan OpenSM rejects (it falls back to ALL=full) */
	none("a=0x0a01 : 0x0002c903000000a1=full ;\n"
	     "b=0x0b01 : 0x0002c903000000a2=full ;\n"
	     "c=0x0c01 : junk junk ;\n");
	/* without the map the VFs are unknown GUIDs */
	ibp_findings *out = audit("a=0x0a01 : 0x0002c903000000a1=full ;\n"
				  "b=0x0b01 : 0x0002c903000000a2=full ;\n",
				  false);
	assert_int_equal(ibp_findings_count(out), 0);
	ibp_findings_free(out);
	assert_int_equal(
	    ibp_audit_shared_physical_port(NULL, NULL, NULL, NULL, NULL),
	    IBP_EINVAL);
}

/* With --tenants the partitions are judged by tenant, as tenant-bridge
 * judges them: two partitions of one tenant on one physical port are no
 * finding, two of different tenants are, and a partition whose other
 * members no tenant holds is not judged. */
static void test_tenants(void **state)
{
	(void)state;
	static const char tenants[] = "A: tenantA-node-01 tenantA-node-02\n"
				      "B: tenantB-node-01 tenantB-node-02\n";
	/* VF 1 and VF 2 of tenantA-node-01 in two partitions of tenant A */
	static const char one[] = "a=0x0a01 : 0x0002c903000000a1=full, "
				  "0x506b4b0300a1b201=full ;\n"
				  "a2=0x0a02 : 0x0002c903000000a2=full, "
				  "0x506b4b0300a1b201=limited ;\n";
	ibp_findings *out = audit_tenants(one, true, tenants);
	assert_int_equal(ibp_findings_count(out), 0);
	ibp_findings_free(out);
	/* without the tenant map a tenant is a partition: shared */
	out = audit(one, true);
	assert_int_equal(ibp_findings_count(out), 1);
	ibp_findings_free(out);
	/* VF 2 in tenant B's partition: shared between tenants; the
	 * finding names the partitions of the different tenants */
	out = audit_tenants("a=0x0a01 : 0x0002c903000000a1=full, "
			    "0x506b4b0300a1b201=full ;\n"
			    "a2=0x0a02 : 0x0002c903000000a1=full, "
			    "0x506b4b0300a1b201=full ;\n"
			    "b=0x0b01 : 0x0002c903000000a2=full, "
			    "0x0002c903000000b1=full ;\n",
			    true, tenants);
	assert_int_equal(ibp_findings_count(out), 1);
	const ibp_finding *x = ibp_findings_get(out, 0);
	assert_string_equal(x->code, "shared-physical-port");
	assert_int_equal(x->ports[0], PORT_A);
	assert_int_equal(x->npartitions, 3);
	assert_non_null(strstr(x->message, "of different tenants"));
	ibp_findings_free(out);
	/* a partition of VFs of this port only: no tenant to judge by */
	out = audit_tenants("a=0x0a01 : 0x0002c903000000a1=full, "
			    "0x506b4b0300a1b201=full ;\n"
			    "b=0x0b01 : 0x0002c903000000a2=full ;\n",
			    true, tenants);
	assert_int_equal(ibp_findings_count(out), 0);
	ibp_findings_free(out);
	/* ALL is every tenant's */
	out =
	    audit_tenants("a=0x0a01 : 0x0002c903000000a1=full, "
			  "0x506b4b0300a1b201=full ;\n"
			  "b=0x0b01 : 0x0002c903000000a2=full, ALL=limited ;\n",
			  true, tenants);
	assert_int_equal(ibp_findings_count(out), 1);
	ibp_findings_free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_tenants_vfs),
	    cmocka_unit_test(test_not_shared),
	    cmocka_unit_test(test_tenants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
