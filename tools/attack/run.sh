#!/usr/bin/env bash
# tools/attack/run.sh: issue 14's acceptance bench: 20 racing bots (mazerace-bot --bench) beside the CREATE_ROOM 1000x1000 hard maze + LEAVE attack (mazerace-attack); prints the bots' ack round trip (p50/p99) with and without the attack.
#
# Usage: tools/attack/run.sh
#   BUILD=dir     build directory (default build-attack; configured RelWithDebInfo)
#   SERVER=path   the mazerace-server to attack (default: the one built here), e.g. an older build to compare
#   BOT=path      the mazerace-bot to race with (default: the one built here; with an older server, its own bot)
#   DUR=20        measurement window in seconds
#   BOTS=20       racing bots (10 matches)
#   CONNS=1       attacking connections (each 90 messages/s, under the default limit of 100)
# Only 127.0.0.1 is used. Every program stops by itself (the server is stopped with SIGTERM).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-attack}
dur=${DUR:-20}
bots=${BOTS:-20}
conns=${CONNS:-1}
work=$(mktemp -d /tmp/attackbench.XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
cmake --build "$build" --target mazerace-server mazerace-bot mazerace-attack -j2 >/dev/null
srv_bin=${SERVER:-$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)}
bot_bin=${BOT:-$(find "$build" -name mazerace-bot -type f -perm -u+x | head -1)}
atk_bin=$(find "$build" -name mazerace-attack -type f -perm -u+x | head -1)

run() { # label, attack (0/1)
  "$srv_bin" --config /dev/null --port 0 --no-discovery --log-level warn --stats >"$work/srv.out" 2>"$work/srv.err" &
  server_pid=$!
  local port=
  for _ in $(seq 1 100); do
    port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\)$/\1/p' "$work/srv.out")
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { echo "attack bench: the server did not start" >&2; exit 1; }
  local atk_pid=
  if [ "$2" = 1 ]; then
    "$atk_bin" --server "127.0.0.1:$port" --conns "$conns" --seconds $((dur + 20)) >"$work/atk.out" 2>&1 &
    atk_pid=$!
  fi
  echo "== $1 (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  "$bot_bin" --server "127.0.0.1:$port" --bots "$bots" --bench "$dur" --server-pid "$server_pid" --quiet \
    | grep -E "RESULT|ack|p99" || true
  if [ -n "$atk_pid" ]; then
    kill -TERM "$atk_pid" 2>/dev/null || true
    wait "$atk_pid" 2>/dev/null || true
    cat "$work/atk.out"
  fi
  kill -TERM "$server_pid"
  wait "$server_pid" || echo "server exit status $?"
  server_pid=
  grep -E "stats (max_step_us|gen_jobs|gen_cpu_us|gen_refused|cpu_s) " "$work/srv.out" | tr '\n' ' '
  echo
}

echo "== attack bench: server $srv_bin, $bots bots, ${dur} s, $conns attacking connection(s)"
run "bots alone" 0
run "bots beside the attack" 1
