/*
 * umad_probe.c - a test driver for the libibumad transport's two SMP
 * routes, which the CLI itself exercises only by directed route: for each
 * LID on the command line it sends a LID-routed SubnGet(NodeInfo) (class
 * 0x01, IBA vol. 1 14.2.1) and prints "LID NODE_GUID NODE_TYPE"; for "dr"
 * it sends a directed-route SubnGet(NodeInfo) to the local node (hop count
 * 0, IBA 14.2.2).  With --mkey KEY every SMP carries that M_Key.
 * tests/interop/test_umad_routes.sh compares the answers with the real
 * smpquery's on an ibsim fabric whose LIDs OpenSM assigned.
 *
 * Exit: 0 every query answered, 1 a query failed (the error is printed),
 * 2 usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/mad.h"
#include "ibpart/transport_umad.h"

static int get_node_info(ibp_transport *t, const char *target,
			 struct ibp_node_info *ni, uint64_t mkey,
			 ibp_error *err)
{
	static uint64_t tid = 0x7e000000;
	struct ibp_smp req, resp;
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	int rc;
	if (!strcmp(target, "dr")) {
		rc = ibp_smp_init_dr(&req, IBP_METHOD_GET, IBP_ATTR_NODE_INFO,
				     0, NULL, 0, ++tid, mkey, err);
		if (rc)
			return rc;
		rc = ibp_smp_encode(&req, b, sizeof(b), err);
		if (rc)
			return rc;
		rc = ibp_transport_smp(t, b, r, 500, err);
	} else {
		char *end;
		unsigned long lid = strtoul(target, &end, 0);
		if (*end || lid == 0 || lid > 0xbfff)
			return ibp_error_set(err, IBP_EINVAL,
					     "'%s' is not a unicast LID",
					     target);
		ibp_smp_init_lid(&req, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0,
				 ++tid, mkey);
		rc = ibp_smp_encode(&req, b, sizeof(b), err);
		if (rc)
			return rc;
		rc = ibp_transport_smp_lid(t, (uint16_t)lid, b, r, 500, err);
	}
	if (rc)
		return rc;
	rc = ibp_smp_decode(&resp, r, sizeof(r), err);
	if (rc)
		return rc;
	if (resp.status)
		return ibp_error_set(err, IBP_EIO, "%s: MAD status 0x%04x",
				     target, resp.status);
	return ibp_node_info_decode(ni, resp.data, sizeof(resp.data), err);
}

int main(int argc, char **argv)
{
	ibp_umad_options o;
	ibp_umad_options_init(&o);
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--mkey") && i + 1 < argc)
			o.mkey = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-C") && i + 1 < argc)
			o.ca = argv[++i];
		else if (!strcmp(argv[i], "-P") && i + 1 < argc)
			o.port = atoi(argv[++i]);
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: umad_probe [-C CA] [-P PORT] "
				"[--mkey KEY] dr|LID...\n");
		return 2;
	}
	ibp_transport *t;
	ibp_error err;
	if (ibp_transport_umad_open(&o, &t, NULL, &err)) {
		fprintf(stderr, "umad_probe: %s\n", err.message);
		return 1;
	}
	int bad = 0;
	for (; i < argc; i++) {
		struct ibp_node_info ni;
		if (get_node_info(t, argv[i], &ni, o.mkey, &err)) {
			fprintf(stderr, "umad_probe: %s: %s\n", argv[i],
				err.message);
			bad = 1;
			continue;
		}
		printf("%s 0x%016" PRIx64 " %u\n", argv[i], ni.node_guid,
		       ni.node_type);
	}
	ibp_transport_close(t);
	return bad;
}
