#!/usr/bin/python3
"""bench_kernels.py — runs the same kernels in tl (through the bench_kernels C driver)
and in numpy on the same sizes, and prints numpy_time / tl_time for each.

usage: /usr/bin/python3 tests/bench/bench_kernels.py BUILD/tests/bench/bench_kernels [NAME-FILTER]
Best of several runs each; both sides allocate their outputs, as `a + b` does."""
import subprocess
import sys
import time

import numpy as np

TARGETS = {  # name: (numpy expression builder, speed-up target from the "faster than numpy" issue)
    "add_f32_1e7": 2.5, "mul_f32_1e7": None, "exp_f32_1e7": 2.0, "tanh_f32_1e7": 2.0, "sum_f32_1e7": 1.5,
    "sum0_f32_4096": 1.5, "sum1_f32_4096": 1.5, "max1_f32_4096": None, "softmax_f32_4096": 4.0,
    "matmul_f32_2048": 0.95, "matmul_f64_2048": 0.95,
}


def best(fn, reps):
    t = 1e30
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - s)
    return t


def softmax(x):
    m = x.max(-1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(-1, keepdims=True)


def numpy_times(only):
    rng = np.random.default_rng(0)
    out = {}
    want = lambda s: only is None or only in s
    a = rng.random(10**7, dtype=np.float32)
    b = rng.random(10**7, dtype=np.float32)
    cases = {"add_f32_1e7": (lambda: a + b, 10), "mul_f32_1e7": (lambda: a * b, 10),
             "exp_f32_1e7": (lambda: np.exp(a), 10), "tanh_f32_1e7": (lambda: np.tanh(a), 10),
             "sum_f32_1e7": (lambda: a.sum(), 20)}
    m = rng.random((4096, 4096), dtype=np.float32)
    cases.update({"sum0_f32_4096": (lambda: m.sum(0), 20), "sum1_f32_4096": (lambda: m.sum(1), 20),
                  "max1_f32_4096": (lambda: m.max(1), 20), "softmax_f32_4096": (lambda: softmax(m), 10)})
    p = rng.random((2048, 2048), dtype=np.float32)
    q = p.astype(np.float64)
    cases.update({"matmul_f32_2048": (lambda: p @ p, 5), "matmul_f64_2048": (lambda: q @ q, 5)})
    for name, (fn, reps) in cases.items():
        if want(name):
            out[name] = best(fn, reps)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    only = sys.argv[2] if len(sys.argv) > 2 else None
    res = subprocess.run([sys.argv[1]] + ([only] if only else []), capture_output=True, text=True, check=True)
    tl = {line.split()[0]: float(line.split()[1]) for line in res.stdout.splitlines() if line.strip()}
    npt = numpy_times(only)
    print("%-18s %12s %12s %8s %8s" % ("case", "numpy_s", "tl_s", "speedup", "target"))
    missed = 0
    for name, t in tl.items():
        if name not in npt:
            continue
        ratio = npt[name] / t
        target = TARGETS.get(name)
        mark = "" if target is None else ("ok" if ratio >= target else "MISS")
        missed += mark == "MISS"
        print("%-18s %12.6f %12.6f %7.2fx %8s %s" % (name, npt[name], t, ratio,
                                                     "" if target is None else "%.2fx" % target, mark))
    return 0


if __name__ == "__main__":
    sys.exit(main())
