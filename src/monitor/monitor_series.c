/*
 * monitor_series.c - the one reader of what `ibpart monitor --format json`
 * writes (monitor_report.c), as `--interval S` writes it: one object per
 * sweep, one after the other.  It makes, for every tenant of the first
 * sweep, a series per counter (from, toward, pkey_violations) with one
 * sample per sweep, the shape the web view draws (ibp_web_series,
 * analysis.h).  Bounded like every reader of the library (the whole file
 * through file_read.c, at most the small-input limit unless the caller
 * says otherwise); a malformed object is located at its absolute
 * file:line:col.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "monitor/monitor_priv.h"
#include "util/file_read.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/report.h"
#include "util/error_lib.h"

static const char *const counters[] = {"from", "toward", "pkey_violations"};
#define NCOUNTERS MONITOR_SERIES_COUNTERS

void ibp_monitor_series_free(ibp_monitor_series *x)
{
	if (!x)
		return;
	for (size_t i = 0; x->names && i < x->nnames; i++)
		free(x->names[i]);
	free(x->names);
	free(x->vals);
	free(x->times);
	free(x->s);
	free(x);
}

const ibp_web_series *ibp_monitor_series_get(const ibp_monitor_series *x,
					     size_t *n)
{
	*n = x ? x->n : 0;
	return x ? x->s : NULL;
}

/* The line and column of text[off] (1-based), for a position jansson
 * gives relative to the object that starts at off. */
static void locate(const char *text, size_t off, const json_error_t *je,
		   unsigned *line, unsigned *col)
{
	unsigned l = 1;
	size_t bol = 0;
	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n') {
			l++;
			bol = i + 1;
		}
	*line = l + (je->line > 0 ? (unsigned)je->line - 1 : 0);
	*col = je->line <= 1 ? (unsigned)(off - bol) + (unsigned)je->column
			     : (unsigned)je->column;
}

/* The sweeps' objects of text into the array sweeps. */
static int split(const char *path, const char *text, size_t len, json_t *sweeps,
		 ibp_error *err)
{
	size_t off = 0;
	for (;;) {
		off += strspn(text + off, " \t\r\n");
		if (off >= len)
			return IBP_OK;
		json_error_t je;
		json_t *o = json_loadb(text + off, len - off,
				       JSON_DISABLE_EOF_CHECK, &je);
		if (!o || !json_is_array(json_object_get(o, "tenants"))) {
			unsigned line, col;
			locate(text, off, &je, &line, &col);
			json_decref(o);
			return ibp_error_set_at(
			    err, IBP_EINVAL, path, line, col, "%s",
			    o ? "not the JSON of ibpart monitor (no "
				"\"tenants\")"
			      : je.text);
		}
		json_array_append_new(sweeps, o);
		off += je.position;
	}
}

static int build(ibp_monitor_series *x, json_t *sweeps, ibp_error *err)
{
	size_t ns = json_array_size(sweeps);
	if (!ns)
		return IBP_OK;
	json_t *t0 = json_object_get(json_array_get(sweeps, 0), "tenants");
	size_t nt = json_array_size(t0);
	x->n = nt * NCOUNTERS;
	x->nnames = nt;
	x->s = calloc(x->n + 1, sizeof(*x->s));
	x->names = calloc(nt + 1, sizeof(*x->names));
	x->vals = calloc(x->n * ns + 1, sizeof(*x->vals));
	if (!x->s || !x->names || !x->vals)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t t = 0; t < nt; t++) {
		const char *nm = json_string_value(
		    json_object_get(json_array_get(t0, t), "name"));
		if (!(x->names[t] = strdup(nm ? nm : "?")))
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		for (size_t c = 0; c < NCOUNTERS; c++) {
			double *v = x->vals + (t * NCOUNTERS + c) * ns;
			x->s[t * NCOUNTERS + c] =
			    (ibp_web_series){.tenant = x->names[t],
					     .counter = counters[c],
					     .values = v,
					     .n = ns};
			for (size_t k = 0; k < ns; k++) {
				json_t *tk = json_object_get(
				    json_array_get(sweeps, k), "tenants");
				v[k] = json_number_value(json_object_get(
				    json_array_get(tk, t), counters[c]));
			}
		}
	}
	return IBP_OK;
}

int ibp_monitor_series_load(const char *path, size_t max,
			    ibp_monitor_series **out, ibp_error *err)
{
	*out = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = ibp_file_read_all(
	    path, max ? max : IBP_SMALL_INPUT_MAX_DEFAULT, &text, &len, err);
	if (rc)
		return rc;
	ibp_monitor_series *x = calloc(1, sizeof(*x));
	json_t *sweeps = json_array();
	if (!x || !sweeps)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = split(path, text, len, sweeps, err);
	if (!rc)
		rc = build(x, sweeps, err);
	json_decref(sweeps);
	free(text);
	if (rc)
		ibp_monitor_series_free(x);
	else
		*out = x;
	return rc;
}
