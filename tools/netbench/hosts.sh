#!/usr/bin/env bash
# tools/netbench/hosts.sh: past one ENet host: K players (K/2 races) at RATE moves/s each against mazerace-server --hosts N, beside the raw ENet echo spread over N hosts (enet_echo_hosts.c) in the same run.
#
# Usage: tools/netbench/hosts.sh     (defaults: K=10000 players, RATE=2 moves/s, N=16 hosts (the server's own choice for 10,000), DUR=10 s)
#   K=10000 RATE=2 HOSTS=16 DUR=10 REPS=1  players, moves/s each, server hosts, window, repetitions
#   PER_SOCKET=  players per client socket (default K / HOSTS / 4: four client sockets per server
#                host, on consecutive ports, so each server host gets the same share: socket = port mod N)
#   SOCKBUF=16384  socket buffers (KiB) of every socket, both tools (past net.core.rmem_max as root)
#   WARMUP=2     seconds of the echo's traffic before its window (the bot's window opens once every
#                player races, after connecting, pairing and the countdown)
#   BUILD=dir    build directory (default build-netbench, RelWithDebInfo like run.sh)
#   SERVER_ARGS= extra mazerace-server flags
#   SCHED=batch  every program (the echo, the server, the bot) under SCHED_BATCH, both tools alike (run.sh)
# Prints each tool's lines, then RESULT lines and the ratios ours / echo (p50, p99, server CPU per move).
# Raises the open-file limit if it can. Only 127.0.0.1 is used; every program stops by itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-netbench}
k=${K:-10000}
rate=${RATE:-2}
hosts=${HOSTS:-16}
dur=${DUR:-10}
reps=${REPS:-1}
per=${PER_SOCKET:-$(((k + 4 * hosts - 1) / (4 * hosts)))}
sockbuf=${SOCKBUF:-16384}
warmup=${WARMUP:-2}
pace=$(awk -v r="$rate" 'BEGIN { printf "%d", 1000 / r }')
# shellcheck source=bench-server.sh
. "$root/tools/netbench/bench-server.sh"
nb_sched
ulimit -n 65536 2>/dev/null || true
work=$(mktemp -d /tmp/netbench-hosts.XXXXXX)
server_pid=
cleanup() { # SIGINT stops the server at once; SIGKILL after 5 s if it has not
  [ -z "$server_pid" ] || { kill -INT "$server_pid" 2>/dev/null && timeout 5 tail --pid="$server_pid" -f /dev/null; } ||
    kill -KILL "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building (echo in $work, mazerace RelWithDebInfo in $build)"
cc -O2 -std=c11 -Wall -Wextra -o "$work/enet_echo_hosts" "$root/tools/netbench/enet_echo_hosts.c" -lenet -lpthread
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null &&
  cmake --build "$build" --target mazerace-server mazerace-bot -j2 >/dev/null
srv_bin=$build/server/mazerace-server
bot_bin=$build/tools/bot/mazerace-bot

# n consecutive free UDP ports (the bot binds its sockets there): the first.
free_base() {
  python3 - "$1" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
for _ in range(200):
    base = random.randint(20000, 60000 - n)
    socks = []
    try:
        for i in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            socks.append(s)
            s.bind(("0.0.0.0", base + i))
        print(base)
        break
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
PY
}

results=$work/results.txt
: > "$results"
for rep in $(seq 1 "$reps"); do
  echo
  echo "== [$rep/$reps] enet_echo_hosts -k $k -r $rate -d $dur -H $hosts -c $per -b $sockbuf -w $warmup (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  "${sched[@]}" "$work/enet_echo_hosts" -k "$k" -r "$rate" -d "$dur" -H "$hosts" -c "$per" -b "$sockbuf" -w "$warmup" | tee -a "$results" || echo "hosts.sh: echo failed" >&2
  echo "== [$rep/$reps] mazerace-server --hosts $hosts + mazerace-bot --bench: $k players, $((k / 2)) races, $rate moves/s each (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  log=$work/server.log
  "${sched[@]}" "$srv_bin" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 --hosts "$hosts" \
    --max-clients "$k" --max-rooms $((k / 2 + 8)) --sockbuf "$sockbuf" --log-level warn --db none \
    --gen-rate 1000 --gen-burst 600000 --gen-queue 4096 ${SERVER_ARGS:-} >"$log" 2>&1 &
  server_pid=$!
  # Its port from the "listening on" line: up to 10 s, while it runs.
  port=
  tries=100
  while [ -z "$port" ] && [ $((tries -= 1)) -gt 0 ] && kill -0 "$server_pid" 2>/dev/null; do
    sleep 0.1
    port=$(awk -F: '/^listening on / { print $NF }' "$log" 2>/dev/null || true)
  done
  [ -n "$port" ] || { echo "hosts.sh: server did not start:" >&2; cat "$log" >&2; exit 1; }
  base=$(free_base $(((k + per - 1) / per)))
  "${sched[@]}" "$bot_bin" --server "127.0.0.1:$port" --bots "$k" --per-socket "$per" --local-port "$base" --bench "$dur" \
    --pace "$pace" --server-pid "$server_pid" --sockbuf "$sockbuf" --timeout $((dur + 120)) | tee -a "$results" ||
    echo "hosts.sh: bot bench failed" >&2
  kill -INT "$server_pid"
  wait "$server_pid" || echo "hosts.sh: server exited with $?" >&2
  server_pid=
done

echo
echo "== medians of $reps run(s); ratios ours / echo over the same $hosts hosts; scheduling policy: ${SCHED:-other}"
awk '
  function val(line, key,   i, n, f, kv) { n = split(line, f, " "); for (i = 1; i <= n; i++) { split(f[i], kv, "="); if (kv[1] == key) return kv[2] } return "" }
  function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  /^RESULT enet / { ne++; e50[ne] = val($0, "p50_us"); e99[ne] = val($0, "p99_us"); ecpu[ne] = val($0, "srv_us_per_echo") }
  /^RESULT net / { no++; o50[no] = val($0, "p50_us"); o99[no] = val($0, "p99_us"); ocpu[no] = val($0, "srv_us_per_echo"); odrop[no] = val($0, "srv_drops") }
  END {
    if (!ne || !no) { print "missing results"; exit 1 }
    a = med(e50, ne); b = med(e99, ne); c = med(ecpu, ne); x = med(o50, no); y = med(o99, no); z = med(ocpu, no)
    printf "echo:  p50 %.1f us  p99 %.1f us  server CPU %.2f us/move\n", a, b, c
    printf "ours:  p50 %.1f us  p99 %.1f us  server CPU %.2f us/move\n", x, y, z
    printf "RATIO hosts p50=%.2f p99=%.2f srv_cpu_per_move=%.2f\n", (a > 0 ? x / a : 0), (b > 0 ? y / b : 0), (c > 0 ? z / c : 0)
  }' "$results"
