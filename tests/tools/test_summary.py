#!/usr/bin/python3
"""test_summary.py — stats(), summary() and compare() against numpy, on files numpy and tl wrote.

Usage: test_summary.py TL WORKDIR

numpy writes a .safetensors checkpoint (f32, f16, f64, i32 tensors, nan and inf among them, a
transposed layout through tl) and tl writes it again as GGUF with some tensors quantized (Q8_0,
Q4_K, Q6_K) and one bf16. For every tensor stats() must give numpy's count, mean and std (ddof 0)
of the finite values, min, max, largest magnitude, nan and inf counts, over the values a read
gives (the dequantized ones for blocks: make_test_files' reference dequantization); a
quantized tensor is read block by block, so its resident bytes stay its blocks' after stats and
summary (no f32 chunk is computed). compare() of the two checkpoints matched by name must give
numpy's largest |a - b| and its first index, RMSE, ‖a − b‖/‖a‖, cosine and SNR in dB, list the
names found in one only and the shape mismatch. summary() prints a row per tensor and totals per
layer and per type whose counts and bytes are checked. The figures must be the same, bit for
bit, with TL_SIMD=avx2 and TL_SIMD=0 (the AVX2 and portable loops).
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402
import quant_ref  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def close(a, b, rel=1e-9):
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    if isinstance(b, float) and math.isinf(b):
        return a == b
    return abs(a - b) <= rel * max(1.0, abs(b))


SCRIPT = """
a = load(argv[0] + "/a.safetensors")
q = {}
for k in keys(a) { q[k] = a[k] }
q["blk.0.attn_q.weight"] = quantize(a["blk.0.attn_q.weight"], "q8_0")
q["blk.0.ffn_up.weight"] = quantize(a["blk.0.ffn_up.weight"], "q4_k")
q["blk.1.attn_q.weight"] = quantize(a["blk.1.attn_q.weight"], "q6_k")
q["blk.1.ffn_up.weight"] = bf16(a["blk.1.ffn_up.weight"])
del q["output.bias"]
q["extra"] = ones(3)
q["norm.weight"] = a["norm.weight"][:4]
save(argv[0] + "/b.gguf", q)
b = load(argv[0] + "/b.gguf")
fn line(tag, k, d) {
    t = ""
    for f in keys(d) {
        if f != "type" and f != "shape" { t = t + " " + f + "=" + repr(d[f]) }
    }
    print(tag, k, t)
}
for k in keys(b) { line("stats", k, stats(b[k])) }
for k in keys(a) { line("stats", "a:" + k, stats(a[k])) }
line("stats", "a:T", stats(a["blk.0.attn_q.weight"].T))
r = compare(a, b)
for k in keys(r) { line("compare", k, r[k]) }
summary(b)
w = b["blk.0.ffn_up.weight"]
info(w)
"""


def parse_dict(text):
    """Printed figures ("key=value ...", values as repr prints them) as a dict."""
    out = {}
    for key, v in re.findall(r"(\w+)=(\([^)]*\)|\S+)", text):
        out[key] = eval(v.replace("nan", "float('nan')").replace("inf", "float('inf')"))
    return out


def np_stats(x):
    x = np.asarray(x, dtype=np.float64).ravel()
    fin = x[np.isfinite(x)]
    d = dict(params=x.size, nan=int(np.isnan(x).sum()), inf=int(np.isinf(x).sum()))
    if fin.size:
        d.update(mean=float(fin.mean()), std=float(fin.std()), min=float(fin.min()), max=float(fin.max()),
                 absmax=float(np.abs(fin).max()))
    else:
        d.update(mean=math.nan, std=math.nan, min=math.nan, max=math.nan, absmax=math.nan)
    return d


def np_compare(a, b):
    np.seterr(all="ignore")   # nan and inf among the values, a difference of zero
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    ok = np.isfinite(a) & np.isfinite(b)
    if not ok.any():   # no pair to compare: no largest difference, nor a place
        return dict(max_diff=math.nan, at=(), rmse=math.nan, rel_error=math.nan, cosine=math.nan, snr_db=math.nan)
    d = np.where(ok, np.abs(a - b), -1.0)
    at = np.unravel_index(int(np.argmax(d)), a.shape)
    e, x, y = (a - b)[ok], a[ok], b[ok]
    return dict(max_diff=float(d.max()), at=tuple(int(i) for i in at), rmse=float(np.sqrt(np.mean(e * e))),
                rel_error=float(np.linalg.norm(e) / np.linalg.norm(x)),
                cosine=float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y))),
                snr_db=float(10 * np.log10((x @ x) / (e @ e))))


def main():
    tl, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(2)
    a = {"blk.0.attn_q.weight": rng.standard_normal((64, 256)).astype(np.float32),
         "blk.0.ffn_up.weight": (rng.standard_normal((8, 512)) * 0.02).astype(np.float32),
         "blk.1.attn_q.weight": rng.standard_normal((16, 256)).astype(np.float32),
         "blk.1.ffn_up.weight": rng.uniform(-3, 5, (5, 70001)).astype(np.float32),   # several chunks and tasks
         "token_embd.weight": rng.standard_normal((33, 20)).astype(np.float16),
         "norm.weight": rng.standard_normal(9),
         "output.bias": rng.integers(-2**31, 2**31, 13).astype(np.int32),
         "odd": np.array([1.0, np.nan, np.inf, -np.inf, 2.0, np.nan, -7.5], dtype=np.float32),
         "allnan": np.full(4, np.nan, dtype=np.float32)}
    with open(os.path.join(work, "a.safetensors"), "wb") as f:
        f.write(mtf.safetensors_bytes([(k, (mtf.ST_NAMES[v.dtype.str[1:]], v.shape, v.tobytes())) for k, v in a.items()]))
    with open(os.path.join(work, "s.tl"), "w") as f:
        f.write(SCRIPT)
    r = subprocess.run([tl, os.path.join(work, "s.tl"), work], capture_output=True, text=True, timeout=300)
    check(r.returncode == 0 and not r.stderr, "tl ran: %s" % r.stderr[-2000:])
    if r.returncode:
        return finish()
    raw = open(os.path.join(work, "b.gguf"), "rb").read()
    stats, comp = {}, {}
    for line in r.stdout.splitlines():
        m = re.match(r"(stats|compare) (\S+) (.*)$", line)
        if m:
            (stats if m.group(1) == "stats" else comp)[m.group(2)] = parse_dict(m.group(3))
    # the values tl reads from b.gguf: plain ones as written, quantized ones dequantized
    b = {k: v for k, v in a.items() if k != "output.bias"}
    b["extra"] = np.ones(3)
    b["norm.weight"] = a["norm.weight"][:4]
    for k, t in (("blk.0.attn_q.weight", "q8_0"), ("blk.0.ffn_up.weight", "q4_k"), ("blk.1.attn_q.weight", "q6_k")):
        b[k] = mtf.DEQUANT[t.upper()](quant_ref.quantize(a[k], t)).reshape(a[k].shape)
    u = a["blk.1.ffn_up.weight"].view(np.uint32).astype(np.uint64)
    b["blk.1.ffn_up.weight"] = (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)
    for name, x in [("a:" + k, v) for k, v in a.items()] + list(b.items()) + [("a:T", a["blk.0.attn_q.weight"].T)]:
        got, want = stats.get(name), np_stats(x)
        check(got is not None, "stats of %s printed" % name)
        if got is None:
            continue
        for key, v in want.items():
            check(close(got[key], v), "stats %s %s: %r, numpy %r" % (name, key, got[key], v))
    for name in b:
        if name not in a or name == "norm.weight":
            check(name not in comp, "compare has no figures for %s" % name)
            continue
        got, want = comp.get(name), np_compare(a[name], b[name])
        check(got is not None, "compare figures for %s" % name)
        for key, v in (want.items() if got else []):
            ok = got[key] == v if key == "at" else close(got[key], v, 1e-7 if key != "cosine" else 1e-12)
            check(ok, "compare %s %s: %r, numpy %r" % (name, key, got[key], v))
    check("only in a: output.bias" in r.stdout and "only in b: extra" in r.stdout, "names in one only listed")
    check("shapes differ: norm.weight (9,) vs (4,)" in r.stdout, "shape mismatch listed")
    rows = {m.group(1): m.groups() for m in re.finditer(r"^(\S+)\s+(\S+)\s+(\(.*?\))\s+(\d+)\s+(\d+)\s", r.stdout, re.M)}
    check(rows.get("blk.0.ffn_up.weight", ())[1:] == ("q4_k", "(8, 512)", "4096", "2304"), "summary row of a Q4_K tensor")
    check(re.search(r"^blk\.0\s+2\s+20480\s+19712\s", r.stdout, re.M), "layer total blk.0 (2 tensors, 20480 params, 19712 bytes)")
    check(re.search(r"^q8_0\s+1\s+16384\s+17408\s", r.stdout, re.M), "type total q8_0")
    check(re.search(r"^total\s+9\s", r.stdout, re.M), "total over 9 tensors")
    check(re.search(r"^allnan\s+f32\s+\(4,\)\s+4\s+16(\s+-){5}\s+4\s+0$", r.stdout, re.M), "a row of no finite value")
    m = re.search(r"bytes:\s+(\d+) stored \(the blocks\), (\d+) mapped from a file, (\d+) resident now", r.stdout)
    check(m and int(m.group(3)) <= int(m.group(2)), "stats and summary computed no f32 chunk of a Q4_K tensor: %s"
          % (m.group(0) if m else r.stdout[-500:]))
    check(len(raw) > 0, "b.gguf written")
    # every path (AVX-512, AVX2, the portable vector extension) sums the same lanes in one order
    figures = [l for l in r.stdout.splitlines() if l.startswith(("stats ", "compare "))]
    for simd in ("avx2", "0"):
        o = subprocess.run([tl, os.path.join(work, "s.tl"), work], capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, TL_SIMD=simd))
        check([l for l in o.stdout.splitlines() if l.startswith(("stats ", "compare "))] == figures,
              "stats and compare figures with TL_SIMD=%s equal the best path's, bit for bit" % simd)
    for code, phrase in (('compare(ones(3), ones(4))', "shapes (3,) and (4,) differ"),
                         ('compare(ones(3), {"a": ones(3)})', "two tensors or two dicts"),
                         ('summary({"a": "x"})', "not a tensor"),
                         ('stats(ones(3) * 1j)', "complex")):
        r = subprocess.run([tl, "-e", code], capture_output=True, text=True)
        check(r.returncode == 1 and phrase in r.stderr, "%s: expected %r, got %r" % (code, phrase, r.stderr.strip()))
    return finish()


def finish():
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
