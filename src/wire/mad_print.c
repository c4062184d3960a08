/*
 * mad_print.c - SMP attributes as smpquery prints them.  The text comes
 * from libibmad's dumpers (the ones infiniband-diags uses), fed with our
 * encoding of the attribute: one source of truth for the wire layout
 * (the field tables of mad.c), and the exact smpquery wording without a
 * copy of its tables.
 */
#include <infiniband/mad.h>
#include <stdio.h>
#include <string.h>

#include "ibpart/sys/mad.h"

/* libibmad's dumpers take an int size and give no length back; dump into a
 * generous scratch buffer and then copy, to report truncation. */
#define DUMP_SCRATCH 8192

static int finish(const char *text, char *buf, size_t len, const char *what,
		  ibp_error *err)
{
	size_t n = strlen(text);
	if (!buf || len == 0)
		return ibp_error_set(err, IBP_EINVAL, "%s dump: no buffer",
				     what);
	if (n >= len) {
		memcpy(buf, text, len - 1);
		buf[len - 1] = '\0';
		return ibp_error_set(err, IBP_ERANGE,
				     "%s dump needs %zu bytes, have %zu", what,
				     n + 1, len);
	}
	memcpy(buf, text, n + 1);
	return (int)n;
}

int ibp_node_info_dump(const struct ibp_node_info *ni, char *buf, size_t len,
		       ibp_error *err)
{
	uint8_t data[IBP_SMP_DATA_SIZE] = {0};
	char text[DUMP_SCRATCH];
	int rc = ibp_node_info_encode(ni, data, sizeof(data), err);
	if (rc < 0)
		return rc;
	text[0] = '\0';
	mad_dump_nodeinfo(text, sizeof(text), data, sizeof(data));
	return finish(text, buf, len, "NodeInfo", err);
}

/* Replace the value of the first line ("Mkey:.....0x...") by smpquery's
 * "<not displayed>", keeping libibmad's name and dot padding. */
static void hide_mkey(char *text, size_t size)
{
	char *eol = strchr(text, '\n');
	char *colon = strchr(text, ':');
	if (!eol || !colon || colon > eol || strncmp(text, "Mkey:", 5) != 0)
		return;
	char *v = colon + 1;
	while (v < eol && *v == '.')
		v++;
	char rest[DUMP_SCRATCH];
	snprintf(rest, sizeof(rest), "%s", eol);
	snprintf(v, size - (size_t)(v - text), "<not displayed>%s", rest);
}

int ibp_port_info_dump(const struct ibp_port_info *pi, bool show_keys,
		       char *buf, size_t len, ibp_error *err)
{
	uint8_t data[IBP_SMP_DATA_SIZE] = {0};
	char text[DUMP_SCRATCH];
	int rc = ibp_port_info_encode(pi, data, sizeof(data), err);
	if (rc < 0)
		return rc;
	text[0] = '\0';
	mad_dump_portinfo(text, sizeof(text), data, sizeof(data));
	if (!show_keys)
		hide_mkey(text, sizeof(text));
	return finish(text, buf, len, "PortInfo", err);
}

int ibp_switch_info_dump(const struct ibp_switch_info *si, char *buf,
			 size_t len, ibp_error *err)
{
	uint8_t data[IBP_SMP_DATA_SIZE] = {0};
	char text[DUMP_SCRATCH];
	int rc = ibp_switch_info_encode(si, data, sizeof(data), err);
	if (rc < 0)
		return rc;
	text[0] = '\0';
	mad_dump_switchinfo(text, sizeof(text), data, sizeof(data));
	return finish(text, buf, len, "SwitchInfo", err);
}

int ibp_node_desc_dump(const char *desc, char *buf, size_t len, ibp_error *err)
{
	if (!desc)
		return ibp_error_set(err, IBP_EINVAL, "NULL node description");
	/* smpquery: dots pad the description to start at column 49 (32
	 * dots after "Node Description:" minus its length, at least one). */
	char dots[33];
	size_t l = strnlen(desc, IBP_NODE_DESC_SIZE);
	size_t nd = l < 32 ? 32 - l : 1;
	memset(dots, '.', nd);
	dots[nd] = '\0';
	char text[IBP_NODE_DESC_SIZE + 64];
	snprintf(text, sizeof(text), "Node Description:%s%.*s\n", dots, (int)l,
		 desc);
	return finish(text, buf, len, "NodeDescription", err);
}
