#!/usr/bin/env bash
# journey_punch.sh: two homes behind endpoint-independent NATs (no UPnP): each learns its public address by STUN
# from ENet's socket, both send probes, then ENet connects and they race; without the probes the NAT keeps the
# joiner out (the control).
set -euo pipefail
TOOL=$1
NAT_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
source "$NAT_LIB_DIR/lib.sh"
source "$NAT_LIB_DIR/netns.sh"
nat_netns_init "$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-punch.XXXXXX")"
nat_pub_coturn s3cret # its STUN side only
nat_add_home 1 eim
nat_add_home 2 eim
STUN=11.0.0.1:3478

# The host tries port mapping too: this router has neither UPnP nor NAT-PMP.
nat_bg home1 "$NAT_DIR/host.out" "$TOOL" host --stun $STUN --upnp --natpmp --punch-file "$NAT_DIR/peer" --play --seconds 40
host_pid=$NAT_LAST_PID
host_pub=$(nat_wait_key "$NAT_DIR/host.out" stun 10) || nat_fail "the host learnt no public address"
host_local=$(nat_key "$NAT_DIR/host.out" local)
# The endpoint-independent NAT keeps the port; STUN saw the router's address.
[ "$host_pub" = "11.0.0.11:$host_local" ] || nat_fail "STUN mapped $host_pub, expected 11.0.0.11:$host_local"

pm_error=$(nat_wait_key "$NAT_DIR/host.out" upnp_error 10) || nat_fail "port mapping did not fail behind a router without it"
[[ $pm_error == "UPnP-IGD: "*"; NAT-PMP: "* ]] || nat_fail "the port-mapping failure does not name both tries: $pm_error"
echo "port mapping: $pm_error"

# Control: straight at the host's public address, no probes from the host: the NAT drops it.
if nat_in home2 "$TOOL" join "$host_pub" --connect-only --path-ms 2000 >"$NAT_DIR/control.out" 2>&1; then
  nat_fail "connected to $host_pub without punching: the NAT is not filtering"
fi

nat_bg home2 "$NAT_DIR/join.out" "$TOOL" join --cand "direct=192.168.1.2:$host_local" --cand "punched=$host_pub" \
  --stun $STUN --seconds 40
join_pid=$NAT_LAST_PID
join_pub=$(nat_wait_key "$NAT_DIR/join.out" mapped 10) || nat_fail "the joiner learnt no public address"
[[ $join_pub == 11.0.0.12:* ]] || nat_fail "the joiner's STUN address $join_pub is not its router's"
# The coordinator's part: hand the joiner's address to the host.
echo "$join_pub" >"$NAT_DIR/peer.tmp" && mv "$NAT_DIR/peer.tmp" "$NAT_DIR/peer"
wait "$join_pid" || nat_fail "the joiner failed: $(cat "$NAT_DIR/join.out")"
wait "$host_pid" || nat_fail "the host failed: $(cat "$NAT_DIR/host.out")"
[ "$(nat_key "$NAT_DIR/join.out" path)" = "hole punching" ] || nat_fail "path: $(nat_key "$NAT_DIR/join.out" path_report)"
grep -q "^join_result=slot 1 winner [01] reason 0" "$NAT_DIR/join.out" || nat_fail "no finished race on the joiner"
grep -q "^host_result=slot 0 winner [01] reason 0" "$NAT_DIR/host.out" || nat_fail "no finished race on the host"
echo "PASS: punched $join_pub -> $host_pub and raced; $(nat_key "$NAT_DIR/join.out" path_report)"
