#!/usr/bin/env bash
# journey_upnp.sh: a host behind a miniupnpd router maps ENet's port (UPnP-IGD, then NAT-PMP), a player from
# another home races it through the mapped port, and the mapping is gone once the host exits.
set -euo pipefail
TOOL=$1
NAT_LIB_DIR=$(cd "$(dirname "$0")" && pwd)
source "$NAT_LIB_DIR/lib.sh"
source "$NAT_LIB_DIR/netns.sh"
nat_netns_init "$(mktemp -d "${TMPDIR:-/tmp}/mr-nat-upnp.XXXXXX")"
nat_add_home 1 upnp
nat_add_home 2 sym

mapped_rules() { nat_in nat1 nft list chain inet miniupnpd prerouting_miniupnpd | grep -c "dnat" || true; }

for proto in upnp natpmp; do
  out="$NAT_DIR/host-$proto.out"
  nat_bg home1 "$out" "$TOOL" host "--$proto" --play --seconds 30
  host_pid=$NAT_LAST_PID
  nat_wait_key "$out" ready 10 >/dev/null || nat_fail "$proto: the host never got ready"
  addr=$(nat_key "$out" upnp)
  local_port=$(nat_key "$out" local)
  [ -n "$addr" ] || nat_fail "$proto: no mapping: $(nat_key "$out" upnp_error)"
  want=$([ $proto = upnp ] && echo UPnP-IGD || echo NAT-PMP)
  [ "$(nat_key "$out" upnp_via)" = "$want" ] || nat_fail "$proto: mapped through $(nat_key "$out" upnp_via), not $want"
  [ "$addr" = "11.0.0.11:$local_port" ] || nat_fail "$proto: mapped $addr, expected the router's 11.0.0.11:$local_port"
  [ "$(mapped_rules)" -ge 1 ] || nat_fail "$proto: no forwarding rule on the router"
  echo "$proto: the router forwards $addr to the host's port $local_port"
  # A player in the other home, given the host's LAN address (no way there
  # from another home) and the mapped one, races the host through the mapped port.
  nat_in home2 "$TOOL" join --cand "direct=192.168.1.2:$local_port" --cand "mapped=$addr" --seconds 30 \
    >"$NAT_DIR/join-$proto.out" 2>&1 || nat_fail "$proto: the joiner failed: $(cat "$NAT_DIR/join-$proto.out")"
  [ "$(nat_key "$NAT_DIR/join-$proto.out" path)" = "port mapping" ] ||
    nat_fail "$proto: the path taken: $(nat_key "$NAT_DIR/join-$proto.out" path_report)"
  wait "$host_pid" || nat_fail "$proto: the host failed: $(cat "$out")"
  grep -q "^join_result=slot 1 winner [01] reason 0" "$NAT_DIR/join-$proto.out" || nat_fail "$proto: no finished race on the joiner"
  grep -q "^host_result=slot 0 winner [01] reason 0" "$out" || nat_fail "$proto: no finished race on the host"
  echo "$proto: raced; $(nat_key "$NAT_DIR/join-$proto.out" path_report)"
  # Removed on exit.
  [ "$(mapped_rules)" -eq 0 ] || nat_fail "$proto: the mapping outlived the host"
done
echo "PASS: UPnP-IGD and NAT-PMP mappings, a race through each, removed on exit"
