/*
 * sim_session.c - bringing a sim session up and down (see
 * include/ibpart/sys/sim_session.h): the topology, the SM's port, LIDs, the
 * plan's tables, the simulator with its transport and SM, and the SM's
 * push; the getters and port resolution the commands share.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/escape.h"
#include "ibpart/sys/transport_sim.h"
#include "sim/sim_session_priv.h"
#include "util/diag_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "util/error_lib.h"

/* Every line the session prints goes through here: it quotes node
 * descriptions, which a tenant's HCA sets to anything, so each line is
 * escaped for a terminal (escape.h) and only our own newlines stay. */
void simss_printf(FILE *out, const char *fmt, ...)
{
	if (!out)
		return;
	char *text = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	for (const char *p = text, *end = text + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		ibp_escape_write(out, p, len);
		if (nl)
			fputc('\n', out);
		p += len + (nl ? 1 : 0);
	}
	free(text);
}

static void progress(const struct ibp_sim_session_options *o, const char *fmt,
		     ...) __attribute__((format(printf, 2, 3)));
static void progress(const struct ibp_sim_session_options *o, const char *fmt,
		     ...)
{
	if (!o->progress)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->progress(o->progress_ctx, msg);
}

IBP_OPTIONS_LAYOUT(sim_session_options_layout, "sim session options",
		   IBP_SIM_SESSION_OPTIONS_VERSION,
		   offsetof(struct ibp_sim_session_options, alias_guids_path),
		   sizeof(struct ibp_sim_session_options));

/* The library's defaults, a whole current struct. */
static void sim_session_options_defaults(struct ibp_sim_session_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_SIM_SESSION_OPTIONS_VERSION;
	o->mode = "opensm";
	o->enforce = IBP_ENFORCE_BOTH;
	o->push = true;
}

void ibp_sim_session_options_init(struct ibp_sim_session_options *o,
				  unsigned version)
{
	struct ibp_sim_session_options d;
	sim_session_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &sim_session_options_layout);
}

/* The topology, its findings sorted by position and appended to diags;
 * a failed load repeats its first error in err. */
static int load_topology(const char *path, size_t max_input_size,
			 ibp_fabric **out, ibp_diags *diags, ibp_error *err)
{
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	fo.max_input_size = max_input_size;
	int rc = ibp_fabric_load(path, &fo, out, d);
	ibp_diags_sort(d);
	if (rc != IBP_OK) {
		const ibp_diag *first = NULL;
		for (size_t i = 0; i < ibp_diags_count(d) && !first; i++)
			if (ibp_diags_get(d, i)->severity == IBP_SEV_ERROR)
				first = ibp_diags_get(d, i);
		int st = rc == IBP_ENOMEM		       ? IBP_ENOMEM
			 : first && !strcmp(first->code, "io") ? IBP_ENOENT
							       : IBP_EPARSE;
		if (first)
			ibp_error_set_at(err, st, first->file, first->line,
					 first->col, "%s", first->message);
		else
			ibp_error_set(err, st, "%s: the topology does not load",
				      path);
		rc = st;
	}
	if (diags && ibp_diags_append(diags, d, NULL) != IBP_OK && !rc)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_diags_free(d);
	return rc;
}

static int pick_sm_port(ibp_sim_session *s, const char *spec, ibp_error *err)
{
	if (spec)
		return ibp_fabric_resolve_port(s->f, spec, &s->sm_node,
					       &s->sm_port, err);
	if (ibp_fabric_default_sm_port(s->f, &s->sm_node, &s->sm_port) !=
	    IBP_OK)
		return ibp_error_set(err, IBP_EINVAL,
				     "the fabric has no CA port for the SM");
	return IBP_OK;
}

/* The simulator, its transport at the SM's port and the SM over it. */
static int bring_up(ibp_sim_session *s, const struct ibp_sim_session_options *o,
		    ibp_error *err)
{
	int rc = ibp_sim_new(s->f, &s->sim, err);
	if (rc == IBP_OK)
		rc = ibp_sim_set_sm_port(s->sim, s->sm_node, s->sm_port, err);
	if (rc != IBP_OK)
		return rc;
	struct ibp_transport_sim_opts to = {.drop_rate = o->mad_loss,
					    .seed = 1};
	rc = ibp_transport_sim_new(s->sim, s->sm_node, s->sm_port, &to, &s->t,
				   err);
	if (rc != IBP_OK)
		return rc;
	ibp_sm_options_init(&s->so, IBP_SM_OPTIONS_VERSION);
	s->so.enforce = o->enforce;
	if (o->mad_loss > 0)
		s->so.retries = 10; /* the lost MADs are the point */
	return ibp_sm_new(s->t, &s->so, &s->sm, err);
}

static int check_options(const struct ibp_sim_session_options *o,
			 ibp_error *err)
{
	if (!o->topo_path || !o->conf_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "sim session: a topology and a plan are "
				     "needed");
	const char *mode = o->mode ? o->mode : "opensm";
	if (strcmp(mode, "opensm") && strcmp(mode, "strict"))
		return ibp_error_set(err, IBP_EINVAL, "unknown mode '%s'",
				     mode);
	if (!(o->mad_loss >= 0 && o->mad_loss < 1))
		return ibp_error_set(err, IBP_EINVAL,
				     "mad_loss is a fraction in [0,1)");
	return IBP_OK;
}

static int open_steps(ibp_sim_session *s,
		      const struct ibp_sim_session_options *o, ibp_diags *diags,
		      ibp_error *err)
{
	progress(o, "loading the topology %s", o->topo_path);
	int rc =
	    load_topology(o->topo_path, o->max_input_size, &s->f, diags, err);
	if (rc == IBP_OK)
		rc = pick_sm_port(s, o->sm_port, err);
	if (rc != IBP_OK)
		return rc;
	uint64_t smg = ibp_fabric_port_guid(s->f, s->sm_node, s->sm_port);
	rc = ibp_fabric_assign_lids(s->f, smg, err);
	if (rc != IBP_OK)
		return rc;
	progress(o, "%zu nodes, LIDs assigned; the SM on %s port %u",
		 ibp_fabric_node_count(s->f),
		 ibp_fabric_node_desc(s->f, s->sm_node), s->sm_port);
	progress(o, "computing the tables of %s (mode %s)", o->conf_path,
		 s->mode);
	rc = simss_plan_tables(s->f, o->conf_path, o->alias_guids_path,
			       o->max_input_size, s->mode, smg, o->enforce,
			       &s->want, diags, err);
	if (rc != IBP_OK)
		return rc;
	progress(o, "bringing up the simulated fabric");
	rc = bring_up(s, o, err);
	if (rc == IBP_OK && o->alias_guids_path) {
		rc = simss_register_vfs(s, o->alias_guids_path,
					o->max_input_size, err);
		if (rc != IBP_OK)
			return rc;
	}
	if (rc != IBP_OK && rc != IBP_ENOMEM) {
		/* Whatever the layer said, the simulated fabric failed. */
		if (err)
			err->status = IBP_EIO;
		return IBP_EIO;
	}
	if (rc != IBP_OK || !o->push)
		return rc;
	progress(o, "the SM pushes the plan");
	return ibp_sim_session_push(s, o->enforce, err);
}

int ibp_sim_session_open(const struct ibp_sim_session_options *o,
			 ibp_sim_session **out, ibp_diags *diags,
			 ibp_error *err)
{
	ibp_error_clear(err);
	if (out)
		*out = NULL;
	if (!out)
		return ibp_error_set(err, IBP_EINVAL, "sim session: no out");
	struct ibp_sim_session_options own;
	sim_session_options_defaults(&own);
	if (ibp_options_take(&own, o, &sim_session_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	int rc = check_options(o, err);
	if (rc != IBP_OK)
		return rc;
	ibp_sim_session *s = calloc(1, sizeof(*s));
	if (!s)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	snprintf(s->mode, sizeof(s->mode), "%s", o->mode ? o->mode : "opensm");
	s->enforce = o->enforce;
	s->tid = 0x5a000000;
	rc = open_steps(s, o, diags, err);
	if (rc != IBP_OK) {
		ibp_sim_session_free(s);
		return rc;
	}
	progress(o, "the session is up");
	*out = s;
	return IBP_OK;
}

void ibp_sim_session_free(ibp_sim_session *s)
{
	if (!s)
		return;
	ibp_sm_report_free(&s->rep);
	ibp_sm_free(s->sm);
	ibp_transport_close(s->t);
	ibp_sim_free(s->sim);
	ibp_tables_free(s->want);
	ibp_fabric_free(s->f);
	free(s);
}

int ibp_sim_session_push(ibp_sim_session *s, ibp_part_enforce e, ibp_error *err)
{
	if (!s || !s->sm)
		return ibp_error_set(err, IBP_EINVAL, "sim session: no SM");
	s->so.enforce = e; /* the rest as the session was opened */
	int rc = ibp_sm_set_options(s->sm, &s->so, err);
	if (rc != IBP_OK)
		return rc;
	s->enforce = e;
	ibp_sm_report_free(&s->rep);
	return ibp_sm_push(s->sm, s->want, &s->rep, err);
}

const ibp_fabric *ibp_sim_session_fabric(const ibp_sim_session *s)
{
	return s->f;
}

const ibp_tables *ibp_sim_session_tables(const ibp_sim_session *s)
{
	return s->want;
}

const ibp_tables *ibp_sim_session_port_tables(const ibp_sim_session *s)
{
	return ibp_sim_tables(s->sim);
}

ibp_sim *ibp_sim_session_sim(ibp_sim_session *s)
{
	return s->sim;
}

ibp_sm *ibp_sim_session_sm(ibp_sim_session *s)
{
	return s->sm;
}

const struct ibp_sm_report *ibp_sim_session_report(const ibp_sim_session *s)
{
	return &s->rep;
}

void ibp_sim_session_sm_port(const ibp_sim_session *s, size_t *node,
			     unsigned *port)
{
	if (node)
		*node = s->sm_node;
	if (port)
		*port = s->sm_port;
}

const char *ibp_sim_session_mode(const ibp_sim_session *s)
{
	return s->mode;
}

ibp_part_enforce ibp_sim_session_enforce(const ibp_sim_session *s)
{
	return s->enforce;
}

int ibp_sim_session_port(const ibp_sim_session *s, const char *spec,
			 size_t *node, unsigned *port, ibp_error *err)
{
	unsigned vf; /* a VF names its physical port */
	return simss_endpoint(s, spec, node, port, &vf, err);
}
