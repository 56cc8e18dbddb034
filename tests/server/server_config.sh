#!/usr/bin/env bash
# server_config.sh: mazerace-server's config file as an operator meets it: the generated reference and default
# file match the settings table, flags override the file, and bad files exit 2 with file:line and the key.
set -u
SRV=$1
SRC=$2
fails=0
tmp=$(mktemp -d /tmp/server_config.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The defaults compared here are the machine-independent ones: no cgroup memory limit (docs/server.md, Memory).
export MAZERACE_CGROUP_ROOT="$tmp/no-cgroup"
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
check() { # description, expected exit code, stderr pattern (or ""), command...
  local what=$1 want=$2 pat=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then
    bad "$what: exit $rc, wanted $want"; sed 's/^/  | /' "$tmp/err"
  elif [ -n "$pat" ] && ! grep -qE -- "$pat" "$tmp/err"; then
    bad "$what: stderr lacks '$pat'"; sed 's/^/  | /' "$tmp/err"
  else
    ok "$what"
  fi
}
get() { # key, command... : the key's value in --print-config
  local key=$1; shift
  "$@" --print-config 2>/dev/null | sed -n "s/^$key = //p"
}

# 1. The reference in docs/server.md is the table's own output.
sed -n '/<!-- BEGIN config-reference/,/<!-- END config-reference/p' "$SRC/docs/server.md" | sed '1d;$d' >"$tmp/doc"
"$SRV" --print-config-doc >"$tmp/gen"
if [ -s "$tmp/doc" ] && diff -u "$tmp/gen" "$tmp/doc" >"$tmp/diff"; then ok "docs/server.md reference matches"; else
  bad "docs/server.md config reference differs from --print-config-doc (tools/update-server-docs)"; cat "$tmp/diff"; fi
# 2. So is the packaged default file, and it sets nothing but the defaults.
"$SRV" --print-config-template >"$tmp/tmpl"
if diff -u "$tmp/tmpl" "$SRC/packaging/server.conf" >"$tmp/diff"; then ok "packaging/server.conf matches"; else
  bad "packaging/server.conf differs from --print-config-template (tools/update-server-docs)"; cat "$tmp/diff"; fi
: >"$tmp/empty.conf"
"$SRV" --config "$tmp/empty.conf" --print-config | sed 1d >"$tmp/defaults"
"$SRV" --config "$SRC/packaging/server.conf" --print-config | sed 1d >"$tmp/packaged"
if diff -u "$tmp/defaults" "$tmp/packaged"; then ok "packaged file = defaults"; else bad "packaged file is not the defaults"; fi
# Every key is in the template, and uncommenting every line gives the defaults again.
sed 's/^#\([a-z_]* = \)/\1/' "$SRC/packaging/server.conf" >"$tmp/uncommented.conf"
"$SRV" --config "$tmp/uncommented.conf" --print-config | sed 1d >"$tmp/uncommented"
if diff -u "$tmp/defaults" "$tmp/uncommented"; then ok "uncommented template = defaults"; else bad "uncommented template"; fi
n_keys=$(grep -c ' = ' "$tmp/defaults")
n_tmpl=$(grep -c '^[a-z_]* = ' "$tmp/uncommented.conf")
[ "$n_keys" = "$n_tmpl" ] && ok "template has all $n_keys keys" || bad "template has $n_tmpl keys of $n_keys"
# Every flag in --help (but the commands) is a key.
for flag in $("$SRV" --help | grep -oE '^  --[a-z-]+' | sed 's/^  --//'); do
  case $flag in config | check-config | no-discovery | print-config | print-config-doc | print-config-template | list-matches | dump-replay | help | version) continue ;; esac
  grep -q "^${flag//-/_} = " "$tmp/defaults" || bad "flag --$flag has no config key"
done
ok "every flag has a key"

# 3. The file is read; flags override it; --print-config reads back.
cat >"$tmp/a.conf" <<'CONF'
# a comment
   ; another
port = 4000
name = "  Office LAN "
kind=ice
size = 25x20
countdown = 0.5
log_moves = yes
discovery = off
metrics = 9100
drain_timeout = 5
CONF
[ "$(get port "$SRV" --config "$tmp/a.conf")" = 4000 ] && ok "file sets port" || bad "file port"
[ "$(get port "$SRV" --config "$tmp/a.conf" --port 5000)" = 5000 ] && ok "flag overrides file" || bad "flag override"
[ "$(get port "$SRV" --port 5000 --config="$tmp/a.conf")" = 5000 ] && ok "flag overrides file (any order)" || bad "order"
[ "$(get name "$SRV" --config "$tmp/a.conf")" = '"  Office LAN "' ] && ok "quoted value" || bad "quoted value"
[ "$(get metrics "$SRV" --config "$tmp/a.conf")" = 127.0.0.1:9100 ] && ok "metrics default address" || bad "metrics"
[ "$(get countdown "$SRV" --config "$tmp/a.conf")" = 0.5 ] && ok "seconds" || bad "seconds"
"$SRV" --config "$tmp/a.conf" --print-config | sed 1d >"$tmp/round.conf"
"$SRV" --config "$tmp/round.conf" --print-config | sed 1d >"$tmp/round2"
if diff -u "$tmp/round.conf" "$tmp/round2"; then ok "--print-config reads back"; else bad "round trip"; fi

# 4. Bad files: exit 2, file:line and the key.
printf 'port = 1\nbogus_key = 3\n' >"$tmp/unknown.conf"
check "unknown key" 2 "unknown.conf:2: unknown key 'bogus_key'" "$SRV" --config "$tmp/unknown.conf"
printf '\n\nmax_clients = 70000\n' >"$tmp/value.conf"
check "bad value" 2 "value.conf:3: key 'max_clients': '70000'" "$SRV" --config "$tmp/value.conf"
printf 'hosts = 17\n' >"$tmp/hosts.conf"
check "bad hosts" 2 "hosts.conf:1: key 'hosts': '17'" "$SRV" --config "$tmp/hosts.conf"
printf 'hosts = 2\nmax_clients = 8001\n' >"$tmp/few.conf"
check "too few hosts" 2 "too few hosts for max clients" "$SRV" --config "$tmp/few.conf"
printf 'kind = chess\n' >"$tmp/kind.conf"
check "bad kind" 2 "kind.conf:1: key 'kind'" "$SRV" --config "$tmp/kind.conf"
printf 'port 27910\n' >"$tmp/syntax.conf"
check "no =" 2 "syntax.conf:1: expected" "$SRV" --config "$tmp/syntax.conf"
printf 'port = 1\nport = 2\n' >"$tmp/twice.conf"
check "key twice" 2 "twice.conf:2: key 'port' is already set on line 1" "$SRV" --config "$tmp/twice.conf"
printf 'kind = pipes\nsize = 1000x1000\n' >"$tmp/cross.conf"
check "size the kind refuses" 2 "cross.conf: " "$SRV" --config "$tmp/cross.conf"
printf 'metrics = 300.1.2.3:80\n' >"$tmp/metrics.conf"
check "bad metrics in the file" 2 "metrics.conf:1: key 'metrics'" "$SRV" --config "$tmp/metrics.conf"
check "--check-config on a bad file" 2 "value.conf:3: key 'max_clients'" "$SRV" --config "$tmp/value.conf" --check-config
check "--check-config on a good file" 0 "" "$SRV" --config "$tmp/a.conf" --check-config
[ ! -s "$tmp/out" ] && ok "--check-config prints nothing" || bad "--check-config printed something"
check "missing --config file" 2 "nothing.conf: cannot read" "$SRV" --config "$tmp/nothing.conf"
check "--config a directory" 2 "cannot read" "$SRV" --config "$tmp"
check "--config without a path" 2 "needs a value" "$SRV" --config
check "bad --metrics" 2 "--metrics: 'nonsense'" "$SRV" --metrics nonsense
check "bad --metrics address" 2 "--metrics" "$SRV" --metrics 1.2.3:80
check "bad --metrics port" 2 "--metrics" "$SRV" --metrics 127.0.0.1:65536
# A well-formed address that is not on this host: could not start (1), like the game port.
check "metrics address not on this host" 1 "metrics" "$SRV" --bind 127.0.0.1 --port 0 --no-discovery --metrics 192.0.2.1:9100
check "bad --log-format" 2 "--log-format" "$SRV" --log-format xml
check "bad --drain-timeout" 2 "--drain-timeout" "$SRV" --drain-timeout 3601

echo "$fails failures"
[ "$fails" = 0 ]
