#!/usr/bin/env python3
"""bench_loop.py — interpreter speed: the loop `s = s + i` over range(N), tl against CPython.

Both programs run as whole processes (start-up included, as a user sees them), alternately,
ROUNDS times each in one run; prints the best elapsed time of each and the ratio CPython/tl.
usage: /usr/bin/python3 tests/bench/bench_loop.py PATH/TO/tl [N=1000000] [ROUNDS=15]
"""
import os, subprocess, sys, tempfile, time

def best(cmd, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True).stdout
        times.append(time.perf_counter() - t0)
    return min(times), out

def main():
    tl = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    with tempfile.TemporaryDirectory() as d:
        tl_src, py_src = os.path.join(d, "loop.tl"), os.path.join(d, "loop.py")
        open(tl_src, "w").write(f"s = 0.0; for i in range({n}) {{ s = s + i }}\nprint(s)\n")
        open(py_src, "w").write(f"s = 0.0\nfor i in range({n}):\n    s = s + i\nprint(s)\n")
        t_tl, t_py = float("inf"), float("inf")
        for _ in range(rounds):   # alternate so both see the same machine state
            a, out_tl = best([tl, tl_src], 1)
            b, out_py = best(["/usr/bin/python3", py_src], 1)
            t_tl, t_py = min(t_tl, a), min(t_py, b)
        if out_tl.strip() != out_py.strip():
            sys.exit(f"results differ: tl {out_tl!r} python {out_py!r}")
    print(f"loop of {n}: tl {t_tl * 1e3:.1f} ms  cpython {t_py * 1e3:.1f} ms  ratio cpython/tl = {t_py / t_tl:.2f}")

main()
