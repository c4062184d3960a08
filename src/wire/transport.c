/*
 * transport.c - the generic half of the SMP transport (see
 * include/ibpart/sys/transport.h): dispatch to an implementation and count
 * what went through it.
 */
#include <stdlib.h>

#include "ibpart/sys/transport.h"

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

int ibp_transport_smp_batch(ibp_transport *t, struct ibp_smp_xfer *x, size_t n,
			    unsigned window, int timeout_ms, ibp_error *err)
{
	int rc = IBP_OK;
	for (size_t i = 0; i < n; i++)
		x[i].rc = IBP_ENOENT; /* not sent (yet) */
	if (t->ops->smp_batch && window > 1) {
		rc = t->ops->smp_batch(t->ctx, x, n, window, timeout_ms, err);
	} else {
		for (size_t i = 0; i < n && rc == IBP_OK; i++) {
			ibp_error e;
			if (x[i].dlid)
				x[i].rc = t->ops->smp_lid
					      ? t->ops->smp_lid(
						    t->ctx, x[i].dlid, x[i].req,
						    x[i].resp, timeout_ms, &e)
					      : IBP_EINVAL;
			else
				x[i].rc =
				    t->ops->smp(t->ctx, x[i].req, x[i].resp,
						timeout_ms, &e);
			/* a transport that failed as a whole stops it */
			if (x[i].rc == IBP_EIO) {
				if (err)
					*err = e;
				rc = IBP_EIO;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (x[i].rc == IBP_ENOENT)
			continue;
		t->stats.sent++;
		if (x[i].rc == IBP_OK)
			t->stats.answered++;
		else if (x[i].rc == IBP_ETIMEDOUT)
			t->stats.timeouts++;
	}
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

int ibp_transport_send(ibp_transport *t, uint16_t dlid,
		       const uint8_t mad[IBP_MAD_SIZE], ibp_error *err)
{
	if (!t->ops->send)
		return ibp_error_set(err, IBP_EINVAL,
				     "transport %s sends no unsolicited "
				     "responses",
				     t->ops->name);
	return t->ops->send(t->ctx, dlid, mad, err);
}

bool ibp_transport_can_send(const ibp_transport *t)
{
	return t->ops->send != NULL;
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
