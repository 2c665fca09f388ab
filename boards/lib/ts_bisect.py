#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# make bisect's reading of `tickscope compare --json`: the explaining metric the endpoints
# choose, each step's verdict from the exact U test p-values compare computed, the headline of
# the first bad change, and the simulation of the rule's error rates (docs/bisect.md).
import json
import math
import random
import sys

TRACE_FAMILIES = ("trace", "task")


def load(path):
    with open(path) as f:
        return json.load(f)


def metrics(d):
    return {m["name"]: m for m in d.get("metrics", [])}


def cells(m):
    return m["variants"][0], m["variants"][1]


def values(cell):
    v = cell.get("values") or []
    return [x for x in v if x is not None]


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        return "%.4g" % x
    return str(x)


def separation(a, b):
    """complete when every run of one side is beyond every run of the other"""
    va, vb = values(a), values(b)
    if len(va) < 2 or len(vb) < 2 or len(va) != a.get("n") or len(vb) != b.get("n"):
        return False
    return min(vb) > max(va) or max(vb) < min(va)


def effect(a, b):
    """the standardized effect: difference of the means over the pooled sd (Cohen's d)"""
    s = math.sqrt(((a.get("sd") or 0) ** 2 + (b.get("sd") or 0) ** 2) / 2)
    diff = abs((b.get("mean") or 0) - (a.get("mean") or 0))
    return diff / s if s > 0 else math.inf


def choose(path, wanted=""):
    """print the explaining metric of GOOD (baseline) against BAD, or one line why none"""
    d = load(path)
    ms = metrics(d)
    bench = ms.get(d.get("result") or "")
    name, source = None, None
    if wanted:
        if wanted not in ms:
            return fail("METRIC %s is not in the endpoints' compare (%s)" % (wanted, path))
        name, source = wanted, "METRIC="
    head = d.get("headline") or {}
    if not name:
        # of the headline's mechanisms that separate every run, the one whose runs stand
        # farthest apart (a step's few runs must still fall clearly on one side)
        best = None
        for mech in head.get("mechanisms") or []:
            if mech.get("separation") == "complete" and mech.get("metric") in ms:
                e = effect(*cells(ms[mech["metric"]]))
                if best is None or (e is not None and (best[0] is None or e > best[0])):
                    best = (e, mech["metric"])
        if best:
            name, source = best[1], "headline (complete separation, largest effect)"
    if not name:
        best = None
        for m in d.get("metrics", []):
            if m.get("family") not in TRACE_FAMILIES:
                continue
            a, b = cells(m)
            # among hundreds of metrics a few separate 6 runs from 6 by chance (2/C(12,6) each):
            # the separation must stand compare's adjustment over its family as well
            if separation(a, b) and b.get("significant"):
                e = effect(a, b)
                if best is None or e > best[0]:
                    best = (e, m["name"])
        if best:
            name, source = best[1], "rule (complete separation, significant, largest effect)"
    if not name:
        line = "GOOD and BAD do not separate: no trace metric has every run of one beyond " \
            "every run of the other and stays significant after compare's adjustment"
        if bench:
            a, b = cells(bench)
            line += "; %s: GOOD median %s (%d runs, %s-%s), BAD median %s (%d runs, %s-%s), " \
                "p %s" % (
                bench["name"], fmt(a.get("median")), a.get("n", 0), fmt(a.get("min")),
                fmt(a.get("max")), fmt(b.get("median")), b.get("n", 0), fmt(b.get("min")),
                fmt(b.get("max")), fmt(b.get("p")))
        return fail(line)
    m = ms[name]
    a, b = cells(m)
    if not separation(a, b):
        return fail("GOOD and BAD do not separate on %s: GOOD %s-%s, BAD %s-%s" % (
            name, fmt(a.get("min")), fmt(a.get("max")), fmt(b.get("min")), fmt(b.get("max"))))
    print("metric=%s" % name)
    print("metric_source=%s" % source)
    print("metric_unit=%s" % m.get("unit", ""))
    print("good=%s (%s-%s, %d runs)" % (fmt(a["median"]), fmt(a["min"]), fmt(a["max"]), a["n"]))
    print("bad=%s (%s-%s, %d runs)" % (fmt(b["median"]), fmt(b["min"]), fmt(b["max"]), b["n"]))
    print("p=%s" % fmt(b.get("p")))
    print("effect=%s" % fmt(effect(a, b)))
    if bench:
        a, b = cells(bench)
        print("bench=%s" % bench["name"])
        print("bench_good=%s" % fmt(a.get("median")))
        print("bench_bad=%s" % fmt(b.get("median")))
        print("bench_p=%s" % fmt(b.get("p")))
    return 0


def fail(line):
    print(line, file=sys.stderr)
    return 1


def side(m_good, m_bad, alpha):
    """one metric's verdict from compare GOOD BAD C and compare BAD GOOD C"""
    if m_good is None or m_bad is None:
        return "unclear", None, None, None, None, None
    # compare GOOD BAD C and compare BAD GOOD C: the baseline first, the candidate last
    g, c = m_good["variants"][0], m_good["variants"][-1]
    b, c2 = m_bad["variants"][0], m_bad["variants"][-1]
    pg, pb = c.get("p"), c2.get("p")
    mg, mc, mb = g.get("median"), c.get("median"), b.get("median")
    if None in (pg, pb, mg, mc, mb):
        return "unclear", mg, mc, mb, pg, pb
    nearer_bad = abs(mc - mb) < abs(mc - mg)
    if pg <= alpha and pb > alpha and nearer_bad:
        v = "bad"
    elif pb <= alpha and pg > alpha and not nearer_bad:
        v = "good"
    else:
        v = "unclear"
    return v, mg, mc, mb, pg, pb


def verdict(path_good, path_bad, name, alpha):
    """print the step's figures and its verdict (docs/bisect.md, "The rule")"""
    alpha = float(alpha)
    dg, db = load(path_good), load(path_bad)
    mg, mb = metrics(dg), metrics(db)
    res = dg.get("result") or ""
    out = {}
    for key, mname in (("metric", name), ("bench", res)):
        v, g, c, b, pg, pb = side(mg.get(mname), mb.get(mname), alpha)
        out[key] = v
        print("%s=%s" % (key, mname or "-"))
        print("%s_medians=%s %s %s" % (key, fmt(g), fmt(c), fmt(b)))
        print("%s_p=%s %s" % (key, fmt(pg), fmt(pb)))
        print("%s_verdict=%s" % (key, v))
    cell = mg.get(name)
    print("runs=%s" % (cell["variants"][-1].get("n") if cell else 0))
    v, why = out["metric"], "the explaining metric"
    if v != "unclear" and out["bench"] not in ("unclear", v):
        v, why = "unclear", "the benchmark says %s, the explaining metric %s" % (
            out["bench"], out["metric"])
    elif v == "unclear":
        why = "the explaining metric is like neither endpoint"
    print("verdict=%s" % v)
    print("why=%s" % why)
    return 0


def headline(path, name):
    """print the first bad change's headline: compare's, else the explaining metric's line"""
    d = load(path)
    head = d.get("headline")
    if head:
        for line in head.get("lines") or []:
            print(line)
        for mech in head.get("mechanisms") or []:
            print("mechanism: %s %s -> %s (p %s, separation %s)" % (
                mech.get("metric"), fmt(mech.get("a")), fmt(mech.get("b")), fmt(mech.get("p")),
                mech.get("separation")))
        return 0
    m = metrics(d).get(name)
    if m:
        a, b = cells(m)
        print("explaining metric: %s %s -> %s %s (medians; p %s, %s)" % (
            name, fmt(a.get("median")), fmt(b.get("median")), m.get("unit", ""),
            fmt(b.get("p")), "complete separation" if separation(a, b) else "overlapping"))
    res = metrics(d).get(d.get("result") or "")
    if res:
        a, b = cells(res)
        print("benchmark: %s %s -> %s %s (medians; %s%%, p %s)" % (
            res["name"], fmt(a.get("median")), fmt(b.get("median")), res.get("unit", ""),
            fmt(b.get("change_pct")), fmt(b.get("p"))))
    for e in d.get("explanations") or []:
        waits = [w for w in e.get("waits") or [] if w.get("a") is not None and
                 w.get("b") is not None]
        if waits:
            w = max(waits, key=lambda w: abs(w["b"] - w["a"]))
            ends = ", ".join("%s %s%%" % (x.get("class"), fmt(x.get("b")))
                             for x in (w.get("ended_by") or [])[:2])
            print("wait that changed most: %s (%s) %s -> %s %s%s" % (
                w.get("stack"), w.get("state"), fmt(w["a"]), fmt(w["b"]), w.get("unit", ""),
                "; ended by " + ends if ends else ""))
        for c in (e.get("changes") or [])[:5]:
            print("changed: %s %s%% (adjusted p %s)" % (
                c.get("metric"), fmt(c.get("change_pct")), fmt(c.get("p_adjusted"))))
    return 0


def u_cdf(n, m):
    """counts of the Mann-Whitney U statistic over all C(n+m, n) rank arrangements"""
    # f[i][j][u]: arrangements of i values of one side and j of the other with statistic u
    f = {(0, 0): [1]}
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            cnt = [0] * (i * j + 1)
            if i > 0:
                for u, c in enumerate(f[(i - 1, j)]):
                    cnt[u + j] += c
            if j > 0:
                for u, c in enumerate(f[(i, j - 1)]):
                    cnt[u] += c
            f[(i, j)] = cnt
    return f[(n, m)]


def u_p(x, y, dist):
    """two-sided exact p of samples x, y (ties count a half)"""
    u = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)
    total = sum(dist)
    lo = sum(c for k, c in enumerate(dist) if k <= u) / total
    hi = sum(c for k, c in enumerate(dist) if k >= u) / total
    return min(1.0, 2 * min(lo, hi))


def rule(g, c, b, alpha, dists):
    """the step rule on one metric's values: good, bad or unclear"""
    n, m = len(c), len(g)
    dist = dists.setdefault((n, m), u_cdf(n, m))
    pg, pb = u_p(c, g, dist), u_p(c, b, dist)
    med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:
                                                                           len(v) // 2 + 1]) / 2
    near_bad = abs(med(c) - med(b)) < abs(med(c) - med(g))
    if pg <= alpha and pb > alpha and near_bad:
        return "bad"
    if pb <= alpha and pg > alpha and not near_bad:
        return "good"
    return "unclear"


def rates(path, name, n, cap, alpha, sims):
    """simulate the whole step rule (the explaining metric, the benchmark's veto, more runs up
    to the cap, then skip) on runs drawn with replacement from the endpoints' runs"""
    n, cap, alpha, sims = int(n), int(cap), float(alpha), int(sims)
    d = load(path)
    ms = metrics(d)
    a, b = cells(ms[name])
    ra, rb = cells(ms[d["result"]])
    pools = {"good": list(zip(a["values"], ra["values"])),
             "bad": list(zip(b["values"], rb["values"]))}
    rng = random.Random(1)
    dists = {}
    for truth in ("good", "bad"):
        count = {"good": 0, "bad": 0, "skip": 0}
        runs = 0
        for _ in range(sims):
            g = [rng.choice(pools["good"]) for _ in range(n)]
            bb = [rng.choice(pools["bad"]) for _ in range(n)]
            c = [rng.choice(pools[truth]) for _ in range(n)]
            while True:
                vm = rule([x[0] for x in g], [x[0] for x in c], [x[0] for x in bb], alpha, dists)
                vb = rule([x[1] for x in g], [x[1] for x in c], [x[1] for x in bb], alpha, dists)
                v = vm if vb in ("unclear", vm) else "unclear"
                if v != "unclear" or len(c) >= cap:
                    break
                for _ in range(2):
                    g.append(rng.choice(pools["good"]))
                    bb.append(rng.choice(pools["bad"]))
                    c.append(rng.choice(pools[truth]))
            runs += len(c)
            count["skip" if v == "unclear" else v] += 1
        print("candidate like %s: %s; %.2f runs on average" % (
            truth.upper(), ", ".join("%s %.4f" % (k, count[k] / sims) for k in count),
            runs / sims))
    return 0


def main(argv):
    cmds = {"choose": choose, "verdict": verdict, "headline": headline, "rates": rates}
    if len(argv) < 2 or argv[1] not in cmds:
        return fail("usage: ts_bisect.py choose|verdict|headline|rates ARGS (boards/bisect.sh)")
    try:
        return cmds[argv[1]](*argv[2:])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return fail("ts_bisect.py %s: %s" % (argv[1], e))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
