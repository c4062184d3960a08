/*
 * cli_args.c - the one option parser every subcommand uses (cli.h).
 *
 * A command describes its options in a table (every spelling of a name,
 * the kind of value, where it goes, its range or its words) and this file
 * walks argv once: options anywhere before "--" (or, for `sim`, before the
 * first action), `--name=value` for long names and `-xVALUE` for short
 * ones, the shared input options of struct cli_input by its `takes` bits,
 * and the positional arguments left over.  Every usage error is printed
 * here, in one wording, so the commands only check what spans options.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ibpart/tables.h"

/* The shared input options (struct cli_input), by CLI_IN_* bit. */
static const struct {
	unsigned bit;
	const char *names;
} input_names[] = {
    {CLI_IN_TOPO, "-t|--topo|--topology"}, {CLI_IN_CONF, "-c|--conf"},
    {CLI_IN_NNM, "--node-name-map"},	   {CLI_IN_DIALECT, "--dialect"},
    {CLI_IN_SM_PORT, "--sm-port"},	   {CLI_IN_MODE, "--mode"}};

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

/* The option argv[i] names, from the command's table or the shared
 * input options; NULL when none. */
static const struct cli_opt *find(struct cli_args *a, const char *arg,
				  const char **inline_val,
				  struct cli_opt *scratch)
{
	for (size_t k = 0; k < a->nopts; k++)
		if (name_matches(a->opts[k].names, arg, inline_val))
			return &a->opts[k];
	struct cli_input *in = a->in;
	for (size_t k = 0; in && k < sizeof(input_names) / sizeof(*input_names);
	     k++) {
		if (!(in->takes & input_names[k].bit) ||
		    !name_matches(input_names[k].names, arg, inline_val))
			continue;
		const char **slot[] = {&in->topo,	   &in->conf,
				       &in->node_name_map, NULL,
				       &in->sm_port,	   &in->mode};
		*scratch =
		    (struct cli_opt){input_names[k].names, CLI_K_STR, slot[k]};
		if (input_names[k].bit == CLI_IN_DIALECT)
			*scratch = (struct cli_opt)CLI_INDEX(
			    "--dialect", &in->dialect, "auto|opensm|seed");
		if (input_names[k].bit == CLI_IN_MODE)
			scratch->kind = CLI_K_WORD,
			scratch->words = "opensm|strict";
		return scratch;
	}
	return NULL;
}

int cli_args_parse(struct cli_args *a, int argc, char **argv)
{
	a->npos = 0;
	bool options = true;
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *val2 = NULL;
		struct cli_opt scratch;
		const struct cli_opt *o = NULL;
		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (options && arg[0] == '-' && arg[1]) {
			if (!(o = find(a, arg, &val, &scratch)))
				return cli_usage_error(
				    a->cmd, "unknown option '%s'", arg);
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
