#!/usr/bin/env bash
# tools/netbench/preempt-trace.sh: how often the server loses its CPU in the middle of a move, ours beside the raw
# ENet echo: the load generator runs on the same machine, and the datagram that wakes it can preempt the server.
# For every move ENet sends two datagrams: its acknowledgement of the move, from inside enet_host_service before
# the program sees the move, then the answer. A client woken by the acknowledgement may take the CPU there, and the
# answer leaves only when it goes back to sleep. This counts, for mazerace-server driven by mazerace-bot --bench
# and for enet_echo's server process driven by its client process (the same two-process shape), the wakes of the
# server that sent two datagrams or more, how many of them were preempted between the first and the second
# (perf: sched_switch with the server runnable, and its sendmsg calls), and how long the server was away.
# Usage: tools/netbench/preempt-trace.sh BOTS PACE_MS WINDOW_S   e.g. 2 50 4 (one match, 20 moves/s a player)
# SCHED=batch runs every program under SCHED_BATCH (no wake-up preemption), as run.sh's SCHED=batch does.
# BUILD=dir, NO_BUILD=1 as for instr-per-move.sh; BASELINES=dir: where enet_echo.c is (as for run.sh).
# Needs perf with the sched and syscalls tracepoints (as root). Only 127.0.0.1 is used; everything stops by itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bench-server.sh
. "$root/tools/netbench/bench-server.sh"
nb_init 13 perf preempt-trace "$@"
shift 3
nb_sched
bl_src=${BASELINES:-}
for d in "$root/../shared/baselines" /work/shared/baselines; do
  [ -z "$bl_src" ] && [ -f "$d/enet_echo.c" ] && bl_src=$d
done
[ -n "$bl_src" ] && [ -f "$bl_src/enet_echo.c" ] || { echo "preempt-trace: cannot find enet_echo.c (set BASELINES)" >&2; exit 2; }
cc -O2 -std=c11 -o "$work/enet_echo" "$bl_src/enet_echo.c" -lenet -lpthread
rate=$((1000 / pace))

# perf record of one process for the window: its sched_switch events (it is the one switched out) and its
# sendmsg and poll calls; then, per wake (poll to poll) with two sends or more, was it preempted between them.
trace() { # pid name
  perf record -q -e sched:sched_switch -e syscalls:sys_enter_sendmsg -e syscalls:sys_enter_poll -p "$1" \
    -o "$work/$2.data" -- sleep "$win" >/dev/null 2>&1 ||
    { echo "preempt-trace: perf record failed" >&2; kill "${epid:-}" "${ecpid:-}" 2>/dev/null || true; exit 1; }
  perf script -i "$work/$2.data" -F time,event,trace 2>/dev/null | python3 -c '
import re, sys
name = sys.argv[1]
wakes = preempted = 0
away = []
sends, out = 0, None
def close():
    global wakes
    if sends >= 2:
        wakes += 1
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+):\s+(\S+):\s*(.*)", line)
    if not m:
        continue
    t, ev, rest = float(m.group(1)) * 1e6, m.group(2), m.group(3)
    if out is not None and ev != "sched:sched_switch":
        away.append(t - out)
        out = None
    if ev.endswith("sys_enter_poll"):
        close()
        sends = 0
    elif ev.endswith("sys_enter_sendmsg"):
        sends += 1
    elif ev == "sched:sched_switch" and "prev_state=R" in rest and sends == 1:
        preempted += 1
        out = t
close()
away.sort()
pct = lambda q: away[min(len(away) - 1, int(q * len(away)))] if away else 0
print("%s: %d wakes with two sends or more; preempted after the first in %d (%.0f%%); away until its next "
      "call p50 %.0f us, p90 %.0f us" % (name, wakes, preempted, 100.0 * preempted / wakes if wakes else 0,
                                        pct(0.5), pct(0.9)))
' "$2"
}

echo "== scheduling policy: ${SCHED:-other}; $bots clients at $rate moves/s each; ${win} s traced"
# The echo: a server process and a client process on a free port.
eport=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${sched[@]}" "$work/enet_echo" -m server -p "$eport" -k $((bots + 8)) -b 4096 >"$work/echo-server.out" 2>&1 &
epid=$!
for _ in $(seq 1 50); do grep -q 'listening' "$work/echo-server.out" && break; sleep 0.1; done
"${sched[@]}" "$work/enet_echo" -m client -p "$eport" -k "$bots" -r "$rate" -d $((win + 4)) -b 4096 >"$work/echo-client.out" 2>&1 &
ecpid=$!
sleep 2
trace "$epid" "enet_echo server"
wait "$ecpid" || true
wait "$epid" || true
sed -n 's/^RESULT enet [^ ]* .*\(p50_us=[0-9.]*\) \(p90_us=[0-9.]*\) \(p99_us=[0-9.]*\).*/  round trip \1 \2 \3/p' "$work/echo-client.out"

# Ours, started as instr-per-move.sh starts it.
nb_start_server "${sched[@]}" -- "$@"
bot_wrap=("${sched[@]}")
nb_start_bench "$bots" "$pace" $((win + 4))
nb_wait_racing "$bots"
trace "$pid" "mazerace-server"
wait "$botpid" || true
botpid=
sed -n 's/^  ack round trip us: \(p50 [0-9.]*\)  \(p90 [0-9.]*\)  \(p99 [0-9.]*\).*/  round trip \1 \2 \3 us/p' "$work/bot.out"
