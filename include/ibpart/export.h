/*
 * export.h - which names libibpart.so exports, and the library's version.
 *
 * The library is built with -fvisibility=hidden: a function is exported
 * only when its declaration sits between IBP_BEGIN_DECLS and
 * IBP_END_DECLS in a public header (include/ibpart/), or carries IBP_API,
 * and libibpart.map lists it.  Every exported name starts with ibp_; the
 * files of src/ share their internal helpers through private headers,
 * which never leave the build tree.  `nm -D libibpart.so` lists exactly
 * the map's names (tested: style.abi_exports).
 *
 * Two tiers: include/ibpart/ is the stable API; include/ibpart/sys/
 * (wire/MAD, transports, SM, simulator) is exported too but may change
 * in any release.  libibpart.map (version node IBPART_0.7) lists every
 * exported name; everything else is local.
 *
 * Versioned options: an options struct starts with `unsigned version`.
 * Initialise it with ibp_X_options_init(&o, IBP_X_OPTIONS_VERSION), the
 * version of the header the program was compiled against.  The library
 * writes and reads only the fields that version has (a newer library's
 * larger struct never overruns an older program's), uses its defaults
 * for the rest, and refuses (IBP_EINVAL) 0 or a version newer than its
 * own.  A NULL options pointer means the defaults.  One options struct
 * never holds another by value (a newer inner struct would move the
 * outer one's later fields): it points to it, `const struct X *x`, and
 * the inner struct carries its own version (NULL: its defaults).  Both
 * tiers follow this.
 *
 * Versioned results: a plain struct the caller allocates and the library
 * fills (ibp_plan, ibp_tables_result, ibp_explanation, ibp_osm_conf,
 * struct ibp_apply_counts, struct ibp_apply_opensm_result) starts with
 * `unsigned version` too, which the caller sets to the version of its
 * header: `ibp_plan p = {.version = IBP_PLAN_VERSION};`.  The library
 * fills only the fields that version has (and reads no more of one it
 * is given back), refuses 0 or a newer version than its own
 * (IBP_EINVAL naming the struct, nothing written), and its clear and
 * free functions zero the struct but for the version, so it may be
 * filled again.
 *
 * Thread safety: the library has no mutable global state.  Distinct
 * objects may be used from different threads at once; one object is
 * used by one thread at a time unless its header says otherwise.
 */
#ifndef IBPART_EXPORT_H
#define IBPART_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define IBP_API		     __attribute__((visibility("default")))
#define IBP_VISIBILITY_PUSH_ _Pragma("GCC visibility push(default)")
#define IBP_VISIBILITY_POP_  _Pragma("GCC visibility pop")
#else
#define IBP_API
#define IBP_VISIBILITY_PUSH_
#define IBP_VISIBILITY_POP_
#endif

#ifdef __cplusplus
#define IBP_BEGIN_DECLS                                                        \
	extern "C" {                                                           \
	IBP_VISIBILITY_PUSH_
#define IBP_END_DECLS                                                          \
	IBP_VISIBILITY_POP_                                                    \
	}
#else
#define IBP_BEGIN_DECLS IBP_VISIBILITY_PUSH_
#define IBP_END_DECLS	IBP_VISIBILITY_POP_
#endif

#endif
