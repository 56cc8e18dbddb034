#!/usr/bin/env python3
"""conformance_coord.py: docs/coordinator.md's [CO-n] requirements against a real mazerace-coordinator on 127.0.0.1.

Speaks the bytes the document specifies (struct, not the C codec). Usage: conformance_coord.py COORDINATOR_BINARY
"""
import base64
import hashlib
import hmac
import os
import socket
import struct
import subprocess
import sys
import tempfile

MAGIC = b"MRCO"
ALPHABET = "3479ACDEFHJKMNPRTWXY"
failures = []


def check(req, cond, what):
    print(("PASS" if cond else "FAIL") + f" [{req}] {what}")
    if not cond:
        failures.append(req)


def header(typ, rid, version=1):
    return MAGIC + struct.pack(">BBI", version, typ, rid)


def str8(s):
    b = s.encode()
    return struct.pack(">B", len(b)) + b


def cands(lst):
    return struct.pack(">B", len(lst)) + b"".join(struct.pack(">BIH", k, ip, port) for k, ip, port in lst)


class Reader:
    def __init__(self, b):
        self.b, self.p = b, 0

    def take(self, fmt):
        v = struct.unpack_from(">" + fmt, self.b, self.p)
        self.p += struct.calcsize(">" + fmt)
        return v if len(v) > 1 else v[0]

    def raw(self, n):
        v = self.b[self.p:self.p + n]
        assert len(v) == n
        self.p += n
        return v

    def str8(self):
        return self.raw(self.take("B")).decode()

    def cands(self):
        return [self.take("BIH") for _ in range(self.take("B"))]

    def addr(self):
        return self.take("IH")


def parse(b):
    r = Reader(b)
    assert r.raw(4) == MAGIC
    ver, typ, rid = r.take("BBI")
    m = {"type": typ, "id": rid}
    if typ == 2:
        m.update(code="+" + r.raw(8).decode(), token=r.raw(8), life=r.take("H"), seen=r.addr())
    elif typ in (5, 6):
        m.update(pair=r.take("I"), token=r.raw(8), seen=r.addr())
        if typ == 5:
            m["name"] = r.str8()
        m["cands"] = r.cands()
    elif typ == 8:
        m.update(turn=r.addr(), user=r.str8(), password=r.str8(), life=r.take("H"))
    elif typ == 10:
        m["refresh"] = r.take("H")
    elif typ == 12:
        m.update(total=r.take("H"), start=r.take("H"))
        m["servers"] = [dict(ip=r.take("I"), port=r.take("H"), players=r.take("H"), rooms=r.take("H"),
                             capacity=r.take("H"), name=r.str8(), version=r.str8()) for _ in range(r.take("B"))]
    elif typ == 13:
        m.update(error=r.take("B"), retry=r.take("H"), text=r.str8())
    assert r.p == len(b), "bytes left after the body"
    return m


class Client:
    """One UDP socket on 127.0.0.1 (its own port: a 'player')."""

    def __init__(self, port):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.bind(("127.0.0.1", 0))
        self.s.settimeout(2.0)
        self.dest = ("127.0.0.1", port)
        self.port = self.s.getsockname()[1]

    def send(self, b):
        self.s.sendto(b, self.dest)

    def recv(self, timeout=2.0):
        self.s.settimeout(timeout)
        try:
            return parse(self.s.recvfrom(2000)[0])
        except socket.timeout:
            return None

    def ask(self, b):
        self.send(b)
        return self.recv()


LO = 0x7F000001


def main():
    binary = sys.argv[1]
    tmp = tempfile.mkdtemp()
    secret_path = os.path.join(tmp, "secret")
    with open(secret_path, "w") as f:
        f.write("north\n")
    proc = subprocess.Popen([binary, "--bind", "127.0.0.1", "--port", "0", "--turn-server", "127.0.0.1:3478",
                             "--turn-secret-file", secret_path, "--host-ttl", "5", "--per-addr", "2",
                             "--lookup-burst", "4", "--rate", "1000", "--burst", "1000", "--metrics", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        port = int(line.rsplit(":", 1)[1])
        mline = proc.stdout.readline()
        assert mline.startswith("metrics on http://"), mline
        run(port)
        check_metrics(mline.split()[2])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        os.remove(secret_path)
        os.rmdir(tmp)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


def check_metrics(url):
    """Not a [CO] requirement: the counters the run above must have moved, in Prometheus' text format."""
    import shutil
    import urllib.request
    body = urllib.request.urlopen(url, timeout=5).read().decode()
    values = {}
    for ln in body.splitlines():
        if ln and not ln.startswith("#"):
            k, v = ln.split()
            values[k] = float(v)
    check("metrics", values.get("mazerace_coordinator_lookups_total", 0) >= 4
          and values.get("mazerace_coordinator_turn_issued_total") == 2
          and values.get("mazerace_coordinator_turn_refused_total") == 2
          and values.get("mazerace_coordinator_rate_limited_total", 0) >= 1
          and values.get("mazerace_coordinator_servers") == 1, f"/metrics counts the run: {values}")
    promtool = shutil.which("promtool")
    if promtool:
        r = subprocess.run([promtool, "check", "metrics"], input=body, text=True, capture_output=True)
        check("metrics", r.returncode == 0, "promtool check metrics: " + (r.stdout + r.stderr).strip()[:200])


def run(port):
    host, joiner, third = Client(port), Client(port), Client(port)
    # [CO-1] bad datagrams: ours get ERROR BAD; foreign bytes get nothing.
    a = host.ask(header(1, 7) + b"\x00")
    check("CO-1", a and a["type"] == 13 and a["error"] == 1 and a["id"] == 7, "a cut HOST_REGISTER: ERROR BAD, same id")
    host.send(b"GET / HTTP/1.0\r\n\r\n")
    check("CO-1", host.recv(0.3) is None, "bytes without the magic: no answer")
    a = host.ask(header(2, 8) + b"x" * 30)
    check("CO-1", a and a["error"] == 1, "an answer type sent to the coordinator: ERROR BAD")
    # [CO-2]
    a = host.ask(header(11, 9, version=7) + b"\x00\x00")
    check("CO-2", a and a["type"] == 13 and a["error"] == 2, "another version: ERROR VERSION")
    # [CO-3], [CO-4]
    reg = header(1, 10) + bytes(8) + str8("Ann") + cands([(0, 0xC0A80102, 27910), (2, 0xCB007101, 40000)])
    a = host.ask(reg)
    ok = a and a["type"] == 2 and a["id"] == 10
    check("CO-3", ok and len(a["code"]) == 9 and all(c in ALPHABET for c in a["code"][1:])
          and a["token"] != bytes(8) and a["life"] == 5, "HOST_OK: a code of the alphabet, a token, the lifetime")
    check("CO-4", ok and a["seen"] == (LO, host.port), "HOST_OK's seen is the datagram's source")
    code, token = a["code"], a["token"]
    # [CO-5] refresh keeps the code
    a = host.ask(header(1, 11) + token + str8("Ann2") + cands([(0, 0xC0A80102, 27910)]))
    check("CO-5", a and a["type"] == 2 and a["code"] == code and a["token"] == token, "a refresh keeps code and token")
    # [CO-6]
    a = host.ask(header(1, 12) + b"\x01" * 8 + str8("Ann") + cands([]))
    check("CO-6", a and a["error"] == 8, "a refresh with an unknown token: ERROR TOKEN")
    # [CO-9]
    look = header(4, 13) + code[1:].encode() + cands([(2, 0x0C000001, 6001)])
    a = joiner.ask(look)
    intro = host.recv()
    check("CO-9", a and a["type"] == 5 and a["name"] == "Ann2" and a["cands"] == [(0, 0xC0A80102, 27910)]
          and a["seen"] == (LO, host.port), "LOOKUP_OK: the host's name, candidates and seen address")
    check("CO-9", intro and intro["type"] == 6 and a and intro["pair"] == a["pair"] and intro["token"] == a["token"]
          and intro["seen"] == (LO, joiner.port) and intro["cands"] == [(2, 0x0C000001, 6001)],
          "INTRODUCE to the host: the same pair, the joiner's seen address and candidates")
    pair, ptoken = a["pair"], a["token"]
    # [CO-11], [CO-13]
    turn = header(7, 14) + struct.pack(">I", pair) + ptoken
    a = joiner.ask(turn)
    ok = a and a["type"] == 8
    want = ok and base64.b64encode(hmac.new(b"north", a["user"].encode(), hashlib.sha1).digest()).decode()
    check("CO-11", ok and a["turn"] == (LO, 3478), "TURN_OK for the joiner of an introduced pair")
    check("CO-13", ok and a["password"] == want and a["user"].endswith(":mr%08x" % pair)
          and a["life"] == 3600, "username EXPIRY:mrPAIR, password base64(HMAC-SHA1(secret, username))")
    a = host.ask(turn)
    check("CO-11", a and a["type"] == 8, "TURN_OK for the host of the pair too")
    # [CO-12] a wrong token; an unknown pair. (A third address on 127.0.0.1 shares the pair's IP, so the
    # address rule is checked by test_coord.)
    a = third.ask(header(7, 15) + struct.pack(">I", pair) + bytes(8))
    check("CO-12", a and a["error"] == 6, "a wrong pair token: ERROR NO_PAIR")
    a = third.ask(header(7, 16) + struct.pack(">I", pair ^ 1) + ptoken)
    check("CO-12", a and a["error"] == 6, "an unknown pair: ERROR NO_PAIR")
    # [CO-8] per-address codes (2 in this run)
    b = Client(port)
    a2 = b.ask(header(1, 17) + bytes(8) + str8("B") + cands([]))
    a3 = b.ask(header(1, 18) + bytes(8) + str8("C") + cands([]))
    check("CO-8", a2 and a2["type"] == 2 and a3 and a3["type"] == 13 and a3["error"] == 5,
          "the address's third code: ERROR FULL")
    # [CO-7] leave ends the code
    host.send(header(3, 19) + token)
    a = joiner.ask(header(4, 20) + code[1:].encode() + cands([]))
    check("CO-7", a and a["error"] == 4, "after HOST_LEAVE the code is gone")
    # [CO-10]
    a = joiner.ask(header(4, 21) + b"33333333" + cands([]))
    check("CO-10", a and a["error"] == 4, "an unknown code: ERROR NO_CODE")
    # [CO-14], [CO-15]
    srv = Client(port)
    a = srv.ask(header(9, 22) + struct.pack(">HHHH", 27910, 3, 1, 4000) + str8("Big") + str8("0.9.0"))
    check("CO-14", a and a["type"] == 10 and a["refresh"] > 0, "SERVER_OK with the refresh interval")
    a = third.ask(header(11, 23) + struct.pack(">H", 0))
    ok = a and a["type"] == 12 and a["total"] == 1 and len(a["servers"]) == 1
    check("CO-15", ok and a["servers"][0]["ip"] == LO and a["servers"][0]["port"] == 27910
          and a["servers"][0]["players"] == 3 and a["servers"][0]["name"] == "Big", "LIST: the registered server")
    # [CO-16] lookups over the burst (4 in this run; 2 used above by joiner) get RATE with a retry.
    errors = []
    for i in range(6):
        a = joiner.ask(header(4, 30 + i) + b"33333333" + cands([]))
        errors.append(a and a["error"])
    check("CO-16", 3 in errors and errors[0] == 4, f"lookups beyond the burst: ERROR RATE ({errors})")


if __name__ == "__main__":
    sys.exit(main())
