/*
 * conf_dump.h - everything a parsed plan says, as one text, for tests
 * that compare two readings of the same file: the OpenSM verdict, each
 * partition (name, P_Keys, flags, position), each member (kind, GUID,
 * text, words, membership, indx0, line:col), each mgid, and every
 * finding as JSON.  The fast reading of member lines (conf_fastline.c)
 * must give exactly the text of the general reader.
 */
#ifndef IBPART_TEST_CONF_DUMP_H
#define IBPART_TEST_CONF_DUMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"

static inline void conf_dump_flags(FILE *m, const ibp_conf_flags *f)
{
	fprintf(m, " flags %d %d%d%d%d%d%d %u %u %u %x %x %u %x %d %d %d\n",
		f->ipoib, f->has_rate, f->has_mtu, f->has_sl, f->has_qkey,
		f->has_tclass, f->has_flow_label, f->rate, f->mtu, f->sl,
		f->scope_mask, f->qkey, f->tclass, f->flow_label,
		f->has_defmember, (int)f->defmember, f->indx0);
}

/* malloc'd; c may be NULL (then only the findings and rc) */
static inline char *conf_dump(int rc, const ibp_conf *c, const ibp_diags *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		abort();
	fprintf(m, "rc %d\n", rc);
	if (c) {
		const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
		fprintf(m, "verdict %d %s %u:%u %u %d\n", v->rejected,
			v->reason ? v->reason : "-", v->pos.line, v->pos.col,
			v->opensm_line, v->crashes);
		fprintf(m, "errors %zu warnings %zu groups %zu\n",
			ibp_conf_error_count(c), ibp_conf_warning_count(c),
			ibp_conf_group_count(c));
		for (size_t i = 0; i < ibp_conf_partition_count(c); i++) {
			const ibp_conf_partition *p =
			    ibp_conf_partition_at(c, i);
			const ibp_conf_flags *f = ibp_conf_partition_flags(p);
			uint16_t pw = 0;
			bool has = ibp_conf_partition_pkey_written(p, &pw);
			ibp_conf_pos pos = ibp_conf_partition_pos(p);
			fprintf(m, "part '%s' %d %04x %04x %u:%u group %zu\n",
				ibp_conf_partition_name(p), has, pw,
				ibp_conf_partition_pkey(p), pos.line, pos.col,
				ibp_conf_partition_group(p));
			conf_dump_flags(m, f);
			for (size_t j = 0;
			     j < ibp_conf_partition_member_count(p); j++) {
				const ibp_conf_member *e =
				    ibp_conf_partition_member(p, j);
				fprintf(m,
					" member %d %016llx '%s' %s %d %d %d "
					"%u:%u\n",
					(int)e->kind,
					(unsigned long long)e->guid, e->text,
					e->written_word ? e->written_word : "-",
					(int)e->written, (int)e->membership,
					e->indx0, e->pos.line, e->pos.col);
			}
			for (size_t j = 0; j < ibp_conf_partition_mgid_count(p);
			     j++) {
				const ibp_conf_mgid *g =
				    ibp_conf_partition_mgid(p, j);
				fprintf(m, " mgid '%s' %u:%u ", g->text,
					g->pos.line, g->pos.col);
				for (int b = 0; b < 16; b++)
					fprintf(m, "%02x", g->mgid[b]);
				conf_dump_flags(m, &g->flags);
			}
		}
	}
	char *js = ibp_diags_to_json(d);
	fprintf(m, "%s\n", js ? js : "(no json)");
	free(js);
	fclose(m);
	return buf;
}

#endif
