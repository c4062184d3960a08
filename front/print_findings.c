/*
 * print_findings.c - audit findings as text (front/print.h): `ibpart
 * audit` and the audit `verify --audit` appends.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/print.h"
#include "ibpart/sys/escape.h"

void ibp_findings_print(const ibp_findings *f, FILE *out)
{
	size_t count[4] = {0}, n = ibp_findings_count(f);
	for (size_t i = 0; i < n; i++) {
		const ibp_finding *x = ibp_findings_get(f, i);
		count[x->severity & 3]++;
		/* messages quote node descriptions: escaped (escape.h) */
		char *msg = ibp_escape_text(x->message, strlen(x->message));
		char *fix = ibp_escape_text(x->fix, strlen(x->fix));
		fprintf(out, "%-8s %s: %s\n",
			ibp_audit_severity_str(x->severity), x->code,
			msg ? msg : "?");
		if (x->nports) {
			fprintf(out, "         ports:");
			size_t shown = x->nports > 8 ? 8 : x->nports;
			for (size_t j = 0; j < shown; j++)
				fprintf(out, " 0x%016" PRIx64, x->ports[j]);
			if (shown < x->nports)
				fprintf(out, " … (%zu in all)", x->nports);
			fputc('\n', out);
		}
		if (x->npartitions) {
			fprintf(out, "         partitions:");
			for (size_t j = 0; j < x->npartitions; j++)
				fprintf(out, " 0x%04x",
					(unsigned)x->partitions[j]);
			fputc('\n', out);
		}
		fprintf(out, "         fix: %s\n", fix ? fix : "?");
		free(msg);
		free(fix);
	}
	fprintf(out,
		"%zu finding(s): %zu critical, %zu high, %zu medium, %zu "
		"info\n",
		n, count[3], count[2], count[1], count[0]);
}
