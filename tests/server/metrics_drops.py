#!/usr/bin/env python3
"""metrics_drops.py: mazerace_socket_drops_total counts the kernel's drops on every game host's socket, not
only the first's. A server with two hosts on one port (--hosts 2, the smallest socket buffers) is stopped
(SIGSTOP); datagrams from source ports the steering gives to host 1 (odd ports: source port mod 2, see
server/sv_hosts.h) overflow that host's buffer while host 0 gets none; after SIGCONT the metric must equal the
sum of the drops /proc/net/udp shows for the port's sockets, and be above zero. Loopback delivery is done when
sendto returns, so no wait stands in for it.
Usage: metrics_drops.py MAZERACE-SERVER"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request

SRV = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, stop  # noqa: E402

FLOOD = 400  # datagrams; a 1 KiB buffer (the kernel's minimum, about 2 KiB) holds a handful


def proc_drops(port):
    """The drops column of /proc/net/udp for every socket bound to 127.0.0.1:port."""
    total, n = 0, 0
    with open("/proc/net/udp") as f:
        next(f)
        for line in f:
            cols = line.split()
            if cols[1] == "0100007F:%04X" % port:
                total += int(cols[-1])
                n += 1
    return total, n


def metric(mport, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split(" ")[-1])
    return None


def odd_port_socket():
    """A UDP socket on 127.0.0.1 whose port is odd (the steering's host 1), within 64 tries."""
    for _ in range(64):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        if s.getsockname()[1] % 2 == 1:
            return s
        s.close()
    return None


with tempfile.TemporaryDirectory() as tmp:
    conf = os.path.join(tmp, "server.conf")
    with open(conf, "w") as f:
        f.write("bind = 127.0.0.1\nport = 0\ndiscovery = off\nmetrics = 127.0.0.1:0\nmax_clients = 40\n"
                "hosts = 2\nsockbuf = 1\ndb = none\nspectator_port = off\n")
    p = subprocess.Popen([SRV, "--config", conf], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = mport = None
        for line in p.stdout:
            m = re.match(r"^listening on 127\.0\.0\.1:(\d+)$", line.strip())
            port = int(m.group(1)) if m else port
            m = re.match(r"^metrics on http://127\.0\.0\.1:(\d+)/metrics$", line.strip())
            if m:
                mport = int(m.group(1))
                break
        check(port is not None and mport is not None, f"the server listens ({port}) and serves metrics ({mport})")
        if port is None or mport is None:
            sys.exit(1)
        before, sockets = proc_drops(port)
        check(sockets == 2, f"/proc/net/udp lists two sockets on the game port ({sockets})")
        s = odd_port_socket()
        check(s is not None, "a client socket on an odd port")
        p.send_signal(signal.SIGSTOP)
        try:
            for i in range(FLOOD):
                s.sendto(b"\x00" * 64, ("127.0.0.1", port))
        finally:
            p.send_signal(signal.SIGCONT)
        s.close()
        after, _ = proc_drops(port)
        drops = metric(mport, "mazerace_socket_drops_total")
        check(after - before > FLOOD // 2, f"the kernel dropped most of the flood ({after - before} of {FLOOD})")
        check(drops == after, f"mazerace_socket_drops_total is the sum over both hosts ({drops} vs {after})")
    finally:
        stop(p)
finish()
