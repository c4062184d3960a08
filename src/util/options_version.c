/*
 * options_version.c - an options struct read as far as the caller's
 * version goes (util/options_version.h).
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
