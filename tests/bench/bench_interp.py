#!/usr/bin/env python3
"""bench_interp.py — the interpreter between kernels: loops, calls, views, start-up, matmul threads.

Each case runs in tl and in its peer (CPython 3.11, numpy or Lua 5.4), alternating PAIRS times in
one run; each side times itself in-process (tl's time(fn), Python's perf_counter, Lua's os.clock),
keeps its best, and the line shows peer_time / tl_time with the target. Start-up is timed as whole
processes (best of many). The machine may be shared, so ratios are noisy: compare runs, not lines.
usage: /usr/bin/python3 tests/bench/bench_interp.py PATH/TO/tl [PAIRS=3]
"""
import os, shutil, subprocess, sys, time

TL = sys.argv[1]
PAIRS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
PY = "/usr/bin/python3"
LUA = shutil.which("lua5.4")
N = 1_000_000
NV = 200_000   # view and small-tensor loops

def run_tl(prog, env=None):
    out = subprocess.run([TL, "-e", prog], check=True, capture_output=True, text=True, env=env).stdout
    return float(out.strip().splitlines()[-1])

def run_py(prog, env=None):
    out = subprocess.run([PY, "-c", prog], check=True, capture_output=True, text=True, env=env).stdout
    return float(out.strip().splitlines()[-1])

def run_lua(prog):
    out = subprocess.run([LUA, "-e", prog], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])

def tl_loop(setup, body, n):
    """A tl program printing the seconds of `body` run n times inside a function."""
    return f"""{setup}
fn run() {{ {body} }}
print(time(run))"""

# name, peer name, tl program, (peer runner, peer program), per-iteration count, target, kind
# kind "faster": peer_time / tl_time must be >= target; "within": tl_time / peer_time <= target.
CASES = [
    ("s = s + i, range(1e6)", "cpython",
     tl_loop("", f"s = 0.0\n for i in range({N}) {{ s = s + i }}\n return s", N),
     (run_py, f"""import time
def run():
    s = 0.0
    for i in range({N}):
        s = s + i
    return s
t = time.perf_counter(); run(); print(time.perf_counter() - t)"""), 2.5, "faster"),
    ("s = s + i, range(1e6)", "lua5.4",
     tl_loop("", f"s = 0.0\n for i in range({N}) {{ s = s + i }}\n return s", N),
     (run_lua, f"""local function run() local s = 0.0 for i = 0, {N - 1} do s = s + i end return s end
local t = os.clock(); run(); print(os.clock() - t)"""), 2.0, "within"),
    ("f(x) = x + 1, 1e6 calls", "cpython",
     tl_loop("fn f(x) = x + 1", f"s = 0\n for i in range({N}) {{ s = f(i) }}\n return s", N),
     (run_py, f"""import time
def f(x): return x + 1
def run():
    s = 0
    for i in range({N}):
        s = f(i)
    return s
t = time.perf_counter(); run(); print(time.perf_counter() - t)"""), 2.0, "faster"),
    ("v = X[:, 3] (100x100)", "numpy",
     tl_loop("X = rand(100, 100)", f"for i in range({NV}) {{ v = X[:, 3] }}", NV),
     (run_py, f"""import time, numpy as np
X = np.random.rand(100, 100)
def run():
    for i in range({NV}):
        v = X[:, 3]
t = time.perf_counter(); run(); print(time.perf_counter() - t)"""), 2.0, "faster"),
    ("s = s + v, 4 elements", "numpy",
     tl_loop("v = [1.0, 2.0, 3.0, 4.0]", f"s = v\n for i in range({NV}) {{ s = s + v }}\n return s", NV),
     (run_py, f"""import time, numpy as np
v = np.array([1.0, 2.0, 3.0, 4.0])
def run():
    s = v
    for i in range({NV}):
        s = s + v
    return s
t = time.perf_counter(); run(); print(time.perf_counter() - t)"""), 20.0, "faster"),
]

def startup(cmd, runs=30):
    """Median wall time of a whole process."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]

def matmul_threads():
    """2048^2 f32 matmul with threads(2) against threads(1), BLAS told to use one thread."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    prog = lambda k: f"""A = rand(2048, 2048, dtype=f32)
B = rand(2048, 2048, dtype=f32)
threads({k})
C = A @ B
best = 1e9
for r in range(3) {{ best = minimum(best, time(fn() = A @ B)) }}
print(best)"""
    t1 = t2 = float("inf")
    for _ in range(PAIRS):
        t1 = min(t1, run_tl(prog(1), env))
        t2 = min(t2, run_tl(prog(2), env))
    return t1, t2

def line(name, peer, tp, tt, target, kind):
    if kind == "faster":
        ok = tp / tt >= target
        goal = f">= {target:g}x"
    else:
        ok = tt / tp <= target
        goal = f"tl <= {target:g}x {peer}'s time"
    print(f"{name:28} {peer:8} {tp:10.6f} {tt:10.6f} {tp / tt:7.2f}x  {goal:26} {'ok' if ok else 'MISS'}")

def main():
    print(f"{'case':28} {'peer':8} {'peer_s':>10} {'tl_s':>10} {'ratio':>8}  target (ratio = peer_time / tl_time)")
    for name, peer, tprog, (runner, pprog), target, kind in CASES:
        if runner is run_lua and not LUA:
            print(f"{name:28} {peer:8} skipped: lua5.4 not installed")
            continue
        tt = tp = float("inf")
        for _ in range(PAIRS):
            tt = min(tt, run_tl(tprog))
            tp = min(tp, runner(pprog))
        line(name, peer, tp, tt, target, kind)
    if LUA:
        tt = tp = float("inf")
        for _ in range(PAIRS):
            tt = min(tt, startup([TL, "-e", "1"], 10))
            tp = min(tp, startup([LUA, "-e", "x=1"], 10))
        line("whole process: tl -e 1", "lua5.4", tp, tt, 1.3, "within")
    t1, t2 = matmul_threads()
    ok = t1 / t2 >= 1.8
    print(f"{'matmul 2048 f32 threads':28} {'thr(1)':8} {t1:10.6f} {t2:10.6f} {t1 / t2:7.2f}x  "
          f"{'>= 1.8x (OPENBLAS_NUM_THREADS=1)':26} {'ok' if ok else 'MISS'}")

main()
