/*
 * bench_policy.c - the partition manager at subnet scale: 46,000 CA ports
 * plus ~1,900 switches (radix 48, 16 uplinks) (48,000 end ports, one subnet's
 * unicast LID space) and 4,000 tenant partitions (plus storage nodes limited in
 * every tenant), computed on one core; beside it, in the same run, a
 * straightforward implementation (for every port, ask every partition
 * whether the port is a member, then place the P_Keys) on the same input,
 * as a ratio.  Then how time and peak RSS grow with ports and with
 * partitions.  Each measurement runs in its own child process so its
 * peak RSS is its own.
 *
 * usage: bench_policy [--quick]   (--quick: a tenth of the sizes)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "ibpart/sys/fabric_gen.h"
#include "topo/fabric_gen_lib.h"
#include "ibpart/pkey.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "ibpart/tables.h"
#include "pkey/tables_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct input {
	ibp_fabric *f;
	ibp_conf *c;
	unsigned switches;
	size_t end_ports;
};

static int make_input(unsigned cas, unsigned parts, struct input *in)
{
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = cas;
	o.partitions = parts;
	o.storage = 4;
	o.mgmt = 2;
	o.radix = 48;
	o.uplinks = 16;
	ibp_error err;
	if (ibp_fabric_generate(&o, &in->f, &err)) {
		fprintf(stderr, "gen: %s\n", err.message);
		return -1;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m || ibp_partition_plan_write(&o, in->f, m, &err)) {
		fprintf(stderr, "plan: %s\n", err.message);
		return -1;
	}
	fclose(m);
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	if (ibp_conf_parse_buffer("bench.conf", buf, len, &co, &in->c, NULL,
				  &err)) {
		fprintf(stderr, "conf: %s\n", err.message);
		return -1;
	}
	free(buf);
	unsigned leaves, spines;
	ibp_fabric_gen_counts(&o, &leaves, &spines);
	in->switches = leaves + spines;
	in->end_ports = 0;
	size_t nn = ibp_fabric_node_count(in->f);
	for (size_t n = 0; n < nn; n++) {
		unsigned np = ibp_fabric_node_nports(in->f, n);
		for (unsigned p = 0; p <= np; p++)
			in->end_ports +=
			    ibp_fabric_is_end_port(in->f, n, p) &&
			    (p == 0 ||
			     ibp_fabric_port_peer(in->f, n, p, NULL, NULL));
	}
	return 0;
}

/* ---- the baseline: per port, every partition asked in turn ---- */

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v << 8) | (v >> 8));
}

static int cmp_group(const void *a, const void *b)
{
	uint16_t x =
	    bswap16(ibp_conf_group_pkey(*(const ibp_conf_group *const *)a));
	uint16_t y =
	    bswap16(ibp_conf_group_pkey(*(const ibp_conf_group *const *)b));
	return x < y ? -1 : x > y;
}

static ibp_tables *baseline(const struct input *in)
{
	const ibp_fabric *f = in->f;
	size_t ng = ibp_conf_group_count(in->c);
	const ibp_conf_group **gs = malloc((ng + 1) * sizeof(*gs));
	for (size_t i = 0; i < ng; i++)
		gs[i] = ibp_conf_group_at(in->c, i);
	qsort(gs, ng, sizeof(*gs), cmp_group);
	size_t smn;
	unsigned smp;
	ibp_fabric_default_sm_port(f, &smn, &smp);
	uint64_t sm = ibp_fabric_port_guid(f, smn, smp);
	ibp_tables *ts = ibp_tables_new(f);
	size_t nn = ibp_fabric_node_count(f);
	for (size_t n = 0; n < nn; n++) {
		ibp_node_type t = ibp_fabric_node_type(f, n);
		unsigned np = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= np; p++) {
			if (!ibp_fabric_is_end_port(f, n, p) ||
			    (t != IBP_NODE_SWITCH &&
			     !ibp_fabric_port_peer(f, n, p, NULL, NULL)))
				continue;
			uint64_t g = ibp_fabric_port_guid(f, n, p);
			ibp_pkey_table *tbl =
			    ibp_tables_get_or_create(ts, n, p);
			for (size_t k = ng; k-- > 0;) { /* 0x7fff is last */
				uint16_t base = ibp_conf_group_pkey(gs[k]);
				if (base != IBP_PKEY_DEFAULT_BASE)
					continue;
				ibp_membership m =
				    ibp_conf_group_port_membership(gs[k], g, t,
								   sm, NULL);
				ibp_pkey_table_set(
				    tbl, 0,
				    m == IBP_MEMB_LIMITED ? 0x7fff : 0xffff,
				    NULL);
				break;
			}
			for (size_t k = 0; k < ng; k++) {
				uint16_t base = ibp_conf_group_pkey(gs[k]);
				if (base == IBP_PKEY_DEFAULT_BASE)
					continue;
				ibp_membership m =
				    ibp_conf_group_port_membership(gs[k], g, t,
								   sm, NULL);
				if (m == IBP_MEMB_NONE)
					continue;
				uint16_t key =
				    (uint16_t)(base | (m == IBP_MEMB_LIMITED
							   ? 0
							   : 0x8000));
				ibp_pkey_table_insert(tbl, key, NULL, NULL);
			}
		}
	}
	free(gs);
	return ts;
}

/* ---- one measurement in a child ---- */

struct result {
	double t_ours, t_base;
	long rss_kb;
	size_t end_ports;
	unsigned switches, entries_ok;
	int ok;
};

static long peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void child(unsigned cas, unsigned parts, bool with_base, int fd)
{
	struct result r;
	memset(&r, 0, sizeof(r));
	struct input in;
	if (make_input(cas, parts, &in) == 0) {
		ibp_policy_run po;
		ibp_policy_run_init(&po);
		ibp_tables *ts = NULL;
		double t0 = now();
		int rc = ibp_policy_compute(in.c, in.f, &po, &ts, NULL, NULL);
		r.t_ours = now() - t0;
		r.rss_kb = peak_rss_kb();
		r.end_ports = in.end_ports;
		r.switches = in.switches;
		r.ok = rc == 0;
		if (with_base && r.ok) {
			t0 = now();
			ibp_tables *bt = baseline(&in);
			r.t_base = now() - t0;
			/* same tables on every end port (the plan has no
			 * index corner: both place 0x7fff first, then in
			 * visiting order) */
			unsigned same = 1;
			for (size_t i = 0; i < ibp_tables_count(bt); i++) {
				size_t n;
				unsigned p;
				const ibp_pkey_table *b =
				    ibp_tables_at(bt, i, &n, &p);
				const ibp_pkey_table *o =
				    ibp_tables_get(ts, n, p);
				if (!o || !ibp_pkey_table_equal(o, b))
					same = 0;
			}
			r.entries_ok = same;
			ibp_tables_free(bt);
		}
		ibp_tables_free(ts);
		ibp_conf_free(in.c);
		ibp_fabric_free(in.f);
	}
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

static int measure(unsigned cas, unsigned parts, bool with_base,
		   struct result *r)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child(cas, parts, with_base, fds[1]);
	}
	close(fds[1]);
	ssize_t got = read(fds[0], r, sizeof(*r));
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	return got == (ssize_t)sizeof(*r) && r->ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	unsigned div = quick ? 10 : 1;
	unsigned cas = 46000 / div, parts = 4000 / div;
	struct result r;

	printf("partition manager (ibpart tables --mode opensm), one core\n");
	if (measure(cas, parts, true, &r)) {
		fprintf(stderr, "bench_policy: measurement failed\n");
		return 1;
	}
	printf("full size: %zu end ports (%u CA ports + %u switches), %u "
	       "partitions\n",
	       r.end_ports, cas, r.switches, parts);
	printf("  ibpart policy      %8.3f s   peak RSS %ld MiB\n", r.t_ours,
	       r.rss_kb / 1024);
	printf("  baseline (per port x per partition) %8.3f s   ratio "
	       "%.1fx   tables identical: %s\n",
	       r.t_base, r.t_base / r.t_ours, r.entries_ok ? "yes" : "NO");

	printf("\nscaling with ports (%u partitions):\n", parts);
	printf("  %10s %10s %10s %10s\n", "end ports", "seconds", "us/port",
	       "peak MiB");
	for (unsigned k = 8; k >= 1; k /= 2) {
		if (measure(cas / k, parts, false, &r))
			return 1;
		printf("  %10zu %10.3f %10.2f %10ld\n", r.end_ports, r.t_ours,
		       r.t_ours * 1e6 / r.end_ports, r.rss_kb / 1024);
	}
	printf("\nscaling with partitions (%u CA ports):\n", cas);
	printf("  %10s %10s %10s\n", "partitions", "seconds", "peak MiB");
	for (unsigned k = 8; k >= 1; k /= 2) {
		if (measure(cas, parts / k, false, &r))
			return 1;
		printf("  %10u %10.3f %10ld\n", parts / k, r.t_ours,
		       r.rss_kb / 1024);
	}
	return 0;
}
