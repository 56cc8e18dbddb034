#!/usr/bin/env bash
# tools/netbench/run.sh: the network bench: raw ENet echo (baselines/enet_echo) and mazerace-bot --bench against the real mazerace-server, one after the other in one run, side by side.
#
# Usage: tools/netbench/run.sh            (both loads: 2 clients and 1000 clients, 20 moves/s each)
#   DUR=5      measurement window in seconds for K > 10 (default 5)
#   SMALL_DUR=15  window for K <= 10 (default 15: 600 samples at K = 2, so the p50 and p99 settle)
#   REPS=1     runs of each pair (enet_echo, then ours); the table shows medians
#   LOADS="2 1000"  client counts to run (each pairs into K/2 matches)
#   BUILD=dir  build directory (default build-netbench; configured RelWithDebInfo, -O2 like the baselines)
#   BASELINES=dir  the baselines' sources (default ../shared/baselines next to the repo, or /work/shared/baselines)
#   SERVER_ARGS="--progress-hold 0"  extra mazerace-server flags
#   SCRAPE=1   serve metrics (--metrics 127.0.0.1:0) and scrape /metrics once a second during our runs
#   SCRAPER=bash|python  the scraper: bash (default: /dev/tcp, but a `cat` and a `sleep` process are
#              started every second) or one python3 process that never forks (like a Prometheus
#              scraping from another host, which costs this machine nothing but the HTTP exchange)
#   SCRAPE_PATH=/metrics  what it asks for (/healthz: the same traffic without rendering the metrics)
#   PAIRED="ARGS"  each repetition also runs the server a second time with these extra flags
#              (SCRAPE=1 scrapes only that second run); the table gets a "mazerace+B" row and
#              B/A ratios, each pair run back to back under the same machine load
#   PAIRED_ORDER=alternate  even repetitions run B before A (no side always runs second)
#              Save the output: tools/netbench/compare.py B.txt --control AA.txt says whether B/A is
#              within noise of an A/A control (the same bench with PAIRED=)
#   AGONES=1   start the mock Agones SDK sidecar (tests/agones/mock_sdk.py) and point every run whose
#              flags include --agones at it (AGONES_SDK_HTTP_PORT); e.g. AGONES=1 PAIRED=--agones
#              runs each repetition plain (A) and as an Agones GameServer (B); the mock's call counts
#              are printed at the end
#   MOCK_IDLE=1  run that mock at CPU policy SCHED_IDLE: it stands in for a sidecar with a CPU of its
#              own, so it only gets cores the server and the bots leave idle (with
#              MR_PG_IDLE=1 tests/store/pg_harness.sh run ..., the same for a PostgreSQL server
#              that stands in for a database on another machine; docs/performance-net.md)
#   CHURN=N    also run N more bots (N/2 rooms) racing short games (8x8 mazes, one after the other) during
#              our runs, so that games end and match records are written while the bench measures
#              (pair with PAIRED="--db PATH" to compare the database on and off)
#   PAIRED_BOT="--spectators 2"  extra mazerace-bot flags for run B (with PAIRED unset, run B has
#              no extra server flags): e.g. spectators watching every match. Both runs then get the
#              same --max-clients, sized for the spectators (two places each: one following WATCH_AT
#              counts twice for a moment), so only the spectators differ
#   BOT_ARGS="--spectators 2 --spectator-thread"  extra mazerace-bot flags for every run of ours (A and B):
#              e.g. spectators in both runs, with PAIRED="--spectator-port off" putting them on the game
#              port in run B (a server with a spectator port sends them there: WATCH_AT, which the bots
#              follow; the spectators: line of each run says at which server port they watched)
#   SCHED=batch  start every program of the bench (enet_echo, the server, the bots) under SCHED_BATCH
#              (chrt --batch 0), both tools alike: no wake-up preemption, so a load generator woken by a
#              datagram does not take the CPU from the server in the middle of its step (clients on
#              other machines never do; docs/performance-net.md, "Co-located clients"). Default: the
#              normal policy (SCHED_OTHER), as every figure before 2026-11-29 13:40 UTC was measured
#   STEAL_MAX=3    repeat a repetition (enet_echo and ours alike, up to STEAL_TRIES=4 times) while
#                  any of its runs had more CPU steal than this many per cent; the runs set aside are
#                  listed at the end (default: keep every run)
# Every bot connects from 127.0.0.1, so the server's per-address generation budget (--gen-rate,
# --gen-burst, --gen-queue; docs/reliability.md) is raised to fit 1000 players from one address;
# SERVER_ARGS come after and can set it back. The server keeps no match records (--db none) unless
# SERVER_ARGS or PAIRED name a database (--db PATH): a bench never writes into the operator's one.
# Only 127.0.0.1 is used. Every program stops by itself (the server is stopped with SIGINT: at once, not the drain of SIGTERM).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-netbench}
dur=${DUR:-5}
small_dur=${SMALL_DUR:-15}
steal_max=${STEAL_MAX:-}
steal_tries=${STEAL_TRIES:-4}
loads=${LOADS:-"2 1000"}
reps=${REPS:-1}
rate=20
bl_src=${BASELINES:-}
if [ -z "$bl_src" ]; then
  for d in "$root/../shared/baselines" /work/shared/baselines; do
    [ -f "$d/enet_echo.c" ] && bl_src=$d && break
  done
fi
[ -n "$bl_src" ] && [ -f "$bl_src/enet_echo.c" ] || { echo "netbench: cannot find baselines/enet_echo.c (set BASELINES)" >&2; exit 2; }

# The scheduling policy of every program of the bench (SCHED=batch), both tools alike.
# shellcheck source=bench-server.sh
. "$root/tools/netbench/bench-server.sh"
nb_sched
gen_budget="--gen-rate 1000 --gen-burst 600000 --gen-queue 4096"
work=$(mktemp -d /tmp/netbench.XXXXXX)
server_pid=
mock_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    # SIGINT stops it at once; one that has not installed its handler yet ignores SIGINT (a background
    # job's), so it gets SIGKILL after 5 s rather than leaving this script waiting.
    kill -INT "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$mock_pid" ] && kill -0 "$mock_pid" 2>/dev/null; then kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== netbench: building (baselines in $work, mazerace in $build)"
cc -O2 -std=c11 -Wall -Wextra -o "$work/enet_echo" "$bl_src/enet_echo.c" -lenet -lpthread
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
cmake --build "$build" --target mazerace-server mazerace-bot -j2 >/dev/null
srv_bin=$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)
bot_bin=$(find "$build" -name mazerace-bot -type f -perm -u+x | head -1)

mock_port=
if [ -n "${AGONES:-}" ]; then
  mock_idle=
  [ -n "${MOCK_IDLE:-}" ] && mock_idle="chrt --idle 0"
  $mock_idle python3 "$root/tests/agones/mock_sdk.py" --port-file "$work/mock.port" >"$work/mock.log" 2>&1 &
  mock_pid=$!
  for _ in $(seq 1 100); do
    [ -s "$work/mock.port" ] && break
    sleep 0.1
  done
  mock_port=$(cat "$work/mock.port" 2>/dev/null || true)
  [ -n "$mock_port" ] || { echo "netbench: the mock Agones sidecar did not start:" >&2; cat "$work/mock.log" >&2; exit 1; }
  echo "== mock Agones SDK sidecar on 127.0.0.1:$mock_port (runs with --agones use it)"
fi

results=$work/results.txt
attempt=$work/attempt.txt # one repetition's RESULT lines, until it is kept or set aside
set_aside=$work/set-aside.txt
: > "$results"
: > "$set_aside"

# CPU steal: the share of the machine's CPU time that the hypervisor gave to
# other guests while a program ran (/proc/stat). On a shared VM it is what
# sets the latency tail, so every run reports it.
ticks() { awk '/^cpu /{t=0; for (i = 2; i <= 9 && i <= NF; i++) t += $i; print t, (NF >= 9 ? $9 : 0); exit}' /proc/stat; }
steal_since() { # "total steal" at the start
  local now
  now=$(ticks)
  awk -v a="$1" -v b="$now" 'BEGIN { split(a, x, " "); split(b, y, " "); d = y[1] - x[1]; printf "%.1f", (d > 0 ? 100 * (y[2] - x[2]) / d : -1) }'
}

run_echo() { # enet_echo arguments; its RESULT line gets the run's steal_pct
  local t0 out=$work/echo.out
  t0=$(ticks)
  "${sched[@]}" "$work/enet_echo" "$@" > "$out"
  local st
  st=$(steal_since "$t0")
  cat "$out"
  echo "  CPU steal (hypervisor) during the run: $st% of the machine's CPU time"
  awk -v st="$st" '/^RESULT/ { $0 = $0 " steal_pct=" st } { print }' "$out" >> "$attempt"
}

paired=
[ -n "${PAIRED+x}" ] || [ -n "${PAIRED_BOT:-}" ] && paired=1
# Spectators per match asked for by PAIRED_BOT (--spectators N), for the peer capacity.
spect=$(printf '%s\n' "${PAIRED_BOT:-} ${BOT_ARGS:-}" | sed -n 's/.*--spectators[ =]\([0-9]*\).*/\1/p')
spect=${spect:-0}

run_ours() { # k window [variant-flags [bot-flags]]: the variant's RESULT lines are tagged "netB"
  local k=$1 d=$2 log=$work/server-$1.log port variant=${3-} botflags=${4-} scrape=${SCRAPE:-}
  [ -n "$paired" ] && [ -z "$variant" ] && scrape= # paired: only run B is scraped
  # Each spectator twice: one that follows WATCH_AT to the spectator port
  # holds its game-port connection for a moment too (docs/server.md).
  local cap=$((k + k * spect + 8 + ${CHURN:-0})) rooms=$((k / 2 + 8 + ${CHURN:-0} / 2))
  # Same socket buffers and peer capacity as enet_echo -b 4096 -k K (+8 slots).
  local agones_env=
  case " ${SERVER_ARGS:-} $variant " in *" --agones "*) [ -n "$mock_port" ] && agones_env="AGONES_SDK_HTTP_PORT=$mock_port" ;; esac
  "${sched[@]}" env $agones_env "$srv_bin" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 --max-clients "$cap" \
    --max-rooms "$rooms" --sockbuf 4096 --log-level warn --db none $gen_budget ${scrape:+--metrics 127.0.0.1:0} ${SERVER_ARGS:-} $variant >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    # The log may not exist yet (the background job has not opened it): no errexit for that.
    port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\)$/\1/p' "$log" 2>/dev/null || true)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "netbench: server did not start:" >&2; cat "$log" >&2; exit 1; }
  if [ -n "$agones_env" ]; then
    grep -q '^agones sdk at ' "$log" || { echo "netbench: --agones given but the server did not start it:" >&2; cat "$log" >&2; exit 1; }
    echo "  (Agones on: SDK sidecar mock at 127.0.0.1:$mock_port)"
  fi
  local scraper=
  if [ -n "$scrape" ]; then
    local mport path=${SCRAPE_PATH:-/metrics}
    mport=$(sed -n 's|^metrics on http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$log")
    [ -n "$mport" ] || { echo "netbench: no metrics port:" >&2; cat "$log" >&2; exit 1; }
    if [ "${SCRAPER:-bash}" = python ]; then
      # One process, no forks: GET once a second until the server is gone.
      python3 - "$mport" "$path" "$server_pid" "$work/scrapes-$k" <<'PY' &
import os, socket, sys, time
port, path, pid, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(out, "a") as log:
    while True:
        try:
            os.kill(pid, 0)
        except OSError:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
                c.sendall(("GET %s HTTP/1.0\r\n\r\n" % path).encode())
                while c.recv(65536):
                    pass
        except OSError:
            pass
        log.write("scrape\n")
        log.flush()
        time.sleep(1)
PY
    else
      # A Prometheus-like scraper: one GET a second (bash's /dev/tcp, no curl needed).
      (while kill -0 "$server_pid" 2>/dev/null; do
        { exec 3<>"/dev/tcp/127.0.0.1/$mport" && printf 'GET %s HTTP/1.0\r\n\r\n' "$path" >&3 && cat <&3 >/dev/null; exec 3>&-; } 2>/dev/null
        echo scrape >>"$work/scrapes-$k"
        sleep 1
      done) &
    fi
    scraper=$!
  fi
  local churn=
  if [ -n "${CHURN:-}" ]; then
    "${sched[@]}" "$bot_bin" --server "127.0.0.1:$port" --bots "$CHURN" --kind maze --size 8x8 --difficulty easy --pace 50 \
      --matches 100000 --name churn --quiet --timeout $((d + 120)) >"$work/churn-$k.log" 2>&1 &
    churn=$!
  fi
  "${sched[@]}" "$bot_bin" --server "127.0.0.1:$port" --bots "$k" --bench "$d" --pace $((1000 / rate)) \
    --server-pid "$server_pid" --sockbuf 4096 --timeout $((d + 60)) ${BOT_ARGS:-} $botflags |
    if [ -n "$variant" ]; then sed -u 's/^RESULT net /RESULT netB /'; else cat; fi | tee -a "$attempt" ||
    echo "netbench: bot bench k=$k failed" >&2
  if [ -n "$churn" ]; then
    kill -INT "$churn" 2>/dev/null || true
    wait "$churn" 2>/dev/null || true
    echo "  churn: $(grep -h '^summary' "$work/churn-$k.log" | tail -1)"
  fi
  kill -INT "$server_pid"
  wait "$server_pid" || echo "netbench: server exited with $?" >&2
  server_pid=
  if [ -n "$scraper" ]; then
    wait "$scraper" 2>/dev/null || true
    echo "  metrics scrapes during the run: $(wc -l <"$work/scrapes-$k")"
    rm -f "$work/scrapes-$k"
  fi
}

for k in $loads; do
  d=$dur
  [ "$k" -le 10 ] && d=$small_dur
  for rep in $(seq 1 "$reps"); do
    for try in $(seq 1 "$steal_tries"); do
      : > "$attempt"
      echo
      echo "== [$rep/$reps] enet_echo -k $k -r $rate -d $d -b 4096 (raw ENet floor)"
      run_echo -k "$k" -r "$rate" -d "$d" -b 4096
      if [ "$k" -le 2 ]; then
        echo "== [$rep/$reps] enet_echo -k $k -r $rate -d $d (ENet default buffers)"
        run_echo -k "$k" -r "$rate" -d "$d"
      fi
      # PAIRED_ORDER=alternate: even repetitions run B first, so a load that
      # rises or falls during the batch does not always favour one side.
      order="A B"
      [ -n "$paired" ] && [ "${PAIRED_ORDER:-}" = alternate ] && [ $((rep % 2)) -eq 0 ] && order="B A"
      for side in $order; do
        if [ "$side" = A ]; then
          echo "== [$rep/$reps] mazerace-server + mazerace-bot --bench: $k players, $((k / 2)) matches, $rate moves/s each"
          run_ours "$k" "$d"
        elif [ -n "$paired" ]; then
          echo "== [$rep/$reps] the same, run B: extra flags '${PAIRED:-}', bot flags '${PAIRED_BOT:-}'${SCRAPE:+, scraped once a second (${SCRAPER:-bash} scraper, ${SCRAPE_PATH:-/metrics})}"
          run_ours "$k" "$d" "${PAIRED:- }" "${PAIRED_BOT:-}"
        fi
      done
      # Keep the repetition unless STEAL_MAX is set, one of its runs had
      # more steal than that, and tries are left; both tools alike.
      worst=$(awk '/^RESULT/ { for (i = 1; i <= NF; i++) if ($i ~ /^steal_pct=/) { v = substr($i, 11) + 0; if (v > m) m = v } } END { printf "%.1f", m + 0 }' "$attempt")
      if [ -n "$steal_max" ] && [ "$try" -lt "$steal_tries" ] && awk -v w="$worst" -v m="$steal_max" 'BEGIN { exit !(w > m) }'; then
        echo "== [$rep/$reps] set aside: $worst% steal in this repetition (STEAL_MAX=$steal_max); running it again"
        cat "$attempt" >> "$set_aside"
        continue
      fi
      cat "$attempt" >> "$results"
      break
    done
  done
done

echo
echo "== side by side: medians of $reps run(s); ratios are ours / enet_echo (same K and rate; enet_echo"
echo "   with -b 4096 like our server and bots; for K <= 2 also ENet's default buffers); every program's"
echo "   scheduling policy: ${SCHED:-other}"
awk '
  function val(line, key,   i, n, f, kv) { n = split(line, f, " "); for (i = 1; i <= n; i++) { split(f[i], kv, "="); if (kv[1] == key) return kv[2] } return "" }
  function add(tool, k, line,   j, key) {
    runs[tool, k]++; ks[k] = 1
    nall++; all_tool[nall] = tool; all_k[nall] = k; all_steal[nall] = val(line, "steal_pct") + 0
    all_line[nall] = sprintf("p50 %9.1f us   p99 %9.1f us   steal %5s%%", val(line, "p50_us") + 0, val(line, "p99_us") + 0, val(line, "steal_pct") == "" ? "?" : val(line, "steal_pct"))
    for (j = 1; j <= nkeys; j++) { key = keys[j]; v[tool, k, key, runs[tool, k]] = val(line, key) + 0 }
    # Client CPU per round trip (all K clients on one host, one thread), from the share of a core.
    rps = val(line, "rt_per_s") + 0
    v[tool, k, "cli_us", runs[tool, k]] = rps > 0 ? (val(line, "cli_cpu_pct") + 0) * 1e4 / rps : 0
  }
  function toolname(tool) { return tool == "oursB" ? "mazerace+B" : tool == "ours" ? "mazerace" : tool == "echo" ? "enet_echo -b 4096" : "enet_echo" }
  function median(tool, k, key,   n, i, j, a, t) {
    n = runs[tool, k]; if (!n) return -1
    for (i = 1; i <= n; i++) a[i] = v[tool, k, key, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  BEGIN { nkeys = split("p50_us p99_us max_us msgs_per_s srv_us_per_echo cli_us srv_drops cli_drops sent answered steal_pct", keys, " ") }
  /^RESULT enet rate/ { cfg = $3; sub(/^rate[0-9.]*_k/, "", cfg); if (cfg ~ /_buf4096K$/) { sub(/_buf4096K$/, "", cfg); add("echo", cfg, $0) } else add("echo_defbuf", cfg, $0) }
  /^RESULT net rate/ { cfg = $3; sub(/^rate[0-9.]*_k/, "", cfg); add("ours", cfg, $0) }
  /^RESULT netB rate/ { cfg = $3; sub(/^rate[0-9.]*_k/, "", cfg); add("oursB", cfg, $0) }
  END {
    printf "%-6s %-18s %10s %10s %10s %10s %12s %12s %10s %10s %8s\n", "K", "", "p50_us", "p99_us", "max_us", "msgs/s", "srv_us/move", "cli_us/move", "srv_drops", "cli_drops", "steal%"
    split("echo echo_defbuf ours oursB", tools, " ")
    for (k in ks) {
      for (t = 1; t <= 4; t++) {
        tool = tools[t]; if (!runs[tool, k]) continue
        name = toolname(tool)
        printf "%-6s %-18s %10.1f %10.1f %10.1f %10.0f %12.2f %12.2f %10d %10d %8.1f\n", k, name, median(tool, k, "p50_us"), median(tool, k, "p99_us"), median(tool, k, "max_us"), median(tool, k, "msgs_per_s"), median(tool, k, "srv_us_per_echo"), median(tool, k, "cli_us"), median(tool, k, "srv_drops"), median(tool, k, "cli_drops"), median(tool, k, "steal_pct")
      }
      for (t = 1; t <= 3; t++) {
        base = tools[t]; if (!runs[base, k] || !runs["ours", k]) continue
        ours = "ours"
        if (base == "ours") { if (!runs["oursB", k]) continue; ours = "oursB" }
        e50 = median(base, k, "p50_us"); e99 = median(base, k, "p99_us"); ecpu = median(base, k, "srv_us_per_echo")
        r50 = 0; r99 = 0; rcpu = 0; rcli = 0
        if (median(base, k, "cli_us") > 0) rcli = median(ours, k, "cli_us") / median(base, k, "cli_us")
        if (e50 > 0) r50 = median(ours, k, "p50_us") / e50
        if (e99 > 0) r99 = median(ours, k, "p99_us") / e99
        if (ecpu > 0) rcpu = median(ours, k, "srv_us_per_echo") / ecpu
        printf "RATIO %s k=%s runs=%d p50=%.2f p99=%.2f srv_cpu_per_move=%.2f cli_cpu_per_move=%.2f answered=%d sent=%d\n", (base == "ours" ? "netB_vs_net" : "net_vs_" base), k, runs[ours, k], r50, r99, rcpu, rcli, median(ours, k, "answered"), median(ours, k, "sent")
        if (runs["oursB", k] && base == "echo") {
          b50 = 0; b99 = 0; bcpu = 0
          if (e50 > 0) b50 = median("oursB", k, "p50_us") / e50
          if (e99 > 0) b99 = median("oursB", k, "p99_us") / e99
          if (ecpu > 0) bcpu = median("oursB", k, "srv_us_per_echo") / ecpu
          printf "RATIO netB_vs_%s k=%s runs=%d p50=%.2f p99=%.2f srv_cpu_per_move=%.2f\n", base, k, runs["oursB", k], b50, b99, bcpu
        }
      }
      # Paired runs: B/A of each pair, then the median of those ratios (the
      # pair ran back to back, so slow spells of the machine mostly cancel).
      if (runs["oursB", k] && runs["oursB", k] == runs["ours", k]) {
        n = runs["ours", k]; line = ""
        for (i = 1; i <= n; i++) { pr[i] = v["ours", k, "p99_us", i] > 0 ? v["oursB", k, "p99_us", i] / v["ours", k, "p99_us", i] : 0; line = line sprintf(" %.2f", pr[i]) }
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (pr[j] < pr[i]) { tt = pr[i]; pr[i] = pr[j]; pr[j] = tt }
        printf "PAIRED k=%s pairs=%d p99_B_over_A:%s  median %.2f\n", k, n, line, n % 2 ? pr[(n + 1) / 2] : (pr[n / 2] + pr[n / 2 + 1]) / 2
      }
    }
    # Every run in the order it ran: the tail goes with the steal.
    print "every run, in order (steal: CPU time the hypervisor gave to other guests during that run):"
    for (i = 1; i <= nall; i++) {
      tool = all_tool[i]
      name = toolname(tool)
      printf "  K=%-5s %-18s %s%s\n", all_k[i], name, all_line[i], (all_steal[i] > 3 ? "   (steal over 3%: the machine was busy)" : "")
    }
  }' "$results"
if [ -s "$set_aside" ]; then
  echo "set aside (STEAL_MAX=$steal_max; not in the medians above):"
  awk '/^RESULT/ { p50 = p99 = st = "?"; for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "p50_us") p50 = kv[2]; if (kv[1] == "p99_us") p99 = kv[2]; if (kv[1] == "steal_pct") st = kv[2] }
         printf "  %-5s %-28s p50 %9s us   p99 %9s us   steal %5s%%\n", $2, $3, p50, p99, st }' "$set_aside"
fi
if [ -n "$mock_pid" ]; then
  kill -TERM "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
  mock_pid=
  echo "mock Agones sidecar: $(grep '^calls:' "$work/mock.log" || echo 'no summary')"
fi
