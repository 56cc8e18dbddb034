#!/usr/bin/env bash
# service_db_test.sh: the match database of a server run by hand and of the service (docs/server.md,
# "The match database"): two servers on one default database do not share it (the second says which lock
# file is held and runs without records; with that file as --db it refuses to start, exit 2); the
# operator's --list-matches finds the service's database when it has none of its own; a systemd
# credential "pgpass" becomes libpq's PGPASSFILE. Scratch directories only: never the machine's own
# configuration or state (--config /dev/null, HOME and the service dir in the scratch directory).
# Usage: service_db_test.sh SERVER BOT
set -u
srv=$1 bot=$2
tmp=$(mktemp -d /tmp/mazerace-svcdb.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
# start NAME ENV... -- ARGS...: a server on 127.0.0.1, ephemeral port; sets port_NAME
start() {
    local name=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env -i PATH="$PATH" "${envs[@]}" "$srv" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery \
        --spectator-port off "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
    pids+=($!)
    eval "pid_$name=$!"
    for _ in $(seq 100); do
        p=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\).*/\1/p' "$tmp/$name.out")
        [ -n "$p" ] && { eval "port_$name=$p"; return 0; }
        kill -0 "$!" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
mkdir -p "$tmp/home" "$tmp/svc" "$tmp/op"
db=$tmp/home/.local/state/mazerace/matches.db

# 1. Two servers by hand on one default database.
start a HOME="$tmp/home" -- || { cat "$tmp/a.err"; bad "server a did not start"; }
start b HOME="$tmp/home" -- || { cat "$tmp/b.err"; bad "server b did not start"; }
if grep -qF "match database $db: another mazerace-server is using it (its lock file $db.lock is held)" "$tmp/b.err" &&
    grep -q "running without records" "$tmp/b.err"; then
    ok "the second server names the held lock $db.lock and keeps no records"
else
    bad "the second server did not say the default database is in use"; sed 's/^/  b| /' "$tmp/b.err"
fi
grep -q "lock" "$tmp/a.err" && bad "the first server complained about the lock" || ok "the first server took the lock quietly"
env -i PATH="$PATH" HOME="$tmp/home" "$srv" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery \
    --spectator-port off --db "$db" >"$tmp/c.out" 2>"$tmp/c.err" &
cpid=$!
pids+=($cpid)
for _ in $(seq 100); do kill -0 $cpid 2>/dev/null || break; sleep 0.1; done
wait $cpid
rc=$?
if [ "$rc" = 2 ] && grep -qF "$db.lock is held" "$tmp/c.err"; then
    ok "--db naming the held database: exit 2 naming $db.lock"
else
    bad "--db naming the held database: exit $rc"; sed 's/^/  c| /' "$tmp/c.err"
fi
kill "$pid_a" "$pid_b" 2>/dev/null
wait "$pid_a" "$pid_b" 2>/dev/null
start d HOME="$tmp/home" -- || bad "a server after the first stopped did not start"
grep -q "lock" "$tmp/d.err" && bad "the lock outlived its server" || ok "the lock ends with its server"
kill "$pid_d" 2>/dev/null
wait "$pid_d" 2>/dev/null

# 2. The service (STATE_DIRECTORY, as systemd sets it) records a match; the operator finds it.
start s STATE_DIRECTORY="$tmp/svc" -- || { cat "$tmp/s.err"; bad "the 'service' did not start"; }
"$bot" --server "127.0.0.1:$port_s" --bots 2 --matches 1 --pace 20 --timeout 60 >"$tmp/bot.out" 2>&1 ||
    { bad "bot match against the service"; cat "$tmp/bot.out"; }
kill -TERM "$pid_s" 2>/dev/null
wait "$pid_s" 2>/dev/null
[ -s "$tmp/svc/matches.db" ] && ok "the service wrote $tmp/svc/matches.db" || bad "no $tmp/svc/matches.db"
env -i PATH="$PATH" HOME="$tmp/op" MAZERACE_SERVICE_STATE_DIR="$tmp/svc" "$srv" --config /dev/null \
    --list-matches 5 >"$tmp/list.out" 2>"$tmp/list.err"
rows=$(grep -vc '^#' "$tmp/list.out")
if [ "$rows" = 1 ] && grep -qF "reading the service's match database $tmp/svc/matches.db" "$tmp/list.err"; then
    ok "--list-matches by an operator with no database of their own: the service's match, and says so"
else
    bad "--list-matches found $rows matches"; cat "$tmp/list.out" "$tmp/list.err"
fi
env -i PATH="$PATH" HOME="$tmp/home" MAZERACE_SERVICE_STATE_DIR="$tmp/svc" "$srv" --config /dev/null \
    --list-matches 5 >"$tmp/list2.out" 2>"$tmp/list2.err"
if [ "$(id -u)" != 0 ] && ! grep -q "service" "$tmp/list2.err"; then
    ok "an operator with a default database of their own (not root) reads theirs"
elif [ "$(id -u)" = 0 ] && grep -q "service" "$tmp/list2.err"; then
    ok "root reads the service's database even with a default database of its own"
else
    bad "the wrong database for an operator with one of their own"; cat "$tmp/list2.err"
fi

# 3. The PostgreSQL password from a systemd credential: libpq reads $CREDENTIALS_DIRECTORY/pgpass (it says
#    so when the file's mode is too open, which is how this test sees it was given as PGPASSFILE).
mkdir -p "$tmp/cred"
echo '127.0.0.1:1:mazerace:mazerace:secret' >"$tmp/cred/pgpass"
chmod 0644 "$tmp/cred/pgpass"
env -i PATH="$PATH" HOME="$tmp/op" CREDENTIALS_DIRECTORY="$tmp/cred" "$srv" --config /dev/null \
    --db 'postgresql://mazerace@127.0.0.1:1/mazerace?connect_timeout=2' --list-matches 1 >/dev/null 2>"$tmp/pg.err"
if grep -qF "$tmp/cred/pgpass" "$tmp/pg.err"; then
    ok "the credential pgpass is libpq's password file"
else
    bad "libpq did not look at \$CREDENTIALS_DIRECTORY/pgpass"; cat "$tmp/pg.err"
fi
echo "$fails failures"
[ "$fails" = 0 ]
