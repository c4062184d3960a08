/*
 * live_discovery.c - what `ibpart discover` writes of a discovered fabric
 * (ibp_live_write_discovery, include/ibpart/live.h): the topology in
 * ibnetdiscover's format and, beside it, the alias map of every port's
 * GUIDInfo table (the GUIDs of SR-IOV virtual functions, which a
 * topology file cannot carry; docs/virtual-functions.md).  Both files
 * whole or not at all; nothing is written unless the aliases were read.
 * And the same aliases as ibpartd learns them at each sweep, merged with
 * an operator's alias map (ibp_live_learn_alias_guids).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/alias_map.h"
#include "ibpart/sys/atomic_file.h"
#include "ibpart/live.h"
#include "ibpart/sys/sm.h"
#include "live/live_lib.h"
#include "topo/alias_map_lib.h"
#include "live/live_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/alias_map.h"

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

/* Every port's aliases: GUIDInfo over SMPs, and the SA's records when a
 * master SM runs (its port's LID known; looked for here when the caller
 * did not, as `ibpart discover` does not). */
static int read_aliases(ibp_live *l, ibp_alias_map **m,
			struct ibp_sm_alias_read *r, ibp_error *err)
{
	if (!ibp_live_sm_port_guid(l))
		(void)ibp_live_find_sm(l, NULL, NULL);
	uint16_t sa_lid = ibp_live_sm_running(l) ? ibp_live_sa_lid(l) : 0;
	return ibp_sm_read_alias_guids_sa(ibp_live_sm(l), sa_lid, 0, m, r, err);
}

int ibp_live_write_discovery(ibp_live *l, const char *topo_path,
			     const char *alias_path, ibp_diags *diags,
			     FILE *summary, ibp_error *err)
{
	ibp_sm *sm = ibp_live_sm(l);
	const ibp_fabric *f = ibp_sm_fabric(sm);
	ibp_alias_map *m = NULL;
	struct ibp_sm_alias_read ar = {0};
	/* the nodes the walk left out first, then the alias GUIDs */
	int rc = ibp_live_discovery_findings(l, diags, err);
	if (rc == IBP_OK)
		rc = read_aliases(l, &m, &ar, err);
	size_t dups = ar.dups;
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
			"discover: %zu nodes, %zu alias GUIDs (%zu from the "
			"SA's GUIDInfoRecords; %zu on a second port left out) "
			"from %s port %d, %lu SMPs (%lu timed out, %lu "
			"retries), %ld ms\n",
			ibp_fabric_node_count(f), ibp_alias_map_count(m), ar.sa,
			dups, ibp_live_local_ca(l), ibp_live_local_port(l),
			smps, to, re, ibp_live_elapsed_ms(l));
	free(beside);
	ibp_alias_map_free(m);
	return rc;
}

/* The file's aliases added to m where the fabric has none of them; the
 * ones it places elsewhere counted in *conflicts. */
static int merge_file(ibp_alias_map *m, const char *file, size_t *added,
		      size_t *conflicts, ibp_error *err)
{
	ibp_alias_map *fm = NULL;
	int rc = ibp_alias_map_load(file, 0, &fm, NULL, err);
	for (size_t i = 0; !rc && i < ibp_alias_map_count(fm); i++) {
		const struct ibp_alias *a = ibp_alias_map_at(fm, i);
		const struct ibp_alias *have = ibp_alias_map_find(m, a->alias);
		if (have) {
			if (have->port_guid != a->port_guid ||
			    have->index != a->index)
				(*conflicts)++;
			continue;
		}
		rc = ibp_alias_map_add(m, a);
		if (rc == IBP_OK)
			(*added)++;
		else if (rc != IBP_ENOMEM) {
			(*conflicts)++;
			rc = IBP_OK;
		} else
			ibp_error_set(err, rc, "out of memory");
	}
	ibp_alias_map_free(fm);
	return rc;
}

/* Is the file at path exactly len bytes of text? */
static bool same_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char *buf = malloc(len + 1);
	size_t got = buf ? fread(buf, 1, len + 1, f) : 0;
	bool same = buf && got == len && !memcmp(buf, text, len);
	free(buf);
	fclose(f);
	return same;
}

int ibp_live_learn_alias_guids(ibp_live *l, const char *file,
			       const char *out_path, bool *changed,
			       size_t *count, char *summary,
			       size_t summary_size, ibp_error *err)
{
	if (changed)
		*changed = false;
	if (count)
		*count = 0;
	ibp_alias_map *m = NULL;
	struct ibp_sm_alias_read ar;
	size_t from_file = 0, conflicts = 0;
	int rc = read_aliases(l, &m, &ar, err);
	if (!rc && file)
		rc = merge_file(m, file, &from_file, &conflicts, err);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = rc ? NULL : open_memstream(&text, &len);
	if (!rc && !mem)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (mem) {
		rc = ibp_alias_map_write(m, ibp_sm_fabric(ibp_live_sm(l)), mem);
		if (fclose(mem) && !rc)
			rc = IBP_ENOMEM;
		if (rc)
			ibp_error_set(err, rc, "out of memory");
	}
	bool differs = !rc && out_path && !same_text(out_path, text, len);
	if (differs) {
		ibp_atomic_file *a = NULL;
		FILE *fp = NULL;
		rc = ibp_output_open(out_path, &a, &fp, err);
		if (!rc) {
			bool ok = fwrite(text, 1, len, fp) == len;
			if (!ok)
				ibp_error_set(err, IBP_EIO,
					      "%s: cannot write the alias map",
					      out_path);
			int crc = ibp_output_close(a, ok, ok ? err : NULL);
			rc = ok ? crc : IBP_EIO;
		}
	}
	if (!rc && changed)
		*changed = differs;
	if (!rc && count)
		*count = ibp_alias_map_count(m);
	if (!rc && summary && summary_size)
		snprintf(summary, summary_size,
			 "%zu alias GUIDs: %zu from the ports' GUIDInfo, %zu "
			 "more from the SA's GUIDInfoRecords (%s), %zu more "
			 "from %s; %zu entries left out (the alias held "
			 "elsewhere first%s)",
			 ibp_alias_map_count(m), ar.guid_info, ar.sa,
			 ar.sa_answered ? "answered" : "no SA answered",
			 from_file, file ? file : "no alias map file",
			 ar.dups + conflicts,
			 conflicts ? "; the fabric's place wins over the file's"
				   : "");
	free(text);
	ibp_alias_map_free(m);
	return rc;
}
