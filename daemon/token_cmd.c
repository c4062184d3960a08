/*
 * token_cmd.c - `ibpartd token`: the tokens of /ufmRestV3 listed or
 * revoked from the command line, on the daemon's database, also while
 * the daemon runs (it reads a token's row at every request, so a
 * revocation takes effect at the next one) - as GET and DELETE
 * /ufmRest/app/tokens do through the API.  With --store, on the shared
 * store first, so a revocation holds on every SM host's daemon.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpartd.h"

static const char usage[] =
    "usage: ibpartd token --db FILE [--store URL] list\n"
    "       ibpartd token --db FILE [--store URL] revoke ID...\n"
    "\n"
    "List every token of the API (their public part, user, role, issue,\n"
    "expiry and last use, as JSON; never the secret: only its hash is\n"
    "stored), or revoke tokens by their ID (the first 16 characters of\n"
    "the token, token_id in the list).  Works while ibpartd runs.  With\n"
    "daemons sharing a store (--store), give it here too: the revocation\n"
    "is made in the store, so it holds on every host; without it, only\n"
    "this host's cache (FILE) is changed.\n";

static const char tail[] =
    "Exit: 0 done; 2 bad usage or no such token; 3 the database or the\n"
    "store failed.\n";

int token_main(int argc, char **argv)
{
	const char *db = NULL, *store = NULL;
	const struct cli_opt opts[] = {
	    CLI_STR("--db", &db, "FILE", "the daemon's SQLite database"),
	    CLI_STR("--store", &store, "URL",
		    "the daemons' shared store (postgresql://...)"),
	};
	struct cli_args a = {"ibpartd token", usage, tail, opts,
			     CLI_NOPTS(opts), 0};
	a.stop_at_pos = true;
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
	if (!db || a.next >= argc)
		return cli_usage_error("ibpartd token",
				       "--db FILE and list or revoke ID...");
	if (store && strncmp(store, "postgresql://", 13) &&
	    strncmp(store, "postgres://", 11))
		return cli_usage_error(
		    "ibpartd token", "--store: a postgresql:// URL (not '%s')",
		    store);
	const char *verb = argv[a.next];
	ibp_error err;
	if (!strcmp(verb, "list") && a.next + 1 == argc) {
		char *j = NULL;
		if (ibp_service_store_tokens_json(store, db, &j, &err)) {
			cli_print_message("ibpartd token", err.message);
			return CLI_EXIT_SYSTEM;
		}
		printf("%s\n", j);
		free(j);
		return CLI_EXIT_OK;
	}
	if (strcmp(verb, "revoke") || a.next + 1 >= argc)
		return cli_usage_error(
		    "ibpartd token", "list, or revoke ID... (not '%s')", verb);
	rc = CLI_EXIT_OK;
	for (int i = a.next + 1; i < argc; i++) {
		int one =
		    ibp_service_store_token_revoke(store, db, argv[i], &err);
		if (!one) {
			printf("%s: revoked\n", argv[i]);
			continue;
		}
		daemon_log("ibpartd token: %s: %s", argv[i], err.message);
		if (rc < (one == IBP_ENOENT ? CLI_EXIT_USAGE : CLI_EXIT_SYSTEM))
			rc = one == IBP_ENOENT ? CLI_EXIT_USAGE
					       : CLI_EXIT_SYSTEM;
	}
	return rc;
}
