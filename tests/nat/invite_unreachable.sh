#!/usr/bin/env bash
# invite_unreachable.sh: invite codes when the coordinator cannot be reached, on 127.0.0.1 with the real game:
# joining by code fails with a clear error (and with none set, says so), the Host still hosts and says why it
# has no code, and a friend joining by the typed address and room code races it to the result.
set -euo pipefail
CLIENT=$1
GEN=$2
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mr-invite-unreach.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$DIR"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# A UDP port on 127.0.0.1 that nothing listens on (bound, then let go).
free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
DEAD=$(free_port)
LAN=$(free_port)
game() { env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save --history none --max-seconds 40 "$@"; }
: >"$DIR/empty.settings"

# 1. Joining by code, no coordinator set: said at once.
printf '0 wait menu\n+100 quit\n' >"$DIR/menu.txt"
game --settings "$DIR/empty.settings" --join +K7MP9NXA --script "$DIR/menu.txt" >"$DIR/none.out" 2>&1 || true
grep -q "No coordinator is set: joining by invite code needs one" "$DIR/none.out" ||
  fail "no coordinator: $(cat "$DIR/none.out")"
echo "no coordinator: $(grep -m1 "No coordinator" "$DIR/none.out")"

# 2. Joining by code, the coordinator silent: a clear error once its retries are over.
printf '0 wait lobby\n+0 wait menu\n+100 quit\n' >"$DIR/join-code.txt"
start=$(date +%s%N)
game --settings "$DIR/empty.settings" --coordinator "127.0.0.1:$DEAD" --join "mazerace://+k7mp-9nxa" \
  --script "$DIR/join-code.txt" >"$DIR/code.out" 2>&1 || true
took=$((($(date +%s%N) - start) / 1000000))
want="Cannot reach the coordinator at 127.0.0.1:$DEAD (UDP): it did not answer. LAN games and typed addresses still work."
grep -qF "$want" "$DIR/code.out" || fail "unreachable coordinator: $(cat "$DIR/code.out")"
echo "unreachable coordinator, after $took ms: $want"

# 3. The Host with that coordinator: no code, said why; the LAN game goes on.
GAME="maze:9x7:easy#21"
printf '0 wait lobby\n+0 wait race\n+0 wait results\n+1000 quit\n' >"$DIR/host.txt"
game --settings "$DIR/empty.settings" --coordinator "127.0.0.1:$DEAD" --host "$GAME" --host-bind 127.0.0.1 \
  --host-port 0 --lan-port "$LAN" --name Hoster --script "$DIR/host.txt" >"$DIR/host.out" 2>&1 &
host=$!
PIDS+=("$host")
for ((i = 0; i < 500; i++)); do
  grep -q "no invite code" "$DIR/host.out" && break
  sleep 0.02
done
grep -q "no invite code: the coordinator at 127.0.0.1:$DEAD did not answer" "$DIR/host.out" ||
  fail "the host did not say why it has no code: $(cat "$DIR/host.out")"
port=$(sed -n 's/^mazerace: hosting on port \([0-9]*\).*/\1/p' "$DIR/host.out")
room=$(sed -n 's/^mazerace: room code \([A-Z0-9]*\)$/\1/p' "$DIR/host.out" | head -1)
[ -n "$port" ] && [ -n "$room" ] || fail "the host has no room: $(cat "$DIR/host.out")"
moves=$("$GEN" --no-text "$GAME" | sed -n 's/^# solution ([0-9]* moves): //p')
{
  printf '0 wait lobby\n+0 wait race\n'
  for ((i = 0; i < ${#moves}; i++)); do
    case ${moves:i:1} in U) k=W ;; D) k=S ;; L) k=A ;; R) k=D ;; esac
    printf '+60 key %s\n' "$k"
  done
  printf '+0 wait results\n+500 quit\n'
} >"$DIR/join.txt"
game --settings "$DIR/empty.settings" --coordinator "127.0.0.1:$DEAD" --join "127.0.0.1:$port" --room "$room" \
  --name Friend --script "$DIR/join.txt" >"$DIR/join.out" 2>&1 || fail "the typed-address join failed: $(cat "$DIR/join.out")"
grep -q "^RESULT winner=1 winner_name=Friend reason=solved" "$DIR/join.out" || fail "no race: $(cat "$DIR/join.out")"
wait "$host" || fail "the host failed: $(cat "$DIR/host.out")"
echo "PASS: clear errors without a coordinator; the LAN host raced a friend who typed its address and room $room"
