#!/usr/bin/python3
"""bench_plot.py — how long the pictures take on big tensors: tl's heatmap of a 16384² f32
matrix and hist of 1e8 values, beside numpy doing the same reduction (block means of the
matrix; np.histogram). Usage: /usr/bin/python3 tests/bench/bench_plot.py build/src/tl. Best of 5 (hist: of 3) on each side; prints milliseconds and the ratios."""
import subprocess
import sys
import time

import numpy as np

tl = sys.argv[1] if len(sys.argv) > 1 else "build/src/tl"
script = """
fn best(f, n) {
    b = f()
    for i in range(n - 1) {
        t = f()
        if t < b { b = t }
    }
    return b
}
m = randn(16384, 16384, dtype="f32")
x = randn(100000000)
print("TIME heatmap", best(fn() = time(fn() = heatmap(m, width=80, height=24)), 5))
print("TIME heatmap_T", best(fn() = time(fn() = heatmap(m.T, width=80, height=24)), 5))
print("TIME sum", best(fn() = time(fn() = sum(m)), 5))
print("TIME hist", best(fn() = time(fn() = hist(x, width=80, height=24)), 3))
"""
out = subprocess.run([tl, "-e", script], capture_output=True, text=True, check=True).stdout
tl_t = {line.split()[1]: float(line.split()[2]) for line in out.splitlines() if line.startswith("TIME ")}

rng = np.random.default_rng(0)
m = rng.standard_normal((16384, 16384), dtype=np.float32)
np_heat = 1e9
for _ in range(5):   # best of 5, as tl's side
    t0 = time.perf_counter()
    m[: 19 * 862, : 73 * 224].reshape(19, 862, 73, 224).mean(axis=(1, 3))   # about the same grid
    np_heat = min(np_heat, time.perf_counter() - t0)
del m
x = rng.standard_normal(100_000_000)
np_hist = 1e9
for _ in range(3):
    t0 = time.perf_counter()
    np.histogram(x, bins=50)
    np_hist = min(np_hist, time.perf_counter() - t0)

print(f"heatmap 16384² f32: tl {tl_t['heatmap']*1e3:.0f} ms (of m.T: {tl_t['heatmap_T']*1e3:.0f} ms; "
      f"tl sum(m): {tl_t['sum']*1e3:.0f} ms), numpy block means {np_heat*1e3:.0f} ms, ratio tl/numpy {tl_t['heatmap']/np_heat:.2f}")
print(f"hist of 1e8 f64: tl {tl_t['hist']*1e3:.0f} ms, numpy.histogram {np_hist*1e3:.0f} ms, ratio tl/numpy {tl_t['hist']/np_hist:.2f}")
