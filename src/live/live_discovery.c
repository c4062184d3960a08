/*
 * live_discovery.c - what `ibpart discover` writes of a discovered fabric
 * (ibp_live_write_discovery, include/ibpart/live.h): the topology in
 * ibnetdiscover's format and, beside it, the alias map of every port's
 * GUIDInfo table (the GUIDs of SR-IOV virtual functions, which a
 * topology file cannot carry; docs/virtual-functions.md).  Both files
 * whole or not at all; nothing is written unless the aliases were read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ibpart/alias_map.h"
#include "ibpart/sys/atomic_file.h"
#include "ibpart/live.h"
#include "ibpart/sys/sm.h"
#include "topo/alias_map_lib.h"
#include "live/live_lib.h"
#include "topo/topo_lib.h"

/* The alias map to path, whole or not at all. */
static int write_aliases(const char *path, const ibp_alias_map *m,
			 const ibp_fabric *f, ibp_error *err)
{
	ibp_atomic_file *a = NULL;
	FILE *fp = NULL;
	int rc = ibp_output_open(path, &a, &fp, err);
	if (rc != IBP_OK)
		return rc;
	rc = ibp_alias_map_write(m, f, fp);
	if (rc != IBP_OK)
		ibp_error_set(err, rc, "%s: cannot write the alias map", path);
	int crc = ibp_output_close(a, rc == IBP_OK, rc == IBP_OK ? err : NULL);
	return rc != IBP_OK ? rc : crc;
}

int ibp_live_write_discovery(ibp_live *l, const char *topo_path,
			     const char *alias_path, ibp_diags *diags,
			     FILE *summary, ibp_error *err)
{
	ibp_sm *sm = ibp_live_sm(l);
	const ibp_fabric *f = ibp_sm_fabric(sm);
	ibp_alias_map *m = NULL;
	size_t dups = 0;
	int rc = ibp_sm_read_alias_guids(sm, &m, &dups, err);
	if (rc == IBP_OK) /* findings: descriptions the format cannot hold */
		rc = ibp_fabric_write_path_diags(f, topo_path, diags, err);
	char *beside = NULL;
	if (rc == IBP_OK && !alias_path && topo_path &&
	    asprintf(&beside, "%s.aliases", topo_path) < 0)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (rc == IBP_OK && (alias_path || beside))
		rc = write_aliases(alias_path ? alias_path : beside, m, f, err);
	unsigned long smps, to, re;
	ibp_sm_counters(sm, &smps, &to, &re);
	if (rc == IBP_OK && summary)
		fprintf(summary,
			"discover: %zu nodes, %zu alias GUIDs (%zu on a second "
			"port left out) from %s port %d, %lu SMPs (%lu timed "
			"out, %lu retries), %ld ms\n",
			ibp_fabric_node_count(f), ibp_alias_map_count(m), dups,
			ibp_live_local_ca(l), ibp_live_local_port(l), smps, to,
			re, ibp_live_elapsed_ms(l));
	free(beside);
	ibp_alias_map_free(m);
	return rc;
}
