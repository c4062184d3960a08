/*
 * fuzz_osmconf.c - libFuzzer target for the opensm.conf reader
 * (src/analysis/analysis_osmconf.c): the raw bytes with their true
 * length and no NUL; what it returns must be a value it can hold (a
 * protection level of 0..3, a NUL-terminated partition file name).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_fabric.h" /* CHECK */
#include "ibpart/analysis.h"
#include "policy/opensm_conf_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	ibp_osm_conf c = {.version = IBP_OSM_CONF_VERSION};
	ibp_error err;
	if (ibp_osm_conf_parse("fuzz", (const char *)data, len, &c, &err) ==
	    0) {
		CHECK(c.m_key_protect_bits <= 3);
		CHECK(memchr(c.partition_config_file, 0,
			     sizeof(c.partition_config_file)));
	} else {
		CHECK(memchr(err.message, 0, sizeof(err.message)));
	}
	return 0;
}
