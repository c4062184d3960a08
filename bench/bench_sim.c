/*
 * bench_sim.c - how fast the simulated fabric is, each figure beside a
 * baseline measured in the same run:
 *  1. the data plane's per-packet P_Key check (ibp_pkey_table_match, a
 *     hash: O(1)) against a linear scan of the same table by the IBA rule,
 *     at 1, 32 and 128 entries, in packets/s on one core;
 *  2. whole packets through ibp_sim_send (route, switch enforcement, the
 *     receive check) on a generated fat tree;
 *  3. SMPs and wall time for the SM to discover a 48,000-host-port fabric
 *     (a three-level fat tree built here, see build_clos)
 *     and push its tables from empty (ibsim's initial 0xffff) tables,
 *     every MAD encoded, carried and decoded;
 *  4. what learning the alias GUIDs (SR-IOV VFs) adds to a sweep there,
 *     as ibpartd does at every sweep: every port's GUIDInfo over SMPs
 *     (PortInfo GUIDCap, then each block), then the same with the SA's
 *     GUIDInfoRecords of every port and block (the simulator's SA).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/sim.h"
#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport_sim.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/alias_map.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* The baseline: what a naive port would do per packet. */
static int linear_match(const uint16_t *e, unsigned n, uint16_t k)
{
	for (unsigned i = 0; i < n; i++)
		if (ibp_pkey_match(e[i], k))
			return (int)i;
	return -1;
}

#define NPKT (1u << 12)

static void bench_check(unsigned entries)
{
	ibp_pkey_table *t = ibp_pkey_table_new(128);
	uint16_t e[128] = {0};
	for (unsigned i = 0; i < entries; i++) {
		e[i] = (uint16_t)(0x8000 | (0x100 + i * 7));
		ibp_pkey_table_set(t, i, e[i], NULL);
	}
	/* Packets: half hit a random entry, half miss. */
	static uint16_t pk[NPKT];
	for (unsigned i = 0; i < NPKT; i++)
		pk[i] = (rnd() & 1)
			    ? e[rnd() % entries]
			    : (uint16_t)(0x8000 | (0x4000 + rnd() % 999));
	const unsigned rounds = 2000;
	volatile long sink = 0;
	double t0 = now();
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < NPKT; i++)
			sink += ibp_pkey_table_match(t, pk[i]);
	double th = now() - t0;
	t0 = now();
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < NPKT; i++)
			sink += linear_match(e, entries, pk[i]);
	double tl = now() - t0;
	double n = (double)rounds * NPKT;
	printf("  %3u entries: hash %7.1f Mpkt/s   linear scan %7.1f Mpkt/s"
	       "   ratio %5.1fx\n",
	       entries, n / th / 1e6, n / tl / 1e6, tl / th);
	(void)sink;
	ibp_pkey_table_free(t);
}

static int tenant_of(const char *desc)
{
	/* "t0003-node-0012" -> 3; others 0 */
	if (desc[0] == 't' && desc[1] >= '0' && desc[1] <= '9')
		return atoi(desc + 1);
	return 0;
}

/* The plan: management hosts full in 0x7fff, everyone else limited;
 * tenant nodes full in their tenant's P_Key, storage limited in every
 * tenant; the leaf port facing a CA mirrors it. */
static ibp_tables *plan(const ibp_fabric *f, unsigned tenants,
			unsigned ptables_cap)
{
	ibp_tables *ts = ibp_tables_new(f);
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
		if (ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH) {
			ibp_pkey_table *t = ibp_tables_get_or_create(ts, n, 0);
			ibp_pkey_table_set(t, 0, 0x7fff, NULL);
			continue;
		}
		const char *d = ibp_fabric_node_desc(f, n);
		ibp_pkey_table *t = ibp_tables_get_or_create(ts, n, 1);
		bool mgmt = strncmp(d, "mgmt", 4) == 0;
		ibp_pkey_table_set(t, 0, mgmt ? 0xffff : 0x7fff, NULL);
		if (strncmp(d, "storage", 7) == 0) {
			for (unsigned k = 1; k <= tenants && k < ptables_cap;
			     k++)
				ibp_pkey_table_set(t, k, (uint16_t)k, NULL);
		} else if (tenant_of(d)) {
			ibp_pkey_table_set(
			    t, 1, (uint16_t)(0x8000 | tenant_of(d)), NULL);
		}
		size_t sn;
		unsigned sp;
		if (ibp_fabric_port_peer(f, n, 1, &sn, &sp)) {
			ibp_pkey_table *m = ibp_pkey_table_copy(t);
			ibp_tables_put(ts, sn, sp, m, NULL);
		}
	}
	return ts;
}

/* A three-level fat tree (folded Clos) of `cas` hosts: pods of 18 leaf
 * switches (36 ports: 18 hosts down, 18 up) and 18 aggregation switches;
 * aggregation switch j of every pod up to the 18 core switches of group
 * j (director-class, one port per pod).  Any two hosts are at most 6
 * links apart, so the SM reaches everything by directed route, as in a
 * real fabric of this size.  (fabric_gen's two-level tree chains its
 * spines past a few hundred hosts: too deep for 63-hop DR paths.) */
static ibp_fabric *build_clos(unsigned cas, unsigned *nsw)
{
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = ibp_fabric_new(&o);
	const unsigned H = 18, L = 18, A = 18, C = 18;
	unsigned pods = (cas + H * L - 1) / (H * L);
	size_t *agg = malloc(sizeof(*agg) * pods * A);
	size_t *core = malloc(sizeof(*core) * A * C);
	uint64_t swg = 0xe41d2d0400000000ull, cag = 0xe41d2d0300000000ull;
	char d[64];
	unsigned host = 0;
	*nsw = 0;
	for (unsigned j = 0; j < A; j++)
		for (unsigned c = 0; c < C; c++) {
			snprintf(d, sizeof(d), "core-%02u-%02u", j, c);
			ibp_fabric_add_node(f, IBP_NODE_SWITCH, swg++, pods, d,
					    &core[j * C + c], NULL);
			(*nsw)++;
		}
	for (unsigned p = 0; p < pods; p++) {
		for (unsigned j = 0; j < A; j++) {
			snprintf(d, sizeof(d), "agg-%03u-%02u", p, j);
			ibp_fabric_add_node(f, IBP_NODE_SWITCH, swg++, L + C, d,
					    &agg[p * A + j], NULL);
			(*nsw)++;
			for (unsigned c = 0; c < C; c++)
				ibp_fabric_link(f, agg[p * A + j], L + 1 + c,
						core[j * C + c], p + 1, NULL);
		}
		for (unsigned l = 0; l < L && host < cas; l++) {
			size_t leaf;
			snprintf(d, sizeof(d), "leaf-%03u-%02u", p, l);
			ibp_fabric_add_node(f, IBP_NODE_SWITCH, swg++, H + A, d,
					    &leaf, NULL);
			(*nsw)++;
			for (unsigned j = 0; j < A; j++)
				ibp_fabric_link(f, leaf, H + 1 + j,
						agg[p * A + j], l + 1, NULL);
			for (unsigned h = 0; h < H && host < cas; h++) {
				size_t ca;
				unsigned t = host < 2 ? 0 : 1 + (host % 100);
				if (host < 2)
					snprintf(d, sizeof(d), "mgmt-%04u",
						 host + 1);
				else
					snprintf(d, sizeof(d),
						 "t%04u-node-%05u", t, host);
				ibp_fabric_add_node(f, IBP_NODE_CA, cag, 1, d,
						    &ca, NULL);
				cag += 2;
				ibp_fabric_link(f, ca, 1, leaf, h + 1, NULL);
				host++;
			}
		}
	}
	free(agg);
	free(core);
	return f;
}

static void bench_send(ibp_fabric *f, ibp_sim *s)
{
	/* Random CA pairs, every packet through the whole data plane. */
	size_t ncas = 0;
	size_t *cas = malloc(ibp_fabric_node_count(f) * sizeof(*cas));
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++)
		if (ibp_fabric_node_type(f, n) == IBP_NODE_CA)
			cas[ncas++] = n;
	/* Group packets by destination, as a stream to one receiver is. */
	const unsigned dests = 64, per = 4096;
	unsigned long delivered = 0, dropped = 0;
	double t0 = now();
	for (unsigned d = 0; d < dests; d++) {
		size_t dst = cas[rnd() % ncas];
		for (unsigned i = 0; i < per; i++) {
			struct ibp_sim_packet p = {.src_node =
						       cas[rnd() % ncas],
						   .src_port = 1,
						   .dst_node = dst,
						   .dst_port = 1,
						   .pkey_index = 1,
						   .dest_qp = 0x49};
			if (p.src_node == dst)
				continue;
			struct ibp_sim_result r;
			ibp_sim_send(s, &p, &r, NULL);
			if (r.verdict == IBP_SIM_DELIVERED)
				delivered++;
			else
				dropped++;
		}
		/* keep the trap queue from filling */
		struct ibp_sim_trap tr;
		while (ibp_sim_trap_pop(s, &tr) == IBP_OK)
			;
	}
	double dt = now() - t0;
	printf("  ibp_sim_send on the fabric below: %.2f Mpkt/s (%lu "
	       "delivered, %lu dropped; route + switch checks + receive "
	       "check)\n",
	       (delivered + dropped) / dt / 1e6, delivered, dropped);
	free(cas);
}

/* 4: the alias GUIDs read on the discovered fabric, by SMPs alone and
 * with the SA at sa_lid, beside the discovery's SMPs and time. */
static void bench_aliases(ibp_sm *sm, uint16_t sa_lid, unsigned long dsmps,
			  double tdisc)
{
	for (int sa = 0; sa < 2; sa++) {
		ibp_error err;
		ibp_alias_map *am = NULL;
		struct ibp_sm_alias_read r = {0};
		unsigned long before, after;
		ibp_sm_counters(sm, &before, NULL, NULL);
		double t0 = now();
		int rc = ibp_sm_read_alias_guids_sa(sm, sa ? sa_lid : 0, 0, &am,
						    &r, &err);
		double t = now() - t0;
		ibp_sm_counters(sm, &after, NULL, NULL);
		ibp_alias_map_free(am);
		if (rc) {
			fprintf(stderr, "alias GUIDs: %s\n", err.message);
			return;
		}
		printf("alias GUIDs (%s): %lu SMPs%s%zu SA queries in %.2f s "
		       "(%.0f%% of the discovery's SMPs, %.0f%% of its time)"
		       "%s\n",
		       sa ? "GUIDInfo and the SA's GUIDInfoRecords"
			  : "the ports' GUIDInfo",
		       after - before, sa ? " + " : ", ", r.sa_queries, t,
		       100.0 * (double)(after - before) / (double)dsmps,
		       100.0 * t / tdisc,
		       sa && !r.sa_answered ? " (the SA did not answer)" : "");
	}
}

int main(int argc, char **argv)
{
	/* 48,000 end ports (what a subnet's 49,151 unicast LIDs can
	 * address): hosts plus every switch's port 0. */
	unsigned ends = argc > 1 ? (unsigned)atoi(argv[1]) : 48000;
	unsigned cas = ends;
	for (;;) {
		unsigned pods = (cas + 323) / 324;
		unsigned leaves = (cas + 17) / 18;
		unsigned sw = 324 + pods * 18 + leaves;
		if (cas + sw <= ends)
			break;
		cas--;
	}
	printf("data-plane P_Key check, one core (half the packets match):\n");
	bench_check(1);
	bench_check(32);
	bench_check(128);

	ibp_error err;
	double t0 = now();
	unsigned nsw;
	ibp_fabric *f = build_clos(cas, &nsw);
	if (ibp_fabric_assign_lids(f, 0, &err) != IBP_OK) {
		fprintf(stderr, "LIDs: %s\n", err.message);
		return 1;
	}
	ibp_tables *want = plan(f, 100, 64);
	ibp_sim *s;
	ibp_sim_new(f, &s, NULL);
	size_t smn;
	unsigned smp;
	ibp_fabric_default_sm_port(f, &smn, &smp);
	ibp_transport *t;
	ibp_transport_sim_new(s, smn, smp, NULL, &t, NULL);
	double tsetup = now() - t0;
	printf("\nfabric: %u end ports = %u CA ports + %u switches (3-level "
	       "fat tree), "
	       "%zu P_KeyTables to program (CA ports, leaf ports, switch "
	       "port 0s); built in %.2f s\n",
	       cas + nsw, cas, nsw, ibp_tables_count(want), tsetup);

	struct ibp_sm_options so;
	ibp_sm_options_init(&so, IBP_SM_OPTIONS_VERSION);
	ibp_sm *sm;
	ibp_sm_new(t, &so, &sm, NULL);
	t0 = now();
	if (ibp_sm_discover(sm, &err) != IBP_OK) {
		fprintf(stderr, "discover: %s\n", err.message);
		return 1;
	}
	double tdisc = now() - t0;
	unsigned long dsmps;
	ibp_sm_counters(sm, &dsmps, NULL, NULL);
	printf("SM discovery by directed route: %lu SMPs in %.2f s (%.0f "
	       "SMPs/s), %zu nodes\n",
	       dsmps, tdisc, dsmps / tdisc,
	       ibp_fabric_node_count(ibp_sm_fabric(sm)));
	bench_aliases(sm, ibp_fabric_port_lid(f, smn, smp), dsmps, tdisc);
	struct ibp_sm_report rep;
	t0 = now();
	int rc = ibp_sm_push(sm, want, &rep, &err);
	double tpush = now() - t0;
	if (rc != IBP_OK) {
		fprintf(stderr, "push: %s\n", err.message);
		return 1;
	}
	printf("SM push from empty tables: %lu SMPs in %.2f s (%.0f SMPs/s): "
	       "%lu blocks read, %lu written, %lu confirmed, %lu "
	       "enforcement changes, %zu ports changed\n",
	       rep.smps, tpush, rep.smps / tpush, rep.blocks_read,
	       rep.blocks_written, rep.blocks_confirmed, rep.enforce_ports,
	       rep.nchanged);
	ibp_sm_report_free(&rep);
	t0 = now();
	ibp_sm_push(sm, want, &rep, &err);
	double tagain = now() - t0;
	printf("SM push again (nothing to change, baseline): %lu SMPs in "
	       "%.2f s; %lu written\n",
	       rep.smps, tagain, rep.blocks_written);
	ibp_sm_report_free(&rep);
	bench_send(f, s);

	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_sim_free(s);
	ibp_tables_free(want);
	ibp_fabric_free(f);
	return 0;
}
