#!/usr/bin/env bash
# journey_invite.sh: the invite-code journey with the real game on both sides, behind real NATs. A coordinator
# (and, for the relay, coturn) in the public namespace; the game hosting in one home gets an invite code; a
# friend in another home runs `mazerace --join +CODE` and they race to the result. MODE picks the homes and the
# path that must win: upnp (host behind a miniupnpd router: port mapping), punch (both behind
# endpoint-independent NATs, no UPnP: hole punching), relay (both behind symmetric NATs: TURN relay);
# none (symmetric NATs and a coordinator without a relay): the friend is told every path tried and why.
set -euo pipefail
CLIENT=$1
COORD=$2
GEN=$3
MODE=$4
NAT_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
source "$NAT_LIB_DIR/lib.sh"
source "$NAT_LIB_DIR/netns.sh"
nat_netns_init "$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-invite.XXXXXX")"
case $MODE in
  upnp) homes=(upnp eim) want="port mapping" ;;
  punch) homes=(eim eim) want="hole punching" ;;
  relay) homes=(sym sym) want="TURN relay" ;;
  none) homes=(sym sym) want="" ;;
  *) nat_fail "unknown mode $MODE" ;;
esac
nat_add_home 1 "${homes[0]}"
nat_add_home 2 "${homes[1]}"
turn=()
if [ "$MODE" = relay ]; then
  SECRET=$(head -c 12 /dev/urandom | base64)
  printf '%s\n' "$SECRET" >"$NAT_DIR/turn-secret"
  nat_pub_coturn "$SECRET" --max-bps=64000 --user-quota=4
  turn=(--turn-server 11.0.0.1:3478 --turn-secret-file "$NAT_DIR/turn-secret")
fi
nat_bg pub "$NAT_DIR/co.out" "$COORD" --bind 11.0.0.1 --port 27920 "${turn[@]}"
for ((i = 0; i < 250; i++)); do
  grep -q "^listening on" "$NAT_DIR/co.out" && break
  sleep 0.02
done
grep -q "^listening on" "$NAT_DIR/co.out" || nat_fail "the coordinator did not start: $(cat "$NAT_DIR/co.out.err")"

GAME="maze:9x7:easy#21"
# The host readies at once (--host ID) and waits for the result.
printf '0 wait lobby\n+0 wait race\n+0 wait results\n+1500 quit\n' >"$NAT_DIR/host.txt"
printf 'coordinator = 11.0.0.1:27920\n' >"$NAT_DIR/host.settings"
nat_bg home1 "$NAT_DIR/host.out" env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save \
  --history none --settings "$NAT_DIR/host.settings" --max-seconds 60 --host "$GAME" --name Hoster \
  --script "$NAT_DIR/host.txt"
host_pid=$NAT_LAST_PID
code=""
for ((i = 0; i < 500; i++)); do
  code=$(grep -m1 -o "invite code +[A-Z0-9]*" "$NAT_DIR/host.out" 2>/dev/null | cut -d" " -f3 || true)
  [ -n "$code" ] && break
  sleep 0.02
done
[ -n "$code" ] || nat_fail "no invite code on the host: $(cat "$NAT_DIR/host.out" "$NAT_DIR/host.out.err")"
echo "host's invite code: $code"
grep -q "invite link mazerace://$code@11.0.0.1:27920" "$NAT_DIR/host.out" || nat_fail "no invite link in the lobby"
# Behind the UPnP router the code is read out once the router has answered (as a person would, a second later).
if [ "$MODE" = upnp ]; then
  for ((i = 0; i < 500; i++)); do
    grep -q "Router: " "$NAT_DIR/host.out" && break
    sleep 0.02
  done
  grep -q "Router: port 27910 forwarded by UPnP-IGD (11.0.0.11:27910)" "$NAT_DIR/host.out" ||
    nat_fail "the router did not forward the port: $(grep Router "$NAT_DIR/host.out")"
fi

if [ "$MODE" = none ]; then
  printf '0 wait lobby\n+0 wait menu\n+100 quit\n' >"$NAT_DIR/fail.txt"
  printf 'coordinator = 11.0.0.1:27920\n' >"$NAT_DIR/join.settings"
  nat_in home2 env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save --history none \
    --settings "$NAT_DIR/join.settings" --max-seconds 30 --name Friend --join "$code" --script "$NAT_DIR/fail.txt" \
    >"$NAT_DIR/fail.out" 2>&1 || true
  why=$(grep -m1 "Could not reach the game $code. Tried: " "$NAT_DIR/fail.out" || true)
  [ -n "$why" ] || nat_fail "no failure naming the paths: $(cat "$NAT_DIR/fail.out")"
  [[ $why == *"hole punching 11.0.0.11:"*": no answer in "*"no TURN relay (the host offered none)"* ]] ||
    nat_fail "the failure does not name what was tried: $why"
  echo "PASS (none): $why"
  exit 0
fi

# The friend joins by the code alone (the settings know the coordinator), readies (--join) and solves.
moves=$("$GEN" --no-text "$GAME" | sed -n 's/^# solution ([0-9]* moves): //p')
[ -n "$moves" ] || nat_fail "no solution for $GAME"
{
  printf '0 wait lobby\n+0 wait race\n'
  # MR_NAT_SHOTS=DIR (tools/screenshots-invite.sh): the friend's race screen, its path beside the ping.
  [ -z "${MR_NAT_SHOTS:-}" ] || printf '+400 screenshot %s/race-%s.bmp\n' "$MR_NAT_SHOTS" "$MODE"
  for ((i = 0; i < ${#moves}; i++)); do
    case ${moves:i:1} in U) k=W ;; D) k=S ;; L) k=A ;; R) k=D ;; esac
    printf '+60 key %s\n' "$k"
  done
  printf '+0 wait results\n+1000 quit\n'
} >"$NAT_DIR/join.txt"
printf 'coordinator = 11.0.0.1:27920\n' >"$NAT_DIR/join.settings"
start=$(date +%s%N)
nat_in home2 env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save --history none \
  --settings "$NAT_DIR/join.settings" --max-seconds 60 --name Friend --join "$code" --script "$NAT_DIR/join.txt" \
  >"$NAT_DIR/join.out" 2>"$NAT_DIR/join.err" || nat_fail "the friend's game failed: $(cat "$NAT_DIR/join.out" "$NAT_DIR/join.err")"
took=$((($(date +%s%N) - start) / 1000000))
reached=$(grep -m1 "^mazerace: reached $code by " "$NAT_DIR/join.out" || true)
[ -n "$reached" ] || nat_fail "the friend never reached the game: $(cat "$NAT_DIR/join.out" "$NAT_DIR/join.err")"
echo "$reached"
[[ $reached == *"by $want to "* ]] || nat_fail "the path taken is not $want"
grep -q "^RESULT winner=1 winner_name=Friend reason=solved" "$NAT_DIR/join.out" ||
  nat_fail "no solved race on the friend's side: $(grep RESULT "$NAT_DIR/join.out")"
wait "$host_pid" || nat_fail "the host's game failed: $(cat "$NAT_DIR/host.out" "$NAT_DIR/host.out.err")"
grep -q "^RESULT winner=1 winner_name=Friend reason=solved" "$NAT_DIR/host.out" ||
  nat_fail "the host saw another result: $(grep RESULT "$NAT_DIR/host.out")"
grep -q "a friend at 11.0.0.12:[0-9]* is joining" "$NAT_DIR/host.out" || nat_fail "the host was never introduced to the friend"
if [ "$MODE" = upnp ]; then
  rules=$(nat_in nat1 nft list chain inet miniupnpd prerouting_miniupnpd | grep -c dnat || true)
  [ "$rules" -eq 0 ] || nat_fail "the port mapping outlived the host"
fi
if [ "$MODE" = relay ]; then
  grep -q "relay ready at 11.0.0.1:" "$NAT_DIR/host.out" || nat_fail "the host never had a relay"
fi
# The host's exit ended the code at once (HOST_LEAVE), not a minute later: looking it up again finds nothing.
printf '0 wait lobby\n+0 wait menu\n+100 quit\n' >"$NAT_DIR/again.txt"
nat_in home2 env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$CLIENT" --headless --no-save --history none \
  --settings "$NAT_DIR/join.settings" --max-seconds 20 --name Friend --join "$code" --script "$NAT_DIR/again.txt" \
  >"$NAT_DIR/again.out" 2>&1 || true
grep -q "No game has the invite code $code" "$NAT_DIR/again.out" || nat_fail "the code outlived its host: $(cat "$NAT_DIR/again.out")"
echo "PASS ($MODE): joined $code by $want and raced to the result (the friend's whole run: $took ms)"
