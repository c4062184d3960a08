/*
 * report_html.c - the web view: one self-contained HTML page that
 * `ibpart matrix --format html` writes and ibpartd serves at `/`.
 *
 * The page's fixed HTML - its skeleton, every section's heading and
 * prose, the table heads, the legend - is a template, web/report.html,
 * embedded at build time (cmake/embed.cmake) with the style and the
 * script (web/report.css, web/report.js) and filled by template.c; this
 * file writes only data into its slots: rows, cells, numbers and names.
 *
 * Everything a reader needs is plain HTML, so the page reads without
 * JavaScript: the fabric's figures, the audit findings
 * (capacity overflow also marked on the ports and partitions where a
 * table overflows), the caller's drift and violation series (inline SVG
 * sparklines), the tenants (partitions) with their members, the
 * reachability matrix of the largest classes grouped by tenant with
 * every row and column named and a legend for the shading, every class
 * named by its partitions with its ports (the drill-down), and every
 * port's P_KeyTable.  The inline script only filters (search box,
 * "#q=TEXT" in the URL) and opens sections ("#cN", "#p-XXXX").  Every
 * name is entity-escaped; nothing is fetched (no CDN, no font).
 *
 * Size: one row per port (about 80 bytes), member lists capped per
 * tenant and per class, the matrix capped at MATRIX_MAX classes - a
 * 48,000-port fabric stays under 5 MB.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "report/report_lib.h"
#include "report/template_lib.h"
#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"
#include "pkey/tables_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/report.h"

#define PORT_VIEW_LIMIT 64   /* up to this many end ports: a cell each */
#define MATRIX_MAX	60   /* classes in the matrix (the largest) */
#define MEMBERS_MAX	50   /* members listed per tenant, at most */
#define CLASS_PORTS_MAX 50   /* ports listed per class, at most */
#define LIST_MIN	3    /* ... and at least */
#define NAMES_BUDGET	4000 /* names listed under tenants, and classes */
#define CLASS_LIST_MAX	3000 /* classes listed */
#define NBASES		0x8000
#define SHADES		5

IBP_OPTIONS_LAYOUT(web_extras_layout, "web extras", IBP_WEB_EXTRAS_VERSION,
		   sizeof(ibp_web_extras));

/* The library's defaults, a whole current struct. */
static void web_extras_defaults(ibp_web_extras *x)
{
	*x = (ibp_web_extras){.version = IBP_WEB_EXTRAS_VERSION};
}

void ibp_web_extras_init(ibp_web_extras *x, unsigned version)
{
	ibp_web_extras d;
	web_extras_defaults(&d);
	ibp_options_init_as(x, version, &d, &web_extras_layout);
}

/* Text and attribute values by the escape module's one HTML rule
 * (entities for < > & " ', control bytes, C1, bidi overrides and
 * invalid UTF-8 as the text rule shows them). */
static void esc(FILE *out, const char *s)
{
	if (s)
		ibp_escape_html_write(out, s, strlen(s));
}

/* The matrix's rows and columns: ports, or classes (those bridging
 * tenants, then the largest). */
struct item {
	size_t idx; /* end port or class */
	uint16_t group;
};

struct page {
	const ibp_matrix *m;
	const ibp_web_extras *x;
	const char *const *names; /* [NBASES] or NULL */
	FILE *out;
	const char *title, *mode;
	size_t n, k;
	size_t parts;	    /* partitions */
	uint64_t pairs;	    /* port pairs that can talk */
	struct item *items; /* the matrix's rows and columns (pick_items) */
	size_t nitems;
	double mx;	   /* log(1 + (largest class in the matrix)^2) */
	size_t *order;	   /* classes: by tenant, then size (desc) */
	uint16_t *primary; /* [k]: the base a class is grouped under */
	uint64_t *ovf;	   /* sorted GUIDs of overflowing ports */
	size_t novf;
	size_t ovf_base[NBASES]; /* ports dropping this base */
	size_t full[NBASES], lim[NBASES];
};

static const char *pname(const struct page *p, uint16_t b)
{
	return p->names && p->names[b] && *p->names[b] ? p->names[b] : NULL;
}

/* A partition as "Name (0x0001)" or "0x0001", escaped. */
static void put_part(const struct page *p, uint16_t b, bool hex_too)
{
	const char *nm = pname(p, b);
	if (nm) {
		esc(p->out, nm);
		if (hex_too)
			fprintf(p->out, " (0x%04x)", b);
	} else {
		fprintf(p->out, "0x%04x", b);
	}
}

/* A class named by its partitions: "TenantA full, storage limited",
 * the first max of them and "+ N more" (max 0: all). */
static void put_class_name(const struct page *p, size_t c, size_t max)
{
	size_t nk;
	const uint16_t *ks = ibp_matrix_class_keys(p->m, c, &nk);
	if (!nk)
		fputs("no partition", p->out);
	for (size_t j = 0; j < nk; j++) {
		if (max && j == max) {
			fprintf(p->out, " + %zu more", nk - j);
			break;
		}
		if (j)
			fputs(", ", p->out);
		put_part(p, ibp_pkey_base(ks[j]), false);
		fputs(ks[j] & 0x8000 ? " full" : " limited", p->out);
	}
}

/* The base a class is grouped under: its first full tenant partition,
 * else its first partition, the default 0x7fff last; 0 for none. */
static uint16_t primary_of(const ibp_matrix *m, size_t c)
{
	size_t nk;
	const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
	uint16_t any = 0;
	for (size_t j = 0; j < nk; j++) {
		uint16_t b = ibp_pkey_base(ks[j]);
		if (b == 0x7fff)
			continue;
		if (ks[j] & 0x8000)
			return b;
		if (!any)
			any = b;
	}
	return any ? any : nk ? 0x7fff : 0;
}

static int by_group(const void *a, const void *b, void *ctx)
{
	const struct page *p = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (p->primary[x] != p->primary[y])
		return p->primary[x] < p->primary[y] ? -1 : 1;
	size_t sx = ibp_matrix_class_size(p->m, x);
	size_t sy = ibp_matrix_class_size(p->m, y);
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

static int by_size_desc(const void *a, const void *b, void *ctx)
{
	const ibp_matrix *m = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t sx = ibp_matrix_class_size(m, x);
	size_t sy = ibp_matrix_class_size(m, y);
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static bool is_overflow(const ibp_finding *f)
{
	return !strcmp(f->code, "capacity-overflow") ||
	       !strcmp(f->code, "pkey-table-full");
}

/* The overflow finding of a port, or NULL. */
static const ibp_finding *overflow_of(const struct page *p, uint64_t guid)
{
	if (!p->novf ||
	    !bsearch(&guid, p->ovf, p->novf, sizeof(*p->ovf), cmp_u64))
		return NULL;
	const ibp_findings *fs = p->x->findings;
	for (size_t i = 0; i < ibp_findings_count(fs); i++) {
		const ibp_finding *f = ibp_findings_get(fs, i);
		if (!is_overflow(f))
			continue;
		for (size_t j = 0; j < f->nports; j++)
			if (f->ports[j] == guid)
				return f;
	}
	return NULL;
}

static int prepare(struct page *p)
{
	const ibp_matrix *m = p->m;
	p->order = malloc((p->k + 1) * sizeof(*p->order));
	p->primary = malloc((p->k + 1) * sizeof(*p->primary));
	if (!p->order || !p->primary)
		return -1;
	for (size_t c = 0; c < p->k; c++) {
		size_t nk, sz = ibp_matrix_class_size(m, c);
		const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
		p->order[c] = c;
		p->primary[c] = primary_of(m, c);
		for (size_t j = 0; j < nk; j++)
			*(ks[j] & 0x8000 ? &p->full[ibp_pkey_base(ks[j])]
					 : &p->lim[ibp_pkey_base(ks[j])]) += sz;
	}
	qsort_r(p->order, p->k, sizeof(*p->order), by_group, p);
	const ibp_findings *fs = p->x ? p->x->findings : NULL;
	size_t nf = fs ? ibp_findings_count(fs) : 0, cnt = 0;
	for (size_t i = 0; i < nf; i++) {
		const ibp_finding *f = ibp_findings_get(fs, i);
		if (is_overflow(f))
			cnt += f->nports;
	}
	if (!cnt)
		return 0;
	if (!(p->ovf = malloc(cnt * sizeof(*p->ovf))))
		return -1;
	for (size_t i = 0; i < nf; i++) {
		const ibp_finding *f = ibp_findings_get(fs, i);
		if (!is_overflow(f))
			continue;
		memcpy(p->ovf + p->novf, f->ports, f->nports * sizeof(*p->ovf));
		p->novf += f->nports;
		for (size_t j = 0; j < f->npartitions; j++)
			p->ovf_base[f->partitions[j] & 0x7fff] += f->nports;
	}
	qsort(p->ovf, p->novf, sizeof(*p->ovf), cmp_u64);
	return 0;
}

/* How many names a list shows: its share of NAMES_BUDGET, LIST_MIN..max
 * (the page's size stays bounded however many tenants or classes). */
static size_t clamp_list(size_t share, size_t max)
{
	return share < LIST_MIN ? LIST_MIN : share > max ? max : share;
}

/* The slots' writers (web/report.html) below each get the page and
 * write the data of one slot: here the findings' rows. */
static void put_findings_rows(const void *v)
{
	const struct page *p = v;
	const ibp_findings *fs = p->x->findings;
	for (size_t i = 0; i < ibp_findings_count(fs); i++) {
		const ibp_finding *f = ibp_findings_get(fs, i);
		fprintf(p->out, "<tr class=\"f sev-%s\"><td>%s<td>",
			ibp_audit_severity_str(f->severity),
			ibp_audit_severity_str(f->severity));
		esc(p->out, f->code);
		fputs("<td>", p->out);
		esc(p->out, f->message);
		fputs("<td>", p->out);
		for (size_t j = 0; j < f->nports && j < 8; j++)
			fprintf(p->out, "%s0x%016" PRIx64, j ? " " : "",
				f->ports[j]);
		if (f->nports > 8)
			fprintf(p->out, " and %zu more", f->nports - 8);
		fputs("<td>", p->out);
		for (size_t j = 0; j < f->npartitions && j < 8; j++) {
			if (j)
				fputs(", ", p->out);
			put_part(p, f->partitions[j], true);
		}
		if (f->npartitions > 8)
			fprintf(p->out, " and %zu more", f->npartitions - 8);
		fputs("<td>", p->out);
		esc(p->out, f->fix);
		fputs("\n", p->out);
	}
}

/* A sparkline: the series scaled into a 160x28 box, a dot on the last
 * sample; labelled in the row by its figures. */
static void put_spark(FILE *out, const ibp_web_series *s)
{
	double lo = s->values[0], hi = s->values[0];
	for (size_t i = 1; i < s->n; i++) {
		lo = fmin(lo, s->values[i]);
		hi = fmax(hi, s->values[i]);
	}
	fputs("<svg class=spark width=160 height=28 viewBox=\"0 0 160 28\" "
	      "role=img aria-label=\"series\"><polyline points=\"",
	      out);
	double lx = 0, ly = 0;
	for (size_t i = 0; i < s->n; i++) {
		lx = s->n > 1 ? 2 + 156.0 * (double)i / (double)(s->n - 1) : 80;
		ly = hi > lo ? 25 - 22 * (s->values[i] - lo) / (hi - lo) : 14;
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", lx, ly);
	}
	fprintf(out, "\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/></svg>",
		lx, ly);
}

/* A sample's wall-clock time as UTC, readable and machine-readable:
 * <time datetime="2026-12-04T16:30:01Z">2026-12-04 16:30:01Z</time>. */
static void put_time(FILE *out, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char iso[32], shown[32];
	if (!gmtime_r(&tt, &tm) ||
	    !strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    !strftime(shown, sizeof(shown), "%Y-%m-%d %H:%M:%SZ", &tm)) {
		fprintf(out, "%" PRId64, t);
		return;
	}
	fprintf(out, "<time datetime=\"%s\">%s</time>", iso, shown);
}

static void put_series_rows(const void *v)
{
	const struct page *p = v;
	const ibp_web_extras *x = p->x;
	for (size_t i = 0; i < x->nseries; i++) {
		const ibp_web_series *s = &x->series[i];
		fputs("<tr class=f><td>", p->out);
		esc(p->out, s->tenant);
		fputs("<td>", p->out);
		esc(p->out, s->counter ? s->counter : "");
		fputs("<td>", p->out);
		if (s->n && s->values) {
			put_spark(p->out, s);
			double d = s->values[s->n - 1] - s->values[0];
			fprintf(p->out, "<td>%.0f<td class=\"%s\">%+.0f",
				s->values[s->n - 1], d > 0 ? "up" : "", d);
		} else {
			fputs("no samples<td><td>", p->out);
		}
		fprintf(p->out, "<td>%zu", s->n);
		if (s->n && s->times) {
			fputs(" (", p->out);
			put_time(p->out, s->times[0]);
			fputs("&ndash;", p->out);
			put_time(p->out, s->times[s->n - 1]);
			fputs(")", p->out);
		}
		fputs("\n", p->out);
	}
}

static void put_drift_rows(const void *v)
{
	const struct page *p = v;
	const ibp_web_extras *x = p->x;
	for (size_t i = 0; i < x->ndrift; i++) {
		const ibp_web_drift *d = &x->drift[i];
		fputs("<tr class=f><td>", p->out);
		esc(p->out, d->node_desc);
		fprintf(p->out, "<td>%u<td>0x%016" PRIx64 "<td>", d->port,
			d->port_guid);
		esc(p->out, d->kind);
		fputs("<td>", p->out);
		esc(p->out, d->detail);
		fputs("\n", p->out);
	}
}

/* One member row of a tenant: port, GUID, membership. */
static void put_member(const struct page *p, size_t e, bool full)
{
	fputs("<tr><td>", p->out);
	esc(p->out, ibp_matrix_endpoint_label(p->m, e));
	fprintf(p->out, "<td>0x%016" PRIx64 "<td>%s\n",
		ibp_matrix_endpoint_guid(p->m, e), full ? "full" : "limited");
}

static void put_tenant_list(const void *v)
{
	const struct page *p = v;
	const ibp_matrix *m = p->m;
	bool open = p->n <= PORT_VIEW_LIMIT;
	size_t cap =
	    clamp_list(NAMES_BUDGET / (p->parts ? p->parts : 1), MEMBERS_MAX);
	for (uint32_t b = 1; b < NBASES; b++) {
		if (!p->full[b] && !p->lim[b])
			continue;
		fprintf(p->out,
			"<details class=\"tenant f\" id=p-%04x data-b=%u%s>"
			"<summary><b>",
			b, b, open ? " open" : "");
		put_part(p, (uint16_t)b, false);
		fprintf(p->out,
			"</b> 0x%04x &mdash; %zu full, %zu limited member%s", b,
			p->full[b], p->lim[b],
			p->full[b] + p->lim[b] == 1 ? "" : "s");
		if (p->ovf_base[b])
			fprintf(p->out,
				" <span class=ovfb>dropped by %zu full "
				"table%s</span>",
				p->ovf_base[b], p->ovf_base[b] == 1 ? "" : "s");
		fputs("</summary>\n<table class=mem><tbody>\n", p->out);
		size_t shown = 0, total = p->full[b] + p->lim[b];
		for (size_t oi = 0; oi < p->k && shown < cap; oi++) {
			size_t c = p->order[oi], nk;
			const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
			int full = -1;
			for (size_t j = 0; j < nk; j++)
				if (ibp_pkey_base(ks[j]) == b)
					full = (ks[j] & 0x8000) != 0;
			if (full < 0)
				continue;
			const size_t *mem = ibp_matrix_class_members(m, c);
			size_t sz = ibp_matrix_class_size(m, c);
			for (size_t j = 0; j < sz && shown < cap; j++) {
				put_member(p, mem[j], full);
				shown++;
			}
		}
		if (total > shown)
			fprintf(p->out,
				"<tr><td colspan=3>&hellip; and %zu more: <a "
				"href=\"#q=0x%04x\">search 0x%04x</a> in the "
				"port tables\n",
				total - shown, b, b);
		fputs("</tbody></table></details>\n", p->out);
	}
}

/* Whether a class is in two or more partitions besides 0x7fff. */
static bool bridges(const ibp_matrix *m, size_t c)
{
	size_t nk, n = 0;
	const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
	for (size_t j = 0; j < nk; j++)
		n += ibp_pkey_base(ks[j]) != 0x7fff;
	return n >= 2;
}

static size_t pick_items(const struct page *p, struct item **out)
{
	bool ports = p->n <= PORT_VIEW_LIMIT;
	size_t cnt = ports ? p->n : (p->k < MATRIX_MAX ? p->k : MATRIX_MAX);
	struct item *it = calloc(cnt + 1, sizeof(*it));
	size_t *tmp = malloc((p->k + 1) * sizeof(*tmp));
	if (!it || !tmp) {
		free(it);
		free(tmp);
		return (size_t)-1;
	}
	size_t w = 0;
	if (ports) {
		/* ports grouped as their classes are */
		for (size_t oi = 0; oi < p->k; oi++) {
			size_t c = p->order[oi];
			const size_t *mem = ibp_matrix_class_members(p->m, c);
			for (size_t j = 0; j < ibp_matrix_class_size(p->m, c);
			     j++)
				it[w++] = (struct item){mem[j], p->primary[c]};
		}
	} else {
		/* the classes that bridge tenants (a shared storage node)
		 * first, up to a quarter; then the largest */
		size_t nb = 0;
		for (size_t c = 0; c < p->k; c++)
			tmp[c] = c;
		qsort_r(tmp, p->k, sizeof(*tmp), by_size_desc, (void *)p->m);
		for (size_t c = 0; c < p->k && nb < cnt / 4; c++)
			if (bridges(p->m, tmp[c])) {
				size_t v = tmp[c];
				memmove(tmp + nb + 1, tmp + nb,
					(c - nb) * sizeof(*tmp));
				tmp[nb++] = v;
			}
		qsort_r(tmp, cnt, sizeof(*tmp), by_group, (void *)p);
		for (; w < cnt; w++)
			it[w] = (struct item){tmp[w], p->primary[tmp[w]]};
	}
	free(tmp);
	*out = it;
	return w;
}

static void put_group(const struct page *p, uint16_t g)
{
	if (g)
		put_part(p, g, false);
	else
		fputs("no partition", p->out);
}

static void put_item_label(const struct page *p, bool ports, size_t idx)
{
	if (ports) {
		esc(p->out, ibp_matrix_endpoint_label(p->m, idx));
	} else {
		fprintf(p->out, "C%zu: ", idx);
		put_class_name(p, idx, 4);
	}
}

/* What the matrix shows (its rows and columns, the scale of its
 * shading) and the figures over it; -1 when out of memory. */
static int prepare_matrix(struct page *p)
{
	const ibp_matrix *m = p->m;
	p->parts = ibp_matrix_partition_count(m);
	p->pairs = ibp_matrix_pair_count(m);
	size_t cnt = pick_items(p, &p->items);
	if (cnt == (size_t)-1)
		return -1;
	p->nitems = cnt;
	double mx = 1;
	for (size_t i = 0; p->n > PORT_VIEW_LIMIT && i < cnt; i++)
		mx =
		    fmax(mx, (double)ibp_matrix_class_size(m, p->items[i].idx));
	p->mx = log(1 + mx * mx);
	return 0;
}

/* The legend's shades (class view): how many port pairs each stands
 * for. */
static void put_legend_shades(const void *v)
{
	const struct page *p = v;
	for (int s = 1; s <= SHADES; s++) {
		double lo = exp(p->mx * (s - 1) / SHADES) - 1;
		double hi = exp(p->mx * s / SHADES) - 1;
		fprintf(p->out, "<span class=\"sw y%d\"></span>%.0f&ndash;%.0f",
			s, ceil(lo < 1 ? 1 : lo), floor(hi));
	}
}

/* The matrix's head: the tenants over their columns, then the columns. */
static void put_matrix_groups(const void *v)
{
	const struct page *p = v;
	const struct item *it = p->items;
	size_t cnt = p->nitems;
	for (size_t j = 0; j < cnt;) {
		size_t e = j;
		while (e < cnt && it[e].group == it[j].group)
			e++;
		fprintf(p->out, "<th class=g colspan=%zu><span>", e - j);
		put_group(p, it[j].group);
		fputs("</span>", p->out);
		j = e;
	}
}

static void put_matrix_columns(const void *v)
{
	const struct page *p = v;
	for (size_t j = 0; j < p->nitems; j++) {
		fputs("<th class=col><span>", p->out);
		put_item_label(p, p->n <= PORT_VIEW_LIMIT, p->items[j].idx);
		fputs("</span>", p->out);
	}
}

/* One cell: whether row r can talk to column c, shaded by port pairs in
 * the class view; the title says why. */
static void put_cell(const struct page *p, bool ports, size_t r, size_t c)
{
	const ibp_matrix *m = p->m;
	bool t;
	if (ports)
		t = r != c && ibp_matrix_can_talk(m, r, c);
	else
		t = (r != c || ibp_matrix_class_size(m, r) > 1) &&
		    ibp_matrix_class_can_talk(m, r, c);
	if (ports && r == c) {
		fputs("<td class=d>", p->out);
		return;
	}
	int s = SHADES;
	if (t && !ports) {
		double pr = (double)ibp_matrix_class_size(m, r) *
			    (double)ibp_matrix_class_size(m, c);
		s = (int)ceil(SHADES * log(1 + pr) / p->mx);
		s = s < 1 ? 1 : s > SHADES ? SHADES : s;
	}
	if (t)
		fprintf(p->out, "<td class=y%d", s);
	else
		fputs("<td class=n", p->out);
	if (ports) {
		fputs(" title=\"", p->out);
		esc(p->out, ibp_matrix_endpoint_label(m, r));
		fputs(" &rarr; ", p->out);
		esc(p->out, ibp_matrix_endpoint_label(m, c));
		fputs(t ? ": can talk\">&#10003;" : ": cannot talk\">", p->out);
	} else {
		fprintf(p->out, " title=\"C%zu &rarr; C%zu: %s\">", r, c,
			t ? "can talk" : "cannot talk");
	}
}

static void put_matrix_rows(const void *v)
{
	const struct page *p = v;
	const ibp_matrix *m = p->m;
	bool ports = p->n <= PORT_VIEW_LIMIT;
	const struct item *it = p->items;
	size_t cnt = p->nitems;
	for (size_t i = 0; i < cnt; i++) {
		size_t r = it[i].idx;
		fputs("<tr class=f>", p->out);
		if (!i || it[i - 1].group != it[i].group) {
			size_t e = i;
			while (e < cnt && it[e].group == it[i].group)
				e++;
			fprintf(p->out, "<th class=g rowspan=%zu>", e - i);
			put_group(p, it[i].group);
		}
		fputs("<th class=row>", p->out);
		if (!ports)
			fprintf(p->out, "<a href=\"#c%zu\">", r);
		put_item_label(p, ports, r);
		if (!ports)
			fprintf(p->out, "</a> <small>%zu</small>",
				ibp_matrix_class_size(m, r));
		for (size_t j = 0; j < cnt; j++)
			put_cell(p, ports, r, it[j].idx);
		fputs("\n", p->out);
	}
}

/* The classes listed (at most CLASS_LIST_MAX, by tenant, then size). */
static size_t classes_listed(const struct page *p)
{
	return p->k < CLASS_LIST_MAX ? p->k : CLASS_LIST_MAX;
}

static void put_class_list(const void *v)
{
	const struct page *p = v;
	const ibp_matrix *m = p->m;
	size_t listed = classes_listed(p);
	size_t cap =
	    clamp_list(NAMES_BUDGET / (listed ? listed : 1), CLASS_PORTS_MAX);
	for (size_t oi = 0; oi < listed; oi++) {
		size_t c = p->order[oi], nk;
		size_t sz = ibp_matrix_class_size(m, c);
		const uint16_t *ks = ibp_matrix_class_keys(m, c, &nk);
		fprintf(p->out, "<details class=\"cls f\" id=c%zu data-k=\"",
			c);
		for (size_t j = 0; j < nk; j++)
			fprintf(p->out, "%s%04x", j ? " " : "", ks[j]);
		fprintf(p->out, "\"><summary><b>C%zu</b> ", c);
		put_class_name(p, c, 0);
		fprintf(p->out, " &mdash; %zu port%s</summary><ul>", sz,
			sz == 1 ? "" : "s");
		const size_t *mem = ibp_matrix_class_members(m, c);
		for (size_t j = 0; j < sz && j < cap; j++) {
			fputs("<li>", p->out);
			esc(p->out, ibp_matrix_endpoint_label(m, mem[j]));
		}
		if (sz > cap)
			fprintf(p->out,
				"<li>&hellip; and %zu more: <a "
				"href=\"#q=C%zu%%20\">search C%zu</a> in the "
				"port tables",
				sz - cap, c, c);
		fputs("</ul></details>\n", p->out);
	}
}

/* One row per end port: name, port, GUID, class, capacity, entries
 * (index:P_Key, in index order); overflow marked on the row. */
static void put_port_rows(const void *v)
{
	const struct page *p = v;
	const ibp_matrix *m = p->m;
	const ibp_tables *ts = ibp_matrix_tables(m);
	for (size_t i = 0; i < p->n; i++) {
		size_t node;
		unsigned port;
		ibp_matrix_endpoint(m, i, &node, &port);
		uint64_t g = ibp_matrix_endpoint_guid(m, i);
		const ibp_pkey_table *t = ibp_tables_get(ts, node, port);
		const ibp_finding *of = overflow_of(p, g);
		fputs(of ? "<tr class=ovf><td>" : "<tr><td>", p->out);
		esc(p->out, ibp_matrix_endpoint_desc(m, i));
		fprintf(p->out, "<td>%u<td>0x%016" PRIx64 "<td>C%zu <td>%u<td>",
			port, g, ibp_matrix_class_of(m, i),
			t ? ibp_pkey_table_capacity(t) : 0);
		unsigned cap = t ? ibp_pkey_table_capacity(t) : 0, next = 0;
		for (unsigned j = 0; j < cap; j++) {
			uint16_t k = ibp_pkey_table_get(t, j);
			if (!k)
				continue;
			if (next)
				fputc(' ', p->out);
			if (j != next)
				fprintf(p->out, "%u:", j);
			fprintf(p->out, "%04x", k);
			next = j + 1;
		}
		if (of) {
			fputs(" <span class=ovfb title=\"", p->out);
			esc(p->out, of->message);
			fprintf(p->out, "\">table full: %zu dropped</span>",
				of->npartitions);
		}
		fputs("\n", p->out);
	}
}

/* The page's template, its style and its one script: web/report.html,
 * web/report.css and web/report.js, embedded at build time
 * (cmake/embed.cmake). */
#include "report/ibp_report_html.h"
#include "report/ibp_report_css.h"
#include "report/ibp_report_js.h"
#define TEMPLATE_FILE "src/report/web/report.html"

static void put_title(const void *v)
{
	const struct page *p = v;
	esc(p->out, p->title);
}

static void put_mode(const void *v)
{
	const struct page *p = v;
	esc(p->out, p->mode);
}

static void put_status(const void *v)
{
	const struct page *p = v;
	esc(p->out, p->x->status);
}

static void put_css(const void *v)
{
	const struct page *p = v;
	fputs(ibp_report_css, p->out);
}

static void put_js(const void *v)
{
	const struct page *p = v;
	fputs(ibp_report_js, p->out);
}

/* The page's template and what fills its slots: with out, the page to
 * it; without, only whether the two agree (ibp_report_html_check).
 * Every figure comes from p alone, so an empty page is enough for the
 * check. */
static int page_template(const struct page *p, FILE *out, ibp_error *err)
{
	const ibp_web_extras *x = p->x;
	size_t nf = x && x->findings ? ibp_findings_count(x->findings) : 0;
	size_t nd = x && x->drift ? x->ndrift : 0;
	size_t listed = classes_listed(p);
	const ibp_template_slot slots[] = {
	    IBP_TEMPLATE_WRITE("title", put_title),
	    IBP_TEMPLATE_WRITE("css", put_css),
	    IBP_TEMPLATE_WRITE("js", put_js),
	    IBP_TEMPLATE_WRITE("mode", put_mode),
	    IBP_TEMPLATE_BLOCK("status", x && x->status),
	    IBP_TEMPLATE_WRITE("status_text", put_status),
	    /* the cards */
	    IBP_TEMPLATE_NUMBER("ports_n", p->n),
	    IBP_TEMPLATE_NUMBER("partitions_n", p->parts),
	    IBP_TEMPLATE_NUMBER("classes_n", p->k),
	    IBP_TEMPLATE_NUMBER("pairs_n", p->pairs),
	    IBP_TEMPLATE_NUMBER("all_pairs_n",
				p->n ? (uint64_t)p->n * (p->n - 1) / 2 : 0),
	    IBP_TEMPLATE_BLOCK("overflow", p->novf),
	    IBP_TEMPLATE_BLOCK("overflow_one", p->novf == 1),
	    IBP_TEMPLATE_NUMBER("overflow_n", p->novf),
	    /* the caller's sections */
	    IBP_TEMPLATE_BLOCK("findings", x && x->findings),
	    IBP_TEMPLATE_NUMBER("findings_n", nf),
	    IBP_TEMPLATE_BLOCK("findings_any", nf),
	    IBP_TEMPLATE_WRITE("findings_rows", put_findings_rows),
	    IBP_TEMPLATE_BLOCK("series", x && x->series && x->nseries),
	    IBP_TEMPLATE_WRITE("series_rows", put_series_rows),
	    IBP_TEMPLATE_BLOCK("drift", nd),
	    IBP_TEMPLATE_NUMBER("drift_n", nd),
	    IBP_TEMPLATE_WRITE("drift_rows", put_drift_rows),
	    /* the plan's */
	    IBP_TEMPLATE_BLOCK("port_view", p->n <= PORT_VIEW_LIMIT),
	    IBP_TEMPLATE_NUMBER("matrix_classes_n", p->nitems),
	    IBP_TEMPLATE_WRITE("legend_shades", put_legend_shades),
	    IBP_TEMPLATE_WRITE("matrix_groups", put_matrix_groups),
	    IBP_TEMPLATE_WRITE("matrix_columns", put_matrix_columns),
	    IBP_TEMPLATE_WRITE("matrix_rows", put_matrix_rows),
	    IBP_TEMPLATE_WRITE("tenant_list", put_tenant_list),
	    IBP_TEMPLATE_WRITE("class_list", put_class_list),
	    IBP_TEMPLATE_BLOCK("classes_more", p->k > listed),
	    IBP_TEMPLATE_NUMBER("classes_more_n", p->k - listed),
	    IBP_TEMPLATE_WRITE("port_rows", put_port_rows),
	};
	size_t ns = sizeof(slots) / sizeof(*slots);
	if (!out)
		return ibp_template_check(TEMPLATE_FILE, ibp_report_html, slots,
					  ns, err);
	return ibp_template_render(TEMPLATE_FILE, ibp_report_html, slots, ns, p,
				   out, err);
}

int ibp_report_html_check(ibp_error *err)
{
	struct page *p = calloc(1, sizeof(*p));
	if (!p)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = page_template(p, NULL, err);
	free(p);
	return rc;
}

int ibp_matrix_report_html(const ibp_matrix *m,
			   const ibp_matrix_report_options *o, FILE *out,
			   ibp_error *err)
{
	struct page *p = calloc(1, sizeof(*p));
	if (!p)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	p->m = m;
	ibp_web_extras web; /* as far as the caller's version goes */
	web_extras_defaults(&web);
	if (o && o->web) {
		if (ibp_options_take(&web, o->web, &web_extras_layout, err)) {
			free(p);
			return IBP_EINVAL;
		}
		p->x = &web;
	}
	p->names = o ? o->partition_names : NULL;
	p->out = out;
	p->title = o && o->title ? o->title : "ibpart reachability";
	p->mode = o && o->mode ? o->mode : "tables";
	p->n = ibp_matrix_endpoint_count(m);
	p->k = ibp_matrix_class_count(m);
	int rc = 0;
	if (prepare(p) || prepare_matrix(p))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	else
		rc = page_template(p, out, err);
	free(p->items);
	free(p->order);
	free(p->primary);
	free(p->ovf);
	free(p);
	if (!rc && ferror(out))
		rc = ibp_error_set(err, IBP_EIO, "write error");
	return rc;
}
