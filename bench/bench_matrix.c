/*
 * bench_matrix.c - the reachability matrix at fabric scale: generated
 * fabrics of 1k, 8k and 48k end ports with tenant partitions, the
 * class/bitset matrix next to a naive pairwise scan of the tables (each
 * pair: every entry of one table looked up in the other with the O(1)
 * IBA match), in the same run.  Prints both times, their ratio, the peak
 * memory (getrusage) and checks that both give the same answer.
 *
 * Each size runs in its own child process so the peak memory is that
 * size's.  The naive scan runs only up to --naive-max ports (default
 * 8192): at 48k ports it needs over a billion table look-ups.
 *
 * --profile distinct adds to every host a limited membership that makes
 * almost every port's membership set its own (classes ~ ports): the
 * worst case for the class compression.
 *
 * usage: bench_matrix [--sizes 1000,8000,48000] [--naive-max N]
 *                     [--profile tenants|distinct]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* A fat-tree-ish fabric: leaves of 36 hosts; tenants of ~12 hosts each
 * (one partition each, full), every host a limited member of the default
 * partition, 1 in 200 hosts a management host (full default), 1 in 100
 * a storage host (limited in 8 tenants), 1 in 50 in a second tenant's
 * partition as well. */
static int distinct; /* --profile distinct */

static void generate(size_t hosts, ibp_fabric **fo, ibp_tables **to,
		     size_t *nparts)
{
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = ibp_fabric_new(&o);
	size_t leaves = (hosts + 35) / 36;
	size_t tenants = hosts / 12 ? hosts / 12 : 1;
	if (tenants > 0x7ffe)
		tenants = 0x7ffe;
	*nparts = tenants + 1;
	for (size_t l = 0; l < leaves; l++) {
		char d[32];
		snprintf(d, sizeof(d), "leaf-%zu", l);
		ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x2000000000ull + l, 40,
				    d, NULL, NULL);
	}
	for (size_t h = 0; h < hosts; h++) {
		char d[32];
		size_t n;
		snprintf(d, sizeof(d), "host-%05zu", h);
		if (ibp_fabric_add_node(f, IBP_NODE_CA, 0x1000000000ull + h * 2,
					1, d, &n, NULL)) {
			fprintf(stderr, "cannot add host %zu\n", h);
			exit(3);
		}
		ibp_fabric_link(f, n, 1, h / 36, (unsigned)(h % 36) + 1, NULL);
	}
	ibp_tables *ts = ibp_tables_new(f);
	for (size_t h = 0; h < hosts; h++) {
		ibp_pkey_table *t = ibp_tables_get_or_create(ts, leaves + h, 1);
		unsigned idx = 0;
		uint16_t own = (uint16_t)(1 + (h / 12) % tenants);
		if (h % 200 == 0) {
			ibp_pkey_table_set(t, idx++, 0xffff, NULL);
		} else if (h % 100 == 1) {
			ibp_pkey_table_set(t, idx++, 0x7fff, NULL);
			for (int k = 0; k < 8; k++)
				ibp_pkey_table_insert(
				    t, (uint16_t)(1 + rnd() % tenants), NULL,
				    NULL);
		} else {
			ibp_pkey_table_set(t, idx++, 0x7fff, NULL);
			ibp_pkey_table_set(t, idx++, 0x8000 | own, NULL);
			if (distinct)
				/* a second partition that makes almost
				 * every port's membership its own */
				ibp_pkey_table_insert(
				    t,
				    (uint16_t)(1 + ((h % 12) * 331 + h / 12) %
						       tenants),
				    NULL, NULL);
			else if (h % 50 == 7)
				ibp_pkey_table_insert(
				    t,
				    (uint16_t)(0x8000 | (1 + rnd() % tenants)),
				    NULL, NULL);
		}
	}
	*fo = f;
	*to = ts;
}

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int run(size_t hosts, size_t naive_max)
{
	ibp_fabric *f;
	ibp_tables *ts;
	size_t nparts;
	double t0 = now();
	generate(hosts, &f, &ts, &nparts);
	double tgen = now() - t0;
	long kb_before = peak_kb();

	t0 = now();
	ibp_matrix *m = NULL;
	ibp_error err;
	if (ibp_matrix_build(ts, NULL, &m, &err)) {
		fprintf(stderr, "matrix: %s\n", err.message);
		return 3;
	}
	uint64_t pairs = ibp_matrix_pair_count(m);
	double tm = now() - t0;
	long kb_after = peak_kb();

	size_t n = ibp_matrix_endpoint_count(m);
	double tn = -1;
	uint64_t npairs = 0;
	size_t mismatches = 0;
	if (n <= naive_max) {
		/* the naive way: every pair, every entry of one table
		 * matched against the other table */
		const ibp_pkey_table **tab = malloc(n * sizeof(*tab));
		for (size_t i = 0; i < n; i++) {
			size_t node;
			unsigned port;
			ibp_matrix_endpoint(m, i, &node, &port);
			tab[i] = ibp_tables_get(ts, node, port);
		}
		uint8_t *bits = calloc(n * n / 8 + 1, 1);
		t0 = now();
		for (size_t i = 0; i < n; i++) {
			unsigned used = ibp_pkey_table_used(tab[i]);
			for (size_t j = i + 1; j < n; j++) {
				bool talk = false;
				for (unsigned e = 0; e < used && !talk; e++) {
					uint16_t k =
					    ibp_pkey_table_get(tab[i], e);
					talk = ibp_pkey_is_valid(k) &&
					       ibp_pkey_table_match(tab[j],
								    k) >= 0;
				}
				npairs += talk;
				if (talk)
					bits[(i * n + j) / 8] |=
					    (uint8_t)(1u << ((i * n + j) % 8));
			}
		}
		tn = now() - t0;
		/* the same answer, cell by cell (not timed) */
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				if (!!(bits[(i * n + j) / 8] &
				       (1u << ((i * n + j) % 8))) !=
				    ibp_matrix_can_talk(m, i, j))
					mismatches++;
		free(bits);
		free(tab);
	}
	printf("%-8zu %6zu %7zu %10.2f %12.4f", n, nparts,
	       ibp_matrix_class_count(m), tgen, tm);
	if (tn >= 0)
		printf(" %10.3f %9.0fx", tn, tn / (tm > 0 ? tm : 1e-9));
	else
		printf(" %10s %10s", "skipped", "-");
	printf(" %9.1f %9.1f  %" PRIu64 "%s\n", kb_after / 1024.0,
	       (kb_after - kb_before) / 1024.0, pairs,
	       tn < 0				 ? ""
	       : (mismatches || npairs != pairs) ? "  MISMATCH"
						 : "  (naive agrees)");
	fflush(stdout);
	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
	return mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = {1000, 8000, 48000}, nsizes = 3;
	size_t naive_max = 8192;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--naive-max") && i + 1 < argc) {
			naive_max = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
			distinct = !strcmp(argv[++i], "distinct");
		} else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			nsizes = 0;
			for (char *s = strtok(argv[++i], ","); s && nsizes < 16;
			     s = strtok(NULL, ","))
				sizes[nsizes++] = strtoul(s, NULL, 0);
		} else {
			fprintf(stderr,
				"usage: %s [--sizes N,N,…] [--naive-max N] "
				"[--profile tenants|distinct]\n",
				argv[0]);
			return 2;
		}
	}
	printf("Reachability matrix: classes + bitsets vs a naive pairwise "
	       "table scan (profile: %s)\n",
	       distinct ? "distinct" : "tenants");
	printf("%-8s %6s %7s %10s %12s %10s %10s %9s %9s  %s\n", "ports",
	       "parts", "classes", "gen(s)", "matrix(s)", "naive(s)", "ratio",
	       "peak(MB)", "+matrix", "pairs that talk");
	fflush(stdout);
	int rc = 0;
	for (size_t i = 0; i < nsizes; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(run(sizes[i], naive_max));
		int st = 0;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	return rc;
}
