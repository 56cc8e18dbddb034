#!/bin/sh
# man_matches_help.sh: every flag PROGRAM --help lists appears in its man page, and the
# page renders without groff warnings (when groff is installed).
# Usage: man_matches_help.sh PROGRAM MANPAGE
set -eu
prog=$1 page=$2
text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
flags=$("$prog" --help | grep -oE '(^|[ ,[/(])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,[/(]//' | sort -u)
[ -n "$flags" ] || { echo "no flags found in $prog --help" >&2; exit 1; }
n=0 missing=""
for f in $flags; do
    n=$((n + 1))
    printf '%s\n' "$text" | grep -qe "$f\\b" || missing="$missing $f"
done
if [ -n "$missing" ]; then
    echo "$page lacks flags that $prog --help lists:$missing" >&2
    exit 1
fi
if command -v groff >/dev/null 2>&1; then
    warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
    [ -z "$warn" ] || { echo "groff warnings in $page:" >&2; echo "$warn" >&2; exit 1; }
fi
echo "man_matches_help: $page has all $n flags of $(basename "$prog") --help"
