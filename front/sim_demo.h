/*
 * sim_demo.h - the seed document's whole story replayed on the simulated
 * fabric (sim_session.h), from the project's own copies of the seed's
 * fabric and plan (examples/seed/): the SM pushes the plan over SMPs,
 * TenantA-01's P_KeyTable, `smpquery pkeys`, an RC pingpong inside
 * TenantA, TenantB -> TenantA failing (with switch enforcement on, then
 * off), storage serving both tenants, the 7x7 probe matrix checked cell
 * by cell against the seed's own table, and what changes under the other
 * mode's rules.
 *
 * front/'s (the front ends' static library, not libibpart's ABI): a
 * story a front end tells with the library's simulator
 * (ibpart/sys/sim_session.h) and its printers (front/print.h).  `ibpart
 * demo` finds the examples, passes stdout for the narrative and prints
 * the result.  The narrative goes to the FILE * the caller passes and
 * nothing to stderr; findings go to the caller's ibp_diags, failures to
 * its ibp_error.
 *
 * Thread use: no mutable global state; a run uses its own sessions, so
 * distinct runs may go on in different threads at once.  A result is
 * plain data once made.
 */
#ifndef IBPART_FRONT_SIM_DEMO_H
#define IBPART_FRONT_SIM_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"

#define IBP_SIM_DEMO_OPTIONS_VERSION 1

/* What to replay.  Initialise with ibp_sim_demo_options_init(), then set
 * fields. */
struct ibp_sim_demo_options {
	unsigned version;	  /* IBP_SIM_DEMO_OPTIONS_VERSION (by _init) */
	const char *examples_dir; /* holds seed/seed.topo and
				     seed/seed-block.conf (required) */
	const char *mode;	  /* "strict" (default: the seed's model, whose
				     matrix must equal the seed's table) or
				     "opensm" (OpenSM 3.3.23's rules) */
	size_t max_input_size;	  /* of each input file (0: limits.h) */
};

/* Fill o with the defaults above (examples_dir NULL).  o must not be
 * NULL.  Cannot fail. */
void ibp_sim_demo_options_init(struct ibp_sim_demo_options *o,
			       unsigned version);

/* Find the examples directory: hint when it holds seed/seed.topo (a
 * caller passes its $IBP_EXAMPLES; NULL or "" skips it), else relative
 * to the running program (/proc/self/exe): ../examples,
 * ../share/ibpart/examples (installed), ../../examples, ./examples.
 * Writes the directory to out (len bytes).  Returns IBP_OK, or
 * IBP_ENOENT when none holds the seed's files (out is then ""). */
int ibp_sim_demo_find_examples(const char *hint, char *out, size_t len);

/* One check of the walkthrough: what was expected, and whether it
 * held. */
struct ibp_sim_demo_check {
	char what[160];
	bool held;
};

typedef struct ibp_sim_demo ibp_sim_demo;

/* Replay the seed in o->mode, its narrative (sections 1 to 8: the SM's
 * push report, LIDs, TenantA-01's table, `smpquery pkeys`, the
 * pingpongs, the probe matrix against the seed's table, counters, and
 * the other mode's table and matrix differences) written to out as it
 * runs (NULL: no text).  The topology's findings, and the plan's when it
 * has an error, are appended to diags (may be NULL).
 *
 * A check that does not hold (a pingpong ending otherwise than the seed
 * says, a strict matrix differing from the seed's table) is not an
 * error: the call returns IBP_OK and the result counts it.  On success
 * *res receives the result, freed with ibp_sim_demo_free().
 *
 * Errors (*res is then NULL; err, when not NULL, says why): IBP_EINVAL
 * for bad options (version, no examples_dir, unknown mode); those of
 * ibp_sim_session_open() (a seed file missing is IBP_ENOENT, one that
 * does not load IBP_EPARSE) and of the session's push, smpquery,
 * pingpong and probe (the simulated fabric failed); IBP_ENOMEM. */
int ibp_sim_demo_run(const struct ibp_sim_demo_options *o, FILE *out,
		     ibp_sim_demo **res, ibp_diags *diags, ibp_error *err);

/* Free a result.  NULL is allowed. */
void ibp_sim_demo_free(ibp_sim_demo *r);

/* The checks made, in order, and how many did not hold.  The pointer
 * is owned by r; i < ibp_sim_demo_check_count(r). */
size_t ibp_sim_demo_check_count(const ibp_sim_demo *r);
const struct ibp_sim_demo_check *ibp_sim_demo_check_at(const ibp_sim_demo *r,
						       size_t i);
size_t ibp_sim_demo_failures(const ibp_sim_demo *r);
/* Cells of the seed's table (42, the diagonal left out) that the probe
 * matrix of the run's mode, and of the other mode, differs in. */
size_t ibp_sim_demo_differences(const ibp_sim_demo *r, size_t *other_mode);

/* The end of the narrative as `ibpart demo` prints it: why OpenSM's
 * rules differ from the seed's model, then "N check(s) did not hold"
 * when some did not. */
void ibp_sim_demo_print(const ibp_sim_demo *r, FILE *out);
/* The result as JSON: {"mode", "other_mode", "checks": [{"check",
 * "held"}], "failures", "seed_table_differences",
 * "other_mode_differences"}; a malloc'd string the caller frees, NULL on
 * ENOMEM. */
char *ibp_sim_demo_json(const ibp_sim_demo *r);

#endif
