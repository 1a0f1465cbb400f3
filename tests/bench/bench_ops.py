#!/usr/bin/env python3
"""bench_ops.py — every speed target of the kernels issue, measured through the tl language.

For each case, tl runs an expression under `time(fn() = ...)` (best of ROUNDS) and numpy runs the
same work under timeit (best of ROUNDS), in one run, on the same sizes, f32 unless named;
prints numpy_time / tl_time and the target. The machine is shared and noisy, so each
case alternates tl and numpy PAIRS times and keeps each side's best: a slow spell
then has to hit every turn of one side to move the ratio.
usage: /usr/bin/python3 tests/bench/bench_ops.py PATH/TO/tl [ROUNDS=7] [PAIRS=3]
BENCH_ONLY=WORD runs only the cases whose name holds WORD (and none of the extra lines).
"""
import os, sys, timeit
import numpy as np
import side_by_side

ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
PAIRS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
TL = sys.argv[1]
N = 10_000_000
M = 4096

# name, tl setup, tl expression, numpy setup (dict of globals builder), numpy callable, target
CASES = [
    ("add 1e7", f"a = rand({N}, dtype=f32)\nb = rand({N}, dtype=f32)", "a + b",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32), b=np.random.rand(N).astype(np.float32)),
     "a + b", 2.5),
    ("a*b + c*d - e 1e7", "\n".join(f"{v} = rand({N}, dtype=f32)" for v in "abcde"), "a * b + c * d - e",
     lambda g: g.update({v: np.random.rand(N).astype(np.float32) for v in "abcde"}), "a * b + c * d - e", 4.0),
    # numpy has no vectorized erf: it runs its usual tanh form of gelu; tl keeps the exact erf form
    ("gelu(x*w + b) 4096^2, w b rows", f"x = randn({M}, {M}, dtype=f32)\nw = rand({M}, dtype=f32)\nb = rand({M}, dtype=f32)",
     "gelu(x * w + b)",
     lambda g: g.update(x=np.random.randn(M, M).astype(np.float32), w=np.random.rand(M).astype(np.float32),
                        b=np.random.rand(M).astype(np.float32)),
     "(lambda t: 0.5 * t * (1 + np.tanh(0.7978845608 * (t + 0.044715 * t * t * t))))(x * w + b)", 4.0),
    # the same with x from rand (uniform [0, 1)): x * w + b lies in [0, 2)
    ("gelu(x*w + b) 4096^2, x from rand", f"x = rand({M}, {M}, dtype=f32)\nw = rand({M}, dtype=f32)\nb = rand({M}, dtype=f32)",
     "gelu(x * w + b)",
     lambda g: g.update(x=np.random.rand(M, M).astype(np.float32), w=np.random.rand(M).astype(np.float32),
                        b=np.random.rand(M).astype(np.float32)),
     "(lambda t: 0.5 * t * (1 + np.tanh(0.7978845608 * (t + 0.044715 * t * t * t))))(x * w + b)", 4.0),
    ("gelu(x*w + b) 4096^2, x from rand, 1 thread",
     f"threads(1)\nx = rand({M}, {M}, dtype=f32)\nw = rand({M}, dtype=f32)\nb = rand({M}, dtype=f32)", "gelu(x * w + b)",
     lambda g: g.update(x=np.random.rand(M, M).astype(np.float32), w=np.random.rand(M).astype(np.float32),
                        b=np.random.rand(M).astype(np.float32)),
     "(lambda t: 0.5 * t * (1 + np.tanh(0.7978845608 * (t + 0.044715 * t * t * t))))(x * w + b)", 4.0),
    ("exp(x - m) / s 4096^2, m s columns",
     f"x = rand({M}, {M}, dtype=f32)\nm = max(x, axis=-1, keepdims=true)\ns = sum(exp(x - m), axis=-1, keepdims=true)",
     "exp(x - m) / s",
     lambda g: g.update(x=(x := np.random.rand(M, M).astype(np.float32)), m=(m := x.max(-1, keepdims=True)),
                        s=np.exp(x - m).sum(-1, keepdims=True)),
     "np.exp(x - m) / s", 4.0),
    ("X(4096^2) + row", f"X = rand({M}, {M}, dtype=f32)\nr = rand({M}, dtype=f32)", "X + r",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32), r=np.random.rand(M).astype(np.float32)),
     "X + r", 2.0),
    ("exp 1e7", f"a = rand({N}, dtype=f32)", "exp(a)",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32)), "np.exp(a)", 2.0),
    ("tanh 1e7", f"a = rand({N}, dtype=f32)", "tanh(a)",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32)), "np.tanh(a)", 2.0),
    ("sum 1e7", f"a = rand({N}, dtype=f32)", "sum(a)",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32)), "a.sum()", 1.5),
    ("sum axis 0 4096^2", f"X = rand({M}, {M}, dtype=f32)", "sum(X, axis=0)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)), "X.sum(axis=0)", 1.5),
    # the same on one thread: what tl gets when the shared machine leaves it one core (the
    # ratio above then falls to this one; the sum is bound by memory on one core or two)
    ("sum axis 0 4096^2, 1 thread", f"threads(1)\nX = rand({M}, {M}, dtype=f32)", "sum(X, axis=0)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)), "X.sum(axis=0)", 1.5),
    ("sum axis 1 4096^2", f"X = rand({M}, {M}, dtype=f32)", "sum(X, axis=1)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)), "X.sum(axis=1)", 1.5),
    ("contiguous(X.T) 4096^2", f"X = rand({M}, {M}, dtype=f32)", "contiguous(X.T)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)), "np.ascontiguousarray(X.T)", 10.0),
    ("softmax last axis 4096^2", f"X = rand({M}, {M}, dtype=f32)", "softmax(X)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)),
     "(lambda e: e / e.sum(-1, keepdims=True))(np.exp(X - X.max(-1, keepdims=True)))", 4.0),
    # softmax written out, run through a graph (docs/graphs.md): built once, called many times
    ("softmax composed, graph 4096^2",
     f"X = rand({M}, {M}, dtype=f32)\nfn sm(x) {{\n    e = exp(x - max(x, axis=-1, keepdims=true))\n"
     "    return e / sum(e, axis=-1, keepdims=true)\n}\ng = graph(sm, X)", "g(X)",
     lambda g: g.update(X=np.random.rand(M, M).astype(np.float32)),
     "(lambda e: e / e.sum(-1, keepdims=True))(np.exp(X - X.max(-1, keepdims=True)))", 6.0),
    # the same expressions through graphs: each a single fused program writing only its output
    ("a*b + c*d - e 1e7, graph", "\n".join(f"{v} = rand({N}, dtype=f32)" for v in "abcde") +
     "\ng = graph(fn(a, b, c, d, e) = a * b + c * d - e, a, b, c, d, e)", "g(a, b, c, d, e)",
     lambda g: g.update({v: np.random.rand(N).astype(np.float32) for v in "abcde"}), "a * b + c * d - e", 4.0),
    ("exp(x - m) / s 4096^2, graph",
     f"x = rand({M}, {M}, dtype=f32)\nm = max(x, axis=-1, keepdims=true)\ns = sum(exp(x - m), axis=-1, keepdims=true)"
     "\ng = graph(fn(x, m, s) = exp(x - m) / s, x, m, s)", "g(x, m, s)",
     lambda g: g.update(x=(x := np.random.rand(M, M).astype(np.float32)), m=(m := x.max(-1, keepdims=True)),
                        s=np.exp(x - m).sum(-1, keepdims=True)),
     "np.exp(x - m) / s", 4.0),
    ("matmul 2048 f32", "A = rand(2048, 2048, dtype=f32)\nB = rand(2048, 2048, dtype=f32)", "A @ B",
     lambda g: g.update(A=np.random.rand(2048, 2048).astype(np.float32), B=np.random.rand(2048, 2048).astype(np.float32)),
     "A @ B", 0.95),
    ("matmul 2048 f64", "A = rand(2048, 2048)\nB = rand(2048, 2048)", "A @ B",
     lambda g: g.update(A=np.random.rand(2048, 2048), B=np.random.rand(2048, 2048)), "A @ B", 0.95),
    ("f32->f16 1e7", f"a = rand({N}, dtype=f32)", "f16(a)",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32)), "a.astype(np.float16)", 5.0),
    ("f32->bf16 1e7 (numpy: f32->f16)", f"a = rand({N}, dtype=f32)", "bf16(a)",
     lambda g: g.update(a=np.random.rand(N).astype(np.float32)), "a.astype(np.float16)", 5.0),
]

def tl_time(setup, expr):
    return side_by_side.tl_time(TL, setup, expr, ROUNDS)

def np_time(setup, stmt):
    return side_by_side.np_time(setup, stmt, ROUNDS)

def peak_rss_mb(prog):
    """Peak resident memory (MB) of a tl process running prog."""
    import os, subprocess
    child = subprocess.Popen([TL, "-e", prog], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)   # this child's own peak, not the largest of all children
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"tl failed on: {prog}")
    return usage.ru_maxrss / 1024.0

def fused_peak_memory():
    """Peak memory of a*b + c*d - e over 1e7 f32: at most inputs + output + 1% (no temporaries).
    The reference is the same process running one operator, y = a * b: the interpreter, the
    inputs and one output. Temporaries (eager: a*b and c*d) would show as 38 MB each."""
    inputs = "\n".join(f"{v} = ones({N}, dtype=f32)" for v in "abcde")
    mb = N * 4 / 2**20
    base = peak_rss_mb(inputs + "\ny = a * b")
    peak = peak_rss_mb(inputs + "\ny = a * b + c * d - e")
    limit = 0.01 * 6 * mb
    print(f"{'peak memory a*b + c*d - e 1e7':34} {peak - base:+.2f} MB over inputs + output "
          f"({5 * mb:.0f} + {mb:.0f} MB; limit +{limit:.2f}) {'ok' if peak - base <= limit else 'MISS'}")

def main():
    only = os.environ.get("BENCH_ONLY")
    side_by_side.run_cases(TL, [c for c in CASES if not only or only in c[0]], ROUNDS, PAIRS)
    if only:
        return
    fused_peak_memory()
    # bf16 @ bf16 against tl's own f32 throughput (target: at least 0.6)
    f32 = b16 = float("inf")
    for _ in range(PAIRS):
        f32 = min(f32, tl_time("A = rand(2048, 2048, dtype=f32)\nB = rand(2048, 2048, dtype=f32)", "A @ B"))
        b16 = min(b16, tl_time("A = bf16(rand(2048, 2048))\nB = bf16(rand(2048, 2048))", "A @ B"))
    print(f"{'bf16 @ bf16 2048 vs tl f32':34} {f32:10.6f} {b16:10.6f} {f32 / b16:6.2f}x {0.6:6.2f}x {'ok' if f32 / b16 >= 0.6 else 'MISS'}")
    # a 4-element s = s + v loop, tl against the same loop in numpy
    loop_n = 200_000
    tl_loop = f"v = ones(4, dtype=f32)\nfn run() {{\n    s = zeros(4, dtype=f32)\n    for i in range({loop_n}) {{ s = s + v }}\n}}"
    g = {"np": np, "s": np.zeros(4, np.float32), "v": np.ones(4, np.float32)}
    exec(f"def run():\n    s = np.zeros(4, np.float32)\n    for i in range({loop_n}):\n        s = s + v\n", g)
    t = n = float("inf")
    for _ in range(PAIRS):
        t = min(t, tl_time(tl_loop, "run()"))
        n = min(n, min(timeit.repeat("run()", globals=g, number=1, repeat=ROUNDS)))
    print(f"{'4-element s = s + v loop':34} {n:10.6f} {t:10.6f} {n / t:6.2f}x {10.0:6.2f}x {'ok' if n / t >= 10 else 'MISS'}")

if __name__ == "__main__":
    main()
