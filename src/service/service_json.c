/*
 * service_json.c - P_Keys in UFM's response shapes (docs/ufm-api.md
 * 2.2-2.3): keys "0x%x" in lower case, "partition" and "ip_over_ib"
 * always, "guids" as [{guid, membership, index0}] with 16 lower-case hex
 * digits and no 0x, "qos_conf" as {mtu_limit, rate_limit, service_level}
 * in UFM's units; plus "managed_by" (ibpartd, operator or opensm), which
 * UFM lacks and its clients ignore.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "service/service_internal.h"
#include "conf/conf_lib.h"

void svc_pkey_str(uint16_t pkey, char out[8])
{
	snprintf(out, 8, "0x%x", pkey);
}

static json_t *guid_obj(uint64_t guid, bool full, bool index0)
{
	char g[17];
	snprintf(g, sizeof(g), "%016" PRIx64, guid);
	return json_pack("{s:s, s:s, s:b}", "guid", g, "membership",
			 full ? "full" : "limited", "index0", index0);
}

/* A number as UFM writes it: 2.5 stays, 200.0 is 200. */
static json_t *num(double v)
{
	return v == floor(v) ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *qos_obj(double mtu_kib, double rate_gbps, unsigned sl)
{
	return json_pack("{s:o, s:o, s:i}", "mtu_limit", num(mtu_kib),
			 "rate_limit", num(rate_gbps), "service_level",
			 (int)sl);
}

json_t *svc_json_part(const struct svc_part *p, bool guids, bool qos)
{
	json_t *o = json_pack("{s:s, s:b, s:s}", "partition", p->name,
			      "ip_over_ib", p->ipoib, "managed_by", SVC_BY_API);
	if (o && guids) {
		json_t *a = json_array();
		for (size_t i = 0; a && i < p->n; i++)
			json_array_append_new(a, guid_obj(p->m[i].guid,
							  p->m[i].full,
							  p->m[i].index0));
		json_object_set_new(o, "guids", a);
	}
	if (o && qos) {
		/* what OpenSM uses when the file says nothing: 2048 bytes,
		 * 10 Gb/s, SL 0 (osm_base.h) */
		json_object_set_new(
		    o, "qos_conf",
		    p->has_qos
			? qos_obj(p->mtu_limit, p->rate_limit, p->sl)
			: qos_obj(svc_mtu_kib(IBP_CONF_DEFAULT_MTU),
				  svc_rate_gbps(IBP_CONF_DEFAULT_RATE), 0));
	}
	return o;
}

const char *svc_operator_members(const ibp_conf_group *g,
				 void (*each)(void *ctx, uint64_t guid,
					      bool full, bool index0),
				 void *ctx)
{
	const char *all = NULL;
	for (size_t i = 0; i < ibp_conf_group_partition_count(g); i++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, i);
		for (size_t k = 0; k < ibp_conf_partition_member_count(p);
		     k++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, k);
			if (m->kind == IBP_MEMBER_ALL ||
			    m->kind == IBP_MEMBER_ALL_CAS)
				all = m->membership == IBP_MEMB_LIMITED
					  ? "limited"
					  : "full";
			if (each && m->kind == IBP_MEMBER_GUID)
				each(ctx, m->guid,
				     m->membership != IBP_MEMB_LIMITED,
				     m->indx0);
		}
	}
	return all;
}

static void append_guid(void *ctx, uint64_t guid, bool full, bool index0)
{
	json_array_append_new(ctx, guid_obj(guid, full, index0));
}

json_t *svc_json_operator(const ibp_conf_group *g, bool guids, bool qos)
{
	uint16_t pkey = ibp_conf_group_pkey(g);
	json_t *o =
	    json_pack("{s:s, s:b, s:s}", "partition", ibp_conf_group_name(g),
		      "ip_over_ib", ibp_conf_group_ipoib(g), "managed_by",
		      SVC_BY_OPERATOR);
	json_t *a = guids ? json_array() : NULL;
	const char *all = svc_operator_members(g, a ? append_guid : NULL, a);
	/* the flags of the group's last statement */
	const ibp_conf_flags *fl = NULL;
	size_t np = ibp_conf_group_partition_count(g);
	if (np)
		fl = ibp_conf_partition_flags(
		    ibp_conf_group_partition(g, np - 1));
	if (a)
		json_object_set_new(o, "guids", a);
	if (guids && pkey == IBP_CONF_DEFAULT_PKEY) {
		json_object_set_new(o, "membership",
				    json_string(all ? all : "limited"));
		json_object_set_new(o, "index0", json_false());
	}
	if (qos && fl)
		json_object_set_new(o, "qos_conf",
				    qos_obj(svc_mtu_kib(fl->mtu),
					    svc_rate_gbps(fl->rate),
					    ibp_conf_group_sl(g)));
	return o;
}

json_t *svc_json_default(bool guids, bool qos)
{
	json_t *o = json_pack("{s:s, s:b, s:s}", "partition", "management",
			      "ip_over_ib", true, "managed_by", SVC_BY_OPENSM);
	if (guids) {
		json_object_set_new(o, "guids", json_array());
		json_object_set_new(o, "membership", json_string("limited"));
		json_object_set_new(o, "index0", json_false());
	}
	if (qos)
		json_object_set_new(
		    o, "qos_conf",
		    qos_obj(svc_mtu_kib(IBP_CONF_DEFAULT_MTU),
			    svc_rate_gbps(IBP_CONF_DEFAULT_RATE), 0));
	return o;
}

bool svc_json_take(json_t *o, char **json)
{
	*json = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return *json != NULL;
}
