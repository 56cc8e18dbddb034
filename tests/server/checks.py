"""checks.py: the ok/FAIL lines, the failure count and stopping a server, shared by the server tests in Python."""
import signal
import subprocess
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


def stop(p):
    """Stops a server started with Popen: SIGINT (after SIGCONT, should it be stopped), then a kill after 10 s."""
    p.send_signal(signal.SIGCONT)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
