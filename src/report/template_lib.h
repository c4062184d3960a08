/*
 * template_lib.h - the page template's renderer (template.c): a text
 * with named slots that the caller's table fills, so the web view's
 * fixed HTML is a real file (src/report/web/report.html) and its C
 * writes only data.  Not installed, not exported.
 *
 * The template's tags:
 *   {{name}}             a slot: the caller writes its data there
 *   {{#name}}...{{/name}} text shown when the caller's block is true
 *   {{^name}}...{{/name}} ... when it is false (blocks nest)
 *   {{! text }}          a comment, written nowhere
 * and a backslash at the end of a line joins it to the next (neither is
 * written), so a long line of the page reads as several in the file.
 * A name is [a-z0-9_]+.
 */
#ifndef IBPART_REPORT_TEMPLATE_LIB_H
#define IBPART_REPORT_TEMPLATE_LIB_H

#include <stdint.h>
#include <stdio.h>

#include "ibpart/error.h"

typedef enum ibp_slot_kind {
	IBP_SLOT_WRITE,	 /* {{name}}: write(ctx) writes the data */
	IBP_SLOT_NUMBER, /* {{name}}: value, in decimal */
	IBP_SLOT_BLOCK	 /* {{#name}}: shown when value != 0 */
} ibp_slot_kind;

typedef struct ibp_template_slot {
	const char *name;
	ibp_slot_kind kind;
	void (*write)(const void *ctx); /* IBP_SLOT_WRITE */
	uint64_t value;			/* IBP_SLOT_NUMBER, IBP_SLOT_BLOCK */
} ibp_template_slot;

/* A table's entries: IBP_TEMPLATE_WRITE("rows", put_rows), ... */

#define IBP_TEMPLATE_WRITE(n, fn)                                              \
	{                                                                      \
		.name = (n), .kind = IBP_SLOT_WRITE, .write = (fn)             \
	}
#define IBP_TEMPLATE_NUMBER(n, v)                                              \
	{                                                                      \
		.name = (n), .kind = IBP_SLOT_NUMBER, .value = (uint64_t)(v)   \
	}
#define IBP_TEMPLATE_BLOCK(n, cond)                                            \
	{                                                                      \
		.name = (n), .kind = IBP_SLOT_BLOCK, .value = (cond) ? 1 : 0   \
	}

/* Whether template t (named file in messages) and the table s[ns] agree:
 * every tag well formed, every block closed where it opened, every name
 * in the table and of its kind (a block as a block, a slot as a slot),
 * every table entry used and no name twice in it.  0, or IBP_EPARSE with
 * err at the first problem (file:line:col, or file alone for an unused
 * entry). */
int ibp_template_check(const char *file, const char *t,
		       const ibp_template_slot *s, size_t ns, ibp_error *err);

/* t filled from s[ns] to out: checked first (ibp_template_check), so a
 * template that does not agree with its table writes nothing.  The
 * writers get ctx. */
int ibp_template_render(const char *file, const char *t,
			const ibp_template_slot *s, size_t ns, const void *ctx,
			FILE *out, ibp_error *err);

#endif
