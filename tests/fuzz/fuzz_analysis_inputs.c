/*
 * fuzz_analysis_inputs.c - libFuzzer target for the audit's text inputs:
 * the tenant map (src/analysis_tenants.c) and the opensm.conf reader
 * (src/policy/opensm_conf.c) get the raw bytes with their true length (ASan
 * catches a read past it); a map that loads must answer every port of
 * the fabric with a valid tenant index or -1.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ibpart/analysis.h"

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static ibp_fabric *fabric(void)
{
	static const char *const names[] = {"sm-01", "red-01", "red 02",
					    "blue-01", "storage"};
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, n;
	CHECK(f && ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 8, "leaf",
				       &sw, NULL) == 0);
	for (unsigned i = 0; i < 5; i++) {
		CHECK(ibp_fabric_add_node(f, IBP_NODE_CA, 0x1000 + i * 0x10, 1,
					  names[i], &n, NULL) == 0);
		CHECK(ibp_fabric_link(f, n, 1, sw, i + 1, NULL) == 0);
	}
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static ibp_fabric *f;
	if (!f)
		f = fabric();
	const char *text = (const char *)data;
	ibp_tenant_map *t = NULL;
	ibp_error err;
	if (ibp_tenant_map_load_buffer(f, "fuzz", text, len, &t, NULL, &err) ==
	    0) {
		CHECK(t);
		for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
			int k = ibp_tenant_map_get(t, n, 1);
			CHECK(k >= -1 &&
			      (k < 0 || (size_t)k < ibp_tenant_map_count(t)));
		}
		ibp_tenant_map_free(t);
	} else {
		CHECK(!t);
	}
	ibp_osm_conf c;
	(void)ibp_osm_conf_parse("fuzz", text, len, &c, &err);
	return 0;
}
