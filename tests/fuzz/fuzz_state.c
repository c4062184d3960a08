/*
 * fuzz_state.c - libFuzzer target for the rollback state file loader
 * (src/live/live_files.c): the raw bytes with their true length, read
 * strictly (duplicate keys and ports, out-of-range numbers are errors)
 * and leniently (ports not in the fabric left out).  What loads must
 * hold only P_Keys of the tables it read, on ports of the fabric, and a
 * failure must say why.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_fabric.h"
#include "ibpart/live.h"
#include "live/live_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/tables.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check(const ibp_fabric *f, ibp_tables *ts)
{
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++)
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++) {
			const ibp_pkey_table *t = ibp_tables_get(ts, n, p);
			if (!t)
				continue;
			CHECK(ibp_pkey_table_used(t) <=
			      ibp_pkey_table_capacity(t));
		}
	ibp_tables_free(ts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	ibp_fabric *f = fuzz_fabric();
	for (int skip = 0; skip < 2; skip++) {
		ibp_tables *ts = NULL;
		ibp_error err;
		memset(&err, 0, sizeof(err));
		int rc = ibp_state_load_buffer(
		    f, "fuzz.json", (const char *)data, len, skip, &ts, &err);
		if (rc == 0) {
			CHECK(ts);
			check(f, ts);
		} else {
			CHECK(!ts && err.message[0]);
		}
	}
	return 0;
}
