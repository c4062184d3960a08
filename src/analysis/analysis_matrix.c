/*
 * analysis_matrix.c - the data-plane reachability matrix of a fabric's end
 * ports (see include/ibpart/analysis.h).
 *
 * Two end ports can exchange packets iff some valid P_Key base is in both
 * tables and at least one of the two entries is a full member (IBA vol.
 * 1, 10.9.3).  Only each port's effective membership matters (per base:
 * none, limited or full), so ports are grouped into classes with the same
 * membership set and the matrix is computed per class pair:
 *
 *   row(A) = OR over (base b in A) of  A full in b ? members(b) : full(b)
 *
 * where members(b) / full(b) are the classes that hold b (at all / as a
 * full member).  A partition held by many classes keeps those sets as
 * bitsets over classes (a row update is K/64 word ORs); a small one keeps
 * a list (a row update touches only its members).  The rows are K x K bits.
 * When that would exceed IBP_MATRIX_MAX_ROW_BYTES the rows are not stored:
 * a class pair is then answered by merging the two sorted key lists, and
 * the reach counts compute each row once into a scratch row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "analysis/audit_priv.h"
#include "util/progress_lib.h"
#include "pkey/pkey_table_lib.h"
#include "util/options_version.h"

#define IBP_MATRIX_MAX_ROW_BYTES (192u * 1024u * 1024u)

typedef uint64_t word_t;
#define WBITS 64u

struct ibp_matrix {
	const ibp_tables *ts;
	const ibp_fabric *f;
	size_t n; /* end ports */
	bool sw0; /* switch port 0 among them (include_switch_port0) */
	size_t *ep_node;
	unsigned *ep_port;
	size_t *ep_class;
	char **ep_label; /* "desc/port" for a node with several end ports
			    (NULL entries: the description); NULL if none */

	size_t k;	 /* classes */
	size_t *cls_off; /* [k+1] into cls_keys */
	uint16_t *cls_keys;
	size_t *cls_size;
	size_t *mem_off; /* [k+1] into mem */
	size_t *mem;	 /* end ports by class */

	size_t nparts; /* distinct valid bases */

	size_t words; /* per row */
	word_t *rows; /* k * words, or NULL (answer by merge) */

	/* partitions: base -> index, member classes (c << 1 | full) */
	int32_t *pidx; /* [0x8000] */
	size_t np;
	size_t *poff; /* [np + 1] into pmem */
	size_t *pmem;
	word_t **dm, **df; /* dense partitions: member / full-member bits */

	/* derived lazily */
	size_t *cls_reach; /* ports a member of the class reaches */
	uint64_t pairs;
};

static int cmp_u16_base(const void *a, const void *b)
{
	uint16_t x = ibp_pkey_base(*(const uint16_t *)a);
	uint16_t y = ibp_pkey_base(*(const uint16_t *)b);
	return (x > y) - (x < y);
}

/* Sorted, one key per base, the full bit set when any entry is full. */
size_t analysis_keys_effective(uint16_t *buf, size_t n)
{
	size_t v = 0;
	for (size_t i = 0; i < n; i++)
		if (ibp_pkey_is_valid(buf[i]))
			buf[v++] = buf[i];
	if (v > 1)
		qsort(buf, v, sizeof(*buf), cmp_u16_base);
	size_t o = 0;
	for (size_t i = 0; i < v; i++) {
		if (o && ibp_pkey_base(buf[o - 1]) == ibp_pkey_base(buf[i]))
			buf[o - 1] |= buf[i] & IBP_PKEY_FULL_BIT;
		else
			buf[o++] = buf[i];
	}
	return o;
}

int analysis_keys_set_on(const ibp_matrix *m, size_t node, unsigned port,
			 const uint16_t *keys, size_t nkeys, long *ep,
			 uint16_t **k, size_t *nk)
{
	*k = NULL;
	*nk = 0;
	if ((*ep = ibp_matrix_find(m, node, port)) < 0)
		return IBP_ENOENT;
	if (!(*k = malloc((nkeys + 1) * sizeof(**k))))
		return IBP_ENOMEM;
	memcpy(*k, keys, nkeys * sizeof(**k));
	*nk = analysis_keys_effective(*k, nkeys);
	return IBP_OK;
}

static size_t effective_keys(const ibp_pkey_table *t, uint16_t *buf)
{
	size_t n = 0;
	unsigned used = t ? ibp_pkey_table_used(t) : 0;
	for (unsigned i = 0; i < used; i++)
		buf[n++] = ibp_pkey_table_get(t, i);
	return analysis_keys_effective(buf, n);
}

uint64_t analysis_keys_hash(const uint16_t *k, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ n;
	for (size_t i = 0; i < n; i++) {
		h ^= k[i];
		h *= 1099511628211ull;
	}
	return h ^ (h >> 29);
}

/* Does a member of class a match a member of class b (merge of the two
 * sorted key lists)? */
bool analysis_keys_match(const uint16_t *a, size_t na, const uint16_t *b,
			 size_t nb)
{
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		uint16_t x = ibp_pkey_base(a[i]), y = ibp_pkey_base(b[j]);
		if (x < y)
			i++;
		else if (x > y)
			j++;
		else {
			if (ibp_pkey_match(a[i], b[j]))
				return true;
			i++;
			j++;
		}
	}
	return false;
}

static bool is_endpoint(const ibp_tables *ts, const ibp_fabric *f, size_t n,
			unsigned p, bool sw0)
{
	ibp_node_type t = ibp_fabric_node_type(f, n);
	if (t == IBP_NODE_SWITCH)
		return sw0 && p == 0;
	if (p == 0)
		return false;
	size_t pn;
	unsigned pp;
	/* a port the subnet has no LID for has a table but no address:
	 * it reaches no one (the `no-lid` finding says so) */
	if (ibp_fabric_port_is_lidless(f, n, p))
		return false;
	if (ibp_tables_get(ts, n, p))
		return true;
	return ibp_fabric_port_peer(f, n, p, &pn, &pp);
}

struct build {
	/* class hash */
	size_t hcap;
	size_t *htab; /* class id + 1, 0 empty */
	size_t kcap, keycap;
};

static int add_class(ibp_matrix *m, struct build *b, const uint16_t *keys,
		     size_t nk, size_t *cls)
{
	uint64_t h = analysis_keys_hash(keys, nk);
	size_t mask = b->hcap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		size_t c = b->htab[i];
		if (!c)
			break;
		c--;
		size_t cn = m->cls_off[c + 1] - m->cls_off[c];
		if (cn == nk && !memcmp(m->cls_keys + m->cls_off[c], keys,
					nk * sizeof(*keys))) {
			*cls = c;
			return 0;
		}
	}
	/* new class */
	if (m->k + 2 > b->kcap) {
		size_t nc = b->kcap * 2;
		size_t *o = realloc(m->cls_off, nc * sizeof(*o));
		if (!o)
			return IBP_ENOMEM;
		m->cls_off = o;
		b->kcap = nc;
	}
	size_t used = m->cls_off[m->k];
	if (used + nk > b->keycap) {
		size_t nc = b->keycap * 2 + nk;
		uint16_t *k = realloc(m->cls_keys, nc * sizeof(*k));
		if (!k)
			return IBP_ENOMEM;
		m->cls_keys = k;
		b->keycap = nc;
	}
	memcpy(m->cls_keys + used, keys, nk * sizeof(*keys));
	m->cls_off[m->k + 1] = used + nk;
	*cls = m->k++;
	/* insert; grow the table at half load */
	if (m->k * 2 > b->hcap) {
		size_t ncap = b->hcap * 2;
		size_t *nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return IBP_ENOMEM;
		for (size_t c = 0; c < m->k; c++) {
			const uint16_t *ck = m->cls_keys + m->cls_off[c];
			size_t cn = m->cls_off[c + 1] - m->cls_off[c];
			size_t i = analysis_keys_hash(ck, cn) & (ncap - 1);
			while (nt[i])
				i = (i + 1) & (ncap - 1);
			nt[i] = c + 1;
		}
		free(b->htab);
		b->htab = nt;
		b->hcap = ncap;
	} else {
		size_t i = h & mask;
		while (b->htab[i])
			i = (i + 1) & mask;
		b->htab[i] = *cls + 1;
	}
	return 0;
}

/* The partition index: base -> partition, and per partition the member
 * classes (a list, and bitsets when the partition is dense). */
static int build_partitions(ibp_matrix *m)
{
	size_t k = m->k;
	m->pidx = malloc(0x8000 * sizeof(*m->pidx));
	if (!m->pidx)
		return IBP_ENOMEM;
	for (size_t i = 0; i < 0x8000; i++)
		m->pidx[i] = -1;
	size_t np = 0;
	size_t nkeys = m->cls_off[k];
	for (size_t i = 0; i < nkeys; i++) {
		uint16_t b = ibp_pkey_base(m->cls_keys[i]);
		if (m->pidx[b] < 0)
			m->pidx[b] = (int32_t)np++;
	}
	m->np = np;
	m->poff = calloc(np + 1, sizeof(*m->poff));
	m->pmem = malloc((nkeys ? nkeys : 1) * sizeof(*m->pmem));
	m->dm = calloc(np ? np : 1, sizeof(*m->dm));
	m->df = calloc(np ? np : 1, sizeof(*m->df));
	size_t *fill = malloc((np ? np : 1) * sizeof(*fill));
	if (!m->poff || !m->pmem || !m->dm || !m->df || !fill) {
		free(fill);
		return IBP_ENOMEM;
	}
	for (size_t i = 0; i < nkeys; i++)
		m->poff[m->pidx[ibp_pkey_base(m->cls_keys[i])] + 1]++;
	for (size_t p = 0; p < np; p++)
		m->poff[p + 1] += m->poff[p];
	memcpy(fill, m->poff, np * sizeof(*fill));
	for (size_t c = 0; c < k; c++)
		for (size_t i = m->cls_off[c]; i < m->cls_off[c + 1]; i++) {
			uint16_t key = m->cls_keys[i];
			size_t p = (size_t)m->pidx[ibp_pkey_base(key)];
			m->pmem[fill[p]++] =
			    c << 1 | (ibp_pkey_is_full(key) ? 1 : 0);
		}
	free(fill);
	/* dense partitions: more members than a row has words, so ORing a
	 * bitset is cheaper than walking the list */
	for (size_t p = 0; p < np; p++) {
		size_t cnt = m->poff[p + 1] - m->poff[p];
		if (cnt <= m->words)
			continue;
		m->dm[p] = calloc(m->words, sizeof(word_t));
		m->df[p] = calloc(m->words, sizeof(word_t));
		if (!m->dm[p] || !m->df[p])
			return IBP_ENOMEM;
		for (size_t i = m->poff[p]; i < m->poff[p + 1]; i++) {
			size_t c = m->pmem[i] >> 1;
			m->dm[p][c / WBITS] |= (word_t)1 << (c % WBITS);
			if (m->pmem[i] & 1)
				m->df[p][c / WBITS] |= (word_t)1 << (c % WBITS);
		}
	}
	return 0;
}

/* row(a) = OR over a's keys of (full ? members : full members). */
static void compute_row(const ibp_matrix *m, size_t a, word_t *row)
{
	memset(row, 0, m->words * sizeof(word_t));
	for (size_t i = m->cls_off[a]; i < m->cls_off[a + 1]; i++) {
		uint16_t key = m->cls_keys[i];
		size_t p = (size_t)m->pidx[ibp_pkey_base(key)];
		bool full = ibp_pkey_is_full(key);
		if (m->dm[p]) {
			const word_t *src = full ? m->dm[p] : m->df[p];
			for (size_t w = 0; w < m->words; w++)
				row[w] |= src[w];
			continue;
		}
		for (size_t j = m->poff[p]; j < m->poff[p + 1]; j++)
			if (full || (m->pmem[j] & 1)) {
				size_t c = m->pmem[j] >> 1;
				row[c / WBITS] |= (word_t)1 << (c % WBITS);
			}
	}
}

static int compute_rows(ibp_matrix *m, size_t max_bytes)
{
	size_t k = m->k;
	m->words = (k + WBITS - 1) / WBITS;
	if (build_partitions(m))
		return IBP_ENOMEM;
	if (!k ||
	    (double)k * (double)m->words * sizeof(word_t) >
		(double)(max_bytes ? max_bytes : IBP_MATRIX_MAX_ROW_BYTES))
		return 0; /* rows computed when asked, one at a time */
	m->rows = malloc(k * m->words * sizeof(word_t));
	if (!m->rows)
		return IBP_ENOMEM;
	for (size_t a = 0; a < k; a++)
		compute_row(m, a, m->rows + a * m->words);
	return 0;
}

/* A node with two end ports in the matrix (a dual-port CA) would give two
 * rows the same name: those are labelled "desc/port", the form
 * ibp_fabric_resolve_port() reads back.  A description with bytes a
 * terminal acts on (a tenant's HCA can say anything) is labelled by its
 * escaped text (escape.h), so no report prints it raw. */
static int build_labels(ibp_matrix *m)
{
	for (size_t i = 0; i < m->n; i++) {
		size_t nd = m->ep_node[i];
		const char *desc = ibp_fabric_node_desc(m->f, nd);
		bool dual = (i && m->ep_node[i - 1] == nd) ||
			    (i + 1 < m->n && m->ep_node[i + 1] == nd);
		bool plain = !ibp_escape_needed(desc, strlen(desc));
		if (!dual && plain)
			continue; /* the description itself (no allocation) */
		char *esc = ibp_escape_text(desc, strlen(desc));
		if (!esc)
			return IBP_ENOMEM;
		if (!m->ep_label &&
		    !(m->ep_label = calloc(m->n, sizeof(*m->ep_label)))) {
			free(esc);
			return IBP_ENOMEM;
		}
		int rc = dual ? asprintf(&m->ep_label[i], "%s/%u", esc,
					 m->ep_port[i])
			      : asprintf(&m->ep_label[i], "%s", esc);
		free(esc);
		if (rc < 0) {
			m->ep_label[i] = NULL;
			return IBP_ENOMEM;
		}
	}
	return 0;
}

IBP_OPTIONS_LAYOUT(matrix_options_layout, "matrix options",
		   IBP_MATRIX_OPTIONS_VERSION, sizeof(ibp_matrix_options));

/* The library's defaults, a whole current struct. */
static void matrix_options_defaults(ibp_matrix_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MATRIX_OPTIONS_VERSION;
}

void ibp_matrix_options_init(ibp_matrix_options *o, unsigned version)
{
	ibp_matrix_options d;
	matrix_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &matrix_options_layout);
}

int ibp_matrix_build(const ibp_tables *ts, const ibp_matrix_options *o,
		     ibp_matrix **out, ibp_error *err)
{
	if (!ts || !out)
		return ibp_error_set(err, IBP_EINVAL, "no tables to analyse");
	*out = NULL;
	ibp_matrix_options own; /* NULL o: the defaults */
	matrix_options_defaults(&own);
	if (ibp_options_take(&own, o, &matrix_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	bool sw0 = o && o->include_switch_port0;
	const ibp_fabric *f = ibp_tables_fabric(ts);
	ibp_matrix *m = calloc(1, sizeof(*m));
	struct build b = {0};
	uint16_t *buf = NULL;
	if (!m)
		goto enomem;
	m->ts = ts;
	m->f = f;
	m->sw0 = sw0;
	size_t nn = ibp_fabric_node_count(f), cap = 0;
	for (size_t n = 0; n < nn; n++)
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++)
			if (is_endpoint(ts, f, n, p, sw0))
				cap++;
	m->ep_node = malloc((cap + 1) * sizeof(*m->ep_node));
	m->ep_port = malloc((cap + 1) * sizeof(*m->ep_port));
	m->ep_class = malloc((cap + 1) * sizeof(*m->ep_class));
	b.kcap = 64;
	b.keycap = 256;
	b.hcap = 128;
	m->cls_off = calloc(b.kcap, sizeof(*m->cls_off));
	m->cls_keys = malloc(b.keycap * sizeof(*m->cls_keys));
	b.htab = calloc(b.hcap, sizeof(*b.htab));
	buf = malloc(IBP_PKEY_TABLE_MAX * sizeof(*buf));
	if (!m->ep_node || !m->ep_port || !m->ep_class || !m->cls_off ||
	    !m->cls_keys || !b.htab || !buf)
		goto enomem;
	for (size_t n = 0; n < nn; n++)
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++) {
			if (!is_endpoint(ts, f, n, p, sw0))
				continue;
			size_t nk =
			    effective_keys(ibp_tables_get(ts, n, p), buf);
			size_t c;
			if (add_class(m, &b, buf, nk, &c))
				goto enomem;
			m->ep_node[m->n] = n;
			m->ep_port[m->n] = p;
			m->ep_class[m->n] = c;
			m->n++;
			if (m->n < cap) /* the end is reported below */
				ibp_progress_tick(o ? o->progress : NULL,
						  "building the matrix", m->n,
						  cap, 8192);
		}
	/* members by class */
	m->cls_size = calloc(m->k + 1, sizeof(*m->cls_size));
	m->mem_off = calloc(m->k + 1, sizeof(*m->mem_off));
	m->mem = malloc((m->n + 1) * sizeof(*m->mem));
	if (!m->cls_size || !m->mem_off || !m->mem)
		goto enomem;
	for (size_t i = 0; i < m->n; i++)
		m->cls_size[m->ep_class[i]]++;
	for (size_t c = 0; c < m->k; c++)
		m->mem_off[c + 1] = m->mem_off[c] + m->cls_size[c];
	{
		size_t *fill = calloc(m->k + 1, sizeof(*fill));
		if (!fill)
			goto enomem;
		for (size_t i = 0; i < m->n; i++) {
			size_t c = m->ep_class[i];
			m->mem[m->mem_off[c] + fill[c]++] = i;
		}
		free(fill);
	}
	if (compute_rows(m, o ? o->max_row_bytes : 0) || build_labels(m))
		goto enomem;
	ibp_progress_report(o ? o->progress : NULL, "building the matrix", cap,
			    cap);
	m->nparts = m->np;
	free(b.htab);
	free(buf);
	*out = m;
	return 0;
enomem:
	free(b.htab);
	free(buf);
	ibp_matrix_free(m);
	return ibp_error_set(err, IBP_ENOMEM,
			     "out of memory building the "
			     "reachability matrix");
}

void ibp_matrix_free(ibp_matrix *m)
{
	if (!m)
		return;
	free(m->ep_node);
	free(m->ep_port);
	free(m->ep_class);
	for (size_t i = 0; m->ep_label && i < m->n; i++)
		free(m->ep_label[i]);
	free(m->ep_label);
	free(m->cls_off);
	free(m->cls_keys);
	free(m->cls_size);
	free(m->mem_off);
	free(m->mem);
	free(m->rows);
	free(m->cls_reach);
	for (size_t p = 0; m->dm && m->df && p < m->np; p++) {
		free(m->dm[p]);
		free(m->df[p]);
	}
	free(m->dm);
	free(m->df);
	free(m->pidx);
	free(m->poff);
	free(m->pmem);
	free(m);
}

const ibp_tables *ibp_matrix_tables(const ibp_matrix *m)
{
	return m->ts;
}

size_t ibp_matrix_endpoint_count(const ibp_matrix *m)
{
	return m->n;
}

bool ibp_matrix_endpoint(const ibp_matrix *m, size_t i, size_t *node,
			 unsigned *port)
{
	if (i >= m->n)
		return false;
	if (node)
		*node = m->ep_node[i];
	if (port)
		*port = m->ep_port[i];
	return true;
}

uint64_t ibp_matrix_endpoint_guid(const ibp_matrix *m, size_t i)
{
	if (i >= m->n)
		return 0;
	return ibp_fabric_port_guid(m->f, m->ep_node[i], m->ep_port[i]);
}

const char *ibp_matrix_endpoint_desc(const ibp_matrix *m, size_t i)
{
	if (i >= m->n)
		return "";
	return ibp_fabric_node_desc(m->f, m->ep_node[i]);
}

const char *ibp_matrix_endpoint_label(const ibp_matrix *m, size_t i)
{
	if (i >= m->n)
		return "";
	if (m->ep_label && m->ep_label[i])
		return m->ep_label[i];
	return ibp_fabric_node_desc(m->f, m->ep_node[i]);
}

long ibp_matrix_find(const ibp_matrix *m, size_t node, unsigned port)
{
	/* end ports are in (node, port) order: binary search */
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ep_node[mid] < node ||
		    (m->ep_node[mid] == node && m->ep_port[mid] < port))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && m->ep_node[lo] == node && m->ep_port[lo] == port)
		return (long)lo;
	return -1;
}

bool ibp_matrix_class_can_talk(const ibp_matrix *m, size_t a, size_t b)
{
	if (a >= m->k || b >= m->k)
		return false;
	if (m->rows)
		return (m->rows[a * m->words + b / WBITS] >> (b % WBITS)) & 1;
	return analysis_keys_match(
	    m->cls_keys + m->cls_off[a], m->cls_off[a + 1] - m->cls_off[a],
	    m->cls_keys + m->cls_off[b], m->cls_off[b + 1] - m->cls_off[b]);
}

bool ibp_matrix_can_talk(const ibp_matrix *m, size_t i, size_t j)
{
	if (i >= m->n || j >= m->n || i == j)
		return false;
	return ibp_matrix_class_can_talk(m, m->ep_class[i], m->ep_class[j]);
}

static int compute_reach(ibp_matrix *mm)
{
	if (mm->cls_reach)
		return 0;
	size_t *r = calloc(mm->k + 1, sizeof(*r));
	if (!r)
		return IBP_ENOMEM;
	word_t *scratch = NULL;
	if (!mm->rows) {
		scratch = malloc((mm->words ? mm->words : 1) * sizeof(word_t));
		if (!scratch) {
			free(r);
			return IBP_ENOMEM;
		}
	}
	uint64_t pairs2 = 0;
	for (size_t a = 0; a < mm->k; a++) {
		size_t sum = 0;
		const word_t *row = mm->rows + a * mm->words;
		if (!mm->rows) {
			compute_row(mm, a, scratch);
			row = scratch;
		}
		for (size_t w = 0; w < mm->words; w++) {
			word_t x = row[w];
			while (x) {
				size_t c =
				    w * WBITS + (size_t)__builtin_ctzll(x);
				sum += mm->cls_size[c];
				x &= x - 1;
			}
		}
		if ((row[a / WBITS] >> (a % WBITS)) & 1)
			sum--; /* not itself */
		r[a] = sum;
		pairs2 += (uint64_t)sum * mm->cls_size[a];
	}
	free(scratch);
	mm->cls_reach = r;
	mm->pairs = pairs2 / 2;
	return 0;
}

size_t ibp_matrix_reach_count(const ibp_matrix *m, size_t i)
{
	if (i >= m->n || compute_reach((ibp_matrix *)m))
		return 0;
	return m->cls_reach[m->ep_class[i]];
}

uint64_t ibp_matrix_pair_count(const ibp_matrix *m)
{
	if (compute_reach((ibp_matrix *)m))
		return 0;
	return m->pairs;
}

size_t ibp_matrix_class_count(const ibp_matrix *m)
{
	return m->k;
}

size_t ibp_matrix_class_of(const ibp_matrix *m, size_t endpoint)
{
	return endpoint < m->n ? m->ep_class[endpoint] : (size_t)-1;
}

size_t ibp_matrix_class_size(const ibp_matrix *m, size_t cls)
{
	return cls < m->k ? m->cls_size[cls] : 0;
}

const size_t *ibp_matrix_class_members(const ibp_matrix *m, size_t cls)
{
	return cls < m->k ? m->mem + m->mem_off[cls] : NULL;
}

const uint16_t *ibp_matrix_class_keys(const ibp_matrix *m, size_t cls,
				      size_t *n)
{
	if (cls >= m->k) {
		if (n)
			*n = 0;
		return NULL;
	}
	if (n)
		*n = m->cls_off[cls + 1] - m->cls_off[cls];
	return m->cls_keys + m->cls_off[cls];
}

size_t ibp_matrix_partition_count(const ibp_matrix *m)
{
	return m->nparts;
}

/* ---- explain ---- */

const char *ibp_match_rule_str(ibp_match_rule r)
{
	switch (r) {
	case IBP_RULE_SAME_PORT:
		return "same port";
	case IBP_RULE_FULL_FULL:
		return "full-full";
	case IBP_RULE_FULL_LIMITED:
		return "full-limited";
	case IBP_RULE_LIMITED_LIMITED:
		return "limited-limited";
	case IBP_RULE_NO_SHARED_PARTITION:
		return "no shared partition";
	}
	return "?";
}

IBP_RESULT_LAYOUT(explanation_layout, "ibp_explanation",
		  IBP_EXPLANATION_VERSION, sizeof(ibp_explanation));

int ibp_explanation_take(ibp_explanation *full, const ibp_explanation *e,
			 ibp_error *err)
{
	return ibp_result_take(full, sizeof(*full), e, &explanation_layout,
			       err);
}

/* ibp_matrix_explain_ports on the library's whole current result. */
static int explain_ports(const ibp_matrix *m, const char *src, const char *dst,
			 ibp_explanation *out, ibp_error *err)
{
	const char *spec[2] = {src, dst};
	long ep[2];
	for (int k = 0; k < 2; k++) {
		size_t n;
		unsigned p;
		int rc = ibp_fabric_resolve_port(m->f, spec[k], &n, &p, err);
		if (rc)
			return rc;
		if ((ep[k] = ibp_matrix_find(m, n, p)) < 0)
			return ibp_error_set(
			    err, IBP_ERANGE,
			    "%s is not an end port of the matrix (a CA port%s)",
			    spec[k],
			    m->sw0 ? " or switch port 0"
				   : "; --switch-ports adds switch port 0");
	}
	return ibp_matrix_explain(m, (size_t)ep[0], (size_t)ep[1], out, err);
}

int ibp_matrix_explain_ports(const ibp_matrix *m, const char *src,
			     const char *dst, ibp_explanation *caller,
			     ibp_error *err)
{
	if (ibp_result_check(caller, &explanation_layout, err))
		return IBP_EINVAL;
	ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};
	int rc = explain_ports(m, src, dst, &e, err);
	ibp_result_give(caller, &e, &explanation_layout);
	return rc;
}

int ibp_matrix_explain(const ibp_matrix *m, size_t src, size_t dst,
		       ibp_explanation *out, ibp_error *err)
{
	*out = (ibp_explanation){.version = IBP_EXPLANATION_VERSION};
	if (src >= m->n || dst >= m->n)
		return ibp_error_set(err, IBP_ERANGE, "no end port %zu",
				     src >= m->n ? src : dst);
	out->src = src;
	out->dst = dst;
	if (src == dst) {
		out->rule = IBP_RULE_SAME_PORT;
		return 0;
	}
	const ibp_pkey_table *a =
	    ibp_tables_get(m->ts, m->ep_node[src], m->ep_port[src]);
	const ibp_pkey_table *b =
	    ibp_tables_get(m->ts, m->ep_node[dst], m->ep_port[dst]);
	unsigned na = a ? ibp_pkey_table_used(a) : 0;
	unsigned nb = b ? ibp_pkey_table_used(b) : 0;
	size_t cap = 0;
	bool ff = false, fl = false;
	for (unsigned i = 0; i < na; i++) {
		uint16_t x = ibp_pkey_table_get(a, i);
		if (!ibp_pkey_is_valid(x))
			continue;
		for (unsigned j = 0; j < nb; j++) {
			uint16_t y = ibp_pkey_table_get(b, j);
			if (!ibp_pkey_is_valid(y) ||
			    ibp_pkey_base(x) != ibp_pkey_base(y))
				continue;
			if (out->nshared == cap) {
				cap = cap ? cap * 2 : 4;
				ibp_explain_entry *e =
				    realloc(out->shared, cap * sizeof(*e));
				if (!e) {
					ibp_explanation_free(out);
					return ibp_error_set(err, IBP_ENOMEM,
							     "out of memory");
				}
				out->shared = e;
			}
			bool match = ibp_pkey_match(x, y);
			out->shared[out->nshared++] =
			    (ibp_explain_entry){.base = ibp_pkey_base(x),
						.src_pkey = x,
						.src_index = i,
						.dst_pkey = y,
						.dst_index = j,
						.match = match};
			if (match && ibp_pkey_is_full(x) && ibp_pkey_is_full(y))
				ff = true;
			else if (match)
				fl = true;
		}
	}
	out->can_talk = ff || fl;
	out->rule = ff		   ? IBP_RULE_FULL_FULL
		    : fl	   ? IBP_RULE_FULL_LIMITED
		    : out->nshared ? IBP_RULE_LIMITED_LIMITED
				   : IBP_RULE_NO_SHARED_PARTITION;
	return 0;
}

void ibp_explanation_free(ibp_explanation *e)
{
	ibp_explanation full;
	if (ibp_explanation_take(&full, e, NULL))
		return;
	free(full.shared);
	ibp_result_give(e, NULL, &explanation_layout);
}
