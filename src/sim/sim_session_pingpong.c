/*
 * sim_session_pingpong.c - an ibv_rc_pingpong-like RC exchange between
 * two ports of a sim session, through the data plane (ibp_sim_send): what
 * both sides print, the latency model, and the counters and traps before
 * and after (see include/ibpart/sys/sim_session.h).
 */
#include <string.h>

#include "ibpart/pkey.h"
#include "sim/sim_session_priv.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"

/* The latency model (not a measurement): a one-way message costs the
 * sender's and the receiver's HCA, a cut-through delay per switch, the
 * cable per link and one serialisation at the link rate. */
#define MODEL_HCA_US	 0.25	   /* per HCA traversal (send or receive) */
#define MODEL_SWITCH_US	 0.13	   /* per switch crossed */
#define MODEL_CABLE_US	 0.005	   /* per link (about 1 m of copper) */
#define MODEL_RATE_GBPS	 400.0	   /* 4x NDR */
#define MODEL_TIMEOUT_US 67108.864 /* QP timeout 14: 4.096 us * 2^14 */
#define RC_RETRY_CNT	 7u	   /* ibv_rc_pingpong's retry_cnt */

IBP_OPTIONS_LAYOUT(sim_pingpong_options_layout, "pingpong options",
		   IBP_SIM_PINGPONG_OPTIONS_VERSION,
		   sizeof(struct ibp_sim_pingpong_options));

/* The library's defaults, a whole current struct. */
static void sim_pingpong_options_defaults(struct ibp_sim_pingpong_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_SIM_PINGPONG_OPTIONS_VERSION;
	o->iters = 1000;
	o->size = 4096;
}

void ibp_sim_pingpong_options_init(struct ibp_sim_pingpong_options *o,
				   unsigned version)
{
	struct ibp_sim_pingpong_options d;
	sim_pingpong_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &sim_pingpong_options_layout);
}

/* Stable per port (and per VF: its own QPs), in the range a fresh HCA
 * hands out. */
static uint32_t qpn_of(size_t n, unsigned p, unsigned vf)
{
	return 0x48u + (uint32_t)((n * 7 + p) & 0x3ff) + 0x400u * vf;
}

static uint32_t psn_of(uint64_t guid)
{
	uint64_t x = guid * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 40) & 0xffffffu;
}

/* One side of the exchange: its name, LID and counters. */
struct side {
	size_t n;
	unsigned p;
	unsigned vf; /* 0: the port; n: its VF n (alias GUID) */
	char name[300];
	uint16_t pkv_before, pkv_after;
};

static void addr_lines(const ibp_sim_session *s, FILE *out,
		       const struct side *l, const struct side *r)
{
	simss_printf(
	    out,
	    "  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::\n",
	    ibp_fabric_port_lid(s->f, l->n, l->p), qpn_of(l->n, l->p, l->vf),
	    psn_of(ibp_fabric_port_guid(s->f, l->n, l->p)));
	simss_printf(
	    out,
	    "  remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::\n",
	    ibp_fabric_port_lid(s->f, r->n, r->p), qpn_of(r->n, r->p, r->vf),
	    psn_of(ibp_fabric_port_guid(s->f, r->n, r->p)));
}

/* One RC message with its ACK; up to 1 + retry_cnt transmissions. */
static bool rc_message(ibp_sim_session *s, struct ibp_sim_packet *data,
		       struct ibp_sim_packet *ack, unsigned *tries,
		       struct ibp_sim_result *last)
{
	for (*tries = 1; *tries <= 1 + RC_RETRY_CNT; (*tries)++) {
		ibp_sim_send(s->sim, data, last, NULL);
		if (last->verdict != IBP_SIM_DELIVERED)
			continue;
		ibp_sim_send(s->sim, ack, last, NULL);
		if (last->verdict == IBP_SIM_DELIVERED)
			return true;
	}
	*tries = 1 + RC_RETRY_CNT;
	return false;
}

static uint16_t pkv(ibp_sim_session *s, const struct side *x)
{
	return ibp_sim_port_info(s->sim, x->n, x->p)->p_key_violations;
}

/* What the exchange did, for the printing. */
struct run {
	const struct ibp_sim_pingpong_options *o;
	struct side req, resp;
	unsigned pkey_index, rindex;
	unsigned tries, hops, done;
	bool ok;
	struct ibp_sim_result r;
};

static void exchange(ibp_sim_session *s, struct run *x)
{
	struct ibp_sim_packet ping = {
	    .src_node = x->req.n,
	    .src_port = x->req.p,
	    .dst_node = x->resp.n,
	    .dst_port = x->resp.p,
	    .pkey_index = (uint16_t)x->pkey_index,
	    .src_vf = (uint16_t)x->req.vf,
	    .dst_vf = (uint16_t)x->resp.vf,
	    .src_qp = qpn_of(x->req.n, x->req.p, x->req.vf),
	    .dest_qp = qpn_of(x->resp.n, x->resp.p, x->resp.vf)};
	struct ibp_sim_packet pong = {.src_node = x->resp.n,
				      .src_port = x->resp.p,
				      .dst_node = x->req.n,
				      .dst_port = x->req.p,
				      .pkey_index = (uint16_t)x->rindex,
				      .src_vf = (uint16_t)x->resp.vf,
				      .dst_vf = (uint16_t)x->req.vf,
				      .src_qp = ping.dest_qp,
				      .dest_qp = ping.src_qp};
	x->ok = true;
	for (x->done = 0; x->done < x->o->iters; x->done++) {
		if (!rc_message(s, &ping, &pong, &x->tries, &x->r) ||
		    !rc_message(s, &pong, &ping, &x->tries, &x->r)) {
			x->ok = false;
			break;
		}
		x->hops = x->r.hops;
	}
}

static double print_completed(const ibp_sim_session *s, FILE *out,
			      const struct run *x)
{
	unsigned iters = x->o->iters, size = x->o->size;
	unsigned nsw = x->hops ? x->hops - 1 : 0;
	double one_way = 2 * MODEL_HCA_US + nsw * MODEL_SWITCH_US +
			 x->hops * MODEL_CABLE_US +
			 size * 8.0 / (MODEL_RATE_GBPS * 1e3);
	double iter_us = 2 * one_way;
	double total_us = iter_us * iters;
	long long bytes = (long long)size * iters * 2;
	for (int side = 0; side < 2; side++) {
		if (side == 1) {
			simss_printf(
			    out,
			    "\n[requester %s, LID %u: "
			    "ibv_rc_pingpong %s]\n",
			    x->req.name,
			    ibp_fabric_port_lid(s->f, x->req.n, x->req.p),
			    x->resp.name);
			addr_lines(s, out, &x->req, &x->resp);
		}
		simss_printf(out,
			     "%lld bytes in %.2f seconds = %.2f Mbit/sec\n",
			     bytes, total_us / 1e6, bytes * 8. / total_us);
		simss_printf(out, "%u iters in %.2f seconds = %.2f usec/iter\n",
			     iters, total_us / 1e6, total_us / iters);
	}
	simss_printf(out,
		     "\nlatency model (a model, not a measurement): per "
		     "message 2 x %.2f us HCA + %u switch x %.2f us + %u "
		     "link x %.3f us + %u B at %.0f Gb/s; usec/iter = 2 "
		     "messages\n",
		     MODEL_HCA_US, nsw, MODEL_SWITCH_US, x->hops,
		     MODEL_CABLE_US, size, MODEL_RATE_GBPS);
	return iter_us;
}

static bool switch_drop(const struct ibp_sim_result *r)
{
	return r->verdict == IBP_SIM_DROP_SWITCH_IN ||
	       r->verdict == IBP_SIM_DROP_SWITCH_OUT;
}

static void print_failed(const ibp_sim_session *s, FILE *out,
			 const struct run *x)
{
	simss_printf(out, "  (no completion: every packet was dropped "
			  "before it reached a QP; ibv_rc_pingpong waits "
			  "until killed)\n");
	simss_printf(out, "\n[requester %s, LID %u: ibv_rc_pingpong %s]\n",
		     x->req.name, ibp_fabric_port_lid(s->f, x->req.n, x->req.p),
		     x->resp.name);
	addr_lines(s, out, &x->req, &x->resp);
	simss_printf(out, "Failed status transport retry counter exceeded (12) "
			  "for wr_id 2\nparse WC failed 1\n");
	simss_printf(out,
		     "\nwhat happened: %u transmissions of iteration %u "
		     "(retry_cnt %u), each %s",
		     x->tries, x->done + 1, RC_RETRY_CNT,
		     ibp_sim_verdict_str(x->r.verdict));
	if (switch_drop(&x->r))
		simss_printf(out, " (%s port %u)",
			     ibp_fabric_node_desc(s->f, x->r.drop_node),
			     x->r.drop_port);
	simss_printf(out,
		     "; the requester gave up after %.0f ms (model: "
		     "QP timeout 14 = %.1f ms per try)\n",
		     x->tries * MODEL_TIMEOUT_US / 1e3, MODEL_TIMEOUT_US / 1e3);
}

static void print_counters(const ibp_sim_session *s, FILE *out,
			   const struct run *x, unsigned long traps_before)
{
	simss_printf(out, "\ncounters    P_KeyViolations  (PortInfo)\n");
	simss_printf(out, "  %-20s %u -> %u\n", x->resp.name,
		     x->resp.pkv_before, x->resp.pkv_after);
	simss_printf(out, "  %-20s %u -> %u\n", x->req.name, x->req.pkv_before,
		     x->req.pkv_after);
	if (!x->ok && switch_drop(&x->r)) {
		const struct ibp_sim_port_counters *pc = ibp_sim_port_counters(
		    s->sim, x->r.drop_node, x->r.drop_port);
		simss_printf(out,
			     "  %s port %u: PortRcvConstraintErrors %llu, "
			     "PortXmitConstraintErrors %llu\n",
			     ibp_fabric_node_desc(s->f, x->r.drop_node),
			     x->r.drop_port,
			     (unsigned long long)pc->rcv_constraint_errors,
			     (unsigned long long)pc->xmit_constraint_errors);
	}
	simss_printf(out,
		     "SM traps received: %lu -> %lu (257 Bad P_Key: %lu, 259 "
		     "switch port: %lu)\n",
		     traps_before, ibp_sm_trap_count(s->sm, 0),
		     ibp_sm_trap_count(s->sm, 257),
		     ibp_sm_trap_count(s->sm, 259));
}

static void name_side(const ibp_sim_session *s, struct side *x)
{
	char buf[sizeof(x->name)];
	const char *nm =
	    ibp_fabric_port_name(s->f, x->n, x->p, buf, sizeof(buf));
	if (x->vf)
		snprintf(x->name, sizeof(x->name), "VF %u of %s", x->vf, nm);
	else
		snprintf(x->name, sizeof(x->name), "%s", nm);
}

/* Both ports resolved and named. */
static int resolve(const ibp_sim_session *s, const char *src, const char *dst,
		   struct run *x, ibp_error *err)
{
	int rc = simss_endpoint(s, src, &x->req.n, &x->req.p, &x->req.vf, err);
	if (rc == IBP_OK)
		rc = simss_endpoint(s, dst, &x->resp.n, &x->resp.p, &x->resp.vf,
				    err);
	if (rc != IBP_OK)
		return rc;
	name_side(s, &x->req);
	name_side(s, &x->resp);
	return IBP_OK;
}

int ibp_sim_session_pingpong(ibp_sim_session *s, const char *src,
			     const char *dst,
			     const struct ibp_sim_pingpong_options *o,
			     FILE *out, struct ibp_sim_pingpong_result *res,
			     ibp_error *err)
{
	struct ibp_sim_pingpong_options oo; /* NULL o: the defaults */
	sim_pingpong_options_defaults(&oo);
	if (ibp_options_take(&oo, o, &sim_pingpong_options_layout, err))
		return IBP_EINVAL;
	o = &oo;
	if (oo.iters == 0)
		oo.iters = 1;
	struct run x = {.o = &oo, .pkey_index = o->pkey_index};
	int rc = resolve(s, src, dst, &x, err);
	if (rc != IBP_OK)
		return rc;
	struct ibp_sim_pingpong_result rr = {.verdict = IBP_SIM_DELIVERED};
	uint16_t key =
	    simss_key_at(s, x.req.n, x.req.p, x.req.vf, o->pkey_index);
	simss_printf(out, "pingpong %s -> %s (RC, %u iterations of %u bytes)\n",
		     x.req.name, x.resp.name, oo.iters, oo.size);
	if (!ibp_pkey_is_valid(key)) {
		simss_printf(out,
			     "[requester %s]\nFailed to modify QP to INIT\n"
			     "  (P_Key index %u of its table is empty: the "
			     "HCA refuses the QP)\n",
			     x.req.name, o->pkey_index);
		rr.outcome = IBP_SIM_PINGPONG_REFUSED;
		if (res)
			*res = rr;
		return IBP_OK;
	}
	rr.pkey = key;
	/* The responder's QP takes the index of its entry that matches
	 * the requester's P_Key, as a CM-based set-up would; none: 0. */
	int ridx = simss_key_match(s, x.resp.n, x.resp.p, x.resp.vf, key);
	x.rindex = ridx >= 0 ? (unsigned)ridx : 0;
	uint16_t rkey =
	    simss_key_at(s, x.resp.n, x.resp.p, x.resp.vf, x.rindex);
	simss_printf(out,
		     "  requester QP: P_Key index %u = 0x%04x; responder QP: "
		     "P_Key index %u = 0x%04x%s\n",
		     o->pkey_index, key, x.rindex, rkey,
		     ridx < 0 ? " (no entry of the responder matches)" : "");

	x.req.pkv_before = pkv(s, &x.req);
	x.resp.pkv_before = pkv(s, &x.resp);
	unsigned long t0 = ibp_sm_trap_count(s->sm, 0);
	exchange(s, &x);
	unsigned got = 0;
	ibp_sm_poll_traps(s->sm, &got, NULL);
	x.req.pkv_after = pkv(s, &x.req);
	x.resp.pkv_after = pkv(s, &x.resp);

	simss_printf(out, "\n[responder %s, LID %u: ibv_rc_pingpong]\n",
		     x.resp.name,
		     ibp_fabric_port_lid(s->f, x.resp.n, x.resp.p));
	addr_lines(s, out, &x.resp, &x.req);
	if (x.ok)
		rr.usec_per_iter = print_completed(s, out, &x);
	else
		print_failed(s, out, &x);
	print_counters(s, out, &x, t0);
	rr.outcome =
	    x.ok ? IBP_SIM_PINGPONG_COMPLETED : IBP_SIM_PINGPONG_FAILED;
	rr.iters_done = x.done;
	rr.verdict = x.r.verdict;
	if (res)
		*res = rr;
	return IBP_OK;
}
