/*
 * print_live.c - a verify and an apply's push as `ibpart verify` and
 * `ibpart apply` print them (front/print.h; their JSON is the
 * library's): a DRIFT line per difference, the verify summary, the push
 * report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/print.h"
#include "ibpart/pkey.h"
#include "ibpart/report.h"
#include "ibpart/sys/apply.h"
#include "ibpart/sys/escape.h"

/* A node description for a terminal: a tenant's HCA says what it
 * likes (\r\e[2K would erase the DRIFT line it is on).  Into buf. */
static const char *desc_str(const char *d, char *buf, size_t len)
{
	char *e = ibp_escape_text(d, strlen(d));
	snprintf(buf, len, "%s", e ? e : "?");
	free(e);
	return buf;
}

static const char *guid_str(uint64_t g, char buf[24])
{
	snprintf(buf, 24, "0x%016llx", (unsigned long long)g);
	return buf;
}

/* One drift item as a line: "PREFIX GUID port N DESC KIND what", the
 * GUID the port's (its node's where it has none: a switch). */
static void drift_item_print(const ibp_fabric *f,
			     const struct ibp_drift_item *it,
			     const char *prefix, FILE *out)
{
	char g[24], dbuf[300];
	uint64_t pg = ibp_fabric_port_guid(f, it->node, it->port);
	char *detail = ibp_drift_item_detail(it);
	fprintf(out, "%s %s port %-3u %-20s %-11s %s\n", prefix,
		guid_str(pg ? pg : ibp_fabric_node_guid(f, it->node), g),
		it->port,
		desc_str(ibp_fabric_node_desc(f, it->node), dbuf, sizeof(dbuf)),
		ibp_drift_kind_str(it->kind), detail ? detail : "?");
	free(detail);
}

static void print_drift(const ibp_verify_result *r, ibp_drift_sel sel,
			const char *prefix, FILE *out)
{
	const ibp_drift *d = ibp_verify_result_drift(r);
	for (size_t i = 0; i < ibp_drift_count(d); i++)
		if (ibp_drift_item_selected(ibp_drift_at(d, i), sel))
			drift_item_print(ibp_verify_result_fabric(r),
					 ibp_drift_at(d, i), prefix, out);
}

static void print_absent(const ibp_verify_result *r, FILE *out)
{
	for (size_t i = 0; i < ibp_verify_result_absent_count(r); i++) {
		const struct ibp_absent_member *a =
		    ibp_verify_result_absent_at(r, i);
		char g[24], t[300], fb[300], h[700];
		/* a hint quotes a NodeDescription; the rest a file */
		fprintf(
		    out,
		    "note: %s%s%s%s named by the plan (%s:%u) is not a port "
		    "of the fabric; OpenSM skips it too%s%s\n",
		    guid_str(a->guid, g), a->by_name ? " (" : "",
		    a->by_name ? desc_str(a->text, t, sizeof(t)) : "",
		    a->by_name ? ")" : "",
		    desc_str(a->conf_file, fb, sizeof(fb)), a->conf_line,
		    a->hint[0] ? "; " : "", desc_str(a->hint, h, sizeof(h)));
	}
}

void ibp_verify_result_print(const ibp_verify_result *r, FILE *out)
{
	size_t nports = 0, ndiff = ibp_verify_result_differences(r, &nports);
	size_t nnotes = ibp_verify_result_index_notes(r);
	size_t checked = ibp_drift_ports_checked(ibp_verify_result_drift(r));
	print_drift(r, ibp_verify_result_selection(r), "DRIFT", out);
	if (nnotes) {
		print_drift(r, IBP_DRIFT_SEL_INDEX_ONLY, "note:", out);
		fprintf(out,
			"note: %zu P_Key(s) at another index than predicted: "
			"OpenSM puts a P_Key back where it was before, which "
			"only --previous STATE (apply's, or tables --state) "
			"tells; not counted as drift\n",
			nnotes);
	}
	print_absent(r, out);
	char enf[80] = "";
	size_t nenf = ibp_verify_result_enforcement_checked(r);
	if (nenf)
		snprintf(enf, sizeof(enf),
			 ", PortInfo enforcement of %zu leaf port%s", nenf,
			 nenf == 1 ? "" : "s");
	if (ndiff)
		fprintf(out,
			"verify: %zu ports checked%s, %zu drifted, %zu "
			"difference%s (%lu SMPs, %ld ms)\n",
			checked, enf, nports, ndiff, ndiff == 1 ? "" : "s",
			ibp_verify_result_smps(r),
			ibp_verify_result_elapsed_ms(r));
	else
		fprintf(out,
			"verify: %zu ports checked%s, no drift (%lu SMPs, %ld "
			"ms)\n",
			checked, enf, ibp_verify_result_smps(r),
			ibp_verify_result_elapsed_ms(r));
	if (ibp_verify_result_matrix(r)) {
		fprintf(out,
			"\nWhat the fabric holds, as a connectivity matrix:\n");
		ibp_matrix_report_options ro = {
		    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION,
		    .mode = ibp_verify_result_mode(r)};
		ibp_matrix_report(ibp_verify_result_matrix(r), IBP_MATRIX_TEXT,
				  &ro, out, NULL);
	}
	if (ibp_verify_result_findings(r)) {
		fprintf(out, "\nAudit of what the fabric holds:\n");
		ibp_findings_print(ibp_verify_result_findings(r), out);
	}
}

void ibp_apply_print(const ibp_apply *a, FILE *out)
{
	char dbuf[300];
	struct ibp_apply_counts n = {.version = IBP_APPLY_COUNTS_VERSION};
	ibp_apply_counts_get(a, &n, NULL);
	const struct ibp_sm_report *rep = ibp_apply_report(a);
	const char *state = ibp_apply_state_file(a);
	size_t npl = ibp_apply_port_count(a);
	if (npl)
		ibp_sm_report_print(rep, out);
	if (!ibp_apply_complete(a)) {
		fprintf(out, "  not reached (unchanged): %zu port(s)\n",
			ibp_apply_not_reached_count(a));
		for (size_t i = 0; i < npl; i++) {
			const struct ibp_apply_port *p =
			    ibp_apply_port_at(a, i);
			char g[24];
			if (p->state == IBP_APPLY_NOT_REACHED)
				fprintf(out, "  %s port %-3u %s\n",
					guid_str(p->node_guid, g), p->port,
					desc_str(p->desc, dbuf, sizeof(dbuf)));
		}
	}
	fprintf(out,
		"apply: %zu port%s changed, %lu SMPs sent (%lu SubnSet), %lu "
		"timed out, %ld ms%s%s\n",
		rep->nchanged, rep->nchanged == 1 ? "" : "s", n.smps,
		n.smps_set, n.timeouts, n.elapsed_ms,
		state && npl ? "; before-state in " : "",
		state && npl ? state : "");
}

void ibp_apply_print_plan(const ibp_apply *a, FILE *out)
{
	char dbuf[300];
	unsigned long sets = 0, enf = 0;
	size_t npl = ibp_apply_port_count(a);
	for (size_t i = 0; i < npl; i++) {
		const struct ibp_apply_port *p = ibp_apply_port_at(a, i);
		const ibp_tables *want = ibp_apply_want(a);
		for (unsigned b = 0; b < p->nblocks; b++) {
			/* a block past the planned table's size reads as
			 * empty (the SM writes zeros there) */
			uint16_t keys[IBP_PKEY_BLOCK_SIZE] = {0};
			for (unsigned k = 0; k < IBP_PKEY_BLOCK_SIZE; k++)
				keys[k] = ibp_tables_pkey_at(
				    want, p->node, p->port,
				    p->blocks[b] * IBP_PKEY_BLOCK_SIZE + k);
			unsigned mod = p->blocks[b] |
				       ((p->port_guid ? 0u : p->port) << 16);
			char g[24];
			fprintf(out,
				"SubnSet(P_KeyTable) %s port %u %s block %u "
				"(AttributeModifier 0x%08x):",
				guid_str(p->port_guid, g), p->port,
				desc_str(p->desc, dbuf, sizeof(dbuf)),
				p->blocks[b], mod);
			unsigned last = 0;
			for (unsigned k = 0; k < IBP_PKEY_BLOCK_SIZE; k++)
				if (keys[k])
					last = k + 1;
			for (unsigned k = 0; k < last; k++)
				fprintf(out, " 0x%04x", keys[k]);
			fprintf(out, "\n");
			sets++;
		}
		if (p->more_blocks)
			fprintf(out, "  (and more blocks of this port)\n");
		if (p->enforce) {
			char g[24];
			bool wi, wo;
			ibp_part_enforce_bits(p->enforce_want, &wi, &wo);
			fprintf(out,
				"SubnSet(PortInfo) %s port %u %s "
				"(AttributeModifier 0x%08x): partition "
				"enforcement %s -> %s "
				"(PartitionEnforcementInbound %d, Outbound "
				"%d; PortState, PortPhysicalState, "
				"LinkDownDefaultState 0: no change)\n",
				guid_str(p->node_guid, g), p->port,
				desc_str(p->desc, dbuf, sizeof(dbuf)), p->port,
				ibp_part_enforce_str(p->enforce_have),
				ibp_part_enforce_str(p->enforce_want), wi, wo);
			enf++;
		}
	}
	fprintf(out,
		"plan: %zu port%s to change, %lu SubnSet(P_KeyTable), each "
		"followed by a SubnGet read-back, %lu SubnSet(PortInfo); "
		"nothing sent (dry run)\n",
		npl, npl == 1 ? "" : "s", sets, enf);
}

size_t ibp_apply_print_unreadable(const ibp_apply *a, FILE *out)
{
	char dbuf[300], g[24];
	size_t n = ibp_apply_unreadable_count(a);
	for (size_t i = 0; i < n; i++) {
		const struct ibp_apply_port *p = ibp_apply_unreadable_at(a, i);
		fprintf(out,
			"ibpart apply: cannot read %s port %u (%s): not "
			"discovered\n",
			guid_str(p->node_guid, g), p->port,
			desc_str(p->desc, dbuf, sizeof(dbuf)));
	}
	if (n)
		fprintf(out,
			"ibpart apply: %zu port(s) of the plan cannot be read; "
			"nothing was changed\n",
			n);
	return n;
}
