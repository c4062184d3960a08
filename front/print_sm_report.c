/*
 * print_sm_report.c - the SM's push report (struct ibp_sm_report,
 * sys/sm.h) as `ibpart apply`, `ibpart sim` and `ibpart demo` print it
 * (front/print.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/print.h"
#include "ibpart/sys/escape.h"

static void print_port(FILE *out, const struct ibp_sm_port *p)
{
	char *desc = ibp_escape_text(p->desc, strlen(p->desc));
	fprintf(out, "  0x%016llx port %-3u %-20s",
		(unsigned long long)p->port_guid, p->port, desc ? desc : "?");
	free(desc);
	if (p->blocks) {
		fprintf(out, " P_KeyTable block%s", p->blocks > 1 ? "s" : "");
		for (unsigned b = 0; b < 32; b++)
			if (p->block_mask & (1u << b))
				fprintf(out, " %u", b);
	}
	if (p->enforce_changed)
		fprintf(out, " PortInfo enforcement");
	if (p->why[0])
		fprintf(out, " FAILED: %s", p->why);
	fputc('\n', out);
}

void ibp_sm_report_print(const struct ibp_sm_report *r, FILE *out)
{
	fprintf(out, "%s: %lu SMPs sent (%lu timed out, %lu retries)\n",
		r->dry_run ? "SM plan (dry run, nothing written)"
			   : "SM partition push",
		r->smps, r->timeouts, r->retries);
	fprintf(out,
		"  P_KeyTable: %lu ports checked, %lu blocks read, %lu "
		"blocks %s",
		r->ports_checked, r->blocks_read, r->blocks_written,
		r->dry_run ? "to write" : "written");
	if (!r->dry_run)
		fprintf(out, ", %lu confirmed by read-back",
			r->blocks_confirmed);
	fprintf(out,
		"\n  PortInfo partition enforcement %s on %lu switch "
		"port(s)\n",
		r->dry_run ? "to change" : "changed", r->enforce_ports);
	if (r->enforce_unsupported)
		fprintf(out,
			"  PortInfo partition enforcement left as is on %lu "
			"leaf port(s): their switch implements neither "
			"enforcement bit (SwitchInfo)\n",
			r->enforce_unsupported);
	fprintf(out, "  ports %s: %zu\n", r->dry_run ? "to change" : "changed",
		r->nchanged);
	for (size_t i = 0; i < r->nchanged; i++)
		print_port(out, &r->changed[i]);
	if (!r->complete) {
		fprintf(out, "  INCOMPLETE: stopped at %zu failed port(s):\n",
			r->nfailed);
		for (size_t i = 0; i < r->nfailed; i++)
			print_port(out, &r->failed[i]);
	}
}
