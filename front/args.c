/*
 * args.c - the one option parser of the front ends (front/args.h): a
 * command's table of options walked over argv once, usage errors said in
 * one wording (into the caller's ibp_error), and --help listing the same
 * table.  It lives in the front ends' static library (front/, never
 * installed, never exported) so that ibpart and ibpartd read their
 * command lines the same way.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front/args.h"
#include "ibpart/limits.h"
#include "ibpart/sys/suggest.h"
#include "ibpart/sys/limits.h"

bool ibp_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9') /* strtoull: blanks, signs */
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* Does arg spell one of names ("-t|--topo")?  For a long name,
 * "--name=value" matches too and *inline_val points at the value. */
static bool name_matches(const char *names, const char *arg,
			 const char **inline_val)
{
	size_t alen = strcspn(arg, "=");
	for (const char *p = names; *p;) {
		size_t n = strcspn(p, "|");
		if (n == strlen(arg) && !strncmp(p, arg, n))
			return true;
		if (n > 2 && p[1] == '-' && n == alen && arg[alen] == '=' &&
		    !strncmp(p, arg, n)) {
			*inline_val = arg + alen + 1;
			return true;
		}
		if (n == 2 && p[1] != '-' && !strncmp(p, arg, 2) && arg[2]) {
			*inline_val = arg + 2; /* -tTOPO */
			return true;
		}
		p += n + (p[n] == '|');
	}
	return false;
}

/* The spelling in the table closest to arg (copied into buf), NULL when
 * none is close. */
static const char *suggest_option(const struct ibp_args *a, const char *arg,
				  char buf[40])
{
	char names[64][40];
	const char *cands[64];
	size_t n = 0;
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
	for (size_t k = 0; k < a->nopts; k++)
		for (const char *p = a->opts[k].names; *p && n < 64;) {
			size_t len = strcspn(p, "|");
			if (a->opts[k].help && len > 2) { /* not hidden, long */
				snprintf(names[n], sizeof(names[n]), "%.*s",
					 (int)len, p);
				cands[n] = names[n];
				n++;
			}
			p += len + (p[len] == '|');
		}
	const char *near = word[1] == '-' ? ibp_suggest(word, cands, n) : NULL;
	if (!near)
		return NULL;
	snprintf(buf, 40, "%s", near);
	return buf;
}

/* The index of word in "a|b|c", -1 when it is not one of them. */
static int word_index(const char *words, const char *word)
{
	int k = 0;
	for (const char *p = words; *p; k++) {
		size_t n = strcspn(p, "|");
		if (n == strlen(word) && !strncmp(p, word, n))
			return k;
		p += n + (p[n] == '|');
	}
	return -1;
}

/* Store one option's value(s): IBP_OK, or IBP_EINVAL with err set. */
static int take(const char *cmd, const struct ibp_arg_opt *o, const char *name,
		const char *val, const char *val2, ibp_error *err)
{
	unsigned long long v;
	int k;
	switch (o->kind) {
	case IBP_ARG_K_FLAG:
		*(bool *)o->dest = true;
		return IBP_OK;
	case IBP_ARG_K_STR2:
		*(const char **)o->dest2 = val2;
		/* fall through */
	case IBP_ARG_K_STR:
		*(const char **)o->dest = val;
		return IBP_OK;
	case IBP_ARG_K_NUM:
		if (!ibp_parse_uint(val, o->min, o->max, &v))
			return ibp_error_set(err, IBP_EINVAL,
					     "%s wants a number %llu..%llu, "
					     "not '%s'",
					     name, o->min, o->max, val);
		if (o->size == sizeof(uint64_t)) {
			uint64_t u = v;
			memcpy(o->dest, &u, sizeof(u));
		} else {
			unsigned u = (unsigned)v;
			memcpy(o->dest, &u, sizeof(u));
		}
		return IBP_OK;
	case IBP_ARG_K_WORD:
	case IBP_ARG_K_INDEX:
		if ((k = word_index(o->words, val)) < 0)
			return ibp_error_set(err, IBP_EINVAL,
					     "%s is one of %s, not '%s'", name,
					     o->words, val);
		if (o->kind == IBP_ARG_K_WORD)
			*(const char **)o->dest = val;
		else
			*(int *)o->dest = k;
		return IBP_OK;
	case IBP_ARG_K_SIZE:
		if (!ibp_input_size_parse(val, o->dest))
			return ibp_error_set(err, IBP_EINVAL,
					     "%s wants bytes, or a number with "
					     "K, M or G, not '%s'",
					     name, val);
		return IBP_OK;
	case IBP_ARG_K_FN:
		break;
	}
	return o->fn(cmd, o->dest, val) ? IBP_EINVAL : IBP_OK;
}

/* One option of --help: its spellings and value name (long-only ones
 * indented past the short ones' "-x, "), then its help wrapped at word
 * boundaries into lines from column 25 to 80. */
static void print_opt(const struct ibp_arg_opt *o, FILE *fp)
{
	if (!o->help)
		return; /* hidden */
	char names[160] = "";
	size_t n = 0;
	for (const char *p = o->names; *p && n < sizeof(names) - 2; p++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s",
				      *p == '|' ? ", " : (char[]){*p, 0});
	if (o->arg)
		snprintf(names + n, sizeof(names) - n, " %s", o->arg);
	int lead = o->names[1] == '-' ? 6 : 2, col = 24;
	int at = fprintf(fp, "%*s%s", lead, "", names);
	bool fresh = true; /* at the start of the help column */
	if (at >= col)
		at = fprintf(fp, "\n%*s", col, "") - 1;
	else
		at += fprintf(fp, "%*s", col - at, "");
	for (const char *h = o->help; *h;) {
		h += strspn(h, " \n");
		size_t len = strcspn(h, " \n");
		if (!len)
			break;
		if (!fresh && at + 1 + (int)len > 79) {
			at = fprintf(fp, "\n%*s", col, "") - 1;
			fresh = true;
		}
		at += fprintf(fp, "%s%.*s", fresh ? "" : " ", (int)len, h);
		fresh = false;
		h += len;
	}
	fputc('\n', fp);
}

/* --help: usage, the options, the tail. */
static void print_help(const struct ibp_args *a, FILE *fp)
{
	fputs(a->usage, fp);
	fputs("\nOptions:\n", fp);
	for (size_t k = 0; k < a->nopts; k++)
		print_opt(&a->opts[k], fp);
	struct ibp_arg_opt help = IBP_ARG_FLAG("-h|--help", NULL, "this text");
	print_opt(&help, fp);
	if (a->tail)
		fprintf(fp, "\n%s", a->tail);
}

/* The option at argv[*i] (o, its inline value val) with its value(s)
 * taken from argv as its kind wants; *i moves past them. */
static int take_option(const struct ibp_args *a, const struct ibp_arg_opt *o,
		       int argc, char **argv, int *i, const char *val,
		       ibp_error *err)
{
	const char *arg = argv[*i], *val2 = NULL;
	char name[128]; /* arg without its "=VALUE" */
	size_t nl = val ? (size_t)(val - arg) - (arg[1] == '-') : strlen(arg);
	snprintf(name, sizeof(name), "%.*s", (int)nl, arg);
	int nval = o->kind == IBP_ARG_K_FLAG   ? 0
		   : o->kind == IBP_ARG_K_STR2 ? 2
					       : 1;
	if (nval == 0 && val)
		return ibp_error_set(err, IBP_EINVAL, "%s takes no value",
				     name);
	if (*i + nval - (val != NULL) >= argc)
		return ibp_error_set(err, IBP_EINVAL, "%s needs %s", name,
				     nval == 2 ? "two values" : "a value");
	if (nval && !val)
		val = argv[++*i];
	if (nval == 2)
		val2 = argv[++*i];
	return take(a->cmd, o, name, val, val2, err);
}

int ibp_args_parse(struct ibp_args *a, int argc, char **argv, FILE *help_out,
		   ibp_error *err)
{
	ibp_error_clear(err);
	a->npos = 0;
	bool options = true;
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (options && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			if (help_out)
				print_help(a, help_out);
			return IBP_ARGS_HELP;
		}
		if (options && arg[0] == '-' && arg[1]) {
			const struct ibp_arg_opt *o = NULL;
			for (size_t k = 0; !o && k < a->nopts; k++)
				if (name_matches(a->opts[k].names, arg, &val))
					o = &a->opts[k];
			char buf[40];
			const char *near =
			    o ? NULL : suggest_option(a, arg, buf);
			if (!o)
				return ibp_error_set(
				    err, IBP_EINVAL,
				    "unknown option '%s'%s%s%s", arg,
				    near ? "; did you mean '" : "",
				    near ? near : "", near ? "'?" : "");
			int rc = take_option(a, o, argc, argv, &i, val, err);
			if (rc)
				return rc;
			continue;
		}
		if (a->stop_at_pos)
			break;
		if (a->npos >= a->max_pos)
			return ibp_error_set(err, IBP_EINVAL,
					     "unexpected argument '%s'", arg);
		a->pos[a->npos++] = arg;
	}
	a->next = i;
	return IBP_OK;
}

int ibp_args_extract(int *argc, char **argv, const struct ibp_arg_opt *opts,
		     size_t nopts, const char *cmd, ibp_error *err)
{
	ibp_error_clear(err);
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *arg = argv[i], *val = NULL;
		if (!strcmp(arg, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		const struct ibp_arg_opt *o = NULL;
		for (size_t k = 0; !o && k < nopts; k++)
			if (name_matches(opts[k].names, arg, &val))
				o = &opts[k];
		if (!o || (o->kind == IBP_ARG_K_FLAG && val)) {
			argv[out++] = argv[i]; /* the command's */
			continue;
		}
		struct ibp_args a = {.cmd = cmd};
		int rc = take_option(&a, o, *argc, argv, &i, val, err);
		if (rc)
			return rc;
	}
	argv[out] = NULL;
	*argc = out;
	return IBP_OK;
}
