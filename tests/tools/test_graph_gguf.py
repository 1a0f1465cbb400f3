#!/usr/bin/python3
"""test_graph_gguf.py — a graph built over a GGUF file's tensors (f32, f16 and Q8_0 weights).

Usage: test_graph_gguf.py TL WORKDIR

Writes a small GGUF file (a 2-layer MLP: f32, f16 and Q8_0 weights), then tl loads it and
builds graph(mlp, x): the file's tensors are leaves held by reference (mapped or lazily
dequantized storage). The graph's result for several inputs must equal mlp's eager result
bit for bit, its print must list the three weight leaves, and the result must agree with
numpy's forward pass over the dequantized weights (within Q8_0's rounding of x).
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402

SCRIPT = """
m = load(argv[0])
w1 = m["w1"]
b1 = m["b1"]
w2 = m["w2"]
fn mlp(x) = gelu(x @ w1.T + f32(b1)) @ w2.T
x = f32(load(argv[1] + "/x.npy"))
g = graph(mlp, x)
print(g)
same = true
for i in range(3) {
    xi = x * f32(i + 1)
    same = same and array_equal(bitcast(g(xi), u8), bitcast(mlp(xi), u8))
}
print(fmt("bitwise {}", same))
save(argv[1] + "/y.npy", g(x))
"""


def main():
    tl, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(13)
    k, h, n = 64, 96, 32
    w1 = (rng.standard_normal((h, k)) * 0.2).astype(np.float32)
    b1 = (rng.standard_normal(h) * 0.1).astype(np.float16)
    q2 = mtf.QUANT["Q8_0"]((rng.standard_normal(n * h) * 0.2).astype(np.float32))
    w2 = mtf.DEQUANT["Q8_0"](q2).reshape(n, h).astype(np.float64)
    tensors = [("w1", 0, [k, h], w1.tobytes()), ("b1", 1, [h], b1.tobytes()),
               ("w2", mtf.GGML["Q8_0"], [h, n], q2.tobytes())]
    path = os.path.join(work, "mlp.gguf")
    with open(path, "wb") as f:
        f.write(mtf.gguf_bytes([], tensors))
    x = rng.standard_normal((2, k)).astype(np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    r = subprocess.run([tl, "-e", SCRIPT, path, work], capture_output=True, text=True)
    out = r.stdout
    failures = []
    if r.returncode != 0:
        failures.append("tl failed:\n" + r.stdout + r.stderr)
    else:
        if "bitwise true" not in out:
            failures.append("g(x) differs from mlp(x):\n" + out)
        leaves = [ln for ln in out.splitlines() if " leaf " in ln]
        if len(leaves) != 3 or "held by reference" not in out:
            failures.append("print(g) should list the three weights as leaves:\n" + out)
        y = np.load(os.path.join(work, "y.npy")).astype(np.float64)
        hid = x.astype(np.float64) @ w1.T.astype(np.float64) + b1.astype(np.float64)
        from math import erf
        gel = 0.5 * hid * (1 + np.vectorize(erf)(hid / np.sqrt(2)))
        want = gel @ w2.T
        scale = np.abs(gel) @ np.abs(w2).T
        err = np.abs(y - want)
        if y.shape != want.shape or not (err <= 0.01 * scale + 1e-4).all():
            failures.append(f"result differs from numpy: max error {err.max():.3g}")
    for f in failures:
        print("FAIL", f)
    print("ok" if not failures else f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
