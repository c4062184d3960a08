/*
 * json_text.h - private to the library: the JSON rule of escape.h for
 * jansson writers.  A string that is not valid UTF-8 (a NodeDescription
 * off the wire, a file name) would make jansson refuse it, and the
 * object holding it - a finding, a drift item - would silently vanish.
 * These never fail so: invalid bytes become U+FFFD, and json_text_set
 * also writes the exact bytes as "<key>_hex" beside a lossy value.
 */
#ifndef IBPART_UTIL_JSON_TEXT_H
#define IBPART_UTIL_JSON_TEXT_H

#include <jansson.h>

/* s (NULL: "") as a JSON string, lossy where not UTF-8. */
json_t *json_text(const char *s);
/* o[key] = json_text(s), and o[key "_hex"] = its bytes when lossy. */
void json_text_set(json_t *o, const char *key, const char *s);

#endif
