#!/usr/bin/env python3
"""bench_golden.py — tl --test's speed targets (docs/testing.md): the project's golden suite with -j 2
against -j 1 (target: at least 1.8x faster), and a generated 1,000-test suite with -j 2 (target: under 5 s).
Best of ROUNDS runs each; wall-clock times, so run it on a quiet machine.
usage: bench_golden.py PATH/TO/tl SOURCE_ROOT [ROUNDS]"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

tl, root = os.path.abspath(sys.argv[1]), sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def best(args):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        r = subprocess.run([tl, "--test", *args], capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit(f"tl --test {' '.join(args)} failed:\n{r.stdout[-2000:]}")
    return min(times)


golden = os.path.join(root, "tests", "golden")
j1, j2 = best(["-j", "1", golden]), best(["-j", "2", golden])
print(f"golden suite: -j 1 {j1:.2f} s, -j 2 {j2:.2f} s, ratio {j1 / j2:.2f}x (target >= 1.8x)")
work = tempfile.mkdtemp(prefix="tl_bench_golden_")
try:
    for i in range(1000):
        with open(os.path.join(work, f"t{i:04}.tl"), "w") as f:
            f.write(f"x = {i}\nx * 2\n#> {2 * i}\n")
    big = best(["-j", "2", work])
    print(f"1,000 generated tests, -j 2: {big:.2f} s (target < 5 s)")
finally:
    shutil.rmtree(work, ignore_errors=True)


def forks(n):
    """Seconds for n fork + _exit + wait cycles of this process."""
    t = time.perf_counter()
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    return time.perf_counter() - t


# The machine's own ceiling: tl --test forks once per test, so when two forks at once cost more
# than one after the other (some virtual machines serialise page-table work), no -j can scale.
n = 300
alone = forks(n)
r, w = os.pipe()
if os.fork() == 0:
    os.close(r)
    os.write(w, str(forks(n)).encode())
    os._exit(0)
os.close(w)
beside = forks(n)
other = float(os.read(r, 64) or 0)
os.close(r)
os.wait()
print(f"fork+exit+wait here: {alone / n * 1e6:.0f} us alone, {max(beside, other) / n * 1e6:.0f} us with two "
      f"processes forking at once (parallel forking speed-up {2 * alone / max(beside, other):.2f}x)")
ok = j1 / j2 >= 1.8 and big < 5
print("targets met" if ok else "targets NOT met (a loaded machine slows every figure)")
