/*
 * sim_policy.c - the desired P_Key tables for `ibpart sim` / `ibpart
 * demo`: the plan read by conf (either dialect, names resolved through the
 * fabric) and handed to the partition manager (policy.h) in the asked
 * mode.  A plan in the seed's block dialect, which OpenSM itself cannot
 * read, is first rewritten in OpenSM syntax (one partition a line, names
 * as the port GUIDs conf resolved) and that text is what the partition
 * manager sees: the
 * plan, not OpenSM's rejection of its syntax (which `ibpart check`
 * reports).  Findings go to stderr: all of them, or (quiet) only when
 * there is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/policy.h"
#include "sim_session.h"

static const char *memb_word(ibp_membership m)
{
	switch (m) {
	case IBP_MEMB_FULL:
		return "full";
	case IBP_MEMB_BOTH:
		return "both";
	default:
		return "limited";
	}
}

/* One partition per line in OpenSM 3.3.23 syntax (what it reads without
 * surprises): "Name=0xPKEY[, ipoib][, rate=R][, mtu=M] : m=w, ... ;". */
static void write_line(FILE *out, const ibp_conf_partition *p)
{
	const ibp_conf_flags *fl = ibp_conf_partition_flags(p);
	size_t n = ibp_conf_partition_member_count(p);
	if (n == 0)
		return;
	const char *name = ibp_conf_partition_name(p);
	fprintf(out, "%s=0x%04x", name[0] ? name : "p",
		ibp_conf_partition_pkey(p));
	if (fl->ipoib)
		fprintf(out, ", ipoib");
	if (fl->has_rate && fl->rate)
		fprintf(out, ", rate=%u", fl->rate);
	if (fl->has_mtu && fl->mtu)
		fprintf(out, ", mtu=%u", fl->mtu);
	fprintf(out, " :");
	const char *sep = " ";
	for (size_t i = 0; i < n; i++) {
		const ibp_conf_member *m = ibp_conf_partition_member(p, i);
		const char *w = memb_word(m->membership);
		switch (m->kind) {
		case IBP_MEMBER_GUID:
		case IBP_MEMBER_NAME:
			fprintf(out, "%s0x%016llx=%s", sep,
				(unsigned long long)m->guid, w);
			break;
		case IBP_MEMBER_ALL:
			fprintf(out, "%sALL=%s", sep, w);
			break;
		case IBP_MEMBER_ALL_CAS:
			fprintf(out, "%sALL_CAS=%s", sep, w);
			break;
		case IBP_MEMBER_ALL_SWITCHES:
			fprintf(out, "%sALL_SWITCHES=%s", sep, w);
			break;
		case IBP_MEMBER_ALL_ROUTERS:
			fprintf(out, "%sALL_ROUTERS=%s", sep, w);
			break;
		case IBP_MEMBER_SELF:
			fprintf(out, "%sSELF=%s", sep, w);
			break;
		default:
			continue;
		}
		sep = ", ";
	}
	fprintf(out, " ;\n");
}

/* Replace *c (seed dialect, names resolved) by the same plan in OpenSM
 * syntax, re-read as OpenSM reads it. */
static int seed_to_opensm(const ibp_conf_options *co, ibp_conf **c,
			  ibp_diags *d, ibp_error *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; i < ibp_conf_partition_count(*c); i++)
		write_line(mem, ibp_conf_partition_at(*c, i));
	fclose(mem);
	char name[512];
	snprintf(name, sizeof(name), "%s (as OpenSM syntax)",
		 ibp_conf_file(*c));
	ibp_conf_options o2 = *co;
	o2.dialect = IBP_CONF_DIALECT_OPENSM;
	ibp_conf *c2 = NULL;
	int rc = ibp_conf_parse_buffer(name, text, len, &o2, &c2, d, err);
	if (rc == IBP_OK) {
		ibp_conf_free(*c);
		*c = c2;
	}
	free(text);
	return rc;
}

int sim_policy_tables(const ibp_fabric *f, const char *conf_path,
		      const char *mode, uint64_t smg, ibp_part_enforce enforce,
		      bool quiet, ibp_tables **out)
{
	*out = NULL;
	ibp_policy_options po;
	ibp_policy_options_init(&po);
	if (ibp_policy_mode_parse(mode, &po.mode) != IBP_OK) {
		fprintf(stderr, "ibpart: unknown mode '%s'\n", mode);
		return CLI_EXIT_USAGE;
	}
	po.sm_port_guid = smg;
	po.part_enforce = enforce;
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = f;
	ibp_conf *c = NULL;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_conf_parse_file(conf_path, &co, &c, d, &err);
	if (rc == IBP_OK && ibp_conf_get_dialect(c) == IBP_CONF_DIALECT_SEED &&
	    ibp_conf_error_count(c) == 0)
		rc = seed_to_opensm(&co, &c, d, &err);
	if (rc == IBP_OK)
		rc = ibp_policy_compute(c, f, &po, out, d, &err);
	size_t errors = ibp_diags_count_severity(d, IBP_SEV_ERROR);
	if (!quiet || errors || rc != IBP_OK)
		ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	ibp_conf_free(c);
	if (rc != IBP_OK) {
		if (err.message[0])
			cli_print_error(&err);
		ibp_tables_free(*out);
		*out = NULL;
		return rc == IBP_EIO || rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM
							 : CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}
