/*
 * policy_unplaced.c - the partition manager's record of what it could not
 * place (include/ibpart/policy.h, ibp_policy_unplaced): the P_Keys each
 * port's table drops and the end ports whose facing switch port is left
 * unenforced.  policy_place.c fills it, next to the findings it emits.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/error.h"
#include "policy/policy_internal.h"
#include "policy/policy_lib.h"

struct port_rec {
	ibp_policy_dropped pub; /* pub.dropped points into keys */
	uint16_t *keys;
	size_t capkeys;
};

struct ibp_policy_unplaced {
	struct port_rec *ports;
	size_t nports, capports;
	ibp_policy_unenforced *unenf;
	size_t nunenf, capunenf;
};

ibp_policy_unplaced *ibp_policy_unplaced_new(void)
{
	return calloc(1, sizeof(ibp_policy_unplaced));
}

void pol_unplaced_clear(ibp_policy_unplaced *u)
{
	for (size_t i = 0; i < u->nports; i++)
		free(u->ports[i].keys);
	u->nports = 0;
	u->nunenf = 0;
}

void ibp_policy_unplaced_free(ibp_policy_unplaced *u)
{
	if (!u)
		return;
	pol_unplaced_clear(u);
	free(u->ports);
	free(u->unenf);
	free(u);
}

size_t ibp_policy_unplaced_port_count(const ibp_policy_unplaced *u)
{
	return u ? u->nports : 0;
}

const ibp_policy_dropped *ibp_policy_unplaced_port(const ibp_policy_unplaced *u,
						   size_t i)
{
	return u && i < u->nports ? &u->ports[i].pub : NULL;
}

size_t ibp_policy_unplaced_unenforced_count(const ibp_policy_unplaced *u)
{
	return u ? u->nunenf : 0;
}

const ibp_policy_unenforced *
ibp_policy_unplaced_unenforced(const ibp_policy_unplaced *u, size_t i)
{
	return u && i < u->nunenf ? &u->unenf[i] : NULL;
}

/* Grow *arr (of *cap elements of size sz) to hold n + 1. */
static int grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, nc * sz);
	if (!p)
		return IBP_ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

/* A port's drops come one port at a time (pol_place_all), so the port is
 * the last record or a new one. */
int pol_unplaced_drop(ibp_policy_unplaced *u, const struct ep *e,
		      unsigned wanted, uint16_t pkey)
{
	struct port_rec *r = u->nports ? &u->ports[u->nports - 1] : NULL;
	if (!r || r->pub.node != e->node || r->pub.port != e->port) {
		if (grow((void **)&u->ports, &u->capports, u->nports,
			 sizeof(*u->ports)))
			return IBP_ENOMEM;
		r = &u->ports[u->nports++];
		memset(r, 0, sizeof(*r));
		r->pub.node = e->node;
		r->pub.port = e->port;
		r->pub.port_guid = e->guid;
		r->pub.capacity = e->cap;
		r->pub.wanted = wanted;
	}
	if (grow((void **)&r->keys, &r->capkeys, r->pub.ndropped,
		 sizeof(*r->keys)))
		return IBP_ENOMEM;
	r->keys[r->pub.ndropped++] = pkey;
	r->pub.dropped = r->keys;
	return 0;
}

int pol_unplaced_unenforced(ibp_policy_unplaced *u, const struct ep *e,
			    size_t sw, unsigned swp, unsigned entries,
			    unsigned capacity)
{
	if (grow((void **)&u->unenf, &u->capunenf, u->nunenf,
		 sizeof(*u->unenf)))
		return IBP_ENOMEM;
	u->unenf[u->nunenf++] = (ibp_policy_unenforced){
	    .node = e->node,
	    .port = e->port,
	    .port_guid = e->guid,
	    .switch_node = sw,
	    .switch_port = swp,
	    .entries = entries,
	    .capacity = capacity,
	};
	return 0;
}
