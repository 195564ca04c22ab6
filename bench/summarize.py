#!/usr/bin/env python3
"""Summarises bench/run.sh samples: min/median/max per (case, threads,
framework config) and the ratio of Ember's median to the faster LibTorch
config's median, as a speed ratio (> 1: Ember faster) whatever the metric's
direction. Plain python3, no torch needed."""
import json
import statistics
import sys
from collections import defaultdict

LOWER_IS_BETTER = {"ns/op", "ms", "s"}


def read_samples(path):
    """({(case, threads, "framework/config"): [values]}, {case: metric}, {case: why skipped})."""
    samples = defaultdict(list)
    metric = {}
    skipped = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if "skipped" in r:
                skipped[r["case"]] = r["skipped"]
                continue
            key = (r["case"], r["threads"])
            samples[key + ("%s/%s" % (r["framework"], r["config"]),)].append(r["value"])
            metric[r["case"]] = r["metric"]
    return samples, metric, skipped


def main(path):
    samples, metric, skipped = read_samples(path)

    def stats(k):
        v = sorted(samples.get(k, []))
        if not v:
            return None
        return v[0], statistics.median(v), v[-1], len(v)

    def fmt(s):
        return "-" if s is None else "%.4g / %.4g / %.4g (n=%d)" % s

    cases = sorted({(c, t) for (c, t, _) in samples})
    print("| case | threads | metric | Ember min/med/max | LibTorch stock | LibTorch tuned | Ember vs best LibTorch |")
    print("|---|---|---|---|---|---|---|")
    for c, t in cases:
        e = stats((c, t, "ember/default"))
        s = stats((c, t, "libtorch/stock"))
        u = stats((c, t, "libtorch/tuned"))
        lower = metric[c] in LOWER_IS_BETTER
        ratio = "-"
        lts = [x for x in (s, u) if x is not None]
        if e is not None and lts:
            best = min(x[1] for x in lts) if lower else max(x[1] for x in lts)
            ratio = "%.2fx" % ((best / e[1]) if lower else (e[1] / best))
        print("| %s | %d | %s | %s | %s | %s | %s |" % (c, t, metric[c], fmt(e), fmt(s), fmt(u), ratio))
    for c, why in sorted(skipped.items()):
        print("| %s | - | - | skipped: %s | | | |" % (c, why))


if __name__ == "__main__":
    main(sys.argv[1])
