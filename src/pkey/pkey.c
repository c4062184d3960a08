/*
 * pkey.c - parsing and printing P_Keys (the rules themselves are inline in
 * include/ibpart/pkey.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ibpart/pkey.h"

int ibp_pkey_parse(const char *s, uint16_t *out, ibp_error *err)
{
	if (!s || !*s)
		return ibp_error_set(err, IBP_EINVAL, "empty P_Key");
	/* strtoul would skip blanks (a tab too) and take a sign */
	if (*s < '0' || *s > '9')
		return ibp_error_set(err, IBP_EINVAL, "'%s' is not a P_Key", s);
	errno = 0;
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end)
		return ibp_error_set(err, IBP_EINVAL, "'%s' is not a P_Key", s);
	if (v > 0xffff)
		return ibp_error_set(err, IBP_ERANGE,
				     "P_Key '%s' does not fit in 16 bits", s);
	*out = (uint16_t)v;
	return IBP_OK;
}

char *ibp_pkey_format(uint16_t k, char buf[7])
{
	snprintf(buf, 7, "0x%04x", k);
	return buf;
}
