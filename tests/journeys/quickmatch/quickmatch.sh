#!/usr/bin/env bash
# quickmatch.sh: quick-match journeys played by the real programs on 127.0.0.1 (docs/racing.md, "Quick match").
#   quickmatch.sh bots SERVER BOT N          N bots ask for a quick match at once on the default size; each
#                                            plays its race to the end
#   quickmatch.sh big SERVER BOT N           the same on maze 1000x1000, N bots that stop once paired
#   quickmatch.sh lanhost CLIENT BOT         a client hosting a LAN game; a bot's quick match at its
#                                            address takes the host's seat and both race
# Every wait is bounded; whatever this starts is stopped by its pid on exit.
set -u
mode=$1
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
    exit 1
}

# Waits (at most 15 s) for a line of $1 matching the regex $2; prints its first capture group.
wait_line() {
    local i
    for ((i = 0; i < 150; i++)); do
        if [ -f "$1" ] && grep -a -q -E "$2" "$1"; then
            grep -a -o -E "$2" "$1" | head -n 1 | sed -E "s/$2/\\1/"
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# A server on a free port (in this shell, so that cleanup stops it): sets port.
start_server() {
    "$SERVER" --config /dev/null --db none --bind 127.0.0.1 --port 0 --no-discovery --spectator-port off \
        --log-level warn --countdown 0.5 "$@" >"$tmp/server.log" 2>&1 &
    pids+=("$!")
    port=$(wait_line "$tmp/server.log" 'listening on 127\.0\.0\.1:([0-9]+)') || fail "the server did not start"
}

# Runs the bots; checks every one finished and was paired.
run_bots() {
    local n=$1
    shift
    local t0 t1 rc within
    t0=$(date +%s%N)
    "$BOT" --server "127.0.0.1:$port" --bots "$n" --quiet --timeout 50 "$@" >"$tmp/bots.log" 2>&1
    rc=$?
    t1=$(date +%s%N)
    tail -n 3 "$tmp/bots.log"
    echo "bots took $(((t1 - t0) / 1000000)) ms"
    [ $rc -eq 0 ] || fail "mazerace-bot exited $rc"
    grep -q "^summary: $n bots, $n done, 0 failed" "$tmp/bots.log" || fail "not every bot finished"
    grep -q "^pairing: $n of $n bots paired" "$tmp/bots.log" || fail "not every bot was paired"
    # They all asked for their race within one second.
    within=$(grep -o 'asked within [0-9.]* ms' "$tmp/bots.log" | cut -d' ' -f3)
    if [ -z "$within" ] || [ "${within%.*}" -ge 1000 ]; then
        fail "the bots asked over $within ms"
    fi
}

case $mode in
bots)
    SERVER=$2 BOT=$3
    start_server
    run_bots "$4" --matches 1 --pace 50
    games=$(grep -o '[0-9]* games seen' "$tmp/bots.log" | cut -d' ' -f1)
    [ "$games" = "$4" ] || fail "$games games seen by $4 bots"
    ;;
big)
    SERVER=$2 BOT=$3
    # All bots share 127.0.0.1: its generation budget (4x --gen-burst) and puzzle memory (1/8 of
    # --puzzle-mem) are raised so that N/2 puzzles of 1000x1000 fit.
    start_server --kind maze --size 1000x1000 --gen-burst 600000 --puzzle-mem 65536
    run_bots "$4" --pair-only
    ;;
lanhost)
    CLIENT=$2 BOT=$3
    printf '0 wait lobby\n+0 wait race\n+0 wait results\n+200 quit\n' >"$tmp/host.txt"
    "$CLIENT" --headless --host maze:9x7:easy#21 --host-bind 127.0.0.1 --host-port 0 --name Host \
        --script "$tmp/host.txt" --max-seconds 40 --no-save >"$tmp/host.log" 2>&1 &
    host=$!
    pids+=("$host")
    port=$(wait_line "$tmp/host.log" 'hosting on port ([0-9]+)') || fail "the host did not start"
    wait_line "$tmp/host.log" 'room code ([A-Z0-9]+)' >/dev/null || fail "the host has no room"
    # Quick match (no room code) at the host's address.
    "$BOT" --server "127.0.0.1:$port" --name Friend --pace 40 --matches 1 --timeout 30 >"$tmp/bot.log" 2>&1
    rc=$?
    cat "$tmp/bot.log"
    [ $rc -eq 0 ] || fail "the bot exited $rc"
    grep -q 'maze:9x7:easy#21' "$tmp/bot.log" || fail "the bot did not race the host's puzzle"
    grep -q -E 'Host vs Friend|Friend vs Host' "$tmp/bot.log" || fail "the bot did not race the host"
    for ((i = 0; i < 150; i++)); do kill -0 "$host" 2>/dev/null || break; sleep 0.1; done
    wait "$host"
    rc=$?
    [ $rc -eq 0 ] || fail "the host exited $rc"
    grep -q '^RESULT winner=' "$tmp/host.log" || fail "the host saw no result"
    ;;
*)
    echo "usage: quickmatch.sh bots|big SERVER BOT N | lanhost CLIENT BOT"
    exit 2
    ;;
esac
echo "ok"
