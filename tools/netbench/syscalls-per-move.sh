#!/usr/bin/env bash
# tools/netbench/syscalls-per-move.sh: the server's system calls, context switches, loop steps and datagrams per
# validated move: load-independent figures beside instr-per-move.sh's instruction count (a server that wakes,
# sends or reads more per move costs more kernel CPU and round trip, which userland instruction counts miss).
# Runs mazerace-server (no valgrind), drives it with mazerace-bot --bench, waits until every bot races, then
# counts over WINDOW_S seconds: system calls by kind (perf stat on the syscall tracepoints), context switches and
# CPU time of every thread (/proc/PID/task/*/status, schedstat) and the server's stats deltas (moves_validated,
# steps, udp_in, udp_out). cpu_us_per_move is a timing (load-dependent); the counts are not.
# Usage: tools/netbench/syscalls-per-move.sh BOTS PACE_MS WINDOW_S [server flags...]
#   e.g. 2 50 10 (one match, 20 moves/s per player), 1000 50 5
# BUILD=dir as for run.sh (default build-netbench); NO_BUILD=1 uses it as it is (e.g. an old commit's build);
# BOT=path: another mazerace-bot; BOT_ARGS: more of its flags; KEEP=1 keeps the work directory (perf stat
# output, server output).
# Needs perf (as root, or perf_event_paranoid <= 1 for the syscall tracepoints).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bench-server.sh
. "$root/tools/netbench/bench-server.sh"
nb_init 12 perf syscalls-per-move "$@"
shift 3
nb_start_server -- "$@"
# The bench runs longer than the window: the count starts once every match races.
nb_start_bench "$bots" "$pace" $((win + 60))
nb_wait_racing "$bots"
# One window of counters: perf stat counts each system call kind at its tracepoint (no record per
# call, so the server runs at its own speed, unlike under strace or perf trace), context switches,
# and the CPU time of each thread (/proc/PID/task/*/schedstat, in ns).
calls="recvmsg sendmsg recvfrom sendto recvmmsg sendmmsg poll ppoll epoll_wait epoll_pwait read write futex"
calls="$calls clock_nanosleep clock_gettime getrandom brk mmap munmap madvise openat close ioctl"
ev=task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter
for c in $calls; do
  [ -e "/sys/kernel/tracing/events/syscalls/sys_enter_$c" ] || [ -e "/sys/kernel/debug/tracing/events/syscalls/sys_enter_$c" ] &&
    ev="$ev,syscalls:sys_enter_$c"
done
sched() { for t in /proc/$pid/task/*; do echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat") $(awk '/^voluntary_ctxt/ {v = $2} /^nonvoluntary_ctxt/ {n = $2} END {print v, n}' "$t/status")"; done; }
nb_snap "$work/s0"
sched >"$work/r0"
perf stat -x, -o "$work/stat.txt" -e "$ev" -p $pid -- sleep "$win" >/dev/null 2>&1 ||
  { echo "syscalls-per-move: perf stat failed:" >&2; cat "$work/stat.txt" >&2; exit 1; }
sched >"$work/r1"
nb_snap "$work/s1"
kill $botpid 2>/dev/null || true
wait $botpid 2>/dev/null || true
botpid=
d() { echo $(($(nb_val "$work/s1" "$1") - $(nb_val "$work/s0" "$1"))); }
moves=$(d moves_validated)
[ "$moves" -gt 0 ] || { echo "syscalls-per-move: no moves validated in the window" >&2; exit 1; }
per() { awk -v a="$1" -v m="$moves" 'BEGIN {printf "%.2f", a / m}'; }
count() { awk -F, -v e="$1" '$3 == e {print ($1 ~ /^[0-9.]+$/ ? $1 : 0)}' "$work/stat.txt"; }
echo "== $moves moves in ${win} s; per move: system calls by kind (every thread)"
for c in $calls; do
  n=$(count "syscalls:sys_enter_$c")
  [ -n "$n" ] && [ "$n" != 0 ] && printf '  %-16s %8.3f\n' "$c" "$(per "$n")"
done
echo "== per thread: CPU us, voluntary and involuntary context switches per move"
join <(sort "$work/r0") <(sort "$work/r1") | awk -v m="$moves" \
  '{printf "  tid %-8s cpu_us=%-8.2f vcs=%-7.3f ivcs=%.3f\n", $1, ($5 - $2) / 1000 / m, ($6 - $3) / m, ($7 - $4) / m}'
cpu=$(join <(sort "$work/r0") <(sort "$work/r1") | awk '{s += $5 - $2} END {print s / 1000}')
threads=$(join <(sort "$work/r0") <(sort "$work/r1") | awk '$5 > $2 {n++} END {print n + 0}')
echo "RESULT syscalls bots=$bots pace_ms=$pace moves=$moves syscalls_per_move=$(per "$(count raw_syscalls:sys_enter)")" \
  "ctxsw_per_move=$(per "$(count context-switches)") steps_per_move=$(per "$(d steps)")" \
  "udp_in_per_move=$(per "$(d udp_in)") udp_out_per_move=$(per "$(d udp_out)") threads_awake=$threads" \
  "cpu_us_per_move=$(per "$cpu")"
