/*
 * transport_sim_pma.c - the simulated fabric's Performance Management
 * Agents (IBA vol. 1, 16.1): every end port (a CA port, a switch's port
 * 0) answers PerfMgt GMPs - ClassPortInfo, PortCounters and
 * PortCountersExtended, Get and Set - from the counters the data plane
 * of sim.c keeps.  A GMP is a packet on QP1: it crosses the data plane
 * with the P_Key at the sender's index, so switch enforcement and the
 * receiver's P_Key check apply to it as to any packet (10.9.3), and a
 * GMP from a port that shares no partition with the PMA is dropped
 * (counted as a P_Key violation there) and never answered.  Kept apart
 * from the SMAs of transport_sim.c: another class, another agent.
 */
#include <string.h>

#include "ibpart/sys/perfmgt.h"
#include "ibpart/pkey.h"
#include "ibpart/sys/transport_sim.h"
#include "ibpart/sys/mad.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

/* The index a GMP leaves with: the full default P_Key where the port
 * has it (what a Performance Manager needs), else the limited one,
 * else index 0 (IBA 16.1.1: PerfMgt uses the port's default P_Key). */
unsigned ibp_sim_gmp_pkey_index(ibp_sim *s, size_t node, unsigned port)
{
	const ibp_pkey_table *t = ibp_tables_get(ibp_sim_tables(s), node, port);
	if (!t)
		return 0;
	int i = ibp_pkey_table_find(t, IBP_PKEY_DEFAULT_FULL);
	if (i < 0)
		i = ibp_pkey_table_find(t, IBP_PKEY_DEFAULT_FULL & 0x7fffu);
	return i < 0 ? 0 : (unsigned)i;
}

static uint16_t do_cpi(ibp_sim *s, const struct ibp_perf_mad *h, uint8_t *d)
{
	if (h->method != IBP_METHOD_GET)
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	struct ibp_class_port_info c = {
	    .base_version = 1,
	    .class_version = IBP_PERF_CLASS_VERSION,
	    .capability_mask = IBP_PM_EXT_WIDTH_SUPPORTED,
	    .capability_mask2 =
		ibp_sim_pma_ext_errors(s) ? IBP_PM_CAP2_ADDL_PORT_CTRS_EXT : 0,
	    .resp_time_value = 18,
	};
	ibp_class_port_info_encode(&c, d, IBP_PERF_DATA_SIZE, NULL);
	return IBP_MAD_STATUS_OK;
}

/* The port PortSelect names: any port of a switch (its PMA is on port
 * 0 and answers for all), only the addressed one of a CA.  0xff (all
 * ports) is not simulated. */
static struct ibp_sim_port_counters *selected(ibp_sim *s, size_t node,
					      unsigned port, unsigned sel)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	if (ibp_fabric_node_type(f, node) == IBP_NODE_SWITCH) {
		if (sel > ibp_fabric_node_nports(f, node))
			return NULL;
	} else if (sel != port) {
		return NULL;
	}
	return ibp_sim_port_counters_mut(s, node, sel);
}

static void clear(struct ibp_sim_port_counters *c, bool xmit, bool rcv)
{
	if (xmit) {
		c->xmit_constraint_errors = 0;
		c->pc_xmit_constraint_errors = 0;
	}
	if (rcv) {
		c->rcv_constraint_errors = 0;
		c->pc_rcv_constraint_errors = 0;
	}
}

static uint64_t sat(uint64_t v, uint64_t max)
{
	return v > max ? max : v;
}

static uint16_t do_pc(ibp_sim *s, size_t node, unsigned port,
		      const struct ibp_perf_mad *h, uint8_t *d)
{
	if (h->method != IBP_METHOD_GET && h->method != IBP_METHOD_SET)
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	struct ibp_port_counters in;
	ibp_port_counters_decode(&in, d, IBP_PERF_DATA_SIZE, NULL);
	struct ibp_sim_port_counters *c =
	    selected(s, node, port, in.port_select);
	if (!c)
		return IBP_MAD_STATUS_INVALID_FIELD;
	/* One counter behind both attributes, as on hardware: a Set of
	 * either clears both forms. */
	if (h->method == IBP_METHOD_SET)
		clear(c, in.counter_select & IBP_PC_SELECT_XMIT_CONSTRAINT,
		      in.counter_select & IBP_PC_SELECT_RCV_CONSTRAINT);
	struct ibp_port_counters out = {
	    .port_select = in.port_select,
	    .counter_select = in.counter_select,
	    .port_xmit_constraint_errors = c->pc_xmit_constraint_errors,
	    .port_rcv_constraint_errors = c->pc_rcv_constraint_errors,
	    .port_xmit_pkts = (uint32_t)sat(c->xmit_packets, 0xffffffffu),
	    .port_rcv_pkts = (uint32_t)sat(c->rcv_packets, 0xffffffffu),
	};
	memset(d, 0, IBP_PERF_DATA_SIZE);
	ibp_port_counters_encode(&out, d, IBP_PERF_DATA_SIZE, NULL);
	return IBP_MAD_STATUS_OK;
}

static uint16_t do_pce(ibp_sim *s, size_t node, unsigned port,
		       const struct ibp_perf_mad *h, uint8_t *d)
{
	if (h->method != IBP_METHOD_GET && h->method != IBP_METHOD_SET)
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	struct ibp_port_counters_ext in;
	ibp_port_counters_ext_decode(&in, d, IBP_PERF_DATA_SIZE, NULL);
	struct ibp_sim_port_counters *c =
	    selected(s, node, port, in.port_select);
	if (!c)
		return IBP_MAD_STATUS_INVALID_FIELD;
	bool errs = ibp_sim_pma_ext_errors(s);
	if (h->method == IBP_METHOD_SET && errs)
		clear(c, in.counter_select2 & IBP_PCE_SELECT2_XMIT_CONSTRAINT,
		      in.counter_select2 & IBP_PCE_SELECT2_RCV_CONSTRAINT);
	struct ibp_port_counters_ext out = {
	    .port_select = in.port_select,
	    .counter_select = in.counter_select,
	    .counter_select2 = in.counter_select2,
	    .port_xmit_pkts = c->xmit_packets,
	    .port_rcv_pkts = c->rcv_packets,
	    .port_unicast_xmit_pkts = c->xmit_packets,
	    .port_unicast_rcv_pkts = c->rcv_packets,
	};
	if (errs) {
		out.port_xmit_constraint_errors = c->xmit_constraint_errors;
		out.port_rcv_constraint_errors = c->rcv_constraint_errors;
	}
	memset(d, 0, IBP_PERF_DATA_SIZE);
	ibp_port_counters_ext_encode(&out, d, IBP_PERF_DATA_SIZE, NULL);
	return IBP_MAD_STATUS_OK;
}

int ibp_sim_pma_process(ibp_sim *s, size_t node, unsigned port, uint16_t dlid,
			const uint8_t req[IBP_MAD_SIZE],
			uint8_t resp[IBP_MAD_SIZE], ibp_error *err)
{
	struct ibp_perf_mad h;
	int rc = ibp_perf_mad_decode(&h, req, IBP_MAD_SIZE, err);
	if (rc != IBP_OK)
		return rc;
	if (h.mgmt_class != IBP_MGMT_CLASS_PERF ||
	    (h.method & IBP_METHOD_RESPONSE_BIT))
		return ibp_error_set(err, IBP_EINVAL,
				     "not a PerfMgt request (class 0x%02x, "
				     "method 0x%02x)",
				     h.mgmt_class, h.method);
	size_t dn;
	unsigned dp;
	if (ibp_sim_find_lid(s, dlid, &dn, &dp) != IBP_OK)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "no port has LID %u: GMP discarded", dlid);
	/* The GMP crosses the data plane on QP1, P_Key checked. */
	struct ibp_sim_packet pk = {
	    .src_node = node,
	    .src_port = port,
	    .dst_node = dn,
	    .dst_port = dp,
	    .pkey_index = (uint16_t)ibp_sim_gmp_pkey_index(s, node, port),
	    .src_qp = IBP_QP1,
	    .dest_qp = IBP_QP1,
	};
	struct ibp_sim_result r;
	rc = ibp_sim_send(s, &pk, &r, err);
	if (rc != IBP_OK)
		return rc;
	if (r.verdict != IBP_SIM_DELIVERED)
		return ibp_error_set(
		    err, IBP_ETIMEDOUT, "GMP with P_Key 0x%04x to LID %u: %s",
		    r.pkey, dlid, ibp_sim_verdict_str(r.verdict));
	memcpy(resp, req, IBP_MAD_SIZE);
	uint8_t *d = resp + IBP_PERF_DATA_OFFSET;
	uint16_t status;
	if (h.base_version != 1 || h.class_version != IBP_PERF_CLASS_VERSION)
		status = IBP_MAD_STATUS_BAD_VERSION;
	else if (h.attr_id == IBP_PERF_ATTR_CLASS_PORT_INFO)
		status = do_cpi(s, &h, d);
	else if (h.attr_id == IBP_PERF_ATTR_PORT_COUNTERS)
		status = do_pc(s, dn, dp, &h, d);
	else if (h.attr_id == IBP_PERF_ATTR_PORT_COUNTERS_EXT)
		status = do_pce(s, dn, dp, &h, d);
	else
		status = IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	h.method = IBP_METHOD_GET_RESP;
	h.status = status;
	return ibp_perf_mad_encode(&h, resp, IBP_MAD_SIZE, err);
}
