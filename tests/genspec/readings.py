#!/usr/bin/env python3
# tests/genspec/readings.py: each reading of docs/generation.md an implementer once took the other way (issue 25), run
# that way on the vector that decides it: the doc's reading reproduces the vector, the other reading must not.
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reimpl  # noqa: E402

# (the other reading, as a reimpl.WRONG switch; the game ID of the vector that decides it; what that reading does)
READINGS = [
    ("maze-exit-branches", "maze:21x15:hard#24",
     "Band: the route walk also counts the branches hanging off the exit"),
    ("maze-after-route", "maze:21x15:easy#1",
     "Band: passages after the one to the next route cell count too"),
    ("maze-attach-bfs", "maze:21x15:easy#1",
     "steering: a branch's cells searched for a wall breadth-first"),
    ("maze-attach-up-first", "maze:21x15:easy#1",
     "steering: a branch's cells searched depth-first, the up child first"),
    ("maze-cap-moves", "maze:250x250:medium#521",
     "steering: the 256 counts the branches moved, not the list entries looked at"),
    ("maze-cap-attempts", "maze:300x300:medium#167941",
     "steering: the 256 counts the entries that reach attach, not those skipped for jumping the band"),
    ("pipes-pull-always", "pipes:6x4:easy#3",
     "walk: below(100) drawn even when no side leads towards the end"),
    ("pipes-par0-drop", "pipes:6x4:medium#126",
     "generate: a board of par 0 (no band) dropped instead of nudged harder by lo(diff)"),
    ("pipes-nodes-exits", "pipes:10x8:hard#125",
     "solve: a loop turn that only pops a frame is not counted against the budget"),
    ("ice-work-queued", "ice:25x20:medium#10",
     "effort: a scan counts the cells it queued, not the ones it took from the queue"),
    ("ice-work-full", "ice:25x20:easy#1",
     "effort: a scan counts every stopping cell the start reaches (no early stop)"),
    ("ice-work-cells", "ice:25x20:hard#1",
     "effort: a board counts all w * h cells"),
    ("sum-drop-free", "sum:5x4:hard#1",
     "a dropped walk (boxed in, or a staircase) does not use up one of the 2000 draws"),
    ("sum-drop-free", "sum:3x4:medium#2910259",
     "a dropped walk (boxed in, or a staircase) does not use up one of the 2000 draws"),
    ("sum-list-cap", "sum:5x5:easy#43",
     "the path list has a fixed size (%d) and generation fails beyond it" % reimpl.SUM_LIST_CAP),
    ("default-easy", "maze#7",
     "an ID without a difficulty means easy"),
    ("default-easy", "pipes:8x6#3",
     "an ID with a size but no difficulty means easy"),
]


def main():
    doc = open(sys.argv[1]).read()
    block = doc.split("```vectors\n", 1)[1].split("```\n", 1)[0]
    lines = {line.split()[0]: line for line in block.splitlines() if line and not line.startswith("rng ")}
    bad = 0
    for name, gid, what in READINGS:
        line = lines.get(gid)
        if line is None:
            print("FAIL %s: no vector %s in the doc" % (name, gid))
            bad += 1
            continue
        reimpl.WRONG.clear()
        doc_reading = reimpl.check_puzzle(line)
        reimpl.WRONG.add(name)
        other_reading = reimpl.check_puzzle(line)
        reimpl.WRONG.clear()
        good = doc_reading and not other_reading
        print("%s %s on %s: the doc's reading %s the vector, the other (%s) %s it" %
              ("PASS" if good else "FAIL", name, gid, "reproduces" if doc_reading else "DOES NOT reproduce",
               what, "ALSO reproduces" if other_reading else "fails"))
        bad += not good
    # every switch reimpl.py has is decided by some vector above
    src = open(reimpl.__file__).read()
    switches = set(re.findall(r'"([a-z0-9]+(?:-[a-z0-9]+)+)" (?:not )?in WRONG', src))
    for name in sorted(switches - {r[0] for r in READINGS}):
        print("FAIL %s: a reading in reimpl.py that no vector here decides" % name)
        bad += 1
    print("readings: %d checked, %d failed" % (len(READINGS), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
