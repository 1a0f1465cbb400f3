"""checks.py — what the Jupyter tests share: counting checks, skipping when a package is missing, a fresh work
folder with tl's kernel spec installed in it."""
import os
import shutil
import subprocess
import sys

passed, failed = 0, 0

# Under ASan the kernel's leak check at exit must not count fontconfig's cache (cairo loads it to draw the
# pictures' and logos' text; it is kept for the life of the process): the fuzzers' suppressions, which excuse
# that library only. Every tl these tests start inherits it.
_supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "lsan.supp")
os.environ["LSAN_OPTIONS"] = f"suppressions={os.path.normpath(_supp)}:print_suppressions=0:" + os.environ.get("LSAN_OPTIONS", "")


def check(name, ok, detail=""):
    """Counts one check and prints it (with detail when it fails)."""
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def finish():
    """Prints the counts and exits 1 when a check failed."""
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def skip(why):
    """Exits 77 (meson's skipped) because a package is missing; under CI=true that fails instead, as .ci/deps
    installs every package these tests use."""
    print(f"skipped: {why}")
    sys.exit(1 if os.environ.get("CI") else 77)


def fresh_work_with_kernel(tl, work):
    """Empties work and installs tl's kernel spec under work/prefix; returns that prefix's Jupyter folder
    (for JUPYTER_PATH) and tl --install-kernel's result."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prefix = os.path.join(work, "prefix")
    out = subprocess.run([tl, "--install-kernel", "--prefix", prefix], capture_output=True, text=True)
    return os.path.join(prefix, "share", "jupyter"), out
