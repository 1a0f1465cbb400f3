#!/usr/bin/python3
"""bench_load.py — opening and summing a 1 GiB tensor file: tl vs numpy's np.load(mmap_mode='r').

Usage: bench_load.py TL_EXE [FOLDER] [GIB]

Writes FOLDER/bench.npy and FOLDER/bench.safetensors (default: a fresh folder in
/tmp, removed afterwards; nothing is committed), then prints, side by side:
  * the time to open the file (best of several, measured inside each process),
  * the ratio tl/numpy,
  * tl's peak RSS after opening (it must stay small: the data is mapped, not read),
  * the time and value of sum() over the whole tensor in both.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

TL = os.path.abspath(sys.argv[1])
FOLDER = sys.argv[2] if len(sys.argv) > 2 else None
GIB = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
REPEAT = 7


def write_files(folder):
    n = int(GIB * (1 << 30)) // 4
    chunk = 1 << 24
    npy, st = os.path.join(folder, "bench.npy"), os.path.join(folder, "bench.safetensors")
    hdr = {"x": {"dtype": "F32", "shape": [n], "data_offsets": [0, 4 * n]}}
    text = json.dumps(hdr, separators=(",", ":")).encode()
    text += b" " * ((-len(text)) % 8)
    with open(npy, "wb") as f, open(st, "wb") as g:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (n,)})
        g.write(struct.pack("<Q", len(text)) + text)
        rng = np.random.default_rng(0)
        for start in range(0, n, chunk):
            block = rng.random(min(chunk, n - start), dtype=np.float32).tobytes()
            f.write(block)
            g.write(block)
    return npy, st, n


def tl_run(code):
    """Runs tl -e code; returns (stdout words, peak RSS of tl in MiB). /usr/bin/time measures it:
    a child forked from this (large) Python process would count Python's pages until exec."""
    with tempfile.NamedTemporaryFile("r") as rss:
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, TL, "-e", code], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("tl failed: " + p.stderr)
        return p.stdout.split(), int(rss.read().split()[-1]) / 1024


def bench(path, key):
    get = 'load("%s")%s' % (path, '["%s"]' % key if key else "")
    opens = " ".join("print(time(fn() = %s));" % get for _ in range(REPEAT))
    out, rss_open = tl_run(opens)
    tl_open = min(float(x) for x in out)

    out, rss_sum = tl_run('a = %s; print(time(fn() = sum(a))); print(time(fn() = sum(a))); print(f64(sum(a)))' % get)
    tl_sum_cold, tl_sum_warm, tl_value = float(out[0]), float(out[1]), float(out[2])

    def np_open():
        if key:
            with open(path, "rb") as f:
                n = struct.unpack("<Q", f.read(8))[0]
                h = json.loads(f.read(n))[key]
            return np.memmap(path, dtype=np.float32, mode="r", offset=8 + n + h["data_offsets"][0], shape=tuple(h["shape"]))
        return np.load(path, mmap_mode="r")

    np_times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        a = np_open()
        np_times.append(time.perf_counter() - t0)
        del a
    np_open_t = min(np_times)
    a = np_open()
    t0 = time.perf_counter()
    np_value = float(a.sum(dtype=np.float32))
    np_sum = time.perf_counter() - t0
    return tl_open, np_open_t, rss_open, tl_sum_cold, tl_sum_warm, rss_sum, tl_value, np_sum, np_value


def main():
    folder = FOLDER or tempfile.mkdtemp(prefix="tl_bench_load_")
    os.makedirs(folder, exist_ok=True)
    try:
        t0 = time.perf_counter()
        npy, st, n = write_files(folder)
        print("wrote %.2f GiB of f32 (%d elements) twice in %.1f s, in %s" % (4 * n / (1 << 30), n, time.perf_counter() - t0, folder))
        print("%-13s %12s %12s %7s %13s %14s %14s %12s" % ("file", "tl open", "numpy open", "ratio", "tl RSS open",
                                                           "tl sum cold", "tl sum warm", "numpy sum"))
        for path, key in ((npy, None), (st, "x")):
            r = bench(path, key)
            tl_open, np_open_t, rss_open, cold, warm, rss_sum, tl_value, np_sum, np_value = r
            print("%-13s %10.1f us %10.1f us %7.2f %10.1f MiB %11.3f s %11.3f s %10.3f s" % (
                os.path.basename(path), tl_open * 1e6, np_open_t * 1e6, tl_open / np_open_t, rss_open, cold, warm, np_sum))
            print("%-13s sum: tl %.9g, numpy %.9g (relative difference %.2g); tl peak RSS after summing %.0f MiB" % (
                "", tl_value, np_value, abs(tl_value - np_value) / abs(np_value), rss_sum))
    finally:
        if not FOLDER:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
