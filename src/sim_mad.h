/*
 * sim_mad.h - include mad.h beside topo.h.  Both headers define enum
 * ibp_node_type (mad.h for NodeInfo NodeType, topo.h for the fabric model)
 * with the same values; this renames mad.h's copy while it is included so
 * the sim/sm sources can use both.  Remove when the two headers share one
 * definition.
 */
#ifndef IBPART_SIM_MAD_H
#define IBPART_SIM_MAD_H

#include "ibpart/topo.h"

#define ibp_node_type	ibp_mad_node_type_
#define IBP_NODE_CA	IBP_MAD_NODE_CA_
#define IBP_NODE_SWITCH IBP_MAD_NODE_SWITCH_
#define IBP_NODE_ROUTER IBP_MAD_NODE_ROUTER_
#include "ibpart/mad.h"
#undef ibp_node_type
#undef IBP_NODE_CA
#undef IBP_NODE_SWITCH
#undef IBP_NODE_ROUTER

#endif
