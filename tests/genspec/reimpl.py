#!/usr/bin/env python3
# tests/genspec/reimpl.py: an independent implementation of docs/generation.md (RNG, maze, ice, sum), written from
# the doc alone, checked against the doc's test vectors: proof that the spec is enough to reproduce seeded IDs.
import re
import sys

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Rng:
    def __init__(self, x):
        self.s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.s.append(z ^ (z >> 31))

    def u64(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def u32(self):
        return self.u64() >> 32

    def below(self, n):
        m = self.u32() * n
        low = m & M32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.u32() * n
                low = m & M32
        return m >> 32

    def range(self, lo, hi):
        return lo + self.below(hi - lo + 1)

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]


def fnv(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def le32(v):
    return (v & M32).to_bytes(4, "little")


KINDS = {"sum": 0, "maze": 1, "ice": 2, "pipes": 3}
DIFFS = {"easy": 0, "medium": 1, "hard": 2}
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def stream_seed(kind, w, h, diff, seed):
    if kind == "maze":
        return seed
    if kind == "ice":
        return seed ^ fnv(le32(2) + le32(w) + le32(h) + le32(diff))
    if kind == "sum":
        return fnv(seed.to_bytes(8, "little") + le32(w) + le32(h) + le32(diff))
    return seed ^ fnv(le32(w) + le32(h) + le32(diff))


UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DX = [0, 0, -1, 1]
DY = [-1, 1, 0, 0]


# ---- maze (section 3) ----
def maze_draw(r, w, h):
    openings = [0] * (w * h)  # bit (1 << dir)
    parent = [None] * (w * h)
    start = (h - 1) * w
    in_maze = [False] * (w * h)
    in_maze[start] = True
    frontier = [(start, UP), (start, RIGHT)]
    pool = []

    def pick(n):
        while True:
            if not pool:
                v = r.u64()
                pool.extend([v & M32, v >> 32])
            v = pool.pop(0)
            m = v * n
            low = m & M32
            if low >= n or low >= ((1 << 32) - n) % n:
                return m >> 32

    while frontier:
        i = pick(len(frontier))
        c, d = frontier[i]
        frontier[i] = frontier[-1]
        frontier.pop()
        x, y = c % w + DX[d], c // w + DY[d]
        nb = y * w + x
        if in_maze[nb]:
            continue
        openings[c] |= 1 << d
        openings[nb] |= 1 << (d ^ 1)
        parent[nb] = d ^ 1
        in_maze[nb] = True
        for d2 in (UP, DOWN, LEFT, RIGHT):
            x2, y2 = x + DX[d2], y + DY[d2]
            if 0 <= x2 < w and 0 <= y2 < h and not in_maze[y2 * w + x2]:
                frontier.append((nb, d2))
    return openings, parent


def band_of(wasted, dead):
    permille = wasted * 1000 // dead if dead > 0 else 0
    return 0 if permille < 240 else 1 if permille < 480 else 2


def step(w, c, d):
    return (c // w + DY[d]) * w + c % w + DX[d]


def maze_measure(w, h, openings, parent):
    """(wasted, dead, route set)"""
    start, exit_ = (h - 1) * w, w - 1
    route = set()
    cur = exit_
    while True:
        route.add(cur)
        if cur == start:
            break
        cur = step(w, cur, parent[cur])
    dead = w * h - len(route)
    wasted, cur = 0, start
    while cur != exit_:
        x, y = cur % w, cur // w
        came = parent[cur] if cur != start else None
        for d in heading(w, x, y):
            if not (openings[cur] >> d & 1) or d == came:
                continue
            nb = step(w, cur, d)
            if nb in route:
                cur = nb
                break
            wasted += len(subtree(w, openings, parent, nb))
    return wasted, dead, route


def heading(w, x, y):
    dx, dy = w - 1 - x, y
    f1, f2 = (RIGHT, UP) if dx >= dy else (UP, RIGHT)
    return (f1, f2, f2 ^ 1, f1 ^ 1)


def subtree(w, openings, parent, c):
    """cells of the subtree entered at c, in the depth-first order of section 3"""
    out, stack = [], [c]
    while stack:
        cc = stack.pop()
        out.append(cc)
        for d in range(4):
            if openings[cc] >> d & 1 and d != parent[cc]:
                stack.append(step(w, cc, d))
    return out


def tried(w, x, y, d, nxt):
    if nxt is None:
        return False
    for o in heading(w, x, y):
        if o == nxt:
            return False
        if o == d:
            return True
    return False


def maze_steer(w, h, openings, parent, want):
    wasted, dead, route = maze_measure(w, h, openings, parent)
    band = band_of(wasted, dead)
    if band == want:
        return True
    up = band < want
    start, exit_ = (h - 1) * w, w - 1

    def route_next(c):
        if c == exit_:
            return None
        for d in range(4):
            if openings[c] >> d & 1 and (c == start or d != parent[c]) and step(w, c, d) in route:
                return d
        return None

    seen = [False] * (w * h)
    branches, cur = [], start
    while True:
        nxt = route_next(cur)
        x, y = cur % w, cur // w
        for d in range(4):
            if not (openings[cur] >> d & 1) or (cur != start and d == parent[cur]) or d == nxt:
                continue
            root = step(w, cur, d)
            cells = subtree(w, openings, parent, root)
            t = tried(w, x, y, d, nxt)
            for c in cells:
                seen[c] = seen[c] or t
            if t != up:
                branches.append((root, len(cells)))
        if nxt is None:
            break
        cur = step(w, cur, nxt)
    branches.sort(key=lambda b: (-b[1], b[0]))
    for i, (root, size) in enumerate(branches):
        if i >= 256 or band_of(wasted, dead) == want:
            break
        new = wasted + size if up else wasted - size
        if (band_of(new, dead) > want) if up else (band_of(new, dead) < want):
            continue
        found, stack = None, [root]
        while stack and not found:
            c = stack.pop()
            x, y = c % w, c // w
            for d in range(4):
                nx, ny = x + DX[d], y + DY[d]
                if not (0 <= nx < w and 0 <= ny < h) or openings[c] >> d & 1:
                    continue
                nb = ny * w + nx
                ok = (tried(w, nx, ny, d ^ 1, route_next(nb)) if nb in route else seen[nb]) == up
                if ok:
                    found = (nb, d ^ 1)
                    break
            for d in range(4):
                if openings[c] >> d & 1 and d != parent[c]:
                    stack.append(step(w, c, d))
        if not found:
            continue
        at, d = found
        u = parent[root]
        openings[root] &= ~(1 << u)
        openings[step(w, root, u)] &= ~(1 << (u ^ 1))
        t = step(w, at, d)
        openings[at] |= 1 << d
        openings[t] |= 1 << (d ^ 1)
        toward, cur = d ^ 1, t
        while True:
            old = parent[cur]
            parent[cur] = toward
            if cur == root:
                break
            cur = step(w, cur, old)
            toward = old ^ 1
        for c in subtree(w, openings, parent, t):
            seen[c] = up
        wasted = new
    return band_of(wasted, dead) == want


def maze(w, h, diff, seed):
    r = Rng(stream_seed("maze", w, h, diff, seed))
    for _ in range(128):
        openings, parent = maze_draw(r, w, h)
        if maze_steer(w, h, openings, parent, diff):
            out = []
            n = w * h
            for i in range((n + 2) // 3):
                v = 0
                for k in range(3):
                    if 3 * i + k < n:
                        c = openings[3 * i + k]
                        v |= ((c >> RIGHT & 1) | (c >> DOWN & 1) << 1) << (2 * k)
                out.append(B64[v])
            return "".join(out)
    return None


# ---- ice (section 4) ----
def ice_moves(w, h, boulder, sx, e):
    def blocked(x, y):
        if x < 0 or y < 0 or x >= w or y >= h:
            return True
        if y == h - 1 and x == sx:
            return False
        if y == 0 and x == e:
            return False
        return boulder(x, y)

    start = (sx, h - 1)
    seen = {start}
    layer, depth = [start], 0
    while layer:
        depth += 1
        nxt = []
        for (x, y) in layer:
            for d in range(4):
                cx, cy = x, y
                while not blocked(cx + DX[d], cy + DY[d]):
                    cx, cy = cx + DX[d], cy + DY[d]
                    if (cx, cy) == (e, 0):
                        break
                if (cx, cy) == (e, 0):
                    return depth
                if (cx, cy) not in seen:
                    seen.add((cx, cy))
                    nxt.append((cx, cy))
        layer = nxt
    return -1


def ice(w, h, diff, seed):
    lo, hi = [(3, 5), (6, 9), (10, 1 << 30)][diff]
    r = Rng(stream_seed("ice", w, h, diff, seed))
    for _ in range(100000):
        b = set()
        for y in range(1, h - 1):
            for x in range(1, w - 1):
                if r.below(8) == 0:
                    b.add((x, y))
        boulder = lambda x, y: x == 0 or y == 0 or x == w - 1 or y == h - 1 or (x, y) in b
        n = w - 2
        order = list(range(1, n + 1))
        for i in range(n):
            j = i + r.below(n - i)
            order[i], order[j] = order[j], order[i]
            sx = order[i]
            if boulder(sx, h - 2):
                continue
            perm = list(range(1, n + 1))
            r.shuffle(perm)
            for e in perm:
                m = ice_moves(w, h, boulder, sx, e)
                if lo <= m <= hi:
                    bits = [1 if (x, y) in b else 0 for y in range(1, h - 1) for x in range(1, w - 1)]
                    out = "%d.%d." % (sx, e)
                    for k in range(0, len(bits), 6):
                        g = bits[k:k + 6]
                        v = 0
                        for bit in g + [0] * (6 - len(g)):
                            v = v << 1 | bit
                        out += B64[v]
                    return out
    return None


# ---- sum (section 5) ----
def sum_paths(w, h, val, start, end, target):
    n = w * h
    count, best = 0, None

    def nbrs(c):
        x, y = c % w, c // w
        return [(y + DY[d]) * w + x + DX[d] for d in range(4) if 0 <= x + DX[d] < w and 0 <= y + DY[d] < h]

    def go(c, on, s, length):
        nonlocal count, best
        if c == end:
            if s == target:
                count += 1
                best = length if best is None else min(best, length)
            return
        for nb in nbrs(c):
            if not on >> nb & 1:
                go(nb, on | 1 << nb, s + val[nb], length + 1)

    go(start, 1 << start, val[start], 1)
    return count, best


def sum_(w, h, diff, seed):
    n = w * h
    lo = max(3, (5 * n + 10) // 20)
    hi = min(max(lo, (9 * n + 10) // 20), n)
    r = Rng(stream_seed("sum", w, h, diff, seed))
    redraws, walk, length = 64, None, 0
    manhattan = lambda a, b: abs(a % w - b % w) + abs(a // w - b // w)
    for _ in range(2000):
        if redraws == 64:
            length = r.range(lo, hi)
            walk = None
            for _t in range(64):
                cur = r.below(n)
                path = [cur]
                while len(path) < length:
                    x, y = cur % w, cur // w
                    free = sorted((y + DY[d]) * w + x + DX[d] for d in range(4)
                                  if 0 <= x + DX[d] < w and 0 <= y + DY[d] < h
                                  and (y + DY[d]) * w + x + DX[d] not in path)
                    if not free:
                        break
                    cur = free[r.below(len(free))]
                    path.append(cur)
                if len(path) == length:
                    walk = path
                    break
            if walk is None:
                continue
            if diff != 0 and length == manhattan(walk[0], walk[-1]) + 1:
                continue
            redraws = 0
        redraws += 1
        val = [r.range(-9, 9) for _ in range(n)]
        target = sum(val[c] for c in walk)
        paths, best = sum_paths(w, h, val, walk[0], walk[-1], target)
        direct = best is not None and best == manhattan(walk[0], walk[-1]) + 1
        band = -1 if paths == 0 else 0 if (direct or paths >= 15) else 2 if paths <= 4 else 1
        if band == diff:
            chars = "".join(str(v) if v >= 0 else "abcdefghi"[-v - 1] for v in val)
            return "%d.%d.%d.%s" % (walk[0], walk[-1], target, chars)
    return None


def main():
    doc = open(sys.argv[1]).read()
    block = doc.split("```vectors\n", 1)[1].split("```\n", 1)[0]
    ok = bad = skipped = 0
    for line in block.splitlines():
        if line.startswith("rng "):
            f = dict(kv.split("=", 1) for kv in line.split()[1:])
            seed = int(f["seed"])
            r = Rng(seed)
            got = ",".join("%016x" % r.u64() for _ in range(4))
            r = Rng(seed)
            got32 = ",".join("%08x" % r.u32() for _ in range(2))
            r = Rng(seed)
            gotb = ",".join(str(r.below(6)) for _ in range(8))
            r = Rng(seed)
            gotr = ",".join(str(r.range(-9, 9)) for _ in range(8))
            r = Rng(seed)
            a = list(range(8))
            r.shuffle(a)
            gots = ",".join(map(str, a))
            good = (got, got32, gotb, gotr, gots) == (f["u64"], f["u32"], f["below6"], f["range-9..9"], f["shuffle8"])
            print("%s rng seed=%d" % ("PASS" if good else "FAIL", seed))
            ok, bad = ok + good, bad + (not good)
            continue
        gid = line.split()[0]
        f = dict(kv.split("=", 1) for kv in line.split()[1:])
        m = re.match(r"(\w+):(\d+)x(\d+):(\w+)#(\d+)$", gid)
        kind, w, h, diff, seed = m.group(1), int(m.group(2)), int(m.group(3)), DIFFS[m.group(4)], int(m.group(5))
        ss = stream_seed(kind, w, h, diff, seed)
        r = Rng(ss)
        first = ",".join("%016x" % r.u64() for _ in range(3))
        good = "%016x" % ss == f["stream"] and first == f["first"]
        gen = {"maze": maze, "ice": ice, "sum": sum_}.get(kind)
        if gen is None or (w * h > 400 and kind == "maze" and "--quick" in sys.argv):
            skipped += 1
            print("SKIP %s (stream %s)" % (gid, "ok" if good else "WRONG"))
            bad += not good
            continue
        desc = gen(w, h, diff, seed)
        good = good and desc is not None and len(desc) == int(f["len"]) and "%016x" % fnv(desc.encode()) == f["fnv"]
        print("%s %s" % ("PASS" if good else "FAIL", gid))
        ok, bad = ok + good, bad + (not good)
    print("reimpl: %d passed, %d failed, %d skipped (pipes: see the known gap in docs/generation.md)" % (ok, bad, skipped))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
