#!/usr/bin/env python3
"""bench_linalg.py — the linear-algebra and FFT speed targets of the numpy working-set issue.

Each case runs tl (an expression under `time(fn() = ...)`, best of ROUNDS) and numpy (timeit,
best of ROUNDS) on the same data sizes in one run, alternating the two sides PAIRS times and
keeping each side's best, and prints numpy_time / tl_time beside the target. numpy's einsum
does not call BLAS by default (optimize=False), which is what the einsum targets measure.
usage: /usr/bin/python3 tests/bench/bench_linalg.py PATH/TO/tl [ROUNDS=5] [PAIRS=2] [NAME-SUBSTRING]
"""
import sys
import numpy as np
import side_by_side

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
PAIRS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
ONLY = sys.argv[4] if len(sys.argv) > 4 else ""
TL = sys.argv[1]


def f32(*shape):
    return np.random.rand(*shape).astype(np.float32)


# name, tl setup, tl expression, numpy setup, numpy statement, target
CASES = [
    ('einsum("bij,bjk->bik") (64,256,256) f32', "A = rand(64, 256, 256, dtype=f32)\nB = rand(64, 256, 256, dtype=f32)",
     'einsum("bij,bjk->bik", A, B)', lambda g: g.update(A=f32(64, 256, 256), B=f32(64, 256, 256)),
     'np.einsum("bij,bjk->bik", A, B)', 3.0),
    ('einsum("ij,jk->ik") 1024^2 f32', "A = rand(1024, 1024, dtype=f32)\nB = rand(1024, 1024, dtype=f32)",
     'einsum("ij,jk->ik", A, B)', lambda g: g.update(A=f32(1024, 1024), B=f32(1024, 1024)),
     'np.einsum("ij,jk->ik", A, B)', 0.95),
    ("(64, 288) @ (288,) f32, a small mat-vec", "A = rand(64, 288, dtype=f32)\nv = rand(288, dtype=f32)", "A @ v",
     lambda g: g.update(A=f32(64, 288), v=f32(288)), "A @ v", 1.0),
    ("(6, 101, 48) @ (6, 48, 1) f32, batched mat-vecs", "K = rand(6, 101, 48, dtype=f32)\nq = rand(6, 48, 1, dtype=f32)",
     "K @ q", lambda g: g.update(K=f32(6, 101, 48), q=f32(6, 48, 1)), "K @ q", 1.0),
    ("svd 512^2 f64", "A = rand(512, 512)", "svd(A)", lambda g: g.update(A=np.random.rand(512, 512)),
     "np.linalg.svd(A)", 0.9),
    ("fft 2^20 c128", "x = rand(1048576) + 1j * rand(1048576)", "fft(x)",
     lambda g: g.update(x=np.random.rand(1 << 20) + 1j * np.random.rand(1 << 20)), "np.fft.fft(x)", 0.5),
]


if __name__ == "__main__":
    side_by_side.run_cases(TL, [c for c in CASES if ONLY in c[0]], ROUNDS, PAIRS)
