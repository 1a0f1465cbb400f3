"""bf16.py — bfloat16 emulation for the checks (numpy has no bf16).

to_bf16 rounds float64 values once to the nearest bf16 (ties to even, overflow to inf, NaN stays NaN),
as docs/language.md §6 says; bits() gives the 16-bit patterns. fmt() prints a bf16 tensor as docs/language.md §9 says: like
numpy prints f16, but with the shortest digits that round-trip in bf16. It finds those digits by trying
1, 2, ... significant digits, then lets numpy lay out float64 values that have exactly those digits.
"""
import math
import struct
import numpy as np

MAX = (2 - 2 ** -7) * 2.0 ** 127


def round1(x):
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    m, e = math.frexp(abs(x))            # abs(x) = m * 2**e, 0.5 <= m < 1
    q = max(e - 8, -133)                 # 8 significant bits; subnormal quantum 2**-133
    v = round(abs(x) / 2.0 ** q) * 2.0 ** q   # round() is half-to-even and exact here
    if v > MAX:
        v = math.inf
    return math.copysign(v, x)


def to_bf16(a):
    return np.vectorize(round1, otypes=[np.float64])(np.asarray(a, np.float64))


def bits1(v):
    if math.isnan(v):
        return (struct.unpack("<I", struct.pack("<f", v))[0] >> 16) | 0x40
    return struct.unpack("<I", struct.pack("<f", v))[0] >> 16


def bits(a):
    return np.vectorize(bits1, otypes=[np.uint16])(to_bf16(a))


def shortest(v):
    """The float64 whose shortest repr has the fewest digits that still round to bf16 value v."""
    if not math.isfinite(v) or v == 0:
        return v
    for n in range(1, 18):
        c = float(f"{v:.{n - 1}e}")
        if round1(c) == v:
            return c
    return v


def fmt(a):
    a = to_bf16(a)
    s = np.vectorize(shortest, otypes=[np.float64])(a)
    if s.ndim == 0:
        return str(np.float64(s[()]))
    return str(s)


def echo(a):
    return fmt(a) + ", dtype=bf16"
