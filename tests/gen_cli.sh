#!/usr/bin/env bash
# gen_cli.sh: mazerace-gen's command line as a user meets it: printing,
# solving its own output, bad input with line:column and the exit codes.
set -u
GEN=$1
fails=0
check() { # description, expected exit code, command...
  local what=$1 want=$2; shift 2
  "$@" >/tmp/gen_cli.$$ 2>&1
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $what: exit $rc, wanted $want"; sed 's/^/  | /' /tmp/gen_cli.$$; fails=$((fails + 1))
  else
    echo "ok: $what"
  fi
}
expect_out() { # description, pattern, command...
  local what=$1 pat=$2; shift 2
  if "$@" 2>&1 | grep -qE -- "$pat"; then echo "ok: $what"; else echo "FAIL: $what: no '$pat'"; fails=$((fails + 1)); fi
}

check "help" 0 "$GEN" --help
expect_out "version" "^mazerace-gen [0-9]" "$GEN" --version
for id in sum:5x4:hard#11 maze:30x20:medium#2 ice:25x20:hard#12345 pipes:6x4:easy#9; do
  kind=${id%%:*}
  check "print $id" 0 "$GEN" "$id"
  expect_out "header of $id" "^# id: $id$" "$GEN" "$id"
  # The solver reads the printed puzzle back and finds a solution of the same length.
  want=$("$GEN" "$id" | sed -n 's/^# solution (\([0-9]*\) moves).*/\1/p')
  got=$("$GEN" "$id" | "$GEN" solve "$kind" - | sed -n 's/^moves: //p')
  if [ -n "$want" ] && [ "$want" = "$got" ]; then echo "ok: solve $id ($got moves)"; else
    echo "FAIL: solve $id: printed $want, solved $got"; fails=$((fails + 1)); fi
  # Same ID, same puzzle.
  if [ "$("$GEN" "$id")" = "$("$GEN" "$id")" ]; then echo "ok: deterministic $id"; else
    echo "FAIL: $id differs between runs"; fails=$((fails + 1)); fi
done
full=$("$GEN" --id-only ice:25x20:easy#3)
check "full-description ID" 0 "$GEN" "$full"
expect_out "count" "sum:5x4:" "$GEN" -n 3 --id-only -k sum -S 1
[ "$("$GEN" -n 3 --id-only -k sum -S 1 | wc -l)" = 3 ] && echo "ok: three IDs" || { echo "FAIL: count"; fails=$((fails + 1)); }
check "flags form" 0 "$GEN" --kind pipes --size 8x6 --difficulty hard --seed 4

check "unknown option" 2 "$GEN" --bogus
check "bad kind" 2 "$GEN" chess#1
check "bad size" 2 "$GEN" --kind ice --size 25by20
check "huge size" 2 "$GEN" --kind ice --size 99999x99999
check "bad seed" 2 "$GEN" --seed -4
check "bad difficulty" 2 "$GEN" ice:25x20:insane#1
check "bad count" 2 "$GEN" -n 0 sum#1
check "impossible request" 1 "$GEN" ice:5x5:hard#1
check "solve: missing file" 2 "$GEN" solve ice /nonexistent/file
check "solve: unknown kind" 2 "$GEN" solve chess -
printf 'OOOO\nO.xO\n' > /tmp/gen_cli_bad.$$
check "solve: bad text" 2 "$GEN" solve ice /tmp/gen_cli_bad.$$
expect_out "solve: line and column" ":2:3: " "$GEN" solve ice /tmp/gen_cli_bad.$$
# Replays (docs/replay.md): the example checks; a broken one names line:column, exit 2.
REPLAY=$(dirname "$0")/replays/maze-8x6.replay
check "replay: example" 0 "$GEN" replay "$REPLAY"
expect_out "replay: result" "^result: ann \(player 0\) won, solved$" "$GEN" replay "$REPLAY"
expect_out "replay: times" "^player 0: ann: 12 moves, 5.542 s, solved$" "$GEN" replay "$REPLAY"
expect_out "replay: standard input" "^replay: ok \(20 moves checked\)$" "$GEN" replay - <"$REPLAY"
sed 's/^move 900 0 U$/move 900 0 L/' "$REPLAY" >/tmp/gen_cli_bad.$$
check "replay: illegal move" 2 "$GEN" replay /tmp/gen_cli_bad.$$
expect_out "replay: illegal move's line" ":9:12: move refused by the engine: a wall is in the way" "$GEN" replay /tmp/gen_cli_bad.$$
sed 's/^end 5542 solved 0$/end 5542 solved 1/' "$REPLAY" >/tmp/gen_cli_bad.$$
expect_out "replay: wrong ending" ":29:5: the ending does not match" "$GEN" replay /tmp/gen_cli_bad.$$
printf 'mazerace-replay 9\n' >/tmp/gen_cli_bad.$$
expect_out "replay: version" ":1:17: unsupported replay version" "$GEN" replay /tmp/gen_cli_bad.$$
check "replay: missing file" 2 "$GEN" replay /nonexistent/file
check "replay: no file" 2 "$GEN" replay
check "bench --quick" 0 "$GEN" bench --quick --count 5 --kind sum
expect_out "bench-bot: the levels' table" "^\| pipes \| 6x4 \(default\) \| [0-9.]+ \([0-9]+\) \| [0-9.]+ \([0-9]+\) \| [0-9.]+ \([0-9]+\) \| [0-9.]+ \([0-9]+\) \| [0-9.]+ \([0-9]+\) \|$" "$GEN" bench-bot --count 5 --kind pipes
check "bench-bot: bad level count" 2 "$GEN" bench-bot --count 0
check "bench-bot: bad difficulty" 2 "$GEN" bench-bot --difficulty brutal
rm -f /tmp/gen_cli.$$ /tmp/gen_cli_bad.$$
if [ "$fails" -eq 0 ]; then echo "gen_cli: all checks passed"; exit 0; fi
echo "gen_cli: $fails check(s) failed"; exit 1
