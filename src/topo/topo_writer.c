/*
 * topo_writer.c - writes a fabric in ibnetdiscover's format, the dialect
 * ibsim and our reader load (see topo_reader.c): per node the
 * "sysimgguid=" and "switchguid="/"caguid="/"rtguid=" lines that pin its
 * GUIDs under ibsim's counters, the header with the node id and
 * "# \"description\"", and one line per linked port, with the peer's port
 * GUID and description as ibnetdiscover prints them.  Unlinked ports are
 * not written (the format has no way to say them).  Where the ports' own
 * PortInfo is known (a discovered fabric, or a file that stated it), the
 * comments carry it as ibnetdiscover writes it: "base port 0 lid L lmc M"
 * after a switch's description, "lid L lmc M" before a CA port's peer,
 * and the peer's LID and the link's rate ("lid 2 4xSDR") after it, which
 * ibsim reads and ibswitches/ibhosts print.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "topo/topo_priv.h"
#include "util/diag_lib.h"
#include "ibpart/sys/topo.h"

static const char *header_word(ibp_node_type t)
{
	switch (t) {
	case IBP_NODE_SWITCH:
		return "Switch";
	case IBP_NODE_ROUTER:
		return "Rt";
	default:
		return "Ca";
	}
}

static const char *guid_word(ibp_node_type t)
{
	switch (t) {
	case IBP_NODE_SWITCH:
		return "switchguid";
	case IBP_NODE_ROUTER:
		return "rtguid";
	default:
		return "caguid";
	}
}

/* The topology format has no escapes (ibsim and ibnetdiscover's readers
 * take a description up to the next quote, a line up to its newline): a
 * quote becomes ', and a line break or other control byte a space, so a
 * description off the wire cannot end the line or inject one.  Every
 * node whose description is so changed gets a warning (say_replaced). */
static void put_desc(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc(c == '"' ? '\'' : (c < 0x20 || c == 0x7f) ? ' ' : c, out);
	}
	fputc('"', out);
}

/* One warning per node whose description put_desc() changes, naming
 * the node and what was replaced. */
static void say_replaced(const ibp_fabric *f, const char *name,
			 ibp_diags *diags)
{
	for (size_t n = 0; diags && n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		bool quote = false, nl = false, ctl = false;
		for (const unsigned char *s = (const unsigned char *)nd->desc;
		     s && *s; s++) {
			quote |= *s == '"';
			nl |= *s == '\n' || *s == '\r';
			ctl |= (*s < 0x20 && *s != '\n' && *s != '\r') ||
			       *s == 0x7f;
		}
		if (!quote && !nl && !ctl)
			continue;
		char what[96];
		snprintf(what, sizeof(what), "%s%s%s%s%s",
			 quote ? "a double quote (written as ')" : "",
			 quote && (nl || ctl) ? ", " : "",
			 nl ? "a line break" : "", nl && ctl ? ", " : "",
			 ctl ? "a control byte" : "");
		ibp_diags_add(diags, IBP_SEV_WARNING, "desc-replaced", name, 0,
			      0,
			      "the NodeDescription of %s (node GUID "
			      "0x%016" PRIx64 ") holds %s%s; a topology file "
			      "has no escapes, so it is written changed",
			      nd->id, nd->guid, what,
			      nl || ctl ? " (line breaks and control bytes "
					  "as spaces)"
					: "");
	}
}

/* The LID a port answers: its own PortInfo LID, a switch port its port
 * 0's (14.2.5.6), 0 when not known. */
static uint16_t answered_lid(const ibp_fabric *f, size_t n, unsigned p)
{
	const struct topo_node *nd = &f->nodes[n];
	return nd->type == IBP_NODE_SWITCH ? f->ports[nd->port_base].pi_lid
					   : topo_port_at(f, n, p)->pi_lid;
}

/* The comment of a port line: the peer's description and, where the
 * link's rate is known from either end, ibnetdiscover's LIDs and rate. */
static void put_link(const ibp_fabric *f, size_t n, unsigned p,
		     const struct topo_port *pt, FILE *out)
{
	ibp_port_link here, there;
	ibp_fabric_port_link(f, n, p, &here);
	ibp_fabric_port_link(f, pt->peer_node, pt->peer_port, &there);
	char rate[16];
	bool known = ibp_port_link_rate(&here, rate, sizeof(rate)) ||
		     ibp_port_link_rate(&there, rate, sizeof(rate));
	bool sw = f->nodes[n].type == IBP_NODE_SWITCH;
	if (known && !sw)
		fprintf(out, "lid %u lmc %u ", here.lid, here.lmc);
	put_desc(out, f->nodes[pt->peer_node].desc);
	if (known)
		fprintf(out, " lid %u %s",
			answered_lid(f, pt->peer_node, pt->peer_port), rate);
}

int ibp_fabric_write(const ibp_fabric *f, FILE *out, ibp_error *err)
{
	return ibp_fabric_write_diags(f, out, NULL, NULL, err);
}

int ibp_fabric_write_diags(const ibp_fabric *f, FILE *out, const char *name,
			   ibp_diags *diags, ibp_error *err)
{
	if (!f || !out)
		return ibp_error_set(err, IBP_EINVAL, "nothing to write");
	say_replaced(f, name ? name : "<topology>", diags);
	fprintf(out, "#\n# Topology file: written by ibpart (ibnetdiscover "
		     "format)\n#\n");
	/* ibnetdiscover's line; readers take it as the SM's port (the
	 * port GUID without 0x, as ibnetdiscover writes it) */
	if (f->initiator_port_guid) {
		size_t in;
		unsigned ip;
		uint64_t ng = ibp_fabric_find_port_guid(
				  f, f->initiator_port_guid, &in, &ip) == IBP_OK
				  ? f->nodes[in].guid
				  : 0;
		fprintf(out,
			"# Initiated from node %016" PRIx64 " port %016" PRIx64
			"\n#\n",
			ng, f->initiator_port_guid);
	}
	for (size_t n = 0; n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		bool sw = nd->type == IBP_NODE_SWITCH;
		fputc('\n', out);
		if (nd->vendid || nd->devid)
			fprintf(out,
				"vendid=0x%" PRIx32 "\ndevid=0x%" PRIx32 "\n",
				nd->vendid, nd->devid);
		if (nd->sysimg_guid && nd->sysimg_guid != nd->guid)
			fprintf(out, "sysimgguid=0x%" PRIx64 "\n",
				nd->sysimg_guid);
		fprintf(out, "%s=0x%" PRIx64, guid_word(nd->type), nd->guid);
		if (sw)
			fprintf(out, "(%" PRIx64 ")", nd->guid);
		fprintf(out, "\n%s\t%u \"%s\"\t\t# ", header_word(nd->type),
			nd->nports, nd->id);
		put_desc(out, nd->desc);
		const struct topo_port *p0 = &f->ports[nd->port_base];
		if (sw && (p0->pi_lid || p0->lid))
			fprintf(out, " base port 0 lid %u lmc %u",
				p0->pi_lid ? p0->pi_lid : p0->lid,
				p0->pi_lid ? p0->pi_lmc : 0);
		fputc('\n', out);
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct topo_port *pt = topo_port_at(f, n, p);
			if (pt->peer_node == TOPO_NONE)
				continue;
			const struct topo_node *peer = &f->nodes[pt->peer_node];
			fprintf(out, "[%u]", p);
			if (!sw)
				fprintf(out, "(%" PRIx64 ")",
					ibp_fabric_port_guid(f, n, p));
			fprintf(out, "\t\"%s\"[%u](%" PRIx64 ")\t\t# ",
				peer->id, pt->peer_port,
				ibp_fabric_port_guid(f, pt->peer_node,
						     pt->peer_port));
			put_link(f, n, p, pt, out);
			fputc('\n', out);
		}
	}
	if (fflush(out) || ferror(out))
		return ibp_error_set(err, IBP_EIO, "write failed");
	return IBP_OK;
}

int ibp_fabric_write_path(const ibp_fabric *f, const char *path, ibp_error *err)
{
	return ibp_fabric_write_path_diags(f, path, NULL, err);
}

int ibp_fabric_write_path_diags(const ibp_fabric *f, const char *path,
				ibp_diags *diags, ibp_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_fabric_write_diags(f, mem, path ? path : "<stdout>", diags,
					err);
	fclose(mem);
	if (rc == IBP_OK) {
		if (path)
			rc = ibp_write_file_atomic(path, buf, len, false, err);
		else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
			rc = ibp_error_set(err, IBP_EIO,
					   "cannot write the topology");
	}
	free(buf);
	return rc;
}
