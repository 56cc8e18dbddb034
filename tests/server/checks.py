"""checks.py: the ok/FAIL lines and the failure count shared by the server tests written in Python."""
import sys

failures = 0


def check(ok, what):
    """Prints "ok: what" or "FAIL: what"; a failure is counted."""
    global failures
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures += 1


def finish():
    """Exits 1 if any check failed, else 0."""
    print(f"{failures} failures")
    sys.exit(1 if failures else 0)
