/*
 * fuzz_topo.c - libFuzzer target for the readers of files the fabric
 * writes: the topology reader (ibnetdiscover/ibsim), the node-name-map
 * and the tables JSON.  Each gets the raw bytes in an exact-size buffer
 * (ASan catches a read past it; no NUL is promised), must come back (a
 * hang is a finding: a 51-byte topology once looped forever), and what
 * loads must hold up: a topology that loads is written and read back to
 * the same node count, its diagnostics print, and the tables JSON of its
 * first ports is read against it.  The topology is read a second time
 * with the general parser alone (no fast path for the common port
 * line): the same result, the same diagnostics byte for byte, the same
 * fabric as written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/node_name_map.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* The fabric as written (malloc'd), NULL for none. */
static char *written(const ibp_fabric *f)
{
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	CHECK(mem);
	CHECK(ibp_fabric_write(f, mem, NULL) == IBP_OK);
	fclose(mem);
	return buf;
}

static void round_trip(const ibp_fabric *f)
{
	char *buf = written(f);
	ibp_fabric *g = NULL;
	ibp_diags *d = ibp_diags_new();
	/* what we write, we read: the same nodes */
	CHECK(ibp_fabric_load_buffer("again", buf, strlen(buf), NULL, &g, d) ==
	      IBP_OK);
	CHECK(ibp_fabric_node_count(g) == ibp_fabric_node_count(f));
	ibp_diags_free(d);
	ibp_fabric_free(g);
	free(buf);
}

static void same_as_general(const char *text, size_t len, int rc,
			    const ibp_fabric *f, const char *json)
{
	ibp_diags *d = ibp_diags_new();
	ibp_fabric *g = NULL;
	int grc = topo_load_buffer_general("fuzz.topo", text, len, NULL, &g, d);
	CHECK(grc == rc);
	char *j = ibp_diags_to_json(d);
	CHECK(j && !strcmp(j, json));
	char *a = written(f), *b = written(g);
	CHECK(!a == !b && (!a || !strcmp(a, b)));
	free(a);
	free(b);
	free(j);
	ibp_diags_free(d);
	ibp_fabric_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *text = malloc(len ? len : 1);
	CHECK(text);
	memcpy(text, data, len);

	ibp_diags *d = ibp_diags_new();
	ibp_fabric *f = NULL;
	int rc = ibp_fabric_load_buffer("fuzz.topo", text, len, NULL, &f, d);
	FILE *null = fopen("/dev/null", "w");
	ibp_diags_print(d, null);
	char *j = ibp_diags_to_json(d);
	CHECK(j);
	same_as_general(text, len, rc, f, j);
	free(j);
	ibp_diags_free(d);
	if (rc == IBP_OK)
		round_trip(f);

	ibp_node_name_map *m = NULL;
	d = ibp_diags_new();
	if (ibp_node_name_map_load_buffer("fuzz.map", text, len, &m, d) ==
	    IBP_OK)
		ibp_node_name_map_free(m);
	ibp_diags_print(d, null);
	ibp_diags_free(d);

	if (f) {
		ibp_tables_json_options jo;
		ibp_tables_json_options_init(&jo);
		ibp_tables *ts = NULL;
		char *mode = NULL;
		uint64_t sm = 0;
		if (ibp_tables_json_read(f, "fuzz.json", text, len, &jo, &ts,
					 &mode, &sm, NULL) == IBP_OK)
			ibp_tables_free(ts);
		free(mode);
	}
	fclose(null);
	ibp_fabric_free(f);
	free(text);
	return 0;
}
