#!/usr/bin/python3
"""differential.py — random small programs run by tl and by numpy, compared as printed text.

usage: /usr/bin/python3 tests/fuzz/differential.py [--tl build/src/tl] [--seconds 60] [--seed N]
                                                   [--cases N] [--show] [--crashes-only]

Each case makes one to three small tensors (every numpy dtype, shapes with 0, 1 and broadcastable
axes, values with -0.0, nan and inf) and one expression over them: views (slices with steps,
transposes, flips, reshapes), elementwise operators and functions with broadcasting and weak
literals, comparisons, where, reductions with axes and keepdims, casts, matmul. tl echoes the value
(so the dtype is compared too); numpy's value is printed by tests/tools/numpy_checks/tlfmt.py the
way tl prints. Cases run in batches, one tl process per batch. An error on both sides is
agreement; anything else that differs is a finding, printed with the tl program and the numpy
expression. The seed is printed first: --seed N --cases M repeats a run exactly.

numpy runs with NEP 50 promotion (np._set_promotion_state("weak"), numpy 1.24), which is tl's
rule for literals. Where tl differs from numpy on purpose, or numpy's own loops are not the
reference, the generator avoids the case; each such place says why (grep "not generated").
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time
import warnings

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "tests", "tools", "numpy_checks"))
from tlfmt import echo  # noqa: E402

np._set_promotion_state("weak")   # NEP 50: tl's promotion of literals
warnings.simplefilter("ignore")

INTS = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"]
FLOATS = ["f16", "f32", "f64"]
COMPLEX = ["c64", "c128"]
DTYPES = ["bool"] + INTS + FLOATS + COMPLEX   # bf16 is not generated: numpy has no bfloat16
NP = {"bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16,
      "f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}
SHAPES = [(), (1,), (3,), (4,), (0,), (2, 3), (3, 1), (1, 3), (2, 0), (3, 3), (2, 2, 2), (2, 1, 3), (1, 1)]
# float values are quarters of small size, so sums, means and products of a few of them are exact
# in every summation order (tl and numpy add in different orders)
QUARTERS = [x / 4 for x in range(-14, 17)]


def kind(dt):
    return "b" if dt == "bool" else "u" if dt[0] == "u" else "i" if dt[0] == "i" else "f" if dt[0] == "f" else "c"


def np_dtype_name(a):
    return {v: k for k, v in NP.items()}[np.dtype(a.dtype).type]


# ---- values: each is (tl text, python text) ----------------------------------------------------

def float_text(x):
    if x != x:
        return "0.0/0.0", "np.nan"
    if x in (float("inf"), float("-inf")):
        return ("1.0/0.0", "np.inf") if x > 0 else ("-1.0/0.0", "-np.inf")
    return repr(x), repr(x)


def element(rng, dt, special):
    k = kind(dt)
    if k == "b":
        v = rng.random() < 0.5
        return ("true" if v else "false"), repr(v)
    if k == "u":
        v = rng.randint(0, 9)
        return str(v), str(v)
    if k == "i":
        v = rng.randint(-5, 6)
        return str(v), str(v)
    pool = QUARTERS + ([float("nan"), float("inf"), float("-inf"), -0.0] if special else [-0.0])
    if k == "f":
        return float_text(rng.choice(pool))
    re_, im = rng.choice(QUARTERS), rng.choice(QUARTERS)
    return f"({re_!r} + {im!r}j)", f"complex({re_!r}, {im!r})"


def nested(rng, shape, dt, special):
    if not shape:
        return element(rng, dt, special)
    parts = [nested(rng, shape[1:], dt, special) for _ in range(shape[0])]
    return "[" + ", ".join(p[0] for p in parts) + "]", "[" + ", ".join(p[1] for p in parts) + "]"


def make_input(rng, name, shape=None, dt=None):
    """A statement making one tensor in tl, and its numpy value."""
    dt = dt or rng.choice(DTYPES)
    shape = SHAPES[rng.randrange(len(SHAPES))] if shape is None else shape
    special = rng.random() < 0.3
    tl_lit, py_lit = nested(rng, shape, dt, special)
    if 0 in shape:   # an empty literal cannot say its shape: reshape an empty one
        tl = f"{name} = reshape({dt}([]), {', '.join(map(str, shape))})"
        val = np.zeros(shape, NP[dt])
    else:
        tl = f"{name} = {dt}({tl_lit})"
        val = np.array(eval(py_lit, {"np": np, "complex": complex}), NP[dt])
    return tl, val


# ---- expressions: built bottom-up, each node (tl text, python text, numpy value or exception) ---

def evaluate(py, env):
    try:
        with np.errstate(all="ignore"):
            v = eval(py, env)
    except Exception as e:   # numpy refuses: tl must refuse too
        return e
    # == and != of shapes that do not broadcast: numpy 1.24 answers a plain True/False (with a
    # DeprecationWarning, an error from numpy 1.25 on); tl refuses, as later numpy does
    if isinstance(v, bool):
        return ValueError("elementwise comparison failed")
    return v


def shaped(v):
    return isinstance(v, (np.ndarray, np.generic))


def view(rng, node, env):
    tl, py, v = node
    nd = v.ndim if shaped(v) else 0
    choices = [("T({})", "np.transpose({})"), ("flip({}, 0)", "np.flip({}, 0)"),
               ("reshape({}, -1)", "np.reshape({}, -1)"), ("unsqueeze({}, 0)", "np.expand_dims({}, 0)"),
               ("squeeze({})", "np.squeeze({})")]
    if nd >= 1:
        start, step = rng.choice([0, 1, -1, 2]), rng.choice([1, 2, -1, -2, 3])
        s = f"{start}::{step}"
        choices += [("{}[%s]" % s, "{}[%s]" % s), ("{}[..., ::-1]", "{}[..., ::-1]"),
                    ("{}[:, none]", "{}[:, None]"), ("{}[-1]", "{}[-1]")]
    if nd >= 2:
        choices += [("swapaxes({}, 0, -1)", "np.swapaxes({}, 0, -1)"), ("{}[::2, 1:]", "{}[::2, 1:]"),
                    ("diagonal({})", "np.diagonal({})")]
    t, p = rng.choice(choices)
    py2 = p.format(py)
    return t.format(tl), py2, evaluate(py2, env)


def leaf(rng, env, names):
    n = rng.choice(names)
    node = (n, n, env[n])
    while rng.random() < 0.35:
        node = view(rng, node, env)
    return node


UNARY_EXACT = ["abs", "sign", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite"]
# transcendental functions only on f64: numpy's f16/f32 loops are not correctly rounded (they
# differ from tl's by an ulp, which prints), so other dtypes are not generated
UNARY_F64 = ["sqrt", "exp", "log", "sin", "cos", "tanh", "expm1", "log1p", "atan"]
NP_NAME = {"abs": "np.abs", "sign": "np.sign", "floor": "np.floor", "ceil": "np.ceil", "trunc": "np.trunc",
           "isnan": "np.isnan", "isinf": "np.isinf", "isfinite": "np.isfinite", "sqrt": "np.sqrt",
           "exp": "np.exp", "log": "np.log", "sin": "np.sin", "cos": "np.cos", "tanh": "np.tanh",
           "expm1": "np.expm1", "log1p": "np.log1p", "atan": "np.arctan", "maximum": "np.maximum",
           "minimum": "np.minimum"}


def unary(rng, node, env):
    tl, py, v = node
    dt = np_dtype_name(np.asarray(v)) if shaped(v) else None
    ops = ["neg"] + UNARY_EXACT
    if dt in ("bool",) or (dt and kind(dt) in "ui"):
        ops.append("invert")
    if dt == "f64":
        ops += UNARY_F64
    if dt and kind(dt) == "c":   # floor, ceil, trunc, sign of complex: numpy refuses or differs by version
        # abs of complex is not generated: numpy's loops (its AVX-512 c64 and c128 ones on
        # this machine) scale by the larger part and are not correctly rounded; tl takes the
        # C library's hypot/hypotf, so the two differ in the last bit at times
        ops = ["neg", "isnan", "isfinite"]
    op = rng.choice(ops)
    if op == "neg":
        t, p = f"-({tl})", f"np.negative({py})"
    elif op == "invert":
        t, p = f"~({tl})", f"np.invert({py})"
    else:
        t, p = f"{op}({tl})", f"{NP_NAME[op]}({py})"
    return t, p, evaluate(p, env)


BINOPS = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "&", "|"]


def literal(rng, v):
    """A weak literal suited to v's kind (NEP 50: it takes v's dtype)."""
    dt = np_dtype_name(np.asarray(v)) if shaped(v) else "f64"
    k = kind(dt)
    if k in "bu":
        x = rng.randint(0, 3)
    elif k == "i":
        x = rng.randint(-3, 3)
    else:
        x = rng.choice([0.5, 2.0, -1.25, 3.0])
    return str(x), repr(x)


def dtype_of(v):
    return np_dtype_name(np.asarray(v)) if shaped(v) else None


def binary(rng, a, b, env):
    op = rng.choice(BINOPS + ["maximum", "minimum"])
    if rng.random() < 0.3:
        lt, lp = literal(rng, a[2])
        b = (lt, lp, None)
        if rng.random() < 0.5:
            a, b = b, a
    dts = {dtype_of(a[2]), dtype_of(b[2])} - {None}
    # bool OP bool under + - * / ** // %: tl gives i64 (docs/language.md §7: as Python's True + True), numpy gives
    # bool or refuses: not generated
    if dts == {"bool"} and op in ("+", "-", "*", "/", "//", "%", "**"):
        op = rng.choice(["&", "|", "==", "<"])
    # ** on f16/f32/c64: numpy's array loops are not correctly rounded (an ulp off, which prints;
    # tl rounds the f64 result once): not generated
    if op == "**" and dts & {"f16", "f32", "c64"}:
        op = "*"
    if op in ("maximum", "minimum"):
        t, p = f"{op}({a[0]}, {b[0]})", f"{NP_NAME[op]}({a[1]}, {b[1]})"
    else:
        t, p = f"({a[0]}) {op} ({b[0]})", f"({a[1]}) {op} ({b[1]})"
    v = evaluate(p, env)
    # numpy 1.24 types a 0-d operand by its value where NEP 50 (numpy 2, and tl) takes its dtype:
    # value-based casting (a 0-d c128 with a c64 array gives c64) and its ** of an array to a 0-d
    # 2 squaring in the array's dtype (u8([[5]]) ** u32(2) is u8); and a 0-d complex ** 0.5 is its
    # sqrt for a 0-d array but its pow (an ulp apart) for a scalar, which tl's 0-d values are
    # (docs/fuzzing.md): not generated, the comparison == taken instead
    zero_d = [x[2] for x in (a, b) if shaped(x[2]) and np.ndim(x[2]) == 0]
    both = shaped(a[2]) and shaped(b[2])
    if both:
        nep50 = np.result_type(np.asarray(a[2]).dtype, np.asarray(b[2]).dtype)
        if op == "/" and nep50.kind not in "fc":
            nep50 = np.dtype(np.float64)
    if (op in ("+", "-", "*", "/", "//", "%", "**", "&", "|", "maximum", "minimum") and zero_d and both
            and not isinstance(v, Exception) and np.asarray(v).dtype != nep50) \
            or (op == "**" and shaped(a[2]) and np.ndim(a[2]) == 0 and kind(dtype_of(a[2])) == "c"):
        t, p = f"({a[0]}) == ({b[0]})", f"({a[1]}) == ({b[1]})"
        return t, p, evaluate(p, env), "=="
    # ** computed in f64 by numpy's array loop: on AVX-512 machines that is SVML's pow, up to an
    # ulp from the correctly rounded power (1.25 ** 0.75); tl takes the C library's pow, as
    # numpy's scalars and its other builds do (docs/fuzzing.md): not generated
    if op == "**" and not isinstance(v, Exception) and np.asarray(v).dtype == np.float64:
        t, p = f"({a[0]}) * ({b[0]})", f"({a[1]}) * ({b[1]})"
        return t, p, evaluate(p, env), "*"
    return t, p, v, op


def reduction(rng, node, env):
    tl, py, v = node
    nd = v.ndim if shaped(v) else 0
    dt = np_dtype_name(np.asarray(v)) if shaped(v) else None
    ops = ["sum", "min", "max", "argmin", "argmax", "any", "all", "mean", "cumsum"]
    if dt and kind(dt) in "bui":   # float products round differently in different orders
        ops.append("prod")
    if dt == "f64":
        ops += ["std", "var"]
    op = rng.choice(ops)
    args_t, args_p = "", ""
    if nd and rng.random() < 0.7:
        ax = rng.randrange(-nd, nd)
        args_t += f", axis={ax}"
        args_p += f", axis={ax}"
    if op != "cumsum" and rng.random() < 0.3:
        args_t += ", keepdims=true"
        args_p += ", keepdims=True"
    t, p = f"{op}({tl}{args_t})", f"np.{op}({py}{args_p})"
    return t, p, evaluate(p, env)


def finite_in_range(v, dt):
    """Casting v to integer dtype dt is defined (numpy's result for nan, inf or out of range
    values is the platform's conversion, not a rule: such casts are not generated)."""
    a = np.asarray(v)
    if kind(np_dtype_name(a)) not in "fc":
        return True
    a = a.real if np.iscomplexobj(a) else a
    info = np.iinfo(NP[dt])
    return bool(np.all(np.isfinite(a)) and np.all(a >= info.min) and np.all(a <= info.max))


def expression(rng, env, names):
    """One random expression over the inputs: (tl text, python text, numpy value or exception, note)."""
    a = leaf(rng, env, names)
    r = rng.random()
    if r < 0.15:
        return a + ("view",)
    if r < 0.3:
        return unary(rng, a, env) + ("unary",)
    if r < 0.6:
        t, p, v, op = binary(rng, a, leaf(rng, env, names), env)
        return t, p, v, op
    if r < 0.8:
        if rng.random() < 0.3:
            b = unary(rng, a, env)
            if not isinstance(b[2], Exception):
                a = b
        return reduction(rng, a, env) + ("reduce",)
    if r < 0.88:
        b, c = leaf(rng, env, names), leaf(rng, env, names)
        t = f"where(({a[0]}) > ({b[0]}), {b[0]}, {c[0]})"
        p = f"np.where(({a[1]}) > ({b[1]}), {b[1]}, {c[1]})"
        return t, p, evaluate(p, env), "where"
    if r < 0.95:
        dt = rng.choice(DTYPES)
        if kind(dt) in "ui" and not isinstance(a[2], Exception) and not finite_in_range(a[2], dt):
            dt = "f64"
        if kind(dt) in "b" and shaped(a[2]) and np.iscomplexobj(a[2]):
            dt = "c128"
        p = f"np.asarray({a[1]}).astype(np.dtype('{np.dtype(NP[dt]).name}'))"
        return f"astype({a[0]}, \"{dt}\")", p, evaluate(p, env), "astype"
    b = leaf(rng, env, names)
    return f"({a[0]}) @ ({b[0]})", f"np.matmul({a[1]}, {b[1]})", evaluate(f"np.matmul({a[1]}, {b[1]})", env), "matmul"


def make_case(rng):
    """Inputs and one expression; returns (tl lines, python expression, expected text or None for an error)."""
    env = {"np": np}
    lines = []
    names = ["a", "b", "c"][: rng.randint(1, 3)]
    base = None
    for n in names:
        # inputs often share a shape or broadcast against the first one
        shape = None
        if base is not None and rng.random() < 0.6:
            shape = tuple(d if rng.random() < 0.7 else 1 for d in base)[rng.randint(0, len(base)) if base else 0:]
        line, val = make_input(rng, n, shape)
        base = base if base is not None else val.shape
        lines.append(line)
        env[n] = val
    t, p, v, what = expression(rng, env, names)
    lines.append(t)
    expect = None if isinstance(v, Exception) else echo(v if shaped(v) else np.asarray(v)[()])
    return lines, p, expect, what, v


# ---- running tl on a batch ---------------------------------------------------------------------

MARK = "@@case"


def run_tl(tl, cases):
    """Runs cases in one tl process; returns ({index: stdout text}, index that failed or None, stderr)."""
    prog = []
    for i, (lines, *_rest) in enumerate(cases):
        prog.append(f'print("{MARK} {i}")')
        prog.extend(lines)
    r = subprocess.run([tl], input="\n".join(prog) + "\n", capture_output=True,
                       text=True, timeout=120)
    outs, cur = {}, None
    for line in r.stdout.splitlines(True):
        if line.startswith(MARK):
            cur = int(line.split()[1])
            outs[cur] = ""
        elif cur is not None:
            outs[cur] += line
    failed = cur if r.returncode != 0 else None
    return outs, failed, r.stderr, r.returncode


def agree_on_error(case, stderr):
    """tl refused and numpy did not: agreement only where tl refuses on purpose."""
    _lines, _p, _expect, what, v = case
    # integer // and % by zero: tl raises "integer division by zero" (docs/language.md §7), numpy gives 0
    if what in ("//", "%") and "by zero" in stderr:
        return True
    return False


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)")


def close_enough(case, got, expect):
    """Results of transcendental functions (and std/var over them) may differ in the last bits
    between libms (tl uses SLEEF and glibc, numpy its own SIMD loops), which a 0-d f64 result shows
    in full: there numbers may differ by a relative 1e-7, everything else must match."""
    lines, _p, _expect, _what, _v = case
    if not re.search(r"\b(%s|std|var)\(" % "|".join(UNARY_F64), lines[-1]):
        return False
    if NUMBER.sub("#", got) != NUMBER.sub("#", expect):
        return False
    for x, y in zip(NUMBER.findall(got), NUMBER.findall(expect)):
        if x != y and not (x not in ("nan", "inf") and y not in ("nan", "inf")
                           and abs(float(x) - float(y)) <= 1e-7 * max(abs(float(x)), abs(float(y)))):
            return False
    return True


def layout(text):
    """The printed text with its numbers as # and no padding: what is left when numbers and widths go."""
    t = re.sub(r"\s+", " ", NUMBER.sub("#", text))
    return re.sub(r"\s*\]", "]", re.sub(r"\[\s*", "[", t))


def zero_signs_only(case, got, expect):
    """A min or max reduction over a -0. and a 0. picks one by its loop's lanes, in numpy (the
    first of the two for f16; the last, mostly, for f32 and f64, but not at every length:
    max(zeros(17) with a -0. last) is 0. flat and -0. along axis 0) and in tl (the first on its
    scalar path, by lanes on its SIMD one): there the printed results may differ in the signs of
    zeros (and so in padding), and everything else must match (docs/fuzzing.md)."""
    lines, _p, _expect, _what, _v = case
    if not re.search(r"\b(min|max)\(", lines[-1]) or layout(got) != layout(expect):
        return False
    for x, y in zip(NUMBER.findall(got), NUMBER.findall(expect)):
        if x != y and not (x not in ("nan", "inf") and y not in ("nan", "inf") and float(x) == 0 == float(y)):
            return False
    return True


def known_difference(case, got):
    """tl defects already reported and not yet fixed; remove each rule when its fix lands."""
    _lines, p, expect, what, v = case
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tl", default=os.path.join(root, "build", "src", "tl"))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cases", type=int, default=None, help="stop after this many cases (repeats a run with --seed)")
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--show", action="store_true", help="print every case")
    ap.add_argument("--crashes-only", action="store_true",
                    help="exit 1 only when tl crashed; print value divergences without failing "
                         "(what CI ran while divergences were open: docs/fuzzing.md)")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    print(f"differential: seed {seed} (repeat with --seed {seed})", flush=True)
    rng = random.Random(seed)
    start = time.monotonic()
    done = errors_both = known = crashes = 0
    findings = []
    while time.monotonic() - start < args.seconds and (args.cases is None or done < args.cases):
        n = args.batch if args.cases is None else min(args.batch, args.cases - done)
        batch = [make_case(rng) for _ in range(n)]
        pending = list(range(len(batch)))
        while pending:
            sub = [batch[i] for i in pending]
            outs, failed, stderr, rc = run_tl(args.tl, sub)
            next_pending = []
            for j, i in enumerate(pending):
                case = batch[i]
                lines, p, expect, what, v = case
                if failed is not None and j > failed:
                    next_pending.append(i)
                    continue
                got = outs.get(j, "")
                if failed == j:   # tl refused this one
                    if rc < 0 or rc > 2 or "Sanitizer" in stderr:
                        crashes += 1
                        findings.append((case, f"tl crashed (exit {rc}):\n{stderr}"))
                    elif expect is None:
                        errors_both += 1
                    elif not agree_on_error(case, stderr):
                        findings.append((case, f"tl error: {stderr.strip()}\nnumpy: {expect}"))
                    continue
                got = got.rstrip("\n")
                if args.show:
                    print("\n".join(lines), "\n#", p, "\n->", got)
                if got != expect and not (expect is not None and (close_enough(case, got, expect) or
                                                                 zero_signs_only(case, got, expect))):
                    why = known_difference(case, got)
                    if why:
                        known += 1
                    elif expect is None:
                        findings.append((case, f"tl: {got}\nnumpy error: {type(v).__name__}: {v}"))
                    else:
                        findings.append((case, f"tl:    {got}\nnumpy: {expect}"))
            pending = next_pending
        done += len(batch)
    took = time.monotonic() - start
    for case, what in findings:
        print("---- divergence\n" + "\n".join(case[0]) + f"\n# numpy: {case[1]}\n{what}")
    print(f"differential: {done} cases in {took:.0f} s (repeat: --seed {seed} --cases {done}): {len(findings)} divergences, "
          f"{errors_both} refused by both, {known} known tl defects (known_difference), {crashes} crashes")
    if args.crashes_only:
        return 1 if crashes else 0
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
