#!/usr/bin/env python3
"""bench_lang.py — the language around the tensors (issue 30's targets): tl against CPython 3.11.

Each case runs in tl and in CPython (numpy where a tensor is made), alternating PAIRS times in one
run; each side times itself in-process (tl's time(fn), Python's perf_counter) and keeps its best;
the line shows cpython_time / tl_time and the target. The machine may be shared, so ratios are
noisy: compare runs, not lines.
usage: /usr/bin/python3 tests/bench/bench_lang.py PATH/TO/tl [PAIRS=3]
"""
import subprocess
import sys

TL = sys.argv[1]
PAIRS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
PY = "/usr/bin/python3"
N = 1_000_000
PIECES = 1_250_000   # "i * 7" joined by commas: a 9.8 MB string


def run(cmd, prog):
    out = subprocess.run(cmd + [prog], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def tl(prog):
    return run([TL, "-e"], prog)


def py(prog):
    return run([PY, "-c"], prog)


def best_of(prog_setup, call, lang):
    """A program that runs `call` five times after `prog_setup` and prints the best time."""
    if lang == "tl":
        return f"""{prog_setup}
best = 1e9
for r in range(5) {{ t = time({call}); best = t if t < best else best }}
print(best)"""
    return f"""import time
import numpy as np
{prog_setup}
best = 1e9
for r in range(5):
    t = time.perf_counter(); {call}(); best = min(best, time.perf_counter() - t)
print(best)"""


# name, tl program, Python program, target (cpython_time / tl_time must reach it)
CASES = [
    ("append 1e6 numbers (function)",
     best_of(f"fn build() {{\n    xs = list()\n    for i in range({N}) {{ xs.append(i) }}\n}}", "build", "tl"),
     best_of(f"def build():\n    xs = []\n    for i in range({N}):\n        xs.append(i)", "build", "py"), 2.0),
    ("append 1e6 numbers (script)",
     best_of(f"xs = list()\nfn build() {{\n    global xs\n    xs = list()\n    for i in range({N}) {{ xs.append(i) }}\n}}",
             "build", "tl"),
     # the loop at module level, as a script writes it: xs and i are globals
     f"""import time
best = 1e9
for r in range(5):
    t = time.perf_counter()
    xs = []
    for i in range({N}):
        xs.append(i)
    best = min(best, time.perf_counter() - t)
print(best)""", 2.0),
    ("split 9.8 MB at ',' and join",
     best_of(f"s = \",\".join([str(i * 7) for i in range({PIECES})])\nfn sj() {{ parts = s.split(\",\"); back = \",\".join(parts) }}",
             "sj", "tl"),
     best_of(f"s = ','.join([str(i * 7) for i in range({PIECES})])\ndef sj():\n    parts = s.split(','); back = ','.join(parts)",
             "sj", "py"), 1.0),
    ("comprehension -> tensor (numpy)",
     best_of(f"fn comp() = [x * 2 for x in range({N})]", "comp", "tl"),
     best_of(f"def comp():\n    return np.array([x * 2 for x in range({N})])", "comp", "py"), 3.0),
    ("comprehension (list only)",
     best_of(f"fn comp() = [x * 2 for x in range({N})]", "comp", "tl"),
     best_of(f"def comp():\n    return [x * 2 for x in range({N})]", "comp", "py"), 3.0),
]


def main():
    print(f"{'case':34} {'cpython_s':>10} {'tl_s':>10} {'ratio':>8}  target (ratio = cpython_time / tl_time)")
    for name, tprog, pprog, target in CASES:
        tt = tp = float("inf")
        for _ in range(PAIRS):
            tt = min(tt, tl(tprog))
            tp = min(tp, py(pprog))
        ok = tp / tt >= target
        print(f"{name:34} {tp:10.6f} {tt:10.6f} {tp / tt:7.2f}x  >= {target:g}x {'ok' if ok else 'MISS'}", flush=True)


main()
