/*
 * analysis_limits.c - the audit's findings about the subnet's own
 * limits, which no partition plan can fix by its memberships: end ports
 * left without a LID because the unicast LIDs ran out (`no-lid`), and
 * the multicast groups IPoIB needs against the MLIDs the switches can
 * forward (`multicast-groups`).  They are here rather than among the
 * rules of analysis_audit.c because they are about the fabric and the
 * plan's size, not about who can reach whom.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"
#include "conf/conf_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/topo.h"

/* Multicast LIDs 0xC000-0xFFFE (IBA vol. 1, 4.1.3; 0xFFFF is the
 * permissive LID). */
#define MLID_SPACE 0x3fffu

static int lidless(ibp_findings *out, const ibp_fabric *f)
{
	size_t n = ibp_fabric_lidless_count(f);
	if (!n)
		return 0;
	uint64_t *g = malloc(n * sizeof(*g));
	if (!g)
		return IBP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t node;
		unsigned port;
		ibp_fabric_lidless_port(f, i, &node, &port);
		g[i] = ibp_fabric_port_guid(f, node, port);
	}
	char msg[1024], fix[512];
	ibp_fabric_lidless_message(f, 4, msg, sizeof(msg));
	size_t sw;
	ibp_fabric_max_unicast_lid(f, &sw);
	snprintf(fix, sizeof(fix),
		 "%s%s  No partition plan gives these ports traffic.",
		 sw != SIZE_MAX
		     ? "The subnet is bigger than its switches can address: "
		       "use switches whose LinearFDBCap covers every LID the "
		       "subnet needs (--lft-cap N when the topology does not "
		       "say), or split the fabric into subnets (each its own "
		       "SM)."
		     : "The subnet is bigger than the unicast LID space "
		       "(49,151 LIDs): split the fabric into subnets (each its "
		       "own SM).",
		 ibp_fabric_lmc(f) ? "  With LMC 0 each port takes one LID."
				   : "");
	int rc = ibp_findings_add(out, "no-lid", IBP_AUDIT_HIGH, g, n, NULL, 0,
				  fix, "%s.", msg);
	free(g);
	return rc;
}

/* The broadcast groups a plan's IPoIB partitions need: one per ipoib
 * P_Key and scope (OpenSM creates the IPv4 broadcast group
 * ff1S:401b:PKEY::ffff:ffff for each), plus every mgid= line. */
size_t ibp_audit_multicast_need(const ibp_conf *c, size_t *ipoib)
{
	size_t need = 0;
	*ipoib = 0;
	for (size_t i = 0; c && i < ibp_conf_group_count(c); i++) {
		const ibp_conf_group *g = ibp_conf_group_at(c, i);
		if (!ibp_conf_group_ipoib(g))
			continue;
		(*ipoib)++;
		unsigned scopes = 0;
		for (size_t k = 0; k < ibp_conf_group_partition_count(g); k++) {
			const ibp_conf_flags *fl = ibp_conf_partition_flags(
			    ibp_conf_group_partition(g, k));
			unsigned s =
			    (unsigned)__builtin_popcount(fl->scope_mask);
			if (s > scopes)
				scopes = s;
		}
		need += scopes ? scopes : 1;
	}
	for (size_t i = 0; c && i < ibp_conf_partition_count(c); i++)
		need +=
		    ibp_conf_partition_mgid_count(ibp_conf_partition_at(c, i));
	return need;
}

int ibp_audit_multicast_groups(ibp_findings *out, const ibp_fabric *f,
			       size_t need, size_t ipoib)
{
	size_t mft_node;
	unsigned cap = ibp_fabric_multicast_cap(f, &mft_node);
	if (mft_node == SIZE_MAX)
		return 0; /* no switch: no multicast forwarding to run out of */
	if (cap > MLID_SPACE)
		cap = MLID_SPACE;
	if (!need)
		return 0;
	if (need <= cap)
		return ibp_findings_add(
		    out, "multicast-groups", IBP_AUDIT_INFO, NULL, 0, NULL, 0,
		    "Nothing to do; keep the IPoIB partitions under the "
		    "switches' MulticastFDBCap as the plan grows.",
		    "The plan needs at least %zu multicast group(s) (MLIDs: a "
		    "broadcast group for each of its %zu IPoIB partition(s) "
		    "and its mgid= lines; IPv6 and other joins add more), and "
		    "the smallest MulticastFDBCap is %u (switch %s).",
		    need, ipoib, cap, ibp_fabric_node_desc(f, mft_node));
	return ibp_findings_add(
	    out, "multicast-groups", IBP_AUDIT_HIGH, NULL, 0, NULL, 0,
	    "Drop 'ipoib' from the partitions that do not run IPoIB, merge "
	    "partitions, or use switches with a bigger MulticastFDBCap.",
	    "The plan needs at least %zu multicast groups (a broadcast group "
	    "for each of its %zu IPoIB partitions and its mgid= lines; IPv6 "
	    "and other joins add more) but the smallest MulticastFDBCap is "
	    "%u (switch %s): OpenSM cannot give the last %zu an MLID (ERR "
	    "1B19), so IPoIB does not come up in those partitions.",
	    need, ipoib, cap, ibp_fabric_node_desc(f, mft_node), need - cap);
}

int ibp_audit_subnet_limits(ibp_findings *out, const ibp_fabric *f,
			    const ibp_conf *plan)
{
	if (!out || !f)
		return IBP_EINVAL;
	int rc = lidless(out, f);
	if (rc || !plan)
		return rc;
	size_t ipoib, need = ibp_audit_multicast_need(plan, &ipoib);
	return ibp_audit_multicast_groups(out, f, need, ipoib);
}
