/*
 * service_capacity.c - the guard's table-overflow judgment: would the
 * change leave a port without a P_Key the plan gives it, as OpenSM will
 * place the tables?
 *
 * A port loses a P_Key in two ways (docs/opensm-behaviour.md): its
 * P_KeyTable (PartitionCap entries, IBA vol. 1 14.2.5.6 NodeInfo) has no
 * free index for it (OpenSM ERR 0512), or a P_Key OpenSM remembers at an
 * index another P_Key now holds comes back and is written over it
 * (rules 20-22: the index memory makes a table overflow that counting
 * P_Keys says fits).  So the tables are placed by the library's model of
 * OpenSM (ibp_policy_compute_memory) from what the service recorded after
 * the last verified revision (service_memory.c: the tables the ports
 * held and OpenSM's index memory), first through the plan before the
 * change, then through the plan after it, on the topology with each
 * node's PartitionCap as discovery read it where it did.  What a port
 * is given is what the same plan gives it packed on an empty fabric
 * (keep_pkey_indexes FALSE) - what it holds plus what does not fit.  A
 * P_Key a port is given and does not hold after the change, and did
 * hold (or was not given) before, is what the change introduces: one
 * capacity-overflow finding per port, naming the port, its capacity and
 * the P_Keys that would not fit.  Losses the plan had already never
 * block.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "service/service_internal.h"
#include "analysis/analysis_lib.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "conf/conf_lib.h"
#include "pkey/index_memory_lib.h"

/* One plan's tables: as placed (from the recorded state) and as given
 * (packed on an empty fabric), with what the packing could not place. */
struct placed {
	ibp_tables *held, *given;
	ibp_index_memory *memory; /* after this plan */
	ibp_policy_unplaced *unplaced;
};

static void placed_free(struct placed *p)
{
	ibp_tables_free(p->held);
	ibp_tables_free(p->given);
	ibp_index_memory_free(p->memory);
	ibp_policy_unplaced_free(p->unplaced);
}

static int place(const ibp_service *s, const ibp_fabric *f, uint64_t sm,
		 const char *text, size_t len, const ibp_tables *previous,
		 const ibp_index_memory *memory, struct placed *out,
		 ibp_error *err)
{
	ibp_conf *c = NULL;
	int rc = svc_parse_conf_on(s, f, "partitions.conf", text, len, &c, err);
	if (rc)
		return rc;
	rc = svc_replay(c, f, sm, previous, memory, &out->held, &out->memory,
			err);
	if (!rc && !(out->unplaced = ibp_policy_unplaced_new()))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc) {
		ibp_policy_run po;
		ibp_policy_run_init(&po);
		po.sm_port_guid = sm;
		po.compact_pkey_indexes = true;
		po.unplaced = out->unplaced;
		rc = ibp_policy_compute(c, f, &po, &out->given, NULL, err);
	}
	ibp_conf_free(c);
	return rc;
}

static bool holds(const ibp_pkey_table *t, uint16_t pkey)
{
	unsigned used = t ? ibp_pkey_table_used(t) : 0;
	for (unsigned i = 0; i < used; i++)
		if (ibp_pkey_table_get(t, i) == pkey)
			return true;
	return false;
}

static const ibp_policy_dropped *dropped_at(const ibp_policy_unplaced *u,
					    size_t node, unsigned port)
{
	for (size_t i = 0; i < ibp_policy_unplaced_port_count(u); i++) {
		const ibp_policy_dropped *d = ibp_policy_unplaced_port(u, i);
		if (d->node == node && d->port == port)
			return d;
	}
	return NULL;
}

/* Is pkey given to (node, port) by the plan of p and not held there? */
static bool lost(const struct placed *p, size_t node, unsigned port,
		 uint16_t pkey)
{
	if (!p->given || !p->held) /* nothing placed: nothing lost */
		return false;
	const ibp_pkey_table *given = ibp_tables_get(p->given, node, port);
	const ibp_policy_dropped *d = dropped_at(p->unplaced, node, port);
	bool is_given = holds(given, pkey);
	for (size_t k = 0; !is_given && d && k < d->ndropped; k++)
		is_given = d->dropped[k] == pkey;
	return is_given && !holds(ibp_tables_get(p->held, node, port), pkey);
}

/* The P_Keys of (node, port) the after-plan loses and the before-plan
 * did not, into keys (*nk). */
static void fresh_losses(const struct placed *b, const struct placed *a,
			 size_t node, unsigned port, uint16_t *keys, size_t *nk,
			 unsigned *wanted)
{
	const ibp_pkey_table *given = ibp_tables_get(a->given, node, port);
	const ibp_policy_dropped *d = dropped_at(a->unplaced, node, port);
	unsigned used = given ? ibp_pkey_table_used(given) : 0;
	*nk = 0;
	*wanted = 0;
	for (unsigned i = 0; i < used + (d ? d->ndropped : 0); i++) {
		uint16_t k = i < used ? ibp_pkey_table_get(given, i)
				      : d->dropped[i - used];
		if (!ibp_pkey_is_valid(k))
			continue;
		++*wanted;
		if (lost(a, node, port, k) && !lost(b, node, port, k))
			keys[(*nk)++] = k;
	}
}

static int finding(const ibp_service *s, const ibp_fabric *f, size_t node,
		   unsigned port, unsigned wanted, const uint16_t *keys,
		   size_t nk, ibp_findings *out)
{
	uint64_t g = ibp_fabric_port_guid(f, node, port);
	unsigned cap = ibp_fabric_port_capacity(f, node, port), seen;
	bool read =
	    svc_db_partition_cap(s, ibp_fabric_node_guid(f, node), &seen);
	char list[256] = "";
	size_t o = 0;
	for (size_t i = 0; i < nk && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s0x%04x",
				      i ? ", " : "", keys[i]);
	char name[160];
	return ibp_findings_add(
	    out, "capacity-overflow", IBP_AUDIT_HIGH, &g, 1, keys, nk,
	    "Remove the port from other partitions first, or restart OpenSM "
	    "(it then forgets the indexes of P_Keys gone from the port).",
	    "Port 0x%016" PRIx64 " (%s) should hold %u P_Keys and its "
	    "P_KeyTable has %u entries (PartitionCap, %s); %s: %s would "
	    "not fit and the port would silently not be a member.",
	    g, ibp_fabric_port_name(f, node, port, name, sizeof(name)), wanted,
	    cap,
	    read ? "as the fabric's NodeInfo gives it" : "from the topology",
	    wanted <= cap ? "OpenSM remembers the index of each P_Key that "
			    "left the port, and one returning to its index "
			    "writes over the P_Key there"
			  : "the table cannot hold them all",
	    list);
}

static int judge(const ibp_service *s, const ibp_fabric *f,
		 const struct placed *b, const struct placed *a,
		 ibp_findings *out)
{
	uint16_t *keys = malloc(65536 * sizeof(*keys));
	if (!keys)
		return IBP_ENOMEM;
	int rc = IBP_OK;
	for (size_t i = 0; !rc && i < ibp_tables_count(a->given); i++) {
		size_t n, nk;
		unsigned p, wanted;
		ibp_tables_at(a->given, i, &n, &p);
		if (!ibp_fabric_is_end_port(f, n, p))
			continue;
		fresh_losses(b, a, n, p, keys, &nk, &wanted);
		if (nk)
			rc = finding(s, f, n, p, wanted, keys, nk, out);
	}
	free(keys);
	return rc ? IBP_ENOMEM : IBP_OK;
}

int svc_capacity_findings(const ibp_service *s, const char *before, size_t blen,
			  const char *after, size_t alen, ibp_findings **out,
			  ibp_error *err)
{
	*out = NULL;
	const ibp_fabric *f = NULL;
	const ibp_state_file *st = NULL;
	uint64_t sm = 0;
	int rc = svc_record_get(s, &f, &sm, &st, err);
	if (rc)
		return rc;
	ibp_error ignore;
	struct placed b = {0}, a = {0};
	const ibp_tables *held = st ? ibp_state_file_tables(st) : NULL;
	const ibp_index_memory *mem = st ? ibp_state_file_memory(st) : NULL;
	if (!place(s, f, sm, before, blen, held, mem, &b, &ignore)) {
		held = b.held;
		mem = b.memory;
	} else { /* a before that does not place blocks nothing: judged
		    from the record alone */
		placed_free(&b);
		b = (struct placed){0};
	}
	rc = place(s, f, sm, after, alen, held, mem, &a, err);
	if (!rc && !(*out = ibp_findings_new()))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc && judge(s, f, &b, &a, *out))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	placed_free(&b);
	placed_free(&a);
	return rc;
}
