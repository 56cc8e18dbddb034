#!/usr/bin/env python3
"""tests/agones/test_agones.py: the real mazerace-server against the mock Agones SDK sidecar (mock_sdk.py), with
real bots over 127.0.0.1: Ready, labels, periodic Health, Counters as bots join and leave, Shutdown after a drain
(SIGTERM, or idle after an allocation), back to Ready after an allocation once idle, rooms a matchmaker reserved by
annotation read from the watch stream (joined by a client started as the allocation returns), the host ports of
status.ports (the "spectate" one told to spectators by WATCH_AT), and a sidecar that is down, slow or failing never
slows a bot match.

Usage: test_agones.py SERVER BOT
The environment's MR_WATCH_AT_PROBE names tests/agones/watch_at_probe (a raw ENet spectator); without it the WATCH_AT
test is skipped.
"""
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mock_sdk import MockSdk  # noqa: E402

SERVER = BOT = None
PROBE = os.environ.get("MR_WATCH_AT_PROBE")


class UdpRelay:
    """Stands for the node's host port mapping: datagrams to 127.0.0.1:self.port go on to 127.0.0.1:target from a
    socket of the relay's own per client, and the answers go back to that client. Counts what it relayed."""

    def __init__(self, target):
        self.target = ("127.0.0.1", target)
        self.front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.front.bind(("127.0.0.1", 0))
        self.port = self.front.getsockname()[1]
        self.back = {}  # client address -> the relay's socket towards the target for it
        self.relayed = 0
        self._stop = False
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while not self._stop:
            socks = [self.front] + list(self.back.values())
            ready, _, _ = select.select(socks, [], [], 0.1)
            for s in ready:
                try:
                    data, addr = s.recvfrom(65536)
                except OSError:
                    continue
                if s is self.front:
                    b = self.back.get(addr)
                    if b is None:
                        b = self.back[addr] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                        b.bind(("127.0.0.1", 0))
                    b.sendto(data, self.target)
                    self.relayed += 1
                else:
                    client = next((a for a, b in self.back.items() if b is s), None)
                    if client:
                        self.front.sendto(data, client)

    def stop(self):
        self._stop = True
        self._t.join(5)
        for s in [self.front] + list(self.back.values()):
            s.close()


def probe(port, code, *extra):
    """watch_at_probe against the game port: (exit status, output)."""
    r = subprocess.run([PROBE, str(port), code] + list(extra), capture_output=True, text=True, timeout=60)
    sys.stderr.write("".join("  [probe] %s\n" % l for l in (r.stdout + r.stderr).splitlines()))
    return r.returncode, r.stdout


class Server:
    """mazerace-server on 127.0.0.1, an ephemeral port; its output is kept in .lines (read on a thread)."""

    def __init__(self, sdk_port, *extra):
        env = dict(os.environ)
        if sdk_port is not None:
            env["AGONES_SDK_HTTP_PORT"] = str(sdk_port)
        else:
            env.pop("AGONES_SDK_HTTP_PORT", None)
        args = [SERVER, "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--countdown", "0",
                "--log-format", "text", "--config", "/dev/null"] + list(extra)
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        self.lines = []
        self._lock = threading.Lock()
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()
        line = self.expect(r"^listening on [0-9.]+:(\d+)$", 10)
        if not line:
            self.kill()
            raise AssertionError("server did not start: %s" % self.lines)
        self.port = int(re.match(r"^listening on [0-9.]+:(\d+)$", line).group(1))

    def _read(self):
        for line in self.p.stdout:
            line = line.rstrip("\n")
            sys.stderr.write("  [server] %s\n" % line)
            with self._lock:
                self.lines.append(line)

    def expect(self, pattern, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                for l in self.lines:
                    if re.search(pattern, l):
                        return l
            if self.p.poll() is not None and not self._t.is_alive():
                break
            time.sleep(0.02)
        return None

    def wait(self, timeout):
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self._t.join(5)
        return rc

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self._t.join(5)
        self.p.stdout.close()


def bots(port, *extra, timeout=60):
    """mazerace-bot against the server; returns its output (asserts exit 0)."""
    r = subprocess.run([BOT, "--server", "127.0.0.1:%d" % port, "--quiet"] + list(extra), capture_output=True,
                       text=True, timeout=timeout)
    sys.stderr.write("".join("  [bot] %s\n" % l for l in r.stdout.splitlines()))
    if r.returncode != 0:
        raise AssertionError("bot exited %d: %s %s" % (r.returncode, r.stdout, r.stderr))
    return r.stdout


def ack_p99_ms(out):
    m = re.search(r"^RESULT net .* p99_us=([0-9.]+)", out, re.M)
    assert m, "no RESULT line in: " + out
    return float(m.group(1)) / 1000.0


def counter_values(sdk, name):
    return [(c[3]["count"], c[3]["capacity"]) for c in sdk.calls("/v1beta1/counters/" + name)
            if c[1] == "PATCH" and isinstance(c[3], dict)]


class AgonesTest(unittest.TestCase):
    def setUp(self):
        self.servers = []
        self.sdk = None

    def tearDown(self):
        for s in self.servers:
            s.kill()
        if self.sdk:
            self.sdk.stop()

    def start(self, sdk_port, *extra):
        s = Server(sdk_port, *extra)
        self.servers.append(s)
        return s

    def test_lifecycle(self):
        """Ready, labels, Health every 0.2 s, Counters follow two bots in and out, Shutdown after SIGTERM."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "0.2", "--max-clients", "50", "--max-rooms", "20",
                         "--grace", "0.5")
        self.assertTrue(srv.expect(r"^agones sdk at http://127\.0\.0\.1:%d$" % sdk.port, 5))
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/ready"), 10), "no POST /ready")
        self.assertEqual(sdk.calls("/ready")[0][1], "POST")
        # Labels: version, protocol and one per puzzle kind.
        self.assertTrue(sdk.wait_for(lambda: len(sdk.labels) >= 6, 10), sdk.labels)
        self.assertRegex(sdk.labels["version"], r"^[0-9A-Za-z._-]+$")
        self.assertRegex(sdk.labels["protocol"], r"^\d+$")
        for k in ("sum", "maze", "ice", "pipes"):
            self.assertEqual(sdk.labels.get("kind-" + k), "true")
        # Periodic Health: at 0.2 s, at least 5 more within 3 s (bounded wait, not a sleep).
        h0 = len(sdk.calls("/health"))
        self.assertTrue(sdk.wait_for(lambda: len(sdk.calls("/health")) >= h0 + 5, 3), "health pings too rare")
        hs = [c[0] for c in sdk.calls("/health")]
        gaps = [b - a for a, b in zip(hs, hs[1:])]
        self.assertLess(max(gaps[-5:]), 1.5, gaps)
        # Counters: an idle server reports 0 of its capacities.
        self.assertTrue(sdk.wait_for(lambda: (0, 50) in [(int(a), int(b)) for a, b in
                                                          counter_values(sdk, "players")], 5))
        self.assertTrue(sdk.wait_for(lambda: (0, 20) in [(int(a), int(b)) for a, b in
                                                          counter_values(sdk, "rooms")], 5))
        # Two bots play one match: players goes up to 2 and rooms to 1, then both back to 0 (the room
        # closes when the grace of the player who dropped without leaving ends).
        bots(srv.port, "--bots", "2", "--matches", "1", "--pace", "30")
        seen_p = [int(a) for a, _ in counter_values(sdk, "players")]
        seen_r = [int(a) for a, _ in counter_values(sdk, "rooms")]
        self.assertIn(2, seen_p, seen_p)
        self.assertIn(1, seen_r, seen_r)
        self.assertTrue(sdk.wait_for(lambda: sdk.counters["players"]["count"] == 0 and
                                     sdk.counters["rooms"]["count"] == 0, 5), sdk.counters)
        self.assertFalse(sdk.calls("/shutdown"))
        # SIGTERM: drain (nobody racing: at once), then Shutdown, exit 0.
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)
        sd = sdk.calls("/shutdown")
        self.assertEqual(len(sd), 1)
        self.assertEqual(sd[0][1], "POST")
        # Draining lowered the capacities to the counts, so nothing is allocated here any more.
        self.assertEqual(sdk.counters["rooms"]["capacity"], sdk.counters["rooms"]["count"])
        # Nothing after Shutdown.
        self.assertEqual(sdk.calls()[-1][2], "/shutdown")

    def test_idle_after_allocation(self):
        """--agones-idle-shutdown: once Allocated and everyone has left, drain and Shutdown by itself."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "0.2", "--agones-idle-shutdown", "1",
                         "--grace", "0.5")
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/ready"), 10))
        # Not allocated yet: idle for longer than the setting, still running.
        h0 = len(sdk.calls("/health"))
        self.assertTrue(sdk.wait_for(lambda: len(sdk.calls("/health")) >= h0 + 8, 5))
        self.assertIsNone(srv.p.poll())
        # The allocation comes while a match is being played; the server waits for the players to leave.
        t = threading.Thread(target=bots, args=(srv.port, "--bots", "2", "--matches", "1", "--pace", "60"))
        t.start()
        self.assertTrue(sdk.wait_for(lambda: sdk.counters["players"]["count"] == 2, 10))
        sdk.set_state("Allocated")
        self.assertTrue(srv.expect(r"GameServer is Allocated", 5))
        self.assertIsNone(srv.p.poll())
        t.join(60)
        self.assertEqual(srv.wait(20), 0)
        self.assertTrue(srv.expect(r"no player for 1000 ms: draining", 1))
        self.assertEqual(len(sdk.calls("/shutdown")), 1)

    def test_reserved_rooms(self):
        """A matchmaker's annotations mazerace.io/room-CODE: GAMEID: the reserved code opens with its game ID, two
        bots join it by code and race to a result; bad entries are logged once and ignored; an unused
        reservation expires; an entry is acted on once."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "0.2", "--agones-reserve-wait", "2", "--db", "none")
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/ready"), 10))
        good = {"ABCDE": "maze:15x11:easy", "XYZ23": "sum:5x5:easy"}
        bad = {"BAD": "sum:5x5:easy", "QWERT": "nokind:3x3:easy", "abcde": "maze:15x11:easy", "KMNPQ": "",
               "ABCD0": "sum:5x5:easy", "MNPQR": "sum:5x5:easy with spaces"}
        for code, gid in list(good.items()) + list(bad.items()):
            sdk.set_annotation("mazerace.io/room-" + code, gid)
        sdk.set_annotation("mazerace.io/room-NUMBR", 7)  # not a string
        sdk.set_state("Allocated")
        self.assertTrue(srv.expect(r"room ABCDE reserved by the matchmaker: maze:15x11:easy#\d+", 10))
        self.assertTrue(srv.expect(r"ignoring annotation mazerace.io/room-NUMBR: the value is not a string", 5))
        self.assertTrue(srv.expect(r"room XYZ23 reserved by the matchmaker: sum:5x5:easy#\d+", 5))
        for code, gid in bad.items():
            self.assertTrue(srv.expect(r'ignoring annotation mazerace.io/room-%s: ' % re.escape(code + "=" + gid), 5),
                            code)
        out = bots(srv.port, "--room", "ABCDE", "--bots", "2", "--matches", "1", "--pace", "30")
        self.assertIn("2 done, 0 failed", out)
        self.assertTrue(srv.expect(r"room ABCDE game 1 finished: winner bot-\d \(solved\)", 5))
        # Nobody came for XYZ23: closed after --agones-reserve-wait, its code unknown from then on.
        self.assertTrue(srv.expect(r"reserved room XYZ23: nobody joined in time", 10))
        r = subprocess.run([BOT, "--server", "127.0.0.1:%d" % srv.port, "--room", "XYZ23", "--bots", "1",
                            "--matches", "1", "--quiet"], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no room with code XYZ23", r.stdout + r.stderr)
        # Each entry once: the GameServer sent again and again with the same annotations, no second reservation
        # or warning.
        for _ in range(5):  # one at a time: the stream sends the latest GameServer, changes in a burst once
            w0 = sdk.watch_sent
            sdk.set_state("Allocated")
            self.assertTrue(sdk.wait_for(lambda: sdk.watch_sent > w0, 5))
        self.assertTrue(srv.expect(r"ignoring annotation mazerace.io/room-BAD=", 1))
        with srv._lock:
            lines = list(srv.lines)
        self.assertEqual(len([l for l in lines if "room ABCDE reserved" in l]), 1)
        self.assertEqual(len([l for l in lines if "ignoring annotation mazerace.io/room-BAD=" in l]), 1)
        # A later allocation adds its own annotation beside the others: taken; the server kept running.
        sdk.set_annotation("mazerace.io/room-HJK23", "ice:8x8:easy")
        self.assertTrue(srv.expect(r"room HJK23 reserved by the matchmaker: ice:8x8:easy#\d+", 10))
        self.assertIsNone(srv.p.poll())
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)

    def test_mapped_ports(self):
        """status.ports of the GameServer: the host ports of "game" and "spectate" are read and logged; a bad
        status.ports (or a bad JSON text) is refused whole, said once, and the ports read before are kept. (A
        sidecar without the watch stream: the GameServer is read by GET /gameserver after each ping.)"""
        sdk = self.sdk = MockSdk(watch=False).start()
        sdk.set_ports([{"name": "game", "port": 7001}, {"name": "spectate", "port": 7002},
                       {"name": "metrics", "port": 7003}])
        srv = self.start(sdk.port, "--agones-health", "0.2")
        self.assertTrue(srv.expect(r"the SDK sidecar has no /watch/gameserver \(404\): reading the GameServer after "
                                   r"each health ping instead", 10))
        self.assertTrue(srv.expect(r'agones: GameServer host ports: "game" 7001, "spectate" 7002$', 10))
        # A port as a string (the SDK sends numbers): the whole array refused, the old ports kept.
        sdk.set_ports([{"name": "game", "port": 7001}, {"name": "spectate", "port": "7005"}])
        self.assertTrue(srv.expect(r"ignoring status.ports of the GameServer: a port's \"port\" is not a number; "
                                   r"keeping the ports read before", 5))
        # Not JSON at all (cut short): the whole answer refused with its own reason, once, nothing read.
        sdk.set_raw_gameserver('{"status": {"state": "Ready", "ports": [{"name": "spectate", "port": 7006}')
        self.assertTrue(srv.expect(r"ignoring the GameServer of GET /gameserver: the text ends early \(cut short\?\); "
                                   r"nothing read from it", 5))
        g0 = len(sdk.calls("/gameserver"))
        self.assertTrue(sdk.wait_for(lambda: len(sdk.calls("/gameserver")) >= g0 + 5, 5))
        with srv._lock:
            lines = list(srv.lines)
        self.assertEqual(len([l for l in lines if "ignoring the GameServer of GET /gameserver: the text ends" in l]), 1)
        self.assertFalse([l for l in lines if re.search(r'"spectate" 700[56]', l)], lines)
        # Good again, with a new spectate port; then a Fleet without one.
        sdk.set_raw_gameserver(None)
        sdk.set_ports([{"name": "game", "port": 7001}, {"name": "spectate", "port": 7007}])
        self.assertTrue(srv.expect(r'agones: GameServer host ports: "game" 7001, "spectate" 7007$', 5))
        sdk.set_ports([{"name": "game", "port": 7001}])
        self.assertTrue(srv.expect(r'agones: GameServer host ports: "game" 7001, "spectate" none$', 5))
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)

    def test_watch_at_mapped_port(self):
        """WATCH on the game port answers WATCH_AT with the GameServer's "spectate" host port, not the bound one, and a
        spectator watches through it (a UDP relay stands for the node's port mapping); with no "spectate" port
        in status.ports, the bound one, said as a warning."""
        if not PROBE:
            self.skipTest("MR_WATCH_AT_PROBE (tests/agones/watch_at_probe) not given")
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "0.2", "--spectator-port", "0", "--agones-reserve-wait", "60",
                         "--db", "none")
        line = srv.expect(r"^spectators on [0-9.]+:\d+$", 5)
        self.assertTrue(line, srv.lines)
        bound = int(line.rsplit(":", 1)[1])
        self.assertNotEqual(bound, srv.port)
        self.assertTrue(srv.expect(r'agones: GameServer host ports: "game" 7654, "spectate" none$', 10))
        self.assertTrue(srv.expect(r'agones: the GameServer maps no "spectate" port: WATCH_AT tells the bound port '
                                   r'%d' % bound, 5))
        sdk.set_annotation("mazerace.io/room-ABCDE", "maze:15x11:easy")
        sdk.set_state("Allocated")
        self.assertTrue(srv.expect(r"room ABCDE reserved by the matchmaker", 10))
        rc, out = probe(srv.port, "ABCDE")
        self.assertEqual(rc, 0, out)
        self.assertIn("WATCH_AT ABCDE %d" % bound, out)
        # The mapping known: WATCH_AT names the host port, and watching through it works.
        relay = UdpRelay(bound)
        try:
            sdk.set_ports([{"name": "game", "port": 7654}, {"name": "spectate", "port": relay.port}])
            self.assertTrue(srv.expect(r'agones: WATCH_AT tells spectators port %d \(the GameServer\'s "spectate" '
                                       r'host port; bound %d\)' % (relay.port, bound), 10))
            rc, out = probe(srv.port, "ABCDE", "--follow")
            self.assertEqual(rc, 0, out)
            self.assertIn("WATCH_AT ABCDE %d" % relay.port, out)
            self.assertIn("watching ABCDE at port %d" % relay.port, out)
            self.assertGreater(relay.relayed, 0)
        finally:
            relay.stop()
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)

    def test_watch_reservation(self):
        """The GameServer comes from the watch stream, not from polling: with health pings (and so polls) only
        every 30 s, a reserved room opens as the allocation lands, and two players started the moment the
        allocation returns (within 100 ms) join it by code and race to a result."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "30", "--db", "none")
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/ready"), 10))
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/watch/gameserver"), 10), "no watch stream opened")
        self.assertTrue(sdk.wait_for(lambda: sdk.watch_sent >= 1, 5))
        self.assertLessEqual(len(sdk.calls("/gameserver")), 2)  # the catch-up GET when the stream opened, no polls
        t0 = time.monotonic()
        sdk.allocate({"mazerace.io/room-WQ7KM": "maze:15x11:easy"})
        # The matchmaker hands out the join link now: both players start at once.
        p = subprocess.Popen([BOT, "--server", "127.0.0.1:%d" % srv.port, "--room", "WQ7KM", "--bots", "2",
                              "--matches", "1", "--pace", "30", "--quiet", "--timeout", "30"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        started_ms = (time.monotonic() - t0) * 1000.0
        self.assertLess(started_ms, 100.0, "the test started the players late")
        out, _ = p.communicate(timeout=60)
        sys.stderr.write("".join("  [bot] %s\n" % l for l in out.splitlines()))
        self.assertEqual(p.returncode, 0, out)
        self.assertIn("2 done, 0 failed", out)
        self.assertTrue(srv.expect(r"room WQ7KM reserved by the matchmaker: maze:15x11:easy#\d+", 1))
        self.assertTrue(srv.expect(r"room WQ7KM game 1 finished: winner bot-\d \(solved\)", 5))
        self.assertLessEqual(len(sdk.calls("/gameserver")), 2, "the GameServer was polled")
        sys.stderr.write("  players started %.1f ms after the allocation\n" % started_ms)
        # A line the watch cannot take (an error from the gateway) is said once; the next good one is read.
        sdk.set_raw_watch('{"error": {"code": 14, "message": "transport is closing"}}')
        self.assertTrue(srv.expect(r"ignoring the GameServer of GET /watch/gameserver: the watch stream sent an "
                                   r"error: transport is closing", 5))
        sdk.set_raw_watch(None)
        sdk.set_annotation("mazerace.io/room-HJK23", "ice:8x8:easy")
        self.assertTrue(srv.expect(r"room HJK23 reserved by the matchmaker: ice:8x8:easy#\d+", 5))
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)

    def test_back_to_ready(self):
        """--agones-idle-ready: Allocated, then empty after the last race for the idle time: POST /ready puts the
        GameServer back in the pool (no Shutdown); a reservation that lands on it while Ready makes it Allocated
        again (POST /allocate)."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(sdk.port, "--agones-health", "0.2", "--agones-idle-ready", "1", "--grace", "0.5",
                         "--db", "none")
        self.assertTrue(sdk.wait_for(lambda: sdk.state == "Ready", 10))
        # Ready and idle for longer than the setting: nothing happens (not Allocated).
        h0 = len(sdk.calls("/health"))
        self.assertTrue(sdk.wait_for(lambda: len(sdk.calls("/health")) >= h0 + 8, 5))
        self.assertEqual(len(sdk.calls("/ready")), 1)
        # Allocated for a pair who race; after they leave and the idle time passes: back to Ready.
        sdk.allocate({"mazerace.io/room-ABCDE": "maze:15x11:easy"})
        self.assertTrue(srv.expect(r"GameServer is Allocated", 5))
        bots(srv.port, "--room", "ABCDE", "--bots", "2", "--matches", "1", "--pace", "30")
        self.assertTrue(sdk.wait_for(lambda: len(sdk.calls("/ready")) == 2, 10), "no second POST /ready")
        self.assertTrue(srv.expect(r"agones: Allocated with no player and no room for 1000 ms: back to Ready", 1))
        self.assertEqual(sdk.state, "Ready")
        self.assertFalse(sdk.calls("/shutdown"))
        self.assertIsNone(srv.p.poll())
        # An allocation that met our return: the reservation arrives on a Ready GameServer.
        sdk.set_annotation("mazerace.io/room-XYZ23", "sum:5x5:easy")
        self.assertTrue(sdk.wait_for(lambda: sdk.calls("/allocate"), 5), "no POST /allocate")
        self.assertTrue(sdk.wait_for(lambda: sdk.state == "Allocated", 5))
        self.assertTrue(srv.expect(r"room XYZ23 reserved by the matchmaker", 5))
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)
        self.assertEqual(len(sdk.calls("/shutdown")), 1)

    def test_default_off(self):
        """Without --agones and without AGONES_SDK_HTTP_PORT nothing talks to a sidecar."""
        sdk = self.sdk = MockSdk().start()
        srv = self.start(None)
        bots(srv.port, "--bots", "2", "--matches", "1", "--pace", "20")
        self.assertIsNone(srv.expect(r"agones", 0.2))
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(15), 0)
        self.assertEqual(sdk.calls(), [])

    def test_bad_port_variable(self):
        for bad in ("99999", "abc"):
            env = dict(os.environ, AGONES_SDK_HTTP_PORT=bad)
            r = subprocess.run([SERVER, "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--config",
                                "/dev/null"], env=env, capture_output=True, text=True, timeout=10)
            # a configuration error: exit 2 before anything is bound, like a bad flag
            self.assertEqual(r.returncode, 2)
            self.assertIn("AGONES_SDK_HTTP_PORT is not a port number", r.stderr)
            self.assertNotIn("listening on", r.stdout)

    def bad_sidecar(self, mode):
        """A bench of 40 bots beside a sidecar that misbehaves: acks as quick as beside a good one."""
        if mode == "down":
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
            s.close()  # nobody listens there: connections are refused
        else:
            self.sdk = MockSdk(mode).start()
            port = self.sdk.port
        srv = self.start(port, "--agones-health", "0.1", "--gen-rate", "1000", "--gen-burst", "600000",
                         "--drain-timeout", "0")
        out = bots(srv.port, "--bots", "40", "--bench", "3", "--pace", "50", timeout=90)
        p99 = ack_p99_ms(out)
        sys.stderr.write("  sidecar %s: ack p99 %.2f ms\n" % (mode, p99))
        # A loop that waited on the sidecar would show seconds (5 s per slow call, 2 s time-outs).
        self.assertLess(p99, 250.0, out)
        m = re.search(r"sent=(\d+) answered=(\d+)", out)
        self.assertEqual(m.group(1), m.group(2), out)
        if mode != "down":
            self.assertTrue(self.sdk.calls("/ready"))
        self.assertTrue(srv.expect(r"agones: POST /ready to the SDK sidecar .* failed", 1))
        # The stop is bounded too: Shutdown is retried for 5 s at most.
        t0 = time.monotonic()
        srv.p.send_signal(signal.SIGTERM)
        self.assertEqual(srv.wait(20), 0)
        sys.stderr.write("  sidecar %s: stopped in %.1f s\n" % (mode, time.monotonic() - t0))
        self.assertLess(time.monotonic() - t0, 12)

    def test_sidecar_down(self):
        self.bad_sidecar("down")

    def test_sidecar_slow(self):
        self.bad_sidecar("slow")

    def test_sidecar_error(self):
        self.bad_sidecar("error")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: test_agones.py SERVER BOT [unittest args]")
    SERVER, BOT = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
