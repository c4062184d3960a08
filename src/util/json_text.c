/*
 * json_text.c - strings into JSON without losing them (json_text.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "util/json_text.h"

json_t *json_text(const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	if (ibp_utf8_valid(s, n))
		return json_stringn(s, n);
	char *l = ibp_utf8_lossy(s, n);
	json_t *j = json_string(l ? l : "");
	free(l);
	return j;
}

void json_text_set(json_t *o, const char *key, const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	json_object_set_new(o, key, json_text(s));
	if (ibp_utf8_valid(s, n))
		return;
	char hk[64], *h = ibp_hex(s, n);
	snprintf(hk, sizeof(hk), "%s_hex", key);
	json_object_set_new(o, hk, json_string(h ? h : ""));
	free(h);
}
