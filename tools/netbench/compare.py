#!/usr/bin/env python3
"""tools/netbench/compare.py: are run B's figures within noise of run A's? Reads the printed output of
paired netbench runs (tools/netbench/run.sh with PAIRED or PAIRED_BOT), one or more files per batch.

Usage: compare.py B.txt [B2.txt ...] [--control AA.txt [AA2.txt ...]]

For each file, and for all the files before --control together, it prints the per-pair ratios B/A
of the ack p99 (each repetition's A and B ran back to back), their median and geometric mean, and
the medians of the p50 and server CPU per move ratios and of the A and B p99s themselves. With --control (the same bench with
PAIRED=, so that B is the plain server again: the spread of the ratios when nothing differs), it
tests the B/A p99 ratios against the control's with a two-sided Mann-Whitney test (normal
approximation, ties corrected) and says "within noise" when p > 0.1. Repetitions that run.sh set
aside (STEAL_MAX) and repetitions without both runs are left out. Exit 2 on bad use or a file
without pairs.
"""
import math
import re
import statistics
import sys

HEADER = re.compile(r"^== \[(\d+)/\d+\]")
RESULT = re.compile(r"^RESULT (netB?) ")


def pairs_of(path):
    """[(p99 B/A, p50 B/A, CPU per move B/A, A p99, B p99)] of the repetitions in path, in order."""
    reps = {}
    rep = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                rep = int(m.group(1))
                if "set aside" in line:
                    reps.pop(rep, None)  # run again: the next attempt's results count
                continue
            m = RESULT.match(line)
            if m and rep is not None:
                kv = dict(x.split("=", 1) for x in line.split()[3:] if "=" in x)
                reps.setdefault(rep, {})[m.group(1)] = kv
    out = []
    for _, r in sorted(reps.items()):
        if "net" not in r or "netB" not in r:
            continue
        a, b = r["net"], r["netB"]
        try:
            ratios = tuple(float(b[k]) / float(a[k]) for k in ("p99_us", "p50_us", "srv_us_per_echo"))
            out.append(ratios + (float(a["p99_us"]), float(b["p99_us"])))
        except (KeyError, ValueError, ZeroDivisionError):
            continue
    return out


def mann_whitney(x, y):
    """Two-sided p of the Mann-Whitney U test, normal approximation with the tie correction."""
    allv = sorted([(v, 0) for v in x] + [(v, 1) for v in y])
    n = len(allv)
    ranks = [0.0] * n
    ties = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and allv[j + 1][0] == allv[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    n1, n2 = len(x), len(y)
    u = sum(r for r, (_, g) in zip(ranks, allv) if g == 0) - n1 * (n1 + 1) / 2
    sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sd == 0:
        return 1.0
    return math.erfc(abs(u - n1 * n2 / 2) / sd / math.sqrt(2))


def describe(name, ps):
    p99 = [p[0] for p in ps]
    print(f"{name}: {len(ps)} pairs, B/A p99 {' '.join(f'{v:.2f}' for v in p99)}")
    print(f"  median {statistics.median(p99):.2f}, geometric mean {statistics.geometric_mean(p99):.2f};"
          f" B/A p50 median {statistics.median(p[1] for p in ps):.2f},"
          f" server CPU per move median {statistics.median(p[2] for p in ps):.2f};"
          f" A / B p99 medians {statistics.median(p[3] for p in ps):.0f} / {statistics.median(p[4] for p in ps):.0f} us")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    tested, control = argv, []
    if "--control" in argv:
        i = argv.index("--control")
        tested, control = argv[:i], argv[i + 1:]
        if not control:
            print("compare.py: --control needs at least one file", file=sys.stderr)
            return 2
    if not tested:
        print("compare.py: no B files before --control", file=sys.stderr)
        return 2
    groups = []
    for label, files in (("B", tested), ("control", control)):
        pooled = []
        for path in files:
            try:
                ps = pairs_of(path)
            except OSError as e:
                print(f"compare.py: {path}: {e.strerror}", file=sys.stderr)
                return 2
            if not ps:
                print(f"compare.py: {path}: no repetition with both runs A and B"
                      " (is it the output of a PAIRED run of tools/netbench/run.sh?)", file=sys.stderr)
                return 2
            if len(files) > 1:
                describe(path, ps)
            pooled += ps
        if files:
            describe(f"{label}, all {len(files)} file(s)" if len(files) > 1 else f"{label}: {files[0]}", pooled)
            groups.append(pooled)
    if len(groups) == 2:
        p = mann_whitney([q[0] for q in groups[0]], [q[0] for q in groups[1]])
        verdict = "within noise" if p > 0.1 else "differs from the control"
        print(f"B/A p99 against the control: Mann-Whitney p = {p:.3f}: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
