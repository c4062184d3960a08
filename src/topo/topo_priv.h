/*
 * topo_priv.h - the inside of the fabric model (include/ibpart/topo.h),
 * shared by the files that implement it: topo_model.c (nodes, ports,
 * look-ups), topo_reader.c (ibnetdiscover/ibsim reader), topo_lids.c
 * (LID assignment) and topo_writer.c (ibnetdiscover writer).
 *
 * Nodes live in one array in file order; each node owns nports + 1 port
 * slots (slot 0 is a switch's management port and unused on a CA) in one
 * flat port array.  Look-ups go through open-addressing hash tables so
 * that 48,000-port fabrics load and answer in O(1) per query.
 */
#ifndef IBPART_TOPO_PRIV_H
#define IBPART_TOPO_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/hash_seed.h"

#define TOPO_NONE    UINT32_MAX	      /* no node */
#define TOPO_DUP     (UINT32_MAX - 1) /* several nodes share a key */
#define TOPO_MAX_LID 0xBFFFu	      /* last unicast LID (IBA 4.1.3) */

/* Open-addressing hash: 64-bit key -> 32-bit value, linear probing. */
struct topo_map64 {
	uint64_t *keys;
	uint32_t *vals; /* TOPO_NONE = empty slot */
	size_t cap, n;	/* cap is a power of two (or 0) */
	uint64_t seed;	/* util/hash_seed.h: drawn when first grown */
};

/* Open-addressing hash: string (owned by someone else) -> node index.
 * Each slot keeps 32 bits of its key's hash: a probe compares strings
 * only when they match (node names share long prefixes, "S-e41d2d04..."),
 * and growing never hashes a string again. */
struct topo_strslot {
	const char *key;
	uint32_t val; /* TOPO_NONE = empty slot */
	uint32_t hash;
};
struct topo_mapstr {
	struct topo_strslot *slots; /* one cache line read per probe */
	size_t cap, n;
	uint64_t seed; /* util/hash_seed.h: drawn when first grown */
};

struct topo_port {
	uint64_t guid;	    /* 0 = derive (ibsim's rule) */
	uint32_t peer_node; /* TOPO_NONE when not linked */
	uint8_t peer_port;
	uint16_t lid; /* 0 before assignment */
	bool lidless; /* reached, but the subnet's LIDs ran out */
	/* what the port itself reports (PortInfo, discovery or a file's
	 * comments), apart from `lid` above, which is OpenSM's assignment
	 * as ibpart predicts it; 0 = not known */
	uint16_t pi_lid;
	uint8_t pi_lmc;
	uint8_t width_active;	  /* LinkWidthActive */
	uint8_t speed_active;	  /* LinkSpeedActive */
	uint8_t speed_ext_active; /* LinkSpeedExtActive */
};

struct topo_node {
	ibp_node_type type;
	unsigned nports;
	uint64_t guid;
	uint64_t sysimg_guid; /* 0 = the node GUID */
	unsigned partition_cap;
	unsigned enforcement_cap;
	unsigned linear_fdb_cap, multicast_fdb_cap; /* switches; 0: opts' */
	uint32_t vendid, devid;
	char *desc;	  /* as given (or the node-name-map's), never NULL */
	char *id;	  /* the file's node id, never NULL */
	size_t port_base; /* index of slot 0 in the port array */
	/* id and desc live in the fabric's string arena (the reader's
	 * nodes), not in a malloc of their own: never freed alone */
	bool id_kept, desc_kept;
};

/* The fabric's string arena: blocks of node ids and descriptions, freed
 * with the fabric (a 48,000-port topology has 100,000 of them). */
struct topo_strs {
	struct topo_strs *next;
	size_t used, cap;
	char data[];
};

struct ibp_fabric {
	ibp_fabric_options opts;
	struct topo_node *nodes;
	size_t nnodes, cap_nodes;
	struct topo_port *ports;
	size_t nports, cap_ports;

	struct topo_map64 by_node_guid; /* node GUID -> node */
	struct topo_mapstr by_desc;	/* description -> node (or DUP) */
	struct topo_mapstr by_id;	/* file id -> node (or DUP) */
	/* port GUID -> port key (node << 8 | port); built lazily because
	 * the builder sets explicit GUIDs after adding a node. */
	struct topo_map64 by_port_guid;
	bool port_index_dirty;
	bool port_guid_dups; /* set when the last rebuild saw duplicates */

	/* LID -> port key, TOPO_NONE when unassigned; NULL until assigned. */
	uint32_t *by_lid;
	bool lids_assigned;
	/* reached end ports past the last usable LID (port keys, in LID
	 * order), and the LIDs all reached end ports need */
	uint32_t *lidless;
	size_t nlidless, lids_needed;

	/* The port that ran the discovery ("# Initiated from node N port P"
	 * in ibnetdiscover output, or ibpart's own discovery); 0: unknown. */
	uint64_t initiator_port_guid;

	struct topo_strs *strs; /* the nodes' kept ids and descriptions */
};

static inline uint32_t topo_port_key(size_t node, unsigned port)
{
	return (uint32_t)(node << 8 | (port & 0xff));
}

static inline struct topo_port *topo_port_at(const ibp_fabric *f, size_t n,
					     unsigned port)
{
	return &f->ports[f->nodes[n].port_base + port];
}

static inline bool topo_port_exists(const ibp_fabric *f, size_t n,
				    unsigned port)
{
	if (!f || n >= f->nnodes || port > f->nodes[n].nports)
		return false;
	return port > 0 || f->nodes[n].type == IBP_NODE_SWITCH;
}

/* Hash tables (topo_model.c). */
void topo_map64_free(struct topo_map64 *m);
int topo_map64_put(struct topo_map64 *m, uint64_t key, uint32_t val,
		   uint32_t *old);
uint32_t topo_map64_get(const struct topo_map64 *m, uint64_t key);
/* Start fetching the slot where key's look-up begins (a loop over many
 * keys calls it some keys ahead: the cache misses overlap).  Inlined: a
 * function that only prefetches is "pure" to GCC, and its calls can be
 * dropped. */
static inline __attribute__((always_inline)) void
topo_map64_prefetch(const struct topo_map64 *m, uint64_t key)
{
	if (m->cap) {
		size_t j = hash_mix(key ^ m->seed) & (m->cap - 1);
		__builtin_prefetch(&m->vals[j], 1);
		__builtin_prefetch(&m->keys[j], 1);
	}
}
/* Room for n keys without growing; IBP_ENOMEM. */
int topo_map64_reserve(struct topo_map64 *m, size_t n);
void topo_mapstr_free(struct topo_mapstr *m);
int topo_mapstr_put(struct topo_mapstr *m, const char *key, uint32_t val);
uint32_t topo_mapstr_get(const struct topo_mapstr *m, const char *key);

/* Room for nodes nodes and ports port slots (nports + 1 per node) and
 * their look-ups, so that adding them moves nothing: a reader that
 * knows its sizes allocates once.  IBP_ENOMEM. */
int topo_reserve(ibp_fabric *f, size_t nodes, size_t ports);

/* ibp_fabric_add_node() with the file's node id (NULL: "S-<guid>" etc.);
 * IBP_EINVAL when the id or the node GUID is taken. */
int topo_add_node(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
		  unsigned nports, const char *desc, const char *id,
		  size_t *node_out, ibp_error *err);
/* The reader's topo_add_node(): room reserved (topo_reserve), the type,
 * port count and GUID valid and the node GUID and id new (the reader
 * checked them); id and desc (NULL or "": the id) copied into the
 * fabric's string arena.  The description and id look-ups are not
 * updated: topo_index_names() builds them once all nodes are in.
 * IBP_ENOMEM. */
int topo_add_node_read(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
		       unsigned nports, const char *desc, const char *id,
		       size_t *node_out);
/* Build the description and id look-ups of all nodes at once. IBP_ENOMEM */
int topo_index_names(ibp_fabric *f);
/* Set the file's id of a node (the reader); IBP_EINVAL when another node
 * has it already. */
int topo_set_node_id(ibp_fabric *f, size_t n, const char *id);
/* Replace a node's description (node-name-map). */
int topo_set_node_desc(ibp_fabric *f, size_t n, const char *desc);
/* Rebuild the port GUID index if needed (const: the index is a cache). */
void topo_port_index(const ibp_fabric *f);

/* ibnetdiscover's link rate "4xSDR" (n bytes at p, not NUL-terminated)
 * into link's width and speed fields; false, link untouched, when it is
 * not one (topo_model.c). */
bool topo_link_rate_parse(const char *p, size_t n, ibp_port_link *link);

/* The caller's fabric options over the defaults, as far as their version
 * goes (util/options_version.h); NULL o: the defaults.  IBP_EINVAL, with
 * err saying why, for a version this library does not read
 * (topo_model.c). */
int topo_fabric_options_take(ibp_fabric_options *own,
			     const ibp_fabric_options *o, ibp_error *err);

#endif
