#!/usr/bin/env python3
"""tests/agones/mock_sdk.py: a stand-in for the Agones SDK sidecar: the REST paths mazerace-server uses, every call
recorded, with modes that misbehave (slow, failing) for the tests.

As a module: MockSdk(mode).start() serves on 127.0.0.1 (an ephemeral port), .calls() lists what came in,
.set_state("Allocated") changes what GET /gameserver says, .set_annotation(key, value) sets an annotation on the
GameServer as a GameServerAllocation's metadata would (object_meta.annotations), .set_ports([{"name": "game",
"port": 7001}, ...]) sets status.ports (the host ports Agones mapped, by the names of the Fleet's ports; any value,
bad ones included, is sent as given), .set_raw_gameserver(text) makes GET /gameserver answer exactly that text
(None: the normal answer again), .mode can change at any time:
  "ok"    answers like the sidecar (200 and a small JSON body)
  "slow"  waits 5 s before each answer
  "error" answers 500 to everything
As a program (tools/netbench/run.sh AGONES=1): mock_sdk.py [--mode M] [--port-file F] serves until SIGTERM or
SIGINT, writes its port to F, prints "mock sdk on PORT" and, at the end, a count of the calls by path.
Paths: POST /ready /health /shutdown /allocate, PUT /metadata/label /metadata/annotation, GET /gameserver,
GET and PATCH /v1beta1/counters/NAME (counters "players" and "rooms"; others answer 404 like the sidecar).
"""
import argparse
import json
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNTERS = ("players", "rooms")


class MockSdk:
    def __init__(self, mode="ok", counters=COUNTERS):
        self.mode = mode
        self.state = "Scheduled"
        self.labels = {}
        self.annotations = {}  # as set by an allocation (PUT /metadata/annotation adds "agones.dev/sdk-" keys)
        self.counters = {c: {"count": 0, "capacity": 0} for c in counters}
        self.ports = [{"name": "game", "port": 7654}]  # status.ports: a Fleet with only the game port
        self.raw_gameserver = None
        self._calls = []  # (time, method, path, body as parsed JSON or None)
        self._lock = threading.Lock()
        self._server = None

    # ---- what the tests look at ----
    def calls(self, path=None):
        with self._lock:
            return [c for c in self._calls if path is None or c[2] == path]

    def wait_for(self, pred, timeout, step=0.02):
        """Polls pred() until it is true (returns its value) or timeout seconds pass (returns None)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = pred()
            if v:
                return v
            time.sleep(step)
        return None

    def set_state(self, state):
        with self._lock:
            self.state = state

    def set_annotation(self, key, value):
        with self._lock:
            self.annotations[key] = value

    def set_ports(self, ports):
        with self._lock:
            self.ports = ports

    def set_raw_gameserver(self, text):
        with self._lock:
            self.raw_gameserver = text

    @property
    def port(self):
        return self._server.server_address[1]

    def start(self, port=0):
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _answer(self, status, obj):
                data = obj.encode() if isinstance(obj, str) else json.dumps(obj).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up waiting (slow mode): as the sidecar would

            def _handle(self, method):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = {"unparsed": raw.decode("latin-1")}
                with mock._lock:
                    mock._calls.append((time.monotonic(), method, self.path, body))
                    mode = mock.mode
                if mode == "slow":
                    time.sleep(5)
                if mode == "error":
                    return self._answer(500, {"error": "mock says no"})
                status, obj = mock._route(method, self.path, body)
                return self._answer(status, obj)

            def do_GET(self):
                self._handle("GET")

            def do_POST(self):
                self._handle("POST")

            def do_PUT(self):
                self._handle("PUT")

            def do_PATCH(self):
                self._handle("PATCH")

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    # ---- the sidecar's behaviour ----
    def _route(self, method, path, body):
        with self._lock:
            if method == "POST" and path in ("/ready", "/health", "/shutdown", "/allocate"):
                if path == "/ready" and self.state in ("Scheduled", "RequestReady"):
                    self.state = "Ready"
                if path == "/shutdown":
                    self.state = "Shutdown"
                if path == "/allocate":
                    self.state = "Allocated"
                return 200, {}
            if method == "PUT" and path in ("/metadata/label", "/metadata/annotation"):
                if not isinstance(body, dict) or "key" not in body or "value" not in body:
                    return 400, {"error": "key and value wanted"}
                if path == "/metadata/label":
                    self.labels[body["key"]] = body["value"]
                else:
                    self.annotations["agones.dev/sdk-" + body["key"]] = body["value"]
                return 200, {}
            if method == "GET" and path == "/gameserver":
                if self.raw_gameserver is not None:
                    return 200, self.raw_gameserver
                labels = {"agones.dev/sdk-" + k: v for k, v in self.labels.items()}
                return 200, {
                    "object_meta": {"name": "mock", "namespace": "default", "labels": labels,
                                    "annotations": dict(self.annotations)},
                    "status": {"state": self.state, "address": "127.0.0.1", "ports": list(self.ports),
                               "counters": {k: {"count": str(v["count"]), "capacity": str(v["capacity"])}
                                            for k, v in self.counters.items()}},
                }
            prefix = "/v1beta1/counters/"
            if path.startswith(prefix):
                name = path[len(prefix):]
                if name not in self.counters:
                    return 404, {"error": "counter not found"}
                c = self.counters[name]
                if method == "PATCH":
                    if not isinstance(body, dict):
                        return 400, {"error": "body wanted"}
                    cap = int(body.get("capacity", c["capacity"]))
                    count = int(body.get("count", c["count"])) + int(body.get("countDiff", 0))
                    if count < 0 or count > cap:
                        return 400, {"error": "count out of range"}
                    c["count"], c["capacity"] = count, cap
                if method in ("GET", "PATCH"):
                    return 200, {"name": name, "count": str(c["count"]), "capacity": str(c["capacity"])}
            return 404, {"error": "no such path"}


def main():
    ap = argparse.ArgumentParser(description="mock Agones SDK sidecar (REST)")
    ap.add_argument("--mode", default="ok", choices=("ok", "slow", "error"))
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    a = ap.parse_args()
    m = MockSdk(a.mode).start(a.port)
    if a.port_file:
        with open(a.port_file + ".tmp", "w") as f:
            f.write("%d\n" % m.port)
        import os
        os.replace(a.port_file + ".tmp", a.port_file)
    print("mock sdk on %d" % m.port, flush=True)

    def on_term(sig, frame):
        raise KeyboardInterrupt  # SIGTERM (a script's background job ignores SIGINT): print the summary

    signal.signal(signal.SIGTERM, on_term)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    with m._lock:
        kinds = {}
        for c in m._calls:
            k = c[1] + " " + c[2]
            kinds[k] = kinds.get(k, 0) + 1
        print("calls: %d (%s)" % (len(m._calls), ", ".join("%s x%d" % kv for kv in sorted(kinds.items()))),
              flush=True)


if __name__ == "__main__":
    main()
