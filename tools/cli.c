/*
 * cli.c - helpers shared by the subcommands (see cli.h).
 */
#include <errno.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	cli_print_diags(d);
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

/* The CLI_IN_* bit of a getopt code, 0 when none. */
static unsigned input_bit(int ch)
{
	switch (ch) {
	case 't':
		return CLI_IN_TOPO;
	case 'c':
		return CLI_IN_CONF;
	case CLI_OPT_NNM:
		return CLI_IN_NNM;
	case CLI_OPT_DIALECT:
		return CLI_IN_DIALECT;
	case CLI_OPT_SM_PORT:
		return CLI_IN_SM_PORT;
	case CLI_OPT_MODE:
		return CLI_IN_MODE;
	default:
		return 0;
	}
}

int cli_input_getopt(const char *cmd, struct cli_input *in, int ch,
		     const char *arg)
{
	unsigned bit = input_bit(ch);
	if (!(bit & in->takes))
		return 0;
	if (bit == CLI_IN_DIALECT) {
		if (!strcmp(arg, "auto"))
			in->dialect = IBP_CONF_DIALECT_AUTO;
		else if (!strcmp(arg, "opensm"))
			in->dialect = IBP_CONF_DIALECT_OPENSM;
		else if (!strcmp(arg, "seed"))
			in->dialect = IBP_CONF_DIALECT_SEED;
		else {
			cli_usage_error(cmd, "unknown dialect '%s'", arg);
			return -1;
		}
		return 1;
	}
	if (bit == CLI_IN_MODE && strcmp(arg, "opensm") &&
	    strcmp(arg, "strict")) {
		cli_usage_error(cmd, "--mode is opensm or strict, not '%s'",
				arg);
		return -1;
	}
	const char **slot[] = {&in->topo, &in->conf,	&in->node_name_map,
			       NULL,	  &in->sm_port, &in->mode};
	*slot[__builtin_ctz(bit)] = arg;
	return 1;
}

int cli_input_opt(const char *cmd, struct cli_input *in, int argc, char **argv,
		  int *i)
{
	static const struct {
		const char *name;
		int ch;
	} names[] = {{"-t", 't'},
		     {"--topo", 't'},
		     {"--topology", 't'},
		     {"-c", 'c'},
		     {"--conf", 'c'},
		     {"--node-name-map", CLI_OPT_NNM},
		     {"--dialect", CLI_OPT_DIALECT},
		     {"--sm-port", CLI_OPT_SM_PORT},
		     {"--mode", CLI_OPT_MODE}};
	const char *a = argv[*i];
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (strcmp(a, names[k].name))
			continue;
		if (!(input_bit(names[k].ch) & in->takes))
			return 0;
		if (*i + 1 >= argc) {
			cli_usage_error(cmd, "%s needs a value", a);
			return -1;
		}
		return cli_input_getopt(cmd, in, names[k].ch, argv[++*i]);
	}
	return 0;
}

/* The CLI's settings from the common options: the program's, not the
 * library's (which keeps no globals). */
struct cli_common cli_common = {.max_errors = 20};

static struct timespec cli_start;

static long ms_since_start(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - cli_start.tv_sec) * 1000 +
	       (now.tv_nsec - cli_start.tv_nsec) / 1000000;
}

static void progress_line(void *ctx, const char *what, uint64_t done,
			  uint64_t total)
{
	static long last_ms = -1000;
	static const char *last_what;
	(void)ctx;
	long ms = ms_since_start();
	if (!cli_common.progress && ms < 1000)
		return;
	bool news = what != last_what || done == total;
	if (!news && ms - last_ms < 500)
		return;
	last_ms = ms;
	last_what = what;
	if (total)
		fprintf(stderr, "ibpart: [%5.1f s] %s: %llu/%llu (%.0f%%)\n",
			ms / 1000.0, what, (unsigned long long)done,
			(unsigned long long)total,
			100.0 * (double)done / total);
	else
		fprintf(stderr, "ibpart: [%5.1f s] %s: %llu\n", ms / 1000.0,
			what, (unsigned long long)done);
}

const ibp_progress *cli_progress_hook(void)
{
	static const ibp_progress hook = {progress_line, NULL};
	return cli_common.progress || isatty(STDERR_FILENO) ? &hook : NULL;
}

int cli_common_options(int *argc, char **argv)
{
	int out = 1;
	clock_gettime(CLOCK_MONOTONIC, &cli_start);
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		const char *val = NULL;
		if (!strcmp(a, "--progress")) {
			cli_common.progress = true;
			continue;
		}
		if (!strcmp(a, "--max-errors")) {
			if (i + 1 >= *argc) {
				fprintf(stderr, "ibpart: --max-errors needs a "
						"value\n");
				return CLI_EXIT_USAGE;
			}
			val = argv[++i];
		} else if (!strncmp(a, "--max-errors=", 13)) {
			val = a + 13;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		unsigned long long v;
		if (!cli_parse_uint(val, 0, 1000000000, &v)) {
			fprintf(stderr, "ibpart: bad --max-errors '%s'\n", val);
			return CLI_EXIT_USAGE;
		}
		cli_common.max_errors = (size_t)v;
	}
	argv[out] = NULL;
	*argc = out;
	return CLI_EXIT_OK;
}

void cli_print_diags(const ibp_diags *d)
{
	ibp_diags_print_options o;
	ibp_diags_print_options_init(&o);
	o.max_errors = cli_common.max_errors;
	ibp_diags_print_ex(d, &o, stderr);
}

int cli_exit_status(int rc)
{
	if (rc == IBP_OK)
		return CLI_EXIT_OK;
	return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
}

void cli_print_failure(const ibp_diags *d, const ibp_error *err)
{
	for (size_t i = 0; d && i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_ERROR && x->line == err->line &&
		    x->col == err->col && !strcmp(x->file, err->file) &&
		    !strcmp(x->message, err->message))
			return;
	}
	cli_print_error(err);
}

int cli_num_getopt(const char *cmd, const struct cli_num *t, size_t n, int ch,
		   const char *arg)
{
	for (size_t k = 0; k < n; k++) {
		if (t[k].code != ch)
			continue;
		unsigned long long v;
		if (!cli_parse_uint(arg, t[k].min, t[k].max, &v)) {
			if (!t[k].bad)
				cli_usage_error(cmd,
						"%s wants a number %llu..%llu, "
						"not '%s'",
						t[k].name, t[k].min, t[k].max,
						arg);
			else if (t[k].range)
				cli_usage_error(cmd, "%s '%s' (%llu..%llu)",
						t[k].bad, arg, t[k].min,
						t[k].max);
			else
				cli_usage_error(cmd, "%s '%s'", t[k].bad, arg);
			return -1;
		}
		if (t[k].size == sizeof(uint64_t)) {
			uint64_t u = v;
			memcpy(t[k].dest, &u, sizeof(u));
		} else {
			unsigned u = (unsigned)v;
			memcpy(t[k].dest, &u, sizeof(u));
		}
		return 1;
	}
	return 0;
}

int cli_cap_getopt(const char *cmd, ibp_fabric_options *fo, int ch,
		   const char *arg)
{
	const struct cli_num caps[] = {
	    CLI_NUM(CLI_OPT_CA_CAP, "--ca-partition-cap", 1, 65535,
		    &fo->ca_partition_cap, "bad capacity", true),
	    CLI_NUM(CLI_OPT_SW_CAP, "--switch-partition-cap", 1, 65535,
		    &fo->switch_partition_cap, "bad capacity", true),
	    CLI_NUM(CLI_OPT_ENF_CAP, "--enforcement-cap", 1, 65535,
		    &fo->enforcement_cap, "bad capacity", true)};
	int r = cli_num_getopt(cmd, caps, 3, ch, arg);
	return r ? r
		 : cli_subnet_getopt(cmd, &fo->linear_fdb_cap,
				     &fo->multicast_fdb_cap, &fo->lmc, ch, arg);
}

int cli_subnet_getopt(const char *cmd, unsigned *lft_cap, unsigned *mft_cap,
		      unsigned *lmc, int ch, const char *arg)
{
	const struct cli_num t[] = {
	    CLI_NUM(CLI_OPT_LFT_CAP, "--lft-cap", 2, 65535, lft_cap,
		    "bad LinearFDBCap", true),
	    CLI_NUM(CLI_OPT_MFT_CAP, "--mft-cap", 1, 65535, mft_cap,
		    "bad MulticastFDBCap", true),
	    CLI_NUM(CLI_OPT_LMC, "--lmc", 0, 7, lmc, "bad LMC", true)};
	return cli_num_getopt(cmd, t, 3, ch, arg);
}

int cli_subnet_opt(const char *cmd, unsigned *lft_cap, unsigned *mft_cap,
		   unsigned *lmc, int argc, char **argv, int *i)
{
	static const struct {
		const char *name;
		int ch;
	} names[] = {{"--lft-cap", CLI_OPT_LFT_CAP},
		     {"--mft-cap", CLI_OPT_MFT_CAP},
		     {"--lmc", CLI_OPT_LMC}};
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (strcmp(argv[*i], names[k].name))
			continue;
		if (*i + 1 >= argc) {
			cli_usage_error(cmd, "%s needs a value", argv[*i]);
			return -1;
		}
		++*i;
		return cli_subnet_getopt(cmd, lft_cap, mft_cap, lmc,
					 names[k].ch, argv[*i]);
	}
	return 0;
}

int cli_mkey_file(const char *cmd, const char *path, uint64_t *out)
{
	struct stat st;
	FILE *fp = fopen(path, "r");
	if (!fp || fstat(fileno(fp), &st)) {
		fprintf(stderr,
			"ibpart %s: cannot read the M_Key file %s: %s\n", cmd,
			path, strerror(errno));
		if (fp)
			fclose(fp);
		return CLI_EXIT_USAGE;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		fclose(fp);
		fprintf(stderr,
			"ibpart %s: the M_Key file %s is readable by others "
			"(chmod 600 it)\n",
			cmd, path);
		return CLI_EXIT_USAGE;
	}
	char line[256], word[64] = "";
	while (!word[0] && fgets(line, sizeof(line), fp)) {
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		if (sscanf(line, "%63s", word) != 1)
			word[0] = 0;
	}
	fclose(fp);
	unsigned long long v;
	if (!word[0] || !cli_parse_uint(word, 0, UINT64_MAX, &v)) {
		fprintf(stderr,
			"ibpart %s: the M_Key file %s holds no number\n", cmd,
			path);
		return CLI_EXIT_USAGE;
	}
	*out = v;
	return CLI_EXIT_OK;
}
