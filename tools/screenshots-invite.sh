#!/usr/bin/env bash
# tools/screenshots-invite.sh: internet play's screens (the host lobby with its invite code, the Join screen with
# the Internet list and a code typed, a lobby joined by code showing the path) into docs/screenshots/*.png.
# Every program binds 127.0.0.1 only (a coordinator, two public servers, the games --headless), and a host bound
# to 127.0.0.1 does not ask the router for a port, so nothing leaves this machine.
# As root it also runs the punched and relayed journeys behind real NATs (tests/nat/journey_invite.sh, network
# namespaces of its own) for the friend's race screen on those paths.
# Usage: tools/screenshots-invite.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/screenshots-lib.sh # shots_begin, wait_line, free_port, bmp2png, shots_publish
shots_begin "$@"

"$coord" --bind 127.0.0.1 --port 0 >"$tmp/co.log" 2>&1 &
pids+=($!)
co=$(wait_line "$tmp/co.log" "listening on ")
run() { "$game" --headless --size 1280x720 --no-save --history none --coordinator "$co" "$@"; }
# Two public servers, each answering discovery (the list's ping) on the span the games probe.
disc=$(free_port)
for name in den Riverside; do
  "$server" --bind 127.0.0.1 --port 0 --discovery "$disc" --name "$name" --db none --coordinator "$co" --public \
    >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  wait_line "$tmp/$name.log" "listening on 127.0.0.1:" >/dev/null
done

# Ann hosts: her lobby shows the invite code.
printf '0 wait lobby\n+2500 screenshot %s/lobby-invite.bmp\n+50 key Down\n+50 key Return\n+100 screenshot %s/lobby-invite-copied.bmp\n+50 key Up\n+0 wait race\n+3000 quit\n' \
  "$tmp" "$tmp" >"$tmp/host.txt"
run --host maze:21x15:medium#77 --host-bind 127.0.0.1 --host-port 0 --lan-port "$disc" --name Ann \
  --script "$tmp/host.txt" --max-seconds 40 >"$tmp/host.log" 2>&1 &
pids+=($!)
code=$(wait_line "$tmp/host.log" "invite code ")
sleep 3 # Ann's screenshots first (pictures, not a synchronisation)

# Bob opens Join: the Internet list fills in; he types the code.
cat >"$tmp/bob.txt" <<EOS
0 wait menu
+50 key Down
+50 key Down
+50 key Down
+50 key Return
+0 wait join
+1500 text $code
+300 screenshot $tmp/join-internet.bmp
+50 key Down
+50 key Down
+50 key Return
+0 wait lobby
+1200 screenshot $tmp/lobby-by-code.bmp
+50 key Return
+0 wait race
+1000 screenshot $tmp/race-by-code.bmp
+50 quit
EOS
run --lan-port "$disc" --name Bob --script "$tmp/bob.txt" --max-seconds 30 >"$tmp/bob.log" 2>&1 || true
grep -m1 "reached " "$tmp/bob.log" || { cat "$tmp/bob.log" >&2; exit 1; }

grep -m1 "invite link copied: mazerace://$code@" "$tmp/host.log" || { cat "$tmp/host.log" >&2; exit 1; }
shots_publish lobby-invite lobby-invite-copied join-internet lobby-by-code race-by-code
if [ "$(id -u)" = 0 ]; then
  for m in punch relay; do
    MR_NAT_SHOTS=$tmp bash tests/nat/journey_invite.sh "$game" "$coord" "$build/tools/mazerace-gen" "$m" >/dev/null
    shots_publish "race-$m"
  done
fi
