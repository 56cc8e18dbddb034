# tools/netbench/bench-server.sh: sourced by instr-per-move.sh, syscalls-per-move.sh and preempt-trace.sh (run.sh and
# hosts.sh take only nb_sched, the scheduling policy of every program of a bench, from it): builds (or, with
# NO_BUILD=1, takes as it is) $build, finds the binaries, and starts one mazerace-server sized for a number of
# bots on 127.0.0.1, port 0, with its output in $work/server.out and its log in $work/server.log.
# An older server (e.g. 3e3fe6d's) lacks some flags: each optional one is passed only if its --help names it.

nb_init() { # usage-last-line tool name BOTS PACE_MS WINDOW_S ...: checks the arguments, builds, makes $work
  local usage=$1 tool=$2 name=$3
  shift 3
  [ $# -ge 3 ] || { sed -n "2,${usage}p" "$0" >&2; exit 2; }
  bots=$1 pace=$2 win=$3
  for v in "$bots" "$pace" "$win"; do
    case $v in '' | *[!0-9]*) echo "$name: '$v' is not a number" >&2; exit 2 ;; esac
  done
  command -v "$tool" >/dev/null || { echo "$name: $tool is not installed" >&2; exit 2; }
  build=${BUILD:-$root/build-netbench}
  nb_build
  work=$(mktemp -d "/tmp/$name.XXXXXX")
  pid= botpid=
  trap '[ -n "$botpid" ] && kill $botpid 2>/dev/null; [ -n "$pid" ] && kill -INT $pid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
}

nb_build() { # sets srv and bot (BOT=path overrides the bot)
  if [ -z "${NO_BUILD:-}" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
    cmake --build "$build" --target mazerace-server mazerace-bot -j2 >/dev/null
  fi
  srv=$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)
  bot=${BOT:-$(find "$build" -name mazerace-bot -type f -perm -u+x | head -1)}
  [ -n "$srv" ] && [ -n "$bot" ] || { echo "$0: no mazerace-server or mazerace-bot in $build" >&2; exit 2; }
}

nb_sched() { # sets sched (an array): what every program of a bench starts under, from SCHED=batch|other (default)
  sched=()
  case ${SCHED:-} in
    '' | other) ;;
    batch) sched=(chrt --batch 0) ;;
    *) echo "$0: SCHED='$SCHED': say batch or other" >&2; exit 2 ;;
  esac
}

nb_server_flags() { # bots: prints the flags, one a line
  local help
  help=$("$srv" --help 2>&1 || true)
  has() { case $help in *"$1 "*) return 0 ;; esac; return 1; }
  has --config && printf '%s\n' --config /dev/null
  has --db && printf '%s\n' --db none
  has --gen-rate && printf '%s\n' --gen-rate 1000 --gen-burst 600000 --gen-queue 4096
  printf '%s\n' --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 --max-clients $(($1 + 8)) \
    --max-rooms $(($1 / 2 + 8)) --sockbuf 4096 --log-level warn --stats
}

nb_start_server() { # [wrapper...] -- [server flags...]: starts it in the background (pid), waits for its port
  local wrap=() flags
  while [ "$1" != -- ]; do
    wrap+=("$1")
    shift
  done
  shift
  mapfile -t flags < <(nb_server_flags "$bots")
  "${wrap[@]}" "$srv" "${flags[@]}" "$@" >"$work/server.out" 2>"$work/server.log" &
  pid=$!
  nb_wait_port
}

nb_wait_port() { # sets port once the server says where it listens
  port=
  for _ in $(seq 1 300); do
    port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\)$/\1/p' "$work/server.out" 2>/dev/null || true)
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "$0: the server did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
}

nb_start_bench() { # bots pace seconds: mazerace-bot --bench in the background (botpid), output in $work/bot.out;
  # BOT_ARGS: more bot flags (e.g. "--spectators 2 --spectator-thread"); bot_wrap (an array, may be unset): a command
  # to start it under (e.g. chrt --batch 0)
  # shellcheck disable=SC2086
  "${bot_wrap[@]}" "$bot" --server "127.0.0.1:$port" --bots "$1" --bench "$3" --pace "$2" --bot-seed 7 --timeout 600 ${BOT_ARGS:-} \
    >"$work/bot.out" 2>&1 &
  botpid=$!
}

# "stats NAME VALUE" blocks, one per SIGUSR1 (printed by the server loop's next step).
nb_snap() { # file: a fresh stats block in it (the lines from the last "stats packets_in" on)
  local n
  n=$(grep -c '^stats cpu_us_per_move ' "$work/server.out" || true)
  kill -USR1 "$pid"
  for _ in $(seq 1 600); do
    [ "$(grep -c '^stats cpu_us_per_move ' "$work/server.out" || true)" -gt "$n" ] && break
    sleep 0.05
  done
  awk '/^stats packets_in / {n = 0} /^stats / {b[n++] = $0} END {for (i = 0; i < n; i++) print b[i]}' \
    "$work/server.out" >"$1"
}
nb_val() { sed -n "s/^stats $2 //p" "$1"; }

nb_wait_racing() { # bots: returns once every match races (and a second more: past the countdown)
  local running=0
  for _ in $(seq 1 600); do
    kill -0 "$botpid" 2>/dev/null || { echo "$0: the bench stopped:" >&2; tail "$work/bot.out" >&2; exit 1; }
    nb_snap "$work/wait"
    running=$(nb_val "$work/wait" matches_running)
    [ "${running:-0}" -ge $(($1 / 2)) ] && break
    sleep 0.2
  done
  [ "${running:-0}" -ge $(($1 / 2)) ] || { echo "$0: the matches did not start" >&2; exit 1; }
  sleep 1
}
