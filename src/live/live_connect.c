/*
 * live_connect.c - a live session made ready in one call
 * (ibpart/live_connect.h): topology, port, discovery, SM port.
 */
#include <string.h>

#include "topo/topo_load.h"

#include "ibpart/live_connect.h"
#include "live/live_connect_lib.h"

void ibp_live_connect_options_init(struct ibp_live_connect_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_LIVE_CONNECT_OPTIONS_VERSION;
	ibp_live_options_init(&o->live);
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
	ibp_fabric_options_init(&fo);
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
	if (o->version != IBP_LIVE_CONNECT_OPTIONS_VERSION)
		return ibp_error_set(err, IBP_EINVAL,
				     "unknown live connect options version");
	int rc = o->topology_path
		     ? load_topology(o, &out->topology, topo_diags, err)
		     : IBP_OK;
	if (!rc) {
		*step = IBP_LIVE_CONNECT_FABRIC;
		rc = ibp_live_open(&o->live, &out->live, err);
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
