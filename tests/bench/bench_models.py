#!/usr/bin/python3
"""bench_models.py — issue 35's targets for model files, in one run.

Usage: bench_models.py TL_EXE [FOLDER] [GIB]

Writes FOLDER/a.safetensors and FOLDER/b.safetensors (GIB of f32 each, default 1, in 16
tensors; b is a plus noise; a fresh folder in /tmp by default, removed afterwards), then times
inside one tl process, best of REPEAT, the file's pages in the page cache:
  * sum over every tensor of a (the baseline),
  * summary(a) (target: within 1.5x the sum),
  * compare(a, b, quiet=true) (target: within 2x the sum; beside it, against a sum over a
    plus one over b: the two files' pages can lie in memory of different speeds),
  * quantize to Q8_0 and Q4_K of one 4096 x 4096 f32 tensor already in memory, in GB/s of f32
    input (targets: 1 GB/s and 100 MB/s) on every thread tl has.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

TL = os.path.abspath(sys.argv[1])
FOLDER = sys.argv[2] if len(sys.argv) > 2 else None
GIB = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
REPEAT = 3
NT = 16

SCRIPT = """
a = load(argv[0] + "/a.safetensors")
b = load(argv[0] + "/b.safetensors")
fn sum_over(d) {
    s = 0.0
    for k in keys(d) { s = s + sum(d[k]) }
    return s
}
fn best(f) {
    t = 1e9
    for i in range(%(repeat)d) {
        d = time(f)
        if d < t { t = d }
    }
    return t
}
sum_over(a)
sum_over(b)
r = compare(a, b, quiet=true)
t_sum = best(fn() = sum_over(a))
t_sum_b = best(fn() = sum_over(b))
t_summary = best(fn() = summary(a))
t_compare = best(fn() = compare(a, b, quiet=true))
x = f32(randn(4096, 4096))
t_q8 = best(fn() = quantize(x, "q8_0"))
t_q4k = best(fn() = quantize(x, "q4_k"))
print("RESULT", t_sum, t_summary, t_compare, t_q8, t_q4k, t_sum_b)
"""


def write_files(folder):
    """The two checkpoints (kept when a FOLDER given holds them already, of this size)."""
    n = int(GIB * (1 << 30)) // 4 // NT
    rows = n // 4096
    want = rows * 4096 * 4 * NT
    paths = [os.path.join(folder, f) for f in ("a.safetensors", "b.safetensors")]
    if all(os.path.exists(p) and os.path.getsize(p) > want for p in paths):
        return want
    rng = np.random.default_rng(0)
    hdr = {}
    for i in range(NT):
        hdr["blk.%d.w" % i] = {"dtype": "F32", "shape": [rows, 4096], "data_offsets": [i * rows * 4096 * 4, (i + 1) * rows * 4096 * 4]}
    text = json.dumps(hdr, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 8)
    with open(os.path.join(folder, "a.safetensors"), "wb") as f, open(os.path.join(folder, "b.safetensors"), "wb") as g:
        f.write(struct.pack("<Q", len(text)) + text)
        g.write(struct.pack("<Q", len(text)) + text)
        for i in range(NT):
            x = rng.standard_normal((rows, 4096), dtype=np.float32)
            f.write(x.tobytes())
            g.write((x + np.float32(1e-3) * rng.standard_normal((rows, 4096), dtype=np.float32)).tobytes())
    return rows * 4096 * 4 * NT


def main():
    folder = FOLDER or tempfile.mkdtemp(prefix="tl-bench-models-")
    os.makedirs(folder, exist_ok=True)
    try:
        nbytes = write_files(folder)
        with open(os.path.join(folder, "bench.tl"), "w") as f:
            f.write(SCRIPT % {"repeat": REPEAT})
        r = subprocess.run([TL, os.path.join(folder, "bench.tl"), folder], capture_output=True, text=True, timeout=1800)
        line = [x for x in r.stdout.splitlines() if x.startswith("RESULT")]
        if r.returncode or not line:
            print(r.stdout, r.stderr)
            return 1
        t_sum, t_summary, t_compare, t_q8, t_q4k, t_sum_b = map(float, line[0].split()[1:])
        q = 4096 * 4096 * 4
        print("checkpoint: %.2f GiB of f32 in %d tensors, threads: %s, load average %.1f" %
              (nbytes / (1 << 30), NT, os.environ.get("TL_THREADS", "all"), os.getloadavg()[0]))
        print("sum over every tensor   %8.3f s" % t_sum)
        print("summary(a)              %8.3f s   %.2fx the sum (target <= 1.5)" % (t_summary, t_summary / t_sum))
        print("compare(a, b)           %8.3f s   %.2fx the sum (target <= 2)" % (t_compare, t_compare / t_sum))
        print("  (sum over b %.3f s: compare reads both files, %.2fx the two sums)" % (t_sum_b, t_compare / (t_sum + t_sum_b)))
        print("quantize q8_0           %8.3f s   %.2f GB/s of f32 (target >= 1)" % (t_q8, q / t_q8 / 1e9))
        print("quantize q4_k           %8.3f s   %.0f MB/s of f32 (target >= 100)" % (t_q4k, q / t_q4k / 1e6))
        return 0
    finally:
        if not FOLDER:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
