/*
 * sim_action.c - the seed's commands read from words and replayed on a
 * simulated fabric (front/sim_action.h): the action language of
 * `ibpart sim`, over the session's calls (ibpart/sys/sim_session.h).
 */
#include <string.h>

#include "front/args.h"
#include "front/sim_action.h"
#include "ibpart/sys/escape.h"

/* smpquery's flags, "pkeys", ADDR and an optional PORT. */
static int parse_smpquery(int argc, char **argv, int *k,
			  struct ibp_sim_action *a, ibp_error *err)
{
	for (; *k + 1 < argc && argv[*k + 1][0] == '-'; (*k)++)
		if (!strcmp(argv[*k + 1], "-G"))
			a->how = IBP_SMPQUERY_GUID;
		else if (!strcmp(argv[*k + 1], "-D"))
			a->how = IBP_SMPQUERY_DR;
		else
			return ibp_error_set(err, IBP_EINVAL,
					     "smpquery takes -G or -D, not %s",
					     argv[*k + 1]);
	if (*k + 2 >= argc || strcmp(argv[*k + 1], "pkeys"))
		return ibp_error_set(err, IBP_EINVAL,
				     "smpquery [-G|-D] pkeys ADDR [PORT]");
	a->addr = argv[*k + 2];
	unsigned long long pn = 0;
	*k += 3;
	if (*k < argc && ibp_parse_uint(argv[*k], 0, 254, &pn))
		(*k)++;
	a->port = (unsigned)pn;
	return IBP_OK;
}

/* pingpong's SRC DST and its own options. */
static int parse_pingpong(int argc, char **argv, int *k,
			  struct ibp_sim_action *a, ibp_error *err)
{
	if (*k + 2 >= argc)
		return ibp_error_set(err, IBP_EINVAL, "pingpong SRC DST");
	a->src = argv[*k + 1];
	a->dst = argv[*k + 2];
	struct ibp_sim_pingpong_options *po = &a->pingpong;
	*k += 3;
	const struct ibp_arg_opt opts[] = {
	    IBP_ARG_NUM("--pkey-index", &po->pkey_index, 0, 65535, "N", ""),
	    IBP_ARG_NUM("-n", &po->iters, 0, 65535, "ITERS", ""),
	    IBP_ARG_NUM("-s", &po->size, 0, 65535, "SIZE", "")};
	struct ibp_args args = {"sim", "", NULL, opts, 3, 0, true};
	/* argv[*k - 1] (DST) stands where a command's name would */
	int rc = ibp_args_parse(&args, argc - *k + 1, argv + *k - 1, NULL, err);
	if (rc)
		return IBP_EINVAL;
	*k += args.next - 1;
	return IBP_OK;
}

/* vf-map's VF and its comma-separated physical indexes. */
static int parse_vf_map(int argc, char **argv, int *k, struct ibp_sim_action *a,
			ibp_error *err)
{
	if (*k + 2 >= argc)
		return ibp_error_set(err, IBP_EINVAL, "vf-map VF IDX[,IDX...]");
	a->vf = argv[*k + 1];
	const char *list = argv[*k + 2];
	*k += 3;
	for (const char *c = list; *c;) {
		char word[16];
		size_t len = strcspn(c, ",");
		unsigned long long v;
		if (len == 0 || len >= sizeof(word) ||
		    a->vf_map_n >= IBP_SIM_VF_PKEYS)
			return ibp_error_set(err, IBP_EINVAL,
					     "vf-map: at most %u indexes "
					     "0..65534, comma-separated, not "
					     "'%s'",
					     IBP_SIM_VF_PKEYS, list);
		memcpy(word, c, len);
		word[len] = 0;
		if (!ibp_parse_uint(word, 0, 65534, &v))
			return ibp_error_set(err, IBP_EINVAL,
					     "vf-map: '%s' is no P_Key index",
					     word);
		a->vf_map[a->vf_map_n++] = (uint16_t)v;
		c += len + (c[len] == ',');
	}
	return a->vf_map_n
		   ? IBP_OK
		   : ibp_error_set(err, IBP_EINVAL, "vf-map VF IDX[,IDX...]");
}

int ibp_sim_action_parse(int argc, char **argv, int *k,
			 struct ibp_sim_action *a, ibp_error *err)
{
	ibp_error_clear(err);
	memset(a, 0, sizeof(*a));
	ibp_sim_pingpong_options_init(&a->pingpong,
				      IBP_SIM_PINGPONG_OPTIONS_VERSION);
	const char *act = argv[*k];
	if (!strcmp(act, "smpquery")) {
		a->kind = IBP_SIM_ACTION_SMPQUERY;
		return parse_smpquery(argc, argv, k, a, err);
	}
	if (!strcmp(act, "pingpong")) {
		a->kind = IBP_SIM_ACTION_PINGPONG;
		return parse_pingpong(argc, argv, k, a, err);
	}
	if (!strcmp(act, "probe-matrix") || !strcmp(act, "counters")) {
		a->kind = act[0] == 'p' ? IBP_SIM_ACTION_PROBE_MATRIX
					: IBP_SIM_ACTION_COUNTERS;
		(*k)++;
		return IBP_OK;
	}
	if (!strcmp(act, "vf-map")) {
		a->kind = IBP_SIM_ACTION_VF_MAP;
		return parse_vf_map(argc, argv, k, a, err);
	}
	return ibp_error_set(err, IBP_EINVAL, "unknown action '%s'", act);
}

int ibp_sim_session_run_action(ibp_sim_session *s,
			       const struct ibp_sim_action *a, FILE *out,
			       struct ibp_sim_pingpong_result *res,
			       ibp_error *err)
{
	switch (a->kind) {
	case IBP_SIM_ACTION_SMPQUERY:
		return ibp_sim_session_smpquery_pkeys_ex(s, a->addr, a->how,
							 a->port, out, err);
	case IBP_SIM_ACTION_PINGPONG:
		return ibp_sim_session_pingpong(s, a->src, a->dst, &a->pingpong,
						out, res, err);
	case IBP_SIM_ACTION_PROBE_MATRIX:
		return ibp_sim_session_probe_matrix(s, out, NULL, err);
	case IBP_SIM_ACTION_VF_MAP: {
		int rc = ibp_sim_session_vf_map(s, a->vf, a->vf_map,
						a->vf_map_n, err);
		if (rc == IBP_OK && out) {
			fputs("vf-map: ", out);
			ibp_escape_write(out, a->vf, strlen(a->vf));
			fputs("'s P_KeyTable is its port's entries", out);
			for (unsigned i = 0; i < a->vf_map_n; i++)
				fprintf(out, "%s%u", i ? "," : " ",
					a->vf_map[i]);
			fputc('\n', out);
		}
		return rc;
	}
	case IBP_SIM_ACTION_COUNTERS:
		break;
	}
	return ibp_sim_session_counters(s, out, err);
}
