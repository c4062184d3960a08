/*
 * service_ports.c - UFM's GET /resources/ports?sys_type=Computer from the
 * service's topology (docs/ufm-api.md 2.12): one object per CA port with
 * the eight fields NICo requires (guid, name, systemID, lid, dname,
 * system_name, physical_state, logical_state).  The states are what the
 * topology file says (a linked port: "Link Up", "Active"), not read
 * live.  Without a topology the list is empty.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ibpart/topo.h"
#include "service/service_internal.h"

static json_t *port_obj(const ibp_fabric *f, size_t n, unsigned p)
{
	char guid[17], sys[17], name[24], dname[8];
	uint64_t pg = ibp_fabric_port_guid(f, n, p);
	snprintf(guid, sizeof(guid), "%016" PRIx64, pg);
	snprintf(sys, sizeof(sys), "%016" PRIx64, ibp_fabric_node_guid(f, n));
	snprintf(name, sizeof(name), "%s_%u", guid, p);
	snprintf(dname, sizeof(dname), "%u", p);
	size_t pn;
	unsigned pp;
	bool up = ibp_fabric_port_peer(f, n, p, &pn, &pp);
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:s}", "guid",
			 guid, "name", name, "systemID", sys, "lid",
			 (int)ibp_fabric_port_lid(f, n, p), "dname", dname,
			 "system_name", ibp_fabric_node_desc(f, n),
			 "physical_state", up ? "Link Up" : "Down",
			 "logical_state", up ? "Active" : "Down");
}

int ibp_service_ports_json(ibp_service *s, char **json, ibp_error *err)
{
	*json = NULL;
	json_t *a = json_array();
	if (s->topology_path) {
		ibp_fabric *f = NULL;
		int rc = ibp_fabric_load(s->topology_path, NULL, &f, NULL);
		if (rc)
			ibp_error_set(err, rc, "%s: cannot load the topology",
				      s->topology_path);
		/* the LIDs OpenSM gives from the SM port (the first CA's,
		 * unless the topology names the initiator) */
		if (!rc)
			rc = ibp_fabric_assign_lids(
			    f, ibp_fabric_initiator_port_guid(f), err);
		if (rc) {
			ibp_fabric_free(f);
			json_decref(a);
			return rc;
		}
		for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
			if (ibp_fabric_node_type(f, n) != IBP_NODE_CA)
				continue;
			for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n);
			     p++)
				if (ibp_fabric_port_guid(f, n, p))
					json_array_append_new(
					    a, port_obj(f, n, p));
		}
		ibp_fabric_free(f);
	}
	return svc_json_take(a, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}
