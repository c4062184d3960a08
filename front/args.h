/*
 * args.h - a command line read through a table of its options, and that
 * table's --help: the one option parser of every ibpart front end (the
 * `ibpart` subcommands, ibpartd), so that what a program takes and what
 * its --help says cannot drift apart, and a second front end does not
 * copy the first one's parser.
 *
 * Each table entry names every spelling of an option ("-t|--topo";
 * long names also take "--name=value", short ones "-xVALUE"), the kind
 * of value, where it goes, the value's name in --help (arg) and its help
 * text (help: words wrapped at column 80; NULL hides the option):
 *   IBP_ARG_FLAG   bool *, set when given
 *   IBP_ARG_STR    const char **, the value (pointing into argv)
 *   IBP_ARG_STR2   two const char **: an option with two values
 *   IBP_ARG_NUM    unsigned/int (or uint64_t) *, a number MIN..MAX
 *                  (decimal or 0x hex)
 *   IBP_ARG_WORD   const char **, one of the words "a|b|c"
 *   IBP_ARG_INDEX  int *, the index of the word among "a|b|c"
 *   IBP_ARG_SIZE   size_t *, a size in bytes, or with K, M or G
 *                  (ibp_input_size_parse, limits.h)
 *   IBP_ARG_FN     fn(cmd, dest, value): 0, or -1 after the caller's
 *                  function has said why
 *
 * Thread safety: no global state; argv and the table are only read (the
 * destinations written), so distinct parses may run at once.  Nothing
 * is written to stdout or stderr but the --help text, to the caller's
 * FILE *.
 */
#ifndef IBPART_ARGS_H
#define IBPART_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ibpart/error.h"

enum ibp_arg_kind {
	IBP_ARG_K_FLAG,
	IBP_ARG_K_STR,
	IBP_ARG_K_STR2,
	IBP_ARG_K_NUM,
	IBP_ARG_K_WORD,
	IBP_ARG_K_INDEX,
	IBP_ARG_K_FN,
	IBP_ARG_K_SIZE
};
/* An IBP_ARG_FN option's reader: cmd is ibp_args.cmd. */
typedef int (*ibp_arg_fn)(const char *cmd, void *dest, const char *val);
/* One entry of a table; made with the macros below. */
struct ibp_arg_opt {
	const char *names;
	enum ibp_arg_kind kind;
	void *dest;
	const char *arg, *help;	     /* for --help */
	unsigned long long min, max; /* NUM */
	size_t size;		     /* NUM: sizeof(*dest) */
	const char *words;	     /* WORD, INDEX */
	ibp_arg_fn fn;		     /* FN */
	void *dest2;		     /* STR2 */
};
#define IBP_ARG_FLAG(n, d, h)                                                  \
	((struct ibp_arg_opt){n, IBP_ARG_K_FLAG, d, NULL, h})
#define IBP_ARG_STR(n, d, a, h)                                                \
	((struct ibp_arg_opt){n, IBP_ARG_K_STR, d, a, h})
#define IBP_ARG_STR2(n, d, d2, a, h)                                           \
	((struct ibp_arg_opt){n, IBP_ARG_K_STR2, d, a, h, .dest2 = d2})
#define IBP_ARG_NUM(n, d, lo, hi, a, h)                                        \
	((struct ibp_arg_opt){n, IBP_ARG_K_NUM, d, a, h, lo, hi, sizeof(*(d))})
#define IBP_ARG_WORD(n, d, w, h)                                               \
	((struct ibp_arg_opt){n, IBP_ARG_K_WORD, d, w, h, .words = w})
#define IBP_ARG_INDEX(n, d, w, h)                                              \
	((struct ibp_arg_opt){n, IBP_ARG_K_INDEX, d, w, h, .words = w})
#define IBP_ARG_SIZE(n, d, a, h)                                               \
	((struct ibp_arg_opt){n, IBP_ARG_K_SIZE, d, a, h})
#define IBP_ARG_FN(n, d, f, a, h)                                              \
	((struct ibp_arg_opt){n, IBP_ARG_K_FN, d, a, h, .fn = f})

/* One command's argv: its name, --help's text before the options
 * (usage) and after them (tail, may be NULL), its table, and room for
 * max_pos positional arguments (more is a usage error).  stop_at_pos:
 * the options end at the first positional (`ibpart sim`: actions
 * follow).  Set those (in this order, so an initializer lists them);
 * ibp_args_parse fills pos, npos and next (the index where it stopped).
 * version: IBP_ARGS_VERSION, or 0 for the same. */
#define IBP_ARGS_VERSION 1
struct ibp_args {
	const char *cmd, *usage, *tail;
	const struct ibp_arg_opt *opts;
	size_t nopts;
	size_t max_pos;
	bool stop_at_pos;
	const char *pos[4];
	size_t npos;
	int next;
	unsigned version;
};
/* What ibp_args_parse returns after writing --help. */
#define IBP_ARGS_HELP 1

/* Walk argv[1..argc) once against a's table: options anywhere before
 * "--" (or the first positional with stop_at_pos), their values stored
 * in the destinations, the rest in a->pos.  -h or --help writes usage,
 * "Options:" with every visible entry, "-h, --help", then tail, to
 * help_out (NULL: nowhere), and returns IBP_ARGS_HELP.  Errors: IBP_EINVAL for
 * a usage error, err->message saying it in one wording ("unknown option '--x';
 * did you mean '--y'?", "-n wants a number 0..9, not 'x'", ...), or
 * empty when an IBP_ARG_FN reader refused the value (it said why).
 * Returns IBP_OK otherwise. */
int ibp_args_parse(struct ibp_args *a, int argc, char **argv, FILE *help_out,
		   ibp_error *err);

/* Take the options of opts[0..nopts) out of argv wherever they stand
 * before a "--" (a program's options that come before or after its
 * command's): their values stored as ibp_args_parse stores them (an
 * IBP_ARG_FN reader gets cmd), every other argument kept in order
 * (a flag written with "=value" too), argv[*argc] NULL after them.
 * Errors: IBP_EINVAL, err->message saying it ("--x needs a value"), or
 * empty when a reader refused the value (it said why). */
int ibp_args_extract(int *argc, char **argv, const struct ibp_arg_opt *opts,
		     size_t nopts, const char *cmd, ibp_error *err);

/* Parse an unsigned number (decimal or 0x hex, no sign or blank) within
 * [min, max] into *out; false (and *out unchanged) when s is NULL, not
 * such a number or out of range. */
bool ibp_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out);

#endif
