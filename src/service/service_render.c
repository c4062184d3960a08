/*
 * service_render.c - OpenSM's partitions.conf as the service writes it:
 * the operator's lines verbatim (comments, blank lines and all) up to the
 * marker line, then the generated section - per API partition one
 * statement for its members and, when some members ask for index 0, a
 * second statement of the same name and P_Key with OpenSM's indx0 flag
 * (OpenSM 3.3.23 applies indx0 to the members of the statement that
 * carries it, and merges statements of one P_Key: docs/opensm-
 * behaviour.md rules 8 and 13).  A partition without members is written
 * as a comment: OpenSM drops a partition no port of the fabric is in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "conf/partitions_marker.h"
#include "service/service_internal.h"
#include "util/file_read.h"
#include "conf/conf_lib.h"
#include "service/service_lib.h"

/* The operator's lines as last read from the partitions file, with the
 * file's identity then: a call that finds the same inode, size, mtime
 * and ctime takes the text kept (ibpartd renders the file for every
 * change and every view; at 4,000 partitions it is megabytes).  Only a
 * file read whole with its marker is kept: the other outcomes depend on
 * the database's text last seen, and are rare.  Its own lock, so that it
 * does not depend on the caller's. */
struct svc_opfile {
	pthread_mutex_t lock;
	bool valid;
	struct stat st;	      /* the file when text was read */
	struct timespec read; /* when (CLOCK_REALTIME, before the stat) */
	char *text;
	size_t len;
	unsigned long reads; /* the file read whole, since the open */
	/* the operator's lines this process last found recorded in the
	 * database, or recorded there itself: a file read again (ibpartd
	 * rewrites it after each change, so its identity changes every
	 * time) with the same lines needs neither the record read (the
	 * whole text, megabytes at 4,000 partitions) nor written (another
	 * process recording other lines meanwhile - `ibpartd adopt` beside
	 * a running daemon - is not seen; the record is read only while
	 * the file is missing or without its marker) */
	char *recorded;
	size_t rlen;
};

struct svc_opfile *svc_opfile_new(void)
{
	struct svc_opfile *c = calloc(1, sizeof(*c));
	if (c)
		pthread_mutex_init(&c->lock, NULL);
	return c;
}

void svc_opfile_free(struct svc_opfile *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->text);
	free(c->recorded);
	free(c);
}

bool svc_stat_racy(const struct timespec *t, const struct timespec *when)
{
	long long margin = t->tv_nsec ? 100000000LL : 1000000000LL;
	long long tn = (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
	long long wn = (long long)when->tv_sec * 1000000000LL + when->tv_nsec;
	return tn + margin >= wn;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The kept text, when the file is still the one it was read from: a
 * copy into *text (true); else false. */
static bool kept_text(struct svc_opfile *c, const struct stat *st, char **text,
		      size_t *len)
{
	pthread_mutex_lock(&c->lock);
	bool hit = c->valid && same_file(&c->st, st) &&
		   !svc_stat_racy(&st->st_mtim, &c->read) &&
		   !svc_stat_racy(&st->st_ctim, &c->read);
	if (hit && (*text = malloc(c->len + 1))) {
		memcpy(*text, c->text, c->len + 1);
		*len = c->len;
	} else {
		hit = false;
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

/* Keep text (len bytes) as the lines of the file st; st NULL: forget
 * them.  read: the file was just read whole (counted). */
static void keep_text(struct svc_opfile *c, const struct stat *st,
		      const struct timespec *when, const char *text, size_t len,
		      bool read)
{
	char *copy = st ? malloc(len + 1) : NULL;
	if (copy)
		memcpy(copy, text, len + 1);
	pthread_mutex_lock(&c->lock);
	free(c->text);
	c->text = copy;
	c->len = len;
	c->valid = copy != NULL;
	if (copy) {
		c->st = *st;
		c->read = *when;
	}
	c->reads += read;
	pthread_mutex_unlock(&c->lock);
}

/* Are text's len bytes the lines last found recorded (recorded: now
 * they are)? */
static bool is_recorded(struct svc_opfile *c, const char *text, size_t len)
{
	pthread_mutex_lock(&c->lock);
	bool same =
	    c->recorded && c->rlen == len && !memcmp(c->recorded, text, len);
	pthread_mutex_unlock(&c->lock);
	return same;
}

static void set_recorded(struct svc_opfile *c, const char *text, size_t len)
{
	char *copy = malloc(len + 1);
	if (copy) {
		memcpy(copy, text, len);
		copy[len] = 0;
	}
	pthread_mutex_lock(&c->lock);
	free(c->recorded);
	c->recorded = copy;
	c->rlen = len;
	pthread_mutex_unlock(&c->lock);
}

unsigned long ibp_service_partitions_file_reads(ibp_service *s)
{
	pthread_mutex_lock(&s->opfile->lock);
	unsigned long n = s->opfile->reads;
	pthread_mutex_unlock(&s->opfile->lock);
	return n;
}

/* The text last seen (the database's), "" when none, into *text. */
static int last_seen(ibp_service *s, char **text, size_t *len, ibp_error *err)
{
	*text = svc_db_meta(s, SVC_META_OPERATOR);
	if (!*text)
		*text = strdup("");
	*len = *text ? strlen(*text) : 0;
	return *text ? IBP_OK : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

int svc_operator_text(ibp_service *s, char **text, size_t *len, char *problem,
		      size_t psize, ibp_error *err)
{
	problem[0] = 0;
	struct stat st;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	bool have_st = stat(s->partitions_path, &st) == 0;
	if (have_st && kept_text(s->opfile, &st, text, len))
		return IBP_OK; /* recorded in the database when it was read */
	ibp_error e;
	int rc = ibp_file_read_all(s->partitions_path, 0, text, len, &e);
	int erno = errno;
	keep_text(s->opfile, NULL, NULL, NULL, 0,
		  rc != IBP_EIO || erno != ENOENT);
	const char *m = rc ? NULL : ibp_partitions_marker_find(*text);
	if (m && is_recorded(s->opfile, *text, (size_t)(m - *text))) {
		*len = (size_t)(m - *text);
		(*text)[*len] = 0;
		if (have_st)
			keep_text(s->opfile, &st, &now, *text, *len, false);
		return IBP_OK;
	}
	char *seen = svc_db_meta(s, SVC_META_OPERATOR);
	bool known = seen != NULL;
	if (rc && !known && rc == IBP_EIO && erno == ENOENT) {
		/* never seen: nothing of the operator's to lose */
		*text = strdup("");
		*len = 0;
		return *text ? IBP_OK
			     : ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	if (rc || (!m && known)) {
		if (rc)
			snprintf(problem, psize,
				 "%s: %s; the operator's lines last seen are "
				 "kept in the database, the file is not "
				 "written until it is back",
				 s->partitions_path,
				 erno == ENOENT ? "missing" : e.message);
		else
			snprintf(problem, psize,
				 "%s: the marker line of ibpartd's generated "
				 "section is missing: the operator's lines and "
				 "the API's cannot be told apart; the file is "
				 "not written until the marker is back",
				 s->partitions_path);
		free(seen);
		if (!rc)
			free(*text);
		return last_seen(s, text, len, err);
	}
	if (m) {
		*len = (size_t)(m - *text);
		(*text)[*len] = 0;
	}
	rc = IBP_OK;
	if (m && (!seen || strcmp(seen, *text)))
		rc = svc_db_meta_set(s, SVC_META_OPERATOR, *text, *len, err);
	free(seen);
	if (!rc && m)
		set_recorded(s->opfile, *text, *len);
	if (rc) {
		free(*text);
		*text = NULL;
	} else if (m && have_st) {
		/* st was taken before the read: a change in between only
		 * makes the next call read again */
		keep_text(s->opfile, &st, &now, *text, *len, false);
	}
	return rc;
}

void svc_file_problem(const ibp_service *s, const ibp_conf *opc, char *problem,
		      size_t psize)
{
	if (problem[0] || !opc)
		return;
	size_t n = 0, at = 0;
	for (size_t i = 0; i < s->plan.n; i++) {
		const ibp_conf_group *g =
		    ibp_conf_group_find(opc, s->plan.p[i].pkey);
		if (!g)
			continue;
		if (!n++)
			at = (size_t)snprintf(
			    problem, psize,
			    "P_Keys defined both by the operator's lines of %s "
			    "and by the API (OpenSM would merge their members "
			    "into one partition):",
			    s->partitions_path);
		if (at < psize)
			at += (size_t)snprintf(problem + at, psize - at,
					       " 0x%04x (the operator's %s)",
					       s->plan.p[i].pkey,
					       ibp_conf_group_name(g));
	}
	if (n && at < psize)
		snprintf(problem + at, psize - at,
			 "; the file is not written until one side gives it "
			 "up (edit the operator's lines, or DELETE it through "
			 "the API)");
}

bool ibp_service_manages_file(const char *path)
{
	return ibp_partitions_file_managed(path);
}

/* The header of one statement: name, P_Key and flags. */
static void header(FILE *f, const struct svc_part *p, bool indx0)
{
	fprintf(f, "%s=0x%04x", p->name, p->pkey);
	if (p->ipoib)
		fputs(", ipoib", f);
	if (p->has_qos)
		fprintf(f, ", mtu=%u, rate=%u, sl=%u",
			svc_mtu_code(p->mtu_limit),
			svc_rate_code(p->rate_limit), p->sl);
	if (indx0)
		fputs(", indx0", f);
	fputs(" :", f);
}

/* The members with index0 == indx0, four to a line (OpenSM reads lines
 * of at most 4094 bytes; a statement may span lines). */
static void statement(FILE *f, const struct svc_part *p, bool indx0)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++)
		k += p->m[i].index0 == indx0;
	if (!k)
		return;
	header(f, p, indx0);
	size_t j = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->m[i].index0 != indx0)
			continue;
		fprintf(f, "%s0x%016" PRIx64 "=%s",
			!j	? "\n\t"
			: j % 4 ? ", "
				: ",\n\t",
			p->m[i].guid, p->m[i].full ? "full" : "limited");
		j++;
	}
	fputs(" ;\n", f);
}

int svc_render(const char *operator_text, size_t oplen,
	       const struct svc_plan *plan, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *f = open_memstream(text, len);
	if (!f)
		return IBP_ENOMEM;
	fwrite(operator_text, 1, oplen, f);
	if (oplen && operator_text[oplen - 1] != '\n')
		fputc('\n', f);
	fprintf(f,
		"%s\n# Partitions of UFM's P_Key API, kept in ibpartd's "
		"database; the lines above are the operator's.\n",
		SVC_MARKER);
	for (size_t i = 0; i < plan->n; i++) {
		const struct svc_part *p = &plan->p[i];
		if (!p->n) {
			fprintf(f, "# %s=0x%04x has no members yet\n", p->name,
				p->pkey);
			continue;
		}
		statement(f, p, false);
		statement(f, p, true);
	}
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return IBP_ENOMEM;
	}
	return IBP_OK;
}

int svc_parse_conf(const ibp_service *s, const char *name, const char *text,
		   size_t len, ibp_conf **out, ibp_error *err)
{
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.dialect = IBP_CONF_DIALECT_OPENSM;
	o.allow_both_pkeys = s->allow_both_pkeys;
	return ibp_conf_parse_buffer(name, text, len, &o, out, NULL, err);
}

ibp_vf_guids svc_vf_reading(const ibp_service *s)
{
	return s->vf_guids == IBP_VF_GUIDS_PHYSICAL
		   ? IBP_VF_GUIDS_PHYSICAL_GENERATED
		   : IBP_VF_GUIDS_ALIAS;
}

int svc_parse_conf_on(const ibp_service *s, const ibp_fabric *f,
		      const char *name, const char *text, size_t len,
		      ibp_conf **out, ibp_error *err)
{
	return svc_parse_conf_vf(s, f, svc_vf_reading(s), name, text, len, out,
				 err);
}

int svc_parse_conf_vf(const ibp_service *s, const ibp_fabric *f,
		      ibp_vf_guids vf, const char *name, const char *text,
		      size_t len, ibp_conf **out, ibp_error *err)
{
	if (vf == IBP_VF_GUIDS_ALIAS || !f)
		return svc_parse_conf(s, name, text, len, out, err);
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.dialect = IBP_CONF_DIALECT_OPENSM;
	o.allow_both_pkeys = s->allow_both_pkeys;
	o.fabric = f;
	char *aliases = svc_alias_path(s);
	o.alias_guids_path = aliases;
	o.vf_guids = vf;
	int rc = ibp_conf_parse_buffer(name, text, len, &o, out, NULL, err);
	free(aliases);
	return rc;
}
