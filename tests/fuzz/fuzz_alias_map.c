/*
 * fuzz_alias_map.c - libFuzzer target for the alias-map reader
 * (src/topo/alias_map.c, docs/virtual-functions.md "The alias map"): the
 * raw bytes in an exact-size buffer with no NUL (ASan catches a read
 * past it).  A map that loads must be what the format allows and hold
 * up:
 *  - every line outside a comment holds only hex/decimal digits, 'x',
 *    'X' and blanks (a GUID is 0x-hex, an index decimal), and each such
 *    line gave exactly one alias;
 *  - each alias is non-zero, differs from its port GUID, has an index
 *    in 1..255 and is found again by ibp_alias_map_find;
 *  - what ibp_alias_map_write writes reads back to the same aliases in
 *    the same order.
 * A map that does not load leaves *out NULL and a located finding that
 * prints.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_fabric.h" /* CHECK */
#include "ibpart/alias_map.h"
#include "topo/alias_map_lib.h"
#include "util/diag_lib.h"
#include "ibpart/sys/alias_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static bool blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool field_char(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F') || c == 'x' || c == 'X';
}

/* How many lines hold something outside a comment, or SIZE_MAX when one
 * holds a byte no field or blank may be. */
static size_t entry_lines(const uint8_t *p, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		bool some = false, comment = false;
		for (; i < len && p[i] != '\n'; i++) {
			comment |= p[i] == '#';
			if (comment || blank(p[i]))
				continue;
			if (!field_char(p[i]))
				return SIZE_MAX;
			some = true;
		}
		n += some;
		i++;
	}
	return n;
}

static void round_trip(const ibp_alias_map *m)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	CHECK(mem);
	CHECK(ibp_alias_map_write(m, NULL, mem) == IBP_OK);
	fclose(mem);
	ibp_alias_map *g = NULL;
	CHECK(ibp_alias_map_load_buffer("again", buf, n, &g, NULL, NULL) ==
	      IBP_OK);
	CHECK(ibp_alias_map_count(g) == ibp_alias_map_count(m));
	for (size_t i = 0; i < ibp_alias_map_count(m); i++) {
		const struct ibp_alias *a = ibp_alias_map_at(m, i);
		const struct ibp_alias *b = ibp_alias_map_at(g, i);
		CHECK(a->alias == b->alias && a->port_guid == b->port_guid &&
		      a->index == b->index);
	}
	ibp_alias_map_free(g);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *text = malloc(len ? len : 1);
	CHECK(text);
	memcpy(text, data, len);
	ibp_alias_map *m = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	CHECK(d);
	int rc =
	    ibp_alias_map_load_buffer("fuzz.aliases", text, len, &m, d, &err);
	if (rc == IBP_OK) {
		CHECK(m);
		CHECK(entry_lines(data, len) == ibp_alias_map_count(m));
		for (size_t i = 0; i < ibp_alias_map_count(m); i++) {
			const struct ibp_alias *a = ibp_alias_map_at(m, i);
			CHECK(a->alias && a->port_guid &&
			      a->alias != a->port_guid);
			CHECK(a->index >= 1 && a->index <= 255);
			CHECK(ibp_alias_map_find(m, a->alias) == a);
		}
		round_trip(m);
		ibp_alias_map_free(m);
	} else {
		CHECK(!m);
		CHECK(rc == IBP_EPARSE);
		CHECK(err.line >= 1 &&
		      memchr(err.message, 0, sizeof(err.message)));
	}
	FILE *null = fopen("/dev/null", "w");
	CHECK(null);
	ibp_diags_print(d, null);
	fclose(null);
	ibp_diags_free(d);
	free(text);
	return 0;
}
