#!/usr/bin/env python3
"""bench_graph_build.py — how graph() scales with a graph's nodes: build time at N and 4N nodes.

Each case is a tl program whose f traces into about N nodes: a chain of fused elementwise
nodes (groups of up to 48 program nodes), the same two weight leaves read at every step with
a reduction now and then, matrix products that run alone, and an unrolled body (a function of
N/2 statements, no loop). Every program runs as its own process, and the measure is the
process's CPU time (user + system, from the kernel: a loaded machine stretches wall time, not
this) minus that of the same program at N = 0 (start-up, parsing). Best of ROUNDS. Prints the
seconds at each N and the ratio t(4N) / t(N): linear growth is 4, the quadratic planner this
replaced gave 16 (8,000 nodes 0.25 s, 32,000 3.9 s). Exits 1 when a ratio passes LIMIT.
usage: /usr/bin/python3 tests/bench/bench_graph_build.py PATH/TO/tl [N=8000] [ROUNDS=3] [LIMIT=6]
"""
import os
import subprocess
import sys
import tempfile

CASES = {
    'fused chain': '''fn f(x) {{
    y = x
    for i in range({n3}) {{ y = tanh(y) - x * 0.5 }}
    return y
}}
g = graph(f, randn(4, 8))
''',
    'leaves': '''w = randn(4, 8)
v = randn(8)
fn f(x) {{
    y = x
    for i in range({n2}) {{
        y = y * w + v
        if i % 100 == 99 {{ y = y - max(y, axis=-1, keepdims=true) }}
    }}
    return y
}}
g = graph(f, randn(4, 8))
''',
    'products': '''ws = (randn(8, 8), randn(8, 8), randn(8, 8))
fn f(x) {{
    y = x
    for i in range({n2}) {{ y = tanh(y @ ws[i % 3]) }}
    return y
}}
g = graph(f, randn(4, 8))
''',
    'unrolled': None,   # written by unrolled()
}


def unrolled(n):
    """f with n/2 statements of two nodes each, no loop."""
    body = ''.join('    y = exp(y) - x\n' for _ in range(n // 2))
    return f'fn f(x) {{\n    y = x\n{body}    return y\n}}\ng = graph(f, ones(4, 8))\n'


def program(case, n):
    if CASES[case] is None:
        return unrolled(n)
    return CASES[case].format(n2=n // 2, n3=n // 3)


def cpu_seconds(tl, path):
    """User + system seconds of one run of tl on path."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execv(tl, [tl, path])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'{path} failed')
    return usage.ru_utime + usage.ru_stime


def build_time(tl, case, n, rounds, d):
    """CPU seconds graph() takes for about n nodes, best of rounds (start-up subtracted)."""
    paths = []
    for size in (0, n):
        p = os.path.join(d, f'{case.replace(" ", "_")}_{size}.tl')
        with open(p, 'w') as f:
            f.write(program(case, size))
        paths.append(p)
    best = float('inf')
    for _ in range(rounds):
        best = min(best, cpu_seconds(tl, paths[1]) - cpu_seconds(tl, paths[0]))
    return max(best, 1e-3)


def main():
    tl = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 6.0
    worst = 0.0
    with tempfile.TemporaryDirectory() as d:
        for case in CASES:
            t1, t4 = build_time(tl, case, n, rounds, d), build_time(tl, case, 4 * n, rounds, d)
            worst = max(worst, t4 / t1)
            print(f'{case:12s} {n:7d} nodes {t1:7.3f} s  {4 * n:7d} nodes {t4:7.3f} s  ratio {t4 / t1:5.2f}')
    print(f'worst ratio {worst:.2f} (linear: 4; limit {limit})')
    return 1 if worst > limit else 0


if __name__ == '__main__':
    sys.exit(main())
