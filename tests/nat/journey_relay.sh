#!/usr/bin/env bash
# journey_relay.sh: two homes behind symmetric NATs (random ports). The host learns its STUN address and takes a
# relayed address from coturn with REST credentials; the other home's player tries both at once: punching fails
# (the control: the NATs are symmetric), so it races the host through the relay.
# With "cut": the relay is cut mid-race for 4 s and the race goes on to its end, both ends agreeing move for move;
# with "gone": coturn dies mid-race, the joiner cannot come back, and the host wins as the rules say (by forfeit
# after the grace period, or by solving first).
set -euo pipefail
TOOL=$1
MODE=${2:-plain}
NAT_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
source "$NAT_LIB_DIR/lib.sh"
source "$NAT_LIB_DIR/netns.sh"
nat_netns_init "$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-relay.XXXXXX")"
SECRET=$(head -c 12 /dev/urandom | base64)
# The relay as deployed: a bandwidth cap per session (docs/nat.md), a few allocations per user.
nat_pub_coturn "$SECRET" --max-bps=64000 --user-quota=4
nat_add_home 1 sym
nat_add_home 2 sym
STUN=11.0.0.1:3478
J="$NAT_DIR/join.out"
H="$NAT_DIR/host.out"

# The coordinator's part: time-limited credentials for this pair, the joiner's public address.
user=$(nat_rest_user "$SECRET" race42 600)
pass=$(nat_rest_pass "$SECRET" "$user")
game=maze:12x12:easy#42
[ "$MODE" = plain ] || game=maze:60x60:hard#5
# Gone: a race long enough (about 18 s) for the server to give the joiner up
# (ENet's time-out, then the 3 s grace) before the host's player solves it.
[ "$MODE" != gone ] || game=maze:100x100:hard#5
nat_bg home1 "$H" "$TOOL" host --stun $STUN --punch-file "$NAT_DIR/peer" --turn $STUN --turn-user "$user" \
  --turn-pass "$pass" --turn-peer 11.0.0.12 --play --game "$game" --grace-ms 3000 --seconds 90
host_pid=$NAT_LAST_PID
relay=$(nat_wait_key "$H" relay 10) || nat_fail "no relayed address: $(nat_key "$H" turn_error)"
[[ $relay == 11.0.0.1:* ]] || nat_fail "relayed address $relay is not on the TURN server"
host_stun=$(nat_key "$H" stun)
# The joiner tries every path at once; punching cannot work between symmetric
# NATs (each side's NAT shows the other a new port), so the relay wins.
# (Gone: the joiner stops trying to resume after 5 s, not the default's longer wait.)
resume=()
[ "$MODE" != gone ] || resume=(--resume-ms 5000)
nat_bg home2 "$J" "$TOOL" join --cand "punched=$host_stun" --cand "relayed=$relay" --stun $STUN --seconds 90 "${resume[@]}"
join_pid=$NAT_LAST_PID
jp=$(nat_wait_key "$J" mapped 10) || nat_fail "no STUN address for the joiner"
echo "$jp" >"$NAT_DIR/peer.tmp" && mv "$NAT_DIR/peer.tmp" "$NAT_DIR/peer"
nat_wait_key "$J" path 10 >/dev/null || nat_fail "no path: $(nat_key "$J" path_error)"
report=$(nat_key "$J" path_report)
[ "$(nat_key "$J" path)" = "TURN relay" ] || nat_fail "path: $report"
[[ $report == *"hole punching $host_stun: no answer"* ]] || nat_fail "punching through symmetric NATs did not fail: $report"
echo "paths: $report"

cut_on() {
  nat_in pub nft -f - <<NFT
table inet cut {
  chain in { type filter hook input priority -300; policy accept; udp dport { 3478, 49152-49252 } counter drop; }
}
NFT
}
case $MODE in
  cut)
    nat_wait_key "$J" moving 20 >/dev/null || nat_fail "the race never got going"
    cut_on
    echo "relay cut"
    sleep 4 # the length of the outage under test, not a wait for something
    dropped=$(nat_in pub nft list table inet cut | grep -o "packets [0-9]*" | cut -d" " -f2)
    nat_in pub nft delete table inet cut
    [ "${dropped:-0}" -gt 0 ] || nat_fail "the cut dropped nothing: the race was not using the relay"
    echo "relay back ($dropped datagrams dropped meanwhile)"
    ;;
  gone)
    nat_wait_key "$J" moving 20 >/dev/null || nat_fail "the race never got going"
    kill "$NAT_COTURN_PID"
    echo "relay gone"
    ;;
esac

host_ok=0
wait "$host_pid" && host_ok=1
join_ok=0
wait "$join_pid" && join_ok=1
hr=$(nat_key "$H" host_result)
jr=$(nat_key "$J" join_result)
echo "host: $hr"
echo "join: $jr"
case $MODE in
  plain | cut)
    [ $host_ok = 1 ] && [ $join_ok = 1 ] || nat_fail "the race did not finish: $(cat "$H" "$J")"
    [[ $hr == "slot 0 winner "[01]" reason 0 "* ]] || nat_fail "no solved race on the host"
    # Nothing lost: both ends saw the same result, move for move.
    [ "${hr#slot 0 }" = "${jr#slot 1 }" ] || nat_fail "the two ends saw different results"
    stats=$(nat_key "$H" relay_stats)
    [[ $stats == *" channels 1 "* ]] || nat_fail "the relay never bound a channel: $stats"
    echo "PASS ($MODE): raced through relay $relay, connect $(nat_key "$J" connect_ms) ms, $stats"
    ;;
  gone)
    [ $join_ok = 0 ] || nat_fail "the joiner finished a race with no relay"
    # The host's player wins: by forfeit once the grace period is over, or by
    # solving first if it gets there before the server gives the joiner up.
    [[ $hr == "slot 0 winner 0 reason "[01]" "* ]] || nat_fail "the host did not win: $(cat "$H")"
    how=$([[ $hr == *"reason 1 "* ]] && echo "by forfeit after the grace period" || echo "by solving before the grace period ran out")
    echo "PASS (gone): the relay died mid-race; the host won $how; the joiner says: $(nat_key "$J" join_failed)"
    ;;
esac
