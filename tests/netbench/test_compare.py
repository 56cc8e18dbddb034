#!/usr/bin/env python3
"""tests/netbench/test_compare.py: tools/netbench/compare.py on made-up run.sh outputs: pairs by
repetition, set-aside and half repetitions left out, the medians (ratios and the p99s themselves), and the
test against a control."""
import os
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]


def result(tag, p50, p99, cpu):
    return (f"RESULT {tag} rate20_k200 rt=1 p50_us={p50} p99_us={p99} srv_us_per_echo={cpu} steal_pct=0.0\n")


def run_file(reps, set_aside=None, drop_b=None):
    """A run.sh output: reps is [(A p99, B p99)]; repetition set_aside is printed twice, its first
    attempt (B at 30x) marked set aside; repetition drop_b has no run B (in its last attempt)."""
    out = []
    for i, (a, b) in enumerate(reps, 1):
        attempts = [(a * 10, b * 30, True), (a, b, False)] if i == set_aside else [(a, b, False)]
        for aa, bb, aside in attempts:
            out.append(f"== [{i}/{len(reps)}] enet_echo -k 200 -r 20 -d 5 -b 4096 (raw ENet floor)\n")
            out.append("RESULT enet rate20_k200_buf4096K p50_us=90 p99_us=200\n")
            out.append(f"== [{i}/{len(reps)}] mazerace-server + mazerace-bot --bench\n")
            out.append(result("net", 100, aa, 20))
            if i != drop_b or aside:
                out.append(f"== [{i}/{len(reps)}] the same, run B\n")
                out.append(result("netB", 110, bb, 25))
            if aside:
                out.append(f"== [{i}/{len(reps)}] set aside: 9.0% steal in this repetition (STEAL_MAX=3); running it again\n")
    return "".join(out)


def call(*args):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what, output):
    if not cond:
        print(f"FAILED: {what}\n{output}")
        sys.exit(1)


with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    # B 20% slower in every pair; repetition 7 set aside, and its second attempt has no run B: its
    # first attempt's B (30x) must not pair with the second attempt's A.
    slow = write("slow.txt", run_file([(300, 360), (300, 366), (310, 372), (290, 348), (300, 360), (305, 366),
                                       (300, 500), (295, 354)], set_aside=7, drop_b=7))
    # The control: ratios around 1.
    ctl = write("ctl.txt", run_file([(300, 297), (300, 306), (310, 304), (290, 293), (300, 303), (305, 299),
                                     (300, 300), (295, 298)]))
    rc, out, err = call(slow, "--control", ctl)
    expect(rc == 0, "exit 0", out + err)
    expect("B: " + slow + ": 7 pairs" in out, "7 pairs: the one without B left out, the set-aside attempt not counted", out)
    expect("median 1.20" in out.split("control")[0], "B's median ratio 1.20", out)
    expect("B/A p50 median 1.10" in out and "server CPU per move median 1.25" in out, "p50 and CPU ratios", out)
    expect("A / B p99 medians 300 / 360 us" in out.split("control")[0], "the A and B p99 medians", out)
    expect("differs from the control" in out, "a 20% difference is found", out)

    # A second batch as like the control as can be: within noise.
    same = write("same.txt", run_file([(300, 303), (300, 297), (310, 307), (290, 292), (300, 300), (305, 308),
                                       (300, 296), (295, 296)]))
    rc, out, err = call(same, "--control", ctl)
    expect(rc == 0 and "within noise" in out, "like the control: within noise", out + err)

    # Bad use: no pairs, a missing file, --control without files.
    rc, out, err = call(write("none.txt", "nothing here\n"))
    expect(rc == 2 and "no repetition with both runs" in err, "a file without pairs: exit 2", out + err)
    rc, out, err = call(os.path.join(d, "missing.txt"))
    expect(rc == 2 and "missing.txt" in err, "a missing file: exit 2", out + err)
    rc, out, err = call(slow, "--control")
    expect(rc == 2 and "--control needs" in err, "--control alone: exit 2", out + err)
print("test_compare: ok")
