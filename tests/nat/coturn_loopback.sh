#!/usr/bin/env bash
# coturn_loopback.sh: a real coturn on 127.0.0.1 (every setting on its command line): STUN binding requests from
# ENet's own socket (through the intercept tap and on the bare socket) map to that socket's port; a TURN relay with
# REST credentials carries a whole race; wrong or expired credentials fail with a clear error.
set -euo pipefail
TOOL=$1
NAT_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
source "$NAT_LIB_DIR/lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-coturn.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$DIR"
}
trap cleanup EXIT

SECRET=$(head -c 12 /dev/urandom | base64)
# An ephemeral port: the kernel picks one, coturn takes it over (again if it was taken meanwhile).
started=0
for try in 1 2 3; do
  PORT=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if nat_coturn "$DIR" 127.0.0.1 "$PORT" 127.0.0.1 "$SECRET" --allow-loopback-peers; then
    started=1
    break
  fi
done
[ $started = 1 ] || nat_fail "coturn would not start"
PIDS+=("$NAT_COTURN_PID")

for how in tap fd; do
  args=()
  [ $how = tap ] || args=(--fd)
  "$TOOL" stun "127.0.0.1:$PORT" "${args[@]}" >"$DIR/stun-$how.out" || nat_fail "STUN ($how): $(cat "$DIR/stun-$how.out")"
  mapped=$(nat_key "$DIR/stun-$how.out" mapped)
  local_port=$(nat_key "$DIR/stun-$how.out" local_after)
  [ "$mapped" = "127.0.0.1:$local_port" ] || nat_fail "STUN ($how) mapped $mapped, not ENet's socket 127.0.0.1:$local_port"
  echo "STUN ($how): $mapped is ENet's own socket"
done

# The embedded server's socket, STUN in its loop through sv_set_raw_tap.
"$TOOL" host --stun "127.0.0.1:$PORT" --seconds 1 >"$DIR/stun-host.out" 2>&1 || nat_fail "host STUN: $(cat "$DIR/stun-host.out")"
[ "$(nat_key "$DIR/stun-host.out" stun)" = "127.0.0.1:$(nat_key "$DIR/stun-host.out" local)" ] ||
  nat_fail "the host's STUN address is not its game socket's: $(cat "$DIR/stun-host.out")"
echo "STUN (embedded server's loop): $(nat_key "$DIR/stun-host.out" stun) is the game socket"

# No STUN server there: a clear error, in bounded time.
dead=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if "$TOOL" stun "127.0.0.1:$dead" >"$DIR/dead.out"; then nat_fail "STUN answered from a port nobody serves"; fi
grep -q "^error=no STUN answer from 127.0.0.1:$dead in 3000 ms" "$DIR/dead.out" || nat_fail "unclear STUN error: $(cat "$DIR/dead.out")"

# A race through the relay.
user=$(nat_rest_user "$SECRET" race1 600)
pass=$(nat_rest_pass "$SECRET" "$user")
"$TOOL" host --turn "127.0.0.1:$PORT" --turn-user "$user" --turn-pass "$pass" --turn-peer 127.0.0.1 --play \
  --seconds 60 >"$DIR/host.out" 2>"$DIR/host.err" &
host_pid=$!
PIDS+=("$host_pid")
relay=$(nat_wait_key "$DIR/host.out" relay 10) || nat_fail "no relayed address: $(nat_key "$DIR/host.out" turn_error)"
[ "$relay" != "127.0.0.1:$(nat_key "$DIR/host.out" local)" ] || nat_fail "the relayed address is the host's own"
"$TOOL" join "$relay" --seconds 60 >"$DIR/join.out" 2>&1 || nat_fail "the joiner failed: $(cat "$DIR/join.out")"
wait "$host_pid" || nat_fail "the host failed: $(cat "$DIR/host.out")"
hr=$(nat_key "$DIR/host.out" host_result)
jr=$(nat_key "$DIR/join.out" join_result)
[[ $hr == "slot 0 winner "[01]" reason 0 "* ]] || nat_fail "no finished race: $hr"
[ "${hr#slot 0 }" = "${jr#slot 1 }" ] || nat_fail "the two ends saw different results: $hr / $jr"
stats=$(nat_key "$DIR/host.out" relay_stats)
[[ $stats == *" peers 1 channels 1 "* ]] || nat_fail "relay stats: $stats"
echo "TURN: raced through $relay ($stats)"

# Wrong password, and credentials past their expiry: refused, said so.
for case in wrong expired; do
  u=$user
  p=wrong
  if [ $case = expired ]; then
    u="$(($(date +%s) - 60)):race1"
    p=$(nat_rest_pass "$SECRET" "$u")
  fi
  "$TOOL" host --turn "127.0.0.1:$PORT" --turn-user "$u" --turn-pass "$p" --seconds 3 >"$DIR/bad.out" 2>&1 || true
  grep -q "^turn_error=TURN 127.0.0.1:$PORT: error 401 .*(the credentials were refused)" "$DIR/bad.out" ||
    nat_fail "$case credentials: $(cat "$DIR/bad.out")"
done
echo "PASS: STUN from ENet's socket, a race through TURN, bad credentials refused"
