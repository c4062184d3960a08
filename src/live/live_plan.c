/*
 * live_plan.c - the plan for `verify` and `apply` (see include/ibpart/
 * live.h): the partitions.conf read by conf, turned into tables by policy,
 * refused when it must not reach a fabric (fail closed), and written in
 * OpenSM's canonical syntax only after that text has been read back and
 * shown to mean exactly the same tables.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "util/diag_lib.h"
#include "pkey/tables_lib.h"
#include "pkey/pkey_table_lib.h"
#include "util/error_lib.h"

static int compute(const struct ibp_live_plan_options *po, const ibp_conf *c,
		   const ibp_fabric *f, ibp_tables **want, ibp_diags *diags,
		   ibp_error *err)
{
	ibp_policy_run o;
	ibp_policy_run_init(&o);
	if (po->mode && ibp_policy_mode_parse(po->mode, &o.mode))
		return ibp_error_set(err, IBP_EINVAL,
				     "unknown mode '%s' (opensm or strict)",
				     po->mode);
	o.sm_port_guid = po->sm_port_guid;
	o.allow_both_pkeys = po->allow_both_pkeys;
	o.previous = po->previous;
	o.compact_pkey_indexes = po->compact_pkey_indexes;
	o.part_enforce = po->part_enforce;
	o.unplaced = po->unplaced;
	ibp_diags *pd = ibp_diags_new();
	if (!pd)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_policy_compute(c, f, &o, want, pd, err);
	size_t perr = ibp_diags_count_severity(pd, IBP_SEV_ERROR);
	if (diags)
		for (size_t i = 0; i < ibp_diags_count(pd); i++) {
			const ibp_diag *d = ibp_diags_get(pd, i);
			ibp_diags_add(diags, d->severity, d->code, d->file,
				      d->line, d->col, "%s", d->message);
		}
	ibp_diags_free(pd);
	if (rc == IBP_OK && perr && po->fail_closed) {
		ibp_tables_free(*want);
		*want = NULL;
		rc = ibp_error_set(err, IBP_EINVAL,
				   "%s: the policy found %zu error(s); "
				   "nothing will be changed",
				   po->conf_path, perr);
	}
	return rc;
}

int ibp_live_plan(const struct ibp_live_plan_options *po, const ibp_fabric *f,
		  ibp_tables **want, ibp_conf **conf_out, ibp_diags *diags,
		  ibp_error *err)
{
	*want = NULL;
	if (conf_out)
		*conf_out = NULL;
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = f;
	co.alias_guids_path = po->alias_guids_path;
	co.vf_guids = po->vf_guids;
	co.allow_both_pkeys = po->allow_both_pkeys;
	co.max_input_size = po->max_input_size;
	ibp_conf *c = NULL;
	int rc = ibp_conf_parse_file(po->conf_path, &co, &c, diags, err);
	if (rc)
		return rc;
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	if (po->fail_closed) {
		if (ibp_conf_error_count(c)) {
			rc = ibp_error_set(err, IBP_EINVAL,
					   "%s: %zu error(s) in the plan; "
					   "nothing will be changed",
					   po->conf_path,
					   ibp_conf_error_count(c));
			goto out;
		}
		/* the seed dialect is ours: OpenSM never sees it (via-opensm
		 * writes the plan in OpenSM syntax, read back first) */
		if (v->rejected &&
		    ibp_conf_get_dialect(c) != IBP_CONF_DIALECT_SEED) {
			rc = ibp_error_set_at(
			    err, IBP_EINVAL, po->conf_path, v->pos.line,
			    v->pos.col,
			    "OpenSM 3.3.23 would reject this file (%s) and "
			    "make every port a full member of 0xffff; nothing "
			    "will be changed",
			    v->reason ? v->reason : "parse error");
			goto out;
		}
		/* Every misreading OpenSM would make that changes who can
		 * reach whom is an error above (missing comma, unknown word,
		 * ...).  What is left is a warning, as `ibpart check` says:
		 * 'both' without allow_both_pkeys gives a full entry only,
		 * the same reach; it is printed, not refused. */
	}
	rc = compute(po, c, f, want, diags, err);
out:
	if (rc == IBP_OK && conf_out)
		*conf_out = c;
	else
		ibp_conf_free(c);
	return rc;
}

static bool same_tables(const ibp_tables *a, const ibp_tables *b)
{
	if (ibp_tables_count(a) != ibp_tables_count(b))
		return false;
	for (size_t i = 0; i < ibp_tables_count(a); i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(a, i, &n, &p);
		const ibp_pkey_table *u = ibp_tables_get(b, n, p);
		if (!u || !ibp_pkey_table_equal(t, u))
			return false;
	}
	return true;
}

int ibp_live_plan_opensm_text(const struct ibp_live_plan_options *po,
			      const ibp_fabric *f, const ibp_conf *conf,
			      const ibp_tables *want, char **text, size_t *len,
			      ibp_diags *diags, ibp_error *err)
{
	*text = NULL;
	*len = 0;
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&buf, &blen);
	if (!mem)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_conf_write_opensm(conf, f, mem, err);
	if (fclose(mem) && rc == IBP_OK)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (rc) {
		free(buf);
		return rc;
	}
	/* Read the text back the way OpenSM will and insist on the same
	 * meaning: never hand OpenSM a file it would reject or misread. */
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = f;
	co.dialect = IBP_CONF_DIALECT_OPENSM;
	co.allow_both_pkeys = po->allow_both_pkeys;
	ibp_conf *again = NULL;
	ibp_tables *t2 = NULL;
	rc = ibp_conf_parse_buffer("(canonical partitions.conf)", buf, blen,
				   &co, &again, diags, err);
	if (rc == IBP_OK) {
		const ibp_conf_verdict *v = ibp_conf_opensm_verdict(again);
		if (ibp_conf_error_count(again) || v->rejected ||
		    v->nmisreadings)
			rc = ibp_error_set(err, IBP_EINVAL,
					   "the canonical file would not be "
					   "read by OpenSM as planned; "
					   "refusing to install it");
	}
	if (rc == IBP_OK)
		rc = compute(po, again, f, &t2, diags, err);
	if (rc == IBP_OK && !same_tables(want, t2))
		rc = ibp_error_set(err, IBP_EINVAL,
				   "the canonical file gives other tables "
				   "than the plan; refusing to install it");
	ibp_tables_free(t2);
	ibp_conf_free(again);
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	*len = blen;
	return IBP_OK;
}
