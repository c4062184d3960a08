/*
 * sa_guidinfo_set.c - a host registering a virtual function's alias GUID
 * with the SM as an mlx4 host's driver does: a SubnAdmSet(GUIDInfoRecord)
 * (IBA vol. 1 15.2.5.18) to the SA at SMLID, ComponentMask LID, BlockNum
 * and the one GUID entry set, through libibumad alone (the MAD is laid
 * out here byte by byte from the spec, not by ibpart's coders, so a test
 * does not check our SA client with our own encoder).
 *
 *   sa_guidinfo_set SMLID PORTLID INDEX ALIAS
 *
 * sets entry INDEX (1..255; block INDEX / 8) of the GUIDInfo table of
 * the port at PORTLID to ALIAS, and prints the block the SA answers
 * (its GetResp) as "LID BLOCK GUID0 ... GUID7".  Exit 0 when the SA
 * answered with the alias at its index, 1 when it answered otherwise or
 * not at all, 2 usage.  tests/interop/test_ibpartd_alias_learn.sh runs
 * it against the real OpenSM on ibsim.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sa_guidinfo_set SMLID PORTLID INDEX "
				"ALIAS\n");
		return 2;
	}
	unsigned long smlid = strtoul(argv[1], NULL, 0);
	unsigned long lid = strtoul(argv[2], NULL, 0);
	unsigned long index = strtoul(argv[3], NULL, 0);
	uint64_t alias = strtoull(argv[4], NULL, 16);
	if (!smlid || !lid || !index || index > 255 || !alias) {
		fprintf(stderr, "sa_guidinfo_set: bad arguments\n");
		return 2;
	}
	if (umad_init() < 0)
		return 1;
	int fd = umad_open_port(NULL, 0);
	if (fd < 0) {
		fprintf(stderr, "sa_guidinfo_set: no port\n");
		return 1;
	}
	int agent = umad_register(fd, 0x03, 2, 0, NULL); /* SA, version 2 */
	size_t size = umad_size() + 256;
	uint8_t *buf = calloc(1, size);
	if (agent < 0 || !buf) {
		fprintf(stderr, "sa_guidinfo_set: cannot register\n");
		return 1;
	}
	uint8_t *mad = umad_get_mad(buf);
	mad[0] = 1;    /* BaseVersion */
	mad[1] = 0x03; /* MgmtClass: SA */
	mad[2] = 2;    /* ClassVersion */
	mad[3] = 0x02; /* SubnAdmSet */
	put64(mad + 8, 0x5a49000000000000ull | (uint64_t)index); /* TID */
	put16(mad + 16, 0x0030); /* GUIDInfoRecord */
	put16(mad + 44, 72 / 8); /* AttributeOffset */
	/* ComponentMask: LID (0), BlockNum (1), GUID index%8 (4 + i) */
	put64(mad + 48, 1ull | 2ull | (1ull << (4 + index % 8)));
	uint8_t *rec = mad + 56;
	put16(rec, (uint16_t)lid);
	rec[2] = (uint8_t)(index / 8);
	put64(rec + 8 + 8 * (index % 8), alias);
	umad_set_addr(buf, (int)smlid, 1, 0, 0x80010000);
	if (umad_send(fd, agent, buf, 256, 1000, 3) < 0) {
		fprintf(stderr, "sa_guidinfo_set: send failed\n");
		return 1;
	}
	int len = 256;
	memset(buf, 0, size);
	if (umad_recv(fd, buf, &len, 5000) < 0 || umad_status(buf)) {
		fprintf(stderr, "sa_guidinfo_set: no answer\n");
		return 1;
	}
	uint16_t status = (uint16_t)(mad[4] << 8 | mad[5]);
	printf("%u %u", (unsigned)(rec[0] << 8 | rec[1]), rec[2]);
	for (int i = 0; i < 8; i++)
		printf(" 0x%016" PRIx64, get64(rec + 8 + 8 * i));
	printf(" status 0x%04x method 0x%02x\n", status, mad[3]);
	int ok = mad[3] == 0x81 && !status &&
		 get64(rec + 8 + 8 * (index % 8)) == alias;
	umad_unregister(fd, agent);
	umad_close_port(fd);
	free(buf);
	return ok ? 0 : 1;
}
