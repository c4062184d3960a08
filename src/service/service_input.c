/*
 * service_input.c - request values as UFM's clients write them
 * (docs/ufm-api.md 3.2-3.4): P_Keys in every spelling they use, port
 * GUIDs with or without 0x, colons and upper case, membership words,
 * booleans sent as strings, and UFM's QoS units with the IBA codes
 * OpenSM wants (docs/ibpartd.md has the table).  Every refusal names the
 * field.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "service/service_internal.h"

int svc_fail(struct ibp_service_error *e, int status, const char *field,
	     const char *fmt, ...)
{
	if (!e)
		return status;
	va_list ap;
	va_start(ap, fmt);
	char msg[sizeof(e->err.message)];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ibp_error_set(&e->err, status, "%s", msg);
	snprintf(e->field, sizeof(e->field), "%s", field ? field : "");
	return status;
}

/* P_Keys a client may change: IBA 10.9.1 reserves 0x0000 and 0x7fff is
 * the default partition, OpenSM's own. */
static int pkey_range(unsigned long v, const char *text, const char *field,
		      uint16_t *out, struct ibp_service_error *e)
{
	unsigned long max = strcmp(field, "path") ? 0x7ffe : 0x7fff;
	if (v < 0x0001 || v > max)
		return svc_fail(e, IBP_EINVAL, field,
				"%s: P_Key %s is outside 0x0001-0x%lx", field,
				text, max);
	*out = (uint16_t)v;
	return IBP_OK;
}

int ibp_service_parse_pkey(const char *text, unsigned long *value)
{
	if (!text || !value)
		return IBP_EINVAL;
	const char *p = text;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		base = 16;
	}
	size_t n = strlen(p);
	bool ok = n > 0 && n <= 6;
	for (size_t i = 0; ok && i < n; i++)
		ok = base == 16 ? isxdigit((unsigned char)p[i])
				: isdigit((unsigned char)p[i]);
	if (!ok)
		return IBP_EINVAL;
	*value = strtoul(p, NULL, base);
	return IBP_OK;
}

int svc_parse_pkey_text(const char *text, const char *field, uint16_t *out,
			struct ibp_service_error *e)
{
	unsigned long v = 0;
	if (ibp_service_parse_pkey(text, &v))
		return svc_fail(e, IBP_EINVAL, field,
				"%s: \"%.40s\" is not a P_Key (0x followed by "
				"1-4 hex digits, or a decimal number)",
				field, text);
	return pkey_range(v, text, field, out, e);
}

int svc_parse_pkey_json(const json_t *v, const char *field, uint16_t *out,
			struct ibp_service_error *e)
{
	if (!v)
		return svc_fail(e, IBP_EINVAL, field, "%s: missing", field);
	if (json_is_string(v))
		return svc_parse_pkey_text(json_string_value(v), field, out, e);
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		char text[32];
		snprintf(text, sizeof(text), "%lld", (long long)i);
		return pkey_range(i < 0 ? 0 : (unsigned long)i, text, field,
				  out, e);
	}
	return svc_fail(e, IBP_EINVAL, field,
			"%s: a P_Key is a string such as \"0x5\"", field);
}

int svc_parse_guid(const char *text, const char *field, uint64_t *out,
		   struct ibp_service_error *e)
{
	const char *p = text;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	uint64_t v = 0;
	unsigned digits = 0;
	bool ok = true;
	for (; *p && ok; p++) {
		if (*p == ':')
			continue;
		if (!isxdigit((unsigned char)*p) || ++digits > 16) {
			ok = false;
			break;
		}
		int d = isdigit((unsigned char)*p)
			    ? *p - '0'
			    : tolower((unsigned char)*p) - 'a' + 10;
		v = v << 4 | (uint64_t)d;
	}
	if (!ok || digits != 16)
		return svc_fail(e, IBP_EINVAL, field,
				"%s: \"%.40s\" is not a port GUID (16 hex "
				"digits)",
				field, text);
	if (!v)
		return svc_fail(e, IBP_EINVAL, field,
				"%s: GUID 0 names no port", field);
	*out = v;
	return IBP_OK;
}

int svc_parse_bool(const json_t *v, const char *field, bool *out,
		   struct ibp_service_error *e)
{
	if (!v || json_is_null(v))
		return IBP_OK;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return IBP_OK;
	}
	if (json_is_string(v)) {
		const char *t = json_string_value(v);
		if (!strcasecmp(t, "true") || !strcasecmp(t, "false")) {
			*out = !strcasecmp(t, "true");
			return IBP_OK;
		}
	}
	return svc_fail(e, IBP_EINVAL, field, "%s: not true or false", field);
}

int svc_parse_membership(const json_t *v, const char *field, bool *full,
			 struct ibp_service_error *e)
{
	const char *t = json_is_string(v) ? json_string_value(v) : "";
	if (!strcasecmp(t, "full") || !strcasecmp(t, "limited")) {
		*full = !strcasecmp(t, "full");
		return IBP_OK;
	}
	return svc_fail(e, IBP_EINVAL, field,
			"%s: membership is \"full\" or \"limited\"", field);
}

/* The IBA rate codes (PortInfo/PathRecord Rate, IBA vol. 1 table 205)
 * and their data rates in Gb/s. */
static const struct {
	double gbps;
	unsigned code;
} rates[] = {
    {2.5, 2},  {10, 3},	  {30, 4},   {5, 5},   {20, 6},	  {40, 7},   {60, 8},
    {80, 9},   {120, 10}, {14, 11},  {56, 12}, {112, 13}, {168, 14}, {25, 15},
    {100, 16}, {200, 17}, {300, 18}, {28, 19}, {50, 20},  {400, 21}, {600, 22},
};

unsigned svc_rate_code(double gbps)
{
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (fabs(rates[i].gbps - gbps) < 1e-6)
			return rates[i].code;
	return 0;
}

double svc_rate_gbps(unsigned code)
{
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i].code == code)
			return rates[i].gbps;
	return 0;
}

/* UFM's mtu_limit is in KiB: 2 is 2048 bytes (IBA MTU code 4), 4 is
 * 4096 (code 5). */
unsigned svc_mtu_code(unsigned mtu_limit)
{
	return mtu_limit == 2 ? 4 : mtu_limit == 4 ? 5 : 0;
}

double svc_mtu_kib(unsigned code)
{
	return code >= 1 && code <= 5 ? (double)(128u << code) / 1024 : 0;
}
