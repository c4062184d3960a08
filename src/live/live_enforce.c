/*
 * live_enforce.c - PortInfo partition enforcement reconciled like OpenSM
 * (see live_enforce.h).  OpenSM's partition manager checks, on every
 * sweep, the PartitionEnforcementInbound/Outbound bits of every switch
 * port facing an end port whose switch has an enforcement table, against
 * its part_enforce, and sends a PortInfo Set wherever they differ
 * (pkey_mgr_update_peer_port, osm_pkey_mgr.c) - whether or not that
 * port's P_KeyTable changes.  apply does the same on every run, verify
 * calls a difference drift, and a rollback puts back the bits a state
 * file saved.  Where the copy of an end port's table does not fit the
 * switch port (PartitionEnforcementCap), OpenSM turns enforcement off
 * there instead (ERR 0507): so do we.  And it clears any bit set on a
 * switch port facing another switch: so do we (those ports have no
 * table; the SM reads their bits where the switch implements them).
 *
 * A switch whose SwitchInfo implements neither enforcement bit (ibsim's:
 * IBA vol. 1 14.2.5.4 InboundEnforcementCap, OutboundEnforcementCap) is
 * left out: its bits read 0 whatever is written, so they would drift
 * forever (OpenSM re-sends the Set on every sweep there).
 */
#include <stdlib.h>

#include "ibpart/sys/sm.h"
#include "live/live_enforce.h"
#include "live/live_lib.h"
#include "policy/policy_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

/* The switch ports the plan left unenforced (ERR 0507), sorted for a
 * binary search; NULL with *n 0 when there are none. */
struct sw_port {
	size_t node;
	unsigned port;
};

static int cmp_sw_port(const void *a, const void *b)
{
	const struct sw_port *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->port > y->port) - (x->port < y->port);
}

static int unenforced_list(const ibp_policy_unplaced *u, struct sw_port **out,
			   size_t *n)
{
	*out = NULL;
	*n = ibp_policy_unplaced_unenforced_count(u);
	if (!*n)
		return IBP_OK;
	struct sw_port *v = malloc(*n * sizeof(*v));
	if (!v)
		return IBP_ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		const ibp_policy_unenforced *e =
		    ibp_policy_unplaced_unenforced(u, i);
		v[i] = (struct sw_port){e->switch_node, e->switch_port};
	}
	qsort(v, *n, sizeof(*v), cmp_sw_port);
	*out = v;
	return IBP_OK;
}

/* The switch ports facing another switch whose bits the SM read (no
 * table): OpenSM clears any bit set there, whatever part_enforce says
 * (osm_pkey_mgr_process).  Appended to *v (n of them so far), then *v
 * handed to *out. */
static int isl_ports(ibp_live *l, const ibp_tables *have,
		     struct live_enforce_port **v, size_t *n,
		     struct live_enforce_port **out, ibp_error *err)
{
	const ibp_fabric *f = ibp_tables_fabric(have);
	size_t cap = *n;
	for (size_t node = 0; node < ibp_fabric_node_count(f); node++) {
		bool cap_in, cap_out;
		if (ibp_fabric_node_type(f, node) != IBP_NODE_SWITCH ||
		    !ibp_sm_switch_enforcement_caps(
			ibp_live_sm(l), ibp_fabric_node_guid(f, node), &cap_in,
			&cap_out))
			continue;
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, node);
		     p++) {
			struct live_enforce_port e = {.node = node, .port = p};
			if (ibp_tables_get(have, node, p) ||
			    !ibp_tables_get_enforcement(
				have, node, p, &e.have_in, &e.have_out))
				continue;
			e.want_in = cap_in ? false : e.have_in;
			e.want_out = cap_out ? false : e.have_out;
			e.differs =
			    e.want_in != e.have_in || e.want_out != e.have_out;
			if (*n == cap) {
				size_t nc = cap ? 2 * cap : 8;
				struct live_enforce_port *nv =
				    realloc(*v, nc * sizeof(*nv));
				if (!nv) {
					free(*v);
					*v = NULL;
					return ibp_error_set(err, IBP_ENOMEM,
							     "out of memory");
				}
				*v = nv;
				cap = nc;
			}
			(*v)[(*n)++] = e;
		}
	}
	*out = *v;
	return IBP_OK;
}

int live_enforce_check(ibp_live *l, const ibp_tables *have,
		       const ibp_tables *saved,
		       const ibp_policy_unplaced *unplaced,
		       struct live_enforce_port **out, size_t *n,
		       ibp_error *err)
{
	*out = NULL;
	*n = 0;
	int mode = ibp_live_enforce(l);
	if (!saved && mode < 0)
		return IBP_OK;
	const ibp_fabric *f = ibp_tables_fabric(have);
	size_t cnt = ibp_tables_count(have), nu = 0;
	struct sw_port *unenf = NULL;
	struct live_enforce_port *v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v || unenforced_list(unplaced, &unenf, &nu)) {
		free(v);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < cnt; i++) {
		size_t node;
		unsigned port;
		ibp_tables_at(have, i, &node, &port);
		struct live_enforce_port e = {.node = node, .port = port};
		bool cap_in, cap_out;
		if (!ibp_tables_get_enforcement(have, node, port, &e.have_in,
						&e.have_out) ||
		    !ibp_sm_switch_enforcement_caps(
			ibp_live_sm(l), ibp_fabric_node_guid(f, node), &cap_in,
			&cap_out) ||
		    (!cap_in && !cap_out))
			continue;
		if (saved) {
			size_t sn;
			const ibp_fabric *sf = ibp_tables_fabric(saved);
			if (ibp_fabric_find_node_guid(
				sf, ibp_fabric_node_guid(f, node), &sn) ||
			    !ibp_tables_get_enforcement(
				saved, sn, port, &e.want_in, &e.want_out))
				continue;
		} else {
			struct sw_port key = {node, port};
			bool off = nu && bsearch(&key, unenf, nu,
						 sizeof(*unenf), cmp_sw_port);
			ibp_part_enforce_bits(off ? IBP_ENFORCE_OFF
						  : (ibp_part_enforce)mode,
					      &e.want_in, &e.want_out);
		}
		/* a direction the switch cannot enforce reads as it is */
		if (!cap_in)
			e.want_in = e.have_in;
		if (!cap_out)
			e.want_out = e.have_out;
		e.differs = e.want_in != e.have_in || e.want_out != e.have_out;
		v[(*n)++] = e;
	}
	free(unenf);
	if (!saved)
		return isl_ports(l, have, &v, n, out, err);
	*out = v;
	return IBP_OK;
}
