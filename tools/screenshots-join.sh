#!/usr/bin/env bash
# tools/screenshots-join.sh: the joining screens (Join screen with its LAN list, Create a room, both
# lobbies, a copied link, a pasted link, a bad link) into docs/screenshots/*.png. Every program binds
# 127.0.0.1 only and the games run --headless (SDL's dummy driver, the same software renderer as under
# Xvfb), so the LAN list probes 127.0.0.1 alone and nothing is broadcast.
# Usage: tools/screenshots-join.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/screenshots-lib.sh # shots_begin, wait_line, free_port, bmp2png, shots_publish
shots_begin "$@"
run() { "$game" --headless --size 1280x720 --no-save --history none "$@"; }
menu_join='0 wait menu
+50 key Down
+50 key Down
+50 key Down
+50 key Return
+0 wait join'

# A dedicated server holding the game and discovery ports; Ann hosts anyway (a fallback port).
disc=$(free_port)
"$server" --bind 127.0.0.1 --port 0 --discovery "$disc" --name den --db none --countdown 3 >"$tmp/sv.log" 2>&1 &
pids+=($!)
taken=$(wait_line "$tmp/sv.log" "listening on 127.0.0.1:")
printf '0 wait lobby\n+1500 screenshot %s/lobby-host.bmp\n+0 wait race\n+300 quit\n' "$tmp" >"$tmp/host.txt"
run --host maze:21x15:medium#77 --series 3 --host-bind 127.0.0.1 --host-port "$taken" --lan-port "$disc" \
  --name Ann --script "$tmp/host.txt" --max-seconds 40 >"$tmp/host.log" 2>&1 &
pids+=($!)
wait_line "$tmp/host.log" "room code " >/dev/null
cat >"$tmp/bob.txt" <<EOS
$menu_join
+0 wait join-listed
+1600 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+100 screenshot $tmp/join-lan.bmp
+50 key Return
+0 wait lobby
+1000 screenshot $tmp/lobby-joiner.bmp
+50 quit
EOS
run --lan-port "$disc" --name Bob --script "$tmp/bob.txt" --max-seconds 30
wait "${pids[1]}" || true

# Create a room on the server, copy its link.
cat >"$tmp/cara.txt" <<EOS
$menu_join
+50 text 127.0.0.1:$taken
+50 key Down
+50 key Down
+50 key Down
+50 key Return
+0 wait setup
+50 key Right
+50 key Down
+50 key Right
+50 key Down
+50 key Right
+50 key Down
+50 key Down
+50 key Right
+200 screenshot $tmp/create-room.bmp
+50 key Down
+50 key Return
+200 key Return
+0 wait lobby
+1000 key Down
+50 key Return
+200 screenshot $tmp/lobby-copied.bmp
+50 quit
EOS
run --lan-port 1 --name Cara --script "$tmp/cara.txt" --max-seconds 30 | tee "$tmp/cara.log"
link=$(grep -m1 "join link copied: " "$tmp/cara.log" | sed 's/.*copied: //')

# A pasted link fills the Join screen's fields (the clipboard as a chat program would leave it).
code=${link##*/}
cat >"$tmp/dan.txt" <<EOS
$menu_join
+50 clip mazerace://127.0.0.1:$taken/$code
+50 key Ctrl+V
+200 screenshot $tmp/join-pasted.bmp
+50 quit
EOS
run --lan-port 1 --name Dan --script "$tmp/dan.txt" --max-seconds 20

# A malformed link opens the Join screen with the reason.
printf '0 wait join\n+300 screenshot %s/join-badlink.bmp\n+50 quit\n' "$tmp" >"$tmp/bad.txt"
run --lan-port 1 --script "$tmp/bad.txt" --max-seconds 20 'mazerace://127.0.0.1:0/ABCDE' || true

# The remembered address is selected on arrival: typing replaces it.
printf 'last_server = 192.168.1.20:27910\n' >"$tmp/settings.txt"
printf '%s\n+300 screenshot %s/join-selected.bmp\n+50 quit\n' "$menu_join" "$tmp" >"$tmp/sel.txt"
run --lan-port 1 --settings "$tmp/settings.txt" --script "$tmp/sel.txt" --max-seconds 20

shots_publish join-selected join-lan lobby-host lobby-joiner create-room lobby-copied join-pasted join-badlink
