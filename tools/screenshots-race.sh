#!/bin/bash
# tools/screenshots-race.sh: the screens of a race that goes wrong (server killed, opponent gone, the
# LAN host leaving, a spectator arriving late, back after a forfeit) under Xvfb, into
# docs/screenshots/*.png. Usage: tools/screenshots-race.sh [BUILD_DIR] [OUT_DIR]
# Loopback only; the pauses below set up each scene (they are not waits for anything).
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${1:-build}" && pwd)
O=$(mkdir -p "${2:-docs/screenshots}" && cd "${2:-docs/screenshots}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
wait_for() { # log, text, at most this many tenths of a second
  for _ in $(seq "$3"); do grep -q "$2" "$1" && return; sleep 0.1; done
}
run_client() { # log, then args
  local log=$1; shift
  xvfb-run -a -s "-screen 0 1280x720x24" "$B/client/mazerace" --size 1280x720 --no-vsync --settings "$tmp/s.txt" --no-save "$@" > "$log" 2>&1
}
start_server() { # log, grace, extra flags
  local log=$1 g=$2; shift 2
  "$B/server/mazerace-server" --bind 127.0.0.1 --port 0 --no-discovery --db none --countdown 1 --grace "$g" "$@" > "$log" 2>&1 &
  SV=$!
  wait_for "$log" "listening on" 100
  ADDR=$(grep -o "listening on [0-9.:]*" "$log" | awk '{print $3}')
}
race_vs_bot() { # n, the bot's pace: a server, a client on script sN.txt and a bot, 3 s into their race
  start_server "s$1.log" 30 --spectator-port off
  run_client "c$1.log" --join $ADDR --quick --name Racer --script "s$1.txt" --max-seconds 60 &
  C=$!
  "$B"/tools/bot/mazerace-bot --server $ADDR --pace "$2" --timeout 60 --name Bot --quiet > "b$1.log" 2>&1 &
  BOT=$!
  wait_for "s$1.log" "game 1: countdown" 200
  sleep 3
}
# 1. the server killed mid-race
printf '0 wait race\n+0 wait lost\n+2000 screenshot %s/race-lost.bmp\n+100 quit\n' "$O" > s1.txt
race_vs_bot 1 300
kill -9 $SV; wait $C; kill $BOT 2>/dev/null
# 2. the opponent gone (a bot killed: the server sees it when ENet times out, then 30 s of grace)
printf '0 wait race\n+600 key D\n+300 key W\n+300 key D\n+300 key W\n+16000 screenshot %s/race-opponent-away.bmp\n+100 quit\n' "$O" > s2.txt
race_vs_bot 2 400
kill -9 $BOT
wait $C; kill $SV
# 3. the host leaves mid-race: the joiner's results
printf '0 wait lobby\n+0 wait race\n+2500 key Escape\n+100 key Y\n+500 quit\n' > h3.txt
"$B"/client/mazerace --headless --host 'maze:21x15:medium#5' --host-bind 127.0.0.1 --host-port 0 --name Host --script h3.txt --max-seconds 60 > h3.log 2>&1 &
H=$!
wait_for h3.log "room code" 100
PORT=$(grep -o "hosting on port [0-9]*" h3.log | awk '{print $4}')
CODE=$(grep -o "room code [A-Z0-9]*" h3.log | awk '{print $3}')
printf '0 wait race\n+400 key W\n+300 key D\n+0 wait results\n+800 screenshot %s/results-host-left.bmp\n+100 quit\n' "$O" > j3.txt
run_client j3.log --join 127.0.0.1:$PORT --room $CODE --name Joiner --script j3.txt --max-seconds 30
wait $H
# 4. a spectator arriving 7 s into a 41x31 race
start_server s4.log 2 --spectator-port 0
"$B"/tools/bot/mazerace-bot --server $ADDR --bots 2 --kind maze --size 41x31 --seed 7 --pace 300 --mistakes 0.2 --timeout 90 --name Ada --quiet > b4.log 2>&1 &
BOT=$!
wait_for s4.log "game 1: countdown" 200
sleep 8
printf '0 wait watching\n+1500 screenshot %s/watch-midrace.bmp\n+100 quit\n' "$O" > w4.txt
run_client w4.log --join $ADDR --watch any --name Watcher --script w4.txt --max-seconds 30
kill $BOT $SV
# 5. back after the grace ran out: the result
start_server s5.log 2 --spectator-port off
printf '0 wait race\n+0 wait results\n+30000 quit\n' > st5.txt
"$B"/client/mazerace --headless --join $ADDR --quick --name Stayer --script st5.txt --max-seconds 60 > st5.log 2>&1 &
ST=$!
wait_for st5.log "room code" 100
printf '0 wait race\n+0 wait results\n+800 screenshot %s/results-back-late.bmp\n+100 quit\n' "$O" > l5.txt
run_client l5.log --join $ADDR --quick --name Sleeper --script l5.txt --max-seconds 60 &
L=$!
wait_for l5.log "race started" 200
sleep 1
LP=$(pgrep -f "^"$B"/client/mazerace .*Sleeper" | head -1)
kill -STOP $LP
wait_for s5.log "finished: winner" 400
sleep 1
kill -CONT $LP
wait $L; kill $ST $SV
source "$here/screenshots-lib.sh" # bmp2png
for f in "$O"/*.bmp; do bmp2png "$f" "${f%.bmp}.png" && rm -f "$f"; done
