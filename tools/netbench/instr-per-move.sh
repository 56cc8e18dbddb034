#!/usr/bin/env bash
# tools/netbench/instr-per-move.sh: the server's instructions per move, counted by callgrind (a load-independent
# figure, unlike CPU time on a shared machine). Runs mazerace-server under valgrind --tool=callgrind, counting
# only inside sv_service (the game loop: startup and the generation threads are left out), drives it with
# mazerace-bot --bench (fixed --bot-seed) and prints per validated move: instructions in sv_service, in
# enet_host_service (ENet's socket reads, sends and peer walks), the rest (the server's own work), the
# enet_host_flush calls, the datagrams in and out (stats udp_in / udp_out) and the ghost delay.
# Usage: tools/netbench/instr-per-move.sh BOTS PACE_MS WINDOW_S [server flags...]
#   e.g. 20 50 10 (20 moves/s per player), 200 2000 20 (human pace), 20 50 10 --progress-hold 0
# BUILD=dir as for run.sh (default build-netbench). Needs valgrind.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-netbench}
[ $# -ge 3 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
bots=$1 pace=$2 win=$3
shift 3
for v in "$bots" "$pace" "$win"; do
  case $v in '' | *[!0-9]*) echo "instr-per-move: '$v' is not a number" >&2; exit 2 ;; esac
done
command -v valgrind >/dev/null || { echo "instr-per-move: valgrind is not installed" >&2; exit 2; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
cmake --build "$build" --target mazerace-server mazerace-bot -j2 >/dev/null
srv=$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)
bot=$(find "$build" -name mazerace-bot -type f -perm -u+x | head -1)
work=$(mktemp -d /tmp/instr-per-move.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -INT $pid 2>/dev/null; rm -rf "$work"' EXIT
valgrind --tool=callgrind --toggle-collect=sv_service --callgrind-out-file="$work/cg.out" \
  "$srv" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 \
  --max-clients $((bots + 8)) --max-rooms $((bots / 2 + 8)) --sockbuf 4096 --log-level warn --db none \
  --gen-rate 1000 --gen-burst 600000 --gen-queue 4096 --stats "$@" >"$work/server.out" 2>"$work/server.log" &
pid=$!
port=
for _ in $(seq 1 300); do
  port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\)$/\1/p' "$work/server.out" 2>/dev/null || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "instr-per-move: the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
"$bot" --server "127.0.0.1:$port" --bots "$bots" --bench "$win" --pace "$pace" --bot-seed 7 --timeout 300 \
  --server-pid "$pid" >"$work/bot.out" 2>&1 || { echo "instr-per-move: the bench failed:" >&2; tail "$work/bot.out" >&2; exit 1; }
kill -INT $pid
wait $pid || true
pid=
callgrind_annotate --inclusive=yes "$work/cg.out" >"$work/incl.txt" 2>/dev/null
stat() { sed -n "s/^stats $1 //p" "$work/server.out"; }
moves=$(stat moves_validated)
[ "${moves:-0}" -gt 0 ] || { echo "instr-per-move: no moves validated" >&2; exit 1; }
total=$(grep -m1 'PROGRAM TOTALS' "$work/incl.txt" | awk '{print $1}' | tr -d ,)
enet=$(grep -m1 -E '[?]{3}:enet_host_service ' "$work/incl.txt" | awk '{print $1}' | tr -d ,)
flushes=$(grep -E '=> [?]{3}:enet_host_flush' "$work/incl.txt" | grep -o '([0-9,]*x)' | tr -d '(),x' |
  awk '{s += $1} END {print s + 0}')
ghost=$(grep -o 'ghost_p50_us=[0-9.]* ghost_p99_us=[0-9.]*' "$work/bot.out" || true)
echo "RESULT instr bots=$bots pace_ms=$pace moves=$moves steps=$(stat steps) ir_per_move=$((total / moves))" \
  "enet_service_per_move=$((${enet:-0} / moves)) own_per_move=$(((total - ${enet:-0}) / moves)) flushes=$flushes" \
  "udp_in_per_move=$(awk -v a="$(stat udp_in)" -v m="$moves" 'BEGIN {printf "%.2f", a / m}')" \
  "udp_out_per_move=$(awk -v a="$(stat udp_out)" -v m="$moves" 'BEGIN {printf "%.2f", a / m}') $ghost"
