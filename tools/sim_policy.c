/*
 * sim_policy.c - the desired P_Key tables for `ibpart sim` / `ibpart
 * demo`, computed from the plan read by conf.
 *
 * STOPGAP until the partition manager (policy.h, branch opensm) lands:
 * this is the smallest reading of OpenSM 3.3.23's rules the simulator
 * needs, and it is to be replaced by a call to the policy module.
 *   opensm: per end port, every group's membership as
 *     ibp_conf_group_port_membership() computes it (the implicit
 *     0x7fff rules included), the default partition at index 0, then the
 *     groups in file order; switch leaf ports mirror their CA.
 *   strict: the same, except that the default partition holds only the
 *     ports the plan names for it (the seed's model) and switch port 0s
 *     (limited, so the SM still manages them).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/pkey.h"
#include "sim_session.h"

/* Membership of a port in the default group from the plan's own lines
 * only (no implicit members): the last line naming it wins. */
static ibp_membership strict_default(const ibp_conf_group *g, uint64_t pg,
				     uint64_t ng, ibp_node_type type,
				     uint64_t smg)
{
	ibp_membership m = IBP_MEMB_NONE;
	for (size_t i = 0; i < ibp_conf_group_partition_count(g); i++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, i);
		for (size_t k = 0; k < ibp_conf_partition_member_count(p);
		     k++) {
			const ibp_conf_member *mb =
			    ibp_conf_partition_member(p, k);
			bool hit = false;
			switch (mb->kind) {
			case IBP_MEMBER_GUID:
			case IBP_MEMBER_NAME:
				hit = mb->guid != 0 &&
				      (mb->guid == pg || mb->guid == ng);
				break;
			case IBP_MEMBER_ALL:
				hit = true;
				break;
			case IBP_MEMBER_ALL_CAS:
				hit = type == IBP_NODE_CA;
				break;
			case IBP_MEMBER_ALL_SWITCHES:
				hit = type == IBP_NODE_SWITCH;
				break;
			case IBP_MEMBER_ALL_ROUTERS:
				hit = type == IBP_NODE_ROUTER;
				break;
			case IBP_MEMBER_SELF:
				hit = pg == smg;
				break;
			default:
				break;
			}
			if (hit)
				m = mb->membership;
		}
	}
	return m;
}

static int fill_port(const ibp_fabric *f, const ibp_conf *c, bool strict,
		     size_t n, unsigned p, uint64_t smg, ibp_tables *ts)
{
	uint64_t pg = ibp_fabric_port_guid(f, n, p);
	uint64_t ng = ibp_fabric_node_guid(f, n);
	ibp_node_type type = ibp_fabric_node_type(f, n);
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, n, p);
	if (!t)
		return CLI_EXIT_SYSTEM;
	/* The default partition first (OpenSM puts it at index 0). */
	size_t ng_count = ibp_conf_group_count(c);
	const ibp_conf_group *def = ibp_conf_group_find(c, 0x7fff);
	ibp_membership dm;
	if (strict) {
		dm = def ? strict_default(def, pg, ng, type, smg)
			 : IBP_MEMB_NONE;
		/* A switch's management port stays a limited member: the
		 * SM (full) reaches it, no tenant does. */
		if (dm == IBP_MEMB_NONE && type == IBP_NODE_SWITCH)
			dm = IBP_MEMB_LIMITED;
	} else if (def)
		dm = ibp_conf_group_port_membership(def, pg, type, smg, NULL);
	else
		dm = pg == smg ? IBP_MEMB_FULL : IBP_MEMB_LIMITED;
	if (dm != IBP_MEMB_NONE)
		ibp_pkey_table_insert(
		    t, ibp_pkey_make(0x7fff, dm != IBP_MEMB_LIMITED), NULL,
		    NULL);
	for (size_t i = 0; i < ng_count; i++) {
		const ibp_conf_group *g = ibp_conf_group_at(c, i);
		uint16_t base = ibp_conf_group_pkey(g) & 0x7fff;
		if (base == 0x7fff || base == 0)
			continue;
		ibp_membership m =
		    ibp_conf_group_port_membership(g, pg, type, smg, NULL);
		if (m == IBP_MEMB_NONE)
			continue;
		ibp_error err;
		if (ibp_pkey_table_insert(
			t, ibp_pkey_make(base, m != IBP_MEMB_LIMITED), NULL,
			&err) != IBP_OK) {
			fprintf(stderr,
				"ibpart: %s port %u: no room for P_Key 0x%04x "
				"(%s)\n",
				ibp_fabric_node_desc(f, n), p, base,
				err.message);
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

int sim_policy_tables(const ibp_fabric *f, const char *conf_path,
		      const char *mode, uint64_t smg, bool quiet,
		      ibp_tables **out)
{
	*out = NULL;
	bool strict = strcmp(mode, "strict") == 0;
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = f;
	ibp_conf *c = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	int rc = ibp_conf_parse_file(conf_path, &co, &c, d, &err);
	size_t errors = ibp_diags_count_severity(d, IBP_SEV_ERROR);
	if (!quiet || errors)
		ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	if (rc != IBP_OK) {
		cli_print_error(&err);
		return rc == IBP_EIO ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	if (errors && ibp_conf_get_dialect(c) != IBP_CONF_DIALECT_SEED) {
		fprintf(stderr, "ibpart: %s has errors; not programming it\n",
			conf_path);
		ibp_conf_free(c);
		return CLI_EXIT_USAGE;
	}
	ibp_tables *ts = ibp_tables_new(f);
	if (!ts) {
		ibp_conf_free(c);
		return CLI_EXIT_SYSTEM;
	}
	rc = CLI_EXIT_OK;
	for (size_t n = 0; n < ibp_fabric_node_count(f) && rc == 0; n++) {
		bool sw = ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
		if (sw) {
			rc = fill_port(f, c, strict, n, 0, smg, ts);
			continue;
		}
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n); p++) {
			size_t sn;
			unsigned sp;
			if (!ibp_fabric_port_peer(f, n, p, &sn, &sp))
				continue;
			rc = fill_port(f, c, strict, n, p, smg, ts);
			if (rc)
				break;
			/* leaf-port mirroring (OpenSM) */
			if (ibp_fabric_node_type(f, sn) == IBP_NODE_SWITCH &&
			    ibp_fabric_port_capacity(f, sn, sp) > 0) {
				ibp_pkey_table *ct = ibp_tables_get(ts, n, p);
				ibp_pkey_table *st = ibp_pkey_table_new(
				    ibp_fabric_port_capacity(f, sn, sp));
				if (!st) {
					rc = CLI_EXIT_SYSTEM;
					break;
				}
				for (unsigned i = 0;
				     i < ibp_pkey_table_used(ct) &&
				     i < ibp_pkey_table_capacity(st);
				     i++)
					ibp_pkey_table_set(
					    st, i, ibp_pkey_table_get(ct, i),
					    NULL);
				ibp_tables_put(ts, sn, sp, st, NULL);
			}
		}
	}
	ibp_conf_free(c);
	if (rc != CLI_EXIT_OK) {
		ibp_tables_free(ts);
		return rc;
	}
	*out = ts;
	return CLI_EXIT_OK;
}
