#!/usr/bin/python3
"""test_quantize.py — quantize() byte for byte against quant_ref.py, blocks() and qtype.

Usage: test_quantize.py TL WORKDIR

For each of the ten types quantize() makes, tl quantizes the same f32 rows numpy does:
random rows at scales from 1e-30 to 1e30, rows of zeros, constant rows, rows with one huge
value, rows of float32's extremes (no nan or inf) and subnormals. tl's blocks come back through
blocks() (one view per field of ggml's struct) and are put together here at the fields' offsets
in ggml-common.h, written out below independently of tl's list; every byte must equal
quant_ref.py's (the independent numpy re-implementation of ggml's quantize_row_*_ref). Also:
f16, bf16 and f64 inputs quantize as their f32 conversion; a quantized tensor reads back as
make_test_files' reference dequantization of the same bytes; qtype is the type's name and
none for a plain tensor; a nan, a last axis that is no multiple of the block, an unknown type
and blocks() of a view are errors.
"""
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402
import quant_ref  # noqa: E402

# ggml-common.h's block structs: (field, numpy dtype, byte offset, count).
FIELDS = {
    "q4_0": [("d", "<f2", 0, 1), ("qs", "u1", 2, 16)],
    "q4_1": [("d", "<f2", 0, 1), ("m", "<f2", 2, 1), ("qs", "u1", 4, 16)],
    "q5_0": [("d", "<f2", 0, 1), ("qh", "u1", 2, 4), ("qs", "u1", 6, 16)],
    "q5_1": [("d", "<f2", 0, 1), ("m", "<f2", 2, 1), ("qh", "u1", 4, 4), ("qs", "u1", 8, 16)],
    "q8_0": [("d", "<f2", 0, 1), ("qs", "i1", 2, 32)],
    "q2_k": [("scales", "u1", 0, 16), ("qs", "u1", 16, 64), ("d", "<f2", 80, 1), ("dmin", "<f2", 82, 1)],
    "q3_k": [("hmask", "u1", 0, 32), ("qs", "u1", 32, 64), ("scales", "u1", 96, 12), ("d", "<f2", 108, 1)],
    "q4_k": [("d", "<f2", 0, 1), ("dmin", "<f2", 2, 1), ("scales", "u1", 4, 12), ("qs", "u1", 16, 128)],
    "q5_k": [("d", "<f2", 0, 1), ("dmin", "<f2", 2, 1), ("scales", "u1", 4, 12), ("qh", "u1", 16, 32),
             ("qs", "u1", 48, 128)],
    "q6_k": [("ql", "u1", 0, 128), ("qh", "u1", 128, 64), ("scales", "i1", 192, 16), ("d", "<f2", 208, 1)],
}
K = 512          # two K blocks, sixteen small ones per row

SCRIPT = """
x = load(argv[0] + "/x.npy")
for t in ("q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k") {
    q = quantize(x, t)
    save(argv[0] + "/b_" + t + ".npz", blocks(q))
    save(argv[0] + "/d_" + t + ".npy", q[:, :])
    h = load(argv[0] + "/x16.npy")
    for v in (("f16", h), ("f16_32", f32(h)), ("bf16", bf16(h)), ("bf16_32", f32(bf16(h))), ("f64", f64(x))) {
        save(argv[0] + "/c_" + t + "_" + v[0] + ".npz", blocks(quantize(v[1], t)))
    }
    print(t, q.qtype, q.shape, x.qtype)
}
"""

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def rows():
    """The test rows (f32), each of K elements, and what each group is."""
    rng = np.random.default_rng(35)
    out = []
    for scale in (1.0, 1e-30, 1e-5, 3e3, 1e30):
        out.append(("random x%g" % scale, (rng.standard_normal((6, K)) * scale)))
    out.append(("uniform", rng.uniform(-1, 1, (4, K))))
    out.append(("positive", rng.uniform(0.5, 2, (3, K))))
    out.append(("negative", -rng.uniform(0.5, 2, (3, K))))
    out.append(("zeros", np.zeros((2, K))))
    const = np.ones((5, K))
    const *= np.array([1.0, -3.5, 1e-8, 65504.0, 7e4])[:, None]
    out.append(("constant", const))
    huge = rng.standard_normal((4, K))
    huge[0, 7] = 1e30
    huge[1, 300] = -1e30
    huge[2, 0] = 3e38
    huge[3, 511] = 70000.0
    out.append(("one huge value", huge))
    ext = rng.choice(np.array([3.4028235e38, -3.4028235e38, 1e-45, -1e-45, 1.1754944e-38, 0.0, 1e38, -1e-38]),
                     size=(4, K))
    out.append(("extremes", ext))
    sub = rng.standard_normal((2, K)) * 1e-42
    out.append(("subnormals", sub))
    sparse = rng.standard_normal((3, K)) * (rng.random((3, K)) < 0.05)
    out.append(("sparse", sparse))
    ints = rng.integers(-8, 8, (3, K)).astype(np.float64)
    out.append(("small integers", ints))
    return [(name, np.asarray(x, dtype=np.float32)) for name, x in out]


def blocks_bytes(npz, name, nblocks):
    """tl's blocks() fields put together as (nblocks, bytes) at ggml's offsets."""
    bs, nbytes = quant_ref.TYPES[name]
    out = np.zeros((nblocks, nbytes), dtype=np.uint8)
    for field, dt, off, count in FIELDS[name]:
        a = np.ascontiguousarray(npz[field])
        check(a.dtype == np.dtype(dt), "%s.%s is %s, not %s" % (name, field, a.dtype, dt))
        b = a.reshape(nblocks, -1).view(np.uint8).reshape(nblocks, -1)
        check(b.shape[1] == np.dtype(dt).itemsize * count, "%s.%s has %d bytes a block" % (name, field, b.shape[1]))
        out[:, off: off + b.shape[1]] = b
    return out


def run(tl, *args, code=None, stdin=None):
    cmd = [tl] + (["-e", code] if code else list(args))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, input=stdin)


def main():
    tl, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    groups = rows()
    x = np.concatenate([g for _, g in groups])
    np.save(os.path.join(work, "x.npy"), x)
    np.save(os.path.join(work, "x16.npy"), np.clip(x, -6e4, 6e4).astype(np.float16))
    script = os.path.join(work, "quantize.tl")
    with open(script, "w") as f:
        f.write(SCRIPT)
    r = run(tl, script, work)
    check(r.returncode == 0 and not r.stderr, "tl ran: %s" % r.stderr[-2000:])
    if r.returncode:
        return finish()
    for name in quant_ref.TYPES:
        check("%s %s (%d, %d) none" % (name, name, x.shape[0], K) in r.stdout, "%s: qtype and shape printed" % name)
        bs, _ = quant_ref.TYPES[name]
        nb = x.size // bs
        got = blocks_bytes(np.load(os.path.join(work, "b_%s.npz" % name)), name, nb)
        with np.errstate(all="ignore"):   # a scale beyond f16 is inf (and its products nan), as in ggml
            ref = quant_ref.quantize(x, name)
            deq = mtf.DEQUANT[name.upper()](ref).reshape(x.shape)
        per_row = K // bs
        first = 0
        for gname, g in groups:
            lo, hi = first * per_row, (first + len(g)) * per_row
            bad = np.nonzero((got[lo:hi] != ref[lo:hi]).any(1))[0]
            check(len(bad) == 0, "%s, %s rows: %d of %d blocks differ from quant_ref (first: block %s)"
                  % (name, gname, len(bad), hi - lo, bad[:3]))
            first += len(g)
        have = np.load(os.path.join(work, "d_%s.npy" % name))
        check(np.array_equal(deq.view(np.uint32), have.view(np.uint32)), "%s: reads dequantize the blocks" % name)
        c = {v: blocks_bytes(np.load(os.path.join(work, "c_%s_%s.npz" % (name, v))), name, nb)
             for v in ("f16", "f16_32", "bf16", "bf16_32", "f64")}
        check(np.array_equal(c["f16"], c["f16_32"]), "%s: f16 input quantizes as its f32 values" % name)
        check(np.array_equal(c["bf16"], c["bf16_32"]), "%s: bf16 input quantizes as its f32 values" % name)
        check(np.array_equal(c["f64"], got), "%s: f64 input quantizes as its f32 values" % name)
    for code, phrase in (
        ('x = ones(2, 64); x[1, 3] = nan; quantize(x, "q8_0")', "nan or inf at (1, 3)"),
        ('quantize(ones(2, 48), "q4_0")', "multiple of 32"),
        ('quantize(ones(2, 512), "q8_1")', "cannot quantize"),
        ('quantize(ones(2, 512), "q9")', "cannot quantize"),
        ('blocks(quantize(ones(4, 64), "q8_0")[1:])', "not of a view"),
        ('blocks(ones(4, 64))', "not held as ggml blocks"),
        ('quantize(ones(2, 32) * 1j, "q8_0")', "complex"),
    ):
        r = run(tl, code=code)
        check(r.returncode == 1 and phrase in r.stderr and re.search(r"error\[\w+\]:", r.stderr),
              "%s: expected an error with %r, got %r" % (code, phrase, r.stderr.strip()))
    r = run(tl, code='q = quantize(ones(3, 32) * 2, "q8_0"); b = blocks(q); print(b["d"].shape, b["d"].dtype, b["qs"].shape,'
                     ' b["qs"].dtype, b["d"][0, 0], b["qs"][2, 0, 5]); q[0, 0] = 5; print(q[0, :3], q.qtype)')
    check(r.returncode == 0 and r.stdout == "(3, 1) f16 (3, 1, 32) i8 0.01575 127\n[5.        1.9998779 1.9998779] q8_0\n",
          "blocks() of Q8_0: shapes, dtypes, values; a write changes the f32 reads: %r %r" % (r.stdout, r.stderr))
    return finish()


def finish():
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
