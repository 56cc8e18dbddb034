#!/usr/bin/env python3
"""server_public.py: mazerace-server --coordinator HOST:PORT --public lists itself on a real coordinator (127.0.0.1).

Usage: server_public.py COORDINATOR_BINARY SERVER_BINARY
"""
import os
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance_coord import header, parse  # noqa: E402


def start(cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line.startswith("listening on "), (cmd[0], line, p.stderr.read() if p.poll() is not None else "")
    return p, int(line.rsplit(":", 1)[1])


def main():
    coord, cport = start([sys.argv[1], "--bind", "127.0.0.1", "--port", "0"])
    server = None
    try:
        server, gport = start([sys.argv[2], "--config", "none", "--bind", "127.0.0.1", "--port", "0", "--db",
                               "none", "--discovery", "off", "--spectator-port", "off", "--name", "Listed one",
                               "--max-clients", "50", "--coordinator", f"127.0.0.1:{cport}", "--public"])
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        s.settimeout(0.5)
        found = None
        deadline = time.monotonic() + 20
        rid = 0
        while time.monotonic() < deadline and not found:
            rid += 1
            s.sendto(header(11, rid) + struct.pack(">H", 0), ("127.0.0.1", cport))
            try:
                m = parse(s.recvfrom(2000)[0])
            except socket.timeout:
                continue
            for e in m.get("servers", []):
                if e["port"] == gport:
                    found = e
            if not found:
                time.sleep(0.2)  # polling a list that fills on its own: bounded by the deadline
        ok = (found is not None and found["name"] == "Listed one" and found["capacity"] == 50
              and found["players"] == 0 and found["ip"] == 0x7F000001 and found["version"])
        print(("PASS" if ok else "FAIL") + f" the server is on the coordinator's list: {found}")
        return 0 if ok else 1
    finally:
        for p in (server, coord):
            if p:
                p.terminate()
                p.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
