/*
 * fuzz_conf.c - libFuzzer target for the partitions.conf readers: the
 * OpenSM 3.3.23 emulation (with its in-place line buffer), the seed
 * dialect, the semantic passes, the membership look-up, the writer, and
 * a round trip: what the writer produces must read back without errors
 * and with the same P_Keys.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "topo/topo_lib.h"

static ibp_fabric *fabric(void)
{
	static ibp_fabric *f;
	if (f)
		return f;
	static const char topo[] =
	    "switchguid=0x100\nSwitch 4 \"S-100\" # \"leaf\"\n"
	    "[1] \"H-1ff\"[1]\n[2] \"H-2ff\"[1]\n\n"
	    "caguid=0x1ff\nCa 1 \"H-1ff\" # \"node-a\"\n"
	    "[1](0x200) \"S-100\"[1]\n\n"
	    "caguid=0x2ff\nCa 1 \"H-2ff\" # \"node-b\"\n"
	    "[1](0x300) \"S-100\"[2]\n";
	if (ibp_fabric_load_buffer("fuzz.topo", topo, sizeof(topo) - 1, NULL,
				   &f, NULL))
		f = NULL;
	return f;
}

static void round_trip(const ibp_conf *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	int rc = ibp_conf_write_opensm(c, fabric(), m, NULL);
	fclose(m);
	if (rc == 0) {
		ibp_conf_options o;
		ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
		o.dialect = IBP_CONF_DIALECT_OPENSM;
		ibp_conf *back = NULL;
		if (ibp_conf_parse_buffer("out", buf, len, &o, &back, NULL,
					  NULL) == 0) {
			/* canonical output: OpenSM accepts it, and every
			 * P_Key of the input is there */
			if (ibp_conf_opensm_verdict(back)->rejected &&
			    ibp_conf_group_count(c) > 1)
				abort();
			for (size_t i = 0; i < ibp_conf_group_count(c); i++) {
				const ibp_conf_group *g =
				    ibp_conf_group_at(c, i);
				int has_members = 0;
				for (size_t j = 0;
				     j < ibp_conf_group_partition_count(g); j++)
					has_members +=
					    ibp_conf_partition_member_count(
						ibp_conf_group_partition(
						    g, j)) > 0;
				if (has_members &&
				    !ibp_conf_group_find(
					back, ibp_conf_group_pkey(g)))
					abort();
			}
			ibp_conf_free(back);
		}
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int d = 0; d < 2; d++) {
		ibp_conf_options o;
		ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
		o.fabric = fabric();
		o.allow_both_pkeys = size && (data[0] & 1);
		ibp_diags *diags = ibp_diags_new();
		ibp_conf *c = NULL;
		if (ibp_conf_parse_buffer("fuzz.conf", (const char *)data, size,
					  &o, &c, diags, NULL) == 0) {
			for (size_t i = 0; i < ibp_conf_group_count(c); i++)
				(void)ibp_conf_group_port_membership(
				    ibp_conf_group_at(c, i), 0x200, IBP_NODE_CA,
				    0x300, NULL);
			if (!ibp_conf_error_count(c))
				round_trip(c);
			static FILE *null;
			if (!null)
				null = fopen("/dev/null", "w");
			if (null) {
				ibp_diags_print(diags, null);
			}
			ibp_conf_free(c);
		}
		ibp_diags_free(diags);
		if (d == 0 && size && data[0] != 'P')
			break; /* the seed reader only for its own texts */
	}
	return 0;
}
