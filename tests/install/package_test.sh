#!/usr/bin/env bash
# package_test.sh: builds the Debian packages from this tree, checks them (lintian,
# Depends, conffiles, maintainer scripts), installs them with apt-get, runs the installed
# server, bot and game, upgrades the server package over a running server, then purges
# them and checks that nothing is left. Run by tools/test; needs root (CI is root and
# disposable), skips with a message otherwise. Where systemd is PID 1 it also runs the
# service: an upgrade restarts it (after its drain) and a removal stops it. docs/packaging.md.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "== package test: $*"; }
fail() { echo "== package test: FAILED: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
    say "SKIPPED: needs root to install packages with dpkg (CI runs it as root)"
    exit 0
fi
for t in dpkg-buildpackage dh lintian apt-get flock; do
    command -v "$t" >/dev/null || fail "$t is missing (tools/install-deps installs it)"
done
# One package test at a time on a machine, and never over a real install.
exec 9>/tmp/mazerace-package-test.lock
flock 9
for p in mazerace mazerace-server mazerace-bot; do
    if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        fail "$p is already installed here; remove it first (this test installs and purges it)"
    fi
done

jobs=$(nproc 2>/dev/null || echo 2)
work=$(mktemp -d /tmp/mazerace-pkg.XXXXXX)
installed=0
server_pid=""
# The service's state directory: made here (by a server run as the service would run it)
# only when it did not exist, and then removed at the end.
state_dir=/var/lib/mazerace
made_state=0
[ -e "$state_dir" ] || [ -e /var/lib/private/mazerace ] || made_state=1
live=0 # systemd is PID 1: the service itself is started, upgraded and removed
[ -d /run/systemd/system ] && live=1
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    if [ "$installed" = 1 ]; then
        [ "$live" = 1 ] && systemctl stop mazerace-server >/dev/null 2>&1
        flock /tmp/apt.lock apt-get purge -y -qq mazerace mazerace-server mazerace-bot >/dev/null 2>&1 || true
    fi
    if [ "$made_state" = 1 ]; then rm -rf "$state_dir" /var/lib/private/mazerace; fi
    rm -rf "$work"
}
trap cleanup EXIT

# 1. Build the packages from the tree (tracked files as they are now), unless
#    MR_PACKAGE_DEBS names a directory of already built ones (to rerun the rest).
if [ -n "${MR_PACKAGE_DEBS:-}" ]; then
    cp "$MR_PACKAGE_DEBS"/mazerace_*.deb "$MR_PACKAGE_DEBS"/mazerace-server_*.deb "$MR_PACKAGE_DEBS"/mazerace-bot_*.deb "$work/"
else
    say "building the packages (dpkg-buildpackage -b, log in $work/build.log)"
    mkdir "$work/src"
    if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$src" ls-files -z | (cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$work/src"
    else
        (cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -xf - -C "$work/src"
    fi
    t0=$(date +%s)
    if ! (cd "$work/src" && DEB_BUILD_OPTIONS="nocheck noddebs parallel=$jobs" \
            dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
        tail -40 "$work/build.log" >&2
        fail "dpkg-buildpackage failed"
    fi
    say "built in $(($(date +%s) - t0)) s"
fi
game_deb=$(ls "$work"/mazerace_*.deb)
server_deb=$(ls "$work"/mazerace-server_*.deb)
bot_deb=$(ls "$work"/mazerace-bot_*.deb)
say "packages: $(basename "$game_deb") $(basename "$server_deb") $(basename "$bot_deb")"

# 2. Package facts: Depends from shlibdeps, no SDL for the server, the conffile.
game_deps=$(dpkg-deb -f "$game_deb" Depends)
server_deps=$(dpkg-deb -f "$server_deb" Depends)
echo "   mazerace Depends: $game_deps"
echo "   mazerace-server Depends: $server_deps"
grep -q 'libsdl2-2.0-0' <<<"$game_deps" || fail "mazerace does not depend on libsdl2-2.0-0"
grep -q 'libsdl2-ttf' <<<"$game_deps" || fail "mazerace does not depend on libsdl2-ttf"
grep -q 'libenet7' <<<"$server_deps" || fail "mazerace-server does not depend on libenet7"
grep -q 'libsqlite3-0' <<<"$server_deps" || fail "mazerace-server does not depend on libsqlite3-0 (the match database)"
if grep -qi 'sdl' <<<"$server_deps"; then fail "mazerace-server depends on SDL"; fi
server_files=$(dpkg-deb -c "$server_deb")
server_conffiles=$(dpkg-deb --ctrl-tarfile "$server_deb" | tar -xOf - ./conffiles 2>/dev/null || true)
if grep -qi 'sdl' <<<"$server_files"; then fail "mazerace-server ships something SDL"; fi
# The bot is a load tool: a package of its own, not part of a server install.
if grep -q 'mazerace-bot' <<<"$server_files"; then fail "mazerace-server ships mazerace-bot"; fi
bot_files=$(dpkg-deb -c "$bot_deb")
grep -q '/usr/bin/mazerace-bot$' <<<"$bot_files" || fail "mazerace-bot does not ship /usr/bin/mazerace-bot"
grep -q 'mazerace-server (<< ' <<<"$(dpkg-deb -f "$bot_deb" Replaces)" ||
    fail "mazerace-bot does not replace the mazerace-server that shipped the bot"
# The server's docs, its man page in section 8, the licence.
for f in /usr/share/doc/mazerace-server/server.md /usr/share/doc/mazerace-server/scaling.md \
    /usr/share/doc/mazerace-server/packaging.md /usr/share/doc/mazerace-server/README.md \
    /usr/share/doc/mazerace-server/copyright /usr/share/man/man8/mazerace-server.8.gz; do
    grep -q "\.$f\$" <<<"$server_files" || fail "mazerace-server does not ship $f"
done
for d in "$game_deb" "$server_deb" "$bot_deb"; do
    copyright=$(dpkg-deb --fsys-tarfile "$d" | tar -xOf - --wildcards './usr/share/doc/*/copyright')
    grep -q '^License: MIT$' <<<"$copyright" || fail "$(basename "$d"): its copyright file does not say License: MIT"
done
# Maintainer scripts (dh_installsystemd without --no-start): a removal stops a running
# service (prerm), an upgrade restarts it (postinst, configure with the old version), a
# fresh install starts nothing (deb-systemd-invoke starts no disabled unit).
ctl() { dpkg-deb --ctrl-tarfile "$server_deb" >"$work/ctl.tar" && tar -xOf "$work/ctl.tar" "./$1" 2>/dev/null || true; }
prerm=$(ctl prerm) postinst=$(ctl postinst) postrm=$(ctl postrm)
grep -q '"$1" = remove' <<<"$prerm" && grep -q 'deb-systemd-invoke stop .*mazerace-server.service' <<<"$prerm" ||
    fail "prerm does not stop mazerace-server.service on remove"
grep -q '_dh_action=restart' <<<"$postinst" && grep -q 'deb-systemd-invoke $_dh_action .*mazerace-server.service' <<<"$postinst" ||
    fail "postinst does not restart mazerace-server.service after an upgrade"
grep -q 'deb-systemd-helper purge .*mazerace-server.service' <<<"$postrm" || fail "postrm does not purge the unit's state"
echo "   maintainer scripts: prerm stops on remove, postinst restarts on upgrade, postrm purges"
service_files=()
if [ -e "$src/packaging/server.conf" ]; then
    grep -qx /etc/mazerace/server.conf <<<"$server_conffiles" ||
        fail "/etc/mazerace/server.conf is not a conffile of mazerace-server"
    service_files+=(/etc/mazerace/server.conf)
else
    say "this tree has no packaging/server.conf yet: no default config to check"
fi
if [ -e "$src/packaging/mazerace-server.service" ]; then
    grep -q 'lib/systemd/system/mazerace-server.service' <<<"$server_files" ||
        fail "mazerace-server does not ship its systemd unit"
    service_files+=(/lib/systemd/system/mazerace-server.service)
else
    say "this tree has no packaging/mazerace-server.service yet: no unit to check"
fi

# 3. lintian: no errors; every warning is one docs/packaging.md explains.
say "lintian"
lintian --tag-display-limit 0 "$game_deb" "$server_deb" "$bot_deb" >"$work/lintian.txt" 2>&1 || true
sed 's/^/   /' "$work/lintian.txt"
if grep -q '^E:' "$work/lintian.txt"; then fail "lintian reports errors"; fi
for tag in $(sed -n 's/^W: [^ ]* [^:]*: \([a-z0-9-]*\).*/\1/p; s/^W: [^:]*: \([a-z0-9-]*\).*/\1/p' "$work/lintian.txt" | sort -u); do
    grep -q -- "\`$tag\`" "$src/docs/packaging.md" || fail "lintian warning $tag is not explained in docs/packaging.md"
done

# 4. Install both packages with their dependencies.
say "installing with apt-get"
installed=1
flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$game_deb" "$server_deb" "$bot_deb" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; fail "apt-get install failed"; }
for f in /usr/games/mazerace /usr/bin/mazerace-server /usr/bin/mazerace-bot /usr/bin/mazerace-gen \
    "${service_files[@]}" /usr/share/mazerace/fonts/DejaVuSans.ttf /usr/share/man/man6/mazerace.6.gz \
    /usr/share/man/man8/mazerace-server.8.gz /usr/share/doc/mazerace-server/server.md /usr/share/applications/io.github.mazerace.mazerace.desktop; do
    [ -e "$f" ] || fail "$f is not installed"
done
version=$(/usr/bin/mazerace-server --version)
grep -q '^mazerace-server ' <<<"$version" || fail "mazerace-server --version printed: $version"
echo "   $version"
/usr/bin/mazerace-gen 'maze:9x9:easy#1' --no-text >/dev/null || fail "installed mazerace-gen"

# 5. One bot match against the installed server on 127.0.0.1 (ephemeral ports),
#    scraping its metrics during the match when the server has them.
say "bot match against the installed server"
metrics_flag=()
# (The help text is read whole first: grep -q closing a pipe early would make
# pipefail call a present flag absent.)
server_help=$(/usr/bin/mazerace-server --help)
if grep -q -- '--metrics' <<<"$server_help"; then
    metrics_flag=(--metrics 127.0.0.1:0)
fi
# Run as the unit runs it (STATE_DIRECTORY: its default database in the service's state
# directory), when that directory is ours to make; the config file is left out (it takes
# the default ports).
svc_env=()
[ "$made_state" = 1 ] && svc_env=(STATE_DIRECTORY="$state_dir")
env "${svc_env[@]}" /usr/bin/mazerace-server --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery \
    --spectator-port off "${metrics_flag[@]}" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
port="" mport=""
for _ in $(seq 100); do
    port=$(sed -n 's/^listening on [0-9.]*:\([0-9]*\).*/\1/p' "$work/server.out")
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; fail "the installed server exited"; }
    sleep 0.1
done
[ -n "$port" ] || fail "no 'listening on' line from the installed server in 10 s"
if [ ${#metrics_flag[@]} -gt 0 ]; then
    mport=$(sed -n 's|^metrics on http://[0-9.]*:\([0-9]*\)/metrics.*|\1|p' "$work/server.out")
    [ -n "$mport" ] || fail "the server was given --metrics but printed no 'metrics on' line"
fi
scrape() { # prints the body of GET /metrics (HTTP/1.0, bash's /dev/tcp: only 127.0.0.1)
    exec 8<>"/dev/tcp/127.0.0.1/$mport" || return 1
    printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&8
    timeout 5 cat <&8 | tr -d '\r' | sed '1,/^$/d'
    exec 8<&-
}
moves_of() { awk '$1 == "mazerace_moves_validated_total" {print $2}' | head -1; }
/usr/bin/mazerace-bot --server "127.0.0.1:$port" --bots 2 --matches 1 --pace 60 --timeout 60 \
    >"$work/bot.out" 2>&1 &
bot_pid=$!
scrapes=0
if [ -n "$mport" ]; then
    for _ in $(seq 300); do
        kill -0 "$bot_pid" 2>/dev/null || break
        if grep -q . <<<"$(scrape | moves_of)"; then scrapes=$((scrapes + 1)); fi
        sleep 0.1
    done
fi
wait "$bot_pid" || { cat "$work/bot.out" >&2; fail "mazerace-bot against the installed server"; }
sed 's/^/   /' "$work/bot.out"
grep -q '^match bot-1 #1 .*winner' "$work/bot.out" || fail "no finished match in the bot's output"
sent=$(sed -n 's/.*moves sent \([0-9]*\), acked.*/\1/p' "$work/bot.out")
acked=$(sed -n 's/.*moves sent [0-9]*, acked \([0-9]*\),.*/\1/p' "$work/bot.out")
if [ -n "$mport" ]; then
    [ "$scrapes" -gt 0 ] || fail "no metrics scrape succeeded during the match"
    # Every move a bot sent reaches the engine (validated); the ones it accepted
    # are the ones acknowledged (a move in flight as the race ends is rejected).
    # A scrape shows the counters of up to 100 ms ago (docs/server.md), so the
    # last moves may show only in a later snapshot: scrape until both agree,
    # at most 30 times (3 s), then check the last scrape.
    for _ in $(seq 30); do
        body=$(scrape)
        validated=$(moves_of <<<"$body")
        accepted=$(awk '$1 ~ /^mazerace_moves_total\{.*result="accepted"/ {n += $2} END {print n + 0}' <<<"$body")
        [ "$validated" = "$sent" ] && [ "$accepted" = "$acked" ] && break
        sleep 0.1
    done
    echo "   metrics: $scrapes scrapes during the match; after it mazerace_moves_validated_total $validated" \
        "(bots sent $sent), accepted $accepted (bots had $acked acknowledged)"
    [ "$validated" = "$sent" ] || fail "the server validated $validated moves, the bots sent $sent"
    [ "$accepted" = "$acked" ] || fail "the server accepted $accepted moves, the bots had $acked acknowledged"
else
    say "metrics step left out: this server has no --metrics flag"
fi

# 5b. The operator (root, no STATE_DIRECTORY) lists the service's matches. The record is
#     written by the server's writer thread: wait for it, up to 5 s.
if [ "$made_state" = 1 ]; then
    for _ in $(seq 50); do
        rows=$(env -u STATE_DIRECTORY HOME=/root /usr/bin/mazerace-server --config /dev/null --list-matches 5 \
            2>"$work/list.err" | grep -vc '^#' || true)
        [ "$rows" -ge 1 ] && break
        sleep 0.1
    done
    [ "$rows" -ge 1 ] || { cat "$work/list.err" >&2; fail "root's --list-matches did not find the service's match"; }
    grep -q "reading the service's match database $state_dir/matches.db" "$work/list.err" ||
        fail "--list-matches did not say it read $state_dir/matches.db"
    echo "   root's --list-matches: $rows match in $state_dir/matches.db"
else
    say "$state_dir exists already: --list-matches step left out (this test makes no state it cannot remove)"
fi

# 5c. Upgrade the server package while a server runs: the same package, version +pkgtest1.
#     The conffile keeps the operator's edit; the maintainer scripts succeed with or without
#     systemd; a server run by hand is not the service and is left alone.
say "upgrading mazerace-server over a running server"
old_version=$(dpkg-deb -f "$server_deb" Version)
new_version="$old_version+pkgtest1"
dpkg-deb -R "$server_deb" "$work/up"
sed -i "s/^Version: .*/Version: $new_version/" "$work/up/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/up" "$work/mazerace-server_upgrade.deb" >/dev/null
echo "# edited by the package test" >>/etc/mazerace/server.conf
unit_pid=""
if [ "$live" = 1 ]; then
    systemctl start mazerace-server || fail "systemctl start mazerace-server"
    unit_pid=$(systemctl show -p MainPID --value mazerace-server)
    [ "$unit_pid" -gt 0 ] || fail "the service has no main PID after start"
    echo "   service running, main PID $unit_pid"
fi
flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "$work/mazerace-server_upgrade.deb" >"$work/upgrade.log" 2>&1 ||
    { cat "$work/upgrade.log" >&2; fail "the upgrade failed"; }
[ "$(dpkg-query -W -f '${Version}' mazerace-server)" = "$new_version" ] || fail "not upgraded to $new_version"
grep -q '^# edited by the package test$' /etc/mazerace/server.conf || fail "the upgrade lost the conffile's edit"
kill -0 "$server_pid" 2>/dev/null || fail "the upgrade killed a server run by hand"
if [ "$live" = 1 ]; then
    new_pid=$(systemctl show -p MainPID --value mazerace-server)
    systemctl is-active -q mazerace-server || fail "the service is not running after the upgrade"
    [ "$new_pid" != "$unit_pid" ] || fail "the upgrade did not restart the service (main PID still $unit_pid)"
    journal=$(journalctl -u mazerace-server --no-pager -o cat)
    grep -q 'drain' <<<"$journal" ||
        fail "the service's log shows no drain before the restart"
    echo "   service restarted by the upgrade: main PID $unit_pid -> $new_pid, drained first"
else
    say "no systemd as PID 1 here: upgrade and remove of the service itself not run (maintainer scripts checked above)"
fi
kill "$server_pid"
wait "$server_pid" || true
server_pid=""
if [ "$live" = 1 ]; then
    say "removing mazerace-server stops the service"
    flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq mazerace-server \
        >"$work/remove.log" 2>&1 || { cat "$work/remove.log" >&2; fail "apt-get remove failed"; }
    systemctl is-active -q mazerace-server && fail "the service still runs after the package was removed"
    echo "   service stopped by the removal"
fi

# 6. The installed game, headless, up to its menu.
say "installed game, headless, to its menu"
printf '0 wait menu\n' >"$work/menu.txt"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /usr/games/mazerace --headless --no-save \
    --settings "$work/settings.txt" --script "$work/menu.txt" --screenshot "$work/menu.bmp" \
    --max-seconds 30 >"$work/game.out" 2>&1 || { cat "$work/game.out" >&2; fail "the installed game did not reach its menu"; }
[ -s "$work/menu.bmp" ] || fail "no screenshot of the menu"
# A copy of the binary elsewhere finds the fonts installed; after the purge (below),
# it must name every path it tried, then find a share/mazerace beside it.
mkdir -p "$work/reloc/bin"
cp /usr/games/mazerace "$work/reloc/bin/"

# 7. Purge, and check nothing of ours is left.
say "purging"
dpkg -L mazerace mazerace-server mazerace-bot 2>/dev/null | sort -u >"$work/files.txt"
flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq mazerace mazerace-server mazerace-bot \
    >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "apt-get purge failed"; }
installed=0
left=""
while read -r f; do
    if [ -e "$f" ] && [ ! -d "$f" ]; then left="$left $f"; fi
done <"$work/files.txt"
for d in /usr/share/mazerace /etc/mazerace /usr/share/doc/mazerace /usr/share/doc/mazerace-server \
    /usr/share/doc/mazerace-bot; do
    [ -e "$d" ] && left="$left $d"
done
[ -z "$left" ] || fail "left after purge:$left"
echo "   $(wc -l <"$work/files.txt") paths checked; nothing left (state dir /var/lib/mazerace, if the service ever ran, stays by design)"

say "a copied game binary with no data names the paths it tried"
if SDL_VIDEODRIVER=dummy "$work/reloc/bin/mazerace" --headless --no-save --settings "$work/settings.txt" \
    --script "$work/menu.txt" --max-seconds 30 >"$work/reloc.out" 2>&1; then
    fail "the copied game started without its fonts"
fi
cat "$work/reloc.out"
for p in /usr/share/mazerace/fonts/DejaVuSans.ttf "$work/reloc/bin/assets/fonts/DejaVuSans.ttf" \
    "$work/reloc/bin/../share/mazerace/fonts/DejaVuSans.ttf"; do
    grep -qF "$p" "$work/reloc.out" || fail "the message does not name $p"
done
mkdir -p "$work/reloc/share/mazerace/fonts"
cp "$src"/assets/fonts/DejaVuSans*.ttf "$work/reloc/share/mazerace/fonts/"
SDL_VIDEODRIVER=dummy "$work/reloc/bin/mazerace" --headless --no-save --settings "$work/settings.txt" \
    --script "$work/menu.txt" --max-seconds 30 >"$work/reloc.out" 2>&1 ||
    { cat "$work/reloc.out" >&2; fail "the copied game did not find BINDIR/../share/mazerace"; }
say "passed"
