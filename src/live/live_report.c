/*
 * live_report.c - the words of a verify that are the library's: what a
 * drift item differs in (ibp_drift_item_detail, which `ibpart verify`
 * and the web view's drift rows both say), and the web view's rows.  The
 * verify and apply reports are the CLI's (front/print.h); their JSON is
 * in live_verify.c and live_apply.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/apply.h"
#include "live/apply_lib.h"
#include "ibpart/sys/escape.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/verify.h"
#include "live/verify_lib.h"
#include "analysis/analysis_lib.h"
#include "live/live_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/apply.h"
#include "report/report_lib.h"
#include "ibpart/sys/verify.h"
#include "ibpart/sys/report.h"

/* What differs on the item's port, one line (newline included). */
static void drift_detail(const struct ibp_drift_item *it, FILE *out)
{
	char w[8], h[8];
	snprintf(w, sizeof(w), "0x%04x", it->want_pkey);
	snprintf(h, sizeof(h), "0x%04x", it->have_pkey);
	switch (it->kind) {
	case IBP_DRIFT_MISSING:
		fprintf(out, "%s wanted at index %d, not in the table\n", w,
			it->want_index);
		break;
	case IBP_DRIFT_EXTRA:
		fprintf(out, "%s held at index %d, not in the plan\n", h,
			it->have_index);
		break;
	case IBP_DRIFT_MEMBERSHIP:
		fprintf(out, "index %d holds %s (%s), the plan wants %s (%s)\n",
			it->have_index, h,
			(it->have_pkey & 0x8000) ? "full" : "limited", w,
			(it->want_pkey & 0x8000) ? "full" : "limited");
		break;
	case IBP_DRIFT_INDEX:
		fprintf(out, "%s at index %d, the plan puts it at %d\n", h,
			it->have_index, it->want_index);
		break;
	case IBP_DRIFT_UNREACHABLE:
		fprintf(out, "the port's table could not be read (not "
			     "discovered or not answering)\n");
		break;
	case IBP_DRIFT_ENFORCEMENT: {
		bool wi, wo, hi, ho;
		ibp_part_enforce_bits(it->want_enforce, &wi, &wo);
		ibp_part_enforce_bits(it->have_enforce, &hi, &ho);
		fprintf(out,
			"PortInfo partition enforcement %s (Inbound %d, "
			"Outbound %d), part_enforce wants %s (%d, %d)\n",
			ibp_part_enforce_str(it->have_enforce), hi, ho,
			ibp_part_enforce_str(it->want_enforce), wi, wo);
		break;
	}
	}
}

/* The item's port GUID (its node GUID where it has none: a switch). */
static uint64_t drift_guid(const ibp_fabric *f, const struct ibp_drift_item *it)
{
	uint64_t pg = ibp_fabric_port_guid(f, it->node, it->port);
	return pg ? pg : ibp_fabric_node_guid(f, it->node);
}

void ibp_web_drift_free(ibp_web_drift *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++) {
		free((char *)d[i].node_desc);
		free((char *)d[i].detail);
	}
	free(d);
}

char *ibp_drift_item_detail(const struct ibp_drift_item *it)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	drift_detail(it, m);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

int ibp_verify_result_web_drift(const ibp_verify_result *r, ibp_web_drift **out,
				size_t *n, ibp_error *err)
{
	*out = NULL;
	*n = 0;
	const ibp_drift *d = ibp_verify_result_drift(r);
	const ibp_fabric *f = ibp_verify_result_fabric(r);
	ibp_drift_sel sel = ibp_verify_result_selection(r);
	size_t count = ibp_drift_count_sel(d, sel, NULL), k = 0;
	if (!count)
		return IBP_OK;
	ibp_web_drift *v = calloc(count, sizeof(*v));
	if (!v)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; i < ibp_drift_count(d) && k < count; i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!ibp_drift_item_selected(it, sel))
			continue;
		const char *desc = ibp_fabric_node_desc(f, it->node);
		v[k] = (ibp_web_drift){.port_guid = drift_guid(f, it),
				       .port = it->port,
				       .kind = ibp_drift_kind_str(it->kind),
				       .node_desc = strdup(desc ? desc : ""),
				       .detail = ibp_drift_item_detail(it)};
		if (!v[k++].node_desc || !v[k - 1].detail) {
			ibp_web_drift_free(v, k);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
	}
	*out = v;
	*n = k;
	return IBP_OK;
}
