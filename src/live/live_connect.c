/*
 * live_connect.c - a live session made ready in one call
 * (ibpart/sys/live_connect.h): topology, port, discovery, SM port.
 */
#include <string.h>

#include "live/live_lib.h"
#include "topo/topo_load.h"

#include "ibpart/sys/live_connect.h"
#include "util/options_version.h"

IBP_OPTIONS_LAYOUT(live_connect_options_layout, "live connect options",
		   IBP_LIVE_CONNECT_OPTIONS_VERSION,
		   sizeof(struct ibp_live_connect_options));

/* The library's defaults, a whole current struct. */
static void live_connect_options_defaults(struct ibp_live_connect_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_LIVE_CONNECT_OPTIONS_VERSION;
}

void ibp_live_connect_options_init(struct ibp_live_connect_options *o,
				   unsigned version)
{
	struct ibp_live_connect_options d;
	live_connect_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &live_connect_options_layout);
}

void ibp_live_disconnect(ibp_live_connection *c)
{
	if (!c)
		return;
	ibp_live_close(c->live);
	ibp_fabric_free(c->topology);
	memset(c, 0, sizeof(*c));
}

/* The topology with the options' input limit, its findings to diags
 * and to the options' callback. */
static int load_topology(const struct ibp_live_connect_options *o,
			 ibp_fabric **out, ibp_diags *diags, ibp_error *err)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	fo.max_input_size = o->max_input_size;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = topo_load_reported(o->topology_path, &fo, out, d, err);
	if (o->topology_loaded)
		o->topology_loaded(o->topology_ctx, d);
	if (diags && ibp_diags_append(diags, d, NULL) && !rc)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_diags_free(d);
	return rc;
}

int ibp_live_connect(const struct ibp_live_connect_options *o,
		     ibp_live_connection *out, ibp_diags *topo_diags,
		     ibp_live_connect_step *step, ibp_error *err)
{
	ibp_live_connect_step dummy;
	step = step ? step : &dummy;
	*step = IBP_LIVE_CONNECT_TOPOLOGY;
	ibp_error_clear(err);
	memset(out, 0, sizeof(*out));
	struct ibp_live_connect_options own;
	live_connect_options_defaults(&own);
	struct ibp_live_options live; /* the caller's, as far as it goes */
	if (ibp_options_take(&own, o, &live_connect_options_layout, err) ||
	    ibp_live_options_take(&live, own.live, err))
		return IBP_EINVAL;
	own.live = &live;
	o = &own;
	int rc = o->topology_path
		     ? load_topology(o, &out->topology, topo_diags, err)
		     : IBP_OK;
	if (!rc) {
		*step = IBP_LIVE_CONNECT_FABRIC;
		rc = ibp_live_open(o->live, &out->live, err);
	}
	if (!rc)
		rc = ibp_live_discover(out->live, err);
	if (!rc) {
		ibp_live_set_topology(out->live, out->topology);
		*step = IBP_LIVE_CONNECT_SM_PORT;
		rc = ibp_live_find_sm(out->live, o->sm_port, err);
	}
	if (rc)
		ibp_live_disconnect(out);
	return rc;
}
