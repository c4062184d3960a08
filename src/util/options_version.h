/*
 * options_version.h - how the library reads an options struct of any
 * version a caller was built with (docs/ARCHITECTURE.md, "Two tiers of
 * API").
 *
 * Every versioned options struct starts with `unsigned version`.  A
 * caller fills it with ibp_X_options_init(&o, IBP_X_OPTIONS_VERSION),
 * the version of the header it was compiled against; a later library
 * may have a larger struct.  So the library never writes or reads past
 * the caller's version: _init writes the defaults of that version's
 * fields only, and each entry point copies the caller's struct over the
 * library's own defaults, as far as the caller's version goes, and
 * works on the copy.  A struct's layout table says how long it was in
 * each version: sizes[v - 1] is the offset of the first field version
 * v + 1 added (sizeof the struct for the current version).
 *
 * A result struct the caller allocates and the library fills (ibp_plan,
 * ibp_tables_result, ...) is versioned the same way, the other way
 * round: it starts with `unsigned version` the caller sets to the
 * header's IBP_X_VERSION (`ibp_plan p = {.version = IBP_PLAN_VERSION}`),
 * and the library fills a whole current struct of its own and gives the
 * caller only as far as that version goes.  What the caller's version
 * lacks the library must release itself before it gives (a pointer
 * field added later is never handed to a program that cannot free it).
 */
#ifndef IBPART_UTIL_OPTIONS_VERSION_H
#define IBPART_UTIL_OPTIONS_VERSION_H

#include <stddef.h>

#include "ibpart/error.h"

typedef struct ibp_options_layout {
	const char *name;    /* in the error: "sim session options" */
	unsigned current;    /* the header's IBP_X_OPTIONS_VERSION */
	const size_t *sizes; /* current entries: the size in version 1.. */
	const char *macro;   /* a result's "IBP_PLAN_VERSION"; NULL */
} ibp_options_layout;

/* A struct's layout table: IBP_OPTIONS_LAYOUT(name_layout, "name",
 * IBP_X_OPTIONS_VERSION, size in version 1, ..., sizeof(struct)). */
#define IBP_OPTIONS_LAYOUT(var, name, current, ...)                            \
	static const size_t var##_sizes[] = {__VA_ARGS__};                     \
	_Static_assert(sizeof(var##_sizes) / sizeof(size_t) == (current),      \
		       name ": one size per version");                         \
	static const ibp_options_layout var = {name, current, var##_sizes, NULL}

/* A result struct's layout table: IBP_RESULT_LAYOUT(name_layout, "name",
 * IBP_X_VERSION, size in version 1, ..., sizeof(struct)). */
#define IBP_RESULT_LAYOUT(var, name, current, ...)                             \
	static const size_t var##_sizes[] = {__VA_ARGS__};                     \
	_Static_assert(sizeof(var##_sizes) / sizeof(size_t) == (current),      \
		       name ": one size per version");                         \
	static const ibp_options_layout var = {name, current, var##_sizes,     \
					       #current}

/* Fill the caller's *o of version v from the library's defaults *def
 * (a whole current struct): the bytes version v has, then version = v.
 * A version out of 1..current gets only its version field written (the
 * entry point then refuses it). */
void ibp_options_init_as(void *o, unsigned v, const void *def,
			 const ibp_options_layout *l);

/* Copy the caller's *o over *full, which holds the library's defaults:
 * as far as o's version goes (its version field kept, so code may ask
 * which fields the caller knew); NULL o leaves the defaults.  Errors:
 * IBP_EINVAL naming the struct when o's version is 0 or newer than the
 * library's. */
int ibp_options_take(void *full, const void *o, const ibp_options_layout *l,
		     ibp_error *err);

/* Whether the caller's result *r has a version this library fills:
 * IBP_OK, or IBP_EINVAL naming the struct and the version macro when r
 * is NULL or its version 0 or newer than the library's (nothing
 * written to r). */
int ibp_result_check(const void *r, const ibp_options_layout *l,
		     ibp_error *err);

/* How many bytes of *r its version has: 0 for NULL r or a version out
 * of 1..current. */
size_t ibp_result_size(const void *r, const ibp_options_layout *l);

/* The caller's *r read into the library's whole current *full (zero
 * beyond r's version; full's version is then r's): what the library's
 * clear and free functions and its readers of a filled result work on.
 * IBP_EINVAL as ibp_result_check (*full then all zero). */
int ibp_result_take(void *full, size_t full_size, const void *r,
		    const ibp_options_layout *l, ibp_error *err);

/* Give the library's whole current *full to the caller's *r, which
 * passed ibp_result_check: the bytes r's version has but its version
 * field, which stays the caller's.  full's fields past r's version are
 * not given (release them first).  A NULL full zeroes them instead. */
void ibp_result_give(void *r, const void *full, const ibp_options_layout *l);

#endif
