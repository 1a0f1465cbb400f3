#!/usr/bin/python3
"""test_qmatmul.py — @ with a quantized GGUF tensor against dequantize-then-matmul.

Usage: test_qmatmul.py TL WORKDIR

For Q8_0, Q4_0, Q4_K and Q6_K (random blocks, and real data quantized), tl computes
w @ x, x @ w.T, X @ w.T with X of 1 and 9 rows (the row path and the tiled path),
and the same on a row slice w[3:40]; numpy computes each from the reference
dequantization (make_test_files.DEQUANT). Q8_0 with few x rows multiplies by a
Q8_0-quantized x (ggml's way): its error must stay within the bound that rounding x
to 8 bits allows (sum over blocks of |w| . max|x| / 254); every other case must agree
within 1e-5 relative to sum |w| |x|. The Q8_0 products must also be bit for bit those
of TL_SIMD=0 (the portable loops): every path sums the same lanes in the same order.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402

KINDS = ["Q8_0", "Q4_0", "Q4_K", "Q6_K"]
ROWS = 70

SCRIPT = """
g = load(argv[0])
for name in keys(g) {
    w = g[name]
    k = w.shape[1]
    x = f32(load(argv[1] + "/x_" + name + ".npy"))
    X = f32(load(argv[1] + "/X_" + name + ".npy"))
    s = w[3:40]
    save(argv[1] + "/r_" + name + ".npz", {"wx": w @ x[0], "xwT": x[0] @ w.T, "x1": x[:1] @ w.T,
        "X": X @ w.T, "wX": w @ X.T, "s": s @ x[0], "sX": X @ s.T})
}
"""


def main():
    tl, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(7)
    tensors, ref = [], {}
    for kind in KINDS:
        bs, _ = mtf.BLOCK[kind]
        for src in ("random", "real"):
            k = 15 * bs if (kind, src) == ("Q8_0", "real") else 2 * bs   # Q8_0: the 4-block loop and a 3-block tail
            name = f"{kind}_{src}"
            if src == "random":
                blocks = mtf.random_blocks(kind, ROWS * 2)
            else:
                blocks = mtf.QUANT[kind]((rng.standard_normal(ROWS * k) * 0.5).astype(np.float32))
            tensors.append((name, mtf.GGML[kind], [k, ROWS], blocks.tobytes()))
            ref[name] = mtf.DEQUANT[kind](blocks).reshape(ROWS, k).astype(np.float64)
            np.save(os.path.join(work, f"x_{name}.npy"), rng.standard_normal((1, k)).astype(np.float32))
            np.save(os.path.join(work, f"X_{name}.npy"), rng.standard_normal((9, k)).astype(np.float32))
    path = os.path.join(work, "q.gguf")
    with open(path, "wb") as f:
        f.write(mtf.gguf_bytes([], tensors))
    r = subprocess.run([tl, "-e", SCRIPT, path, work], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("tl failed:\n" + r.stdout + r.stderr)
    failed = passed = 0
    portable = os.path.join(work, "portable")
    os.makedirs(portable, exist_ok=True)
    r = subprocess.run([tl, "-e", SCRIPT.replace('argv[1] + "/r_"', 'argv[2] + "/r_"'), path, work, portable],
                       capture_output=True, text=True, env=dict(os.environ, TL_SIMD="0"))
    if r.returncode != 0:
        sys.exit("tl (TL_SIMD=0) failed:\n" + r.stdout + r.stderr)
    for name in ref:
        if name.startswith("Q8_0"):
            a, b = np.load(os.path.join(work, f"r_{name}.npz")), np.load(os.path.join(portable, f"r_{name}.npz"))
            same = all(np.array_equal(a[c], b[c]) for c in a.files)
            print(("" if same else "FAIL ") + f"{name}: SIMD and TL_SIMD=0 products {'equal' if same else 'differ'}")
            passed, failed = passed + same, failed + (not same)
    for name, w in ref.items():
        x = np.load(os.path.join(work, f"x_{name}.npy")).astype(np.float64)
        X = np.load(os.path.join(work, f"X_{name}.npy")).astype(np.float64)
        got = np.load(os.path.join(work, f"r_{name}.npz"))
        s = w[3:40]
        cases = {"wx": (w, x[0], w @ x[0]), "xwT": (w, x[0], w @ x[0]), "x1": (w, x[:1], (x[:1] @ w.T)[0]),
                 "X": (w, X, X @ w.T), "wX": (w, X, w @ X.T), "s": (s, x[0], s @ x[0]), "sX": (s, X, X @ s.T)}
        for case, (wm, xm, want) in cases.items():
            g = got[case].astype(np.float64)
            if case == "x1":
                g = g[0]
            xs = np.atleast_2d(xm)
            scale = np.abs(wm) @ np.abs(xs).T          # sum |w| |x|, (rows, x rows)
            if name.startswith("Q8_0") and xs.shape[0] <= 4:
                amax = np.abs(xs).reshape(xs.shape[0], -1, 32).max(-1)               # per x block
                bound = (np.abs(wm).reshape(wm.shape[0], -1, 32).sum(-1) @ (amax / 254).T) * 1.001 + 1e-5 * scale
            else:
                bound = 1e-5 * scale + 1e-6
            if case in ("X", "sX"):
                bound = bound.T
            if case == "wX":
                pass
            elif case not in ("X", "sX"):
                bound = bound[:, 0]
            err = np.abs(g - want)
            if g.shape != want.shape or not (err <= bound).all():
                print(f"FAIL {name} {case}: max error {err.max():.3g}, bound {np.min(bound):.3g}")
                failed += 1
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
