/*
 * service_revision_end.c - what became of a revision OpenSM was
 * signalled for, decided from the facts of ibpartd's cycle (the reload's
 * result, whether the fabric could be read, what verify found): its end
 * state and the reason the status shows (docs/ibpartd.md, "States").
 * Pure: the daemon gathers the facts and records the answer, so every
 * branch of the decision is tested here without a fabric (issue 24).
 */
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/sys/service.h"
#include "util/options_version.h"

IBP_OPTIONS_LAYOUT(cycle_facts_layout, "service cycle facts",
		   IBP_SERVICE_CYCLE_FACTS_VERSION,
		   sizeof(struct ibp_service_cycle_facts));

void ibp_service_cycle_facts_init(struct ibp_service_cycle_facts *f,
				  unsigned version)
{
	struct ibp_service_cycle_facts d = {
	    .version = IBP_SERVICE_CYCLE_FACTS_VERSION};
	ibp_options_init_as(f, version, &d, &cycle_facts_layout);
}

static const char *text(const char *s)
{
	return s ? s : "";
}

/* The revision was verified (f->verified): its differences, vports and
 * absent GUIDs decide. */
static ibp_service_state verified_end(const struct ibp_service_cycle_facts *f,
				      char *why, size_t why_size)
{
	if (f->differences) {
		if (f->reload_rc)
			snprintf(why, why_size,
				 "%.400s: %zu differences on %zu ports",
				 text(f->reload_why), f->differences, f->ports);
		else
			snprintf(why, why_size,
				 "drift: %zu differences on %zu ports after "
				 "OpenSM took the file",
				 f->differences, f->ports);
		return IBP_SERVICE_FAILED;
	}
	if (f->vports) {
		/* NVIDIA OpenSM's vports: what it made of them no SMP of ours
		 * reads, so the revision is not reported verified */
		snprintf(why, why_size,
			 "not verifiable: %zu GUIDs it names may be vports of "
			 "NVIDIA OpenSM's virtualization (virt_enabled 2), "
			 "whose P_KeyTables ibpart does not read; the ports of "
			 "the fabric hold the rest",
			 f->vports);
		return IBP_SERVICE_APPLIED;
	}
	if (f->logged_subnet_up || f->fabric_held) {
		if (!f->absent)
			return IBP_SERVICE_VERIFIED;
		snprintf(why, why_size,
			 "%zu GUIDs it names are not ports of the fabric: "
			 "OpenSM programs the others",
			 f->absent);
		return IBP_SERVICE_APPLIED_PARTIALLY;
	}
	snprintf(why, why_size,
		 "not demonstrated: OpenSM %ld %s, and this revision changes "
		 "no P_KeyTable; the ports hold it",
		 f->opensm_pid,
		 f->opensm_log ? "logged no SUBNET UP in time"
			       : "was signalled (no --opensm-log)");
	return IBP_SERVICE_APPLIED;
}

int ibp_service_revision_end(const struct ibp_service_cycle_facts *f,
			     ibp_service_state *st, char *why, size_t why_size,
			     ibp_error *err)
{
	struct ibp_service_cycle_facts full = {
	    .version = IBP_SERVICE_CYCLE_FACTS_VERSION};
	if (!f || !st || !why || !why_size)
		return ibp_error_set(err, IBP_EINVAL,
				     "service cycle facts: facts, state and "
				     "reason needed");
	int rc = ibp_options_take(&full, f, &cycle_facts_layout, err);
	if (rc)
		return rc;
	f = &full;
	why[0] = 0;
	if (f->reload_rc && f->reload_rc != IBP_ETIMEDOUT) {
		snprintf(why, why_size, "%s", text(f->reload_why));
		*st = IBP_SERVICE_FAILED;
	} else if (!f->fabric_read) {
		snprintf(why, why_size,
			 "OpenSM %ld signalled%s; not verified: %.400s",
			 f->opensm_pid,
			 f->logged_subnet_up ? " and logged SUBNET UP" : "",
			 text(f->no_fabric_why));
		*st = IBP_SERVICE_APPLIED;
	} else if (!f->verified) {
		*st = IBP_SERVICE_PENDING;
	} else {
		*st = verified_end(f, why, why_size);
	}
	return IBP_OK;
}
