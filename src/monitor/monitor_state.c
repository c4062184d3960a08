/*
 * monitor_state.c - the counters made monotonic (see
 * include/ibpart/monitor.h): per port, by node GUID and port number, the
 * last raw value of each counter and the running total exposed as a
 * Prometheus counter, and the Bad P_Key traps naming it; per node, its
 * PMA's ClassPortInfo answer; where the reading of OpenSM's log
 * stands.  A hash table
 * with open addressing, grown at half full, so a sweep of 48,000 ports updates
 * in linear time.
 */
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor_priv.h"

struct entry {
	uint64_t node_guid;
	unsigned port;
	bool used;
	unsigned char pma; /* the node's entry (port NODE_ENTRY): PMA_* */
	bool seen[IBP_MON_NCOUNTERS];
	uint64_t last[IBP_MON_NCOUNTERS];
	uint64_t total[IBP_MON_NCOUNTERS];
	uint64_t traps[3]; /* enum monitor_trap_role */
};

/* The port number of a node's own entry (its ClassPortInfo answer):
 * no port has it (IBA ports are 8-bit). */
#define NODE_ENTRY 0x10000u

struct ibp_monitor_state {
	struct entry *slots;
	size_t cap, used;
	uint64_t next_tid;
	struct monitor_log_pos log;
	struct monitor_inform inform;
};

ibp_monitor_state *ibp_monitor_state_new(void)
{
	ibp_monitor_state *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	/* TIDs of the monitor: "mon" in the top bits of the low half
	 * that the MAD layer leaves to us, so they do not repeat the
	 * SM's */
	st->next_tid = 0x6d000000u;
	return st;
}

void ibp_monitor_state_free(ibp_monitor_state *st)
{
	if (!st)
		return;
	monitor_inform_end(st);
	free(st->slots);
	free(st);
}

uint64_t monitor_state_tid(ibp_monitor_state *st)
{
	st->next_tid++;
	if ((st->next_tid & 0xffffffu) == 0)
		st->next_tid = 0x6d000001u;
	return st->next_tid;
}

static size_t slot_of(uint64_t guid, unsigned port, size_t cap)
{
	uint64_t h = (guid ^ ((uint64_t)port << 56)) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20) & (cap - 1);
}

static struct entry *find(ibp_monitor_state *st, uint64_t guid, unsigned port)
{
	if (!st->cap)
		return NULL;
	for (size_t i = slot_of(guid, port, st->cap);;
	     i = (i + 1) & (st->cap - 1)) {
		struct entry *e = &st->slots[i];
		if (!e->used)
			return NULL;
		if (e->node_guid == guid && e->port == port)
			return e;
	}
}

static int grow(ibp_monitor_state *st)
{
	size_t cap = st->cap ? st->cap * 2 : 1024;
	struct entry *n = calloc(cap, sizeof(*n));
	if (!n)
		return IBP_ENOMEM;
	for (size_t k = 0; k < st->cap; k++) {
		struct entry *e = &st->slots[k];
		if (!e->used)
			continue;
		size_t i = slot_of(e->node_guid, e->port, cap);
		while (n[i].used)
			i = (i + 1) & (cap - 1);
		n[i] = *e;
	}
	free(st->slots);
	st->slots = n;
	st->cap = cap;
	return IBP_OK;
}

static struct entry *get(ibp_monitor_state *st, uint64_t guid, unsigned port)
{
	struct entry *e = find(st, guid, port);
	if (e)
		return e;
	if ((st->used + 1) * 2 > st->cap && grow(st) != IBP_OK)
		return NULL;
	size_t i = slot_of(guid, port, st->cap);
	while (st->slots[i].used)
		i = (i + 1) & (st->cap - 1);
	e = &st->slots[i];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->node_guid = guid;
	e->port = port;
	st->used++;
	return e;
}

static int by_guid_port(const void *a, const void *b)
{
	const struct ibp_monitor_trap_port *x = a, *y = b;
	if (x->node_guid != y->node_guid)
		return x->node_guid < y->node_guid ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

uint64_t monitor_counter_max(ibp_monitor_counter c, bool pma_64bit)
{
	switch (c) {
	case IBP_MON_XMIT_CONSTRAINT:
	case IBP_MON_RCV_CONSTRAINT:
		/* 16.1.3.5: 8 bits in PortCounters */
		return pma_64bit ? UINT64_MAX : 0xffu;
	default:
		return 0xffffu; /* 14.2.5.6: 16-bit PortInfo counters */
	}
}

int monitor_state_update(ibp_monitor_state *st, struct ibp_monitor_port *p,
			 ibp_error *err)
{
	struct entry *e = get(st, p->node_guid, p->port);
	if (!e)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (int c = 0; c < IBP_MON_NCOUNTERS; c++) {
		bool valid =
		    c <= IBP_MON_RCV_CONSTRAINT ? p->pma_read : p->smp_read;
		if (valid) {
			uint64_t raw = p->raw[c];
			if (!e->seen[c])
				e->total[c] = raw; /* all it counted so far */
			else if (raw >= e->last[c])
				e->total[c] += raw - e->last[c];
			else /* cleared by someone since: count anew */
				e->total[c] += raw;
			e->last[c] = raw;
			e->seen[c] = true;
			p->saturated[c] =
			    raw >= monitor_counter_max((ibp_monitor_counter)c,
						       p->pma_64bit);
		}
		p->total[c] = e->total[c];
	}
	p->traps_from = e->traps[MONITOR_TRAP_FROM];
	p->traps_toward = e->traps[MONITOR_TRAP_TOWARD];
	return IBP_OK;
}

void monitor_state_cleared(ibp_monitor_state *st, uint64_t node_guid,
			   unsigned port)
{
	struct entry *e = find(st, node_guid, port);
	if (!e)
		return;
	e->last[IBP_MON_XMIT_CONSTRAINT] = 0;
	e->last[IBP_MON_RCV_CONSTRAINT] = 0;
}

unsigned char monitor_state_pma(ibp_monitor_state *st, uint64_t node_guid)
{
	const struct entry *e = find(st, node_guid, NODE_ENTRY);
	return e ? e->pma : PMA_UNKNOWN;
}

int monitor_state_set_pma(ibp_monitor_state *st, uint64_t node_guid,
			  unsigned char kind)
{
	struct entry *e = get(st, node_guid, NODE_ENTRY);
	if (!e)
		return IBP_ENOMEM;
	e->pma = kind;
	return IBP_OK;
}

struct monitor_inform *monitor_state_inform(ibp_monitor_state *st)
{
	return &st->inform;
}

struct monitor_log_pos *monitor_state_log_pos(ibp_monitor_state *st)
{
	return &st->log;
}

int monitor_state_trap(ibp_monitor_state *st, uint64_t node_guid, unsigned port,
		       enum monitor_trap_role role)
{
	struct entry *e = get(st, node_guid, port);
	if (!e)
		return IBP_ENOMEM;
	e->traps[role]++;
	return IBP_OK;
}

int monitor_state_trap_ports(ibp_monitor_state *st, ibp_monitor_sweep *r)
{
	size_t n = 0;
	for (size_t i = 0; i < st->cap; i++)
		if (st->slots[i].used &&
		    st->slots[i].traps[MONITOR_TRAP_ISSUED])
			n++;
	r->trap_ports = calloc(n ? n : 1, sizeof(*r->trap_ports));
	if (!r->trap_ports)
		return IBP_ENOMEM;
	for (size_t i = 0; i < st->cap; i++) {
		const struct entry *e = &st->slots[i];
		if (!e->used || !e->traps[MONITOR_TRAP_ISSUED])
			continue;
		struct ibp_monitor_trap_port *t =
		    &r->trap_ports[r->ntrap_ports++];
		t->node_guid = e->node_guid;
		t->port = e->port;
		t->total = e->traps[MONITOR_TRAP_ISSUED];
	}
	qsort(r->trap_ports, r->ntrap_ports, sizeof(*r->trap_ports),
	      by_guid_port);
	return IBP_OK;
}
