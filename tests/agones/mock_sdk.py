#!/usr/bin/env python3
"""tests/agones/mock_sdk.py: a stand-in for the Agones SDK sidecar: the REST paths mazerace-server uses, every call
recorded, with modes that misbehave (slow, failing) for the tests.

As a module: MockSdk(mode).start() serves on 127.0.0.1 (an ephemeral port), .calls() lists what came in,
.set_state("Allocated") changes what GET /gameserver says, .set_annotation(key, value) sets an annotation on the
GameServer as a GameServerAllocation's metadata would (object_meta.annotations), .set_ports([{"name": "game",
"port": 7001}, ...]) sets status.ports (the host ports Agones mapped, by the names of the Fleet's ports; any value,
bad ones included, is sent as given), .set_raw_gameserver(text) makes GET /gameserver answer exactly that text
(None: the normal answer again), .set_raw_watch(text) makes the watch stream send exactly that line at the next
change (None: the normal lines again), .mode can change at any time:
  "ok"    answers like the sidecar (200 and a small JSON body)
  "slow"  waits 5 s before each answer
  "error" answers 500 to everything
As a program (tools/netbench/run.sh AGONES=1): mock_sdk.py [--mode M] [--port-file F] serves until SIGTERM or
SIGINT, writes its port to F, prints "mock sdk on PORT" and, at the end, a count of the calls by path.
Paths: POST /ready /health /shutdown /allocate, PUT /metadata/label /metadata/annotation, GET /gameserver,
GET /watch/gameserver (a chunked stream of newline-delimited {"result": GameServer}: the current one at once, then
one line per change, as the sidecar's REST gateway sends it; MockSdk(watch=False): 404, as a sidecar without it),
GET and PATCH /v1beta1/counters/NAME (counters "players" and "rooms"; others answer 404 like the sidecar).
POST /ready moves Scheduled, RequestReady and Allocated to Ready (the SDK's way back to the pool).
"""
import argparse
import json
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNTERS = ("players", "rooms")


class MockSdk:
    def __init__(self, mode="ok", counters=COUNTERS, watch=True):
        self.mode = mode
        self.watch = watch
        self.state = "Scheduled"
        self.labels = {}
        self.annotations = {}  # as set by an allocation (PUT /metadata/annotation adds "agones.dev/sdk-" keys)
        self.counters = {c: {"count": 0, "capacity": 0} for c in counters}
        self.ports = [{"name": "game", "port": 7654}]  # status.ports: a Fleet with only the game port
        self.raw_gameserver = None
        self.raw_watch = None
        self._calls = []  # (time, method, path, body as parsed JSON or None)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # the GameServer changed: watch streams send it
        self._version = 0
        self._stopping = False
        self.watch_sent = 0  # lines sent on watch streams
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

    def _bump(self):
        """Called with the lock held after a change: every watch stream sends the GameServer again."""
        self._version += 1
        self._changed.notify_all()

    def set_state(self, state):
        with self._lock:
            self.state = state
            self._bump()

    def set_annotation(self, key, value):
        with self._lock:
            self.annotations[key] = value
            self._bump()

    def set_ports(self, ports):
        with self._lock:
            self.ports = ports
            self._bump()

    def set_raw_gameserver(self, text):
        with self._lock:
            self.raw_gameserver = text

    def allocate(self, annotations):
        """What a GameServerAllocation does, in one update: the annotations added and the state Allocated."""
        with self._lock:
            self.annotations.update(annotations)
            self.state = "Allocated"
            self._bump()

    def set_raw_watch(self, text):
        with self._lock:
            self.raw_watch = text
            self._bump()

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
                if method == "GET" and self.path == "/watch/gameserver" and mock.watch:
                    return self._stream()
                status, obj = mock._route(method, self.path, body)
                return self._answer(status, obj)

            def _stream(self):
                """The watch: the GameServer now, then once per change, until the client or the mock goes."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                seen = -1
                try:
                    while True:
                        with mock._lock:
                            while mock._version == seen and not mock._stopping:
                                mock._changed.wait(0.2)
                            if mock._stopping:
                                break
                            seen = mock._version
                            line = mock.raw_watch if mock.raw_watch is not None else \
                                json.dumps({"result": mock._gameserver()})
                        data = (line + "\n").encode()
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                        self.wfile.flush()
                        with mock._lock:
                            mock.watch_sent += 1
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

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
        with self._lock:
            self._stopping = True
            self._changed.notify_all()
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    # ---- the sidecar's behaviour ----
    def _gameserver(self):
        """The GameServer as GET /gameserver and the watch give it (called with the lock held)."""
        labels = {"agones.dev/sdk-" + k: v for k, v in self.labels.items()}
        return {
            "object_meta": {"name": "mock", "namespace": "default", "labels": labels,
                            "annotations": dict(self.annotations)},
            "status": {"state": self.state, "address": "127.0.0.1", "ports": list(self.ports),
                       "counters": {k: {"count": str(v["count"]), "capacity": str(v["capacity"])}
                                    for k, v in self.counters.items()}},
        }

    def _route(self, method, path, body):
        with self._lock:
            status, obj = self._route_locked(method, path, body)
            if status == 200 and method in ("POST", "PUT", "PATCH") and path != "/health":
                self._bump()
            return status, obj

    def _route_locked(self, method, path, body):
        if method == "POST" and path in ("/ready", "/health", "/shutdown", "/allocate"):
            if path == "/ready" and self.state in ("Scheduled", "RequestReady", "Allocated"):
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
            return 200, self._gameserver()
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
