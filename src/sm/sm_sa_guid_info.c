/*
 * sm_sa_guid_info.c - the alias GUIDs the SA holds: its GUIDInfoRecords
 * (IBA vol. 1 15.2.5.18) of the ports whose GUIDInfo the SMPs read
 * (sm_guid_info.c).  A host of the ConnectX-3 (mlx4) model registers its
 * virtual functions' alias GUIDs with the SM through the SA
 * (SubnAdmSet(GUIDInfoRecord)), and the SM then sets them in the port's
 * GUIDInfo (14.2.5.5): the SA's records say what the hosts asked for,
 * also before - or where - the port's own table does not hold it.
 *
 * One SubnAdmGetTable per port and block, ComponentMask LID and
 * BlockNum: each answer is one record in one MAD, so no RMPP
 * reassembly is needed (ibsim's libumad2sim carries 256 bytes and no
 * more; a whole-table GetTable would need RMPP).  The first query goes
 * alone: unanswered after the retries, no SA answers and none of the
 * rest is sent.  The others are pipelined as the SMP batches are.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/sa.h"
#include "sm/sm_priv.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"

/* One query: port ports[port]'s block at lid. */
struct gir_q {
	size_t port;
	uint16_t lid;
	uint8_t block;
	uint64_t tid;
	int rc; /* IBP_ETIMEDOUT until answered */
	uint8_t req[IBP_MAD_SIZE], resp[IBP_MAD_SIZE];
};

static int encode_query(ibp_sm *sm, uint64_t sa_key, struct gir_q *q,
			ibp_error *err)
{
	q->tid = ++sm->tid;
	q->rc = IBP_ETIMEDOUT;
	int rc =
	    ibp_sa_mad_init(q->req, IBP_MAD_SIZE, IBP_SA_METHOD_GET_TABLE,
			    IBP_SA_ATTR_GUID_INFO_RECORD, q->tid, sa_key, err);
	struct ibp_sa_mad h;
	if (!rc)
		rc = ibp_sa_mad_decode(&h, q->req, IBP_MAD_SIZE, err);
	if (rc)
		return rc;
	h.comp_mask = IBP_GIR_COMP_LID | IBP_GIR_COMP_BLOCK;
	h.attr_offset = IBP_GUID_INFO_RECORD_SIZE / 8;
	struct ibp_guid_info_record r = {.lid = q->lid, .block_num = q->block};
	rc = ibp_sa_mad_encode(&h, q->req, IBP_MAD_SIZE, err);
	if (!rc)
		rc = ibp_guid_info_record_encode(
		    &r, q->req + IBP_SA_DATA_OFFSET, IBP_SA_DATA_SIZE, err);
	return rc;
}

/* Send the unanswered queries of q[0..n), window at once, each retried
 * up to sm->o.retries times after a timeout. */
static int send_queries(ibp_sm *sm, uint16_t sa_lid, struct gir_q *q, size_t n,
			ibp_error *err)
{
	struct ibp_smp_xfer *x = calloc(n ? n : 1, sizeof(*x));
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	int rc =
	    x && idx ? IBP_OK : ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (unsigned attempt = 0; !rc && attempt <= sm->o.retries; attempt++) {
		size_t pend = 0;
		for (size_t i = 0; i < n; i++)
			if (q[i].rc == IBP_ETIMEDOUT) {
				x[pend] =
				    (struct ibp_smp_xfer){.req = q[i].req,
							  .resp = q[i].resp,
							  .dlid = sa_lid};
				idx[pend++] = i;
			}
		if (!pend)
			break;
		if (attempt)
			sm->retries += pend;
		rc = ibp_transport_smp_batch(
		    sm->t, x, pend, sm->o.max_wire_smps, sm->o.timeout_ms, err);
		for (size_t k = 0; k < pend; k++) {
			if (x[k].rc == IBP_ENOENT)
				continue; /* never sent */
			sm->smps++;
			if (x[k].rc == IBP_ETIMEDOUT)
				sm->timeouts++;
			q[idx[k]].rc = x[k].rc;
		}
	}
	free(x);
	free(idx);
	return rc;
}

/* The entries of q's answer (a GetTableResp with its record, or an
 * error status: none) added to m where it lacks them. */
static int take_record(const ibp_sm *sm, const struct sm_gi_port *gp,
		       const struct gir_q *q, ibp_alias_map *m,
		       struct ibp_sm_alias_read *r, ibp_error *err)
{
	struct ibp_sa_mad h;
	struct ibp_guid_info_record rec;
	if (q->rc != IBP_OK ||
	    ibp_sa_mad_decode(&h, q->resp, IBP_MAD_SIZE, NULL) ||
	    h.tid != q->tid || h.method != IBP_SA_METHOD_GET_TABLE_RESP ||
	    h.status ||
	    ibp_guid_info_record_decode(&rec, q->resp + IBP_SA_DATA_OFFSET,
					IBP_SA_DATA_SIZE, NULL) ||
	    rec.lid != q->lid || rec.block_num != q->block)
		return IBP_OK;
	uint64_t port_guid =
	    ibp_fabric_port_guid(sm->fabric, gp->node, gp->port);
	for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++) {
		unsigned idx = q->block * IBP_GUID_INFO_BLOCK + i;
		if (idx == 0 || idx >= gp->cap || !rec.guid[i] ||
		    rec.guid[i] == port_guid)
			continue;
		const struct ibp_alias *have =
		    ibp_alias_map_find(m, rec.guid[i]);
		if (have) { /* the SMPs read it: where it is counts */
			if (have->port_guid != port_guid || have->index != idx)
				r->dups++;
			continue;
		}
		struct ibp_alias a = {rec.guid[i], port_guid, idx};
		int rc = ibp_alias_map_add(m, &a);
		if (rc == IBP_ENOMEM)
			return ibp_error_set(err, rc, "out of memory");
		if (rc == IBP_OK)
			r->sa++;
		else
			r->dups++;
	}
	return IBP_OK;
}

/* The LID the port answered in its PortInfo at discovery (0: none). */
static uint16_t port_lid(const ibp_sm *sm, const struct sm_gi_port *gp)
{
	ibp_port_link l;
	if (!ibp_fabric_port_link(sm->fabric, gp->node, gp->port, &l))
		return 0;
	return l.lid;
}

int sm_sa_guid_info(ibp_sm *sm, uint16_t sa_lid, uint64_t sa_key,
		    const struct sm_gi_port *ports, size_t np, ibp_alias_map *m,
		    struct ibp_sm_alias_read *r, ibp_error *err)
{
	size_t n = 0;
	for (size_t i = 0; i < np; i++)
		if (port_lid(sm, &ports[i]))
			n += (ports[i].cap + IBP_GUID_INFO_BLOCK - 1) /
			     IBP_GUID_INFO_BLOCK;
	if (!n)
		return IBP_OK;
	struct gir_q *q = calloc(n, sizeof(*q));
	if (!q)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t k = 0;
	int rc = IBP_OK;
	for (size_t i = 0; i < np && !rc; i++) {
		uint16_t lid = port_lid(sm, &ports[i]);
		unsigned nb = lid ? (ports[i].cap + IBP_GUID_INFO_BLOCK - 1) /
					IBP_GUID_INFO_BLOCK
				  : 0;
		for (unsigned b = 0; b < nb && !rc; b++) {
			q[k] =
			    (struct gir_q){.port = i, .lid = lid, .block = b};
			rc = encode_query(sm, sa_key, &q[k++], err);
		}
	}
	r->sa_queries = n;
	/* the first alone: does an SA answer at all? */
	if (!rc)
		rc = send_queries(sm, sa_lid, q, 1, err);
	r->sa_answered = !rc && q[0].rc == IBP_OK;
	if (!rc && r->sa_answered && n > 1)
		rc = send_queries(sm, sa_lid, q + 1, n - 1, err);
	if (!r->sa_answered)
		r->sa_queries = 1;
	for (size_t i = 0; i < n && !rc && r->sa_answered; i++)
		rc = take_record(sm, &ports[q[i].port], &q[i], m, r, err);
	free(q);
	return rc;
}
