#!/bin/sh
# mkman.sh: writes a man page from its template, filling @VERSION@ and @OPTIONS@
# (the latter from the program's own --help through help2roff.awk).
# Usage: mkman.sh PROGRAM TEMPLATE VERSION OUTPUT
set -eu
prog=$1 tmpl=$2 version=$3 out=$4
here=$(dirname "$0")
opts=$out.options
"$prog" --help | awk -f "$here/help2roff.awk" > "$opts"
awk -v opts="$opts" -v version="$version" '
    $0 == "@OPTIONS@" { while ((getline l < opts) > 0) print l; next }
    { gsub(/@VERSION@/, version); print }
' "$tmpl" > "$out.tmp"
rm -f "$opts"
mv "$out.tmp" "$out"
