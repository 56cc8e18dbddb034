#!/usr/bin/env python3
"""start_errors.py: mazerace-server's failed starts are logged like everything else: with --log-format json every
stderr line parses, the reason is at error level and names the address, port and system error (bind) or the file
line or flag (a key), the last line says the server did not start; in journal mode the priority is <3>.
Usage: start_errors.py MAZERACE-SERVER"""
import json
import os
import socket
import subprocess
import sys
import tempfile

SRV = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402


def run(args, env_extra=None):
    env = dict(os.environ, MAZERACE_CONFIG="none", JOURNAL_STREAM="", INVOCATION_ID="")
    env.update(env_extra or {})
    r = subprocess.run([SRV] + args, capture_output=True, text=True, timeout=30, env=env)
    return r.returncode, r.stdout, r.stderr


def json_lines(text, what):
    """Every line one JSON object (a failure for each that is not)."""
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            check(False, f"{what}: a stderr line is not JSON: {line!r}")
    return out


def failed_start(what, lines, rc, want_rc, event, needles):
    check(rc == want_rc, f"{what}: exit status {rc} (want {want_rc})")
    check(len(lines) >= 2, f"{what}: {len(lines)} JSON lines")
    if len(lines) < 2:
        return
    last = lines[-1]
    check(last.get("level") == "error" and last.get("event") == "start_failed",
          f"{what}: the last line is start_failed at error level: {last}")
    errs = [l for l in lines if l.get("event") == event]
    check(len(errs) == 1 and errs[0].get("level") == "error", f"{what}: one {event} line at error level")
    msg = errs[0].get("msg", "") if errs else ""
    for n in needles:
        check(n in msg, f"{what}: the message names {n!r}: {msg!r}")
    check(not any(l.get("event") == "stopped" for l in lines[-2:]), f"{what}: does not end like a clean stop")


with tempfile.TemporaryDirectory() as tmp:
    # The game port in use: address, port and the system's words.
    taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    taken.bind(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    rc, out, err = run(["--bind", "127.0.0.1", "--port", str(port), "--no-discovery", "--log-format", "json",
                        "--db", "none"])
    failed_start("game port in use", json_lines(err, "game port in use"), rc, 1, "bind_failed",
                 [f"127.0.0.1:{port}", os.strerror(98), "--port"])
    check("listening on" not in out, "game port in use: no listening line")
    taken.close()

    # A bad key in the config file, --log-format json on the command line: file:line.
    conf = os.path.join(tmp, "server.conf")
    with open(conf, "w") as f:
        f.write("bind = 127.0.0.1\nport = 0\nmax_clientz = 5\n")
    rc, out, err = run(["--config", conf, "--log-format", "json"])
    failed_start("bad key", json_lines(err, "bad key"), rc, 2, "config_error", [f"{conf}:3", "max_clientz"])

    # A bad flag value before --log-format: still JSON.
    rc, out, err = run(["--max-clients", "0", "--log-format", "json"])
    failed_start("bad flag", json_lines(err, "bad flag"), rc, 2, "config_error", ["--max-clients"])

    # The metrics port in use, set in the file: the error names the file's line, not a flag.
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    mport = tcp.getsockname()[1]
    with open(conf, "w") as f:
        f.write(f"bind = 127.0.0.1\nport = 0\ndiscovery = off\nmetrics = {mport}\ndb = none\nlog_format = json\n")
    rc, out, err = run(["--config", conf])
    failed_start("metrics port in use", json_lines(err, "metrics port in use"), rc, 1, "bind_failed",
                 [f"{conf}:4", f"127.0.0.1:{mport}", os.strerror(98)])
    tcp.close()

    # A database named on the command line that cannot be opened: the flag named, JSON, error level.
    rc, out, err = run(["--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--log-format", "json", "--db",
                        os.path.join(tmp, "no-such-dir", "matches.db")])
    failed_start("database", json_lines(err, "database"), rc, 2, "db_failed", ["db (from --db)", "no-such-dir"])

    # Journal mode: the error carries priority 3 (err).
    rc, out, err = run(["--max-clients", "0"], {"JOURNAL_STREAM": "8:1234"})
    lines = err.splitlines()
    check(rc == 2 and lines and all(l.startswith("<3>") for l in lines),
          f"journal mode: every line of a failed start has <3>: {lines}")

finish()
