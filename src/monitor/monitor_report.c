/*
 * monitor_report.c - a sweep as text (what `ibpart monitor --format
 * text` prints) and as JSON (docs/json-schemas.md, "Monitor"; built with
 * jansson).  Names come off the wire or out of a plan: escaped by the
 * text rule (util/escape.h) and the JSON one (util/json_text.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/sys/escape.h"
#include "monitor/monitor_priv.h"
#include "util/json_text.h"
#include "monitor/monitor_lib.h"

void ibp_monitor_sweep_print(const ibp_monitor_sweep *s, FILE *out)
{
	if (!s->full_member)
		fprintf(out,
			"WARNING the monitoring port 0x%016" PRIx64
			" is not a full member of the default partition "
			"(0xffff): PMAs of limited members refuse its GMPs\n",
			s->local_port_guid);
	for (size_t i = 0; i < s->nports; i++) {
		const struct ibp_monitor_port *q = &s->ports[i];
		bool any = (!q->pma_read && !q->pma_skipped) || !q->smp_read;
		for (int c = 0; c < IBP_MON_NCOUNTERS; c++)
			any = any || q->total[c] || q->saturated[c];
		if (!any)
			continue;
		/* descriptions come off the wire: escaped (util/escape) */
		fprintf(out, "PORT 0x%016" PRIx64 " port %u \"", q->node_guid,
			q->port);
		ibp_escape_write(out, q->desc, strlen(q->desc));
		fputs("\" facing \"", out);
		ibp_escape_write(out, q->facing_desc, strlen(q->facing_desc));
		fputc('"', out);
		if (q->pma_skipped)
			fputs(" pma=no-default-partition", out);
		else if (!q->pma_read)
			fputs(" pma=unread", out);
		if (!q->smp_read)
			fputs(" portinfo=unread", out);
		for (int c = 0; c < IBP_MON_NCOUNTERS; c++)
			if (q->total[c] || q->saturated[c])
				fprintf(out, " %s=%" PRIu64 "%s",
					ibp_monitor_counter_name(
					    (ibp_monitor_counter)c),
					q->total[c],
					q->saturated[c] ? "(saturated)" : "");
		fputc('\n', out);
	}
	for (size_t i = 0; i < s->ntenants; i++) {
		const struct ibp_monitor_tenant *t = &s->tenants[i];
		fputs("TENANT \"", out);
		ibp_escape_write(out, t->name, strlen(t->name));
		fprintf(out,
			"\" pkey 0x%04x ports %zu from %" PRIu64
			" toward %" PRIu64 " pkey_violations %" PRIu64
			" bad_pkey_traps from %" PRIu64 " toward %" PRIu64 "\n",
			t->pkey, t->ports, t->from, t->toward,
			t->pkey_violations, t->traps_from, t->traps_toward);
	}
	fprintf(out,
		"swept %zu ports (%zu unread, %zu SMPs only), %lu GMPs and %lu "
		"SMPs in %.1f "
		"ms%s\n",
		s->nports, s->unread, s->skipped, s->gmps, s->smps,
		s->elapsed_ms, s->reset_ports ? ", counters cleared" : "");
}

static json_t *guid_str(uint64_t g)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%016" PRIx64, g);
	return json_string(b);
}

json_t *monitor_sweep_json_obj(const ibp_monitor_sweep *s)
{
	json_t *root = json_object();
	json_t *ports = json_array();
	json_t *tenants = json_array();
	if (!root || !ports || !tenants) {
		json_decref(root);
		json_decref(ports);
		json_decref(tenants);
		return NULL;
	}
	json_object_set_new(root, "local_port_guid",
			    guid_str(s->local_port_guid));
	json_object_set_new(root, "full_member", json_boolean(s->full_member));
	json_object_set_new(root, "ports", ports);
	json_object_set_new(root, "tenants", tenants);
	for (size_t i = 0; i < s->nports; i++) {
		const struct ibp_monitor_port *q = &s->ports[i];
		json_t *o = json_object();
		json_object_set_new(o, "guid", guid_str(q->node_guid));
		json_object_set_new(o, "port", json_integer(q->port));
		json_object_set_new(o, "switch", json_boolean(q->is_switch));
		json_text_set(o, "desc", q->desc);
		json_object_set_new(o, "lid", json_integer(q->lid));
		json_object_set_new(o, "facing_port_guid",
				    guid_str(q->facing_port_guid));
		json_text_set(o, "facing_desc", q->facing_desc);
		json_object_set_new(o, "pma_read", json_boolean(q->pma_read));
		json_object_set_new(o, "pma_skipped",
				    json_boolean(q->pma_skipped));
		json_object_set_new(o, "pma_64bit", json_boolean(q->pma_64bit));
		json_object_set_new(o, "portinfo_read",
				    json_boolean(q->smp_read));
		json_t *cs = json_object();
		for (int c = 0; c < IBP_MON_NCOUNTERS; c++) {
			json_t *v = json_object();
			json_object_set_new(
			    v, "raw", json_integer((json_int_t)q->raw[c]));
			json_object_set_new(
			    v, "total", json_integer((json_int_t)q->total[c]));
			json_object_set_new(v, "saturated",
					    json_boolean(q->saturated[c]));
			json_object_set_new(
			    cs,
			    ibp_monitor_counter_name((ibp_monitor_counter)c),
			    v);
		}
		json_object_set_new(o, "counters", cs);
		json_t *tn = json_array();
		for (size_t j = 0; j < q->ntenants; j++)
			json_array_append_new(
			    tn, json_text(s->tenants[q->tenants[j]].name));
		json_object_set_new(o, "tenants", tn);
		json_array_append_new(ports, o);
	}
	for (size_t i = 0; i < s->ntenants; i++) {
		const struct ibp_monitor_tenant *t = &s->tenants[i];
		json_t *o = json_object();
		json_text_set(o, "name", t->name);
		json_object_set_new(o, "pkey", json_integer(t->pkey));
		json_object_set_new(o, "ports",
				    json_integer((json_int_t)t->ports));
		json_object_set_new(o, "from",
				    json_integer((json_int_t)t->from));
		json_object_set_new(o, "toward",
				    json_integer((json_int_t)t->toward));
		json_object_set_new(
		    o, "pkey_violations",
		    json_integer((json_int_t)t->pkey_violations));
		json_object_set_new(o, "bad_pkey_traps_from",
				    json_integer((json_int_t)t->traps_from));
		json_object_set_new(o, "bad_pkey_traps_toward",
				    json_integer((json_int_t)t->traps_toward));
		json_array_append_new(tenants, o);
	}
	json_object_set_new(root, "unread",
			    json_integer((json_int_t)s->unread));
	json_object_set_new(root, "smp_only",
			    json_integer((json_int_t)s->skipped));
	json_object_set_new(root, "gmps", json_integer((json_int_t)s->gmps));
	json_object_set_new(root, "smps", json_integer((json_int_t)s->smps));
	json_object_set_new(root, "elapsed_ms", json_real(s->elapsed_ms));
	json_t *tp = json_array();
	for (size_t i = 0; i < s->ntrap_ports; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "guid",
				    guid_str(s->trap_ports[i].node_guid));
		json_object_set_new(o, "port",
				    json_integer(s->trap_ports[i].port));
		json_object_set_new(
		    o, "total",
		    json_integer((json_int_t)s->trap_ports[i].total));
		json_array_append_new(tp, o);
	}
	json_object_set_new(root, "trap_ports", tp);
	json_object_set_new(root, "bad_pkey_traps",
			    json_integer((json_int_t)s->traps));
	json_object_set_new(root, "bad_pkey_traps_unplaced",
			    json_integer((json_int_t)s->traps_unplaced));
	json_object_set_new(root, "opensm_log_malformed",
			    json_integer((json_int_t)s->log_malformed));
	json_object_set_new(root, "reset_ports",
			    json_integer((json_int_t)s->reset_ports));
	return root;
}

char *ibp_monitor_sweep_json(const ibp_monitor_sweep *s)
{
	json_t *root = monitor_sweep_json_obj(s);
	char *out = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
	json_decref(root);
	return out;
}
