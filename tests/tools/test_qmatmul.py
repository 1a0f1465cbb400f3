#!/usr/bin/python3
"""test_qmatmul.py — @ with a quantized GGUF tensor against dequantize-then-matmul.

Usage: test_qmatmul.py TL WORKDIR

For every quantized type tl reads (random blocks, and real data quantized), tl computes
w @ x, x @ w.T, X @ w.T with X of 1 and 9 rows (the row path and the tiled path),
and the same on a row slice w[3:40]; the reference multiplies, in double, tl's own
dequantization of w (io/quant.c, saved after the products), which must equal numpy's
(make_test_files.DEQUANT). With at most 4 x rows the product rounds x to 8-bit blocks
(of 32 for the 32-weight types, 256 for the K types, ggml's way) and dots the blocks in
integers: its error must stay within the bound that rounding allows (the sum over x's
blocks of sum |w| times max|x| / 254, the most each rounded x can move, plus 1e-5 of
sum |w| |x| for float sums); with more rows (dequantized tiles) within 1e-5 of sum |w| |x|.
Every product must also be bit for bit the same with TL_SIMD=0 (the portable loops) and
TL_SIMD=avx2 (no AVX-512): every path sums the same lanes in the same order.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402

KINDS = ["Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K"]
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
    save(argv[1] + "/d_" + name + ".npy", w)
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
            # 32-weight types: 15 blocks (pairs, an odd last one, each accumulator); K types: 3
            k = 15 * bs if bs == 32 and src == "real" else 3 * bs
            name = f"{kind}_{src}"
            if src == "random":
                blocks = mtf.random_blocks(kind, ROWS * k // bs)
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
    for simd in ("0", "avx2"):
        other = os.path.join(work, "simd_" + simd)
        os.makedirs(other, exist_ok=True)
        r = subprocess.run([tl, "-e", SCRIPT.replace('argv[1] + "/r_"', 'argv[2] + "/r_"').replace(
            'argv[1] + "/d_"', 'argv[2] + "/d_"'), path, work, other], capture_output=True, text=True,
            env=dict(os.environ, TL_SIMD=simd))
        if r.returncode != 0:
            sys.exit(f"tl (TL_SIMD={simd}) failed:\n" + r.stdout + r.stderr)
        same = all(np.array_equal(np.load(os.path.join(work, f"r_{n}.npz"))[c], np.load(os.path.join(other, f"r_{n}.npz"))[c])
                   for n in ref for c in np.load(os.path.join(work, f"r_{n}.npz")).files)
        print(("" if same else "FAIL ") + f"every product with TL_SIMD={simd} {'equals' if same else 'differs from'} "
              "the best path's, bit for bit")
        passed, failed = passed + same, failed + (not same)
    for name in ref:
        d = np.load(os.path.join(work, f"d_{name}.npy")).astype(np.float64)
        if not np.array_equal(d, ref[name]):
            print(f"FAIL {name}: tl's dequantization differs from numpy's")
            failed += 1
        ref[name] = d
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
            if xs.shape[0] <= 4:
                bl = 32 if mtf.BLOCK[name[:4]][0] == 32 else 256
                amax = np.abs(xs).reshape(xs.shape[0], -1, bl).max(-1)               # per x block
                bound = (np.abs(wm).reshape(wm.shape[0], -1, bl).sum(-1) @ (amax / 254).T) * 1.001 + 1e-5 * scale
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
