/*
 * conf_writer.c - the policy written back as canonical OpenSM 3.3.23
 * partitions.conf: one statement per definition, the assigned P_Key
 * always explicit, every member with an explicit full/limited/both word,
 * names resolved to port GUIDs, flags as codes.  Written this way, the
 * file means the same to OpenSM whatever order it is read in, and none
 * of OpenSM's loose corners (prefixes, default membership, generated
 * numbers) come into play.  Files go to disk atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf_internal.h"
#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "conf/conf_lib.h"
#include "topo/topo_lib.h"
#include "util/error_lib.h"
#include "ibpart/sys/conf.h"

/* A name OpenSM reads back as the same name. */
static void write_name(FILE *out, const char *name)
{
	for (const char *s = name; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch <= ' ' || ch == ',' || ch == ':' || ch == '=' ||
		    ch == ';' || ch == '#' || ch >= 0x7f)
			fputc('_', out);
		else
			fputc(ch, out);
	}
}

static void write_flags(FILE *out, const ibp_conf_flags *f, bool partition)
{
	if (partition && f->ipoib)
		fputs(", ipoib", out);
	if (f->has_rate)
		fprintf(out, ", rate=%u", f->rate);
	if (f->has_mtu)
		fprintf(out, ", mtu=%u", f->mtu);
	for (unsigned s = 1; s < 16; s++)
		if (f->scope_mask & (1u << s))
			fprintf(out, ", scope=%u", s);
	if (f->has_sl)
		fprintf(out, ", sl=%u", f->sl);
	if (f->has_qkey && f->qkey)
		fprintf(out, ", Q_Key=0x%08x", f->qkey);
	if (f->has_tclass && f->tclass)
		fprintf(out, ", TClass=%u", f->tclass);
	if (f->has_flow_label)
		fprintf(out, ", FlowLabel=0x%05x", f->flow_label);
	if (partition && f->has_defmember)
		fprintf(out, ", defmember=%s",
			ibp_membership_str(f->defmember));
	if (partition && f->indx0)
		fputs(", indx0", out);
}

static const char *node_comment(const ibp_fabric *f, uint64_t guid)
{
	size_t n;
	unsigned port;
	if (!f || ibp_fabric_find_port_guid(f, guid, &n, &port))
		return NULL;
	return ibp_fabric_node_desc(f, n);
}

int ibp_conf_write_opensm(const ibp_conf *c, const ibp_fabric *f, FILE *out,
			  ibp_error *err)
{
	if (!c || !out)
		return ibp_error_set(err, IBP_EINVAL, "conf: bad argument");
	for (size_t i = 0; i < c->nparts; i++) {
		const struct ibp_conf_partition *p = c->parts[i];
		for (size_t j = 0; j < p->nmembers; j++)
			if (p->members[j].kind == IBP_MEMBER_NAME &&
			    !p->members[j].guid)
				return ibp_error_set_at(
				    err, IBP_EINVAL, c->file,
				    p->members[j].pos.line,
				    p->members[j].pos.col,
				    "node name '%s' is not resolved",
				    p->members[j].text);
	}
	fprintf(out,
		"# partitions.conf for OpenSM, written by ibpart from "
		"%s\n",
		c->file);
	for (size_t i = 0; i < c->nparts; i++) {
		const struct ibp_conf_partition *p = c->parts[i];
		if (!p->pkey)
			continue;
		fputc('\n', out);
		if (p->pkey == IBP_CONF_DEFAULT_PKEY && *p->name &&
		    strcmp(p->name, "Default"))
			fprintf(out, "# %s: the default partition\n", p->name);
		const char *name = p->pkey == IBP_CONF_DEFAULT_PKEY
				       ? "Default"
				       : (*p->name ? p->name : p->osm_name);
		write_name(out, name);
		fprintf(out, "=0x%04x", p->pkey);
		write_flags(out, &p->flags, true);
		fputs(" :\n", out);
		/* mgid items first, each ended by a comma: OpenSM reads the
		 * rest of an mgid's line as its flags, and an mgid that ends
		 * a statement makes it read past the ';' */
		for (size_t j = 0; j < p->nmgids; j++) {
			const ibp_conf_mgid *m = &p->mgids[j];
			fprintf(out, "\tmgid=%s", m->text);
			write_flags(out, &m->flags, false);
			fputs(",\n", out);
		}
		size_t last = p->nmembers;
		for (size_t j = 0; j < p->nmembers; j++)
			if (p->members[j].kind != IBP_MEMBER_NONE)
				last = j;
		for (size_t j = 0; last < p->nmembers && j <= last; j++) {
			const ibp_conf_member *m = &p->members[j];
			if (m->kind == IBP_MEMBER_NONE)
				continue;
			fputc('\t', out);
			if (m->kind == IBP_MEMBER_GUID ||
			    m->kind == IBP_MEMBER_NAME)
				fprintf(out, "0x%016llx",
					(unsigned long long)m->guid);
			else
				fputs(ibp_member_kind_str(m->kind), out);
			ibp_membership mb = m->membership;
			if (mb == IBP_MEMB_UNSPECIFIED)
				mb = IBP_MEMB_LIMITED;
			/* the ';' goes before the comment: a line holding
			 * only ';' makes OpenSM 3.3.23 read past the end of
			 * its line buffer */
			fprintf(out, "=%s%s", ibp_membership_str(mb),
				j < last ? "," : " ;");
			const char *desc = m->kind == IBP_MEMBER_NAME
					       ? m->text
					       : (m->kind == IBP_MEMBER_GUID
						      ? node_comment(f, m->guid)
						      : NULL);
			/* --vf-guids physical: the VF's alias, on its port */
			if (m->alias)
				fprintf(out, "\t# VF alias 0x%016llx%s",
					(unsigned long long)m->alias,
					desc ? " of" : "");
			if (desc) {
				fputs(m->alias ? " " : "\t# ", out);
				for (const char *d = desc; *d; d++)
					fputc(*d == '\n' || *d == '\r' ? ' '
								       : *d,
					      out);
			}
			fputc('\n', out);
		}
		if (last >= p->nmembers)
			fputs("\tNONE ;\n", out);
	}
	if (fflush(out) || ferror(out))
		return ibp_error_set(err, IBP_EIO, "write failed: %s",
				     strerror(errno));
	return IBP_OK;
}

int ibp_conf_write_opensm_path(const ibp_conf *c, const ibp_fabric *f,
			       const char *path, ibp_error *err)
{
	if (!c || !path)
		return ibp_error_set(err, IBP_EINVAL, "conf: bad argument");
	ibp_atomic_file *a;
	FILE *out;
	int rc = ibp_atomic_file_open(path, &a, &out, err);
	if (rc)
		return rc;
	rc = ibp_conf_write_opensm(c, f, out, err);
	if (rc) {
		ibp_atomic_file_discard(a);
		return rc;
	}
	rc = ibp_atomic_file_commit(a, false, err);
	return rc;
}
