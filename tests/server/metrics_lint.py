#!/usr/bin/env python3
"""metrics_lint.py: mazerace-server's /metrics for alerting: the text format checked like `promtool check metrics`
(promtool itself too when installed), the process_* series, capacity gauges, the game-loop lag histogram,
generation refusals by reason and whether records are on; and a SIGHUP that changes puzzle_mem and max_clients
shows in the gauges (the one reloads, the other needs a restart).
Usage: metrics_lint.py MAZERACE-SERVER"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

SRV = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, stop  # noqa: E402


NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$')


def lint(text):
    """Problems in the exposition text, as promtool's linter reports them (HELP and TYPE for each family,
    counters ending in _total, histograms cumulative with +Inf equal to _count, no repeated series)."""
    problems, types, helps, seen = [], {}, set(), set()
    buckets = {}
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            if name in helps:
                problems.append(f"{name}: HELP given twice")
            helps.add(name)
            continue
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            if name in types:
                problems.append(f"{name}: TYPE given twice")
            types[name] = typ
            if typ == "counter" and not name.endswith("_total"):
                problems.append(f"{name}: counter metrics should have \"_total\" suffix")
            continue
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            problems.append(f"not a sample line: {line!r}")
            continue
        name, labels, value = m.group(1), m.group(2) or "", m.group(3)
        try:
            v = float(value)
        except ValueError:
            problems.append(f"{name}: value {value!r} is not a number")
            continue
        if (name, labels) in seen:
            problems.append(f"{name}{labels}: repeated series")
        seen.add((name, labels))
        family = re.sub(r"_(bucket|sum|count)$", "", name)
        if family not in types:
            family = name
        if family not in types or family not in helps:
            problems.append(f"{name}: no HELP or TYPE before it")
        elif types[family] == "histogram" and name.endswith("_bucket"):
            buckets.setdefault(family, []).append((labels, v))
        elif types[family] == "histogram" and name.endswith("_count"):
            b = buckets.get(family, [])
            if not b or 'le="+Inf"' not in b[-1][0] or b[-1][1] != v:
                problems.append(f"{family}: _count {v} is not the +Inf bucket")
            if any(b[i][1] > b[i + 1][1] for i in range(len(b) - 1)):
                problems.append(f"{family}: buckets not cumulative")
    for name in types:
        if not NAME.match(name):
            problems.append(f"{name}: not a metric name")
    return problems, types


def sample(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split(" ")[-1])
    return None


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return r.read().decode()


with tempfile.TemporaryDirectory() as tmp:
    conf = os.path.join(tmp, "server.conf")
    with open(conf, "w") as f:
        f.write("bind = 127.0.0.1\nport = 0\ndiscovery = off\nmetrics = 127.0.0.1:0\nmax_clients = 40\n"
                "max_rooms = 30\npuzzle_mem = 64\ndb = none\n")
    t0 = time.time()
    p = subprocess.Popen([SRV, "--config", conf], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        mport = None
        for line in p.stdout:
            m = re.match(r"^metrics on http://127\.0\.0\.1:(\d+)/metrics$", line.strip())
            if m:
                mport = int(m.group(1))
                break
        check(mport is not None, f"the server serves metrics (port {mport})")
        if mport is None:
            sys.exit(1)
        text = scrape(mport)
        check(sample(text, "mazerace_max_players") == 40, "the first scrape has the capacity already")
        for _ in range(50):  # the loop publishes every 100 ms: wait for its first steps
            if (sample(text, "mazerace_loop_lag_seconds_count") or 0) > 0:
                break
            time.sleep(0.1)
            text = scrape(mport)
        problems, types = lint(text)
        check(not problems, "the exposition lints clean" + "".join("\n  " + x for x in problems))
        promtool = shutil.which("promtool")
        if promtool:
            r = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
            check(r.returncode == 0, f"promtool check metrics: {r.stdout}{r.stderr}".strip())
        else:
            print("note: promtool not installed (Debian package prometheus): our own lint only")
        want = {"process_cpu_seconds_total": "counter", "process_resident_memory_bytes": "gauge",
                "process_open_fds": "gauge", "process_start_time_seconds": "gauge",
                "mazerace_max_players": "gauge", "mazerace_max_rooms": "gauge",
                "mazerace_puzzle_memory_budget_bytes": "gauge", "mazerace_puzzle_memory_bytes": "gauge",
                "mazerace_loop_lag_seconds": "histogram", "mazerace_generation_refused_total": "counter",
                "mazerace_records_enabled": "gauge"}
        for name, typ in want.items():
            check(types.get(name) == typ, f"{name} is a {typ} ({types.get(name)})")
        start = sample(text, "process_start_time_seconds") or 0
        check(abs(start - t0) < 30, f"process_start_time_seconds {start:.1f} is about the start ({t0:.1f})")
        check((sample(text, "process_resident_memory_bytes") or 0) > 1e6, "resident memory above 1 MB")
        check((sample(text, "process_open_fds") or 0) >= 3, "open fds at least 3")
        check(sample(text, "mazerace_max_players") == 40, "mazerace_max_players is max_clients (40)")
        check(sample(text, "mazerace_max_rooms") == 30, "mazerace_max_rooms is max_rooms (30)")
        check(sample(text, "mazerace_puzzle_memory_budget_bytes") == 64 << 20, "the budget is 64 MiB")
        check(sample(text, "mazerace_records_enabled") == 0, "records off with db = none")
        for reason in ["memory", "address_memory", "budget", "address_budget", "queue_full", "addresses_full", "displaced"]:
            check(sample(text, f'mazerace_generation_refused_total{{reason="{reason}"}}') == 0,
                  f"generation refusals for {reason}: 0")
        check((sample(text, "mazerace_loop_lag_seconds_count") or 0) > 0, "the loop's steps are counted")

        # SIGHUP: puzzle_mem reloads (the gauge follows), max_clients needs a restart (it does not).
        with open(conf, "w") as f:
            f.write("bind = 127.0.0.1\nport = 0\ndiscovery = off\nmetrics = 127.0.0.1:0\nmax_clients = 50\n"
                    "max_rooms = 30\npuzzle_mem = 7\ndb = none\n")
        p.send_signal(signal.SIGHUP)
        budget = None
        for _ in range(50):
            text = scrape(mport)
            budget = sample(text, "mazerace_puzzle_memory_budget_bytes")
            if budget == 7 << 20:
                break
            time.sleep(0.1)
        check(budget == 7 << 20, f"after SIGHUP the puzzle memory budget is 7 MiB ({budget})")
        check(sample(text, "mazerace_max_players") == 40, "after SIGHUP max players still 40 (needs a restart)")
    finally:
        stop(p)

finish()
