#!/bin/sh
# no_server.sh: the conformance harness fails cleanly (exit 1, a message with the server's own error) when its
# server does not start, at the first start or at a later restart; never a crash (it once died of SIGSEGV).
# Usage: no_server.sh CONFORMANCE MAZERACE-SERVER PROTOCOL_MD
conf=$1 srv=$2 doc=$3
tmp=$(mktemp -d /tmp/mr_noserver.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
# A stand-in server: the real one until start number $FAIL_FROM, then a start that fails like a taken port.
cat >"$tmp/server" <<EOS
#!/bin/sh
n=\$(cat "$tmp/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$tmp/count"
if [ \$n -ge "\$FAIL_FROM" ]; then echo "stand-in: cannot bind the game port (start \$n)" >&2; exit 1; fi
exec "$srv" "\$@"
EOS
chmod +x "$tmp/server"
fails=0
for from in 1 2 3; do
  rm -f "$tmp/count"
  FAIL_FROM=$from "$conf" "$tmp/server" "$doc" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" = 1 ] && grep -q "did not start" "$tmp/err" && grep -q "stand-in: cannot bind the game port (start $from)" "$tmp/err"; then
    echo "ok: failing start $from: exit 1 with the server's message"
  else
    echo "FAIL: failing start $from: exit status $rc (want 1 and a message); stderr:"; sed 's/^/  | /' "$tmp/err"
    fails=$((fails + 1))
  fi
done
[ "$fails" = 0 ]
