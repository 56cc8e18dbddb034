#!/usr/bin/env bash
# tests/store/pg_harness.sh: a private PostgreSQL server for the store tests (initdb + pg_ctl into a temp dir).
#
#   pg_harness.sh run CMD [ARGS...]   start a server, run CMD with MR_PG_URI/MR_PG_DIR/MR_PG_HARNESS
#                                     set, stop the server, remove the directory; CMD's exit status
#   pg_harness.sh stop | start        (from inside CMD) stop or restart that server (MR_PG_DIR)
#   MR_PG_IDLE=1 pg_harness.sh run ...  the same, with PostgreSQL at CPU policy SCHED_IDLE (benches)
#
# The server listens on a Unix socket in its own directory only (no TCP), with
# trust authentication for the superuser "mazerace"; no system service is used.
# initdb refuses to run as root, so as root the server runs as the user
# "nobody" (MR_PG_USER to choose another) in a directory owned by it; the
# tests themselves connect as the database user "mazerace" in either case.
# Exit 77 (ctest: skipped) with a message when the postgresql package is absent.
set -euo pipefail

bindir=""
if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then
  bindir=$(pg_config --bindir)
else
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && bindir=$d; done
fi

as_owner() { # runs a PostgreSQL program as the directory's owner
  if [ "$(id -u)" = 0 ]; then
    (cd "$MR_PG_DIR" && runuser -u "${MR_PG_USER:-nobody}" -- "$@")
  else
    "$@"
  fi
}

pg_start() {
  # MR_PG_IDLE=1: the server and every backend it forks run at SCHED_IDLE (a bench's
  # stand-in for a database on another machine: it never takes a core the game wants).
  local idle=
  [ -n "${MR_PG_IDLE:-}" ] && idle="chrt --idle 0"
  as_owner $idle "$bindir/pg_ctl" -D "$MR_PG_DIR/data" -l "$MR_PG_DIR/log" -w -t 60 start >/dev/null
}
pg_stop() {
  as_owner "$bindir/pg_ctl" -D "$MR_PG_DIR/data" -m fast -w -t 60 stop >/dev/null
}

case "${1:-}" in
start) pg_start; exit 0 ;;
stop) pg_stop; exit 0 ;;
run) shift ;;
*) echo "usage: $0 run CMD... | start | stop" >&2; exit 2 ;;
esac

if [ -z "$bindir" ]; then
  echo "SKIPPED: PostgreSQL's initdb/pg_ctl not found (install the postgresql package: tools/install-deps)" >&2
  exit 77
fi

# A short path: the socket's full name must fit in 107 bytes.
MR_PG_DIR=$(mktemp -d /tmp/mrpg.XXXXXX)
export MR_PG_DIR
cleanup() {
  pg_stop 2>/dev/null || true
  rm -rf "$MR_PG_DIR"
}
trap cleanup EXIT
trap 'exit 143' TERM # ctest's timeout: the EXIT trap stops the server
trap 'exit 130' INT
if [ "$(id -u)" = 0 ]; then
  chown "${MR_PG_USER:-nobody}" "$MR_PG_DIR"
fi
as_owner "$bindir/initdb" -D "$MR_PG_DIR/data" -U mazerace --auth=trust -E UTF8 --locale=C.UTF-8 \
  >"$MR_PG_DIR/initdb.log" 2>&1 || { cat "$MR_PG_DIR/initdb.log" >&2; exit 1; }
cat >>"$MR_PG_DIR/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$MR_PG_DIR'
unix_socket_permissions = 0777
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 40
shared_buffers = 16MB
CONF
pg_start || { cat "$MR_PG_DIR/log" >&2; exit 1; }
export MR_PG_URI="postgresql://mazerace@/postgres?host=$MR_PG_DIR"
export MR_PG_HARNESS
MR_PG_HARNESS=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
echo "pg_harness: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') in $MR_PG_DIR (socket only)"
set +e
"$@"
rc=$?
set -e
exit $rc
