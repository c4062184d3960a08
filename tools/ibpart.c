/*
 * ibpart.c - the command-line entry point: one table of subcommands, each
 * implemented in its own tools/cmd_<name>.c, dispatched by name (the way
 * infiniband-diags' smpquery dispatches its ops from one table).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/sys/suggest.h"
#include "ibpart/version.h"

extern const struct cli_cmd cli_cmd_check, cli_cmd_convert, cli_cmd_tables,
    cli_cmd_matrix, cli_cmd_audit, cli_cmd_sim, cli_cmd_demo, cli_cmd_discover,
    cli_cmd_verify, cli_cmd_apply, cli_cmd_gen, cli_cmd_monitor;

static const struct cli_cmd *const commands[] = {
    &cli_cmd_check,  &cli_cmd_convert, &cli_cmd_tables, &cli_cmd_matrix,
    &cli_cmd_audit,  &cli_cmd_sim,     &cli_cmd_demo,	&cli_cmd_discover,
    &cli_cmd_verify, &cli_cmd_apply,   &cli_cmd_gen,	&cli_cmd_monitor,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char exit_text[] =
    "Exit status:\n"
    "  0  fine\n"
    "  1  the check ran and found something (errors, violations, drift)\n"
    "  2  bad input or usage (a malformed file is reported as file:line:col)\n"
    "  3  the fabric or the system failed us\n";

static void print_main_help(FILE *out)
{
	fprintf(
	    out,
	    "usage: ibpart [--version] [--help] COMMAND [ARGS]\n"
	    "\n"
	    "InfiniBand partitions (P_Keys) from policy to silicon: read a\n"
	    "partitions.conf, compute every port's P_KeyTable as OpenSM "
	    "would,\n"
	    "push it over SMPs, model enforcement, and prove isolation.\n"
	    "\n"
	    "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(out, "  %-9s %s\n", "help", "show the help of a command");
	fprintf(out, "\nEvery command also takes:\n%s", CLI_COMMON_USAGE);
	fprintf(out,
		"\n'ibpart help COMMAND' or 'ibpart COMMAND --help' for "
		"details; man ibpart (installed) or man ./docs/ibpart.1 for "
		"all\nof it.\n\n%s",
		exit_text);
}

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* A command's --help: its parser prints it from its option table. */
static int show_help(const struct cli_cmd *c)
{
	char *argv[] = {(char *)c->name, "--help", NULL};
	int rc = c->run(2, argv);
	return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		print_main_help(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_main_help(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("ibpart %s\n", ibp_version(NULL, NULL, NULL));
		return CLI_EXIT_OK;
	}
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			print_main_help(stdout);
			return CLI_EXIT_OK;
		}
		const struct cli_cmd *c = find_command(argv[2]);
		if (!c) {
			cli_say("ibpart: no command '%s'", argv[2]);
			return CLI_EXIT_USAGE;
		}
		return show_help(c);
	}
	const struct cli_cmd *c = find_command(name);
	if (!c) {
		const char *names[NCOMMANDS + 1];
		size_t n = 0;
		for (size_t i = 0; i < NCOMMANDS; i++)
			names[n++] = commands[i]->name;
		const char *near = ibp_suggest(name, names, n);
		cli_say("ibpart: '%s' is not a command%s%s%s; see 'ibpart "
			"--help'",
			name, near ? " (did you mean '" : "", near ? near : "",
			near ? "'?)" : "");
		return CLI_EXIT_USAGE;
	}
	if (cli_wants_help(argc - 1, argv + 1))
		return show_help(c);
	int rc = c->run(argc - 1, argv + 1);
	return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
}

int main(int argc, char **argv)
{
	cli_heap_setup();
	int rc = cli_common_options(&argc, argv);
	if (rc == CLI_EXIT_OK)
		rc = dispatch(argc, argv);
	/* Output that did not reach stdout (a full disk, a closed pipe's
	 * reader gone) is a failure whatever the command found - --help
	 * and --version included. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ibpart%s%s: cannot write the output: %s\n",
			argc > 1 ? " " : "", argc > 1 ? argv[1] : "",
			strerror(errno));
		return CLI_EXIT_SYSTEM;
	}
	return rc;
}
