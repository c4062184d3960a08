/*
 * ibpartd.c - the partition service's program: UFM's P_Key REST API in
 * front of OpenSM (issue 14; docs/ibpartd.md, docs/ibpartd.8).  Reads
 * its options from one table (tools/cli_args.c), checks the users file,
 * opens the service's database (include/ibpart/sys/service.h), writes the
 * partitions file the database implies, starts the applier, the
 * monitor's collector and the HTTP server, tells systemd it is ready,
 * and on SIGTERM/SIGINT stops taking requests, lets the applier finish
 * the change in flight and exits.
 */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>

#include "cli.h"
#include "ibpart/version.h"
#include "ibpartd.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/opensm_conf.h"

static const char usage[] =
    "usage: ibpartd --listen ADDR:PORT (--cert FILE --key FILE | --http)\n"
    "               --users FILE --db FILE\n"
    "               --partitions FILE [--opensm-pidfile FILE]\n"
    "               [--opensm-log FILE] [-C CA] [-P PORT] [--topology "
    "FILE]\n"
    "               [--alias-guids FILE] [--vf-guids alias|physical]\n"
    "\n"
    "The partition service: NVIDIA UFM's P_Key REST API (under /ufmRest\n"
    "with HTTP Basic, /ufmRestV3 with a token) and ibpart's own under\n"
    "/ibpart/v1, in front of OpenSM.  Every accepted change is recorded\n"
    "durably in --db before the 200, checked by the isolation guard,\n"
    "written into the generated section of OpenSM's --partitions file,\n"
    "and applied with SIGHUP and verified over SMPs.  See ibpartd(8).\n"
    "\n"
    "ibpartd adopt --db FILE --partitions FILE PKEY...: hand operator's\n"
    "P_Keys to the API while the daemon is stopped (ibpartd adopt "
    "--help).\n"
    "ibpartd token --db FILE list | revoke ID...: the API's tokens, also\n"
    "while the daemon runs (ibpartd token --help).\n"
    "ibpartd migrate --from sqlite:FILE --to postgresql://...: move a\n"
    "host's database into the shared store (ibpartd migrate --help).\n";

static const char tail[] =
    "Exit: 0 after SIGTERM, 2 bad options or files, 3 the system failed.\n";

static int take_vf_guids(const char *cmd, void *dest, const char *val)
{
	if (!strcmp(val, "alias") || !strcmp(val, "physical")) {
		*(int *)dest = strcmp(val, "alias") ? IBP_VF_GUIDS_PHYSICAL
						    : IBP_VF_GUIDS_ALIAS;
		return 0;
	}
	cli_usage_error(cmd, "--vf-guids is alias or physical, not '%s'", val);
	return -1;
}

static int take_threads(const char *cmd, void *dest, const char *val)
{
	unsigned long long v;
	if (!cli_parse_uint(val, 1, 64, &v)) {
		cli_usage_error(cmd, "--threads is 1..64, not '%s'", val);
		return -1;
	}
	*(unsigned *)dest = (unsigned)v;
	return 0;
}

/* The argv a config file made and how many of its strings (from
 * index 1) are its own, malloc'd; freed by config_free. */
static char **config_argv;
static int config_owned;

static void config_free(void)
{
	for (int i = 1; config_argv && i <= config_owned; i++)
		free(config_argv[i]);
	free(config_argv);
	config_argv = NULL;
}

/* The keys a config file may set: the long options, without "--". */
static const char *const config_keys[] = {"listen",
					  "http",
					  "cert",
					  "key",
					  "users",
					  "db",
					  "partitions",
					  "opensm-pidfile",
					  "opensm-log",
					  "Ca",
					  "Port",
					  "topology",
					  "alias-guids",
					  "vf-guids",
					  "sm-port",
					  "wait",
					  "threads",
					  "metrics-no-auth",
					  "opensm-unit",
					  "monitor-interval",
					  "mkey-file",
					  "opensm-conf",
					  "client-ca",
					  "krb-keytab",
					  "max-connections",
					  "per-ip-connections",
					  "request-timeout",
					  "login-failures",
					  "store",
					  "host-name"};

static bool config_key(const char *k)
{
	for (size_t i = 0; i < sizeof(config_keys) / sizeof(*config_keys); i++)
		if (!strcmp(k, config_keys[i]))
			return true;
	return false;
}

/* --config FILE: "key value" lines (a flag alone; # comments) become
 * options before those of the command line, which win.  The new argv
 * into *out (config_argv, until config_free).  0, or 2 after printing
 * file:line:col: error. */
static int with_config(int argc, char **argv, int *out_argc, char ***out)
{
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			path = argv[i + 1];
		else if (!strncmp(argv[i], "--config=", 9))
			path = argv[i] + 9;
	}
	*out_argc = argc;
	*out = argv;
	if (!path)
		return 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		daemon_log("%s: error: cannot read the config file", path);
		return CLI_EXIT_USAGE;
	}
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	int n = 0;
	v[n++] = argv[0];
	char line[4096];
	unsigned ln = 0;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		ln++;
		line[strcspn(line, "\r\n")] = 0;
		char *k = line + strspn(line, " \t");
		if (!*k || *k == '#')
			continue;
		char *val = k + strcspn(k, " \t=");
		if (*val) {
			*val++ = 0;
			val += strspn(val, " \t=");
		}
		if (!config_key(k)) {
			daemon_log(
			    "%s:%u:%u: error: unknown key '%s' (the long "
			    "options without --: listen, users, db, ...)",
			    path, ln, (unsigned)(k - line) + 1, k);
			rc = CLI_EXIT_USAGE;
			break;
		}
		char **nv =
		    realloc(v, ((size_t)argc + (size_t)n + 3) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		if (asprintf(&v[n], "--%s", k) < 0)
			break;
		n++;
		if (*val)
			v[n++] = strdup(val);
	}
	fclose(f);
	config_argv = v;
	config_owned = n - 1;
	if (rc) {
		config_free();
		return rc;
	}
	for (int i = 1; i < argc; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	*out_argc = n;
	*out = v;
	return 0;
}

/* The options that need or exclude one another: 0, or a usage error. */
static int check_options(const struct ibpartd *d)
{
	if (!d->listen || !d->users_path || !d->db || !d->partitions)
		return cli_usage_error("ibpartd", "--listen, --users, --db and "
						  "--partitions are required");
	if (d->store && (d->opensm_pidfile || d->opensm_unit) && !d->opensm_log)
		return cli_usage_error("ibpartd",
				       "--store needs --opensm-log: OpenSM's "
				       "state (MASTER or not) is read there");
	if (d->opensm_pidfile && d->opensm_unit)
		return cli_usage_error("ibpartd", "--opensm-pidfile or "
						  "--opensm-unit, not both");
	if (d->http && (d->cert || d->key))
		return cli_usage_error("ibpartd",
				       "--http is plain HTTP: no --cert/--key");
	if (d->http && d->client_ca)
		return cli_usage_error("ibpartd",
				       "--client-ca needs HTTPS, not --http");
	if (d->http && d->krb_keytab) /* a token is replayable: krb.c */
		return cli_usage_error("ibpartd",
				       "--krb-keytab needs HTTPS, not --http");
	if (!d->http && (!d->cert || !d->key))
		return cli_usage_error(
		    "ibpartd", "HTTPS (the default) needs --cert and --key; "
			       "--http for plain HTTP");
	if (d->vf_guids == IBP_VF_GUIDS_PHYSICAL && !d->topology)
		return cli_usage_error("ibpartd",
				       "--vf-guids physical needs --topology "
				       "(each alias is written on its port "
				       "there)");
	return 0;
}

static int parse(struct ibpartd *d, int argc, char **argv)
{
	bool version = false;
	const char *config = NULL;
	const struct cli_opt opts[] = {
	    CLI_STR("--listen", &d->listen, "ADDR:PORT",
		    "where to listen (127.0.0.1:8080, [::1]:8080; port 0: "
		    "any free one, logged at start)"),
	    CLI_FLAG("--http", &d->http,
		     "plain HTTP (the default is HTTPS with --cert and "
		     "--key)"),
	    CLI_STR("--cert", &d->cert, "FILE",
		    "HTTPS: the server's certificate (PEM, its chain after "
		    "it)"),
	    CLI_STR("--key", &d->key, "FILE",
		    "HTTPS: its private key (PEM; must not be readable by "
		    "group or others)"),
	    CLI_STR("--client-ca", &d->client_ca, "FILE",
		    "HTTPS: a client certificate this CA (PEM) signed "
		    "authenticates the request on every prefix, whatever its "
		    "Authorization header (NICo's mTLS sends it empty)"),
	    CLI_STR("--krb-keytab", &d->krb_keytab, "FILE",
		    "HTTPS: serve /ufmRestKrb, Kerberos (Negotiate) with "
		    "this keytab's HTTP/host key; the principal's local name "
		    "is its users-file line"),
	    CLI_STR("--users", &d->users_path, "FILE",
		    "name:hash lines, the hash as crypt(3) makes it (openssl "
		    "passwd -6); must not be readable by group or others"),
	    CLI_STR("--db", &d->db, "FILE",
		    "the service's SQLite database (created if missing)"),
	    CLI_STR("--store", &d->store, "URL",
		    "the shared store of every SM host's ibpartd: "
		    "postgresql://USER@HOST/DB (libpq's URL; a password in "
		    "~/.pgpass or PGPASSFILE); --db is then this host's cache "
		    "of it.  Every host writes the newest revision into its "
		    "--partitions; only the one whose OpenSM is MASTER (from "
		    "--opensm-log) signals it and verifies (docs/ha.md)"),
	    CLI_STR("--host-name", &d->host_name, "NAME",
		    "this host in the store's list of hosts (default: the "
		    "host name)"),
	    CLI_STR("--partitions", &d->partitions, "FILE",
		    "OpenSM's partitions.conf: the operator's lines are kept, "
		    "the API's go in a generated section at its end"),
	    CLI_STR("--opensm-pidfile", &d->opensm_pidfile, "FILE",
		    "OpenSM's pid file: SIGHUP after each change (without: "
		    "the file is written, OpenSM not signalled)"),
	    CLI_STR("--opensm-unit", &d->opensm_unit, "UNIT",
		    "find OpenSM as this systemd unit's main PID instead "
		    "(Debian: opensm@GUID.service, no pid file)"),
	    CLI_STR("--opensm-log", &d->opensm_log, "FILE",
		    "OpenSM's log, watched for SUBNET UP after a SIGHUP"),
	    CLI_STR("-C|--Ca", &d->ca, "CA",
		    "the local CA the verification's SMPs leave from"),
	    CLI_NUM("-P|--Port", &d->port, 0, 254, "PORT",
		    "its port (default: the first active)"),
	    CLI_STR("--topology", &d->topology, "FILE",
		    "the fabric (ibnetdiscover) the isolation guard audits "
		    "each change on; without it only OpenSM's reading of the "
		    "file is checked"),
	    CLI_STR("--alias-guids", &d->alias_guids, "FILE",
		    "the fabric's alias GUIDs (VFs) as `ibpart discover` "
		    "writes them: a revision naming one ends "
		    "applied-partially, its kind alias; the guard refuses "
		    "VFs of one port in two partitions "
		    "(shared-physical-port)"),
	    CLI_FN("--vf-guids", &d->vf_guids, take_vf_guids, "alias|physical",
		   "what the VFs' alias GUIDs the clients send become in "
		   "OpenSM's file: alias (the default: as sent, and OpenSM "
		   "3.3.23 skips them) or physical (written on their physical "
		   "ports, for mlx4-style hosts; needs --topology; every port "
		   "whose VFs are in different tenants' P_Keys is "
		   "shared-physical-port)"),
	    CLI_STR("--mkey-file", &d->mkey_file, "FILE",
		    "the M_Key every SMP of the verification and the monitor "
		    "carries, from a file only its owner reads (as ibpart's "
		    "--mkey-file)"),
	    CLI_STR("--opensm-conf", &d->opensm_conf, "FILE",
		    "OpenSM's opensm.conf, read as OpenSM does: its "
		    "allow_both_pkeys, keep_pkey_indexes and part_enforce for "
		    "the tables and the verification, its M_Key and keys for "
		    "the audit's posture findings (status, audit); NVIDIA's "
		    "virt_enabled 2 makes GUIDs that are no port "
		    "vport-unmodelled, and their revisions not verifiable"),
	    CLI_STR("--sm-port", &d->sm_port, "PORT",
		    "the SM's port for the audit and the verification "
		    "(default: the master SM's)"),
	    CLI_NUM("--wait", &d->wait_ms, 100, 600000, "MS",
		    "how long to wait for OpenSM's SUBNET UP (default 30000)"),
	    CLI_FN("--threads", &d->threads, take_threads, "N",
		   "HTTP worker threads (default 16)"),
	    CLI_FN("--profile", d, profile_take, "NAME:SETTINGS",
		   "a profile (users with profile=NAME in the users file, "
		   "else the user NAME, else * for everyone), repeatable: "
		   "not_found=empty-200|404 (GET of an unknown P_Key: UFM's "
		   "200 {}, the default, or 404), warn=CODE+CODE (audit "
		   "findings that "
		   "only warn for USER instead of refusing, * for all; e.g. "
		   "Slurm's shared nodes: warn=tenant-bridge)"),
	    CLI_NUM("--max-connections", &d->max_connections, 16, 1000000, "N",
		    "connections at once, all clients together (default "
		    "1024; kept 64 below the descriptors the process may "
		    "open)"),
	    CLI_NUM("--per-ip-connections", &d->per_ip_connections, 1, 1000000,
		    "N", "connections at once from one address (default 32)"),
	    CLI_NUM("--request-timeout", &d->request_timeout, 1, 3600, "S",
		    "a request's headers and body must arrive within S "
		    "seconds, however slowly they trickle; an idle "
		    "connection is closed after S seconds (default 30)"),
	    CLI_NUM("--login-failures", &d->login_failures, 0, 1000000, "N",
		    "failed logins a minute from one address, or for one "
		    "user name, before 429 (default 10; 0: no limit)"),
	    CLI_NUM("--monitor-interval", &d->monitor_interval, 0, 86400, "S",
		    "sweep the partition enforcement counters (as `ibpart "
		    "monitor`) every S seconds for /metrics (default 30; 0: "
		    "off)"),
	    CLI_NUM("--full-discovery-every", &d->full_every, 1, 1000000, "N",
		    "a sweep discovers the whole fabric again only when "
		    "OpenSM logged SUBNET UP since the last (--opensm-log), "
		    "and at least every N sweeps (default 10; 1: every "
		    "sweep)"),
	    CLI_FLAG("--repair-drift", &d->repair_drift,
		     "when a monitor sweep finds the fabric no longer holds "
		     "the revision (status drifted), apply it again: the file "
		     "rewritten, OpenSM signalled, the fabric verified"),
	    CLI_FLAG("--metrics-no-auth", &d->metrics_no_auth,
		     "serve /metrics without credentials (every other "
		     "endpoint still needs them)"),
	    CLI_STR("--config", &config, "FILE",
		    "options from FILE first: one 'key value' line each (the "
		    "long option without --; a flag alone; # comments); the "
		    "command line wins"),
	    CLI_FLAG("--version", &version, "print the version and exit"),
	};
	struct cli_args a = {"ibpartd", usage, tail, opts, CLI_NOPTS(opts), 0};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? -1 : rc;
	ibp_error err;
	if (version) {
		printf("ibpartd %s\n", IBP_VERSION_STRING);
		return -1;
	}
	if ((rc = check_options(d)))
		return rc;
	if (d->mkey_file && ibp_mkey_file_read(d->mkey_file, &d->mkey, &err)) {
		daemon_log("ibpartd: %s", err.message);
		return CLI_EXIT_USAGE;
	}
	d->osm.version = IBP_OSM_CONF_VERSION;
	if (d->opensm_conf) {
		struct cli_op op;
		if (cli_op_begin(&op))
			return CLI_EXIT_SYSTEM;
		rc = ibp_osm_conf_load_diags(d->opensm_conf, &d->osm, op.diags,
					     &op.err);
		if ((rc = cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR)))
			return rc;
		d->have_osm = true;
	} else if (ibp_osm_conf_read("(OpenSM's defaults)", "", 0, &d->osm,
				     NULL, &err)) { /* /app/smconf's answer */
		daemon_log("ibpartd: %s", err.message);
		return CLI_EXIT_SYSTEM;
	}
	if (d->topology) { /* the guard's fabric: read now, not at a change */
		struct cli_op op;
		ibp_fabric *f = NULL;
		if (cli_op_begin(&op))
			return CLI_EXIT_SYSTEM;
		rc = ibp_fabric_load(d->topology, NULL, &f, op.diags);
		if (rc)
			ibp_error_set(&op.err, rc,
				      "%s: cannot read the topology the "
				      "isolation guard audits changes on "
				      "(ibnetdiscover > %s makes one)",
				      d->topology, d->topology);
		ibp_fabric_free(f);
		if (cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR))
			return CLI_EXIT_USAGE; /* a file it was given */
	}
	struct stat st;
	if (d->key && !stat(d->key, &st) && (st.st_mode & 077))
		return cli_usage_error(
		    "ibpartd",
		    "%s: group or others may access the private key "
		    "(mode %03o): chmod 600 it",
		    d->key, (unsigned)(st.st_mode & 0777));
	char why[400];
	if (d->krb_keytab && krb_open(d->krb_keytab, &d->krb, why, sizeof(why)))
		return cli_usage_error("ibpartd", "%s", why);
	return 0;
}

/* glibc gives each thread that finds the arenas busy an arena of its own,
 * up to eight per core: the 16 request threads, the applier and the
 * collector each keep their own high-water mark of free memory, which
 * a burst of changes raises arena by arena (the RSS crept up through
 * 10,000 changes on ibsim).  Four arenas, unless the operator chose
 * (MALLOC_ARENA_MAX or the glibc.malloc.arena_max tunable): measured at
 * the same change rate (docs/ibpartd.md, "Memory"). */
static void cap_arenas(void)
{
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") || (t && strstr(t, "arena_max")))
		return;
	(void)mallopt(M_ARENA_MAX, 4);
}

/* Open the service on the options given (host: where this host's name
 * is kept when --host-name names none, host_size bytes, zeroed). */
static int open_service(struct ibpartd *d, char *host, size_t host_size,
			ibp_error *err)
{
	struct ibp_service_options so;
	ibp_service_options_init(&so, IBP_SERVICE_OPTIONS_VERSION);
	so.db_path = d->db;
	so.partitions_path = d->partitions;
	so.topology_path = d->topology;
	so.sm_port = d->sm_port;
	so.opensm_conf_path = d->opensm_conf;
	so.alias_guids_path = d->alias_guids;
	so.allow_both_pkeys = d->have_osm && d->osm.allow_both_pkeys;
	so.vf_guids = (ibp_vf_guids)d->vf_guids;
	so.vports = daemon_vports(d);
	if (!d->host_name && !gethostname(host, host_size - 1))
		d->host_name = host;
	so.store_url = d->store;
	so.host_name = d->host_name;
	return ibp_service_open(&so, &d->svc, err);
}

static int run(int argc, char **argv)
{
	cap_arenas();
	struct ibpartd d = {.threads = 16,
			    .max_connections = 1024,
			    .per_ip_connections = 32,
			    .request_timeout = 30,
			    .login_failures = 10,
			    .wait_ms = 30000,
			    .monitor_interval = 30,
			    .full_every = 10,
			    .metrics_lock = PTHREAD_MUTEX_INITIALIZER,
			    .page.lock = PTHREAD_MUTEX_INITIALIZER,
			    .status.lock = PTHREAD_MUTEX_INITIALIZER};
	int rc = parse(&d, argc, argv);
	if (!rc && users_load(d.users_path, &d.users))
		rc = CLI_EXIT_USAGE;
	if (rc) {
		krb_close(d.krb);
		profiles_free(&d);
		return rc < 0 ? 0 : rc;
	}
	if (!(d.logins = login_limit_new(d.login_failures))) {
		users_free(d.users);
		krb_close(d.krb);
		profiles_free(&d);
		return CLI_EXIT_SYSTEM;
	}
	/* every thread started from here on leaves these to sigwait */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	char host[256] = "";
	ibp_error err;
	if (open_service(&d, host, sizeof(host), &err)) {
		daemon_log("ibpartd: error: %s", err.message);
		users_free(d.users);
		krb_close(d.krb);
		profiles_free(&d);
		login_limit_free(d.logins);
		return err.status == IBP_EINVAL ? CLI_EXIT_USAGE
						: CLI_EXIT_SYSTEM;
	}
	atomic_store(&d.done_rev, ibp_service_fabric_revision(d.svc));
	rc = CLI_EXIT_SYSTEM;
	if (aliases_init(&d) || applier_reconcile_file(&d) || ha_start(&d) ||
	    applier_start(&d) || collector_start(&d) || http_start(&d))
		goto out;
	daemon_log("ibpartd %s: listening on port %u (%s), database %s at "
		   "revision %llu, partitions %s",
		   IBP_VERSION_STRING, d.bound_port, d.listen, d.db,
		   (unsigned long long)ibp_service_revision(d.svc),
		   d.partitions);
	sd_notify(0, "READY=1");
	int sig = 0;
	sigwait(&set, &sig);
	sd_notify(0, "STOPPING=1");
	daemon_log("ibpartd: signal %d: finishing the change in flight", sig);
	rc = 0;
out:
	http_stop();
	ha_stop(&d);
	applier_stop(&d);
	collector_stop(&d);
	aliases_free(&d);
	view_cache_free(&d.page);
	view_cache_free(&d.status);
	ibp_service_close(d.svc);
	users_free(d.users);
	krb_close(d.krb);
	profiles_free(&d);
	login_limit_free(d.logins);
	return rc;
}

int main(int argc, char **argv)
{
	cli_program = "";     /* usage errors: "ibpartd: ..." */
	cli_name = "ibpartd"; /* and the others: "ibpartd: error: ..." */
	if (argc > 1 && !strcmp(argv[1], "adopt"))
		return adopt_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "token"))
		return token_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "migrate"))
		return migrate_main(argc - 1, argv + 1);
	int rc = with_config(argc, argv, &argc, &argv);
	if (!rc)
		rc = run(argc, argv);
	config_free();
	return rc;
}
