/*
 * transport_sim.c - simulated SMAs behind the SMP transport interface (see
 * include/ibpart/sys/transport_sim.h).  Each request is decoded from its wire
 * bytes, carried to its destination (a directed route walked link by link
 * per IBA vol. 1, 14.2.2, or a LID), checked (header, M_Key 14.2.4) and
 * answered by the attribute handlers of 14.2.5; the response is encoded
 * back to wire bytes.  Port state lives in sim.c; nothing here keeps any.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "ibpart/sys/sa.h"
#include "ibpart/sys/transport_sim.h"
#include "ibpart/sys/mad.h"
#include "ibpart/sys/perfmgt.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

/* What this SMA reports about itself (ibsim-like values). */
#define SIM_VENDOR_ID	   0x0002c9u
#define SIM_CA_DEVICE_ID   0x1003u
#define SIM_SW_DEVICE_ID   0xb924u
#define SIM_GID_PREFIX	   0xfe80000000000000ull
#define SIM_LINEAR_FDB_CAP 49152u
#define SIM_MCAST_FDB_CAP  1024u

/* The destination of an SMP: the node and the port it arrived on. */
struct dest {
	size_t node;
	unsigned in_port;
};

static bool is_switch(const ibp_fabric *f, size_t n)
{
	return ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
}

static bool port_active(ibp_sim *s, size_t n, unsigned p)
{
	const struct ibp_sim_port_info *pi = ibp_sim_port_info(s, n, p);
	return pi && pi->port_state == IBP_SIM_PORT_ACTIVE;
}

/* Walk a pure directed route (14.2.2.1): at hop h the SMP leaves by
 * InitialPath[h]; the port it enters by is written to ReturnPath[h]. CAs
 * and routers do not forward SMPs.  false = discarded on the way. */
static bool walk_dr(ibp_sim *s, size_t node, unsigned port, struct ibp_smp *smp,
		    struct dest *d)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	size_t cur = node;
	unsigned in = port;
	for (unsigned h = 1; h <= smp->hop_cnt; h++) {
		unsigned out = smp->initial_path[h];
		if (h > 1 && !is_switch(f, cur))
			return false;
		if (out == 0 || out > ibp_fabric_node_nports(f, cur))
			return false;
		size_t pn;
		unsigned pp;
		if (!ibp_fabric_port_peer(f, cur, out, &pn, &pp) ||
		    !port_active(s, cur, out) || !port_active(s, pn, pp))
			return false;
		smp->return_path[h] = (uint8_t)pp;
		cur = pn;
		in = pp;
	}
	d->node = cur;
	d->in_port = in;
	return true;
}

/* 14.2.4.1: may this request pass the M_Key check of the port that
 * checks it (a CA's receiving port, a switch's port 0)?  With a non-zero
 * M_Key and another key in the SMP: a Set (or TrapRepress) fails at every
 * protection level; a Get passes at level 0 (PortInfo shows the M_Key),
 * passes at level 1 with PortInfo M_Key read as 0 (*hide), and fails at
 * levels 2 and 3 - as the Linux SMAs (ipath, qib) check it. */
static bool mkey_ok(struct ibp_sim_port_info *pi, const struct ibp_smp *smp,
		    bool *hide)
{
	*hide = false;
	if (pi->m_key == 0 || smp->mkey == pi->m_key)
		return true;
	if (smp->method != IBP_METHOD_GET)
		return false;
	switch (pi->m_key_protect_bits) {
	case 0:
		return true;
	case 1:
		*hide = true;
		return true;
	default:
		return false;
	}
}

static void fill_port_info(ibp_sim *s, size_t n, unsigned p, unsigned in_port,
			   bool hide_mkey, struct ibp_port_info *out)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	const struct ibp_sim_port_info *pi = ibp_sim_port_info(s, n, p);
	bool sw = is_switch(f, n);
	/* A switch's PortInfo for an external port reports port 0's LID,
	 * M_Key and SM fields (14.2.5.6: they are the switch's). */
	const struct ibp_sim_port_info *base =
	    sw ? ibp_sim_port_info(s, n, 0) : pi;
	size_t pn;
	unsigned pp;
	bool linked = ibp_fabric_port_peer(f, n, p, &pn, &pp);
	memset(out, 0, sizeof(*out));
	out->mkey = hide_mkey ? 0 : base->m_key;
	out->gid_prefix = SIM_GID_PREFIX;
	out->lid = base->lid;
	out->master_sm_lid = base->master_sm_lid;
	out->capability_mask = pi->capability_mask | IBP_CAP_IS_TRAP_SUPPORTED |
			       IBP_CAP_IS_SYS_IMAGE_GUID_SUPPORTED;
	if (sw && p != 0)
		out->capability_mask = 0;
	out->mkey_lease_period = base->m_key_lease_period;
	out->local_port_num = (uint8_t)(sw ? in_port : p);
	out->link_width_enabled = 3;
	out->link_width_supported = 3;
	out->link_width_active = 2; /* 4x */
	out->link_speed_supported = 1;
	out->link_speed_active = 1; /* 2.5 Gb/s, as ibsim */
	out->link_speed_enabled = 1;
	out->link_state = pi->port_state;
	out->port_phys_state =
	    (linked || p == 0) ? IBP_PHYS_STATE_LINKUP : IBP_PHYS_STATE_POLLING;
	out->link_down_default_state = 2;
	out->mkey_protect_bits = base->m_key_protect_bits;
	out->lmc = base->lmc;
	out->neighbor_mtu = 5;
	out->master_sm_sl = base->master_sm_sl;
	out->vl_cap = 4;
	out->mtu_cap = 5;
	out->operational_vls = 4;
	out->hoq_life = 31;
	out->partition_enforcement_inbound = pi->part_enforce_in;
	out->partition_enforcement_outbound = pi->part_enforce_out;
	out->mkey_violations = base->m_key_violations;
	out->pkey_violations = pi->p_key_violations;
	out->qkey_violations = pi->q_key_violations;
	out->guid_cap = (uint8_t)ibp_sim_guid_cap(s, n, p);
	out->subnet_timeout = 18;
	out->resp_time_value = 20;
}

static uint16_t do_node_info(ibp_sim *s, const struct dest *d,
			     struct ibp_smp *smp)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	size_t n = d->node;
	bool sw = is_switch(f, n);
	if (smp->method != IBP_METHOD_GET)
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	struct ibp_node_info ni = {
	    .base_version = 1,
	    .class_version = 1,
	    .node_type = (uint8_t)ibp_fabric_node_type(f, n),
	    .num_ports = (uint8_t)ibp_fabric_node_nports(f, n),
	    .sys_image_guid = ibp_fabric_sysimg_guid(f, n),
	    .node_guid = ibp_sim_node_info_node_guid(s, n),
	    .port_guid = ibp_sim_node_info_port_guid(s, n, sw ? 0 : d->in_port),
	    .partition_cap = (uint16_t)ibp_fabric_node_partition_cap(f, n),
	    .device_id = sw ? SIM_SW_DEVICE_ID : SIM_CA_DEVICE_ID,
	    .revision = 0,
	    .local_port_num = (uint8_t)d->in_port,
	    .vendor_id = SIM_VENDOR_ID,
	};
	memset(smp->data, 0, sizeof(smp->data));
	ibp_node_info_encode(&ni, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

static uint16_t do_node_desc(ibp_sim *s, const struct dest *d,
			     struct ibp_smp *smp)
{
	if (smp->method != IBP_METHOD_GET)
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	char desc[IBP_NODE_DESC_SIZE + 1];
	snprintf(desc, sizeof(desc), "%s",
		 ibp_fabric_node_desc(ibp_sim_fabric(s), d->node));
	memset(smp->data, 0, sizeof(smp->data));
	ibp_node_desc_encode(desc, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

static uint16_t do_switch_info(ibp_sim *s, const struct dest *d,
			       struct ibp_smp *smp)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	if (!is_switch(f, d->node))
		return IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
	/* Set is accepted; this model keeps no forwarding tables, so it
	 * answers with the same values either way. */
	unsigned cap = ibp_fabric_node_enforcement_cap(f, d->node);
	struct ibp_switch_info si = {
	    .linear_fdb_cap = SIM_LINEAR_FDB_CAP,
	    .mcast_fdb_cap = SIM_MCAST_FDB_CAP,
	    .linear_fdb_top = 0,
	    .default_port = 0,
	    .life_time_value = 18,
	    .lids_per_port = 0,
	    .partition_enforcement_cap = (uint16_t)cap,
	    .inbound_enforcement_cap = cap > 0 && ibp_sim_enforcement_bits(s),
	    .outbound_enforcement_cap = cap > 0 && ibp_sim_enforcement_bits(s),
	    .enhanced_port0 = false,
	};
	memset(smp->data, 0, sizeof(smp->data));
	ibp_switch_info_encode(&si, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

/* The port an attribute modifier names: a switch's port number, or for a
 * CA port number 0 = the port the SMP came in by. */
static bool attr_port(ibp_sim *s, const struct dest *d, unsigned mod_port,
		      unsigned *port)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	unsigned np = ibp_fabric_node_nports(f, d->node);
	if (mod_port > np)
		return false;
	if (!is_switch(f, d->node) && mod_port == 0)
		mod_port = d->in_port;
	*port = mod_port;
	return true;
}

/* 14.2.5.6, PortInfo in a SubnSet: the state fields a Set may carry,
 * given the port's PortState now (cur).
 *  - PortState: 0 (no state change); 1 (Down) from any state; 3 (Armed)
 *    only from Initialize; 4 (Active) only from Armed.  2 (Initialize)
 *    is reached by the link training, never by a Set; 5-15 are reserved.
 *    So writing back the Active a port reports is an invalid transition.
 *  - PortPhysicalState: 0 (no state change), 2 (Polling), 3 (Disabled).
 *  - LinkDownDefaultState: 0 (no state change), 1 (Sleep), 2 (Polling).
 * Anything else is answered with MAD status 7, "a field of the attribute
 * or attribute modifier has an invalid value" (13.4.7), and nothing of
 * the Set is applied. */
static bool port_info_set_valid(unsigned cur, const struct ibp_port_info *in)
{
	bool state_ok;
	switch (in->link_state) {
	case IBP_PORT_STATE_NOP:
	case IBP_PORT_STATE_DOWN:
		state_ok = true;
		break;
	case IBP_PORT_STATE_ARMED:
		state_ok = cur == IBP_SIM_PORT_INIT;
		break;
	case IBP_PORT_STATE_ACTIVE:
		state_ok = cur == IBP_SIM_PORT_ARMED;
		break;
	default:
		state_ok = false;
	}
	bool phys_ok = in->port_phys_state == IBP_PHYS_STATE_NOP ||
		       in->port_phys_state == IBP_PHYS_STATE_POLLING ||
		       in->port_phys_state == IBP_PHYS_STATE_DISABLED;
	return state_ok && phys_ok && in->link_down_default_state <= 2;
}

/* The PortState a valid Set asks for.  Down on a linked port: the link
 * retrains at once, so both ends come back in Initialize (as ibsim
 * models it); a port with no link stays Down.  A switch's port 0 has no
 * link of its own and keeps its state.  PortPhysicalState and
 * LinkDownDefaultState are checked, not modelled: the link stays up. */
static void port_info_set_state(ibp_sim *s, size_t n, unsigned p, uint8_t want)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	struct ibp_sim_port_info *pi = ibp_sim_port_info(s, n, p);
	size_t pn;
	unsigned pp;
	if (want == IBP_PORT_STATE_ARMED || want == IBP_PORT_STATE_ACTIVE)
		pi->port_state = want;
	else if (want == IBP_PORT_STATE_DOWN && !(is_switch(f, n) && p == 0) &&
		 ibp_fabric_port_peer(f, n, p, &pn, &pp)) {
		pi->port_state = IBP_SIM_PORT_INIT;
		ibp_sim_port_info(s, pn, pp)->port_state = IBP_SIM_PORT_INIT;
	}
}

static uint16_t do_port_info(ibp_sim *s, const struct dest *d,
			     struct ibp_smp *smp, bool hide_mkey)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	unsigned port;
	if (!attr_port(s, d, smp->attr_mod & 0xffu, &port) ||
	    (smp->attr_mod >> 8) != 0)
		return IBP_MAD_STATUS_INVALID_FIELD;
	bool sw = is_switch(f, d->node);
	if (smp->method == IBP_METHOD_SET) {
		struct ibp_port_info in;
		if (ibp_port_info_decode(&in, smp->data, sizeof(smp->data),
					 NULL) != IBP_OK)
			return IBP_MAD_STATUS_INVALID_FIELD;
		struct ibp_sim_port_info *pi =
		    ibp_sim_port_info(s, d->node, port);
		if (in.lmc > 7 || in.mkey_protect_bits > 3 ||
		    !port_info_set_valid(pi->port_state, &in))
			return IBP_MAD_STATUS_INVALID_FIELD;
		/* The switch-wide fields live on port 0 (14.2.5.6). */
		struct ibp_sim_port_info *base =
		    ibp_sim_port_info(s, d->node, sw ? 0 : port);
		if (!sw || port == 0) {
			bool lid_changed =
			    base->lid != in.lid || base->lmc != in.lmc;
			base->m_key = in.mkey;
			base->m_key_lease_period = in.mkey_lease_period;
			base->m_key_protect_bits = in.mkey_protect_bits;
			base->lid = in.lid;
			base->lmc = in.lmc;
			base->master_sm_lid = in.master_sm_lid;
			base->master_sm_sl = in.master_sm_sl;
			if (lid_changed) {
				if (sw) {
					unsigned np =
					    ibp_fabric_node_nports(f, d->node);
					for (unsigned p = 1; p <= np; p++)
						ibp_sim_port_info(s, d->node, p)
						    ->lid = in.lid;
				}
				ibp_sim_lids_changed(s);
			}
		}
		/* Partition enforcement is a switch external port's
		 * (10.9.4); on others the bits are reserved. */
		if (sw && port != 0 &&
		    ibp_fabric_node_enforcement_cap(f, d->node) > 0 &&
		    ibp_sim_enforcement_bits(s)) {
			pi->part_enforce_in = in.partition_enforcement_inbound;
			pi->part_enforce_out =
			    in.partition_enforcement_outbound;
		}
		port_info_set_state(s, d->node, port, in.link_state);
	}
	struct ibp_port_info out;
	fill_port_info(s, d->node, port, d->in_port, hide_mkey, &out);
	memset(smp->data, 0, sizeof(smp->data));
	ibp_port_info_encode(&out, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

static uint16_t do_pkey_table(ibp_sim *s, const struct dest *d,
			      struct ibp_smp *smp)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	unsigned block = ibp_pkey_attr_mod_block(smp->attr_mod);
	unsigned port = d->in_port;
	if (is_switch(f, d->node)) {
		port = ibp_pkey_attr_mod_port(smp->attr_mod);
		if (port > ibp_fabric_node_nports(f, d->node))
			return IBP_MAD_STATUS_INVALID_FIELD;
	}
	ibp_pkey_table *t =
	    ibp_tables_get_mut(ibp_sim_tables(s), d->node, port);
	if (!t || block >= ibp_pkey_table_num_blocks(t))
		return IBP_MAD_STATUS_INVALID_FIELD;
	uint16_t keys[IBP_PKEY_BLOCK_SIZE];
	if (smp->method == IBP_METHOD_SET) {
		ibp_pkey_block_decode(keys, smp->data, sizeof(smp->data), NULL);
		/* Entries past the capacity do not exist: ignored. */
		unsigned cap = ibp_pkey_table_capacity(t);
		for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE; i++)
			if (block * IBP_PKEY_BLOCK_SIZE + i >= cap)
				keys[i] = 0;
		if (ibp_pkey_table_set_block(t, block, keys, NULL) != IBP_OK)
			return IBP_MAD_STATUS_INVALID_FIELD;
	}
	ibp_pkey_table_get_block(t, block, keys, NULL);
	memset(smp->data, 0, sizeof(smp->data));
	ibp_pkey_block_encode(keys, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

/* GUIDInfo (14.2.5.5): the attribute modifier is the block of 8 GUIDs;
 * a Set writes the alias entries (entry 0, the port GUID, is read-only)
 * and the response is the table as it now is. */
static uint16_t do_guid_info(ibp_sim *s, const struct dest *d,
			     struct ibp_smp *smp)
{
	unsigned cap = ibp_sim_guid_cap(s, d->node, d->in_port);
	unsigned block = smp->attr_mod;
	uint64_t g[IBP_GUID_INFO_BLOCK];
	if (cap == 0 || smp->attr_mod > 0xffu ||
	    block * IBP_GUID_INFO_BLOCK >= cap)
		return IBP_MAD_STATUS_INVALID_FIELD;
	if (smp->method == IBP_METHOD_SET) {
		ibp_guid_info_decode(g, smp->data, sizeof(smp->data), NULL);
		for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++) {
			unsigned idx = block * IBP_GUID_INFO_BLOCK + i;
			if (idx != 0 && idx < cap)
				ibp_sim_set_alias_guid(s, d->node, d->in_port,
						       idx, g[i], NULL);
		}
	}
	for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++)
		g[i] = ibp_sim_guid(s, d->node, d->in_port,
				    block * IBP_GUID_INFO_BLOCK + i);
	memset(smp->data, 0, sizeof(smp->data));
	ibp_guid_info_encode(g, smp->data, sizeof(smp->data), NULL);
	return IBP_MAD_STATUS_OK;
}

int ibp_sim_sma_process(ibp_sim *s, size_t node, unsigned port, uint16_t dlid,
			const uint8_t req[IBP_MAD_SIZE],
			uint8_t resp[IBP_MAD_SIZE], ibp_error *err)
{
	struct ibp_smp smp;
	int rc = ibp_smp_decode(&smp, req, IBP_MAD_SIZE, err);
	if (rc != IBP_OK)
		return rc;
	if (smp.method & IBP_METHOD_RESPONSE_BIT)
		return ibp_error_set(err, IBP_EINVAL,
				     "an SMA does not take responses (%s)",
				     ibp_method_name(smp.method));
	if (!ibp_sim_port_info(s, node, port))
		return ibp_error_set(err, IBP_EINVAL,
				     "no such source port %zu/%u", node, port);

	struct dest d;
	if (ibp_smp_is_dr(&smp)) {
		if (smp.direction || smp.hop_ptr != 0)
			return ibp_error_set(err, IBP_EINVAL,
					     "DR SMP request with D bit or hop "
					     "pointer set");
		if (smp.dr_slid != IBP_LID_PERMISSIVE ||
		    smp.dr_dlid != IBP_LID_PERMISSIVE)
			return ibp_error_set(err, IBP_EINVAL,
					     "DR SMPs with LID-routed parts "
					     "are not simulated");
		if (!walk_dr(s, node, port, &smp, &d))
			return ibp_error_set(err, IBP_ETIMEDOUT,
					     "directed route broken: SMP "
					     "discarded");
	} else {
		size_t dn;
		unsigned dp;
		if (ibp_sim_find_lid(s, dlid, &dn, &dp) != IBP_OK)
			return ibp_error_set(err, IBP_ETIMEDOUT,
					     "no port has LID %u: SMP "
					     "discarded",
					     dlid);
		d.node = dn;
		d.in_port = dp;
	}

	const ibp_fabric *f = ibp_sim_fabric(s);
	uint16_t status = ibp_smp_check(&smp);
	bool hide = false;
	if (status == IBP_MAD_STATUS_OK) {
		struct ibp_sim_port_info *kp = ibp_sim_port_info(
		    s, d.node, is_switch(f, d.node) ? 0 : d.in_port);
		if (!mkey_ok(kp, &smp, &hide)) {
			if (kp->m_key_violations < 0xffff)
				kp->m_key_violations++;
			return ibp_error_set(err, IBP_ETIMEDOUT,
					     "M_Key check failed: SMP "
					     "discarded");
		}
	}
	if (status == IBP_MAD_STATUS_OK &&
	    smp.method == IBP_METHOD_TRAP_REPRESS)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "TrapRepress has no response");
	if (status == IBP_MAD_STATUS_OK) {
		switch (smp.attr_id) {
		case IBP_ATTR_NODE_DESC:
			status = do_node_desc(s, &d, &smp);
			break;
		case IBP_ATTR_NODE_INFO:
			status = do_node_info(s, &d, &smp);
			break;
		case IBP_ATTR_SWITCH_INFO:
			status = do_switch_info(s, &d, &smp);
			break;
		case IBP_ATTR_PORT_INFO:
			status = do_port_info(s, &d, &smp, hide);
			break;
		case IBP_ATTR_PKEY_TABLE:
			status = do_pkey_table(s, &d, &smp);
			break;
		case IBP_ATTR_GUID_INFO:
			status = do_guid_info(s, &d, &smp);
			break;
		default:
			status = IBP_MAD_STATUS_UNSUP_METHOD_ATTR;
		}
	}
	struct ibp_smp out;
	rc = ibp_smp_make_response(&out, &smp, status, err);
	if (rc != IBP_OK)
		return rc;
	/* The response has walked the return path back: the hop pointer
	 * has counted down to 0 (14.2.2.3). */
	out.hop_ptr = 0;
	return ibp_smp_encode(&out, resp, IBP_MAD_SIZE, err);
}

/* ---- the transport ---- */

struct sim_transport {
	ibp_sim *sim;
	size_t node;
	unsigned port;
	double drop_rate;
	uint64_t rng;
	uint64_t trap_tid;
};

static bool lose(struct sim_transport *t)
{
	if (t->drop_rate <= 0)
		return false;
	/* xorshift64*: reproducible from the seed */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	uint64_t r = t->rng * 0x2545f4914f6cdd1dull;
	return (double)(r >> 11) / 9007199254740992.0 < t->drop_rate;
}

static int deliver(struct sim_transport *t, uint16_t dlid,
		   const uint8_t req[IBP_MAD_SIZE], uint8_t resp[IBP_MAD_SIZE],
		   ibp_error *err)
{
	if (lose(t))
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "request lost (fault injection)");
	uint8_t tmp[IBP_MAD_SIZE];
	int rc = req[1] == IBP_MGMT_CLASS_PERF
		     ? ibp_sim_pma_process(t->sim, t->node, t->port, dlid, req,
					   tmp, err)
		 : req[1] == IBP_MGMT_CLASS_SA
		     ? ibp_sim_sa_process(t->sim, t->node, t->port, dlid, req,
					  tmp, err)
		     : ibp_sim_sma_process(t->sim, t->node, t->port, dlid, req,
					   tmp, err);
	if (rc != IBP_OK)
		return rc;
	if (lose(t))
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "response lost (fault injection)");
	memcpy(resp, tmp, IBP_MAD_SIZE);
	return IBP_OK;
}

static int sim_smp(void *ctx, const uint8_t req[IBP_MAD_SIZE],
		   uint8_t resp[IBP_MAD_SIZE], int timeout_ms, ibp_error *err)
{
	(void)timeout_ms; /* simulated time: a lost MAD times out at once */
	uint8_t cls, method;
	uint64_t tid;
	uint16_t attr;
	int rc = ibp_mad_peek(req, IBP_MAD_SIZE, &cls, &method, &tid, &attr);
	if (rc != IBP_OK)
		return ibp_error_set(err, rc, "short MAD");
	if (cls != IBP_MGMT_CLASS_SUBN_DR)
		return ibp_error_set(err, IBP_EINVAL,
				     "a LID-routed SMP needs a DLID: use "
				     "ibp_transport_smp_lid()");
	return deliver(ctx, 0, req, resp, err);
}

static int sim_smp_lid(void *ctx, uint16_t dlid,
		       const uint8_t req[IBP_MAD_SIZE],
		       uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		       ibp_error *err)
{
	(void)timeout_ms;
	return deliver(ctx, dlid, req, resp, err);
}

static int sim_recv(void *ctx, uint8_t buf[IBP_MAD_SIZE], int timeout_ms,
		    ibp_error *err)
{
	(void)timeout_ms;
	struct sim_transport *t = ctx;
	struct ibp_sim_trap tr;
	if (ibp_sim_trap_pop(t->sim, &tr) != IBP_OK)
		return ibp_error_set(err, IBP_ETIMEDOUT, "no trap pending");
	const ibp_fabric *f = ibp_sim_fabric(t->sim);
	size_t in;
	unsigned ip;
	uint32_t producer = IBP_NODE_CA;
	if (ibp_fabric_find_port_guid(f, tr.issuer_guid, &in, &ip) == IBP_OK)
		producer = (uint32_t)ibp_fabric_node_type(f, in);
	struct ibp_notice n;
	ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY, producer,
			     tr.trap_number, tr.issuer_lid);
	if (tr.trap_number == IBP_SIM_TRAP_257) {
		struct ibp_trap_257 d = {.lid1 = tr.lid1,
					 .lid2 = tr.lid2,
					 .key = tr.pkey,
					 .sl = tr.sl,
					 .qp1 = tr.qp1,
					 .qp2 = tr.qp2};
		ibp_trap_257_to_details(&d, n.data_details);
	} else {
		struct ibp_trap_259 d = {
		    .data_valid =
			IBP_TRAP259_VALID_LID1 | IBP_TRAP259_VALID_LID2 |
			IBP_TRAP259_VALID_PKEY | IBP_TRAP259_VALID_SL |
			IBP_TRAP259_VALID_QP1 | IBP_TRAP259_VALID_QP2,
		    .lid1 = tr.lid1,
		    .lid2 = tr.lid2,
		    .pkey = tr.pkey,
		    .sl = tr.sl,
		    .qp1 = tr.qp1,
		    .qp2 = tr.qp2,
		    .sw_lid = tr.sw_lid,
		    .port = tr.sw_port};
		ibp_trap_259_to_details(&d, n.data_details);
	}
	struct ibp_smp smp;
	ibp_smp_init_lid(&smp, IBP_METHOD_TRAP, IBP_ATTR_NOTICE, 0,
			 ++t->trap_tid, 0);
	ibp_notice_encode(&n, smp.data, sizeof(smp.data), NULL);
	return ibp_smp_encode(&smp, buf, IBP_MAD_SIZE, err);
}

static void sim_close(void *ctx)
{
	free(ctx);
}

static const struct ibp_transport_ops sim_ops = {
    .name = "sim",
    .smp = sim_smp,
    .recv = sim_recv,
    .close = sim_close,
    .smp_lid = sim_smp_lid,
};

int ibp_transport_sim_new(ibp_sim *sim, size_t node, unsigned port,
			  const struct ibp_transport_sim_opts *opts,
			  ibp_transport **out, ibp_error *err)
{
	*out = NULL;
	if (!ibp_sim_port_info(sim, node, port) ||
	    !ibp_fabric_is_end_port(ibp_sim_fabric(sim), node, port))
		return ibp_error_set(err, IBP_EINVAL,
				     "the transport's port must be an end "
				     "port of the fabric");
	struct sim_transport *t = calloc(1, sizeof(*t));
	if (!t)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	t->sim = sim;
	t->node = node;
	t->port = port;
	if (opts) {
		t->drop_rate = opts->drop_rate;
		t->rng = opts->seed;
	}
	if (t->rng == 0)
		t->rng = 0x9e3779b97f4a7c15ull;
	*out = ibp_transport_new(&sim_ops, t);
	if (!*out) {
		free(t);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	return IBP_OK;
}
