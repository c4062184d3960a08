/*
 * print.h - the library's results as `ibpart` prints them: the SM's push
 * report, audit findings, a verify, an apply's plan and push, and a
 * pair's explanation.  The words are the CLI's, not the library's: a
 * program built on libibpart reads the same facts through the accessors
 * of the stable headers (or their JSON) and says them its own way.  Some
 * are printed by several commands (the audit by `audit` and `verify
 * --audit`, the push report by `apply`, `sim` and `demo`), and the unit
 * tests read them too, so they live here rather than in a cmd_*.c.
 *
 * Each reads its object only, through exported accessors; descriptions
 * and messages that quote a NodeDescription are escaped (escape.h).
 * Write errors on out are not reported (the caller checks
 * fflush/ferror).  Thread safety: no global state; a const object may be
 * printed from several threads at once.
 */
#ifndef IBPART_FRONT_PRINT_H
#define IBPART_FRONT_PRINT_H

#include <stdio.h>

#include "ibpart/analysis.h"
#include "ibpart/apply.h"
#include "ibpart/verify.h"
#include "ibpart/sys/sm.h"

/* The push report: SMPs, P_KeyTable blocks read, written and confirmed,
 * PortInfo enforcement changed, the ports changed (and the failed ones
 * when the push is incomplete). */
void ibp_sm_report_print(const struct ibp_sm_report *r, FILE *out);

/* One block per finding: "SEVERITY code: message", ports, partitions,
 * fix; a summary line at the end. */
void ibp_findings_print(const ibp_findings *f, FILE *out);

/* A verify as `ibpart verify` prints it: a DRIFT line per difference,
 * index notes, absent GUIDs, the summary line, then the matrix and the
 * audit when asked for. */
void ibp_verify_result_print(const ibp_verify_result *r, FILE *out);

/* The push as `ibpart apply` prints it (after ibp_apply_run): the SM's
 * report, the ports not reached when incomplete, a summary. */
void ibp_apply_print(const ibp_apply *a, FILE *out);

/* The dry-run plan as `ibpart apply --dry-run` prints it: one
 * SubnSet(P_KeyTable) line per block with its AttributeModifier and
 * entries, then a summary.  Right after ibp_apply_plan. */
void ibp_apply_print_plan(const ibp_apply *a, FILE *out);

/* The plan ports that cannot be read, one line each, then their count
 * and that nothing was changed; nothing at all when every port was
 * read.  Right after ibp_apply_plan.  Returns their count. */
size_t ibp_apply_print_unreadable(const ibp_apply *a, FILE *out);

/* `ibpart matrix --explain`: both P_KeyTables, every shared base and the
 * deciding rule (IBA vol. 1, 10.9.3). */
void ibp_explanation_print(const ibp_matrix *m, const ibp_explanation *e,
			   FILE *out);

#endif
