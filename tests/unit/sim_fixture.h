/*
 * sim_fixture.h - shared by the sim/transport_sim/sm unit tests: load the
 * seed fabric (examples/seed/seed.topo through IBP_EXAMPLES), assign LIDs,
 * and look ports up by node description.
 */
#ifndef SIM_FIXTURE_H
#define SIM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "ibpart/diag.h"
#include "ibpart/sys/sim.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"

static inline ibp_fabric *fixture_seed_fabric(void)
{
	const char *ex = getenv("IBP_EXAMPLES");
	char path[1024];
	snprintf(path, sizeof(path), "%s/seed/seed.topo", ex ? ex : "examples");
	ibp_fabric_options o;
	ibp_fabric_options_init(&o);
	ibp_fabric *f = NULL;
	ibp_diags *d = ibp_diags_new();
	if (ibp_fabric_load(path, &o, &f, d) != IBP_OK) {
		ibp_diags_print(d, stderr);
		ibp_diags_free(d);
		return NULL;
	}
	ibp_diags_free(d);
	if (ibp_fabric_assign_lids(f, 0, NULL) != IBP_OK) {
		ibp_fabric_free(f);
		return NULL;
	}
	return f;
}

/* Node index of a description; aborts the test when absent. */
static inline size_t fixture_node(const ibp_fabric *f, const char *desc)
{
	size_t n;
	if (ibp_fabric_find_desc(f, desc, &n) != IBP_OK) {
		fprintf(stderr, "no node '%s' in the fixture\n", desc);
		abort();
	}
	return n;
}

#endif
