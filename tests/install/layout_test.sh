#!/bin/sh
# layout_test.sh: `cmake --install` of this build into a scratch DESTDIR puts every
# program, data file, man page, desktop file, icon, unit and config in the
# GNUInstallDirs places docs/packaging.md lists (under the configured prefix).
# Usage: layout_test.sh BUILD_DIR
set -eu
build=$1
dest=$(mktemp -d /tmp/mazerace-layout.XXXXXX)
trap 'rm -rf "$dest"' EXIT
DESTDIR=$dest cmake --install "$build" >/dev/null
files=$(cd "$dest" && find . -type f | sed 's|^\./|/|')
want="bin/mazerace-server bin/mazerace-gen bin/mazerace-bot share/man/man8/mazerace-server.8
share/man/man6/mazerace-gen.6 share/man/man6/mazerace-bot.6 etc/mazerace/server.conf
lib/systemd/system/mazerace-server.service"
if grep -q '^MR_CLIENT:BOOL=ON' "$build/CMakeCache.txt"; then
    want="$want bin/mazerace share/mazerace/fonts/DejaVuSans.ttf share/mazerace/fonts/DejaVuSans-Bold.ttf
share/man/man6/mazerace.6 share/applications/io.github.mazerace.mazerace.desktop
share/metainfo/io.github.mazerace.mazerace.metainfo.xml share/icons/hicolor/scalable/apps/mazerace.svg
share/icons/hicolor/256x256/apps/mazerace.png share/icons/hicolor/32x32/apps/mazerace.png"
fi
n=0
for f in $want; do
    printf '%s\n' "$files" | grep -q "/$f\$" || { echo "layout_test: no */$f installed" >&2; exit 1; }
    n=$((n + 1))
done
echo "layout_test: all $n files installed in their GNUInstallDirs places"
