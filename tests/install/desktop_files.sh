#!/bin/sh
# desktop_files.sh: the .desktop entry, AppStream metainfo and icons are valid
# (desktop-file-validate, appstreamcli validate --no-net, rsvg-convert), when those tools exist.
# Usage: desktop_files.sh SOURCE_DIR
set -eu
d=$1/desktop
checked=0
if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$d/io.github.mazerace.mazerace.desktop"
    checked=$((checked + 1))
fi
if command -v appstreamcli >/dev/null 2>&1; then
    appstreamcli validate --no-net --pedantic "$d/io.github.mazerace.mazerace.metainfo.xml"
    checked=$((checked + 1))
fi
for s in 32 48 64 128 256; do
    png=$d/icons/mazerace-$s.png
    # PNG signature and IHDR width/height: the committed sizes are what their names say.
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $2*65536+$3*256+$4 "x" $6*65536+$7*256+$8}')
    [ "$dims" = "${s}x$s" ] || { echo "$png is $dims, not ${s}x$s" >&2; exit 1; }
done
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert -w 16 -h 16 "$d/icons/mazerace.svg" | od -An -c -N4 | grep -q P
    checked=$((checked + 1))
fi
echo "desktop_files: icons sized right; $checked validators ran"
