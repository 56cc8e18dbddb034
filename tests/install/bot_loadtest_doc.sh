#!/bin/sh
# bot_loadtest_doc.sh: docs/bot.md's "Load-testing a server from one address" shows server and bot command lines
# that the programs of this build accept (--check-config for the server; --help lists each bot flag).
# Usage: bot_loadtest_doc.sh SOURCE_DIR MAZERACE-SERVER MAZERACE-BOT
src=$1 srv=$2 bot=$3
doc=$src/docs/bot.md
section=$(sed -n '/^## Load-testing a server from one address/,/^## /p' "$doc")
[ -n "$section" ] || { echo "FAIL: docs/bot.md has no section \"Load-testing a server from one address\""; exit 1; }
# The sh block's lines, continuations joined.
cmds=$(printf '%s\n' "$section" | sed -n '/^```sh/,/^```/p' | sed '1d;$d' | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
server_cmd=$(printf '%s\n' "$cmds" | grep '^mazerace-server ')
bot_cmd=$(printf '%s\n' "$cmds" | grep '^mazerace-bot ')
fails=0
if [ -z "$server_cmd" ] || [ -z "$bot_cmd" ]; then
  echo "FAIL: the section shows no mazerace-server and mazerace-bot command lines"; exit 1
fi
for flag in --gen-queue --gen-rate --gen-burst; do
  printf '%s\n' "$server_cmd" | grep -q -- "$flag" || { echo "FAIL: the server line does not show $flag"; fails=$((fails + 1)); }
done
# shellcheck disable=SC2086
if "$srv" ${server_cmd#mazerace-server } --check-config; then echo "ok: the server accepts: $server_cmd"; else
  echo "FAIL: the server refuses: $server_cmd"; fails=$((fails + 1)); fi
for flag in $(printf '%s\n' "$bot_cmd" | grep -o -- '--[a-z-]*'); do
  "$bot" --help | grep -q -- "^ *$flag " || { echo "FAIL: mazerace-bot has no $flag"; fails=$((fails + 1)); }
done
[ "$fails" = 0 ] && echo "ok: the bot's flags exist: $bot_cmd"
[ "$fails" = 0 ]
