/*
 * sim_session.c - a simulated fabric brought up for `ibpart sim` and
 * `ibpart demo` (see sim_session.h), and the seed's commands replayed on
 * it.  Everything the commands learn about the fabric they learn the way
 * the real tools do: smpquery through SMPs to a LID, pingpong and the
 * probe matrix through the data plane (ibp_sim_send), the SM's view of
 * traps through the transport.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/mad.h"
#include "cli.h"
#include "ibpart/pkey.h"
#include "ibpart/transport_sim.h"
#include "sim_session.h"

int sim_session_port(struct sim_session *s, const char *spec, size_t *node,
		     unsigned *port)
{
	ibp_error err;
	if (ibp_fabric_resolve_port(s->f, spec, node, port, &err) != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_USAGE;
	}
	if (!ibp_fabric_is_end_port(s->f, *node, *port)) {
		fprintf(stderr, "ibpart: '%s' is not an end port\n", spec);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static int push(struct sim_session *s, FILE *log)
{
	ibp_error err;
	ibp_error_clear(&err);
	ibp_sm_report_free(&s->rep);
	int rc = ibp_sm_push(s->sm, s->want, &s->rep, &err);
	if (log)
		ibp_sm_report_print(&s->rep, log);
	if (rc != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return CLI_EXIT_OK;
}

int sim_session_open(struct sim_session *s, const struct sim_session_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->mode = o->mode ? o->mode : "strict";
	s->enforce = o->enforce;
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	int rc = cli_load_fabric(o->topo, &fo, &s->f);
	if (rc != CLI_EXIT_OK)
		return rc;
	ibp_error err;
	if (o->sm_port) {
		if (ibp_fabric_resolve_port(s->f, o->sm_port, &s->sm_node,
					    &s->sm_port, &err) != IBP_OK) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
	} else if (ibp_fabric_default_sm_port(s->f, &s->sm_node, &s->sm_port) !=
		   IBP_OK) {
		fprintf(stderr, "ibpart: the fabric has no CA port for the "
				"SM\n");
		return CLI_EXIT_USAGE;
	}
	uint64_t smg = ibp_fabric_port_guid(s->f, s->sm_node, s->sm_port);
	if (ibp_fabric_assign_lids(s->f, smg, &err) != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_USAGE;
	}
	rc = sim_policy_tables(s->f, o->conf, s->mode, smg, o->enforce,
			       o->quiet_conf, &s->want);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (ibp_sim_new(s->f, &s->sim, &err) != IBP_OK ||
	    ibp_sim_set_sm_port(s->sim, s->sm_node, s->sm_port, &err) !=
		IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	struct ibp_transport_sim_opts to = {.drop_rate = o->mad_loss,
					    .seed = 1};
	if (ibp_transport_sim_new(s->sim, s->sm_node, s->sm_port, &to, &s->t,
				  &err) != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	struct ibp_sm_options so;
	ibp_sm_options_init(&so);
	so.enforce = o->enforce;
	if (o->mad_loss > 0)
		so.retries = 10;
	if (ibp_sm_new(s->t, &so, &s->sm, &err) != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return push(s, o->log);
}

int sim_session_repush(struct sim_session *s, ibp_part_enforce e, FILE *log)
{
	struct ibp_sm_options so;
	ibp_sm_options_init(&so);
	so.enforce = e;
	ibp_sm_set_options(s->sm, &so);
	s->enforce = e;
	return push(s, log);
}

void sim_session_close(struct sim_session *s)
{
	ibp_sm_report_free(&s->rep);
	ibp_sm_free(s->sm);
	ibp_transport_close(s->t);
	ibp_sim_free(s->sim);
	ibp_tables_free(s->want);
	ibp_fabric_free(s->f);
	memset(s, 0, sizeof(*s));
}

/* ---- smpquery pkeys ---- */

static int lid_get(struct sim_session *s, uint16_t lid, uint16_t attr,
		   uint32_t mod, uint8_t data[IBP_SMP_DATA_SIZE])
{
	static uint64_t tid = 0x5a000000;
	struct ibp_smp req, resp;
	ibp_smp_init_lid(&req, IBP_METHOD_GET, attr, mod, ++tid, 0);
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	ibp_error err;
	if (ibp_smp_encode(&req, b, sizeof(b), &err) != IBP_OK ||
	    ibp_transport_smp_lid(s->t, lid, b, r, 100, &err) != IBP_OK ||
	    ibp_smp_decode(&resp, r, sizeof(r), &err) != IBP_OK)
		return -1;
	if (resp.status != 0)
		return -1;
	memcpy(data, resp.data, IBP_SMP_DATA_SIZE);
	return 0;
}

int sim_smpquery_pkeys(struct sim_session *s, const char *addr, unsigned port,
		       FILE *out)
{
	size_t n;
	unsigned p;
	int rc = sim_session_port(s, addr, &n, &p);
	if (rc != CLI_EXIT_OK)
		return rc;
	uint16_t lid = ibp_fabric_port_lid(s->f, n, p);
	uint8_t d[IBP_SMP_DATA_SIZE];
	if (lid_get(s, lid, IBP_ATTR_NODE_INFO, 0, d) != 0) {
		fprintf(stderr,
			"ibpart sim smpquery: node info query failed\n");
		return CLI_EXIT_SYSTEM;
	}
	struct ibp_node_info ni;
	ibp_node_info_decode(&ni, d, sizeof(d), NULL);
	if (port > ni.num_ports) {
		fprintf(stderr, "ibpart sim smpquery: invalid port number\n");
		return CLI_EXIT_USAGE;
	}
	unsigned cap = ni.partition_cap;
	if (ni.node_type == IBP_NODE_SWITCH && port != 0) {
		if (lid_get(s, lid, IBP_ATTR_SWITCH_INFO, 0, d) != 0) {
			fprintf(stderr,
				"ibpart sim smpquery: switch info failed\n");
			return CLI_EXIT_SYSTEM;
		}
		struct ibp_switch_info si;
		ibp_switch_info_decode(&si, d, sizeof(d), NULL);
		cap = si.partition_enforcement_cap;
	}
	/* What infiniband-diags' smpquery prints: rows of 8 entries, the
	 * last block rounded up to a row. */
	unsigned nb = (cap + 31) / 32;
	for (unsigned i = 0; i < nb; i++) {
		if (lid_get(s, lid, IBP_ATTR_PKEY_TABLE,
			    ibp_pkey_attr_mod(i, port), d) != 0) {
			fprintf(stderr, "ibpart sim smpquery: pkey table query "
					"failed\n");
			return CLI_EXIT_SYSTEM;
		}
		uint16_t k[IBP_PKEY_BLOCK_SIZE];
		ibp_pkey_block_decode(k, d, sizeof(d), NULL);
		unsigned rows =
		    (i + 1 == nb) ? ((cap + 7 - i * 32) / 8) * 8 : 32;
		for (unsigned j = 0; j < rows; j += 8)
			fprintf(out,
				"%4u: 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x "
				"0x%04x 0x%04x 0x%04x\n",
				i * 32 + j, k[j], k[j + 1], k[j + 2], k[j + 3],
				k[j + 4], k[j + 5], k[j + 6], k[j + 7]);
	}
	fprintf(out, "%u pkeys capacity for this port\n", cap);
	return CLI_EXIT_OK;
}

/* ---- pingpong ---- */

/* The latency model (not a measurement): a one-way message costs the
 * sender's and the receiver's HCA, a cut-through delay per switch, the
 * cable per link and one serialisation at the link rate. */
#define MODEL_HCA_US	 0.25	   /* per HCA traversal (send or receive) */
#define MODEL_SWITCH_US	 0.13	   /* per switch crossed */
#define MODEL_CABLE_US	 0.005	   /* per link (about 1 m of copper) */
#define MODEL_RATE_GBPS	 400.0	   /* 4x NDR */
#define MODEL_TIMEOUT_US 67108.864 /* QP timeout 14: 4.096 us * 2^14 */
#define RC_RETRY_CNT	 7u	   /* ibv_rc_pingpong's retry_cnt */

static uint32_t qpn_calc(size_t n, unsigned p);

static uint32_t qpn_of(const ibp_fabric *f, size_t n, unsigned p)
{
	(void)f;
	return qpn_calc(n, p);
}

static uint32_t qpn_calc(size_t n, unsigned p)
{
	/* Stable per port, in the range a fresh HCA hands out. */
	return 0x48u + (uint32_t)((n * 7 + p) & 0x3ff);
}

static uint32_t psn_of(uint64_t guid)
{
	uint64_t x = guid * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 40) & 0xffffffu;
}

static void addr_lines(struct sim_session *s, FILE *out, size_t ln, unsigned lp,
		       size_t rn, unsigned rp)
{
	fprintf(
	    out,
	    "  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::\n",
	    ibp_fabric_port_lid(s->f, ln, lp), qpn_of(s->f, ln, lp),
	    psn_of(ibp_fabric_port_guid(s->f, ln, lp)));
	fprintf(
	    out,
	    "  remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::\n",
	    ibp_fabric_port_lid(s->f, rn, rp), qpn_of(s->f, rn, rp),
	    psn_of(ibp_fabric_port_guid(s->f, rn, rp)));
}

/* One RC message with its ACK; up to 1 + retry_cnt transmissions. */
static bool rc_message(struct sim_session *s, struct ibp_sim_packet *data,
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

struct port_counts {
	uint16_t pkv;
	uint64_t rcv_c, xmit_c;
};

static void snap(struct sim_session *s, size_t n, unsigned p,
		 struct port_counts *c)
{
	c->pkv = ibp_sim_port_info(s->sim, n, p)->p_key_violations;
	c->rcv_c = ibp_sim_port_counters(s->sim, n, p)->rcv_constraint_errors;
	c->xmit_c = ibp_sim_port_counters(s->sim, n, p)->xmit_constraint_errors;
}

int sim_pingpong(struct sim_session *s, const char *src, const char *dst,
		 const struct sim_pingpong_opts *o, FILE *out)
{
	size_t sn, dn;
	unsigned sp, dp;
	int rc = sim_session_port(s, src, &sn, &sp);
	if (rc == CLI_EXIT_OK)
		rc = sim_session_port(s, dst, &dn, &dp);
	if (rc != CLI_EXIT_OK)
		return rc;
	const ibp_pkey_table *st =
	    ibp_tables_get(ibp_sim_tables(s->sim), sn, sp);
	const ibp_pkey_table *dt =
	    ibp_tables_get(ibp_sim_tables(s->sim), dn, dp);
	char sname[300], dname[300];
	const char *sd =
	    ibp_fabric_port_name(s->f, sn, sp, sname, sizeof(sname));
	const char *dd =
	    ibp_fabric_port_name(s->f, dn, dp, dname, sizeof(dname));
	uint16_t key = st ? ibp_pkey_table_get(st, o->pkey_index) : 0;
	fprintf(out, "pingpong %s -> %s (RC, %u iterations of %u bytes)\n", sd,
		dd, o->iters, o->size);
	if (!ibp_pkey_is_valid(key)) {
		fprintf(out,
			"[requester %s]\nFailed to modify QP to INIT\n"
			"  (P_Key index %u of its table is empty: the "
			"HCA refuses the QP)\n",
			sd, o->pkey_index);
		return CLI_EXIT_FOUND;
	}
	/* The responder's QP takes the index of its entry that matches
	 * the requester's P_Key, as a CM-based set-up would; none: 0. */
	int ridx = dt ? ibp_pkey_table_match(dt, key) : -1;
	unsigned rindex = ridx >= 0 ? (unsigned)ridx : 0;
	uint16_t rkey = dt ? ibp_pkey_table_get(dt, rindex) : 0;
	fprintf(out,
		"  requester QP: P_Key index %u = 0x%04x; responder QP: P_Key "
		"index %u = 0x%04x%s\n",
		o->pkey_index, key, rindex, rkey,
		ridx < 0 ? " (no entry of the responder matches)" : "");

	struct port_counts sb, db, sa, da;
	snap(s, sn, sp, &sb);
	snap(s, dn, dp, &db);
	unsigned long t0 = ibp_sm_trap_count(s->sm, 0);
	struct ibp_sim_packet ping = {.src_node = sn,
				      .src_port = sp,
				      .dst_node = dn,
				      .dst_port = dp,
				      .pkey_index = (uint16_t)o->pkey_index,
				      .src_qp = qpn_of(s->f, sn, sp),
				      .dest_qp = qpn_of(s->f, dn, dp)};
	struct ibp_sim_packet pong = {.src_node = dn,
				      .src_port = dp,
				      .dst_node = sn,
				      .dst_port = sp,
				      .pkey_index = (uint16_t)rindex,
				      .src_qp = ping.dest_qp,
				      .dest_qp = ping.src_qp};
	struct ibp_sim_result r;
	unsigned tries = 0, hops = 0, done = 0;
	bool ok = true;
	for (done = 0; done < o->iters; done++) {
		if (!rc_message(s, &ping, &pong, &tries, &r) ||
		    !rc_message(s, &pong, &ping, &tries, &r)) {
			ok = false;
			break;
		}
		hops = r.hops;
	}
	unsigned got = 0;
	ibp_sm_poll_traps(s->sm, &got, NULL);
	snap(s, sn, sp, &sa);
	snap(s, dn, dp, &da);

	fprintf(out, "\n[responder %s, LID %u: ibv_rc_pingpong]\n", dd,
		ibp_fabric_port_lid(s->f, dn, dp));
	addr_lines(s, out, dn, dp, sn, sp);
	double iter_us = 0, total_us = 0;
	if (ok) {
		unsigned nsw = hops ? hops - 1 : 0;
		double one_way = 2 * MODEL_HCA_US + nsw * MODEL_SWITCH_US +
				 hops * MODEL_CABLE_US +
				 o->size * 8.0 / (MODEL_RATE_GBPS * 1e3);
		iter_us = 2 * one_way;
		total_us = iter_us * o->iters;
		long long bytes = (long long)o->size * o->iters * 2;
		for (int side = 0; side < 2; side++) {
			if (side == 1) {
				fprintf(out,
					"\n[requester %s, LID %u: "
					"ibv_rc_pingpong %s]\n",
					sd, ibp_fabric_port_lid(s->f, sn, sp),
					dd);
				addr_lines(s, out, sn, sp, dn, dp);
			}
			fprintf(out,
				"%lld bytes in %.2f seconds = %.2f "
				"Mbit/sec\n",
				bytes, total_us / 1e6, bytes * 8. / total_us);
			fprintf(out,
				"%u iters in %.2f seconds = %.2f "
				"usec/iter\n",
				o->iters, total_us / 1e6, total_us / o->iters);
		}
		fprintf(out,
			"\nlatency model (a model, not a measurement): per "
			"message 2 x %.2f us HCA + %u switch x %.2f us + %u "
			"link x %.3f us + %u B at %.0f Gb/s; usec/iter = 2 "
			"messages\n",
			MODEL_HCA_US, nsw, MODEL_SWITCH_US, hops,
			MODEL_CABLE_US, o->size, MODEL_RATE_GBPS);
	} else {
		fprintf(out, "  (no completion: every packet was dropped "
			     "before it reached a QP; ibv_rc_pingpong waits "
			     "until killed)\n");
		fprintf(out, "\n[requester %s, LID %u: ibv_rc_pingpong %s]\n",
			sd, ibp_fabric_port_lid(s->f, sn, sp), dd);
		addr_lines(s, out, sn, sp, dn, dp);
		fprintf(out,
			"Failed status transport retry counter exceeded (12) "
			"for wr_id 2\nparse WC failed 1\n");
		fprintf(out,
			"\nwhat happened: %u transmissions of iteration %u "
			"(retry_cnt %u), each %s",
			tries, done + 1, RC_RETRY_CNT,
			ibp_sim_verdict_str(r.verdict));
		if (r.verdict == IBP_SIM_DROP_SWITCH_IN ||
		    r.verdict == IBP_SIM_DROP_SWITCH_OUT)
			fprintf(out, " (%s port %u)",
				ibp_fabric_node_desc(s->f, r.drop_node),
				r.drop_port);
		fprintf(out,
			"; the requester gave up after %.0f ms (model: "
			"QP timeout 14 = %.1f ms per try)\n",
			tries * MODEL_TIMEOUT_US / 1e3, MODEL_TIMEOUT_US / 1e3);
	}
	fprintf(out, "\ncounters    P_KeyViolations  (PortInfo)\n");
	fprintf(out, "  %-20s %u -> %u\n", dd, db.pkv, da.pkv);
	fprintf(out, "  %-20s %u -> %u\n", sd, sb.pkv, sa.pkv);
	if (!ok && (r.verdict == IBP_SIM_DROP_SWITCH_IN ||
		    r.verdict == IBP_SIM_DROP_SWITCH_OUT)) {
		const struct ibp_sim_port_counters *pc =
		    ibp_sim_port_counters(s->sim, r.drop_node, r.drop_port);
		fprintf(out,
			"  %s port %u: PortRcvConstraintErrors %llu, "
			"PortXmitConstraintErrors %llu\n",
			ibp_fabric_node_desc(s->f, r.drop_node), r.drop_port,
			(unsigned long long)pc->rcv_constraint_errors,
			(unsigned long long)pc->xmit_constraint_errors);
	}
	fprintf(out,
		"SM traps received: %lu -> %lu (257 Bad P_Key: %lu, 259 "
		"switch port: %lu)\n",
		t0, ibp_sm_trap_count(s->sm, 0), ibp_sm_trap_count(s->sm, 257),
		ibp_sm_trap_count(s->sm, 259));
	return ok ? CLI_EXIT_OK : CLI_EXIT_FOUND;
}

/* ---- probe matrix ---- */

int sim_probe_matrix(struct sim_session *s, FILE *out, unsigned char **cells,
		     size_t *count)
{
	size_t cap = 16, n = 0;
	size_t *node = malloc(cap * sizeof(*node));
	unsigned *port = malloc(cap * sizeof(*port));
	if (!node || !port)
		goto nomem;
	for (size_t i = 0; i < ibp_fabric_node_count(s->f); i++) {
		if (ibp_fabric_node_type(s->f, i) == IBP_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= ibp_fabric_node_nports(s->f, i);
		     p++) {
			size_t pn;
			unsigned pp;
			if (!ibp_fabric_port_peer(s->f, i, p, &pn, &pp))
				continue;
			if (n == cap) {
				cap *= 2;
				size_t *nn = realloc(node, cap * sizeof(*nn));
				if (!nn)
					goto nomem;
				node = nn;
				unsigned *np = realloc(port, cap * sizeof(*np));
				if (!np)
					goto nomem;
				port = np;
			}
			node[n] = i;
			port[n++] = p;
		}
	}
	unsigned char *m = calloc(n * n + 1, 1);
	if (!m)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			if (i == j)
				continue;
			const ibp_pkey_table *t = ibp_tables_get(
			    ibp_sim_tables(s->sim), node[i], port[i]);
			unsigned used = t ? ibp_pkey_table_used(t) : 0;
			for (unsigned k = 0; k < used && !m[i * n + j]; k++) {
				if (!ibp_pkey_is_valid(
					ibp_pkey_table_get(t, k)))
					continue;
				struct ibp_sim_packet pk = {.src_node = node[i],
							    .src_port = port[i],
							    .dst_node = node[j],
							    .dst_port = port[j],
							    .pkey_index =
								(uint16_t)k,
							    .src_qp = 0x100,
							    .dest_qp = 0x101};
				struct ibp_sim_result r;
				ibp_sim_send(s->sim, &pk, &r, NULL);
				if (r.verdict == IBP_SIM_DELIVERED)
					m[i * n + j] = 1;
			}
		}
	ibp_sm_poll_traps(s->sm, NULL, NULL);
	char lb[300];
	fprintf(out, "|  |");
	for (size_t j = 0; j < n; j++)
		fprintf(out, " %s |",
			ibp_fabric_port_name(s->f, node[j], port[j], lb,
					     sizeof(lb)));
	fputc('\n', out);
	fprintf(out, "|---|");
	for (size_t j = 0; j < n; j++)
		fprintf(out, "---|");
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "| %s |",
			ibp_fabric_port_name(s->f, node[i], port[i], lb,
					     sizeof(lb)));
		for (size_t j = 0; j < n; j++)
			fprintf(out, " %s |",
				i == j ? "—" : (m[i * n + j] ? "✓" : "✗"));
		fputc('\n', out);
	}
	free(node);
	free(port);
	if (count)
		*count = n;
	if (cells)
		*cells = m;
	else
		free(m);
	return CLI_EXIT_OK;
nomem:
	free(node);
	free(port);
	fprintf(stderr, "ibpart: out of memory\n");
	return CLI_EXIT_SYSTEM;
}

/* ---- counters ---- */

int sim_counters(struct sim_session *s, FILE *out)
{
	ibp_sm_poll_traps(s->sm, NULL, NULL);
	fprintf(out, "%-20s %-4s %-5s %15s %15s %23s %24s\n", "node", "port",
		"LID", "P_KeyViolations", "M_KeyViolations",
		"PortRcvConstraintErrors", "PortXmitConstraintErrors");
	for (size_t n = 0; n < ibp_fabric_node_count(s->f); n++) {
		bool sw = ibp_fabric_node_type(s->f, n) == IBP_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1;
		     p <= ibp_fabric_node_nports(s->f, n); p++) {
			size_t pn;
			unsigned pp;
			if (p != 0 &&
			    !ibp_fabric_port_peer(s->f, n, p, &pn, &pp))
				continue;
			const struct ibp_sim_port_info *pi =
			    ibp_sim_port_info(s->sim, n, p);
			const struct ibp_sim_port_counters *pc =
			    ibp_sim_port_counters(s->sim, n, p);
			fprintf(out,
				"%-20s %-4u %-5u %15u %15u %23llu %24llu\n",
				ibp_fabric_node_desc(s->f, n), p,
				ibp_fabric_port_lid(s->f, n, p),
				pi->p_key_violations, pi->m_key_violations,
				(unsigned long long)pc->rcv_constraint_errors,
				(unsigned long long)pc->xmit_constraint_errors);
		}
	}
	fprintf(out,
		"SM (%s): traps received %lu (257 Bad P_Key %lu, 259 switch "
		"external port %lu); raised %lu, lost %lu\n",
		ibp_fabric_node_desc(s->f, s->sm_node),
		ibp_sm_trap_count(s->sm, 0), ibp_sm_trap_count(s->sm, 257),
		ibp_sm_trap_count(s->sm, 259), ibp_sim_traps_raised(s->sim, 0),
		ibp_sim_traps_lost(s->sim));
	return CLI_EXIT_OK;
}
