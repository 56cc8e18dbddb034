#!/usr/bin/env bash
# tools/netbench/run.sh: the network bench: raw ENet echo (baselines/enet_echo) and mazerace-bot --bench against the real mazerace-server, one after the other in one run, side by side.
#
# Usage: tools/netbench/run.sh            (both loads: 2 clients and 1000 clients, 20 moves/s each)
#   DUR=5      measurement window in seconds (default 5)
#   LOADS="2 1000"  client counts to run (each pairs into K/2 matches)
#   BUILD=dir  build directory (default build-netbench; configured RelWithDebInfo, -O2 like the baselines)
#   BASELINES=dir  the baselines' sources (default ../shared/baselines next to the repo, or /work/shared/baselines)
# Only 127.0.0.1 is used. Every program stops by itself (the server is stopped with SIGTERM).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-netbench}
dur=${DUR:-5}
loads=${LOADS:-"2 1000"}
rate=20
bl_src=${BASELINES:-}
if [ -z "$bl_src" ]; then
  for d in "$root/../shared/baselines" /work/shared/baselines; do
    [ -f "$d/enet_echo.c" ] && bl_src=$d && break
  done
fi
[ -n "$bl_src" ] && [ -f "$bl_src/enet_echo.c" ] || { echo "netbench: cannot find baselines/enet_echo.c (set BASELINES)" >&2; exit 2; }

work=$(mktemp -d /tmp/netbench.XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== netbench: building (baselines in $work, mazerace in $build)"
cc -O2 -std=c11 -Wall -Wextra -o "$work/enet_echo" "$bl_src/enet_echo.c" -lenet -lpthread
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
cmake --build "$build" --target mazerace-server mazerace-bot -j2 >/dev/null
srv_bin=$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)
bot_bin=$(find "$build" -name mazerace-bot -type f -perm -u+x | head -1)

results=$work/results.txt
: > "$results"

run_ours() { # k
  local k=$1 log=$work/server-$1.log port
  local cap=$((k + 8)) rooms=$((k / 2 + 8))
  # Same socket buffers and peer capacity as enet_echo -b 4096 -k K (+8 slots).
  "$srv_bin" --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 --max-clients "$cap" \
    --max-rooms "$rooms" --sockbuf 4096 --log-level warn >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\)$/\1/p' "$log")
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "netbench: server did not start:" >&2; cat "$log" >&2; exit 1; }
  "$bot_bin" --server "127.0.0.1:$port" --bots "$k" --bench "$dur" --pace $((1000 / rate)) \
    --server-pid "$server_pid" --sockbuf 4096 --timeout $((dur + 60)) | tee -a "$results" || echo "netbench: bot bench k=$k failed" >&2
  kill -TERM "$server_pid"
  wait "$server_pid" || echo "netbench: server exited with $?" >&2
  server_pid=
}

for k in $loads; do
  echo
  echo "== enet_echo -k $k -r $rate -d $dur -b 4096 (raw ENet floor)"
  "$work/enet_echo" -k "$k" -r "$rate" -d "$dur" -b 4096 | tee -a "$results"
  if [ "$k" -le 2 ]; then
    echo "== enet_echo -k $k -r $rate -d $dur (ENet default buffers)"
    "$work/enet_echo" -k "$k" -r "$rate" -d "$dur" | tee -a "$results"
  fi
  echo "== mazerace-server + mazerace-bot --bench: $k players, $((k / 2)) matches, $rate moves/s each"
  run_ours "$k"
done

echo
echo "== side by side (ratios ours / enet_echo with the same K and rate; 4096 KiB buffers)"
awk -v rate="$rate" '
  function val(line, key,   i, n, kv) { n = split(line, f, " "); for (i = 1; i <= n; i++) { split(f[i], kv, "="); if (kv[1] == key) return kv[2] } return "" }
  /^RESULT enet rate/ { cfg = $3; sub(/^rate[0-9.]*_k/, "", cfg); if (cfg ~ /_buf4096K$/) { sub(/_buf4096K$/, "", cfg); echo[cfg] = $0 } else if (!(cfg in plain)) plain[cfg] = $0 }
  /^RESULT net rate/ { cfg = $3; sub(/^rate[0-9.]*_k/, "", cfg); net[cfg] = $0 }
  END {
    printf "%-6s %-10s %10s %10s %10s %10s %12s %10s %10s\n", "K", "", "p50_us", "p99_us", "max_us", "msgs/s", "srv_us/move", "srv_drops", "cli_drops"
    for (k in net) {
      e = (k in echo) ? echo[k] : plain[k]
      if (e == "") continue
      printf "%-6s %-10s %10s %10s %10s %10s %12s %10s %10s\n", k, "enet_echo", val(e, "p50_us"), val(e, "p99_us"), val(e, "max_us"), val(e, "msgs_per_s"), val(e, "srv_us_per_echo"), val(e, "srv_drops"), val(e, "cli_drops")
      n = net[k]
      printf "%-6s %-10s %10s %10s %10s %10s %12s %10s %10s\n", k, "mazerace", val(n, "p50_us"), val(n, "p99_us"), val(n, "max_us"), val(n, "msgs_per_s"), val(n, "srv_us_per_echo"), val(n, "srv_drops"), val(n, "cli_drops")
      r50 = val(e, "p50_us") > 0 ? val(n, "p50_us") / val(e, "p50_us") : 0
      r99 = val(e, "p99_us") > 0 ? val(n, "p99_us") / val(e, "p99_us") : 0
      rcpu = val(e, "srv_us_per_echo") > 0 ? val(n, "srv_us_per_echo") / val(e, "srv_us_per_echo") : 0
      printf "RATIO net_vs_enet k=%s p50=%.2f p99=%.2f srv_cpu_per_move=%.2f answered=%s sent=%s\n", k, r50, r99, rcpu, val(n, "answered"), val(n, "sent")
    }
  }' "$results"
