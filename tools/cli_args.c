/*
 * cli_args.c - the one option parser every subcommand uses (cli.h).
 *
 * A command describes its options in a table (every spelling of a name,
 * the kind of value, where it goes, its range or its words) and this file
 * walks argv once: options anywhere before "--" (or, for `sim`, before the
 * first action), `--name=value` for long names and `-xVALUE` for short
 * ones, and the positional arguments left over; and --help, listing
 * the same table.  Every usage error is printed
 * here, in one wording, so the commands only check what spans options.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ibpart/analysis.h"
#include "ibpart/suggest.h"
#include "ibpart/tables.h"

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

/* The spelling in the table closest to arg, NULL when none is close. */
static const char *suggest_option(const struct cli_args *a, const char *arg)
{
	static char names[64][40];
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
	return word[1] == '-' ? ibp_suggest(word, cands, n) : NULL;
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

/* Store one option's value(s): 0, or -1 after a usage error. */
static int take(const char *cmd, const struct cli_opt *o, const char *name,
		const char *val, const char *val2)
{
	unsigned long long v;
	int k;
	switch (o->kind) {
	case CLI_K_FLAG:
		*(bool *)o->dest = true;
		return 0;
	case CLI_K_STR:
		*(const char **)o->dest = val;
		return 0;
	case CLI_K_STR2:
		*(const char **)o->dest = val;
		*(const char **)o->dest2 = val2;
		return 0;
	case CLI_K_NUM:
		if (!cli_parse_uint(val, o->min, o->max, &v)) {
			cli_usage_error(cmd,
					"%s wants a number %llu..%llu, "
					"not '%s'",
					name, o->min, o->max, val);
			return -1;
		}
		if (o->size == sizeof(uint64_t)) {
			uint64_t u = v;
			memcpy(o->dest, &u, sizeof(u));
		} else {
			unsigned u = (unsigned)v;
			memcpy(o->dest, &u, sizeof(u));
		}
		return 0;
	case CLI_K_WORD:
	case CLI_K_INDEX:
		if ((k = word_index(o->words, val)) < 0) {
			cli_usage_error(cmd, "%s is one of %s, not '%s'", name,
					o->words, val);
			return -1;
		}
		if (o->kind == CLI_K_WORD)
			*(const char **)o->dest = val;
		else
			*(int *)o->dest = k;
		return 0;
	case CLI_K_FN:
		return o->fn(cmd, o->dest, val) ? -1 : 0;
	}
	return -1;
}

/* The option arg names in the command's table, NULL when none. */
static const struct cli_opt *find(struct cli_args *a, const char *arg,
				  const char **inline_val)
{
	for (size_t k = 0; k < a->nopts; k++)
		if (name_matches(a->opts[k].names, arg, inline_val))
			return &a->opts[k];
	return NULL;
}

/* One option of --help: its spellings and value name (long-only ones
 * indented past the short ones' "-x, "), then its help wrapped at word
 * boundaries into lines from column 25 to 80. */
static void print_opt(const struct cli_opt *o, FILE *fp)
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
static void print_help(struct cli_args *a, FILE *fp)
{
	fputs(a->usage, fp);
	fputs("\nOptions:\n", fp);
	for (size_t k = 0; k < a->nopts; k++)
		print_opt(&a->opts[k], fp);
	struct cli_opt help = CLI_FLAG("-h|--help", NULL, "this text");
	print_opt(&help, fp);
	if (a->tail)
		fprintf(fp, "\n%s", a->tail);
}

int cli_args_parse(struct cli_args *a, int argc, char **argv)
{
	a->npos = 0;
	bool options = true;
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *val2 = NULL;
		const struct cli_opt *o = NULL;
		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (options && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			print_help(a, stdout);
			return CLI_HELP_SHOWN;
		}
		if (options && arg[0] == '-' && arg[1]) {
			if (!(o = find(a, arg, &val))) {
				const char *near = suggest_option(a, arg);
				return cli_usage_error(
				    a->cmd, "unknown option '%s'%s%s%s", arg,
				    near ? "; did you mean '" : "",
				    near ? near : "", near ? "'?" : "");
			}
			char name[128]; /* arg without its "=VALUE" */
			size_t nl = val ? (size_t)(val - arg) - (arg[1] == '-')
					: strlen(arg);
			snprintf(name, sizeof(name), "%.*s", (int)nl, arg);
			int nval = o->kind == CLI_K_FLAG   ? 0
				   : o->kind == CLI_K_STR2 ? 2
							   : 1;
			if (nval == 0 && val)
				return cli_usage_error(
				    a->cmd, "%s takes no value", name);
			if (i + nval - (val != NULL) >= argc)
				return cli_usage_error(
				    a->cmd, "%s needs %s", name,
				    nval == 2 ? "two values" : "a value");
			if (nval && !val)
				val = argv[++i];
			if (nval == 2)
				val2 = argv[++i];
			if (take(a->cmd, o, name, val, val2))
				return CLI_EXIT_USAGE;
			continue;
		}
		if (a->stop_at_pos)
			break;
		if (a->npos >= a->max_pos)
			return cli_usage_error(a->cmd,
					       "unexpected argument '%s'", arg);
		a->pos[a->npos++] = arg;
	}
	a->next = i;
	return CLI_EXIT_OK;
}

const char *cli_conf_path(const char *cmd, const struct cli_input *in,
			  const struct cli_args *a)
{
	if (a->npos != (in->conf ? 0u : 1u)) {
		cli_usage_error(cmd, "expected one CONF file");
		return NULL;
	}
	return in->conf ? in->conf : a->pos[0];
}

int cli_take_severity(const char *cmd, void *dest, const char *val)
{
	if (!ibp_audit_severity_parse(val, dest))
		return 0;
	cli_usage_error(cmd,
			"--fail-on is one of critical|high|medium|info, "
			"not '%s'",
			val);
	return -1;
}

int cli_take_part_enforce(const char *cmd, void *dest, const char *val)
{
	if (!ibp_part_enforce_parse(val, dest))
		return 0;
	cli_usage_error(cmd,
			"--part-enforce is one of both|in|out|off, "
			"not '%s'",
			val);
	return -1;
}
