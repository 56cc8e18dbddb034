#!/usr/bin/env bash
# tools/screenshots.sh: takes a screenshot of each puzzle kind mid-race (vs
# the computer, the player half-way along a shortest solution) under Xvfb,
# plus the setup screen, a How to play card, the menu, the results screen with best times, the History screen
# (races and best times) and
# a race watched as a spectator and a replay, into docs/screenshots/*.png for the README
# and docs/client.md.
# Usage: tools/screenshots.sh [BUILD_DIR]   (default: build-screens, built here)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-screens}
if [ ! -x "$build/client/mazerace" ] || [ ! -x "$build/tools/mazerace-gen" ] ||
  [ ! -x "$build/server/mazerace-server" ] || [ ! -x "$build/tools/bot/mazerace-bot" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMR_TESTS=OFF >/dev/null
  cmake --build "$build" --target mazerace mazerace-gen mazerace-server mazerace-bot -j 2 >/dev/null
fi
game="$build/client/mazerace"
gen="$build/tools/mazerace-gen"
out=docs/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# bmp2png: tools/screenshots-lib.sh.
source tools/screenshots-lib.sh

# Script lines for the first half of a solution: steps as W/A/S/D, pipes
# rotations as cursor moves then E (clockwise) or Q, ice restarts as R.
script_for() { # id
  local sol
  sol=$("$gen" --no-text "$1" | sed -n 's/^# solution ([0-9]* moves): //p')
  python3 - "$1" "$sol" <<'PY'
import sys
gid, sol = sys.argv[1], sys.argv[2]
print("0 wait race")
keys = {'U': 'W', 'D': 'S', 'L': 'A', 'R': 'D'}
if gid.startswith('pipes'):
    moves = sol.split()
    moves = moves[:max(1, len(moves) // 2)]
    for m in moves:
        x, y = map(int, m[:-1].split(','))
        print(f"+150 click_cell {x} {y} {m[-1]}")
else:
    moves = [c for c in sol if c in 'UDLRX']
    for c in moves[:max(1, len(moves) // 2)]:
        print("+150 key " + ('R' if c == 'X' else keys[c]))
print("+700 wait race")
PY
}

shoot() { # name, args...
  local name=$1; shift
  xvfb-run -a -s "-screen 0 1280x720x24" "$game" --software --no-save --settings "$tmp/settings.txt" \
    --size 1280x720 --screenshot "$tmp/$name.bmp" "$@" >/dev/null
  bmp2png "$tmp/$name.bmp" "$out/$name.png"
  echo "screenshots: $out/$name.png"
}

printf '0 wait menu\n+300 wait menu\n' >"$tmp/menu.txt"
shoot menu --script "$tmp/menu.txt"
# Settings, its file where a player's would be (shown with ~ at the foot).
printf '0 wait menu\n+50 key Up\n+50 key Up\n+50 key Return\n+100 wait settings\n+50 key Down\n+50 key Down\n+300 wait settings\n' >"$tmp/settings-screen.txt"
HOME="$tmp" shoot settings --script "$tmp/settings-screen.txt" --settings "$tmp/.local/share/mazerace/settings.txt"
# name=id: the four kinds at their usual sizes, then the big pipes board
# and the big sum board (issue 13: they must fit the window).
for shot in race-sum=sum:5x4:medium#7 race-maze=maze:41x31:medium#7 race-ice=ice:25x20:medium#7 \
  race-pipes=pipes:8x6:medium#7 race-pipes-40x40=pipes:40x40:medium#7 race-sum-10x10=sum:10x10:medium#7; do
  name=${shot%%=*} id=${shot#*=}
  kind=${id%%:*}
  script_for "$id" >"$tmp/$kind.raw"
  # Pipes: turn "click_cell X Y +/-" into cursor keys from the start row.
  if [ "$kind" = pipes ]; then
    start_row=$("$gen" "$id" | awk '/^[^#]/ {r++; if (index($0, ">") == 1 || substr($0, 1, 1) == "S") {print r - 1; exit}}')
    python3 - "$tmp/$kind.raw" "${start_row:-0}" >"$tmp/$kind.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
cx, cy = 0, int(sys.argv[2])
for l in lines:
    p = l.split()
    if len(p) == 5 and p[1] == 'click_cell':
        x, y, turn = int(p[2]), int(p[3]), p[4]
        while cx < x: print('+60 key D'); cx += 1
        while cx > x: print('+60 key A'); cx -= 1
        while cy < y: print('+60 key S'); cy += 1
        while cy > y: print('+60 key W'); cy -= 1
        print('+150 key ' + ('E' if turn == '+' else 'Q'))
    elif l:
        print(l)
PY
  else
    mv "$tmp/$kind.raw" "$tmp/$kind.txt"
  fi
  shoot "$name" --vs-computer "$id" --bot-level casual --name Ada --script "$tmp/$kind.txt"
done

# Issue 21: a sum player on End with the wrong sum (End's own value, the goal
# and the sum all shown; the computer, not the player, is ahead), the setup
# screen's computer levels and a How to play card.
printf '0 wait race\n+200 key S\n+200 key D\n+1500 wait race\n' >"$tmp/sumend.txt"
shoot race-sum-end --vs-computer sum:5x4:medium#216141318 --bot-level casual --name Ada --script "$tmp/sumend.txt"
# Issue 21 big boards: pipes 40x40 fitted and zoomed in (the overview of
# your board appears), and a maze 1000x1000 with its overview.
printf '0 wait race\n+100 key D\n+100 key S\n+100 key E\n+700 wait race\n' >"$tmp/p40.txt"
shoot pipes-40x40-fit --vs-computer pipes:40x40:medium#7 --bot-level casual --name Ada --script "$tmp/p40.txt"
printf '0 wait race\n+100 key D\n+100 key E\n+100 key =\n+100 key =\n+100 key =\n+700 wait race\n' >"$tmp/p40z.txt"
shoot pipes-40x40-zoomed --vs-computer pipes:40x40:medium#7 --bot-level casual --name Ada --script "$tmp/p40z.txt"
printf '0 wait race\n+100 key D\n+100 key W\n+100 key D\n+100 key W\n+900 wait race\n' >"$tmp/m1000.txt"
shoot maze-1000x1000-overview --vs-computer maze:1000x1000:medium#7 --bot-level casual --name Ada --script "$tmp/m1000.txt"
shoot ice-64x64-overview --vs-computer ice:64x64:medium#7 --bot-level casual --name Ada --script "$tmp/m1000.txt"
down4='+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n'
printf "0 wait menu\n+50 key Return\n+50 wait setup\n+50 key Left\n${down4}+50 key Right\n+200 wait setup\n" \
  >"$tmp/setup.txt"
shoot setup-computer --script "$tmp/setup.txt"
printf "0 wait menu\n+50 key Return\n+50 wait setup\n+50 key Left\n${down4}+50 key Down\n+50 key Down\n" \
  >"$tmp/howto.txt"
printf '+50 key Return\n+200 wait setup\n' >>"$tmp/howto.txt"
shoot howto-sum --script "$tmp/howto.txt"
# Hotseat: the footer names both players' keys for the kind.
printf '0 wait race\n+200 key W\n+200 key Up\n+500 wait race\n' >"$tmp/hotseat-ice.txt"
shoot race-hotseat-ice --hotseat ice:12x10:easy#5 --script "$tmp/hotseat-ice.txt"

# The results screen's best times and the History screen (docs/client.md,
# "History and best times"): races recorded into a temporary history.
full_script() { # id slot-keys: the whole solution as keys, then the results
  local sol
  sol=$("$gen" --no-text "$1" | sed -n 's/^# solution ([0-9]* moves): //p')
  python3 - "$sol" "$2" <<'PY'
import sys
sol, keys = sys.argv[1], dict(zip('UDLR', sys.argv[2].split(',')))
print("0 wait race")
for c in sol:
    if c in keys:
        print("+40 key " + keys[c])
print("+0 wait results\n+400 wait results")
PY
}
hist_run() { # name script args...
  local name=$1 script=$2; shift 2
  xvfb-run -a -s "-screen 0 1280x720x24" "$game" --software --settings "$tmp/settings.txt" \
    --history "$tmp/history.sqlite" --name Ada --size 1280x720 --script "$script" \
    --screenshot "$tmp/$name.bmp" "$@" >/dev/null
}
printf '0 wait results\n+400 wait results\n' >"$tmp/lose.txt"
hist_run lost "$tmp/lose.txt" --vs-computer maze:15x11:easy#7 --bot-pace 60
full_script ice:10x10:easy#5 W,S,A,D >"$tmp/ice.txt"
hist_run hotseat "$tmp/ice.txt" --hotseat ice:10x10:easy#5
full_script maze:15x11:easy#7 W,S,A,D >"$tmp/win.txt"
hist_run results-best "$tmp/win.txt" --vs-computer maze:15x11:easy#7 --bot-pace 900
bmp2png "$tmp/results-best.bmp" "$out/results-best.png"
echo "screenshots: $out/results-best.png"
printf '0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+100 wait history\n+500 wait history\n' >"$tmp/hist.txt"
hist_run history "$tmp/hist.txt"
bmp2png "$tmp/history.bmp" "$out/history.png"
echo "screenshots: $out/history.png"
# Its best-times view (B): the computer's times in their own column.
printf '0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+100 wait history\n+100 key b\n+500 wait history\n' >"$tmp/hist-best.txt"
hist_run history-best "$tmp/hist-best.txt"
bmp2png "$tmp/history-best.bmp" "$out/history-best.png"
echo "screenshots: $out/history-best.png"

# The replay player (docs/client.md, "Replays"): the example replay at 2x,
# paused part-way.
printf '0 wait replay\n+50 key Up\n+50 key Space\n+1800 key Space\n+200 wait replay\n' >"$tmp/replay.txt"
shoot replay --replay tests/replays/maze-8x6.replay --script "$tmp/replay.txt"

# Watching (docs/client.md, "Watching a race"): a server and two bots on
# this machine, the game watching their race mid-way and at its end.
srv_log="$tmp/server.log"
"$build/server/mazerace-server" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery --countdown 1 --log-level warn \
  >"$srv_log" 2>&1 &
srv_pid=$!
trap 'kill "$srv_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q "listening on" "$srv_log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\).*/\1/p' "$srv_log" | head -1)
"$build/tools/bot/mazerace-bot" --server "127.0.0.1:$port" --bots 2 --name Ada --kind maze --size 15x11 \
  --seed 7 --pace 150 --mistakes 0.2 --quiet --timeout 60 >/dev/null &
printf '0 wait watching\n+2500 screenshot %s\n+0 wait watch-results\n+400 wait watch-results\n' \
  "$tmp/watch.bmp" >"$tmp/watch.txt"
shoot watch-results --join "127.0.0.1:$port" --watch any --name Watcher --script "$tmp/watch.txt"
bmp2png "$tmp/watch.bmp" "$out/watch.png"
echo "screenshots: $out/watch.png"
kill "$srv_pid" 2>/dev/null || true
