/*
 * conf_json.c - `ibpart check --format json`: a plan's findings, its
 * dialect and (optionally) OpenSM's verdict as one JSON document (see
 * include/ibpart/conf.h).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"

/* OpenSM's verdict: rejected, crashes, reason, misreadings, partitions. */
static json_t *verdict_json(const ibp_conf *c)
{
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	json_t *o = json_object();
	json_object_set_new(o, "rejected", json_boolean(v->rejected));
	json_object_set_new(o, "crashes", json_boolean(v->crashes));
	json_object_set_new(o, "reason",
			    v->reason ? json_string(v->reason) : json_null());
	json_object_set_new(o, "line", json_integer(v->pos.line));
	json_object_set_new(o, "opensm_log_line", json_integer(v->opensm_line));
	json_t *mis = json_array();
	for (size_t i = 0; i < v->nmisreadings; i++) {
		const ibp_conf_misreading *m = &v->misreadings[i];
		json_array_append_new(
		    mis, json_pack("{s:s,s:i,s:i,s:s}", "code", m->code, "line",
				   (int)m->pos.line, "column", (int)m->pos.col,
				   "message", m->message));
	}
	json_object_set_new(o, "misreadings", mis);
	json_t *parts = json_array();
	for (size_t i = 0; !v->rejected && i < ibp_conf_group_count(c); i++) {
		const ibp_conf_group *g = ibp_conf_group_at(c, i);
		char pk[8];
		snprintf(pk, sizeof(pk), "0x%04x", ibp_conf_group_pkey(g));
		json_array_append_new(
		    parts, json_pack("{s:s,s:s,s:i}", "pkey", pk, "name",
				     ibp_conf_group_name(g), "definitions",
				     (int)ibp_conf_group_partition_count(g)));
	}
	json_object_set_new(o, "partitions", parts);
	return o;
}

char *ibp_conf_check_json(const ibp_conf *c, const ibp_diags *d, bool opensm)
{
	char *js = ibp_diags_to_json(d);
	json_t *root = js ? json_loads(js, 0, NULL) : NULL;
	free(js);
	if (!root)
		return NULL;
	json_object_set_new(
	    root, "dialect",
	    json_string(ibp_conf_get_dialect(c) == IBP_CONF_DIALECT_SEED
			    ? "seed"
			    : "opensm"));
	if (opensm)
		json_object_set_new(root, "opensm", verdict_json(c));
	char *out = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	return out;
}
