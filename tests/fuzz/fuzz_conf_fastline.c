/*
 * fuzz_conf_fastline.c - differential libFuzzer target for the fast
 * reading of member lines (src/conf/conf_fastline.c): every input is
 * read twice, by the general OpenSM 3.3.23 reader alone and with the
 * fast path on, and everything the plan says (verdict, partitions,
 * members with their text and line:col, mgids, every finding) must be
 * the same text - also where a later line reads the stale bytes an
 * earlier fast line left in the line buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/conf_dump.h"
#include "conf/conf_internal.h"
#include "conf/conf_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *read_once(const uint8_t *data, size_t size, bool fast)
{
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.dialect = IBP_CONF_DIALECT_OPENSM;
	o.allow_both_pkeys = size && (data[0] & 1);
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = NULL;
	int rc = conf_parse_buffer_fast("fuzz.conf", (const char *)data, size,
					&o, &c, d, NULL, fast);
	char *s = conf_dump(rc, c, d);
	ibp_conf_free(c);
	ibp_diags_free(d);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *slow = read_once(data, size, false);
	char *fast = read_once(data, size, true);
	if (strcmp(slow, fast))
		abort();
	free(slow);
	free(fast);
	return 0;
}
