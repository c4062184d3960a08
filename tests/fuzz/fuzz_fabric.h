/*
 * fuzz_fabric.h - the small fabric the fuzz targets of fabric-relative
 * inputs (tenant map, state file) read against: one 8-port switch and
 * five one-port HCAs whose NodeDescriptions include a space, so a name
 * in an input can match.  Built once per process.
 */
#ifndef IBPART_FUZZ_FABRIC_H
#define IBPART_FUZZ_FABRIC_H

#include <stdlib.h>

#include "ibpart/topo.h"
#include "topo/topo_lib.h" /* ibp_fabric_new, ibp_fabric_add_node */

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

static inline ibp_fabric *fuzz_fabric(void)
{
	static ibp_fabric *f;
	if (f)
		return f;
	static const char *const names[] = {"sm-01", "red-01", "red 02",
					    "blue-01", "storage"};
	f = ibp_fabric_new(NULL);
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

#endif
