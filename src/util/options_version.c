/*
 * options_version.c - an options struct read, and a result struct
 * written, as far as the caller's version goes (util/options_version.h).
 */
#include <string.h>

#include "util/options_version.h"

void ibp_options_init_as(void *o, unsigned v, const void *def,
			 const ibp_options_layout *l)
{
	if (!o)
		return;
	if (v >= 1 && v <= l->current)
		memcpy(o, def, l->sizes[v - 1]);
	memcpy(o, &v, sizeof(v));
}

int ibp_options_take(void *full, const void *o, const ibp_options_layout *l,
		     ibp_error *err)
{
	if (!o) /* the defaults */
		return IBP_OK;
	unsigned v;
	memcpy(&v, o, sizeof(v));
	if (v < 1 || v > l->current)
		return ibp_error_set(err, IBP_EINVAL,
				     "%s: version %u, this library reads "
				     "1 to %u (initialise them with their "
				     "_init function)",
				     l->name, v, l->current);
	memcpy(full, o, l->sizes[v - 1]);
	return IBP_OK;
}

size_t ibp_result_size(const void *r, const ibp_options_layout *l)
{
	if (!r)
		return 0;
	unsigned v;
	memcpy(&v, r, sizeof(v));
	return v >= 1 && v <= l->current ? l->sizes[v - 1] : 0;
}

int ibp_result_check(const void *r, const ibp_options_layout *l, ibp_error *err)
{
	if (!r)
		return ibp_error_set(err, IBP_EINVAL, "%s: NULL", l->name);
	if (ibp_result_size(r, l))
		return IBP_OK;
	unsigned v;
	memcpy(&v, r, sizeof(v));
	return ibp_error_set(err, IBP_EINVAL,
			     "%s: version %u, this library fills 1 to %u "
			     "(set its version to %s)",
			     l->name, v, l->current,
			     l->macro ? l->macro : "the header's");
}

int ibp_result_take(void *full, size_t full_size, const void *r,
		    const ibp_options_layout *l, ibp_error *err)
{
	memset(full, 0, full_size);
	int rc = ibp_result_check(r, l, err);
	if (rc)
		return rc;
	memcpy(full, r, ibp_result_size(r, l));
	return IBP_OK;
}

void ibp_result_give(void *r, const void *full, const ibp_options_layout *l)
{
	size_t n = ibp_result_size(r, l), skip = sizeof(unsigned);
	if (n <= skip)
		return;
	if (full)
		memcpy((char *)r + skip, (const char *)full + skip, n - skip);
	else
		memset((char *)r + skip, 0, n - skip);
}
