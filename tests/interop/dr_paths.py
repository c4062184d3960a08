#!/usr/bin/env python3
"""dr_paths.py - directed routes to read P_KeyTables without LIDs.

    dr_paths.py TOPO SM_NODE_ID

Reads an ibnetdiscover topology and prints, for every CA or router port
reached from SM_NODE_ID's port 1 (a node id such as "H-e41d2d0300000000"),
one line "<directed route> <port> <port GUID>" for the port itself, and
one for the switch external port facing it ("<route to the switch>
<switch port> <switch GUID>").  smpquery -D pkeys ROUTE PORT reads each:
no LID is needed, as OpenSM needs none to set them.
"""
import collections
import re
import sys

NODE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"')
LINK = re.compile(r'^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\]')
GUID = re.compile(r'^(switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+)')


def read(path):
    nodes = {}  # id -> {"type", "guid", "ports": {p: (peer, pp)}, "pg"}
    cur = None
    guid = None
    with open(path) as f:
        for line in f:
            m = GUID.match(line)
            if m:
                guid = int(m.group(2), 16)
                continue
            m = NODE.match(line)
            if m:
                cur = m.group(3)
                nodes[cur] = {"type": m.group(1), "guid": guid,
                              "ports": {}, "pg": {}}
                continue
            m = LINK.match(line)
            if m and cur:
                p = int(m.group(1))
                nodes[cur]["ports"][p] = (m.group(3), int(m.group(4)))
                if m.group(2):
                    nodes[cur]["pg"][p] = int(m.group(2), 16)
    return nodes


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    nodes = read(argv[1])
    sm = argv[2]
    if sm not in nodes:
        sys.exit("dr_paths.py: no node %s" % sm)
    # breadth first from the SM's port 1: the route to each node
    route = {sm: [0]}
    todo = collections.deque()
    peer = nodes[sm]["ports"].get(1)
    if not peer:
        sys.exit("dr_paths.py: %s port 1 has no link" % sm)
    route[peer[0]] = [0, 1]
    todo.append(peer[0])
    while todo:
        n = todo.popleft()
        if nodes[n]["type"] != "Switch":
            continue
        for p, (q, _) in sorted(nodes[n]["ports"].items()):
            if q not in route and q in nodes:
                route[q] = route[n] + [p]
                todo.append(q)
    for n, r in sorted(route.items(), key=lambda x: x[1]):
        v = nodes[n]
        if v["type"] == "Switch":
            continue
        for p, (q, qp) in sorted(v["ports"].items()):
            if q not in route:
                continue
            pg = v["pg"].get(p, (v["guid"] or 0) + p)
            print("%s %d 0x%016x" % (",".join(map(str, r)), p, pg))
            if nodes[q]["type"] == "Switch":
                print("%s %d 0x%016x" % (",".join(map(str, route[q])), qp,
                                         nodes[q]["guid"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
