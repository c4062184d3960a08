/*
 * escape.c - the escaping rules of each output format (see
 * include/ibpart/escape.h): text for terminals (`\xNN`, `\\`), JSON as
 * valid UTF-8 (U+FFFD) with the exact bytes in hex beside it.
 *
 * UTF-8 is checked by hand (RFC 3629: the shortest form only, no
 * surrogates, at most U+10FFFF): it is twenty lines, and no library
 * Debian ships offers a validator that also says where a sequence ends.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/escape.h"

size_t ibp_utf8_seq(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	if (!len)
		return 0;
	if (u[0] < 0x80)
		return 1;
	size_t n;
	uint32_t cp, min;
	if ((u[0] & 0xe0) == 0xc0) {
		n = 2, cp = u[0] & 0x1f, min = 0x80;
	} else if ((u[0] & 0xf0) == 0xe0) {
		n = 3, cp = u[0] & 0x0f, min = 0x800;
	} else if ((u[0] & 0xf8) == 0xf0) {
		n = 4, cp = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool ibp_utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = ibp_utf8_seq(s + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

char *ibp_escape_text(const char *s, size_t len)
{
	/* at most 4 output bytes per input byte ("\xNN") */
	char *out = malloc(len * 4 + 1), *o = out;
	if (!out)
		return NULL;
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c >= 0x80 ? ibp_utf8_seq(s + i, len - i) : 0;
		if (n) {
			memcpy(o, s + i, n);
			o += n;
			i += n;
			continue;
		}
		if (c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else if ((c >= 0x20 && c < 0x7f) || c == '\t') {
			*o++ = (char)c;
		} else {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
		i++;
	}
	*o = 0;
	return out;
}

char *ibp_utf8_lossy(const char *s, size_t len)
{
	/* U+FFFD is 3 bytes for each invalid one */
	char *out = malloc(len * 3 + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = ibp_utf8_seq(s + i, len - i);
		if (n && !(n == 1 && s[i] == 0)) {
			memcpy(o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = 0;
	return out;
}

char *ibp_hex(const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char *out = malloc(len * 2 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		out[2 * i] = hex[c >> 4];
		out[2 * i + 1] = hex[c & 15];
	}
	out[2 * len] = 0;
	return out;
}
