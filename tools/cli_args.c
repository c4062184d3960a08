/*
 * cli_args.c - the argv side of every subcommand (cli.h): the library's
 * option parser (front/args.h) with its usage errors printed the CLI's
 * way, and the option readers several commands share.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ibpart/analysis.h"
#include "ibpart/sys/suggest.h"
#include "ibpart/tables.h"

int cli_args_parse(struct cli_args *a, int argc, char **argv)
{
	ibp_error err;
	int rc = ibp_args_parse(a, argc, argv, stdout, &err);
	if (rc == IBP_ARGS_HELP)
		return CLI_HELP_SHOWN;
	if (rc && err.message[0]) /* else an option's reader said it */
		return cli_usage_error(a->cmd, "%s", err.message);
	return rc ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

const char *cli_conf_path(const char *cmd, const struct cli_input *in,
			  const struct cli_args *a)
{
	const char *path = NULL;
	ibp_error err;
	if (ibp_input_args_conf_path(in, a, &path, &err))
		cli_usage_error(cmd, "%s", err.message);
	return path;
}

int cli_take_conf(const char *cmd, struct cli_input *in,
		  const struct cli_args *a)
{
	ibp_error err;
	if (ibp_input_args_take_conf(in, a, &err))
		return cli_usage_error(cmd, "%s", err.message);
	return CLI_EXIT_OK;
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
