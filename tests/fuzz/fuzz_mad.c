/*
 * fuzz_mad.c - libFuzzer target for the SMP wire format (src/mad.c): every
 * decoder gets the raw input with its true length (ASan catches a read past
 * it), and whatever decodes must survive encode -> decode unchanged.  The
 * DR path parser gets the input as a string.  The SA's header and
 * InformInfo (src/wire/sa.c: the monitor's subscription) likewise, their
 * round trip compared as bytes (encode, decode, encode).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/mad.h"
#include "ibpart/sys/sa.h"

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

/* decode(buf) -> a; encode(a) -> w; decode(w) -> b; a == b. */
#define ROUND_TRIP(T, dec, enc, size)                                          \
	do {                                                                   \
		T a, b;                                                        \
		uint8_t *w = malloc(size);                                     \
		CHECK(w);                                                      \
		if (dec(&a, data, len, NULL) == 0) {                           \
			CHECK(len >= (size));                                  \
			CHECK(enc(&a, w, (size), NULL) == 0);                  \
			CHECK(dec(&b, w, (size), NULL) == 0);                  \
			CHECK(memcmp(&a, &b, sizeof(a)) == 0);                 \
		} else {                                                       \
			CHECK(len < (size) || (size) == IBP_MAD_SIZE);         \
		}                                                              \
		free(w);                                                       \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	ROUND_TRIP(struct ibp_smp, ibp_smp_decode, ibp_smp_encode,
		   IBP_MAD_SIZE);
	ROUND_TRIP(struct ibp_node_info, ibp_node_info_decode,
		   ibp_node_info_encode, IBP_NODE_INFO_SIZE);
	ROUND_TRIP(struct ibp_switch_info, ibp_switch_info_decode,
		   ibp_switch_info_encode, IBP_SWITCH_INFO_SIZE);
	ROUND_TRIP(struct ibp_port_info, ibp_port_info_decode,
		   ibp_port_info_encode, IBP_PORT_INFO_SIZE);
	/* Notice: 64 bytes in an SMP, 80 with IssuerGID */
	struct ibp_notice na, nb;
	if (ibp_notice_decode(&na, data, len, NULL) == 0) {
		uint8_t w[IBP_NOTICE_SIZE];
		CHECK(len >= IBP_NOTICE_SMP_SIZE);
		CHECK(ibp_notice_encode(&na, w, sizeof(w), NULL) == 0);
		CHECK(ibp_notice_decode(&nb, w, sizeof(w), NULL) == 0);
		CHECK(memcmp(&na, &nb, sizeof(na)) == 0);
	} else {
		CHECK(len < IBP_NOTICE_SMP_SIZE);
	}

	/* encode(decode(buf)) is a fixed point of decode -> encode */
#define BYTE_TRIP(T, dec, enc, size)                                           \
	do {                                                                   \
		T x, y;                                                        \
		uint8_t w1[size], w2[size];                                    \
		if (dec(&x, data, len, NULL) == 0) {                           \
			CHECK(len >= (size));                                  \
			CHECK(enc(&x, w1, (size), NULL) == 0);                 \
			CHECK(dec(&y, w1, (size), NULL) == 0);                 \
			CHECK(enc(&y, w2, (size), NULL) == 0);                 \
			CHECK(memcmp(w1, w2, (size)) == 0);                    \
		} else {                                                       \
			CHECK(len < (size));                                   \
		}                                                              \
	} while (0)
	BYTE_TRIP(struct ibp_sa_mad, ibp_sa_mad_decode, ibp_sa_mad_encode,
		  IBP_SA_DATA_OFFSET);
	BYTE_TRIP(struct ibp_inform_info, ibp_inform_info_decode,
		  ibp_inform_info_encode, IBP_INFORM_INFO_SIZE);
	struct ibp_sa_mad sh;
	if (ibp_sa_mad_decode(&sh, data, len, NULL) == 0)
		CHECK(ibp_sa_status_str(sh.status) != NULL);

	uint16_t keys[IBP_PKEY_BLOCK_ENTRIES];
	if (ibp_pkey_block_decode(keys, data, len, NULL) == 0) {
		uint8_t w[IBP_PKEY_BLOCK_BYTES];
		CHECK(ibp_pkey_block_encode(keys, w, sizeof(w), NULL) == 0);
		CHECK(memcmp(w, data, sizeof(w)) == 0);
	}

	char desc[IBP_NODE_DESC_SIZE + 1];
	if (ibp_node_desc_decode(desc, data, len, NULL) == 0)
		CHECK(strlen(desc) <= IBP_NODE_DESC_SIZE);

	struct ibp_notice n;
	if (ibp_notice_decode(&n, data, len, NULL) == 0) {
		struct ibp_trap_257 t7;
		struct ibp_trap_259 t9;
		uint8_t det[IBP_NOTICE_DETAILS_SIZE];
		ibp_trap_257_from_details(&t7, n.data_details);
		ibp_trap_257_to_details(&t7, det);
		ibp_trap_259_from_details(&t9, n.data_details);
		ibp_trap_259_to_details(&t9, det);
	}

	/* the DR path parser on the input as text */
	char *s = malloc(len + 1);
	CHECK(s);
	memcpy(s, data, len);
	s[len] = '\0';
	uint8_t path[IBP_SMP_MAX_HOPS];
	unsigned hops;
	if (ibp_dr_path_parse(s, path, &hops, NULL) == 0) {
		CHECK(hops <= IBP_SMP_MAX_HOPS);
		char back[IBP_SMP_MAX_HOPS * 4 + 8];
		int m = ibp_dr_path_format(path, hops, back, sizeof(back));
		CHECK(m > 0 && (size_t)m < sizeof(back));
		uint8_t path2[IBP_SMP_MAX_HOPS];
		unsigned hops2;
		CHECK(ibp_dr_path_parse(back, path2, &hops2, NULL) == 0);
		CHECK(hops2 == hops && memcmp(path, path2, hops) == 0);
	}
	free(s);
	return 0;
}
