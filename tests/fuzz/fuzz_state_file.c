/*
 * fuzz_state_file.c - libFuzzer target for the state file reader
 * (src/pkey/state_file.c): any bytes in; a file that loads must write
 * back as version 2 and that text must load again and write the very
 * same text (the writer and the reader agree on every field: tables,
 * enforcement bits, OpenSM's memory, its options, absent ports).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/state_file.h"
#include "pkey/state_file_lib.h"
#include "topo/topo_lib.h"

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* switch 0x1000 (4 ports), CAs 0x2000 (port 0x2001) and 0x3000 (port
 * 0x3001) on its ports 1 and 2 */
static ibp_fabric *fabric(void)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, n;
	CHECK(f && ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x1000, 4, "leaf",
				       &sw, NULL) == 0);
	for (unsigned i = 0; i < 2; i++) {
		uint64_t g = 0x2000 + i * 0x1000;
		CHECK(ibp_fabric_add_node(f, IBP_NODE_CA, g, 1, "ca", &n,
					  NULL) == 0);
		CHECK(ibp_fabric_set_port_guid(f, n, 1, g + 1, NULL) == 0);
		CHECK(ibp_fabric_link(f, n, 1, sw, i + 1, NULL) == 0);
	}
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static ibp_fabric *f;
	if (!f)
		f = fabric();
	ibp_state_file *s = NULL;
	ibp_error err;
	if (ibp_state_file_parse(f, "fuzz", (const char *)data, len, NULL, &s,
				 &err)) {
		CHECK(!s);
		return 0;
	}
	char *a = ibp_state_file_to_json(s);
	ibp_state_file_free(s);
	if (!a)
		return 0; /* out of memory */
	ibp_state_file *t = NULL;
	CHECK(ibp_state_file_parse(f, "again", a, strlen(a), NULL, &t, &err) ==
	      0);
	CHECK(ibp_state_file_version(t) == IBP_STATE_FILE_VERSION);
	char *b = ibp_state_file_to_json(t);
	CHECK(!b || !strcmp(a, b));
	free(a);
	free(b);
	ibp_state_file_free(t);
	return 0;
}
