#!/usr/bin/env bash
# tools/netbench/instr-per-move.sh: the server's instructions per move, counted by callgrind (a load-independent
# figure, unlike CPU time on a shared machine). Runs mazerace-server under valgrind --tool=callgrind, drives it
# with mazerace-bot --bench (fixed --bot-seed), and once every match races counts WINDOW_S seconds
# (callgrind_control --zero, then --dump): startup and the matches' setup are left out. Prints per
# validated move in that window: instructions in the game loop (sv_service), in enet_host_service (ENet's
# socket reads, sends and peer walks), the rest of the loop (the server's own work), in the whole process (every
# thread: the loop's caller, the spectator host, generation, store), the enet_host_flush calls, the datagrams
# in and out (stats udp_in / udp_out) and the ghost delay.
# Usage: tools/netbench/instr-per-move.sh BOTS PACE_MS WINDOW_S [server flags...]
#   e.g. 20 50 10 (20 moves/s per player), 200 2000 20 (human pace), 20 50 10 --progress-hold 0
# BUILD=dir as for run.sh (default build-netbench); NO_BUILD=1 uses it as it is (e.g. an old commit's build,
# whose server lacks some flags: they are left out); BOT=path: another mazerace-bot; KEEP=1 keeps the work
# directory; BOT_ARGS: more mazerace-bot flags (e.g. "--spectators 2 --spectator-thread"). Needs valgrind.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bench-server.sh
. "$root/tools/netbench/bench-server.sh"
nb_init 14 valgrind instr-per-move "$@"
shift 3
nb_start_server valgrind --tool=callgrind --separate-threads=yes --compress-strings=no --compress-pos=no \
  --callgrind-out-file="$work/cg.out" -- "$@"
# The bench's own window (its ghost delay figures) starts when every bot races, as ours does, and ends
# a little after ours.
nb_start_bench "$bots" "$pace" $((win + 3))
nb_wait_racing "$bots"
nb_snap "$work/s0"
callgrind_control -z $pid >/dev/null 2>&1
sleep "$win"
callgrind_control -d $pid >/dev/null 2>&1
nb_snap "$work/s1"
wait $botpid || { echo "instr-per-move: the bench failed:" >&2; tail "$work/bot.out" >&2; exit 1; }
botpid=
kill -INT $pid
wait $pid || true
pid=
# One dump per thread (--separate-threads): -01 is the main thread, the game loop's.
[ -f "$work/cg.out.1-01" ] || { echo "instr-per-move: callgrind wrote no dump" >&2; exit 1; }
callgrind_annotate --inclusive=yes "$work/cg.out.1-01" >"$work/incl.txt" 2>/dev/null
d() { echo $(($(nb_val "$work/s1" "$1") - $(nb_val "$work/s0" "$1"))); }
moves=$(d moves_validated)
[ "$moves" -gt 0 ] || { echo "instr-per-move: no moves validated" >&2; exit 1; }
incl() { # function: its inclusive count (0 if it never ran)
  awk -v f="$1" '{n = $1; gsub(/,/, "", n)} n ~ /^[0-9]+$/ && index($0, ":" f " [") {print n; exit}' "$work/incl.txt"
}
total=$(cat "$work"/cg.out.1-* | awk '/^summary:/ {s += $2} END {print s + 0}')
# GCC may split the loop (sv_service.part.0) and call the part straight from sv_run.
loop=$(incl sv_service)
part=$(incl sv_service.part.0)
[ "${part:-0}" -le "${loop:-0}" ] || loop=$part
enet=$(incl enet_host_service)
flushes=$(awk '/=> [?][?][?]:enet_host_flush/ && match($0, /\([0-9,]+x\)/) {
  c = substr($0, RSTART + 1, RLENGTH - 3); gsub(/,/, "", c); s += c } END {print s + 0}' "$work/incl.txt")
ghost=$(grep -o 'ghost_p50_us=[0-9.]* ghost_p99_us=[0-9.]*' "$work/bot.out" || true)
per() { awk -v a="${1:-0}" -v m="$moves" 'BEGIN {printf "%.2f", a / m}'; }
echo "RESULT instr bots=$bots pace_ms=$pace moves=$moves steps=$(d steps) ir_per_move=$((${loop:-0} / moves))" \
  "enet_service_per_move=$((${enet:-0} / moves)) own_per_move=$(((${loop:-0} - ${enet:-0}) / moves))" \
  "process_ir_per_move=$((${total:-0} / moves)) flushes=$flushes udp_in_per_move=$(per "$(d udp_in)")" \
  "udp_out_per_move=$(per "$(d udp_out)") $ghost"
