/*
 * topo_load.c - a topology loaded for an operation, its findings and
 * failure reported (topo_load.h).
 */
#include "topo_load.h"
#include "util/diag_lib.h"
#include "util/error_lib.h"

int topo_load_reported(const char *path, const ibp_fabric_options *fo,
		       ibp_fabric **out, ibp_diags *diags, ibp_error *err)
{
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_fabric_load(path, fo, out, d);
	ibp_diags_sort(d); /* in file order, as a plan's are */
	const ibp_diag *x = NULL;
	for (size_t i = 0; rc && !x && i < ibp_diags_count(d); i++)
		if (ibp_diags_get(d, i)->severity == IBP_SEV_ERROR)
			x = ibp_diags_get(d, i);
	if (x)
		ibp_error_set_at(err, rc, x->file, x->line, x->col, "%s",
				 x->message);
	else if (rc)
		ibp_error_set_at(err, rc, path, 0, 0,
				 "the topology does not load");
	if (diags && ibp_diags_append(diags, d, NULL) && !rc)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_diags_free(d);
	return rc;
}
