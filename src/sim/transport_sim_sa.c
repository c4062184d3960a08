/*
 * transport_sim_sa.c - the simulated fabric's Subnet Administrator (IBA
 * vol. 1, 15), at the SM's port: the GUIDInfoRecord (15.2.5.18) alone,
 * the attribute through which SR-IOV hosts of the ConnectX-3 (mlx4)
 * model register their virtual functions' alias GUIDs with the SM and
 * anyone reads them back.  Its records are the SMAs' GUIDInfo tables
 * (sim_guid_info.c): SubnAdmGet/GetTable answer from them, and a
 * SubnAdmSet (ComponentMask LID and BlockNum, the entries to set by
 * their GUID bits) writes them, as the SM then sets them in the port
 * with SubnSet(GUIDInfo).  As OpenSM 3.3.23 does
 * (osm_sa_guidinfo_record.c): a switch answers for its port 0 only;
 * entry 0 (the port GUID) cannot be set (ERR_REQ_INVALID); a block past
 * GUIDCap is ERR_NO_RECORDS; an alias another port or index holds is
 * not set and comes back 0 in the answer.  Not simulated: the GUIDs
 * OpenSM assigns for a 0 entry (a 0 is left as it is), SubnAdmDelete,
 * and RMPP - a GetTable is answered with the records that fit in one MAD
 * (2), as libumad2sim hands over only the first segment of OpenSM's.
 * Like the PMA's, the GMP crosses the data plane on QP1, P_Key checked.
 */
#include <string.h>

#include "ibpart/sys/mad.h"
#include "ibpart/sys/sa.h"
#include "ibpart/sys/transport_sim.h"
#include "sim/sim_priv.h"
#include "topo/topo_lib.h"

/* SA status codes (15.2.1.1, bits 8-14 of the MAD status). */
#define SA_ERR_REQ_INVALID  (2u << 8)
#define SA_ERR_NO_RECORDS   (3u << 8)
#define SA_ERR_TOO_MANY	    (4u << 8)
#define SA_ERR_INSUFF_COMPS (6u << 8)
#define GIR_PER_MAD	    (IBP_SA_DATA_SIZE / IBP_GUID_INFO_RECORD_SIZE)

/* Does (n, p) have a GUIDInfo table the SA answers for: a CA or router
 * port, a switch's port 0? */
static bool has_table(ibp_sim *s, size_t n, unsigned p)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	bool sw = ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
	return sw ? p == 0 : p > 0 && ibp_fabric_port_guid(f, n, p) != 0;
}

/* Block b of (n, p) as a record. */
static void record_of(ibp_sim *s, size_t n, unsigned p, unsigned b,
		      struct ibp_guid_info_record *r)
{
	*r = (struct ibp_guid_info_record){
	    .lid = ibp_sim_port_info(s, n, p)->lid, .block_num = (uint8_t)b};
	for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++)
		r->guid[i] = ibp_sim_guid(s, n, p, b * IBP_GUID_INFO_BLOCK + i);
}

static unsigned blocks_of(ibp_sim *s, size_t n, unsigned p)
{
	return (ibp_sim_guid_cap(s, n, p) + IBP_GUID_INFO_BLOCK - 1) /
	       IBP_GUID_INFO_BLOCK;
}

/* The records of port (n, p) matching the block of the mask, after the
 * *found ones already in d (as many as fit). */
static void port_records(ibp_sim *s, const struct ibp_sa_mad *h,
			 const struct ibp_guid_info_record *q, size_t n,
			 unsigned p, uint8_t *d, size_t *found)
{
	if (!has_table(s, n, p))
		return;
	for (unsigned b = 0; b < blocks_of(s, n, p); b++) {
		if ((h->comp_mask & IBP_GIR_COMP_BLOCK) && b != q->block_num)
			continue;
		struct ibp_guid_info_record r;
		record_of(s, n, p, b, &r);
		if (*found < GIR_PER_MAD)
			ibp_guid_info_record_encode(
			    &r, d + *found * IBP_GUID_INFO_RECORD_SIZE,
			    IBP_GUID_INFO_RECORD_SIZE, NULL);
		(*found)++;
	}
}

/* SubnAdmGet/GetTable: the records matching the LID and block of the
 * mask, as many as fit in d; the status.  A LID in the mask is looked
 * up (as an SA does), not searched for: ibpartd asks for every port. */
static uint16_t get(ibp_sim *s, const struct ibp_sa_mad *h,
		    const struct ibp_guid_info_record *q, uint8_t *d)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	size_t found = 0, n;
	unsigned p;
	if (!(h->comp_mask & IBP_GIR_COMP_LID)) {
		for (n = 0; n < ibp_fabric_node_count(f); n++)
			for (p = 0; p <= ibp_fabric_node_nports(f, n); p++)
				port_records(s, h, q, n, p, d, &found);
	} else if (!ibp_sim_find_lid(s, q->lid, &n, &p) &&
		   ibp_sim_port_info(s, n, p)->lid == q->lid) {
		port_records(s, h, q, n, p, d, &found);
	}
	if (h->method == IBP_SA_METHOD_GET_TABLE)
		return IBP_MAD_STATUS_OK;
	if (!found)
		return SA_ERR_NO_RECORDS;
	return found > 1 ? SA_ERR_TOO_MANY : IBP_MAD_STATUS_OK;
}

/* SubnAdmSet: the entries the mask names set in the port at q->lid, the
 * block as it then is into d; the status. */
static uint16_t set(ibp_sim *s, const struct ibp_sa_mad *h,
		    const struct ibp_guid_info_record *q, uint8_t *d)
{
	uint64_t need = IBP_GIR_COMP_LID | IBP_GIR_COMP_BLOCK;
	if ((h->comp_mask & need) != need)
		return SA_ERR_INSUFF_COMPS;
	size_t n;
	unsigned p;
	if (ibp_sim_find_lid(s, q->lid, &n, &p) != IBP_OK)
		return SA_ERR_NO_RECORDS;
	if (ibp_fabric_node_type(ibp_sim_fabric(s), n) == IBP_NODE_SWITCH)
		p = 0; /* a switch's table is its port 0's */
	if (!has_table(s, n, p) || q->block_num >= blocks_of(s, n, p))
		return SA_ERR_NO_RECORDS;
	unsigned cap = ibp_sim_guid_cap(s, n, p);
	bool refused[IBP_GUID_INFO_BLOCK] = {false};
	for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++) {
		unsigned idx = q->block_num * IBP_GUID_INFO_BLOCK + i;
		if (!(h->comp_mask & IBP_GIR_COMP_GUID(i)) || idx >= cap)
			continue;
		if (idx == 0)
			return SA_ERR_REQ_INVALID; /* the port GUID */
		uint64_t g = q->guid[i];
		size_t hn;
		unsigned hp, hi;
		if (!g)
			continue; /* OpenSM would assign one: not simulated */
		if (ibp_sim_find_alias_guid(s, g, &hn, &hp, &hi) == IBP_OK &&
		    (hn != n || hp != p || hi != idx)) {
			refused[i] = true; /* another holds it */
			continue;
		}
		ibp_sim_set_alias_guid(s, n, p, idx, g, NULL);
	}
	struct ibp_guid_info_record r;
	record_of(s, n, p, q->block_num, &r);
	for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++)
		if (refused[i])
			r.guid[i] = 0;
	ibp_guid_info_record_encode(&r, d, IBP_GUID_INFO_RECORD_SIZE, NULL);
	return IBP_MAD_STATUS_OK;
}

int ibp_sim_sa_process(ibp_sim *s, size_t node, unsigned port, uint16_t dlid,
		       const uint8_t req[IBP_MAD_SIZE],
		       uint8_t resp[IBP_MAD_SIZE], ibp_error *err)
{
	struct ibp_sa_mad h;
	int rc = ibp_sa_mad_decode(&h, req, IBP_MAD_SIZE, err);
	if (rc != IBP_OK)
		return rc;
	if (h.mgmt_class != IBP_MGMT_CLASS_SA || (h.method & 0x80))
		return ibp_error_set(err, IBP_EINVAL,
				     "not an SA request (class 0x%02x, "
				     "method 0x%02x)",
				     h.mgmt_class, h.method);
	size_t sn, dn;
	unsigned sp, dp;
	ibp_sim_sm_port(s, &sn, &sp);
	rc = sim_gmp_cross(s, node, port, dlid, &dn, &dp, err);
	if (rc != IBP_OK)
		return rc;
	if (dn != sn || dp != sp)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "no SA at LID %u (the SM's port is "
				     "elsewhere): GMP not answered",
				     dlid);
	struct ibp_guid_info_record q;
	ibp_guid_info_record_decode(&q, req + IBP_SA_DATA_OFFSET,
				    IBP_SA_DATA_SIZE, NULL);
	memset(resp, 0, IBP_MAD_SIZE);
	uint8_t *d = resp + IBP_SA_DATA_OFFSET;
	uint16_t status;
	uint8_t method = IBP_SA_METHOD_GET_RESP;
	if (h.base_version != 1 || h.class_version != IBP_SA_CLASS_VERSION)
		status = IBP_MAD_STATUS_BAD_VERSION;
	else if (h.attr_id != IBP_SA_ATTR_GUID_INFO_RECORD)
		status = IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	else if (h.method == IBP_SA_METHOD_GET ||
		 h.method == IBP_SA_METHOD_GET_TABLE) {
		status = get(s, &h, &q, d);
		if (h.method == IBP_SA_METHOD_GET_TABLE)
			method = IBP_SA_METHOD_GET_TABLE_RESP;
	} else if (h.method == IBP_SA_METHOD_SET)
		status = set(s, &h, &q, d);
	else
		status = IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	h.method = method;
	h.status = status;
	h.attr_offset = IBP_GUID_INFO_RECORD_SIZE / 8;
	return ibp_sa_mad_encode(&h, resp, IBP_MAD_SIZE, err);
}
