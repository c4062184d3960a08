/*
 * fuzz_tenants.c - libFuzzer target for the audit's tenant map
 * (src/analysis/analysis_tenants.c): the raw bytes with their true
 * length and no NUL (ASan catches a read past it); a map that loads must
 * answer every port of the fabric with a valid tenant index or -1, and
 * its diagnostics must print.
 */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_fabric.h"
#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	ibp_fabric *f = fuzz_fabric();
	ibp_tenant_map *t = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	CHECK(d);
	if (ibp_tenant_map_load_buffer(f, "fuzz", (const char *)data, len, &t,
				       d, &err) == 0) {
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
	FILE *null = fopen("/dev/null", "w");
	CHECK(null);
	ibp_diags_print(d, null);
	fclose(null);
	ibp_diags_free(d);
	return 0;
}
