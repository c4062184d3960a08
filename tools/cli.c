/*
 * cli.c - helpers shared by the subcommands (see cli.h).
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ibpart/sys/escape.h"
#include "ibpart/limits.h"
#include "ibpart/sys/progress.h"
#include "ibpart/sys/diag.h"

/* fmt's line on stderr, escaped (escape.h), and a newline. */
static void vsay(const char *fmt, va_list ap)
{
	char *line = NULL;
	int n = vasprintf(&line, fmt, ap);
	if (n >= 0)
		ibp_escape_write(stderr, line, (size_t)n);
	fputc('\n', stderr);
	free(line);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s%s: ", cli_program, cmd);
	va_start(ap, fmt);
	vsay(fmt, ap); /* it may quote an argument */
	va_end(ap);
	fprintf(stderr, "(see '%s%s --help')\n", cli_program, cmd);
	return CLI_EXIT_USAGE;
}

int cli_stdin_once(const char *cmd, const char *const *paths, size_t n)
{
	size_t dashes = 0;
	for (size_t i = 0; i < n; i++)
		dashes += paths[i] && !strcmp(paths[i], "-");
	if (dashes < 2)
		return 0;
	return cli_usage_error(cmd,
			       "the standard input (-) is given for %zu "
			       "inputs; it can be read once",
			       dashes);
}

void cli_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void cli_print_message(const char *who, const char *msg)
{
	fprintf(stderr, "%s: ", who);
	/* a message may quote its input (a JSON key, a file name): one
	 * line, nothing a terminal acts on (escape.h) */
	ibp_escape_write(stderr, msg, strlen(msg));
	fputc('\n', stderr);
}

void cli_print_error(const ibp_error *err)
{
	char buf[1024];
	ibp_error_format(err, buf, sizeof(buf));
	cli_print_message(cli_name, buf);
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

int cli_read_plan(const char *cmd, const struct cli_input *in, const char *path,
		  const ibp_conf_options *co, ibp_plan *p)
{
	const char *inputs[] = {in->topo, in->node_name_map, in->alias_guids,
				path};
	if (cli_stdin_once(cmd, inputs, 4))
		return CLI_EXIT_USAGE;
	ibp_plan_read_options o;
	ibp_plan_read_options_init(&o, IBP_PLAN_READ_OPTIONS_VERSION);
	o.topology_path = in->topo;
	o.node_name_map = in->node_name_map;
	o.plan_path = path;
	ibp_conf_options conf = *co;
	conf.alias_guids_path = in->alias_guids;
	conf.vf_guids = (ibp_vf_guids)in->vf_guids;
	o.conf = &conf;
	o.max_input_size = cli_common.max_input_size;
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	/* the topology's findings, then the failure unless one said it */
	return cli_op_end(&op, ibp_plan_read(&o, p, op.diags, &op.err), 0);
}

int cli_load_fabric(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out)
{
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	ibp_fabric_options fo;
	if (o)
		fo = *o;
	else
		ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	if (!fo.max_input_size)
		fo.max_input_size = cli_common.max_input_size;
	int rc = ibp_fabric_load(path, &fo, out, d);
	ibp_diags_sort(d); /* in file order, as the plan's are */
	cli_print_diags(d);
	ibp_diags_free(d);
	/* A topology file that is missing or unreadable is bad input (2),
	 * as a missing partitions.conf is; only the machine failing is 3. */
	return cli_exit_status(rc, NULL);
}

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	if (stop_asked)
		_exit(128 + sig); /* a second ^C: now */
	stop_asked = 1;
	static const char msg[] = "ibpart: stopping at the next port "
				  "(again to stop at once) ...\n";
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		stop_asked = 1;
}

static bool stop_requested(void *ctx)
{
	(void)ctx;
	return stop_asked;
}

void cli_catch_stop(bool (**cancel)(void *ctx))
{
	struct sigaction sa = {.sa_handler = on_stop, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++) {
		int sig = i ? SIGTERM : SIGINT;
		struct sigaction old;
		/* a signal the caller ignores (a script's `cmd &`) stays so */
		if (sigaction(sig, NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
	}
	*cancel = stop_requested;
}

void cli_progress(void *ctx, long elapsed_ms, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "[%6.3f s] %s\n", elapsed_ms / 1000.0, msg);
}

/* The CLI's settings from the common options: the program's, not the
 * library's (which keeps no globals). */
struct cli_common cli_common = {.max_errors = 20};
const char *cli_program = "ibpart ";
const char *cli_name = "ibpart";

static ibp_progress_printer progress_printer;

const ibp_progress *cli_progress_hook(void)
{
	return cli_common.progress || isatty(STDERR_FILENO)
		   ? &progress_printer.hook
		   : NULL;
}

int cli_common_options(int *argc, char **argv)
{
	const struct cli_opt opts[] = {
	    CLI_FLAG("--progress", &cli_common.progress, NULL),
	    CLI_NUM("--max-errors", &cli_common.max_errors, 0, 1000000000, NULL,
		    NULL),
	    IBP_ARG_SIZE("--max-input-size", &cli_common.max_input_size, NULL,
			 NULL)};
	ibp_error err;
	if (ibp_args_extract(argc, argv, opts, CLI_NOPTS(opts), "ibpart",
			     &err)) {
		cli_print_message("ibpart", err.message);
		return CLI_EXIT_USAGE;
	}
	/* without --progress, only for work over a second */
	ibp_progress_printer_init(&progress_printer, stderr,
				  "ibpart: ", cli_common.progress ? 0 : 1000);
	return CLI_EXIT_OK;
}

int cli_put_json(char *s, FILE *out)
{
	bool ok = s && fprintf(out, "%s\n", s) > 0;
	free(s);
	return ok ? CLI_EXIT_OK : CLI_EXIT_SYSTEM;
}

void cli_print_diags(const ibp_diags *d)
{
	ibp_diags_print_options o;
	ibp_diags_print_options_init(&o, IBP_DIAGS_PRINT_OPTIONS_VERSION);
	o.max_errors = cli_common.max_errors;
	(void)ibp_diags_print_ex(d, &o, stderr); /* this version: IBP_OK */
}

int cli_exit_status(int rc, const ibp_error *err)
{
	switch (rc) {
	case IBP_OK:
		return CLI_EXIT_OK;
	case IBP_ENOMEM:
	case IBP_ETIMEDOUT:
	case IBP_EMAD:
	case IBP_ESHORT:
	case IBP_ECANCELED:
	case IBP_EBUSY:
		return CLI_EXIT_SYSTEM;
	case IBP_EIO: /* an input file that cannot be read is bad input */
		return !err || err->file[0] ? CLI_EXIT_USAGE : CLI_EXIT_SYSTEM;
	default: /* EINVAL, EPARSE, ERANGE, ENOENT, EFULL: the input */
		return CLI_EXIT_USAGE;
	}
}

int cli_output_status(int rc)
{
	return rc == IBP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_SYSTEM;
}

int cli_op_begin(struct cli_op *op)
{
	ibp_error_clear(&op->err);
	op->diags = ibp_diags_new();
	return op->diags ? CLI_EXIT_OK : CLI_EXIT_SYSTEM;
}

int cli_op_end(struct cli_op *op, int rc, unsigned flags)
{
	if (flags & CLI_OP_SERIOUS)
		ibp_diags_sort(op->diags);
	if (!(flags & CLI_OP_SERIOUS) ||
	    ibp_diags_count_severity(op->diags, IBP_SEV_ERROR) ||
	    ibp_diags_count_severity(op->diags, IBP_SEV_WARNING))
		cli_print_diags(op->diags);
	if (rc && (flags & CLI_OP_ERROR))
		cli_print_error(&op->err);
	else if (rc)
		cli_print_failure(op->diags, &op->err);
	ibp_diags_free(op->diags);
	op->diags = NULL;
	return cli_exit_status(rc, &op->err);
}

void cli_print_failure(const ibp_diags *d, const ibp_error *err)
{
	if (!ibp_diags_has_error(d, err))
		cli_print_error(err);
}
