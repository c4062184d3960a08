/*
 * service_adopt.c - an operator's P_Key handed to the API (`POST
 * /ibpart/v1/adopt`): its statements in the operator's part of
 * partitions.conf become one API partition (name, ipoib, QoS, every
 * GUID member with its membership and indx0), the statements are cut
 * from the operator's text (a comment left in their place; the rest of
 * their lines untouched), the isolation guard judges the result, the
 * database records it as one revision and the file is rewritten at
 * once.  Only GUID members can be adopted: the API lists GUIDs, so a
 * statement with ALL, SELF or a name is refused.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "service/service_internal.h"
#include "conf/conf_lib.h"

/* Byte offset of a 1-based line and column in text. */
static size_t offset_of(const char *text, size_t len, ibp_conf_pos pos)
{
	size_t off = 0;
	for (unsigned line = 1; line < pos.line && off < len; off++)
		if (text[off] == '\n')
			line++;
	off += pos.col ? pos.col - 1 : 0;
	return off < len ? off : len;
}

/* The end of the statement that starts at off: past its ';' (comments
 * skipped), or len. */
static size_t statement_end(const char *text, size_t len, size_t off)
{
	while (off < len) {
		if (text[off] == '#')
			while (off < len && text[off] != '\n')
				off++;
		else if (text[off++] == ';')
			return off;
	}
	return len;
}

/* One definition's flags and members into p; IBP_EINVAL with e for what
 * the API cannot hold. */
static int take_definition(struct svc_part *p, const ibp_conf_partition *d,
			   struct ibp_service_error *e)
{
	const ibp_conf_flags *f = ibp_conf_partition_flags(d);
	p->ipoib = p->ipoib || f->ipoib;
	if (f->has_mtu || f->has_rate || f->has_sl) {
		if (!p->has_qos) {
			p->mtu_limit = 2;
			p->rate_limit = 10;
		}
		p->has_qos = true;
		if (f->has_mtu) {
			if (f->mtu != 4 && f->mtu != 5)
				return svc_fail(e, IBP_EINVAL, "pkey",
						"pkey: mtu=%u has no UFM "
						"mtu_limit (2 or 4 KiB)",
						f->mtu);
			p->mtu_limit = f->mtu == 5 ? 4 : 2;
		}
		if (f->has_rate) {
			if (!svc_rate_gbps(f->rate))
				return svc_fail(e, IBP_EINVAL, "pkey",
						"pkey: rate=%u is no IBA rate "
						"code",
						f->rate);
			p->rate_limit = svc_rate_gbps(f->rate);
		}
		if (f->has_sl)
			p->sl = f->sl;
	}
	for (size_t k = 0; k < ibp_conf_partition_member_count(d); k++) {
		const ibp_conf_member *m = ibp_conf_partition_member(d, k);
		if (m->kind != IBP_MEMBER_GUID)
			return svc_fail(
			    e, IBP_EINVAL, "pkey",
			    "pkey: line %u: member %s is not a port "
			    "GUID; the API lists GUIDs only",
			    m->pos.line, m->text);
		if (svc_part_set_member(p, m->guid,
					m->membership != IBP_MEMB_LIMITED,
					m->indx0) < 0)
			return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	return IBP_OK;
}

/* The operator's text without the statements of g. */
static char *cut(const char *text, size_t len, const ibp_conf_group *g,
		 size_t *out_len)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	if (!f)
		return NULL;
	size_t at = 0;
	for (size_t i = 0; i < ibp_conf_group_partition_count(g); i++) {
		const ibp_conf_partition *d = ibp_conf_group_partition(g, i);
		size_t from = offset_of(text, len, ibp_conf_partition_pos(d));
		if (from < at)
			continue;
		size_t to = statement_end(text, len, from);
		fwrite(text + at, 1, from - at, f);
		fprintf(f,
			"# %s (P_Key 0x%04x) adopted by ibpartd: now in its "
			"generated section",
			ibp_conf_group_name(g), ibp_conf_group_pkey(g));
		at = to;
	}
	fwrite(text + at, 1, len - at, f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	*out_len = n;
	return out;
}

int ibp_service_adopt(ibp_service *s, const char *pkey, uint64_t *rev,
		      struct ibp_service_error *e)
{
	uint16_t pk;
	int rc = svc_parse_pkey_text(pkey, "pkey", &pk, e);
	if (rc)
		return rc;
	char *optext = NULL, *newop = NULL, *before = NULL, *after = NULL;
	size_t oplen = 0, newlen = 0, blen = 0, alen = 0;
	ibp_conf *opc = NULL;
	struct svc_plan np = {0};
	struct svc_snap *snap = NULL;
	/* the changes queued made durable first: the plan published is the
	 * writers' then, and the file written here is not overtaken by the
	 * applier's (file_lock) */
	pthread_mutex_lock(&s->write_lock);
	svc_commit_drain(s);
	pthread_mutex_lock(&s->file_lock);
	pthread_mutex_lock(&s->lock);
	svc_writers_begin(s);
	char problem[512];
	rc = svc_operator_text(s, &optext, &oplen, problem, sizeof(problem),
			       &e->err);
	if (!rc && problem[0])
		rc = ibp_error_set(&e->err, IBP_EIO, "%s", problem);
	if (!rc)
		rc = svc_parse_conf(s, s->partitions_path, optext, oplen, &opc,
				    &e->err);
	if (rc) {
		rc = svc_fail(e, IBP_EIO, NULL, "%s", e->err.message);
		goto out;
	}
	const ibp_conf_group *g = ibp_conf_group_find(opc, pk);
	if (!g) {
		rc = svc_fail(e, IBP_ENOENT, "pkey",
			      "pkey: the operator's lines do not define 0x%x",
			      pk);
		goto out;
	}
	struct svc_part *p = NULL;
	if (svc_plan_clone(&s->plan, &np) || !(p = svc_plan_add(&np, pk))) {
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
		goto out;
	}
	snprintf(p->name, sizeof(p->name), "%s", ibp_conf_group_name(g));
	p->ipoib = false;
	for (size_t i = 0; !rc && i < ibp_conf_group_partition_count(g); i++)
		rc = take_definition(p, ibp_conf_group_partition(g, i), e);
	if (rc)
		goto out;
	/* kept while empty, as a P_Key made by /add; once it has had a
	 * member, the last one to leave deletes it (UFM's rule) */
	p->created_empty = !p->n;
	if (!(newop = cut(optext, oplen, g, &newlen)) ||
	    svc_render(optext, oplen, &s->plan, &before, &blen) ||
	    svc_render(newop, newlen, &np, &after, &alen)) {
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
		goto out;
	}
	/* the guard without the lock, as a change's (service.c) */
	pthread_mutex_unlock(&s->lock);
	rc = svc_guard(s, NULL, false, before, blen, after, alen, e);
	pthread_mutex_lock(&s->lock);
	if (!rc && !(snap = svc_snap_new()))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (rc ||
	    (rc = svc_db_commit(s, &np, &pk, 1, s->rev + 1, "adopt", &e->err)))
		goto out;
	s->rev++;
	atomic_fetch_add(&s->commits, 1);
	svc_plan_publish(s, snap, &np);
	svc_writers_follow(s);
	snap = NULL;
	if (rev)
		*rev = s->rev;
	/* the operator's part changed: the file at once (the database
	 * already has the partition; a crash here leaves both copies,
	 * which OpenSM merges into the same P_Key) */
	rc = ibp_write_file_atomic(s->partitions_path, after, alen, true,
				   &e->err);
	pthread_cond_broadcast(&s->changed);
out:
	svc_plan_free(&np);
	free(snap);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->file_lock);
	pthread_mutex_unlock(&s->write_lock);
	ibp_conf_free(opc);
	free(optext);
	free(newop);
	free(before);
	free(after);
	return rc;
}
