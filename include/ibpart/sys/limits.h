/*
 * sys/limits.h - an input limit as a person writes it, as the front ends
 * read `--max-input-size` and ibpartd its configuration.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/limits.h, exported for ibpart's own front ends, and free to
 * change in any release.  A program outside ibpart gives the options
 * structs' max_input_size in bytes (ibpart/limits.h's defaults).
 */
#ifndef IBPART_SYS_LIMITS_H
#define IBPART_SYS_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include "ibpart/limits.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* A limit as a person writes it (`ibpart --max-input-size`, a service's
 * configuration): decimal bytes, or with a K, M or G suffix (KiB, MiB,
 * GiB), a digit first (no blank, no sign).  false (*out untouched) when
 * s is no size or does not fit in size_t. */
bool ibp_input_size_parse(const char *s, size_t *out);

IBP_END_DECLS
#endif
