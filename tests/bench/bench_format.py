#!/usr/bin/env python3
"""bench_format.py — formatting numbers into text: f-strings and format() in tl against CPython 3.11.

Each case runs the same loop in tl and in CPython, alternating PAIRS times in one run; each side
times itself in-process (tl's time(fn), Python's perf_counter) and keeps its best; the line shows
python_time / tl_time. Issue 30's target: f"{x:.4f}" over 10^6 floats at >= 1.5x CPython. The
other cases have no target: they show where the rest of the formatting stands.
usage: /usr/bin/python3 tests/bench/bench_format.py PATH/TO/tl [PAIRS=3]
"""
import subprocess
import sys

TL = sys.argv[1]
PAIRS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
PY = "/usr/bin/python3"
N = 1_000_000


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def tl_prog(body):
    return f"""fn run() {{
    s = ""
    for i in range({N}) {{ {body} }}
    return s
}}
print(time(run))"""


def py_prog(body):
    lines = "\n        ".join(body.split("; "))
    return f"""import time
def run():
    s = ""
    for i in range({N}):
        {lines}
    return s
t = time.perf_counter(); run(); print(time.perf_counter() - t)"""


# name, tl loop body, Python loop body, target (None: shown only)
CASES = [
    ('f"{x:.4f}", 1e6 floats', 'x = i * 0.37; s = f"{x:.4f}"', 'x = i * 0.37; s = f"{x:.4f}"', 1.5),
    ('f"{x}" (shortest digits)', 'x = i * 0.37; s = f"{x}"', 'x = i * 0.37; s = f"{x}"', None),
    ('f"{i:>10,}"', 's = f"{i:>10,}"', 's = f"{i:>10,}"', None),
    ('format("{:8.3e}|{}", x, i)', 'x = i * 0.37; s = format("{:8.3e}|{}", x, i)',
     'x = i * 0.37; s = "{:8.3e}|{}".format(x, i)', None),
]


def main():
    print(f"{'case':30} {'python_s':>10} {'tl_s':>10} {'ratio':>8}  target (ratio = python_time / tl_time)")
    for name, tl_body, py_body, target in CASES:
        tt = tp = float("inf")
        for _ in range(PAIRS):
            tt = min(tt, run([TL, "-e", tl_prog(tl_body)]))
            tp = min(tp, run([PY, "-c", py_prog(py_body)]))
        goal = f">= {target:g}x {'ok' if tp / tt >= target else 'MISS'}" if target else "(no target)"
        print(f"{name:30} {tp:10.6f} {tt:10.6f} {tp / tt:7.2f}x  {goal}")


main()
