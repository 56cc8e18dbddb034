#!/usr/bin/env bash
# tools/bench-compare.sh: runs the original algorithms (../shared/baselines)
# and `mazerace-gen bench` one after the other on this machine, and prints
# the issue-2 and issue-13 speed figures side by side as ratios.
# Usage: tools/bench-compare.sh [BUILD_DIR] [BASELINES_DIR]
# Raw output goes to out/bench-compare.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
base=${2:-../shared/baselines}
[ -d "$base" ] || { echo "bench-compare: no baselines at $base" >&2; exit 2; }
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build "$build" --target mazerace-gen -j "$(nproc)" >/dev/null || exit 1
bl=$(mktemp -d)
trap 'rm -rf "$bl"' EXIT
cp "$base"/*.c "$base"/Makefile "$bl"/ && make -s -C "$bl" seed_ice seed_mathmaze seed_traversal || exit 1
mkdir -p out
raw=out/bench-compare.txt
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(nproc) cores  load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$bl"/seed_ice -n 2000 -s 1
  "$bl"/seed_mathmaze -n 2000 -s 1 -t 4
  "$bl"/seed_traversal -s 1
  "$build"/tools/mazerace-gen bench
} > "$raw" 2>&1
head -1 "$raw"
awk '
/^RESULT / {
  for (i = 4; i <= NF; i++) { split($i, kv, "="); v[$2, $3, kv[1]] = kv[2] + 0; have[$2, $3, kv[1]] = 1 }
}
function row(what, ours, theirs, unit, target, ok) {
  if (ours == "0.0" || ours == "0.0000" || ours == "0.0/0.0") { ours = "missing"; ok = 0 }
  printf "%-44s %12s %12s %9s  %-16s %s\n", what, ours, theirs, unit, target, ok ? "met" : "NOT MET"
}
function num(x) { return sprintf("%.1f", x) }
END {
  printf "%-44s %12s %12s %9s  %-16s %s\n", "figure", "ours", "baseline", "ratio", "target", ""
  split("easy medium hard", d, " ")
  for (j = 1; j <= 3; j++) {
    o = v["gen", "ice_25x20_" d[j], "mean_us"]; b = v["ice", "20x25_" d[j], "us_per_map"]
    row("ice 25x20 " d[j] " us/map (mean)", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 10x", o && b / o >= 10)
    o = v["gen", "ice_35x30_" d[j], "mean_us"]; b = v["ice", "30x35_" d[j], "us_per_map"]
    row("ice 35x30 " d[j] " us/map (mean)", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 10x", o && b / o >= 10)
  }
  # The same comparison in thread CPU time, both algorithms run in alternating
  # batches inside the bench (so load hits both alike): the steadier figure.
  split("20x25 30x35", rc, " "); split("25x20 35x30", wh, " ")
  for (i = 1; i <= 2; i++) for (j = 1; j <= 3; j++) {
    o = v["ice_gen", rc[i] "_" d[j], "us_per_map"]; b = v["ice_ref", rc[i] "_" d[j], "us_per_map"]
    row("ice " wh[i] " " d[j] " CPU us/map, same process", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 10x", o && b / o >= 10)
  }
  o = v["gen", "ice_100x100_hard", "median_us"]
  row("ice 100x100 hard median us", num(o), "", "", "< 1000 us", o < 1000)
  o = v["sum_count", "5x4_exact", "mean_us"]; b = v["mathmaze", "4x5_naive", "mean_us"]
  row("sum count 5x4, values 1..9, us (mean)", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 4x", o && b / o >= 4)
  o = v["sum_count", "6x6_exact", "mean_us"]; b = v["mathmaze", "6x6_naive", "mean_us"]
  row("sum count 6x6, values 1..9, us (mean)", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 4x", o && b / o >= 4)
  for (j = 1; j <= 3; j++) {
    o = v["gen", "sum_5x4_" d[j], "p99_us"]; c = v["gen_cpu", "sum_5x4_" d[j], "p99_us"]
    row("sum 5x4 " d[j] " gen+grade p99 us (wall/cpu)", num(o) "/" num(c), "", "", "< 100 us", (c ? c : o) < 100)
  }
  o = v["maze", "gen_1000x1000", "ms"]; b = v["traversal", "gen_1000x1000", "ms"]
  row("maze 1000x1000 one traversal ms", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 3x", o && b / o >= 3)
  o = v["maze_cpu", "traversal_1000x1000", "ours_ms"]; b = v["maze_cpu", "traversal_1000x1000", "ref_ms"]
  row("maze 1000x1000 traversal CPU ms, same process", num(o), num(b), o ? sprintf("%.1fx", b / o) : "?", ">= 3x", o && b / o >= 3)
  # Issue 13: banded 1000x1000 mazes, 40x40 pipes and 10x10 sum (wall/CPU).
  for (j = 1; j <= 3; j++) {
    o = v["gen", "maze_1000x1000_" d[j], "median_us"] / 1000; c = v["gen_cpu", "maze_1000x1000_" d[j], "median_us"] / 1000
    row("maze 1000x1000 " d[j] " median ms (wall/cpu)", num(o) "/" num(c), "", "", "< 50 ms", o > 0 && (c ? c : o) < 50)
  }
  for (j = 1; j <= 3; j++) {
    o = v["gen", "pipes_40x40_" d[j], "p99_us"] / 1000; c = v["gen_cpu", "pipes_40x40_" d[j], "p99_us"] / 1000
    row("pipes 40x40 " d[j] " p99 ms (wall/cpu)", num(o) "/" num(c), "", "", "< 50 ms", o > 0 && (c ? c : o) < 50)
  }
  for (j = 1; j <= 3; j++) {
    o = v["gen", "sum_10x10_" d[j], "p99_us"] / 1000; c = v["gen_cpu", "sum_10x10_" d[j], "p99_us"] / 1000
    row("sum 10x10 " d[j] " p99 ms (wall/cpu)", num(o) "/" num(c), "", "", "< 50 ms", o > 0 && (c ? c : o) < 50)
  }
  o = v["maze", "storage_1000x1000", "bytes_per_cell"]
  row("maze storage bytes per cell", sprintf("%.4f", o), "", "", "<= 1 + header", o < 1.01)
  o = v["maze", "move_1000x1000", "ns_per_move"]; b = v["traversal", "move_1000x1000", "linear_us"] * 1000
  row("maze move check ns (1000x1000)", num(o), num(b), o ? sprintf("%.0fx", b / o) : "?", "O(1)", o > 0 && o < 1000)
  for (j = 1; j <= 3; j++) {
    o = v["gen", "pipes_6x4_" d[j], "median_us"]
    row("pipes 6x4 " d[j] " gen+par median us", num(o), "", "", "< 50 us", o < 50)
  }
  split("sum_5x4 maze_21x15 ice_25x20 pipes_6x4", k, " ")
  for (i = 1; i <= 4; i++) for (j = 1; j <= 3; j++) {
    o = v["gen", k[i] "_" d[j], "p99_us"]; c = v["gen_cpu", k[i] "_" d[j], "p99_us"]
    row(k[i] " " d[j] " p99 us, default size (wall/cpu)", num(o) "/" num(c), "", "", "< 1000 us", have["gen", k[i] "_" d[j], "p99_us"] && (c ? c : o) < 1000)
  }
}' "$raw"
echo "raw output: $raw"
