# tests/nat/netns.sh: the NAT test network (sourced): a "public" namespace and homes behind NAT routers, all made here.
# Needs root and network namespaces; nat_netns_init exits 77 (ctest SKIP) with a message where they are refused.
#
#   home ns (192.168.N.2/24) -- lan0 | router ns (NAT, nftables) | wan0 (11.0.0.N/24) -- br0 in pub ns (11.0.0.1/24)
#
# Kinds of router: eim (masquerade keeping the port: endpoint-independent
# mapping, address-and-port-dependent filtering), sym (masquerade random:
# a new random port for every destination, i.e. symmetric), upnp (eim and
# miniupnpd, UPnP-IGD and NAT-PMP). 11.0.0.0/24 stands in for the public
# internet: miniupnpd refuses documentation and private ranges on its
# outside. The namespaces have no link to the machine's own network, so no
# packet of these tests leaves them. Everything is removed on exit.

NAT_NS_PREFIX="mrn$$"
NAT_NS_LIST=()
NAT_PIDS=()

nat_netns_skip() {
  echo "SKIP: $*" >&2
  exit 77
}

# nat_netns_init DIR: checks that namespaces can be made, makes pub with its
# bridge, installs the cleanup trap. DIR holds logs and configs.
nat_netns_init() {
  NAT_DIR=$1
  mkdir -p "$NAT_DIR"
  unshare -n true 2>/dev/null || nat_netns_skip "network namespaces refused here (unshare -n failed); the NAT journeys need root and CLONE_NEWNET"
  ip netns add "${NAT_NS_PREFIX}pub" 2>/dev/null || nat_netns_skip "cannot make a named network namespace (ip netns add failed: not root?)"
  NAT_NS_LIST+=("${NAT_NS_PREFIX}pub")
  trap nat_netns_cleanup EXIT
  local P="${NAT_NS_PREFIX}pub"
  ip -n "$P" link set lo up
  ip -n "$P" link add br0 type bridge
  ip -n "$P" addr add 11.0.0.1/24 dev br0
  ip -n "$P" link set br0 up
}

nat_netns_cleanup() {
  local pid ns
  for pid in "${NAT_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${NAT_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  for ns in "${NAT_NS_LIST[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  # Logs and configs go with them, unless NAT_KEEP=1 (to read after a failure).
  [ "${NAT_KEEP:-0}" = 1 ] || rm -rf "$NAT_DIR"
}

# nat_ns NAME: the full namespace name of pub, or of a home or its router.
nat_ns() { echo "${NAT_NS_PREFIX}$1"; }

# nat_in NAME CMD...: runs CMD in namespace NAME.
nat_in() {
  local ns
  ns=$(nat_ns "$1")
  shift
  ip netns exec "$ns" "$@"
}

# nat_bg NAME OUTFILE CMD...: runs CMD in namespace NAME in the background,
# stdout to OUTFILE (stderr to OUTFILE.err); sets NAT_LAST_PID and removes
# it on exit.
nat_bg() {
  local ns out=$2
  ns=$(nat_ns "$1")
  shift 2
  : >"$out" # now, so nobody waiting on it reads an earlier run's lines
  ip netns exec "$ns" "$@" >"$out" 2>"$out.err" &
  NAT_LAST_PID=$!
  NAT_PIDS+=("$NAT_LAST_PID")
}

# nat_add_home N KIND: home N (1..9) behind a router of KIND (eim, sym,
# upnp). The router's public address is 11.0.0.(10+N), the home's
# 192.168.N.2. Homes are named homeN, routers natN.
nat_add_home() {
  local n=$1 kind=$2
  local H R P wan="11.0.0.$((10 + n))"
  H=$(nat_ns "home$n")
  R=$(nat_ns "nat$n")
  P=$(nat_ns pub)
  ip netns add "$H"
  NAT_NS_LIST+=("$H")
  ip netns add "$R"
  NAT_NS_LIST+=("$R")
  ip -n "$H" link set lo up
  ip -n "$R" link set lo up
  # router <-> pub: wan0 in the router, its peer on pub's bridge
  ip -n "$R" link add wan0 type veth peer name "w$n" netns "$P"
  ip -n "$P" link set "w$n" master br0 up
  ip -n "$R" addr add "$wan/24" dev wan0
  ip -n "$R" link set wan0 up
  # home <-> router
  ip -n "$R" link add lan0 type veth peer name eth0 netns "$H"
  ip -n "$R" addr add "192.168.$n.1/24" dev lan0
  ip -n "$R" link set lan0 up
  ip -n "$H" addr add "192.168.$n.2/24" dev eth0
  ip -n "$H" link set eth0 up
  ip -n "$H" route add default via "192.168.$n.1"
  ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
  case $kind in
    eim) nat_rules "$R" "masquerade" ;;
    sym) nat_rules "$R" "masquerade random" ;;
    upnp)
      nat_rules "$R" "masquerade"
      nat_miniupnpd "$n"
      ;;
    *) nat_fail "unknown router kind $kind" ;;
  esac
}

# The router's tables: the miniupnpd chains (empty unless miniupnpd runs),
# forwarding that lets out anything from the home and in only replies or
# what miniupnpd forwarded, and the masquerade. Like a home router's
# firewall, it drops new datagrams from outside to itself: a dropped one
# leaves no conntrack entry, while one answered with ICMP would hold the
# port and make the next outgoing mapping take another (hole punching
# through Linux routers depends on this).
nat_rules() {
  local R=$1 masq=$2
  ip netns exec "$R" nft -f - <<NFT
table inet miniupnpd {
  chain forward {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "lan0" oifname "wan0" accept
    jump miniupnpd
  }
  chain miniupnpd {
  }
  chain input {
    type filter hook input priority 0; policy accept;
    iifname "wan0" ct state new drop
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    jump postrouting_miniupnpd
    oifname "wan0" $masq
  }
  chain prerouting_miniupnpd {
  }
  chain postrouting_miniupnpd {
  }
}
NFT
}

# miniupnpd on router N, configured by a file of ours (no system config),
# in the foreground (-d) with its pid and lease files in NAT_DIR.
nat_miniupnpd() {
  local n=$1 conf="$NAT_DIR/miniupnpd$n.conf"
  cat >"$conf" <<CONF
ext_ifname=wan0
listening_ip=lan0
http_port=0
enable_natpmp=yes
enable_upnp=yes
secure_mode=yes
system_uptime=no
lease_file=$NAT_DIR/miniupnpd$n.leases
uuid=3f5a7c1e-2d3b-4e5f-9a0b-1c2d3e4f5a6$n
upnp_table_name=miniupnpd
upnp_nat_table_name=miniupnpd
upnp_forward_chain=miniupnpd
upnp_nat_chain=prerouting_miniupnpd
upnp_nat_postrouting_chain=postrouting_miniupnpd
allow 1024-65535 192.168.$n.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
CONF
  nat_bg "nat$n" "$NAT_DIR/miniupnpd$n.log" miniupnpd -f "$conf" -d -P "$NAT_DIR/miniupnpd$n.pid"
  local i
  for ((i = 0; i < 250; i++)); do
    [ -n "$(ip netns exec "$(nat_ns "nat$n")" ss -Huan "sport = :5351" 2>/dev/null)" ] && return 0
    sleep 0.02
  done
  cat "$NAT_DIR/miniupnpd$n.log.err" >&2
  nat_fail "miniupnpd did not start on router $n"
}

# nat_pub_coturn SECRET [EXTRA...]: coturn in pub at 11.0.0.1:3478 (relayed
# addresses on 11.0.0.1 too); NAT_COTURN_PID is its pid.
nat_pub_coturn() {
  local secret=$1
  shift
  NAT_COTURN_NS=$(nat_ns pub) nat_coturn "$NAT_DIR" 11.0.0.1 3478 11.0.0.1 "$secret" "$@" || nat_fail "coturn did not start in pub"
  NAT_PIDS+=("$NAT_COTURN_PID")
}
