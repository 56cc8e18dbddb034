# tools/screenshots-lib.sh: helpers the screenshot scripts share (sourced, never run).
# shellcheck shell=bash

# The headless scripts' start (screenshots-join.sh, screenshots-invite.sh), from the repository's top:
# build (the first argument, default build), game, server, coord, out; a scratch folder tmp removed at
# exit with every program whose pid the script adds to pids; SDL's dummy drivers.
# shellcheck disable=SC2034 # game, server, coord: the sourcing scripts use them
shots_begin() {
  build=${1:-build}
  game="$build/client/mazerace"
  server="$build/server/mazerace-server"
  coord="$build/coordinator/mazerace-coordinator"
  out=docs/screenshots
  tmp=$(mktemp -d)
  pids=()
  trap shots_cleanup EXIT
  export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
}
shots_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}

wait_line() { # file text: waits up to 15 s for a line containing text, prints what follows it
  for _ in $(seq 150); do
    if grep -q "$2" "$1" 2>/dev/null; then grep -m1 "$2" "$1" | sed "s/.*$2//"; return 0; fi
    sleep 0.1
  done
  echo "no '$2' in $1" >&2; return 1
}
free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Each named $tmp/NAME.bmp as $out/NAME.png, its path printed.
shots_publish() {
  for s in "$@"; do
    bmp2png "$tmp/$s.bmp" "$out/$s.png"
    echo "$out/$s.png"
  done
}

# BMP (what the client writes) to PNG with the Python standard library only.
bmp2png() {
  python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
off = struct.unpack_from('<I', d, 10)[0]
w, h = struct.unpack_from('<ii', d, 18)
bpp = struct.unpack_from('<H', d, 28)[0] // 8
stride = (w * bpp + 3) & ~3
rows = []
for y in range(abs(h)):
    r = (abs(h) - 1 - y) if h > 0 else y
    px = d[off + r * stride: off + r * stride + w * bpp]
    line = bytearray(b'\0')
    for x in range(w):
        b, g, rr = px[x * bpp], px[x * bpp + 1], px[x * bpp + 2]
        line += bytes((rr, g, b))
    rows.append(bytes(line))
def chunk(t, data):
    return struct.pack('>I', len(data)) + t + data + struct.pack('>I', zlib.crc32(t + data) & 0xffffffff)
open(dst, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, abs(h), 8, 2, 0, 0, 0))
                      + chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b''))
PY
}
