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
 * the service's audit (the library's, analysis_guids.c) says so in one
 * finding, "vport-unmodelled", never calling them ignored.
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
