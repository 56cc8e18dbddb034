#!/usr/bin/env bash
# internet_list.sh: the Join screen's Internet list with the real programs on 127.0.0.1: a coordinator, a
# dedicated server listed with --public, the game. The server shows up in the list; picking it fills the
# address as a LAN pick does, and Quick match there lands in a room on that server.
set -euo pipefail
CLIENT=$1
COORD=$2
SERVER=$3
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mr-inet-list.XXXXXX")
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
wait_line() { # FILE TEXT: up to 10 s for a line containing TEXT; prints what follows it
  local i
  for ((i = 0; i < 500; i++)); do
    if grep -q "$2" "$1" 2>/dev/null; then
      grep -m1 "$2" "$1" | sed "s/.*$2//"
      return 0
    fi
    sleep 0.02
  done
  fail "no '$2' in $1: $(cat "$1")"
}
free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

"$COORD" --bind 127.0.0.1 --port 0 >"$DIR/co.out" 2>&1 &
PIDS+=($!)
co=$(wait_line "$DIR/co.out" "listening on ")
"$SERVER" --bind 127.0.0.1 --port 0 --discovery "$(free_port)" --name Riverside --db none --coordinator "$co" \
  --public >"$DIR/sv.out" 2>&1 &
PIDS+=($!)
port=$(wait_line "$DIR/sv.out" "listening on 127.0.0.1:")
port=${port%% *}

# Join from the menu; once the Internet list shows the server, go down past the 8 fixed controls (the empty LAN
# list's label is not a row) to it, pick it, then Quick match there (3 rows up: the fixed controls stay put).
cat >"$DIR/script.txt" <<EOS
0 wait menu
+50 key Down
+50 key Down
+50 key Down
+50 key Return
+0 wait join
+0 wait join-internet
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Down
+50 key Return
+100 key Down
+50 key Down
+50 key Down
+50 key Return
+0 wait lobby
+500 quit
EOS
: >"$DIR/empty.settings"
env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save --history none \
  --settings "$DIR/empty.settings" --coordinator "$co" --lan-port "$(free_port)" --name Finder \
  --script "$DIR/script.txt" --max-seconds 30 >"$DIR/game.out" 2>&1 || fail "the game failed: $(cat "$DIR/game.out")"
grep -q "^mazerace: internet list: 1 server" "$DIR/game.out" || fail "no Internet list: $(cat "$DIR/game.out")"
grep -q "Server at 127.0.0.1:$port: type a room code" "$DIR/game.out" || fail "the pick did not fill the address: $(cat "$DIR/game.out")"
grep -q "^mazerace: room code [A-Z0-9]*$" "$DIR/game.out" || fail "no room on the listed server: $(cat "$DIR/game.out")"
echo "PASS: Riverside at 127.0.0.1:$port listed, picked, and a quick match there got room $(sed -n 's/^mazerace: room code //p' "$DIR/game.out")"
