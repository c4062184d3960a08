/*
 * umad_probe.c - a test driver for the libibumad transport's two SMP
 * routes, which the CLI itself exercises only by directed route: for each
 * LID on the command line it sends a LID-routed SubnGet(NodeInfo) (class
 * 0x01, IBA vol. 1 14.2.1) and prints "LID NODE_GUID NODE_TYPE"; for "dr"
 * it sends a directed-route SubnGet(NodeInfo) to the local node (hop count
 * 0, IBA 14.2.2); "pi-enforce PATH PORT old|new" sends a switch port the
 * enforcement SubnSet(PortInfo) in the old or the new encoding (see
 * pi_enforce); "trap257 SMLID LID1 LID2 PKEY" sends the SM, as an HCA
 * that refused a packet does, a SubnTrap(Notice) 257 Bad P_Key (IBA
 * 14.2.5.1; its TrapRepress is dropped by ibsim, so no answer is
 * expected); "trap259 SMLID SWLID PORT LID1 LID2 PKEY" a switch's
 * trap 259 (see trap259).  With --mkey KEY every SMP carries that M_Key.
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

#include "ibpart/sys/mad.h"
#include "ibpart/sys/transport_umad.h"

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

/* One PortInfo SMP of method `method` for switch port `port` at the end
 * of the directed route path[1..hops], carrying *in (a Set; NULL: none);
 * the answer into *resp and its PortInfo into *out. */
static int pi_exchange(ibp_transport *t, uint8_t method, unsigned port,
		       const uint8_t *path, unsigned hops,
		       const struct ibp_port_info *in, uint64_t mkey,
		       struct ibp_smp *resp, struct ibp_port_info *out,
		       ibp_error *err)
{
	static uint64_t tid = 0x7e100000;
	struct ibp_smp req;
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	int rc = ibp_smp_init_dr(&req, method, IBP_ATTR_PORT_INFO, port,
				 path + 1, hops, ++tid, mkey, err);
	if (!rc && in)
		rc = ibp_port_info_encode(in, req.data, sizeof(req.data), err);
	if (!rc)
		rc = ibp_smp_encode(&req, b, sizeof(b), err);
	if (!rc)
		rc = ibp_transport_smp(t, b, r, 500, err);
	if (!rc)
		rc = ibp_smp_decode(resp, r, sizeof(r), err);
	if (!rc)
		ibp_port_info_decode(out, resp->data, sizeof(resp->data), NULL);
	return rc;
}

/* "pi-enforce PATH PORT old|new": SubnGet(PortInfo) of switch port PORT
 * at the end of the directed route PATH ("1" or "1,3": ports out of the
 * local node, then of each switch), then a SubnSet(PortInfo) turning both
 * partition enforcement bits on, encoded as ibpart used to (the PortInfo
 * read, its PortState and PortPhysicalState written back: "old") or as
 * the SM encodes it now (ibp_port_info_set_enforcement: "new").  Prints
 * "status 0xSSSS PortState N PortPhysicalState N" of the Set's answer. */
static int pi_enforce(ibp_transport *t, const char *path_s, const char *port_s,
		      const char *how, uint64_t mkey, ibp_error *err)
{
	uint8_t path[IBP_SMP_MAX_HOPS + 1] = {0};
	unsigned hops = 0;
	for (const char *p = path_s; *p;) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || v == 0 || v > 254 || hops == IBP_SMP_MAX_HOPS ||
		    (*end && *end != ','))
			return ibp_error_set(err, IBP_EINVAL, "bad path '%s'",
					     path_s);
		path[++hops] = (uint8_t)v;
		p = *end ? end + 1 : end;
	}
	unsigned port = (unsigned)atoi(port_s);
	struct ibp_smp resp;
	struct ibp_port_info pi;
	int rc = pi_exchange(t, IBP_METHOD_GET, port, path, hops, NULL, mkey,
			     &resp, &pi, err);
	if (rc)
		return rc;
	if (resp.status & IBP_SMP_STATUS_MASK)
		return ibp_error_set(err, IBP_EIO,
				     "SubnGet(PortInfo): MAD status 0x%04x",
				     resp.status);
	if (!strcmp(how, "old")) {
		pi.partition_enforcement_inbound = true;
		pi.partition_enforcement_outbound = true;
	} else if (!strcmp(how, "new")) {
		ibp_port_info_set_enforcement(&pi, true, true);
	} else {
		return ibp_error_set(err, IBP_EINVAL, "old or new, not '%s'",
				     how);
	}
	rc = pi_exchange(t, IBP_METHOD_SET, port, path, hops, &pi, mkey, &resp,
			 &pi, err);
	if (rc)
		return rc;
	printf("status 0x%04x PortState %u PortPhysicalState %u\n",
	       resp.status & IBP_SMP_STATUS_MASK, pi.link_state,
	       pi.port_phys_state);
	return IBP_OK;
}

/* A Bad P_Key trap 257 from this port to the SM at sm_lid: the packet
 * from lid1 to lid2 with P_Key pkey was refused. */
/* A SubnTrap(Notice) n to the SM at LID sm (its TrapRepress is dropped
 * by ibsim, so no answer is waited for). */
static int send_trap(ibp_transport *t, uint16_t sm, const struct ibp_notice *n,
		     uint64_t tid, uint64_t mkey, ibp_error *err)
{
	struct ibp_smp req;
	ibp_smp_init_lid(&req, IBP_METHOD_TRAP, IBP_ATTR_NOTICE, 0, tid, mkey);
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	int rc = ibp_notice_encode(n, req.data, sizeof(req.data), err);
	if (!rc)
		rc = ibp_smp_encode(&req, b, sizeof(b), err);
	if (!rc)
		rc = ibp_transport_smp_lid(t, sm, b, r, 200, err);
	return rc == IBP_ETIMEDOUT ? IBP_OK : rc; /* sent; no answer */
}

static int trap257(ibp_transport *t, char **a, uint64_t mkey, ibp_error *err)
{
	uint16_t sm = (uint16_t)strtoul(a[0], NULL, 0);
	struct ibp_notice n;
	ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY, IBP_NODE_CA, 257,
			     (uint16_t)strtoul(a[2], NULL, 0));
	struct ibp_trap_257 d = {.lid1 = (uint16_t)strtoul(a[1], NULL, 0),
				 .lid2 = (uint16_t)strtoul(a[2], NULL, 0),
				 .key = (uint32_t)strtoul(a[3], NULL, 0),
				 .qp1 = 0x48,
				 .qp2 = 0x49};
	ibp_trap_257_to_details(&d, n.data_details);
	return send_trap(t, sm, &n, 0x7e100000, mkey, err);
}

/* "trap259 SMLID SWLID PORT LID1 LID2 PKEY": a switch's SubnTrap(Notice)
 * 259, Bad P_Key on its external port PORT (IBA 14.2.5.1: DataValid
 * LID1, LID2 and P_Key), as a switch filtering inbound with partition
 * enforcement raises it; sent from the switch's port 0. */
static int trap259(ibp_transport *t, char **a, uint64_t mkey, ibp_error *err)
{
	uint16_t sm = (uint16_t)strtoul(a[0], NULL, 0);
	uint16_t sw = (uint16_t)strtoul(a[1], NULL, 0);
	struct ibp_notice n;
	ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY, IBP_NODE_SWITCH, 259,
			     sw);
	struct ibp_trap_259 d = {.data_valid = IBP_TRAP259_VALID_LID1 |
					       IBP_TRAP259_VALID_LID2 |
					       IBP_TRAP259_VALID_PKEY,
				 .lid1 = (uint16_t)strtoul(a[3], NULL, 0),
				 .lid2 = (uint16_t)strtoul(a[4], NULL, 0),
				 .pkey = (uint16_t)strtoul(a[5], NULL, 0),
				 .sw_lid = sw,
				 .port = (uint8_t)strtoul(a[2], NULL, 0)};
	ibp_trap_259_to_details(&d, n.data_details);
	return send_trap(t, sm, &n, 0x7e200000, mkey, err);
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
				"[--mkey KEY] dr|LID...|pi-enforce PATH "
				"PORT old|new\n");
		return 2;
	}
	ibp_transport *t;
	ibp_error err;
	if (ibp_transport_umad_open(&o, &t, NULL, &err)) {
		fprintf(stderr, "umad_probe: %s\n", err.message);
		return 1;
	}
	int bad = 0;
	if (!strcmp(argv[i], "pi-enforce")) {
		if (i + 3 >= argc || pi_enforce(t, argv[i + 1], argv[i + 2],
						argv[i + 3], o.mkey, &err)) {
			fprintf(stderr, "umad_probe: pi-enforce: %s\n",
				i + 3 >= argc ? "PATH PORT old|new"
					      : err.message);
			bad = 1;
		}
		i = argc;
	}
	if (i < argc && !strcmp(argv[i], "trap257")) {
		if (i + 4 >= argc || trap257(t, argv + i + 1, o.mkey, &err)) {
			fprintf(stderr, "umad_probe: trap257: %s\n",
				i + 4 >= argc ? "SMLID LID1 LID2 PKEY"
					      : err.message);
			bad = 1;
		}
		i = argc;
	}
	if (i < argc && !strcmp(argv[i], "trap259")) {
		if (i + 6 >= argc || trap259(t, argv + i + 1, o.mkey, &err)) {
			fprintf(stderr, "umad_probe: trap259: %s\n",
				i + 6 >= argc
				    ? "SMLID SWLID PORT LID1 LID2 PKEY"
				    : err.message);
			bad = 1;
		}
		i = argc;
	}
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
