/*
 * monitor_options_v1.h - struct ibp_monitor_options as ibpart/monitor.h
 * declared it at IBP_MONITOR_OPTIONS_VERSION 1 (before 075fb56 added the
 * trap sources, the posture and the subscription): what a program built
 * then holds.  Kept under its own name so the old caller can include the
 * current headers for everything else.
 */
#ifndef IBPART_TESTS_MONITOR_OPTIONS_V1_H
#define IBPART_TESTS_MONITOR_OPTIONS_V1_H

#include <stdbool.h>
#include <stddef.h>

#define OLD_MONITOR_OPTIONS_VERSION 1
struct old_monitor_options {
	unsigned version;
	const char *conf_path;
	const char *mode;
	bool allow_both_pkeys;
	bool reset;
	size_t max_input_size;
	unsigned window;
	int timeout_ms;
	int retries;
};

#endif
