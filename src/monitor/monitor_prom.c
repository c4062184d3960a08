/*
 * monitor_prom.c - a sweep in Prometheus' text exposition format (0.0.4):
 * a HELP and a TYPE line per metric family, then its samples, label
 * values escaped, no timestamps (node_exporter's textfile collector
 * refuses samples with one).  The port metrics keep the names of
 * treydock's infiniband_exporter (guid as 0x + 16 hex digits: the
 * switch's or the HCA's node GUID); the tenant ones are ibpart's.  The
 * families and labels are listed in docs/monitoring.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "monitor/monitor_priv.h"
#include "monitor/monitor_lib.h"

static void family(FILE *m, const char *name, const char *type,
		   const char *help)
{
	fprintf(m, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One port sample: name{guid="0x...",port="N"} value */
static void port_sample(FILE *m, const char *name,
			const struct ibp_monitor_port *q, uint64_t v)
{
	fprintf(m, "%s{guid=\"0x%016" PRIx64 "\",port=\"%u\"} %" PRIu64 "\n",
		name, q->node_guid, q->port, v);
}

/* The constraint error families of switch (sw) or HCA ports. */
static void constraint_families(FILE *m, const ibp_monitor_sweep *s, bool sw)
{
	static const struct {
		const char *name[2]; /* HCA, switch */
		ibp_monitor_counter c;
		const char *help;
	} fam[] = {
	    {{"infiniband_hca_port_transmit_constraint_errors_total",
	      "infiniband_switch_port_transmit_constraint_errors_total"},
	     IBP_MON_XMIT_CONSTRAINT,
	     "PortXmitConstraintErrors (PerfMgt PortCounters): packets not "
	     "transmitted for a P_Key (partition) check, monotonic"},
	    {{"infiniband_hca_port_receive_constraint_errors_total",
	      "infiniband_switch_port_receive_constraint_errors_total"},
	     IBP_MON_RCV_CONSTRAINT,
	     "PortRcvConstraintErrors (PerfMgt PortCounters): packets "
	     "received and dropped for a P_Key (partition) check, monotonic"},
	};
	for (size_t f = 0; f < 2; f++) {
		family(m, fam[f].name[sw], "counter", fam[f].help);
		for (size_t i = 0; i < s->nports; i++) {
			const struct ibp_monitor_port *q = &s->ports[i];
			if (q->is_switch == sw && q->pma_read)
				port_sample(m, fam[f].name[sw], q,
					    q->total[fam[f].c]);
		}
	}
}

/* tenant="NAME" with the name escaped; false on ENOMEM. */
static bool tenant_label(FILE *m, const struct ibp_monitor_tenant *t)
{
	char *e = ibp_escape_prometheus(t->name, strlen(t->name));
	if (!e)
		return false;
	fprintf(m, "tenant=\"%s\"", e);
	free(e);
	return true;
}

/* The samples of a tenant family with a direction label: the
 * constraint errors, or (traps) the Bad P_Key traps.  False on ENOMEM. */
static bool tenant_directions(FILE *m, const char *name,
			      const ibp_monitor_sweep *s, bool traps)
{
	for (size_t i = 0; i < s->ntenants; i++) {
		const struct ibp_monitor_tenant *t = &s->tenants[i];
		uint64_t v[2] = {traps ? t->traps_from : t->from,
				 traps ? t->traps_toward : t->toward};
		for (int d = 0; d < 2; d++) {
			fprintf(m, "%s{", name);
			if (!tenant_label(m, t))
				return false;
			fprintf(m, ",direction=\"%s\"} %" PRIu64 "\n",
				d ? "toward" : "from", v[d]);
		}
	}
	return true;
}

char *ibp_monitor_sweep_prometheus(const ibp_monitor_sweep *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	bool ok = true;
	constraint_families(m, s, true);
	constraint_families(m, s, false);

	static const struct {
		const char *name, *help;
		ibp_monitor_counter c;
	} viol[] = {
	    {"ibpart_port_pkey_violations_total",
	     "PortInfo P_KeyViolations: packets the port refused for their "
	     "P_Key, monotonic",
	     IBP_MON_PKEY_VIOLATIONS},
	    {"ibpart_port_mkey_violations_total",
	     "PortInfo M_KeyViolations: SMPs with a wrong M_Key, monotonic",
	     IBP_MON_MKEY_VIOLATIONS},
	    {"ibpart_port_qkey_violations_total",
	     "PortInfo Q_KeyViolations: datagrams with a wrong Q_Key, "
	     "monotonic",
	     IBP_MON_QKEY_VIOLATIONS},
	};
	for (size_t f = 0; f < 3; f++) {
		family(m, viol[f].name, "counter", viol[f].help);
		for (size_t i = 0; i < s->nports; i++)
			if (s->ports[i].smp_read)
				port_sample(m, viol[f].name, &s->ports[i],
					    s->ports[i].total[viol[f].c]);
	}

	family(m, "ibpart_tenant_constraint_errors_total", "counter",
	       "constraint errors of the ports facing a tenant's nodes: "
	       "direction=\"from\" packets from them refused, \"toward\" "
	       "packets toward them refused (a node in several tenants "
	       "counts in each)");
	ok = tenant_directions(m, "ibpart_tenant_constraint_errors_total", s,
			       false);
	family(m, "ibpart_tenant_pkey_violations_total", "counter",
	       "P_KeyViolations of a tenant's HCA ports: packets toward them "
	       "their HCA refused");
	for (size_t i = 0; ok && i < s->ntenants; i++) {
		fputs("ibpart_tenant_pkey_violations_total{", m);
		ok = tenant_label(m, &s->tenants[i]);
		fprintf(m, "} %" PRIu64 "\n", s->tenants[i].pkey_violations);
	}

	family(m, "ibpart_tenant_bad_pkey_traps_total", "counter",
	       "Bad P_Key traps (257, 259) naming a tenant's HCA ports: "
	       "direction=\"from\" as the sender of the refused packet, "
	       "\"toward\" as its destination (a node in several tenants "
	       "counts in each)");
	ok = ok && tenant_directions(m, "ibpart_tenant_bad_pkey_traps_total", s,
				     true);
	family(m, "ibpart_port_bad_pkey_traps_total", "counter",
	       "Bad P_Key traps a port raised (port 0: a switch, where "
	       "OpenSM's log gives only its LID)");
	for (size_t i = 0; i < s->ntrap_ports; i++)
		fprintf(m,
			"ibpart_port_bad_pkey_traps_total{guid=\"0x%016" PRIx64
			"\",port=\"%u\"} %" PRIu64 "\n",
			s->trap_ports[i].node_guid, s->trap_ports[i].port,
			s->trap_ports[i].total);

	family(m, "ibpart_counter_saturated", "gauge",
	       "1 when a hardware counter stands at its maximum (8-bit "
	       "PortCounters 255, 16-bit PortInfo 65535): increments are "
	       "lost until it is cleared (ibpart monitor --reset)");
	for (size_t i = 0; i < s->nports; i++) {
		const struct ibp_monitor_port *q = &s->ports[i];
		for (int c = 0; c < IBP_MON_NCOUNTERS; c++) {
			bool valid = c <= IBP_MON_RCV_CONSTRAINT ? q->pma_read
								 : q->smp_read;
			if (!valid)
				continue;
			fprintf(
			    m,
			    "ibpart_counter_saturated{guid=\"0x%016" PRIx64
			    "\",port=\"%u\",counter=\"%s\"} %d\n",
			    q->node_guid, q->port,
			    ibp_monitor_counter_name((ibp_monitor_counter)c),
			    q->saturated[c] ? 1 : 0);
		}
	}
	family(m, "ibpart_monitor_ports_unread", "gauge",
	       "ports of the last sweep whose PMA or PortInfo did not answer");
	fprintf(m, "ibpart_monitor_ports_unread %zu\n", s->unread);
	family(m, "ibpart_monitor_ports_smp_only", "gauge",
	       "ports read with SMPs only: the plan gives their PMA's port no "
	       "key of the default partition (strict mode)");
	fprintf(m, "ibpart_monitor_ports_smp_only %zu\n", s->skipped);
	family(m, "ibpart_monitor_full_member", "gauge",
	       "1 when the monitoring port is a full member of the default "
	       "partition (0xffff), as reading limited members' PMAs needs");
	fprintf(m, "ibpart_monitor_full_member %d\n", s->full_member ? 1 : 0);
	family(m, "ibpart_last_sweep_timestamp_seconds", "gauge",
	       "when the last sweep ended, seconds since the epoch");
	fprintf(m, "ibpart_last_sweep_timestamp_seconds %.3f\n", s->time);
	if (fclose(m) != 0 || !ok) {
		free(buf);
		return NULL;
	}
	return buf;
}
