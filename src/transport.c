/*
 * transport.c - the generic half of the SMP transport (see
 * include/ibpart/transport.h): dispatch to an implementation and count
 * what went through it.
 */
#include <stdlib.h>

#include "ibpart/transport.h"

struct ibp_transport {
	const struct ibp_transport_ops *ops;
	void *ctx;
	struct ibp_transport_stats stats;
};

ibp_transport *ibp_transport_new(const struct ibp_transport_ops *ops, void *ctx)
{
	ibp_transport *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ops = ops;
	t->ctx = ctx;
	return t;
}

int ibp_transport_smp(ibp_transport *t, const uint8_t req[IBP_MAD_SIZE],
		      uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		      ibp_error *err)
{
	t->stats.sent++;
	int rc = t->ops->smp(t->ctx, req, resp, timeout_ms, err);
	if (rc == IBP_OK)
		t->stats.answered++;
	else if (rc == IBP_ETIMEDOUT)
		t->stats.timeouts++;
	return rc;
}

int ibp_transport_smp_lid(ibp_transport *t, uint16_t dlid,
			  const uint8_t req[IBP_MAD_SIZE],
			  uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
			  ibp_error *err)
{
	if (!t->ops->smp_lid)
		return ibp_error_set(err, IBP_EINVAL,
				     "transport %s sends no LID-routed SMPs",
				     t->ops->name);
	t->stats.sent++;
	int rc = t->ops->smp_lid(t->ctx, dlid, req, resp, timeout_ms, err);
	if (rc == IBP_OK)
		t->stats.answered++;
	else if (rc == IBP_ETIMEDOUT)
		t->stats.timeouts++;
	return rc;
}

int ibp_transport_recv(ibp_transport *t, uint8_t buf[IBP_MAD_SIZE],
		       int timeout_ms, ibp_error *err)
{
	if (!t->ops->recv)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "transport %s receives no traps",
				     t->ops->name);
	return t->ops->recv(t->ctx, buf, timeout_ms, err);
}

const char *ibp_transport_name(const ibp_transport *t)
{
	return t->ops->name;
}

void ibp_transport_stats(const ibp_transport *t,
			 struct ibp_transport_stats *out)
{
	*out = t->stats;
}

void ibp_transport_close(ibp_transport *t)
{
	if (!t)
		return;
	if (t->ops->close)
		t->ops->close(t->ctx);
	free(t);
}
