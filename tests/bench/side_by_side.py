"""side_by_side.py — timing tl and numpy on the same work in one run (bench_ops.py, bench_stats.py).

tl runs an expression under `time(fn() = ...)` after one warm-up (best of `rounds`); numpy runs a
statement under timeit (best of `rounds`). run_cases alternates the two `pairs` times per case and
keeps each side's best, so a slow spell of the shared machine has to hit every turn of one side.
"""
import subprocess, timeit
import numpy as np


def tl_time(tl, setup, expr, rounds):
    prog = f"""{setup}
x = {expr}
best = 1e9
for round_ in range({rounds}) {{ best = minimum(best, time(fn() = {expr})) }}
print(best)
"""
    out = subprocess.run([tl, "-e", prog], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def np_time(setup, stmt, rounds):
    g = {"np": np}
    setup(g)
    eval(stmt, g)
    return min(timeit.repeat(stmt, globals=g, number=1, repeat=rounds))


def run_cases(tl, cases, rounds, pairs):
    """cases: (name, tl setup, tl expression, numpy setup(globals), numpy statement, target or 0)."""
    print(f"{'case':34} {'numpy_s':>10} {'tl_s':>10} {'ratio':>7} {'target':>7}")
    for name, tsetup, texpr, nsetup, nstmt, target in cases:
        t = n = float("inf")
        for _ in range(pairs):
            t = min(t, tl_time(tl, tsetup, texpr, rounds))
            n = min(n, np_time(nsetup, nstmt, rounds))
        verdict = "" if not target else "ok" if n / t >= target else "MISS"
        print(f"{name:34} {n:10.6f} {t:10.6f} {n / t:6.2f}x {target:6.2f}x {verdict}")
