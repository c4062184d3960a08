/*
 * live_json.c - the JSON pieces the results of verify and apply share
 * (see live_json.h): one writer for a drift array, one for a port.
 */
#include <stdio.h>
#include <stdlib.h>

#include "live/live_json.h"
#include "util/json_text.h"
#include "live/live_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

const char *live_json_guid(uint64_t g, char buf[24])
{
	snprintf(buf, 24, "0x%016llx", (unsigned long long)g);
	return buf;
}

json_t *live_json_port(uint64_t port_guid, unsigned port, const char *desc,
		       const char *why)
{
	char g[24];
	json_t *o = json_pack("{s:s, s:i}", "port_guid",
			      live_json_guid(port_guid, g), "port", (int)port);
	if (o)
		json_text_set(o, "node_desc", desc);
	if (o && why && *why)
		json_object_set_new(o, "why", json_string(why));
	return o;
}

json_t *live_json_drift(const ibp_fabric *f, const ibp_drift *d,
			ibp_drift_sel sel)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!ibp_drift_item_selected(it, sel))
			continue;
		char g1[24], g2[24], w[8], h[8];
		snprintf(w, sizeof(w), "0x%04x", it->want_pkey);
		snprintf(h, sizeof(h), "0x%04x", it->have_pkey);
		json_t *o = json_pack(
		    "{s:s, s:s, s:i, s:s}", "node_guid",
		    live_json_guid(ibp_fabric_node_guid(f, it->node), g1),
		    "port_guid",
		    live_json_guid(ibp_fabric_port_guid(f, it->node, it->port),
				   g2),
		    "port", (int)it->port, "node_type",
		    ibp_node_type_str(ibp_fabric_node_type(f, it->node)));
		if (!o)
			continue;
		/* a NodeDescription that is not UTF-8 must not hide the
		 * item (json_pack refuses it: the drift vanished) */
		json_text_set(o, "node_desc",
			      ibp_fabric_node_desc(f, it->node));
		json_object_set_new(o, "kind",
				    json_string(ibp_drift_kind_str(it->kind)));
		if (it->kind == IBP_DRIFT_ENFORCEMENT) {
			json_object_set_new(o, "want",
					    json_string(ibp_part_enforce_str(
						it->want_enforce)));
			json_object_set_new(o, "have",
					    json_string(ibp_part_enforce_str(
						it->have_enforce)));
		}
		if (it->want_index >= 0) {
			json_object_set_new(o, "want", json_string(w));
			json_object_set_new(o, "want_index",
					    json_integer(it->want_index));
		}
		if (it->have_index >= 0) {
			json_object_set_new(o, "have", json_string(h));
			json_object_set_new(o, "have_index",
					    json_integer(it->have_index));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *live_json_capture(int (*fn)(const void *arg, FILE *out),
			  const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	int rc = fn(arg, mem);
	fclose(mem);
	json_t *j = NULL;
	if (rc == 0)
		j = json_loadb(buf, len, 0, NULL);
	free(buf);
	return j;
}
