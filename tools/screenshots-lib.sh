# tools/screenshots-lib.sh: helpers the screenshot scripts share (sourced, never run).
# shellcheck shell=bash

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
