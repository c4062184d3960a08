/*
 * cli.c - helpers shared by the subcommands (see cli.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ibpart %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'ibpart %s --help')\n", cmd);
	return CLI_EXIT_USAGE;
}

void cli_print_error(const ibp_error *err)
{
	char buf[1024];
	ibp_error_format(err, buf, sizeof(buf));
	fprintf(stderr, "ibpart: %s\n", buf);
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	}
	return false;
}

int cli_print_usage(const struct cli_cmd *cmd)
{
	fputs(cmd->usage, stdout);
	return CLI_EXIT_OK;
}

const char *cli_conf_path(const char *cmd, int argc, char **argv, int optind,
			  const char *conf_arg)
{
	if (optind != argc - (conf_arg ? 0 : 1)) {
		cli_usage_error(cmd, "expected one CONF file");
		return NULL;
	}
	return conf_arg ? conf_arg : argv[optind];
}

int cli_read_plan(const char *topo, const char *nnm, const char *path,
		  ibp_conf_options *co, ibp_fabric **fabric, ibp_conf **conf,
		  ibp_diags **diags)
{
	*fabric = NULL;
	*conf = NULL;
	*diags = NULL;
	if (topo) {
		ibp_fabric_options fo;
		ibp_fabric_options_init(&fo);
		fo.node_name_map = nnm;
		int rc = cli_load_fabric(topo, &fo, fabric);
		if (rc)
			return rc;
	}
	co->fabric = *fabric;
	*diags = ibp_diags_new();
	if (!*diags) {
		ibp_fabric_free(*fabric);
		*fabric = NULL;
		return CLI_EXIT_SYSTEM;
	}
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_conf_parse_file(path, co, conf, *diags, &err);
	if (rc) {
		cli_print_error(&err);
		ibp_diags_free(*diags);
		ibp_fabric_free(*fabric);
		*diags = NULL;
		*fabric = NULL;
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	ibp_diags_sort(*diags);
	return CLI_EXIT_OK;
}

int cli_load_fabric(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out)
{
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	int rc = ibp_fabric_load(path, o, out, d);
	ibp_diags_sort(d); /* in file order, as the plan's are */
	ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	if (rc == IBP_OK)
		return CLI_EXIT_OK;
	/* A topology file that is missing or unreadable is bad input (2),
	 * as a missing partitions.conf is; only the machine failing is 3. */
	if (rc == IBP_ENOMEM)
		return CLI_EXIT_SYSTEM;
	return CLI_EXIT_USAGE;
}

bool cli_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

void cli_progress(void *ctx, long elapsed_ms, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "[%6.3f s] %s\n", elapsed_ms / 1000.0, msg);
}
