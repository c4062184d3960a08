/*
 * bench_topo.c - topology reader throughput.  Generates a fat tree of
 * 48,000 CA ports (ibp_fabric_generate, three tiers of radix 64: the size
 * of a large site; `force`, since that many ports exceed the subnet's
 * unicast LIDs and the reader, not the LID plan, is measured), writes it
 * as ibnetdiscover text in memory (~23 MB) and times, in the same run:
 *
 *   scan      the floor: one pass over the bytes counting newlines
 *   naive     a line splitter that only finds each port line's two
 *             quoted names and two bracketed numbers (strchr/strtoul),
 *             with no model built
 *   ibpart    ibp_fabric_load_buffer(): the ibnetdiscover/ibsim reader,
 *             the fabric model with links, GUIDs and names, diagnostics
 *
 * and prints MB/s and ports/s for each and ibpart's time as a ratio to
 * both baselines (best of 3, process CPU time; and the first of the 3,
 * whose memory is fresh, as a command's is), at 1,000 CA ports and
 * then 48,000 (issue 29's goal there: 500 MB/s).  Each size twice: on
 * glibc's default heap (a library caller's: a fresh mapping for each
 * large block, faulted in 4 KiB at a time, given back when freed), and
 * on the heap the ibpart command sets up (tools/cli_heap.c: freed
 * memory kept, transparent huge pages).  IBP_BENCH_CAS overrides the
 * CA port counts ("1000 48000").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ibpart/sys/fabric_gen.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t scan(const char *t, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++)
		k += t[i] == '\n';
	return k;
}

/* "[p] "name"[q]" lines: the least a reader of links must do */
static size_t naive(const char *t, size_t len)
{
	size_t ports = 0;
	const char *p = t, *end = t + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (*p == '[') {
			char *e;
			unsigned long a = strtoul(p + 1, &e, 10);
			const char *q1 = memchr(e, '"', (size_t)(le - e));
			const char *q2 =
			    q1 ? memchr(q1 + 1, '"', (size_t)(le - q1 - 1))
			       : NULL;
			const char *b =
			    q2 ? memchr(q2, '[', (size_t)(le - q2)) : NULL;
			unsigned long c = b ? strtoul(b + 1, NULL, 10) : 0;
			ports += a && c;
		}
		p = le + 1;
	}
	return ports;
}

static int bench(unsigned cas, bool cli_heap)
{
	if (cli_heap)
		cli_heap_setup();
	ibp_fabric_gen_options go;
	ibp_fabric_gen_options_init(&go, IBP_FABRIC_GEN_OPTIONS_VERSION);
	go.cas = cas;
	go.radix = 64;
	go.force = true;
	ibp_fabric *f = NULL;
	ibp_error err;
	if (ibp_fabric_generate(&go, &f, &err)) {
		fprintf(stderr, "bench_topo: %s\n", err.message);
		return 3;
	}
	char *t = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&t, &len);
	if (!mem || ibp_fabric_write(f, mem, &err)) {
		fprintf(stderr, "bench_topo: cannot write the topology\n");
		return 3;
	}
	fclose(mem);
	size_t nodes = ibp_fabric_node_count(f), ports = 0;
	for (size_t n = 0; n < nodes; n++)
		ports += ibp_fabric_node_nports(f, n);
	ibp_fabric_free(f);
	double mb = (double)len / 1e6;
	printf("input: %.1f MB, %zu nodes, %zu ports (%u CA ports), %s\n", mb,
	       nodes, ports, cas,
	       cli_heap ? "on the ibpart command's heap (cli_heap.c)"
			: "on glibc's default heap");

	double best_scan = 1e9, best_naive = 1e9, best_load = 1e9, first = 0;
	size_t sink = 0;
	int status = 0;
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now();
		sink += scan(t, len);
		double t1 = now();
		sink += naive(t, len);
		double t2 = now();
		ibp_fabric *g = NULL;
		int rc = ibp_fabric_load_buffer("bench.topo", t, len, NULL, &g,
						NULL);
		double t3 = now();
		if (rc || ibp_fabric_node_count(g) != nodes) {
			fprintf(stderr, "bench_topo: load failed\n");
			status = 1;
		}
		ibp_fabric_free(g);
		if (t1 - t0 < best_scan)
			best_scan = t1 - t0;
		if (t2 - t1 < best_naive)
			best_naive = t2 - t1;
		if (t3 - t2 < best_load)
			best_load = t3 - t2;
		if (!rep)
			first = t3 - t2;
	}
	double np = (double)ports;
	printf("scan   (baseline, bytes only):     %8.1f MB/s  %.3f s\n",
	       mb / best_scan, best_scan);
	printf("naive  (baseline, port lines only): %7.1f MB/s  %.3f s  "
	       "%.2f M ports/s\n",
	       mb / best_naive, best_naive, np / best_naive / 1e6);
	printf("ibpart (topology reader, model):   %8.1f MB/s  %.3f s  "
	       "%.2f M ports/s\n",
	       mb / best_load, best_load, np / best_load / 1e6);
	printf("ibpart first load (fresh memory, as one command pays): "
	       "%.1f MB/s  %.3f s\n",
	       mb / first, first);
	printf("ratio  ibpart/naive time: %.2f   ibpart/scan time: %.2f\n",
	       best_load / best_naive, best_load / best_scan);
	if (sink == 42)
		puts("");
	free(t);
	return status;
}

int main(void)
{
	const char *env = getenv("IBP_BENCH_CAS");
	char *end;
	int status = 0;
	for (const char *p = env ? env : "1000 48000";; p = end) {
		unsigned long cas = strtoul(p, &end, 0);
		if (end == p)
			break;
		/* each size in a process of its own: the allocator's state
		 * the one before leaves would change the next one's figures */
		for (int heap = 0; heap < 2; heap++) {
			fflush(stdout);
			pid_t pid = cas ? fork() : -1;
			if (pid == 0) {
				int rc = bench((unsigned)cas, heap);
				fflush(stdout);
				_exit(rc);
			}
			int ws = 0;
			if (pid < 0 || waitpid(pid, &ws, 0) != pid ||
			    !WIFEXITED(ws) || WEXITSTATUS(ws))
				status = 1;
		}
	}
	return status;
}
