/*
 * analysis_explain_json.c - `matrix --explain SRC DST --format json`:
 * why two end ports can or cannot talk, as a document a script reads
 * (docs/json-schemas.md) - the same facts `ibpart matrix --explain` prints
 * (front/print_explanation.c)
 * a person: both ports' tables, every shared partition with both
 * entries, and the deciding rule of IBA vol. 1 10.9.3.
 */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "pkey/pkey_table_lib.h"
#include "util/json_text.h"
#include "pkey/tables_lib.h"

static json_t *hex(unsigned width, unsigned long long v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%0*llx", (int)width, v);
	return json_string(buf);
}

/* One end port: its GUID, description, label and P_KeyTable. */
static json_t *endpoint(const ibp_matrix *m, size_t i)
{
	json_t *o = json_object(), *keys = json_array();
	size_t node;
	unsigned port;
	json_object_set_new(o, "port_guid",
			    hex(16, ibp_matrix_endpoint_guid(m, i)));
	json_text_set(o, "node_desc", ibp_matrix_endpoint_desc(m, i));
	json_text_set(o, "label", ibp_matrix_endpoint_label(m, i));
	if (ibp_matrix_endpoint(m, i, &node, &port)) {
		json_object_set_new(o, "port", json_integer(port));
		const ibp_pkey_table *t =
		    ibp_tables_get(ibp_matrix_tables(m), node, port);
		for (unsigned k = 0; t && k < ibp_pkey_table_used(t); k++)
			json_array_append_new(keys,
					      hex(4, ibp_pkey_table_get(t, k)));
	}
	json_object_set_new(o, "pkeys", keys);
	return o;
}

char *ibp_explanation_json(const ibp_matrix *m, const ibp_explanation *caller)
{
	ibp_explanation full;
	if (ibp_explanation_take(&full, caller, NULL))
		return NULL;
	const ibp_explanation *e = &full;
	json_t *root = json_object(), *shared = json_array();
	json_object_set_new(root, "src", endpoint(m, e->src));
	json_object_set_new(root, "dst", endpoint(m, e->dst));
	json_object_set_new(root, "can_talk", json_boolean(e->can_talk));
	json_object_set_new(root, "rule",
			    json_string(ibp_match_rule_str(e->rule)));
	for (size_t i = 0; i < e->nshared; i++) {
		const ibp_explain_entry *x = &e->shared[i];
		json_t *s = json_object();
		json_object_set_new(s, "base", hex(4, x->base));
		json_object_set_new(s, "src_index", json_integer(x->src_index));
		json_object_set_new(s, "src_pkey", hex(4, x->src_pkey));
		json_object_set_new(s, "dst_index", json_integer(x->dst_index));
		json_object_set_new(s, "dst_pkey", hex(4, x->dst_pkey));
		json_object_set_new(s, "match", json_boolean(x->match));
		json_array_append_new(shared, s);
	}
	json_object_set_new(root, "shared", shared);
	char *out = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	return out;
}
