/*
 * escape.c - the escaping rules of each output format (see
 * include/ibpart/sys/escape.h): text for terminals (`\xNN`, `\\`), JSON as
 * valid UTF-8 (U+FFFD) with the exact bytes in hex beside it, HTML
 * entities, CSV quoting with formulas defused, Markdown table cells,
 * Prometheus label values.
 *
 * UTF-8 is checked by hand (RFC 3629: the shortest form only, no
 * surrogates, at most U+10FFFF): it is twenty lines, and no library
 * Debian ships offers a validator that also says where a sequence ends.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"

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

bool ibp_escape_needed(const char *s, size_t len)
{
	/* conservative for bytes >= 0x80: valid UTF-8 would pass, but
	 * checking it is the escaper's job */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '\t' && (c < 0x20 || c >= 0x7f || c == '\\'))
			return true;
	}
	return false;
}

/* The code point of the valid n-byte sequence at u (n from
 * ibp_utf8_seq). */
static uint32_t utf8_cp(const unsigned char *u, size_t n)
{
	static const unsigned char lead[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	uint32_t cp = u[0] & lead[n];
	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (u[i] & 0x3f);
	return cp;
}

/* Valid UTF-8 that a terminal acts on instead of showing: the C1
 * controls (U+0080..U+009F; xterm takes U+009B as CSI, so "\u009b2K"
 * erases a line as ESC [ 2K does), the bidirectional overrides and
 * isolates that reorder what follows (U+200E/F, U+202A..E,
 * U+2066..9: "Trojan Source", CVE-2021-42574) and the line and
 * paragraph separators (U+2028/9). */
static bool cp_hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

/* The text rule for one position: how many input bytes, and into out
 * (at most 4 bytes) what they become. */
static size_t escape_one(const char *s, size_t len, char *out, size_t *nout)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = (unsigned char)s[0];
	size_t n = c >= 0x80 ? ibp_utf8_seq(s, len) : 0;
	if (n && cp_hidden(utf8_cp((const unsigned char *)s, n)))
		n = 0; /* each of its bytes as \xNN */
	if (n) {
		memcpy(out, s, n);
		*nout = n;
		return n;
	}
	if (c == '\\') {
		memcpy(out, "\\\\", 2);
		*nout = 2;
	} else if ((c >= 0x20 && c < 0x7f) || c == '\t') {
		out[0] = (char)c;
		*nout = 1;
	} else {
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[c >> 4];
		out[3] = hex[c & 15];
		*nout = 4;
	}
	return 1;
}

char *ibp_escape_text(const char *s, size_t len)
{
	/* at most 4 output bytes per input byte ("\xNN") */
	char *out = malloc(len * 4 + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t k;
		i += escape_one(s + i, len - i, o, &k);
		o += k;
	}
	*o = 0;
	return out;
}

void ibp_escape_write(FILE *out, const char *s, size_t len)
{
	if (!ibp_escape_needed(s, len)) {
		fwrite(s, 1, len, out);
		return;
	}
	for (size_t i = 0; i < len;) {
		char b[4];
		size_t k;
		i += escape_one(s + i, len - i, b, &k);
		fwrite(b, 1, k, out);
	}
}

/* The length of a valid sequence at s and whether the JSON/Prometheus
 * rule keeps it: NUL and invalid bytes become U+FFFD (0 returned). */
static size_t utf8_kept(const char *s, size_t len)
{
	size_t n = ibp_utf8_seq(s, len);
	return n && !(n == 1 && s[0] == 0) ? n : 0;
}

#define U_FFFD "\xef\xbf\xbd"

/* s[0..len) as valid UTF-8 (NUL and invalid bytes as U+FFFD); with
 * prom, also \ " and LF escaped as the Prometheus format wants. */
static char *lossy(const char *s, size_t len, bool prom)
{
	/* U+FFFD (3 bytes) for an invalid byte is the worst case */
	char *out = malloc(len * 3 + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_kept(s + i, len - i);
		if (!n) {
			memcpy(o, U_FFFD, 3);
			o += 3;
			i++;
			continue;
		}
		if (prom && (s[i] == '\\' || s[i] == '"' || s[i] == '\n')) {
			*o++ = '\\';
			*o++ = s[i] == '\n' ? 'n' : s[i];
		} else {
			memcpy(o, s + i, n);
			o += n;
		}
		i += n;
	}
	*o = 0;
	return out;
}

char *ibp_utf8_lossy(const char *s, size_t len)
{
	return lossy(s, len, false);
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

char *ibp_escape_prometheus(const char *s, size_t len)
{
	return lossy(s, len, true);
}

/* The HTML entities of s[0..len), printable text already. */
static void html_entities(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		const char *ent = s[i] == '<'	 ? "&lt;"
				  : s[i] == '>'	 ? "&gt;"
				  : s[i] == '&'	 ? "&amp;"
				  : s[i] == '"'	 ? "&quot;"
				  : s[i] == '\'' ? "&#39;"
						 : NULL;
		if (ent)
			fputs(ent, out);
		else
			fputc(s[i], out);
	}
}

void ibp_escape_html_write(FILE *out, const char *s, size_t len)
{
	if (!ibp_escape_needed(s, len)) {
		html_entities(out, s, len);
		return;
	}
	char *t = ibp_escape_text(s, len); /* what a terminal shows */
	if (t)
		html_entities(out, t, strlen(t));
	free(t);
}

bool ibp_csv_formula(const char *s, size_t len)
{
	return len && s[0] && strchr("=+-@\t\r", s[0]);
}

void ibp_escape_csv_write(FILE *out, const char *s, size_t len)
{
	bool formula = ibp_csv_formula(s, len);
	bool quote = formula;
	for (size_t i = 0; i < len && !quote; i++)
		quote =
		    s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		fwrite(s, 1, len, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

void ibp_escape_markdown_write(FILE *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (c < 0x20 ||
			 c == 0x7f) /* not text-escaped: still none */
			fprintf(out, "\\\\x%c%c", hex[c >> 4], hex[c & 15]);
		else {
			if (strchr("\\|`*_[]#!~", c))
				fputc('\\', out);
			fputc(c, out);
		}
	}
}
