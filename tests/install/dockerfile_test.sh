#!/usr/bin/env bash
# dockerfile_test.sh: what can be checked of the Dockerfile without a container engine:
# the runtime stage installs exactly the packages that hold the libraries the server
# links (NEEDED, resolved by ldd) (libc6 comes with the base image), EXPOSEs the server's default game
# and discovery ports, the spectator port (the one CMD sets, else the default) and the metrics port its
# CMD serves, HEALTHCHECKs that port,
# runs as a non-root user it creates, and docs/packaging.md says the same.
# Usage: dockerfile_test.sh SOURCE_DIR SERVER_BINARY
set -euo pipefail
src=$1 server=$2
df=$src/Dockerfile doc=$src/docs/packaging.md
fail() { echo "dockerfile_test: $*" >&2; exit 1; }

# The runtime stage: from the last FROM to the end, continuation lines joined.
runtime=$(awk '/^FROM /{buf=""} {buf = buf $0 "\n"} END {printf "%s", buf}' "$df" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
grep -q '^FROM debian:12-slim' <<<"$runtime" || fail "the runtime stage is not debian:12-slim"
listed=$(grep -o 'apt-get install [^&]*' <<<"$runtime" | tr ' ' '\n' | grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$' | sort -u)

# The image is for the server with metrics and /healthz (the service work).
help=$("$server" --help)
if ! grep -q -- '--metrics' <<<"$help"; then
    echo "dockerfile_test: SKIPPED: this server has no --metrics (no /healthz for the HEALTHCHECK) yet"
    exit 77
fi

# Packages that hold the libraries the server links directly (its NEEDED entries,
# resolved by ldd); their own dependencies come with them through apt.
needed=""
while read -r lib; do
    pkg=""
    for p in "$lib" "$(readlink -f "$lib")" "${lib#/usr}" "/usr$lib"; do
        pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
    done
    [ -n "$pkg" ] || fail "no Debian package holds $lib"
    needed="$needed $pkg"
done < <(ldd "$server" | awk -v need="$(objdump -p "$server" | awk '$1 == "NEEDED" {print $2}' | tr '\n' ' ')" \
    'BEGIN {n = split(need, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1} $2 == "=>" && ($1 in want) {print $3}')
needed=$(tr ' ' '\n' <<<"$needed" | grep -v -e '^$' -e '^libc6$' | sort -u)
grep -qi sdl <<<"$needed" && fail "the server needs SDL: $needed"
if [ "$needed" != "$listed" ]; then
    fail "runtime packages differ: ldd of the server needs [$(echo $needed)], the Dockerfile installs [$(echo $listed)]"
fi

# Ports: the server's defaults (--print-config with an empty file) and the metrics port CMD passes.
defaults=$("$server" --print-config --config /dev/null)
game=$(awk '$1 == "port" && $2 == "=" {print $3}' <<<"$defaults")
disc=$(awk '$1 == "discovery" && $2 == "=" {print $3}' <<<"$defaults")
metrics=$(grep '^CMD' <<<"$runtime" | grep -o '0\.0\.0\.0:[0-9]*' | cut -d: -f2)
[ -n "$game" ] && [ -n "$disc" ] && [ -n "$metrics" ] || fail "cannot read the default ports ($game, $disc, $metrics)"
# The spectator port: --spectator-port in CMD, else the default (auto: the game port + 2; off: none).
spec=$(awk '$1 == "spectator_port" && $2 == "=" {print $3}' <<<"$defaults")
cmdspec=$(grep '^CMD' <<<"$runtime" | grep -o '"--spectator-port", *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' || true)
[ -n "$cmdspec" ] && spec=$cmdspec
case "$spec" in
"" | off) spec="" ;;
auto) spec=$((game + 2)) ;;
*[!0-9]* | 0) fail "the spectator port is \"$spec\": set a port number (the image EXPOSEs it)" ;;
esac
expose=$(grep '^EXPOSE' <<<"$runtime" | cut -d' ' -f2- | tr ' ' '\n' | sort | tr '\n' ' ')
want=$(printf '%s\n' "$game/udp" "$disc/udp" ${spec:+"$spec/udp"} "$metrics/tcp" | sort | tr '\n' ' ')
[ "$expose" = "$want" ] || fail "EXPOSE is [$expose], the server's ports are [$want]"
grep -q "/dev/tcp/127.0.0.1/$metrics" <<<"$(grep '^HEALTHCHECK' <<<"$runtime")" ||
    fail "HEALTHCHECK does not ask /healthz on port $metrics"
grep -q '/healthz' <<<"$runtime" || fail "HEALTHCHECK does not ask /healthz"

# A non-root user given as numbers UID:GID (Kubernetes checks runAsNonRoot only on a numeric user), created
# in this stage with those numbers.
user=$(grep '^USER' <<<"$runtime" | awk '{print $2}')
[[ "$user" =~ ^([0-9]+):([0-9]+)$ ]] || fail "USER is \"$user\", not numeric UID:GID"
uid=${BASH_REMATCH[1]} gid=${BASH_REMATCH[2]}
[ "$uid" != 0 ] && [ "$gid" != 0 ] || fail "the runtime stage runs as root ($user)"
grep -q "useradd .*--system.*--uid $uid --gid $gid " <<<"$runtime" || fail "the runtime stage does not create uid $uid"
grep -q "groupadd .*--system.*--gid $gid " <<<"$runtime" || fail "the runtime stage does not create gid $gid"

# The documentation says the same.
grep -qF "EXPOSE $(grep '^EXPOSE' <<<"$runtime" | cut -d' ' -f2-)" "$doc" || fail "docs/packaging.md does not show the EXPOSE line"
grep -qF "\`USER $user\`" "$doc" || fail "docs/packaging.md does not name USER $user"
for p in $listed; do grep -qF "\`$p\`" "$doc" || fail "docs/packaging.md does not list runtime package $p"; done
echo "dockerfile_test: runtime packages [$(echo $listed)] = ldd of $(basename "$server") (+ libc6); EXPOSE $expose; USER $user"
