/*
 * aliases.c - the fabric's alias GUIDs (SR-IOV virtual functions,
 * docs/virtual-functions.md) as ibpartd learns them: on the session the
 * applier opens at start and on each collector sweep's, every port's
 * GUIDInfo over SMPs and the SA's GUIDInfoRecords, merged with
 * --alias-guids FILE (the fabric's place of an alias wins over the
 * file's), by the library (ibp_live_learn_alias_guids).  The merged map
 * is written beside the database (DB.aliases) and, once learned, is the
 * one the verification classifies absent GUIDs with (kind alias) and the
 * service's audits read (the guard's shared-physical-port): the service
 * is told only when the map's text changed, so an unchanged fabric keeps
 * the views cached.  An empty map with no file given is no map: the
 * guard keeps its incremental answer.  With --vf-guids physical a
 * changed map has the applier write OpenSM's file again (the aliases'
 * ports are in it).  Both callers hold the daemon's
 * one fabric session (daemon_open_fabric), so learns never overlap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/live.h"
#include "ibpartd.h"

int aliases_init(struct ibpartd *d)
{
	if (asprintf(&d->learned_aliases, "%s.aliases", d->db) < 0) {
		d->learned_aliases = NULL;
		return -1;
	}
	return 0;
}

void aliases_free(struct ibpartd *d)
{
	free(d->learned_aliases);
	d->learned_aliases = NULL;
}

const char *aliases_path(struct ibpartd *d)
{
	return atomic_load(&d->aliases_in_effect) ? d->learned_aliases
						  : d->alias_guids;
}

int aliases_learn(struct ibpartd *d, ibp_live *l, bool quiet)
{
	bool changed = false;
	size_t n = 0;
	char summary[600] = "", why[600] = "";
	ibp_error err;
	ibp_error_clear(&err);
	if (ibp_live_learn_alias_guids(l, d->alias_guids, d->learned_aliases,
				       &changed, &n, summary, sizeof(summary),
				       &err)) {
		if (quiet)
			return -1;
		snprintf(why, sizeof(why), "%s", err.message);
		if (strcmp(why, d->aliases_why))
			daemon_log("ibpartd: alias GUIDs not learned: %s (the "
				   "last map learned stays in effect)",
				   why);
		snprintf(d->aliases_why, sizeof(d->aliases_why), "%s", why);
		atomic_fetch_add(&d->alias_learn_failures, 1);
		return -1;
	}
	d->aliases_why[0] = 0;
	atomic_store(&d->alias_count, n);
	atomic_fetch_add(&d->alias_learns, 1);
	bool first = !atomic_load(&d->aliases_learned);
	atomic_store(&d->aliases_learned, true);
	if (!changed && !first)
		return 0;
	/* none learned and no file: no map, the guard's kept answer stays */
	bool in_effect = n || d->alias_guids;
	bool was = atomic_exchange(&d->aliases_in_effect, in_effect);
	if ((in_effect || was) &&
	    ibp_service_set_alias_guids(
		d->svc, in_effect ? d->learned_aliases : NULL, &err))
		daemon_log("ibpartd: the learned alias GUIDs not in effect: %s",
			   err.message);
	daemon_log("ibpartd: alias GUIDs learned (%s): %s", d->learned_aliases,
		   summary);
	/* --vf-guids physical: the file OpenSM is given names the ports of
	 * the aliases in effect, so it is written and applied again */
	if (d->vf_guids == IBP_VF_GUIDS_PHYSICAL && (in_effect || was))
		atomic_store(&d->reapply, true);
	return 0;
}

void aliases_metrics(struct ibpartd *d, FILE *f)
{
	fprintf(f,
		"# HELP ibpartd_alias_guids Alias GUIDs (VFs) in the map in "
		"effect, as last learned from the fabric and --alias-guids.\n"
		"# TYPE ibpartd_alias_guids gauge\n"
		"ibpartd_alias_guids %lu\n"
		"# HELP ibpartd_alias_learns_total Times the alias GUIDs were "
		"read from the fabric (GUIDInfo and the SA's "
		"GUIDInfoRecords).\n"
		"# TYPE ibpartd_alias_learns_total counter\n"
		"ibpartd_alias_learns_total %lu\n"
		"# HELP ibpartd_alias_learn_failures_total Reads of the alias "
		"GUIDs that failed (the reason is logged).\n"
		"# TYPE ibpartd_alias_learn_failures_total counter\n"
		"ibpartd_alias_learn_failures_total %lu\n",
		atomic_load(&d->alias_count), atomic_load(&d->alias_learns),
		atomic_load(&d->alias_learn_failures));
}
