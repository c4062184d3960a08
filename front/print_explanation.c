/*
 * print_explanation.c - why two end ports can or cannot talk, as `ibpart
 * matrix --explain` prints it (front/print.h): both P_KeyTables as the
 * matrix's tables hold them, every shared base, the rule of IBA vol. 1,
 * 10.9.3 that decides.
 */
#include <stdio.h>

#include "front/print.h"
#include "ibpart/pkey.h"

static void print_table(const ibp_matrix *m, size_t ep, FILE *out)
{
	const ibp_tables *ts = ibp_matrix_tables(m);
	size_t node = 0;
	unsigned port = 0, used = 0;
	ibp_matrix_endpoint(m, ep, &node, &port);
	fprintf(out, "  %s (port GUID 0x%016llx, port %u): ",
		ibp_matrix_endpoint_label(m, ep),
		(unsigned long long)ibp_matrix_endpoint_guid(m, ep), port);
	if (!ibp_tables_port_capacity(ts, node, port, &used)) {
		fprintf(out, "no P_KeyTable\n");
		return;
	}
	if (!used)
		fprintf(out, "empty P_KeyTable");
	for (unsigned i = 0; i < used; i++) {
		uint16_t k = ibp_tables_pkey_at(ts, node, port, i);
		if (!k)
			continue;
		fprintf(out, "%sPkey[%u] 0x%04x", i ? ", " : "", i, k);
		if (!ibp_pkey_is_valid(k))
			fprintf(out, " (invalid)");
	}
	fputc('\n', out);
}

static const char *member_str(uint16_t k)
{
	return ibp_pkey_is_full(k) ? "full" : "limited";
}

void ibp_explanation_print(const ibp_matrix *m, const ibp_explanation *e,
			   FILE *out)
{
	const char *s = ibp_matrix_endpoint_label(m, e->src);
	const char *d = ibp_matrix_endpoint_label(m, e->dst);
	if (e->rule == IBP_RULE_SAME_PORT) {
		fprintf(out, "%s and %s are the same end port: not a pair.\n",
			s, d);
		return;
	}
	fprintf(out, "%s -> %s: %s\n", s, d,
		e->can_talk ? "CAN TALK" : "CANNOT TALK");
	fprintf(out, "P_KeyTables:\n");
	print_table(m, e->src, out);
	print_table(m, e->dst, out);
	if (e->nshared)
		fprintf(out, "Shared partitions:\n");
	for (size_t i = 0; i < e->nshared; i++) {
		const ibp_explain_entry *x = &e->shared[i];
		fprintf(out,
			"  base 0x%04x: %s Pkey[%u] 0x%04x (%s) vs %s "
			"Pkey[%u] 0x%04x (%s): %s\n",
			x->base, s, x->src_index, x->src_pkey,
			member_str(x->src_pkey), d, x->dst_index, x->dst_pkey,
			member_str(x->dst_pkey),
			x->match ? "match"
				 : "no match (limited-limited never matches)");
	}
	fprintf(out, "Rule (IBA vol. 1, 10.9.3): ");
	switch (e->rule) {
	case IBP_RULE_FULL_FULL:
		fprintf(out, "a shared partition with both ends full members: "
			     "packets are accepted both ways.\n");
		break;
	case IBP_RULE_FULL_LIMITED:
		fprintf(out, "a shared partition with one end a full member "
			     "and the other limited: full-limited matches, "
			     "packets are accepted both ways.\n");
		break;
	case IBP_RULE_LIMITED_LIMITED:
		fprintf(out, "every shared partition has both ends limited "
			     "members; limited-limited never matches, so the "
			     "receiving HCA drops the packets (P_Key "
			     "violation, trap 257).\n");
		break;
	case IBP_RULE_NO_SHARED_PARTITION:
		fprintf(out, "no valid P_Key base is in both tables, so the "
			     "receiving HCA drops the packets (P_Key "
			     "violation, trap 257).\n");
		break;
	case IBP_RULE_SAME_PORT:
		break;
	}
}
