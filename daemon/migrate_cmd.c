/*
 * migrate_cmd.c - `ibpartd migrate --from sqlite:FILE --to
 * postgresql://...`: one host's database moved into the shared store
 * before the SM pair's ibpartd start on it (docs/ha.md).  The copy is
 * the library's (ibp_service_store_migrate): one transaction, refused
 * when the store already holds revisions.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ibpartd.h"

static const char usage[] =
    "usage: ibpartd migrate --from sqlite:FILE --to postgresql://...\n"
    "\n"
    "Copy the partitions, members, revisions, tokens (hashed) and\n"
    "OpenSM's index memory of the SQLite database FILE (stop the ibpartd\n"
    "that uses it first) into the shared store every SM host's ibpartd\n"
    "then starts with --store.  The store's schema is created or brought\n"
    "up to date; a store that already holds revisions is left alone.\n";

static const char tail[] =
    "Exit: 0 copied; 2 bad usage or a store already in use; 3 a database "
    "failed.\n";

int migrate_main(int argc, char **argv)
{
	const char *from = NULL, *to = NULL;
	const struct cli_opt opts[] = {
	    CLI_STR("--from", &from, "sqlite:FILE",
		    "the SQLite database (ibpartd's --db)"),
	    CLI_STR("--to", &to, "URL",
		    "the shared store (postgresql://USER@HOST/DB)"),
	};
	struct cli_args a = {"ibpartd migrate", usage, tail, opts,
			     CLI_NOPTS(opts),	0};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
	if (!from || !to || strncmp(from, "sqlite:", 7) || a.next < argc)
		return cli_usage_error("ibpartd migrate",
				       "--from sqlite:FILE and --to "
				       "postgresql://...");
	ibp_error err;
	size_t rows = 0;
	rc = ibp_service_store_migrate(from + 7, to, &rows, &err);
	if (rc) {
		cli_print_message("ibpartd migrate", err.message);
		return rc == IBP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_SYSTEM;
	}
	printf("%zu rows copied from %s into the shared store\n", rows,
	       from + 7);
	return CLI_EXIT_OK;
}
