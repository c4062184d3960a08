/*
 * sm_traps.c - Bad P_Key traps (IBA vol. 1 14.2.5.1, traps 257 and 259)
 * that reach the SM's port: counted by number, and the last
 * IBP_SM_TRAPS_KEPT of them kept for ibp_sm_traps_take().
 */
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"

void ibp_sm_trap_from_notice(const struct ibp_notice *no,
			     struct ibp_sm_trap *out)
{
	struct ibp_sm_trap t = {.number = no->trap_num,
				.issuer_lid = no->issuer_lid};
	if (no->trap_num == IBP_TRAP_BAD_PKEY) {
		struct ibp_trap_257 d;
		ibp_trap_257_from_details(&d, no->data_details);
		t.lids_valid = t.pkey_valid = true;
		t.lid1 = d.lid1;
		t.lid2 = d.lid2;
		t.pkey = (uint16_t)d.key;
	} else {
		struct ibp_trap_259 d;
		ibp_trap_259_from_details(&d, no->data_details);
		unsigned both = IBP_TRAP259_VALID_LID1 | IBP_TRAP259_VALID_LID2;
		t.lids_valid = (d.data_valid & both) == both;
		t.lid1 = t.lids_valid ? d.lid1 : 0;
		t.lid2 = t.lids_valid ? d.lid2 : 0;
		t.pkey_valid = d.data_valid & IBP_TRAP259_VALID_PKEY;
		t.pkey = t.pkey_valid ? d.pkey : 0;
		t.sw_port = d.port;
	}
	*out = t;
}

/* A Bad P_Key trap's DataDetails (14.2.5.1) kept for
 * ibp_sm_traps_take; the oldest dropped when the ring is full (or
 * cannot be had: the count stays right). */
static void keep_trap(ibp_sm *sm, const struct ibp_notice *no)
{
	if (!sm->kept)
		sm->kept = calloc(IBP_SM_TRAPS_KEPT, sizeof(*sm->kept));
	if (!sm->kept)
		return;
	struct ibp_sm_trap t;
	ibp_sm_trap_from_notice(no, &t);
	if (sm->kept_len == IBP_SM_TRAPS_KEPT) {
		sm->kept_head = (sm->kept_head + 1) % IBP_SM_TRAPS_KEPT;
		sm->kept_len--;
	}
	sm->kept[(sm->kept_head + sm->kept_len++) % IBP_SM_TRAPS_KEPT] = t;
}

size_t ibp_sm_traps_take(ibp_sm *sm, struct ibp_sm_trap *out, size_t max)
{
	size_t n = 0;
	for (; n < max && sm->kept_len; n++) {
		out[n] = sm->kept[sm->kept_head];
		sm->kept_head = (sm->kept_head + 1) % IBP_SM_TRAPS_KEPT;
		sm->kept_len--;
	}
	return n;
}

int ibp_sm_poll_traps(ibp_sm *sm, unsigned *got, ibp_error *err)
{
	unsigned n = 0;
	for (;;) {
		uint8_t buf[IBP_MAD_SIZE];
		ibp_error e;
		int rc = ibp_transport_recv(sm->t, buf, 0, &e);
		if (rc == IBP_ETIMEDOUT)
			break;
		if (rc != IBP_OK) {
			if (err)
				*err = e;
			if (got)
				*got = n;
			return rc;
		}
		struct ibp_smp smp;
		struct ibp_notice no;
		if (ibp_smp_decode(&smp, buf, sizeof(buf), NULL) != IBP_OK ||
		    smp.method != IBP_METHOD_TRAP ||
		    smp.attr_id != IBP_ATTR_NOTICE ||
		    ibp_notice_decode(&no, smp.data, sizeof(smp.data), NULL) !=
			IBP_OK)
			continue;
		n++;
		if (no.trap_num == IBP_TRAP_BAD_PKEY)
			sm->traps_257++;
		else if (no.trap_num == IBP_TRAP_SWITCH_BAD_PKEY)
			sm->traps_259++;
		else
			sm->traps_other++;
		if (no.is_generic && (no.trap_num == IBP_TRAP_BAD_PKEY ||
				      no.trap_num == IBP_TRAP_SWITCH_BAD_PKEY))
			keep_trap(sm, &no);
	}
	if (got)
		*got = n;
	return IBP_OK;
}

unsigned long ibp_sm_trap_count(const ibp_sm *sm, unsigned trap_number)
{
	if (trap_number == IBP_TRAP_BAD_PKEY)
		return sm->traps_257;
	if (trap_number == IBP_TRAP_SWITCH_BAD_PKEY)
		return sm->traps_259;
	return sm->traps_257 + sm->traps_259 + sm->traps_other;
}
