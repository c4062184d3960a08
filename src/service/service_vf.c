/*
 * service_vf.c - the partitions file OpenSM is given under ibpartd's
 * --vf-guids physical (ibp_service_options.vf_guids): the generated
 * section with each VF's alias GUID written on its physical port.
 *
 * OpenSM 3.3.23 adds partition members by port GUID only (osm_prtn.c,
 * osm_prtn_add_port) and skips an alias GUID, which is all that
 * ib-kubernetes and other SR-IOV integrations send.  For mlx4-style
 * hosts (a VF's GUID is an alias in its port's GUIDInfo, IBA vol. 1
 * 14.2.5.5, and the VF uses entries of that port's P_KeyTable the host
 * maps into it) the member must be the physical port.  The section is
 * read by the same code as `ibpart convert --vf-guids physical`
 * (src/conf/conf_vf.c: an alias becomes its port, a port named limited
 * and full in one P_Key through its GUIDs is made full) on the topology
 * and the alias map in effect, and written by the canonical writer, the
 * alias beside its port in a comment.  The operator's lines above the
 * marker stay byte for byte, aliases included, and OpenSM skips those.
 * The service's own audits, tables and capacity check read the plan as
 * clients sent it with the reading PHYSICAL_GENERATED (svc_vf_reading:
 * the generated section's aliases on their ports, the operator's left
 * aliases - guid-alias-ignored), so they judge what this file makes
 * OpenSM program and still see each alias (shared-physical-port).
 *
 * Under NVIDIA OpenSM's virtualization (opensm.conf virt_enabled 2:
 * ibp_service_options.vports) a GUID that is no port of the fabric - an
 * alias not written on its port, or unknown - may be a VF's virtual
 * port, programmed by that SM on a P_KeyTable ibpart does not model:
 * the service's audit says so in one finding, "vport-unmodelled", never
 * calling them ignored (svc_vport_finding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_lib.h"
#include "conf/partitions_marker.h"
#include "service/service_internal.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"
#include "topo/alias_map_lib.h"
#include "ibpart/sys/alias_map.h"

int svc_vf_physical_file(ibp_service *s, const char *text, size_t len,
			 char **out, size_t *olen, ibp_error *err)
{
	*out = NULL;
	*olen = 0;
	const char *m = ibp_partitions_marker_find(text);
	if (!m)
		return ibp_error_set(err, IBP_EINVAL,
				     "the rendered file has no marker line");
	const char *sect = m + strcspn(m, "\n");
	sect += *sect == '\n';
	struct svc_topology *t = NULL;
	int rc = svc_topology_get(s, &t, err);
	if (rc)
		return rc;
	const ibp_fabric *f = svc_topology_fabric(t);
	ibp_conf *c = NULL;
	rc = svc_parse_conf_vf(s, f, IBP_VF_GUIDS_PHYSICAL,
			       "the generated section", sect,
			       len - (size_t)(sect - text), &c, err);
	FILE *w = rc ? NULL : open_memstream(out, olen);
	if (!rc && !w)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (w) {
		fwrite(text, 1, (size_t)(sect - text), w);
		fputs("# --vf-guids physical: each VF's alias GUID is written "
		      "on its physical port (OpenSM programs port GUIDs "
		      "only)\n",
		      w);
		rc = ibp_conf_write_opensm(c, f, w, err);
		if (fclose(w) && !rc)
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		if (rc) {
			free(*out);
			*out = NULL;
		}
	}
	ibp_conf_free(c);
	svc_topology_put(s, t);
	return rc;
}

#define VPORTS_NAMED 8 /* GUIDs the finding's message names */

int svc_guid_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

size_t svc_guid_set(uint64_t *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), svc_guid_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* The GUID members of c that may be vports (no port of f, no node
 * GUID), and the partitions naming them, into *g (*ng) and parts
 * (*np, at most 0x8000). */
static int vport_guids(const ibp_conf *c, const ibp_fabric *f,
		       const ibp_alias_map *am, uint64_t **g, size_t *ng,
		       uint16_t *parts, size_t *np)
{
	size_t cap = 0;
	*g = NULL;
	*ng = *np = 0;
	for (size_t i = 0; i < ibp_conf_partition_count(c); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(c, i);
		bool named = false;
		for (size_t j = 0; j < ibp_conf_partition_member_count(p);
		     j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			ibp_guid_kind k;
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid || m->alias ||
			    (k = ibp_guid_classify(f, am, m->guid, NULL)) ==
				IBP_GUID_PORT ||
			    k == IBP_GUID_NODE)
				continue;
			if (*ng == cap) {
				cap = cap ? 2 * cap : 16;
				uint64_t *ng2 = realloc(*g, cap * sizeof(**g));
				if (!ng2)
					return IBP_ENOMEM;
				*g = ng2;
			}
			(*g)[(*ng)++] = m->guid;
			named = true;
		}
		if (named && *np < 0x8000)
			parts[(*np)++] =
			    ibp_pkey_base(ibp_conf_partition_pkey(p));
	}
	*ng = svc_guid_set(*g, *ng);
	return IBP_OK;
}

int svc_vport_finding(const ibp_service *s, const ibp_analysis_input *in,
		      ibp_findings *out, ibp_error *err)
{
	if (!s->vports)
		return IBP_OK;
	char *path = svc_alias_path(s);
	ibp_alias_map *am = NULL;
	int rc = path ? ibp_alias_map_load(path, 0, &am, NULL, err) : IBP_OK;
	free(path);
	uint64_t *g = NULL;
	size_t ng = 0, np = 0;
	uint16_t *parts = rc ? NULL : malloc(0x8000 * sizeof(*parts));
	if (!rc && !parts)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc &&
	    vport_guids(ibp_analysis_input_conf(in),
			ibp_analysis_input_fabric(in), am, &g, &ng, parts, &np))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	char list[VPORTS_NAMED * 20 + 8] = "";
	size_t at = 0;
	for (size_t i = 0; !rc && i < ng && i < VPORTS_NAMED; i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at,
				       "%s0x%016llx", i ? ", " : "",
				       (unsigned long long)g[i]);
	if (!rc && ng &&
	    ibp_findings_add(
		out, "vport-unmodelled", IBP_AUDIT_INFO, g, ng, parts, np,
		"Read the vports' P_KeyTables with NVIDIA's tools (UFM's GET "
		"/resources/vports); ibpart reads the physical ports only.",
		"%zu GUID(s) of the plan are no port of the fabric: %s%s. "
		"With NVIDIA OpenSM's virtualization (opensm.conf "
		"virt_enabled 2) that SM may program them as VFs' virtual "
		"ports (vports), whose P_KeyTables ibpart does not model: "
		"nothing is predicted or verified for them, and a revision "
		"naming them is not reported verified.",
		ng, list, ng > VPORTS_NAMED ? ", ..." : ""))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	free(g);
	free(parts);
	ibp_alias_map_free(am);
	return rc;
}
