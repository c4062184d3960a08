/*
 * sm_push.c - programming the fabric (ibp_sm_push): each wanted P_KeyTable
 * block that differs from what the port holds is written (SubnSet) and read
 * back (SubnGet); PortInfo partition enforcement set on leaf ports (and
 * cleared between switches) the way OpenSM does (osm_pkey_mgr_process).
 * What changed and what failed go into an ibp_sm_report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

/* Record a port the push failed on (fp, why) in the report, marked
 * incomplete; *err gets why, or out of memory if it could not be
 * recorded.  Returns the status *err holds. */
static int record_failed(struct ibp_sm_report *rep, struct ibp_sm_port *fp,
			 const ibp_error *why, ibp_error *err)
{
	snprintf(fp->why, sizeof(fp->why), "%s", why->message);
	rep->complete = false;
	if (sm_report_add_port(&rep->failed, &rep->nfailed, fp) != IBP_OK)
		return ibp_error_set(err, IBP_ENOMEM,
				     "out of memory recording a failed port "
				     "(%s)",
				     why->message);
	if (err && err != why)
		*err = *why;
	return why->status;
}

/* record_failed() for port p of discovered node n. */
static int fail_port(ibp_sm *sm, struct ibp_sm_report *rep, size_t n,
		     unsigned p, const ibp_error *why, ibp_error *err)
{
	struct ibp_sm_port fp;
	sm_port_describe(sm->fabric, n, p, &fp);
	return record_failed(rep, &fp, why, err);
}

/* Record a port the push changed in the report. */
static int record_changed(struct ibp_sm_report *rep,
			  const struct ibp_sm_port *cp, ibp_error *err)
{
	if (sm_report_add_port(&rep->changed, &rep->nchanged, cp) != IBP_OK)
		return ibp_error_set(err, IBP_ENOMEM,
				     "out of memory recording a changed port");
	return IBP_OK;
}

/* Write the blocks of `want` that differ from what (n, p) holds. */
static int push_port(ibp_sm *sm, size_t n, unsigned p,
		     const ibp_pkey_table *want, struct ibp_sm_report *rep,
		     ibp_error *err)
{
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	unsigned cap = sm_port_capacity(sm, n, p);
	if (ibp_pkey_table_used(want) > cap)
		return ibp_error_set(err, IBP_EFULL,
				     "the table needs %u entries, the port "
				     "holds %u",
				     ibp_pkey_table_used(want), cap);
	ibp_pkey_table *have = NULL, *w = ibp_pkey_table_new(cap);
	if (!w)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = IBP_OK;
	for (unsigned i = 0; i < ibp_pkey_table_used(want) && !rc; i++)
		rc = ibp_pkey_table_set(w, i, ibp_pkey_table_get(want, i), err);
	if (rc == IBP_OK)
		rc = sm_read_table(sm, n, p, &have, &rep->blocks_read, err);
	if (rc != IBP_OK)
		goto done;
	rep->ports_checked++;
	unsigned blocks[IBP_PKEY_TABLE_MAX / IBP_PKEY_BLOCK_SIZE + 1];
	unsigned nd = ibp_pkey_table_diff_blocks(
	    have, w, blocks, sizeof(blocks) / sizeof(blocks[0]));
	if (nd == 0)
		goto done;
	struct ibp_sm_port cp;
	sm_port_describe(sm->fabric, n, p, &cp);
	cp.blocks = nd;
	for (unsigned i = 0; i < nd; i++)
		if (blocks[i] < 32)
			cp.block_mask |= 1u << blocks[i];
	if (sm->o.dry_run) {
		rep->blocks_written += nd;
		rc = record_changed(rep, &cp, err);
		goto done;
	}
	const struct dr_path *path = sm_node_path(sm, n, p);
	unsigned written = 0;
	uint32_t written_mask = 0;
	for (unsigned i = 0; i < nd; i++) {
		uint16_t keys[IBP_PKEY_BLOCK_SIZE], back[IBP_PKEY_BLOCK_SIZE];
		uint8_t d[IBP_SMP_DATA_SIZE], r[IBP_SMP_DATA_SIZE];
		uint32_t mod = ibp_pkey_attr_mod(blocks[i], sw ? p : 0);
		rc = ibp_pkey_table_get_block(w, blocks[i], keys, err);
		if (rc == IBP_OK)
			rc = ibp_pkey_block_encode(keys, d, sizeof(d), err);
		if (rc == IBP_OK)
			rc = sm_dr(sm, path, IBP_METHOD_SET,
				   IBP_ATTR_PKEY_TABLE, mod, d, r, err);
		if (rc != IBP_OK)
			goto partial;
		rep->blocks_written++;
		written++;
		if (blocks[i] < 32)
			written_mask |= 1u << blocks[i];
		/* Read back (a Get, not the Set's echo) and compare. */
		rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE, mod,
			   NULL, r, err);
		if (rc == IBP_OK)
			rc = ibp_pkey_block_decode(back, r, sizeof(r), err);
		if (rc != IBP_OK)
			goto partial;
		if (memcmp(back, keys, sizeof(keys)) != 0) {
			rc = ibp_error_set(err, IBP_EIO,
					   "block %u read back differs from "
					   "what was written",
					   blocks[i]);
			goto partial;
		}
		rep->blocks_confirmed++;
	}
	rc = record_changed(rep, &cp, err);
	goto done;
partial:
	if (written) { /* stopped midway through this port */
		cp.blocks = written;
		cp.block_mask = written_mask;
		int arc = record_changed(rep, &cp, err);
		if (arc != IBP_OK)
			rc = arc;
	}
done:
	ibp_pkey_table_free(have);
	ibp_pkey_table_free(w);
	return rc;
}

bool ibp_sm_switch_enforcement_caps(const ibp_sm *sm, uint64_t node_guid,
				    bool *inbound, bool *outbound)
{
	size_t n;
	bool in = false, out = false, sw = false;
	if (sm->fabric &&
	    ibp_fabric_find_node_guid(sm->fabric, node_guid, &n) == IBP_OK &&
	    ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	    n < sm->nodes_cap) {
		sw = true;
		in = sm->nodes[n].enf_in_cap;
		out = sm->nodes[n].enf_out_cap;
	}
	if (inbound)
		*inbound = in;
	if (outbound)
		*outbound = out;
	return sw;
}

/* Set PortInfo partition enforcement of switch port (n, p) to the bits
 * `want` gives that port (a rollback), else to the --part-enforce mode. */
static int enforce_port(ibp_sm *sm, size_t n, unsigned p,
			const ibp_tables *want, size_t wn,
			struct ibp_sm_report *rep, ibp_error *err)
{
	bool in, outb;
	ibp_part_enforce_bits(sm->o.enforce, &in, &outb);
	ibp_tables_get_enforcement(want, wn, p, &in, &outb);
	const struct sm_node *nd = &sm->nodes[n];
	const struct dr_path *path = sm_node_path(sm, n, p);
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, p, NULL, d,
		       err);
	struct ibp_port_info pi;
	if (rc == IBP_OK)
		rc = ibp_port_info_decode(&pi, d, sizeof(d), err);
	if (rc != IBP_OK)
		return rc;
	/* A direction the switch cannot enforce keeps what it reads. */
	if (!nd->enf_in_cap)
		in = pi.partition_enforcement_inbound;
	if (!nd->enf_out_cap)
		outb = pi.partition_enforcement_outbound;
	if (pi.partition_enforcement_inbound == in &&
	    pi.partition_enforcement_outbound == outb)
		return IBP_OK;
	if (!sm->o.dry_run) {
		/* the PortInfo read, state fields "no change", only the
		 * enforcement bits changed: OpenSM's Set */
		ibp_port_info_set_enforcement(&pi, in, outb);
		rc = ibp_port_info_encode(&pi, d, sizeof(d), err);
		if (rc == IBP_OK)
			rc = sm_dr(sm, path, IBP_METHOD_SET, IBP_ATTR_PORT_INFO,
				   p, d, d, err);
		if (rc == IBP_OK)
			rc = ibp_port_info_decode(&pi, d, sizeof(d), err);
		if (rc != IBP_OK)
			return rc;
		if (pi.partition_enforcement_inbound != in ||
		    pi.partition_enforcement_outbound != outb)
			return ibp_error_set(err, IBP_EIO,
					     "PortInfo partition enforcement "
					     "did not take");
	}
	rep->enforce_ports++;
	/* The port's table was pushed just before: its entry, if any, is
	 * the last one. */
	if (rep->nchanged &&
	    rep->changed[rep->nchanged - 1].node_guid ==
		ibp_fabric_node_guid(sm->fabric, n) &&
	    rep->changed[rep->nchanged - 1].port == p) {
		rep->changed[rep->nchanged - 1].enforce_changed = true;
		return IBP_OK;
	}
	struct ibp_sm_port cp;
	sm_port_describe(sm->fabric, n, p, &cp);
	cp.enforce_changed = true;
	return record_changed(rep, &cp, err);
}

/* Partition enforcement goes on switch ports facing an end port whose
 * table is pushed (OpenSM's leaf ports), when the switch has an
 * enforcement table (PartitionEnforcementCap).  A switch that implements
 * neither enforcement bit is counted in the report and left alone. */
static bool wants_enforcement(const ibp_sm *sm, size_t n, unsigned p,
			      const ibp_tables *want, size_t wn,
			      struct ibp_sm_report *rep)
{
	/* keep_enforcement leaves the bits, except where `want` says
	 * what they must be (a rollback of what was read) */
	if ((sm->o.keep_enforcement &&
	     !ibp_tables_get_enforcement(want, wn, p, NULL, NULL)) ||
	    !sm_leaf_port(sm, n, p))
		return false;
	if (n < sm->nodes_cap &&
	    (sm->nodes[n].enf_in_cap || sm->nodes[n].enf_out_cap))
		return true;
	rep->enforce_unsupported++;
	return false;
}

/* The ports between switches that `want` gives enforcement bits without
 * a table (apply clearing them, as OpenSM does): their PortInfo. */
static int push_isl(ibp_sm *sm, const ibp_tables *want,
		    struct ibp_sm_report *rep, ibp_error *err)
{
	const ibp_fabric *wf = ibp_tables_fabric(want);
	for (size_t wn = 0; wn < ibp_fabric_node_count(wf); wn++) {
		size_t n;
		unsigned np = ibp_fabric_node_nports(wf, wn);
		if (ibp_fabric_node_type(wf, wn) != IBP_NODE_SWITCH ||
		    ibp_fabric_find_node_guid(sm->fabric,
					      ibp_fabric_node_guid(wf, wn), &n))
			continue;
		for (unsigned p = 1; p <= np; p++) {
			if (ibp_tables_get(want, wn, p) ||
			    !ibp_tables_get_enforcement(want, wn, p, NULL,
							NULL) ||
			    !sm_isl_port(sm, n, p))
				continue;
			ibp_error e;
			ibp_error_clear(&e);
			int rc = enforce_port(sm, n, p, want, wn, rep, &e);
			if (rc)
				return fail_port(sm, rep, n, p, &e, err);
		}
	}
	return IBP_OK;
}

int ibp_sm_push(ibp_sm *sm, const ibp_tables *want, struct ibp_sm_report *rep,
		ibp_error *err)
{
	memset(rep, 0, sizeof(*rep));
	rep->dry_run = sm->o.dry_run;
	rep->complete = true;
	unsigned long smps0 = sm->smps, to0 = sm->timeouts, re0 = sm->retries;
	int rc = IBP_OK;
	if (!sm->fabric && (rc = ibp_sm_discover(sm, err)) != IBP_OK) {
		rep->complete = false;
		goto out;
	}
	const ibp_fabric *wf = ibp_tables_fabric(want);
	size_t cnt = ibp_tables_count(want);
	/* Which discovered (node, port) each wanted table lands on. */
	for (size_t i = 0; i < cnt; i++) {
		size_t wn, n;
		unsigned p;
		const ibp_pkey_table *wt = ibp_tables_at(want, i, &wn, &p);
		ibp_error e;
		ibp_error_clear(&e);
		if (sm->o.cancel && sm->o.cancel(sm->o.cancel_ctx)) {
			rep->complete = false;
			rc = ibp_error_set(err, IBP_ECANCELED,
					   "the push was cancelled after %zu "
					   "of %zu ports",
					   i, cnt);
			goto out;
		}
		if (ibp_fabric_find_node_guid(sm->fabric,
					      ibp_fabric_node_guid(wf, wn),
					      &n) != IBP_OK) {
			ibp_error_set(
			    &e, IBP_ENOENT, "node 0x%016llx was not discovered",
			    (unsigned long long)ibp_fabric_node_guid(wf, wn));
			struct ibp_sm_port fp;
			sm_port_describe(wf, wn, p, &fp);
			rc = record_failed(rep, &fp, &e, err);
			goto out;
		}
		if (!sm_has_table(sm, n, p)) {
			ibp_error_set(&e, IBP_ENOENT,
				      "port %u of %s has no P_KeyTable", p,
				      ibp_fabric_node_desc(sm->fabric, n));
			rc = fail_port(sm, rep, n, p, &e, err);
			goto out;
		}
		rc = push_port(sm, n, p, wt, rep, &e);
		if (rc == IBP_OK && wants_enforcement(sm, n, p, want, wn, rep))
			rc = enforce_port(sm, n, p, want, wn, rep, &e);
		if (rc != IBP_OK) {
			rc = fail_port(sm, rep, n, p, &e, err);
			goto out;
		}
	}
	rc = push_isl(sm, want, rep, err);
out:
	rep->smps = sm->smps - smps0;
	rep->timeouts = sm->timeouts - to0;
	rep->retries = sm->retries - re0;
	return rc;
}
