/*
 * alias_map.h - alias GUIDs (the GUIDs of SR-IOV virtual functions) and
 * what every GUID a plan or a client names is to the fabric.
 *
 * A port answers to its port GUID (GUIDInfo index 0) and may hold more
 * GUIDs in its GUIDInfo table (IBA vol. 1 14.2.5.5: blocks of 8, up to
 * PortInfo GUIDCap entries): alias GUIDs.  In the ConnectX-3 (mlx4)
 * model a virtual function's GUID is the alias at index VF number of its
 * physical port.  A topology file cannot carry them, so they travel in
 * an alias map: a text file of lines
 *
 *     ALIAS-GUID  PORT-GUID  INDEX
 *
 * (GUIDs as 0x-prefixed hex, INDEX the GUIDInfo index 1..255 in
 * decimal; blank lines and '#' comments ignored; an alias given twice,
 * two aliases at one INDEX of one port (a GUIDInfo index holds one
 * GUID), an alias equal to a port GUID of the map or an INDEX out of range is
 * an error).  `ibpart discover` writes one beside the topology; every
 * command that takes -t takes one with --alias-guids.
 *
 * OpenSM 3.3.23 looks partition members up among base port GUIDs only
 * (osm_prtn.c, osm_prtn_add_port, osm_get_port_by_guid): a GUID that is
 * no port GUID of the fabric - unknown, a node GUID, or an alias - is
 * skipped with a log line, and no table holds its P_Keys.
 * ibp_guid_kind_str() names which of those a GUID is.
 *
 * Threads: no state; ibp_guid_kind_str()'s strings are static, safe from
 * any thread.
 */
#ifndef IBPART_ALIAS_MAP_H
#define IBPART_ALIAS_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/topo.h"

IBP_BEGIN_DECLS

typedef struct ibp_alias_map ibp_alias_map;

/* What a GUID is to a fabric (and an alias map). */
typedef enum ibp_guid_kind {
	IBP_GUID_PORT = 0, /* a port GUID of the fabric: OpenSM programs it */
	IBP_GUID_ALIAS,	   /* an alias GUID of a port of the fabric (a VF) */
	IBP_GUID_NODE,	   /* a node GUID given where a port GUID belongs */
	IBP_GUID_UNKNOWN   /* nothing of the fabric has it */
} ibp_guid_kind;
/* "port", "alias", "node-guid", "unknown". */
const char *ibp_guid_kind_str(ibp_guid_kind k);

/* What a plan's alias GUIDs become (`--vf-guids`,
 * docs/virtual-functions.md).  ALIAS (the default): they stay as
 * written, and OpenSM 3.3.23 skips them ("guid-alias-ignored").
 * PHYSICAL (for upstream OpenSM with mlx4-style hosts): each is read as
 * its physical port's GUID, so the SM programs that port's P_KeyTable
 * with the VF's P_Keys, and the host's VF mapping (pkey_idx) decides
 * which VF uses which entry.  PHYSICAL_GENERATED (ibpartd's reading of
 * the file it gives OpenSM): PHYSICAL for the members below ibpartd's
 * marker line only (the section it generates and renders so), the
 * operator's lines above it read as ALIAS, since ibpartd writes them as
 * they are and OpenSM skips their aliases; no marker line, no member
 * read as its port. */
typedef enum ibp_vf_guids {
	IBP_VF_GUIDS_ALIAS = 0,
	IBP_VF_GUIDS_PHYSICAL,
	IBP_VF_GUIDS_PHYSICAL_GENERATED
} ibp_vf_guids;

IBP_END_DECLS

#endif
