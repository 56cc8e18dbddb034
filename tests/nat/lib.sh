# tests/nat/lib.sh: shared helpers of the NAT tests (sourced): coturn with an explicit config, REST credentials, waits.
# Every wait is bounded; nothing here reads the machine's configuration.

# nat_fail MESSAGE: print and exit 1.
nat_fail() { echo "FAIL: $*" >&2; exit 1; }

# nat_wait_key FILE KEY SECONDS: wait until FILE has a line KEY=...; prints the value.
nat_wait_key() {
  local file=$1 key=$2 secs=$3 i
  for ((i = 0; i < secs * 50; i++)); do
    if grep -q "^$key=" "$file" 2>/dev/null; then
      grep -m1 "^$key=" "$file" | cut -d= -f2-
      return 0
    fi
    sleep 0.02
  done
  echo "timed out after ${secs}s waiting for $key in $file:" >&2
  cat "$file" >&2 || true
  return 1
}

# nat_key FILE KEY: the value of KEY=... in FILE (empty if absent).
nat_key() { grep -m1 "^$2=" "$1" 2>/dev/null | cut -d= -f2- || true; }

# nat_rest_user SECRET NAME SECONDS / nat_rest_pass SECRET USER: coturn's
# shared-secret REST credentials (what the coordinator issues):
# username "EXPIRY:NAME", password base64(HMAC-SHA1(secret, username)).
nat_rest_user() { echo "$(($(date +%s) + $3)):$2"; }
nat_rest_pass() {
  python3 -c 'import base64,hashlib,hmac,sys; print(base64.b64encode(hmac.new(sys.argv[1].encode(), sys.argv[2].encode(), hashlib.sha1).digest()).decode())' "$1" "$2"
}

# nat_coturn DIR LISTEN_IP PORT RELAY_IP SECRET [EXTRA...]: starts turnserver in
# the background with every setting on its command line (-n: no config
# file; its database, pid and log in DIR), in namespace $NAT_COTURN_NS if
# set; sets NAT_COTURN_PID and waits (bounded) for its UDP port.
nat_coturn() {
  local dir=$1 ip=$2 port=$3 relay=$4 secret=$5
  shift 5
  local pre=()
  [ -z "${NAT_COTURN_NS:-}" ] || pre=(ip netns exec "$NAT_COTURN_NS")
  "${pre[@]}" turnserver -n --listening-ip="$ip" --listening-port="$port" --relay-ip="$relay" \
    --min-port=49152 --max-port=49252 --realm=mazerace --use-auth-secret --static-auth-secret="$secret" \
    --no-tls --no-dtls --no-tcp --no-tcp-relay --no-cli --no-rfc5780 --no-stun-backward-compatibility \
    --db="$dir/turndb" --pidfile="$dir/turnserver.pid" --log-file=stdout --simple-log "$@" \
    >"$dir/turnserver.log" 2>&1 &
  NAT_COTURN_PID=$!
  local i
  for ((i = 0; i < 250; i++)); do
    [ -n "$("${pre[@]}" ss -Huan "sport = :$port" 2>/dev/null)" ] && return 0
    kill -0 "$NAT_COTURN_PID" 2>/dev/null || break
    sleep 0.02
  done
  echo "turnserver did not start:" >&2
  tail -20 "$dir/turnserver.log" >&2
  return 1
}
