#!/usr/bin/python3
"""bench_matvec.py — matrix-vector products of every weight type, and today's build beside this one.

Usage: bench_matvec.py TL [BASE_TL] [--rounds N] [--pairs P] [--only SUBSTRING] [--work DIR] [--keep-cache]

Writes GGUF files of random blocks (tests/tools/make_test_files.py) of every quantized type
at 4096 x 4096 and 11008 x 4096 into DIR (default /tmp/tl_bench_matvec, kept between runs)
and times W @ x (x an f32 vector) for each type on 1 and 2 threads, W read from memory: a
256 MiB sum runs before each timed product, so W is not in the cache. Beside them: f32, bf16
and Q8_0 at 4096 x 4096 from memory, and 768 x 288 and 32000 x 288 (f32, bf16, Q8_0) in the
cache (the product run once before, then timed alone). Each figure is the best of N rounds
(default 15), every round timing every case once in turn, so a burst of load elsewhere hits
them all alike. Before each run of tl the files' pages are dropped from the page cache
(posix_fadvise DONTNEED; --keep-cache keeps them), so tl reads them from disk through its own
mappings, as it reads a model file the first time: the page cache then holds them in the
folios tl's mappings ask for (huge pages, runtime/io/file.c), where a file just written sits
in the writer's small ones. With BASE_TL (another build of tl, today's say) the two binaries run in turn
P times (default 2) and the table gives each case's time in both and base / this.
Quantized rows also print this build's speed relative to its own Q8_0 product in the same
shape and thread count, beside the targets of issue 35 (Q4_K >= 1.5, Q6_K >= 1.3, Q4_0 >= 1.5).
The f32 rows also print numpy's time for the same product over this one's (numpy has no bf16
or quantized product): OpenBLAS's sgemv with as many threads, timed as tl is, in the same rounds.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import make_test_files as mtf  # noqa: E402

TYPES = ["Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K"]
SHAPES = [(4096, 4096), (11008, 4096)]
TARGETS = {"Q4_K": 1.5, "Q6_K": 1.3, "Q4_0": 1.5}


def gguf_path(work, rows, cols):
    """A GGUF file with one rows x cols tensor of random blocks per type (written once)."""
    path = os.path.join(work, f"mv_{rows}x{cols}.gguf")
    if not os.path.exists(path):
        os.makedirs(work, exist_ok=True)
        tensors = []
        for t in TYPES:
            bs = mtf.BLOCK[t][0]
            tensors.append((t, mtf.GGML[t], [cols, rows], mtf.random_blocks(t, rows * cols // bs).tobytes()))
        with open(path + ".tmp", "wb") as f:
            f.write(mtf.gguf_bytes([], tensors))
        os.replace(path + ".tmp", path)
    return path


def cases(work):
    """(name, setup lines, W's variable, x's variable, threads, from memory)."""
    out = []
    setup = ["flush = ones(67108864, dtype=f32)", "x4096 = rand(4096, dtype=f32) - 0.5",
             "x288 = rand(288, dtype=f32) - 0.5",
             "f4096 = rand(4096, 4096, dtype=f32) - 0.5", "b4096 = bf16(f4096)"]
    for rows, cols in SHAPES:
        setup.append(f'g{rows} = load("{gguf_path(work, rows, cols)}")')
    for th in (1, 2):
        for rows, _ in SHAPES:
            for t in TYPES:
                out.append((f"{t} {rows}x4096 {th}t", f'g{rows}["{t}"]', "x4096", th, True))
    for th in (1,):
        out.append(("f32 4096x4096 1t", "f4096", "x4096", th, True))
        out.append(("bf16 4096x4096 1t", "b4096", "x4096", th, True))
    small = ["s768 = rand(768, 288, dtype=f32) - 0.5", "s32000 = rand(32000, 288, dtype=f32) - 0.5",
             "h768 = bf16(s768)", "h32000 = bf16(s32000)",
             f'q = load("{small_gguf(work)}")']
    setup += small
    for th in (1, 2):
        for rows in (768, 32000):
            out.append((f"f32 {rows}x288 cache {th}t", f"s{rows}", "x288", th, False))
            out.append((f"bf16 {rows}x288 cache {th}t", f"h{rows}", "x288", th, False))
            out.append((f"Q8_0 {rows}x288 cache {th}t", f'q["q{rows}"]', "x288", th, False))
    return setup, out


def small_gguf(work):
    path = os.path.join(work, "mv_small.gguf")
    if not os.path.exists(path):
        os.makedirs(work, exist_ok=True)
        tensors = [(f"q{r}", mtf.GGML["Q8_0"], [288, r], mtf.random_blocks("Q8_0", r * 288 // 32).tobytes())
                   for r in (768, 32000)]
        with open(path + ".tmp", "wb") as f:
            f.write(mtf.gguf_bytes([], tensors))
        os.replace(path + ".tmp", path)
    return path


def program(setup, chosen, rounds):
    """A tl program timing every chosen case once per round; prints 'index seconds' lines."""
    lines = list(setup)
    lines.append("best = [" + ", ".join("1e9" for _ in chosen) + "]")
    lines.append(f"for round_ in range({rounds}) {{")
    for i, (_, w, x, th, cold) in enumerate(chosen):
        lines.append(f"    threads({th})")
        lines.append(f"    w_ = {w}")
        lines.append(f"    y_ = w_ @ {x}")   # the first round's call also builds any lazy state
        if cold:
            lines.append("    s_ = sum(flush)")
        lines.append(f"    best[{i}] = minimum(best[{i}], time(fn() = w_ @ {x}))")
    lines.append("}")
    lines.append("for i in range(len(best)) { print(i, best[i]) }")
    return "\n".join(lines) + "\n"


NUMPY = """
import os, sys, time
import numpy as np
rng = np.random.default_rng(1)
flush = np.ones(67108864, dtype=np.float32)
cases = [tuple(int(v) for v in c[:-1].split("x")) + (c.endswith("m"),) for c in sys.argv[2:]]
mats = [(rng.random((r, c), dtype=np.float32) - 0.5, rng.random(c, dtype=np.float32) - 0.5) for r, c, _ in cases]
best = [1e9] * len(cases)
for _ in range(int(sys.argv[1])):
    for i, ((w, x), (_, _, cold)) in enumerate(zip(mats, cases)):
        w @ x
        if cold:
            flush.sum()
        t0 = time.perf_counter()
        w @ x
        best[i] = min(best[i], time.perf_counter() - t0)
for i, b in enumerate(best):
    print(i, b)
"""


def numpy_times(chosen, rounds):
    """name -> numpy's best time of the f32 cases among chosen (each thread count on its own)."""
    out = {}
    for th in (1, 2):
        f32 = [c for c in chosen if c[0].startswith("f32 ") and c[3] == th]
        if not f32:
            continue
        shapes = [c[0].split()[1] + ("m" if c[4] else "c") for c in f32]   # m: from memory, c: in cache
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(th), OMP_NUM_THREADS=str(th))
        r = subprocess.run([sys.executable, "-c", NUMPY, str(rounds)] + shapes, check=True, capture_output=True,
                           text=True, env=env).stdout
        for line in r.strip().splitlines():
            i, t = line.split()
            out[f32[int(i)][0]] = float(t)
    return out


def evict(paths):
    """Drops the files' pages from the page cache, so the run reads them through its own mapping."""
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def run(tl, prog):
    out = subprocess.run([tl, "-e", prog], check=True, capture_output=True, text=True).stdout
    return {int(a): float(b) for a, b in (line.split() for line in out.strip().splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tl")
    ap.add_argument("base", nargs="?")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--work", default="/tmp/tl_bench_matvec")
    ap.add_argument("--keep-cache", action="store_true")
    a = ap.parse_args()
    setup, all_cases = cases(a.work)
    chosen = [c for c in all_cases if a.only in c[0]]
    # the Q8_0 product of each shape and thread count, the yardstick of the quantized rows
    for c in all_cases:
        if c[0].startswith("Q8_0 ") and c not in chosen and any(c[0][4:] == d[0][4:] for d in chosen):
            chosen.append(c)
    prog = program(setup, chosen, a.rounds)
    bins = [a.tl] + ([a.base] if a.base else [])
    best = {b: {} for b in bins}
    files = sorted(os.path.join(a.work, f) for f in os.listdir(a.work) if f.endswith(".gguf"))
    for _ in range(a.pairs):
        for b in bins:
            if not a.keep_cache:
                evict(files)
            for i, t in run(b, prog).items():
                best[b][i] = min(best[b].get(i, float("inf")), t)
    numpy = numpy_times(chosen, a.rounds)
    names = {c[0]: i for i, c in enumerate(chosen)}
    head = f"{'case':28} {'this ms':>9}"
    if a.base:
        head += f" {'base ms':>9} {'base/this':>9}"
    print(head + f" {'Q8_0/this':>9} {'target':>7} {'numpy/this':>10}")
    for i, c in enumerate(chosen):
        t = best[a.tl][i]
        line = f"{c[0]:28} {t * 1e3:9.4f}"
        if a.base:
            line += f" {best[a.base][i] * 1e3:9.4f} {best[a.base][i] / t:9.2f}"
        kind, rest = c[0].split(" ", 1)
        q8 = names.get("Q8_0 " + rest)
        if kind in TYPES and q8 is not None and "cache" not in rest:
            r = best[a.tl][q8] / t
            tgt = TARGETS.get(kind)
            line += f" {r:9.2f}" + (f" {tgt:6.2f}x {'ok' if r >= tgt else 'MISS'}" if tgt else "")
        if c[0] in numpy:
            line += f" {'':9} {'':7} {numpy[c[0]] / t:10.2f}"
        print(line)


if __name__ == "__main__":
    main()
