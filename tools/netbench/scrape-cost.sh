#!/usr/bin/env bash
# tools/netbench/scrape-cost.sh: what one metrics scrape costs the server. Starts an idle
# mazerace-server with --metrics on 127.0.0.1, fetches /metrics N times and /healthz N times
# with one python3 process (no forks), and prints the server's CPU time per request from
# /proc (user + system), its idle CPU over the same wall time for comparison, and the reply size.
# Usage: tools/netbench/scrape-cost.sh [N]   (N default 5000; BUILD=dir as for run.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-netbench}
n=${1:-5000}
case $n in '' | *[!0-9]*) echo "scrape-cost: N must be a number, not '$n'" >&2; exit 2 ;; esac
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMR_TESTS=OFF -DMR_CLIENT=OFF >/dev/null
cmake --build "$build" --target mazerace-server -j2 >/dev/null
srv=$(find "$build" -name mazerace-server -type f -perm -u+x | head -1)
log=$(mktemp)
"$srv" --config /dev/null --bind 127.0.0.1 --port 0 --no-discovery --metrics 127.0.0.1:0 --log-level warn >"$log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f "$log"' EXIT
mport=
for _ in $(seq 1 100); do
  mport=$(sed -n 's|^metrics on http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$log")
  [ -n "$mport" ] && break
  sleep 0.1
done
[ -n "$mport" ] || { echo "scrape-cost: the server did not start:" >&2; cat "$log" >&2; exit 1; }
python3 - "$pid" "$mport" "$n" <<'PY'
import os, socket, sys, time
pid, port, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
hz = os.sysconf("SC_CLK_TCK")
def cpu():
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / hz  # utime + stime
def fetch(path):
    size = 0
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall(("GET %s HTTP/1.0\r\n\r\n" % path).encode())
        while True:
            d = c.recv(65536)
            if not d:
                return size
            size += len(d)
for path in ("/metrics", "/healthz"):
    c0, t0 = cpu(), time.monotonic()
    size = sum(fetch(path) for _ in range(n))
    c1, t1 = cpu(), time.monotonic()
    print("%-9s %6d requests in %.2f s: server CPU %.1f us per request, %d bytes per reply"
          % (path, n, t1 - t0, (c1 - c0) * 1e6 / n, size // n))
c0 = cpu(); time.sleep(2); c1 = cpu()
print("idle      server CPU %.2f ms per second with no requests" % ((c1 - c0) * 1e3 / 2))
PY
