/*
 * fuzz_osmlog.c - libFuzzer target for the reader of OpenSM's log
 * (src/monitor/monitor_traps.c), a file tenants influence (their
 * NodeDescriptions appear in it): every line of the input through
 * ibp_opensm_log_trap_parse with its true length and no NUL (a result of
 * -1, 0, 1 or 2; a trap it returns well formed), then the whole input
 * as a log file read by the incremental reader twice (the second read
 * finds nothing new; the traps of the first are the lines' count, plus
 * at most one per 259 report line its num:259 line did not precede).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_fabric.h" /* CHECK */
#include "ibpart/monitor.h"
#include "monitor/monitor_lib.h"
#include "monitor/monitor_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const char *s = (const char *)data;
	size_t traps = 0, reports = 0, bad = 0, start = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\n')
			continue;
		struct ibp_sm_trap t;
		size_t n = i - start;
		int k = n <= IBP_MONITOR_LOG_LINE_MAX
			    ? ibp_opensm_log_trap_parse(s + start, n, &t)
			    : 0;
		CHECK(k >= -1 && k <= 2);
		if (k == 2) {
			CHECK(t.number == 259);
			reports++;
		}
		if (k == 1) {
			CHECK(t.number == 257 || t.number == 259);
			CHECK(t.number == 259 ||
			      (t.lids_valid && t.issuer_lid == t.lid2));
			CHECK(t.number == 257 || !t.lids_valid);
			traps++;
		}
		if (k < 0)
			bad++;
		start = i + 1;
	}
	int fd = memfd_create("osmlog", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ibp_monitor_state *st = ibp_monitor_state_new();
	struct monitor_traps v = {0};
	ibp_error err;
	if (st && monitor_log_read(st, path, &v, &err) == IBP_OK) {
		CHECK(v.n >= traps && v.n <= traps + reports &&
		      v.malformed == bad);
		size_t first = v.n;
		CHECK(monitor_log_read(st, path, &v, &err) == IBP_OK);
		CHECK(v.n == first);
	}
	monitor_traps_free(&v);
	ibp_monitor_state_free(st);
	close(fd);
	return 0;
}
