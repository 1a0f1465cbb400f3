#!/usr/bin/python3
"""gen_kernel_cases.py — numpy-computed expectations for tests/unit/test_kernels.c.

Run `/usr/bin/python3 tests/tools/gen_kernel_cases.py > tests/unit/kernel_cases.inc`
(numpy 1.24.2). Every array is written as the hex of its little-endian bytes.
Rules that are tl's own choice, not numpy's (docs/language.md §7: bool + bool is i64; bf16,
which numpy lacks, computes in f32 and rounds once; integer // and % by zero is an
error, tested separately), are applied here explicitly and marked."""
import math
import numpy as np

np.seterr(all="ignore")

DT = {  # tl name -> (enum, numpy dtype or None for bf16)
    "bool": ("TL_BOOL", np.bool_), "u8": ("TL_U8", np.uint8), "u16": ("TL_U16", np.uint16),
    "u32": ("TL_U32", np.uint32), "u64": ("TL_U64", np.uint64), "i8": ("TL_I8", np.int8),
    "i16": ("TL_I16", np.int16), "i32": ("TL_I32", np.int32), "i64": ("TL_I64", np.int64),
    "f16": ("TL_F16", np.float16), "bf16": ("TL_BF16", None), "f32": ("TL_F32", np.float32),
    "f64": ("TL_F64", np.float64), "c64": ("TL_C64", np.complex64), "c128": ("TL_C128", np.complex128),
}
NP2TL = {np.dtype(v[1]): k for k, v in DT.items() if v[1] is not None}


def bf16_bits(x):
    """f32 values -> bf16 bits, round to nearest even, NaN stays NaN (docs/language.md §6)."""
    x = np.asarray(x, np.float32)
    u = x.reshape(-1).view(np.uint32).astype(np.uint64)
    s16, one, bias = np.uint64(16), np.uint64(1), np.uint64(0x7FFF)
    out = ((u + bias + ((u >> s16) & one)) >> s16).astype(np.uint16)
    nan = (u & np.uint64(0x7FFFFFFF)) > np.uint64(0x7F800000)
    out[nan] = ((u[nan] >> s16) | np.uint64(0x40)).astype(np.uint16)
    return out.reshape(x.shape)


def bf16_vals(bits):
    return (np.asarray(bits, np.uint32) << 16).view(np.float32)


def hexs(a):
    return '"' + np.ascontiguousarray(a).tobytes().hex() + '"'


def float_for(d):
    return {"bool": "f16", "u8": "f16", "i8": "f16", "u16": "f32", "i16": "f32"}.get(
        d, "f64" if d in ("u32", "i32", "u64", "i64") else d)


# ---- inputs --------------------------------------------------------------------
FA = [0.5, -1.5, 3.0, -0.0, 0.0, np.inf, -np.inf, np.nan, 7.25, -2.5, 1e-3, 100.0, 2.0, -7.0, 0.75, 5.0]
FB = [2.0, 2.0, -0.5, 3.0, -0.0, 2.0, 3.0, 1.0, -2.0, -3.5, 0.5, 0.0, 2.0, 2.0, -0.25, np.nan]
CA = [1 + 2j, -3 + 0.5j, 0j, complex(np.nan, 1), 2 - 2j, 1.5j, -1 - 1j, 4 + 0j]
CB = [2 - 1j, 0.5 + 0.5j, 1 + 0j, 1 + 0j, 0j, 3 + 0j, -1 - 1j, 2 + 0j]


def int_inputs(d, for_pow=False):
    info = np.iinfo(DT[d][1])
    a = [info.min, -7, -1, 0, 1, 7, 100, info.max] if info.min < 0 else [0, 7, 1, 100, 3, 200 % (info.max + 1), 5, info.max]
    if for_pow:
        b = [0, 1, 2, 3, 2, 3, 5, 1]
    elif info.min < 0:
        b = [3, -2, 5, 7, -3, 2, -1, 1]
    else:
        b = [3, 2, 5, 7, 3, 2, 1, 9]
    return np.array(a, DT[d][1]), np.array(b, DT[d][1])


def inputs(d, op=None):
    if d == "bool":
        return np.array([0, 1, 0, 1], np.bool_), np.array([0, 0, 1, 1], np.bool_)
    if d in ("c64", "c128"):
        return np.array(CA, DT[d][1]), np.array(CB, DT[d][1])
    if d in ("f16", "bf16", "f32", "f64"):
        dt = np.float32 if d == "bf16" else DT[d][1]
        return np.array(FA, dt), np.array(FB, dt)
    return int_inputs(d, op == "TL_POW")


# ---- binary -------------------------------------------------------------------
BINOPS = [("TL_ADD", np.add), ("TL_SUB", np.subtract), ("TL_MUL", np.multiply), ("TL_DIV", np.true_divide),
          ("TL_FLOORDIV", np.floor_divide), ("TL_MOD", np.remainder), ("TL_POW", np.power),
          ("TL_EQ", np.equal), ("TL_NE", np.not_equal), ("TL_LT", np.less), ("TL_LE", np.less_equal),
          ("TL_GT", np.greater), ("TL_GE", np.greater_equal), ("TL_AND", np.bitwise_and),
          ("TL_OR", np.bitwise_or), ("TL_XOR", np.bitwise_xor), ("TL_MINIMUM", np.minimum),
          ("TL_MAXIMUM", np.maximum), ("TL_ATAN2", np.arctan2)]
BIN_ULPS = {"TL_POW": 1, "TL_ATAN2": 1}


def binary_cases():
    rows = []
    for d in DT:
        for op, f in BINOPS:
            a, b = inputs(d, op)
            x, y = a, b
            if d == "bf16":
                x, y = bf16_vals(bf16_bits(a)), bf16_vals(bf16_bits(b))
            if d == "bool" and op in ("TL_FLOORDIV", "TL_MOD"):    # tl: b holds false, i.e. // 0: an error
                rows.append("{%s, %s, -1, %d, %s, %s, NULL, 0}" % (op, DT[d][0], len(a), hexs(a), hexs(b)))
                continue
            if d == "bool" and op in ("TL_ADD", "TL_SUB", "TL_MUL", "TL_POW"):
                x, y = a.astype(np.int64), b.astype(np.int64)       # tl: bool arithmetic is i64
            try:
                r = f(x, y)
            except TypeError:
                rows.append("{%s, %s, -1, %d, %s, %s, NULL, 0}" % (op, DT[d][0], len(a), hexs(enc(a, d)), hexs(enc(b, d))))
                continue
            if d == "bf16":
                rd = "bool" if r.dtype == np.bool_ else "bf16"
                rb = r if rd == "bool" else bf16_bits(r)
            else:
                rd = NP2TL[r.dtype]
                rb = r
            ulps = BIN_ULPS.get(op, 0) + (2 if d in ("c64", "c128") and op in ("TL_DIV", "TL_POW") else 0)
            rows.append("{%s, %s, %s, %d, %s, %s, %s, %d}" % (op, DT[d][0], DT[rd][0], len(a), hexs(enc(a, d)),
                                                          hexs(enc(b, d)), hexs(rb), ulps))
    return rows


def enc(a, d):
    return bf16_bits(a) if d == "bf16" else a


# ---- unary -------------------------------------------------------------------
def _sig(x):
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _vec(fn):
    def g(a):
        return np.array([fn(float(v)) if not math.isnan(v) else math.nan for v in a.astype(np.float64)])
    return g


def _gelu(x):
    return 0.5 * x * math.erfc(-x / math.sqrt(2)) if math.isfinite(x) else (x if x > 0 else math.nan)


def _gelu_tanh(x):
    if not math.isfinite(x):
        return x if x > 0 else math.nan
    # 0.5 x (1 + tanh u) == x sigmoid(2u), which does not cancel for x < 0
    return x * _sig(2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))


def _silu(x):
    return x * _sig(x) if math.isfinite(x) else (x if x > 0 else math.nan)


UNOPS = [("TL_NEG", np.negative, 0), ("TL_NOT", np.invert, 0), ("TL_ABS", np.abs, 0), ("TL_SIGN", np.sign, 0),
         ("TL_SQRT", np.sqrt, 1), ("TL_EXP", np.exp, 4), ("TL_EXPM1", np.expm1, 4), ("TL_LOG", np.log, 4),
         ("TL_LOG1P", np.log1p, 4), ("TL_LOG2", np.log2, 4), ("TL_SIN", np.sin, 4), ("TL_COS", np.cos, 4),
         ("TL_TAN", np.tan, 4), ("TL_TANH", np.tanh, 4), ("TL_SINH", np.sinh, 4), ("TL_COSH", np.cosh, 4),
         ("TL_ASIN", np.arcsin, 4), ("TL_ACOS", np.arccos, 4), ("TL_ATAN", np.arctan, 4),
         ("TL_FLOOR", np.floor, 0), ("TL_CEIL", np.ceil, 0), ("TL_ROUND", np.round, 0), ("TL_TRUNC", np.trunc, 0),
         ("TL_ISNAN", np.isnan, 0), ("TL_ISINF", np.isinf, 0), ("TL_ISFINITE", np.isfinite, 0),
         ("TL_CONJ", np.conj, 0), ("TL_ANGLE", np.angle, 1),
         ("TL_SIGMOID", _vec(_sig), 8), ("TL_RELU", None, 0), ("TL_GELU", _vec(_gelu), 8),
         ("TL_GELU_TANH", _vec(_gelu_tanh), 32), ("TL_SILU", _vec(_silu), 8)]
# gelu_tanh: exp(2u) magnifies the rounding of u (x = -7 in f32: ~16 ulp);
# f64 gelu: erfc(t) amplifies the rounding of t = -x/sqrt(2) by 2t^2 (x = -20: ~200 ulp)
F64_ULPS = {"TL_GELU": 512}
CUSTOM = ("TL_SIGMOID", "TL_GELU", "TL_GELU_TANH", "TL_SILU")


def unary_inputs(d):
    if d in ("f16", "bf16", "f32", "f64"):
        vals = FA + [0.9, -0.3, 20.0, -20.0, 2.5, -3.5]
        if d == "bf16":
            return bf16_vals(bf16_bits(np.array(vals, np.float32)))
        return np.array(vals, DT[d][1])
    if d in ("c64", "c128"):
        return np.array(CA, DT[d][1])
    return inputs(d)[0]


def unary_cases():
    rows = []
    for d in DT:
        for op, f, ulps in UNOPS:
            a = unary_inputs(d)
            fd = float_for(d)
            if op == "TL_RELU":
                if d == "bool" or d in ("c64", "c128"):
                    r = None
                else:
                    r = np.where(a > 0, a, np.where(np.isnan(a), a, 0)).astype(a.dtype)
            elif op in CUSTOM:
                if d in ("c64", "c128"):
                    r = None
                else:
                    cd = "f32" if fd in ("f16", "bf16") else fd
                    comp = a.astype(np.float64)
                    r = f(comp).astype(np.float32 if fd == "bf16" else DT[fd][1])
            elif op == "TL_ANGLE" and d not in ("f16", "bf16", "f32", "f64", "c64", "c128"):
                r = np.angle(a.astype(DT[fd][1] or np.float32)).astype(DT[fd][1])   # tl: ints use float_for
            elif op == "TL_CONJ" and d == "bool":
                r = a.copy()                                                      # tl: conj(bool) is bool
            else:
                try:
                    r = f(a)
                except TypeError:
                    r = None
            if r is None:
                rows.append("{%s, %s, -1, %d, %s, NULL, 0}" % (op, DT[d][0], len(a), hexs(enc(a, d))))
                continue
            if d == "bf16":
                rd = "bool" if r.dtype == np.bool_ else "bf16"
                rb = r if rd == "bool" else bf16_bits(r.astype(np.float32))
            else:
                rd = NP2TL[r.dtype]
                rb = r
            u = ulps if rd not in ("f16", "bf16") else min(ulps, 1)
            u = F64_ULPS.get(op, u) if rd == "f64" else u
            u = 2 if op == "TL_ABS" and d in ("c64", "c128") else u   # numpy's SIMD hypot is off by 1-2 ulp
            rows.append("{%s, %s, %s, %d, %s, %s, %d}" % (op, DT[d][0], DT[rd][0], len(a), hexs(enc(a, d)), hexs(rb), u))
    return rows


# ---- reductions ------------------------------------------------------------------
def red_input(d, rng):
    shape = (3, 4, 5)
    if d == "bool":
        return rng.random(shape) < 0.7
    if d in ("c64", "c128"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(DT[d][1])
    if d in ("f16", "bf16", "f32", "f64"):
        v = np.round(rng.standard_normal(shape) * 8) / 8 + 1     # exact in every float dtype
        return v.astype(np.float32 if d == "bf16" else DT[d][1])
    info = np.iinfo(DT[d][1])
    lo = -5 if info.min < 0 else 0
    return rng.integers(lo, 6, shape).astype(DT[d][1])


RED_DTYPES = {"sum": "TL_RSUM", "prod": "TL_RPROD", "mean": "TL_RMEAN", "var": "TL_RVAR", "std": "TL_RSTD",
              "min": "TL_RMIN", "max": "TL_RMAX", "argmin": "TL_RARGMIN", "argmax": "TL_RARGMAX",
              "any": "TL_RANY", "all": "TL_RALL", "norm": "TL_RNORM", "logsumexp": "TL_RLOGSUMEXP"}


def fwork(d):
    return {"f16": np.float32, "bf16": np.float32, "f32": np.float32, "f64": np.float64,
            "c64": np.complex64, "c128": np.complex128}.get(d, np.float64)


def reduce_np(name, a, d, axis, keepdims, ddof):
    """numpy's value, with tl's documented dtype rules (docs/language.md §7)."""
    if name == "sum":
        if d in ("f16", "bf16"):
            return a.astype(np.float32).sum(axis=axis, keepdims=keepdims)
        return np.sum(a, axis=axis, keepdims=keepdims)
    if name == "prod":
        return np.prod(a, axis=axis, keepdims=keepdims)
    if name in ("mean", "var", "std"):
        x = a.astype(fwork(d))
        if name == "mean":
            return x.mean(axis=axis, keepdims=keepdims)
        return getattr(x, name)(axis=axis, keepdims=keepdims, ddof=ddof)
    if name in ("min", "max", "any", "all"):
        return getattr(np, name)(a, axis=axis, keepdims=keepdims)
    if name in ("argmin", "argmax"):
        return getattr(np, name)(a, axis=axis, keepdims=keepdims)
    x = a.astype(fwork(d))
    if name == "norm":
        return np.sqrt(np.sum((x * np.conj(x)).real, axis=axis, keepdims=keepdims))
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis)


def result_name(name, d):
    ints = d == "bool" or d[0] in "ui"
    if name in ("sum", "prod"):
        return ("u64" if d[0] == "u" else "i64") if ints else d
    if name == "mean":
        return "f64" if ints else d
    if name in ("var", "std", "norm", "logsumexp"):
        return "f64" if ints else {"c64": "f32", "c128": "f64"}.get(d, d)
    if name in ("argmin", "argmax"):
        return "i64"
    if name in ("any", "all"):
        return "bool"
    return d


def reduce_cases():
    """Returns (inputs, cases): one (3, 4, 5) input per dtype, cases refer to it by index."""
    rng = np.random.default_rng(7)
    rows, ins = [], []
    variants = [(None, False), ((0,), False), ((1,), False), ((2,), False), ((0, 2), False),
                ((1, 2), False), ((1,), True), (None, True)]
    for d in DT:
        a = red_input(d, rng)
        ins.append("{%s, %s}" % (DT[d][0], hexs(enc(a, d))))
        src = bf16_vals(bf16_bits(a)) if d == "bf16" else a
        for name, op in RED_DTYPES.items():
            if name == "logsumexp" and d in ("c64", "c128"):
                continue
            for axes, keepdims in variants:
                if name in ("argmin", "argmax") and axes is not None and len(axes) > 1:
                    continue
                ax = axes if axes is None or len(axes) > 1 else axes[0]
                ddof = 1 if name in ("var", "std") and axes == (2,) else 0
                r = np.asarray(reduce_np(name, src, d, ax, keepdims, ddof))
                rd = result_name(name, d)
                rb = bf16_bits(r.astype(np.float32)) if rd == "bf16" else r.astype(DT[rd][1])
                nax = 0 if axes is None else len(axes)
                axs = list(axes or []) + [0] * (3 - nax)
                rs = list(rb.shape) + [0] * (4 - rb.ndim)
                rows.append("{%s, %d, %d, {%s}, %s, %d, %s, %d, {%s}, %s}" % (
                    op, len(ins) - 1, nax, ", ".join(map(str, axs)),
                    "true" if keepdims else "false", ddof, DT[rd][0], rb.ndim, ", ".join(map(str, rs)), hexs(rb)))
    return ins, rows


def main():
    print("/* generated by tests/tools/gen_kernel_cases.py with numpy %s; do not edit */" % np.__version__)
    print("static const bin_case bin_cases[] = {")
    for r in binary_cases():
        print("    " + r + ",")
    print("};")
    print("static const un_case un_cases[] = {")
    for r in unary_cases():
        print("    " + r + ",")
    print("};")
    ins, rows = reduce_cases()
    print("static const red_input red_inputs[] = {")
    for r in ins:
        print("    " + r + ",")
    print("};")
    print("static const red_case red_cases[] = {")
    for r in rows:
        print("    " + r + ",")
    print("};")


if __name__ == "__main__":
    main()
