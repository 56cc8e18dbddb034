#!/usr/bin/env bash
# tools/netbench/nat_paths.sh: connect time per NAT path (median, p99 over RUNS) and the relay's round trip and CPU
# against the direct path, in the network namespaces of tests/nat (root). Prints a table for docs/performance-net.md.
# usage: tools/netbench/nat_paths.sh BUILD/tests/nat/nat_tool [RUNS (default 20)] [PINGS (default 2000)]
set -euo pipefail
TOOL=$(realpath "$1")
RUNS=${2:-20}
PINGS=${3:-2000}
NAT_LIB_DIR=$(cd "$(dirname "$0")/../../tests/nat" && pwd)
source "$NAT_LIB_DIR/lib.sh"
source "$NAT_LIB_DIR/netns.sh"
nat_netns_init "$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-bench.XXXXXX")"
SECRET=bench
nat_pub_coturn "$SECRET"
nat_add_home 1 upnp # the host of direct, mapped and relayed
nat_add_home 2 eim  # the joiner of mapped and relayed; the host of punched
nat_add_home 3 eim  # the joiner of punched
STUN=11.0.0.1:3478
user=$(nat_rest_user $SECRET bench 3600)
pass=$(nat_rest_pass $SECRET "$user")

# stats FILE: median and p99 of the numbers in FILE
stats() { sort -n "$1" | awk '{v[NR]=$1} END {i=int(NR*0.99); if (i<1) i=1; if (i>NR) i=NR; printf "%s %s", v[int((NR+1)/2)], v[i]}'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

H="$NAT_DIR/host.out"
nat_bg home1 "$H" "$TOOL" host --upnp --turn $STUN --turn-user "$user" --turn-pass "$pass" --turn-peer 11.0.0.12 \
  --seconds 3600
host_pid=$NAT_LAST_PID
nat_wait_key "$H" ready 10 >/dev/null || nat_fail "host not ready: $(cat "$H")"
port=$(nat_key "$H" local)
mapped=$(nat_key "$H" upnp)
relay=$(nat_key "$H" relay)
[ -n "$mapped" ] && [ -n "$relay" ] || nat_fail "host: $(cat "$H")"

connect_runs() { # NAME NS CAND...
  local name=$1 ns=$2 i
  shift 2
  : >"$NAT_DIR/$name.ms"
  for ((i = 0; i < RUNS; i++)); do
    nat_in "$ns" "$TOOL" join "$@" --connect-only --pings 1 >"$NAT_DIR/$name.run" 2>&1 || nat_fail "$name: $(cat "$NAT_DIR/$name.run")"
    nat_key "$NAT_DIR/$name.run" connect_ms >>"$NAT_DIR/$name.ms"
  done
  printf "| %-28s | %6s | %6s |\n" "$name" $(stats "$NAT_DIR/$name.ms")
}

echo "connect time, ms, $RUNS runs (from having the candidates to the handshake done):"
echo "| path                         | median |    p99 |"
connect_runs "direct (same LAN)" home1 --cand "direct=192.168.1.2:$port"
connect_runs "port mapping (UPnP-IGD)" home2 --cand "mapped=$mapped"
connect_runs "TURN relay" home2 --cand "relayed=$relay"
connect_runs "direct and relay: relay" home2 --cand "direct=192.168.1.2:$port" --cand "relayed=$relay"

# Punched: a host behind home 2's EIM NAT per run (it reads the joiner's address once).
: >"$NAT_DIR/punch.ms"
for ((i = 0; i < RUNS; i++)); do
  rm -f "$NAT_DIR/peer"
  nat_bg home2 "$NAT_DIR/ph.out" "$TOOL" host --stun $STUN --punch-file "$NAT_DIR/peer" --seconds 20
  ph=$NAT_LAST_PID
  hp=$(nat_wait_key "$NAT_DIR/ph.out" stun 10)
  nat_bg home3 "$NAT_DIR/pj.out" "$TOOL" join --cand "punched=$hp" --stun $STUN --connect-only --pings 1
  pj=$NAT_LAST_PID
  jp=$(nat_wait_key "$NAT_DIR/pj.out" mapped 10)
  echo "$jp" >"$NAT_DIR/peer.tmp" && mv "$NAT_DIR/peer.tmp" "$NAT_DIR/peer"
  wait "$pj" || nat_fail "punch run $i: $(cat "$NAT_DIR/pj.out")"
  kill "$ph"
  wait "$ph" || true
  nat_key "$NAT_DIR/pj.out" connect_ms >>"$NAT_DIR/punch.ms"
done
printf "| %-28s | %6s | %6s |\n" "hole punching (EIM NATs)" $(stats "$NAT_DIR/punch.ms")
echo "(punching includes the stand-in coordinator: the test's script passing the joiner's address over in a file)"

echo
echo "round trip, us, $PINGS LIST_ROOMS one at a time, same host and joiner (home 2 -> home 1):"
echo "| path                 | median |    p99 | host CPU ms | coturn CPU ms |"
turn_pid=$NAT_COTURN_PID
for path in mapped relayed; do
  addr=$([ $path = mapped ] && echo "$mapped" || echo "$relay")
  h0=$(cpu_ticks "$host_pid")
  t0=$(cpu_ticks "$turn_pid")
  nat_in home2 "$TOOL" join --cand "$path=$addr" --connect-only --pings "$PINGS" >"$NAT_DIR/rtt-$path.out" 2>&1 ||
    nat_fail "$path pings: $(cat "$NAT_DIR/rtt-$path.out")"
  h1=$(cpu_ticks "$host_pid")
  t1=$(cpu_ticks "$turn_pid")
  printf "| %-20s | %6s | %6s | %11s | %13s |\n" "$path" "$(nat_key "$NAT_DIR/rtt-$path.out" rtt_med_us)" \
    "$(nat_key "$NAT_DIR/rtt-$path.out" rtt_p99_us)" $(((h1 - h0) * 10)) $(((t1 - t0) * 10))
done
kill "$host_pid"
wait "$host_pid" || true
echo "host's relay proxy thread: $(nat_key "$H" relay_stats)"
