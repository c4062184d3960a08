/*
 * diag_source.h - handing a file's text to a list of findings without a
 * copy: a reader that read the whole file (file_read.h) gives the buffer
 * itself to the ibp_diags that will quote its lines, instead of the copy
 * ibp_diags_set_source() makes (on a 50 MB plan, 50 MB less and one pass
 * fewer).  Internal to the library.
 */
#ifndef IBPART_DIAG_SOURCE_H
#define IBPART_DIAG_SOURCE_H

#include <stddef.h>

#include "ibpart/diag.h"
#include "util/diag_lib.h"
#include "util/file_read.h"

/* ibp_diags_set_source(d, file, t->text, t->len), taking ownership of
 * the text (read or mapped by file_read.h; freed with d): IBP_OK.  1
 * when d is NULL or already has a source named file, IBP_ENOMEM: the
 * caller then still owns it. */
int diags_adopt_source(ibp_diags *d, const char *file,
		       const struct ibp_file_text *t);

#endif
