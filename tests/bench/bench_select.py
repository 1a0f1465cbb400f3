#!/usr/bin/env python3
"""bench_select.py — the select builtins' speed: unique (target: numpy_time / tl_time >= 1.5 on 1e7 i32),
searchsorted and isin on large inputs (no target: they must not be quadratic), tl against numpy in one run.

Timed with side_by_side.py (tl and numpy alternately, each side's best); same sizes and value
ranges on both sides.
usage: /usr/bin/python3 tests/bench/bench_select.py PATH/TO/tl [ROUNDS=3] [PAIRS=2]
"""
import os, sys
import numpy as np

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
PAIRS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
TL = sys.argv[1]
N = 10_000_000
rng = np.random.default_rng(0)

# name, tl setup, tl expression, numpy globals builder, numpy statement, target (None: reported only)
CASES = [
    ("unique 1e7 i32 in [0, 1e6)", f"a = randint(0, 1000000, {N}, dtype=i32)", "unique(a)",
     lambda g: g.update(a=rng.integers(0, 1_000_000, N).astype(np.int32)), "np.unique(a)", 1.5),
    ("unique 1e7 i32 full range", f"a = randint(-2147483648, 2147483647, {N}, dtype=i32)", "unique(a)",
     lambda g: g.update(a=rng.integers(-2**31, 2**31 - 1, N).astype(np.int32)), "np.unique(a)", 1.5),
    ("unique 1e7 i32 return_counts", f"a = randint(0, 1000000, {N}, dtype=i32)", "unique(a, return_counts=true)",
     lambda g: g.update(a=rng.integers(0, 1_000_000, N).astype(np.int32)), "np.unique(a, return_counts=True)", None),
    ("unique 1e6 f64 return_inverse", "a = rand(1000000)", "unique(a, return_inverse=true)",
     lambda g: g.update(a=rng.random(1_000_000)), "np.unique(a, return_inverse=True)", None),
    ("searchsorted 1e6 into 1e6", "s = sort(rand(1000000))\nv = rand(1000000)", "searchsorted(s, v)",
     lambda g: g.update(s=np.sort(rng.random(1_000_000)), v=rng.random(1_000_000)), "np.searchsorted(s, v)", None),
    ("isin 1e6 in 1e5 i64", "e = randint(0, 1000000, 1000000)\nt = randint(0, 1000000, 100000)", "isin(e, t)",
     lambda g: g.update(e=rng.integers(0, 1_000_000, 1_000_000), t=rng.integers(0, 1_000_000, 100_000)),
     "np.isin(e, t)", None),
]


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from side_by_side import run_cases  # noqa: E402

run_cases(TL, [(n, ts, te, ns, nst, tg or 0) for n, ts, te, ns, nst, tg in CASES], ROUNDS, PAIRS)
