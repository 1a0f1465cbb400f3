#!/usr/bin/env python3
"""bench_stats.py — the statistics targets of issue 14 (median, histogram) and their neighbours,
tl against numpy in one run on the same sizes.

Each case runs tl's expression under `time(fn() = ...)` (best of ROUNDS) and numpy's under timeit
(best of ROUNDS), alternating the two PAIRS times and keeping each side's best (the machine is
shared and noisy); prints numpy_time / tl_time beside the target (0 = no target, shown for scale).
usage: /usr/bin/python3 tests/bench/bench_stats.py PATH/TO/tl [ROUNDS=5] [PAIRS=2]
"""
import sys
import numpy as np
import side_by_side

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
PAIRS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
TL = sys.argv[1]
N = 10_000_000


def f32_vector(g):
    g["a"] = np.random.rand(N).astype(np.float32)


def f32_rows(g):
    g["X"] = np.random.rand(1000, 10_000).astype(np.float32)


def small_ints(g):
    g["k"] = np.random.randint(0, 1000, N)


def rng(g):
    g["g"] = np.random.default_rng(0)


# name, tl setup, tl expression, numpy setup, numpy statement, target
CASES = [
    ("median 1e7 f32", f"a = rand({N}, dtype=f32)", "median(a)", f32_vector, "np.median(a)", 1.5),
    ("histogram 1e7 f32", f"a = rand({N}, dtype=f32)", "histogram(a)", f32_vector, "np.histogram(a)", 2.0),
    ("percentile 1e7 f32 [5 50 95]", f"a = rand({N}, dtype=f32)", "percentile(a, [5, 50, 95])", f32_vector,
     "np.percentile(a, [5, 50, 95])", 0),
    ("median axis=1 (1000, 1e4) f32", "X = rand(1000, 10000, dtype=f32)", "median(X, axis=1)", f32_rows,
     "np.median(X, axis=1)", 0),
    ("bincount 1e7 ints < 1000", f"k = randint(0, 1000, {N})", "bincount(k)", small_ints, "np.bincount(k)", 0),
    # numpy's Generator (a ziggurat, as tl's randn); np.random.randn's polar method is slower still
    ("randn 1e7 f64", "", f"randn({N})", rng, f"g.standard_normal({N})", 0),
    ("randn 1e7 f32", "", f"randn({N}, dtype=f32)", rng, f"g.standard_normal({N}, dtype=np.float32)", 0),
    ("rand 1e7 f64", "", f"rand({N})", rng, f"g.random({N})", 0),
]


side_by_side.run_cases(TL, CASES, ROUNDS, PAIRS)
