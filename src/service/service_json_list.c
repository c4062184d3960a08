/*
 * service_json_list.c - GET /resources/pkeys (every P_Key, ?guids_data)
 * written as it goes instead of built as a jansson tree and dumped: at
 * 48,000 ports a list of 100,000 members cost over a second under the
 * service's lock, nearly all of it in one jansson object per member.
 * The text is byte for byte what service_json.c's objects dump to with
 * JSON_COMPACT (keys in insertion order, jansson's own escaping of the
 * names and its numbers in qos_conf, taken from jansson itself); a P_Key
 * whose object jansson could not build (a name that is not UTF-8) is
 * left out, as the tree left it out.  test_service compares the two.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "service/service_internal.h"
#include "conf/conf_lib.h"

/* s as jansson writes a JSON string; NULL when jansson refuses it. */
static char *str_text(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	json_decref(j);
	return t;
}

static void put_guid(FILE *f, bool *first, uint64_t guid, bool full,
		     bool index0)
{
	fprintf(f,
		"%s{\"guid\":\"%016" PRIx64
		"\",\"membership\":\"%s\",\"index0\":%s}",
		*first ? "" : ",", guid, full ? "full" : "limited",
		index0 ? "true" : "false");
	*first = false;
}

/* ,"qos_conf":{...} as the single GET's object has it. */
static bool put_qos(FILE *f, json_t *o)
{
	json_t *q = json_object_get(o, "qos_conf");
	char *t = q ? json_dumps(q, JSON_COMPACT) : NULL;
	if (t)
		fprintf(f, ",\"qos_conf\":%s", t);
	free(t);
	return q ? t != NULL : true;
}

/* The head every P_Key's object starts with. */
static void put_head(FILE *f, const char *key, const char *name, bool ipoib,
		     const char *by)
{
	fprintf(f,
		"\"%s\":{\"partition\":%s,\"ip_over_ib\":%s,"
		"\"managed_by\":\"%s\"",
		key, name, ipoib ? "true" : "false", by);
}

static bool put_part(FILE *f, const char *key, const char *name,
		     const struct svc_part *p, bool guids, bool qos)
{
	put_head(f, key, name, p->ipoib, SVC_BY_API);
	if (guids) {
		bool first = true;
		fputs(",\"guids\":[", f);
		for (size_t i = 0; i < p->n; i++)
			put_guid(f, &first, p->m[i].guid, p->m[i].full,
				 p->m[i].index0);
		fputc(']', f);
	}
	bool ok = true;
	if (qos) {
		/* the few numbers: jansson's own, from the single GET's
		 * object without its members */
		json_t *o = svc_json_part(p, false, true);
		ok = o && put_qos(f, o);
		json_decref(o);
	}
	fputc('}', f);
	return ok;
}

struct walk {
	FILE *f;
	bool first;
};

static void put_member(void *ctx, uint64_t guid, bool full, bool index0)
{
	struct walk *w = ctx;
	put_guid(w->f, &w->first, guid, full, index0);
}

static bool put_operator(FILE *f, const char *key, const char *name,
			 const ibp_conf_group *g, bool guids, bool qos)
{
	put_head(f, key, name, ibp_conf_group_ipoib(g), SVC_BY_OPERATOR);
	struct walk w = {f, true};
	if (guids)
		fputs(",\"guids\":[", f);
	const char *all =
	    svc_operator_members(g, guids ? put_member : NULL, &w);
	if (guids)
		fputc(']', f);
	if (guids && ibp_conf_group_pkey(g) == IBP_CONF_DEFAULT_PKEY)
		fprintf(f, ",\"membership\":\"%s\",\"index0\":false",
			all ? all : "limited");
	bool ok = true;
	if (qos) {
		json_t *o = svc_json_operator(g, false, true);
		ok = o && put_qos(f, o);
		json_decref(o);
	}
	fputc('}', f);
	return ok;
}

static bool put_default(FILE *f, const char *key, bool guids, bool qos)
{
	put_head(f, key, "\"management\"", true, SVC_BY_OPENSM);
	if (guids)
		fputs(",\"guids\":[],\"membership\":\"limited\","
		      "\"index0\":false",
		      f);
	bool ok = true;
	if (qos) {
		json_t *o = svc_json_default(false, true);
		ok = o && put_qos(f, o);
		json_decref(o);
	}
	fputc('}', f);
	return ok;
}

int svc_json_list(const struct svc_plan *plan, const ibp_conf *opc, bool guids,
		  bool qos, char **json)
{
	*json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(json, &len);
	if (!f)
		return IBP_ENOMEM;
	bool ok = true, first = true;
	fputc('{', f);
	/* in P_Key order: the API's and the operator's merged */
	size_t at = 0;
	for (unsigned pk = 1; ok && pk <= 0x7fff; pk++) {
		while (at < plan->n && plan->p[at].pkey < pk)
			at++;
		const struct svc_part *p =
		    at < plan->n && plan->p[at].pkey == pk ? &plan->p[at]
							   : NULL;
		const ibp_conf_group *g =
		    opc ? ibp_conf_group_find(opc, (uint16_t)pk) : NULL;
		if (!g && !p && pk != IBP_CONF_DEFAULT_PKEY)
			continue;
		char key[8];
		svc_pkey_str((uint16_t)pk, key);
		char *name = g	 ? str_text(ibp_conf_group_name(g))
			     : p ? str_text(p->name)
				 : NULL;
		if ((g || p) && !name)
			continue; /* jansson refused the name: no object */
		if (!first)
			fputc(',', f);
		first = false;
		ok = g	 ? put_operator(f, key, name, g, guids, qos)
		     : p ? put_part(f, key, name, p, guids, qos)
			 : put_default(f, key, guids, qos);
		free(name);
	}
	fputc('}', f);
	if (fclose(f) || !ok) {
		free(*json);
		*json = NULL;
		return IBP_ENOMEM;
	}
	return IBP_OK;
}
