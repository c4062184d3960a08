/*
 * adopt.c - `ibpartd adopt`: the operator's P_Keys handed to the API
 * from the command line, on the database and the partitions file
 * directly, while the daemon is stopped (the library's ibp_service_adopt,
 * as POST /ibpart/v1/adopt runs it in the daemon).  The service holds a
 * lock on its database for its life, so with the daemon running this
 * refuses and says to use the API: two services on one database would
 * each hold a plan the other changes behind it.  Each revision records
 * the local user who ran it (via "command", from "local").
 */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ibpartd.h"

static const char usage[] =
    "usage: ibpartd adopt --db FILE --partitions FILE [--topology FILE]\n"
    "                     [--sm-port PORT] [--opensm-conf FILE] PKEY...\n"
    "\n"
    "Hand the operator's P_Keys to the API: each PKEY's statements leave\n"
    "the operator's lines of the partitions file (a comment takes their\n"
    "place) and become an API partition in the generated section, one\n"
    "revision each, the file rewritten at once - as POST\n"
    "/ibpart/v1/adopt does in a running daemon.  The isolation guard\n"
    "judges each (with --topology as the daemon's).  ibpartd must be\n"
    "stopped: while it runs, its database is locked; use the API then.\n";

static const char tail[] =
    "Exit: 0 every PKEY adopted; 1 the isolation guard refused one; 2 bad\n"
    "input (not a P_Key the operator's lines define, a statement with\n"
    "ALL, SELF or a name); 3 the system failed, or ibpartd is running.\n";

/* One P_Key; the exit status of its outcome. */
static int adopt_one(ibp_service *svc, const char *pkey)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	if (!ibp_service_adopt(svc, pkey, &rev, &e)) {
		printf("%s: adopted, revision %llu\n", pkey,
		       (unsigned long long)rev);
		return CLI_EXIT_OK;
	}
	int http = ibp_service_error_http(&e);
	cli_say("ibpartd adopt: %s: %s", pkey, e.err.message);
	if (e.findings)
		cli_say("ibpartd adopt: the findings: %s", e.findings);
	ibp_service_error_clear(&e);
	return http == 409   ? CLI_EXIT_FOUND
	       : http == 500 ? CLI_EXIT_SYSTEM
			     : CLI_EXIT_USAGE;
}

int adopt_main(int argc, char **argv)
{
	struct ibp_service_options so;
	ibp_service_options_init(&so, IBP_SERVICE_OPTIONS_VERSION);
	const char *opensm_conf = NULL;
	const struct cli_opt opts[] = {
	    CLI_STR("--db", &so.db_path, "FILE",
		    "the daemon's SQLite database"),
	    CLI_STR("--partitions", &so.partitions_path, "FILE",
		    "OpenSM's partitions.conf, the daemon's --partitions"),
	    CLI_STR("--topology", &so.topology_path, "FILE",
		    "the fabric the isolation guard audits the change on"),
	    CLI_STR("--sm-port", &so.sm_port, "PORT",
		    "the SM's port for the audit"),
	    CLI_STR("--opensm-conf", &opensm_conf, "FILE",
		    "OpenSM's opensm.conf (its allow_both_pkeys)"),
	};
	struct cli_args a = {"ibpartd adopt", usage, tail, opts,
			     CLI_NOPTS(opts), 0};
	a.stop_at_pos = true;
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
	if (!so.db_path || !so.partitions_path)
		return cli_usage_error("ibpartd adopt",
				       "--db and --partitions are required");
	if (a.next >= argc)
		return cli_usage_error("ibpartd adopt",
				       "which P_Keys? (e.g. 0x10)");
	ibp_error err;
	ibp_osm_conf osm = {.version = IBP_OSM_CONF_VERSION};
	if (opensm_conf) {
		if (ibp_osm_conf_load_diags(opensm_conf, &osm, NULL, &err)) {
			cli_print_message("ibpartd adopt", err.message);
			return CLI_EXIT_USAGE;
		}
		so.opensm_conf_path = opensm_conf;
		so.allow_both_pkeys = osm.allow_both_pkeys;
	}
	ibp_service *svc = NULL;
	if (ibp_service_open(&so, &svc, &err)) {
		cli_print_message("ibpartd adopt", err.message);
		if (err.status == IBP_EBUSY)
			daemon_log("ibpartd adopt: while ibpartd runs, "
				   "adopt through its API: POST "
				   "/ibpart/v1/adopt {\"pkey\": \"0x10\"}");
		return err.status == IBP_EINVAL ? CLI_EXIT_USAGE
						: CLI_EXIT_SYSTEM;
	}
	/* the audit trail: the local user who ran the command */
	const struct passwd *pw = getpwuid(geteuid());
	char user[128], request[512];
	snprintf(user, sizeof(user), "%s", pw ? pw->pw_name : "?");
	rc = CLI_EXIT_OK;
	for (int i = a.next; i < argc; i++) {
		snprintf(request, sizeof(request), "ibpartd adopt %.400s",
			 argv[i]);
		ibp_service_actor actor = {user, "command", "local", request};
		ibp_service_actor_set(&actor);
		int one = adopt_one(svc, argv[i]);
		ibp_service_actor_set(NULL);
		if (one > rc)
			rc = one;
	}
	ibp_service_close(svc);
	return rc;
}
