/*
 * service_ports.c - UFM's GET /resources/ports[?sys_type=Computer|Switch]
 * from the service's topology (docs/ufm-api.md): one object per linked
 * or named port, CA ports ("Computer IB Port") and switch external ports
 * ("Switch IB Port").  The fields are those UFM fills that clients read:
 * NICo's eight (guid, name, systemID, lid, dname, system_name,
 * physical_state, logical_state; it joins machines on guid) and NCM's
 * (number, label, node_description, peer_node_name, peer_port_dname,
 * peer_node_description: its GUID discovery joins a host port to the
 * cabling by its peer switch and port), with UFM's other peer fields.
 * LIDs are OpenSM's, numbered from the SM's port (--sm-port, else the
 * master SM as the policy finds it): the topology the service holds
 * (service_topology.c).  The states are what the topology
 * says (a linked port: "Link Up", "Active"), not read live.  Without a
 * topology the list is empty.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "service/service_internal.h"
#include "service/service_lib.h"

/* UFM's system name: a host's name is its NodeDescription's first word
 * (Linux HCAs describe themselves "HOSTNAME mlx5_0"); a switch's the
 * whole description. */
static void system_name(const ibp_fabric *f, size_t n, char *out, size_t len)
{
	const char *d = ibp_fabric_node_desc(f, n);
	d = d ? d : "";
	size_t k = ibp_fabric_node_type(f, n) == IBP_NODE_CA ? strcspn(d, " \t")
							     : strlen(d);
	snprintf(out, len, "%.*s", (int)k, d);
}

static json_t *port_obj(const ibp_fabric *f, size_t n, unsigned p)
{
	bool sw = ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
	char guid[17], sys[17], name[24], dname[8], host[128];
	uint64_t pg =
	    sw ? ibp_fabric_node_guid(f, n) : ibp_fabric_port_guid(f, n, p);
	snprintf(guid, sizeof(guid), "%016" PRIx64, pg);
	snprintf(sys, sizeof(sys), "%016" PRIx64, ibp_fabric_node_guid(f, n));
	snprintf(name, sizeof(name), "%s_%u", guid, p);
	snprintf(dname, sizeof(dname), "%u", p);
	system_name(f, n, host, sizeof(host));
	const char *desc = ibp_fabric_node_desc(f, n);
	size_t pn;
	unsigned pp;
	bool up = ibp_fabric_port_peer(f, n, p, &pn, &pp);
	json_t *o = json_pack(
	    "{s:s, s:s, s:s, s:i, s:s, s:i, s:i, s:s, s:s, s:s, s:s, s:s, "
	    "s:s}",
	    "guid", guid, "name", name, "systemID", sys, "lid",
	    (int)ibp_fabric_port_lid(f, n, p), "dname", dname, "number", (int)p,
	    "external_number", (int)p, "label", dname, "system_name", host,
	    "node_description", desc ? desc : "", "description",
	    sw ? "Switch IB Port" : "Computer IB Port", "physical_state",
	    up ? "Link Up" : "Down", "logical_state", up ? "Active" : "Down");
	if (!o || !up)
		return o;
	bool psw = ibp_fabric_node_type(f, pn) == IBP_NODE_SWITCH;
	char pguid[17], pnode[17], ppname[24], pdname[8], phost[128];
	snprintf(pguid, sizeof(pguid), "%016" PRIx64,
		 psw ? ibp_fabric_node_guid(f, pn)
		     : ibp_fabric_port_guid(f, pn, pp));
	snprintf(pnode, sizeof(pnode), "%016" PRIx64,
		 ibp_fabric_node_guid(f, pn));
	snprintf(ppname, sizeof(ppname), "%s_%u", pguid, pp);
	snprintf(pdname, sizeof(pdname), "%u", pp);
	system_name(f, pn, phost, sizeof(phost));
	const char *pdesc = ibp_fabric_node_desc(f, pn);
	json_t *peer =
	    json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s}", "peer", ppname,
		      "peer_guid", pguid, "peer_lid",
		      (int)ibp_fabric_port_lid(f, pn, pp), "peer_node_guid",
		      pnode, "peer_node_name", phost, "peer_node_description",
		      pdesc ? pdesc : "", "peer_port_dname", pdname);
	if (!peer || json_object_update(o, peer)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(peer);
	return o;
}

int ibp_service_ports_json(ibp_service *s, char **json, ibp_error *err)
{
	return ibp_service_ports_json_of(s, NULL, json, err);
}

int ibp_service_ports_json_of(ibp_service *s, const char *sys_type, char **json,
			      ibp_error *err)
{
	*json = NULL;
	bool cas = !sys_type || !strcasecmp(sys_type, "Computer");
	bool switches = !sys_type || !strcasecmp(sys_type, "Switch");
	json_t *a = json_array();
	if (s->topology_path && (cas || switches)) {
		struct svc_topology *t = NULL;
		int rc = svc_topology_get(s, &t, err);
		if (rc) {
			json_decref(a);
			return rc;
		}
		const ibp_fabric *f = svc_topology_fabric(t);
		for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
			bool sw = ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
			if (sw ? !switches : !cas)
				continue;
			for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n);
			     p++) {
				size_t pn;
				unsigned pp;
				/* a CA port with a GUID; a switch port
				 * that is cabled */
				if (sw ? !ibp_fabric_port_peer(f, n, p, &pn,
							       &pp)
				       : !ibp_fabric_port_guid(f, n, p))
					continue;
				json_t *o = port_obj(f, n, p);
				if (!o || json_array_append_new(a, o)) {
					svc_topology_put(s, t);
					json_decref(a);
					return ibp_error_set(err, IBP_ENOMEM,
							     "out of memory");
				}
			}
		}
		svc_topology_put(s, t);
	}
	return svc_json_take(a, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}
