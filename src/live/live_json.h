/*
 * live_json.h - private to src/live: the JSON pieces the live operations'
 * results share (a drift array, a port object), written with jansson.
 * The whole documents are built by each result's own _json function.
 */
#ifndef IBPART_LIVE_JSON_H
#define IBPART_LIVE_JSON_H

#include <jansson.h>

#include "ibpart/live.h"

/* The selected drift items of d, over fabric f, as a JSON array. */
json_t *live_json_drift(const ibp_fabric *f, const ibp_drift *d,
			ibp_drift_sel sel);
/* {"port_guid", "port", "node_desc"[, "why"]} */
json_t *live_json_port(uint64_t port_guid, unsigned port, const char *desc,
		       const char *why);
/* "0x%016llx" */
const char *live_json_guid(uint64_t g, char buf[24]);
/* Text captured from a FILE writer and parsed as JSON (NULL on error). */
json_t *live_json_capture(int (*fn)(const void *arg, FILE *out),
			  const void *arg);

#endif
