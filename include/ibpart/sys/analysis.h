/*
 * sys/analysis.h - the analysis as the CLI prints it: explanations and
 * findings as text.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/analysis.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/analysis.h.
 */
#ifndef IBPART_SYS_ANALYSIS_H
#define IBPART_SYS_ANALYSIS_H

#include <stdio.h>

#include "ibpart/analysis.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Human text: both tables, every shared base and the deciding rule. */
void ibp_explanation_print(const ibp_matrix *m, const ibp_explanation *e,
			   FILE *out);

/* One block per finding: "SEVERITY code: message", ports, partitions,
 * fix; a summary line at the end. */
void ibp_findings_print(const ibp_findings *f, FILE *out);

IBP_END_DECLS
#endif
