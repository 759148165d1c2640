#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The include graph runs one way (issue 21): cmd -> ingest -> parsers ->
# core; cmd -> plot -> analysis -> store -> core; cmd -> runner -> core;
# and no two parts (a .c with its .h, its -private.h counted with it)
# include each other, directly or round a circle.  A new include that
# breaks either is named here.
set -u
cd "$(dirname "$0")/../.." || exit 2
command -v python3 >/dev/null || exit 77
python3 - <<'PY'
import os, re, sys

# which folders a folder may include from (besides itself and core)
may = {
    "cmd": {"ingest", "parsers", "plot", "analysis", "store", "runner"},
    "ingest": {"parsers"},
    "parsers": set(),
    "plot": {"analysis", "store"},
    "analysis": {"store"},
    "store": set(),
    "runner": set(),
    "core": set(),
}
edges, bad = {}, []
for d in may:
    for f in sorted(os.listdir(d)):
        if not f.endswith((".c", ".h")):
            continue
        src = d + "/" + f[:-2].replace("-private", "")
        for line in open(os.path.join(d, f), encoding="utf-8"):
            m = re.match(r'#include "(.*)"', line)
            if not m:
                continue
            p = os.path.normpath(os.path.join(d, m.group(1)))
            if not p.endswith((".c", ".h")):
                continue
            dst = p[:-2].replace("-private", "")
            top = dst.split("/")[0]
            if top != d and top != "core" and top not in may[d]:
                bad.append("%s/%s includes %s" % (d, f, p))
            if dst != src:
                edges.setdefault(src, set()).add(dst)

# strongly connected parts (Tarjan): any with two files or more is a circle
index, low, stack, on, circles, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        part = []
        while True:
            w = stack.pop(); on.discard(w); part.append(w)
            if w == v:
                break
        if len(part) > 1:
            circles.append(sorted(part))
for v in sorted(set(edges) | {w for s in edges.values() for w in s}):
    if v not in index:
        visit(v)
for b in bad:
    print("not ok: layering: " + b)
for c in circles:
    print("not ok: include circle: " + " <-> ".join(c))
sys.exit(1 if bad or circles else 0)
PY
