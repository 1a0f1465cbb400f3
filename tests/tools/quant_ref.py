#!/usr/bin/python3
"""quant_ref.py — ggml's reference quantizers (quantize_row_*_ref in ggml-quants.c) in numpy.

An independent re-implementation, written from ggml's C for checking tl's quantize() byte for
byte: every block of a tensor at once, one numpy operation per C operation, each rounded to
float32 as ggml's x86-64 build rounds it (no fused multiply-adds: a * b + c is two roundings),
sums taken in ggml's order (element by element, never numpy's pairwise sums).

quantize(x, name) -> uint8 array (blocks, bytes) for name in TYPES; x is f32, its size a
multiple of the block size. Where C leaves a float-to-integer conversion undefined (the inverse
of a scale that underflows to a subnormal overflows to inf), the value is x86-64's cvttss2si
result, INT32_MIN, as ggml's scalar code computes it.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402  (the K types' 12-byte scale packing)

F = np.float32
TYPES = {"q4_0": (32, 18), "q4_1": (32, 20), "q5_0": (32, 22), "q5_1": (32, 24), "q8_0": (32, 34),
         "q2_k": (256, 84), "q3_k": (256, 110), "q4_k": (256, 144), "q5_k": (256, 176), "q6_k": (256, 210)}


def f(v):
    return np.asarray(v, dtype=F)


def f16_bytes(d):
    """binary16 bits of f32 values (nearest even), as (n, 2) little-endian bytes."""
    return f(d).astype(np.float16).reshape(-1, 1).view(np.uint8)


def f16_round(d):
    return f(d).astype(np.float16).astype(F)


def trunc_i32(v):
    """(int32_t)v as cvttss2si: truncation, INT32_MIN for nan and out-of-range values."""
    v = f(v)
    ok = np.isfinite(v) & (v > F(-2147483904.0)) & (v < F(2147483648.0))
    out = np.full(v.shape, np.iinfo(np.int32).min, dtype=np.int64)
    out[ok] = v[ok].astype(np.int64)
    return out


def low_byte(i):
    return (np.asarray(i, dtype=np.int64) & 0xFF).astype(np.uint8)


def as_int8(i):
    return low_byte(i).view(np.int8).astype(np.int64)


def nearest_int(v):
    """ggml's nearest_int: the low mantissa bits of v + 1.5 * 2^23."""
    s = (f(v) + F(12582912.0)).astype(F)
    return (s.view(np.int32).astype(np.int64) & 0x7FFFFF) - 0x400000


def divide(a, b):
    with np.errstate(all="ignore"):
        return (f(a) / f(b)).astype(F)


def inverse(d):
    """ggml's `d ? 1.0f/d : 0.0f`."""
    with np.errstate(all="ignore"):
        return np.where(d != 0, F(1) / np.where(d != 0, d, F(1)), F(0)).astype(F)


def seq_sum(terms):
    """Sum over the last axis one element at a time, from 0, in float32 (ggml's loops)."""
    s = np.zeros(terms.shape[:-1], dtype=F)
    for i in range(terms.shape[-1]):
        s = (s + terms[..., i]).astype(F)
    return s


def signed_absmax(x):
    """(amax, max): the first element of largest magnitude, by ggml's strict `amax < |v|`."""
    amax = np.zeros(x.shape[:-1], dtype=F)
    mx = np.zeros(x.shape[:-1], dtype=F)
    for j in range(x.shape[-1]):
        a = np.abs(x[..., j])
        take = a > amax
        amax = np.where(take, a, amax)
        mx = np.where(take, x[..., j], mx)
    return amax, mx


def running_min_max(x, lo0, hi0):
    lo, hi = lo0, hi0
    for j in range(x.shape[-1]):
        lo = np.where(x[..., j] < lo, x[..., j], lo)
        hi = np.where(x[..., j] > hi, x[..., j], hi)
    return lo, hi


def round_away(v):
    """roundf: halves away from zero (in float64, where |v| + 0.5 is exact)."""
    v = f(v)
    with np.errstate(invalid="ignore"):
        r = np.floor(np.abs(v).astype(np.float64) + 0.5)
        return np.where(np.abs(v) < 8388608, np.copysign(r, v), v).astype(F)


# ---- 32-element types ----------------------------------------------------------------

def pack_nibbles(lo, hi):
    return (lo.astype(np.uint8) & 0xFF) | ((hi.astype(np.int64) << 4) & 0xFF).astype(np.uint8)


def level(v, bias, top):
    q = as_int8(trunc_i32((f(v) + F(bias)).astype(F)))
    return np.minimum(q, top) & 0xFF


def q4_0(x):
    _, mx = signed_absmax(x)
    d = divide(mx, F(-8))
    idv = inverse(d)[:, None]
    v = (x * idv).astype(F)
    q = level(v, 8.5, 15)
    return np.concatenate([f16_bytes(d), pack_nibbles(q[:, :16], q[:, 16:])], 1)


def minmax_block(x):
    n = x.shape[0]
    return running_min_max(x, np.full(n, np.finfo(F).max, F), np.full(n, -np.finfo(F).max, F))


def q4_1(x):
    mn, mx = minmax_block(x)
    d = divide((mx - mn).astype(F), F(15))
    idv = inverse(d)[:, None]
    v = ((x - mn[:, None]).astype(F) * idv).astype(F)
    q = level(v, 0.5, 15)
    return np.concatenate([f16_bytes(d), f16_bytes(mn), pack_nibbles(q[:, :16], q[:, 16:])], 1)


def high_bits(q):
    qh = np.zeros(len(q), np.uint32)
    for j in range(32):
        qh |= (((q[:, j] >> 4) & 1).astype(np.uint32)) << np.uint32(j)
    return qh.reshape(-1, 1).view(np.uint8)


def q5_0(x):
    _, mx = signed_absmax(x)
    d = divide(mx, F(-16))
    idv = inverse(d)[:, None]
    q = level((x * idv).astype(F), 16.5, 31)
    return np.concatenate([f16_bytes(d), high_bits(q), pack_nibbles(q[:, :16] & 15, q[:, 16:] & 15)], 1)


def q5_1(x):
    mn, mx = minmax_block(x)
    d = divide((mx - mn).astype(F), F(31))
    idv = inverse(d)[:, None]
    v = ((x - mn[:, None]).astype(F) * idv).astype(F)
    q = low_byte(trunc_i32((v + F(0.5)).astype(F))).astype(np.int64)
    return np.concatenate([f16_bytes(d), f16_bytes(mn), high_bits(q), pack_nibbles(q[:, :16] & 15, q[:, 16:] & 15)], 1)


def q8_0(x):
    amax = np.abs(x).max(1)
    d = divide(amax, F(127))
    idv = inverse(d)[:, None]
    q = low_byte(trunc_i32(round_away((x * idv).astype(F))))
    return np.concatenate([f16_bytes(d), q], 1)


# ---- the searches of the K types ---------------------------------------------------------

def weighted_error(L, X, W, scale, mn, mad):
    diff = ((scale[:, None] * L.astype(F)).astype(F) + mn[:, None]).astype(F)
    diff = (diff - X).astype(F)
    diff = np.abs(diff) if mad else (diff * diff).astype(F)
    return seq_sum((W * diff).astype(F))


def make_qkx2(X, W, nmax, rmin, rdelta, nstep, mad):
    """(scale, -min, L) per row of X, ggml's make_qkx2_quants."""
    with np.errstate(all="ignore"):
        lo, hi = running_min_max(X[:, 1:], X[:, 0].copy(), X[:, 0].copy())
        sum_w = W[:, 0].copy()
        sum_x = (sum_w * X[:, 0]).astype(F)
        for i in range(1, X.shape[1]):
            sum_w = (sum_w + W[:, i]).astype(F)
            sum_x = (sum_x + (W[:, i] * X[:, i]).astype(F)).astype(F)
        mn = np.where(lo > 0, F(0), lo).astype(F)
        mn0 = mn
        flat = hi == mn
        iscale = divide(F(nmax), (hi - mn).astype(F))
        scale = divide(F(1), iscale)

        def levels(isc, m):
            return np.clip(nearest_int((isc[:, None] * (X - m[:, None]).astype(F)).astype(F)), 0, nmax)

        L = levels(iscale, mn)
        best = weighted_error(L, X, W, scale, mn, mad)
        for k in range(nstep + 1):
            isc = divide((F(rmin) + (F(rdelta) * F(k)).astype(F) + F(nmax)).astype(F), (hi - mn).astype(F))
            la = levels(isc, mn)
            lf = la.astype(F)
            wl = (W * lf).astype(F)
            sum_l = seq_sum(wl)
            sum_l2 = seq_sum((wl * lf).astype(F))
            sum_xl = seq_sum((wl * X).astype(F))
            D = ((sum_w * sum_l2).astype(F) - (sum_l * sum_l).astype(F)).astype(F)
            t_scale = divide(((sum_w * sum_xl).astype(F) - (sum_x * sum_l).astype(F)).astype(F), D)
            t_min = divide(((sum_l2 * sum_x).astype(F) - (sum_l * sum_xl).astype(F)).astype(F), D)
            pos = t_min > 0
            t_min = np.where(pos, F(0), t_min).astype(F)
            t_scale = np.where(pos, divide(sum_xl, sum_l2), t_scale).astype(F)
            cur = weighted_error(la, X, W, t_scale, t_min, mad)
            better = (D > 0) & (cur < best)
            L = np.where(better[:, None], la, L)
            best = np.where(better, cur, best)
            scale = np.where(better, t_scale, scale)
            mn = np.where(better, t_min, mn)
    L = np.where(flat[:, None], 0, L)
    scale = np.where(flat, F(0), scale).astype(F)
    return scale, (-np.where(flat, mn0, mn)).astype(F), L


def sym_sums(X, iscale, nmax):
    l = np.clip(nearest_int((iscale[:, None] * X).astype(F)), -nmax, nmax - 1)
    lf = l.astype(F)
    w = (X * X).astype(F)
    sumlx = seq_sum((((w * X).astype(F)) * lf).astype(F))
    suml2 = seq_sum((((w * lf).astype(F)) * lf).astype(F))
    return l, sumlx, suml2


def make_qx(X, nmax):
    """(scale, L + nmax) per row, ggml's make_qx_quants with rmse_type 1 and no weights."""
    with np.errstate(all="ignore"):
        amax, mx = signed_absmax(X)
        zero = amax < F(1e-15)
        safe = np.where(zero, F(1), mx).astype(F)
        l, sumlx, suml2 = sym_sums(X, divide(F(-nmax), safe), nmax)
        L = l + nmax
        scale = np.where(suml2 != 0, divide(sumlx, suml2), F(0)).astype(F)
        best = (scale * sumlx).astype(F)
        for k in range(-9, 10):
            if k == 0:
                continue
            isc = divide((-(F(nmax) + (F(0.1) * F(k)).astype(F))).astype(F), safe)
            l, sumlx, suml2 = sym_sums(X, isc, nmax)
            take = (suml2 > 0) & ((sumlx * sumlx).astype(F) > (best * suml2).astype(F))
            L = np.where(take[:, None], l + nmax, L)
            scale = np.where(take, divide(sumlx, suml2), scale).astype(F)
            best = np.where(take, (scale * sumlx).astype(F), best).astype(F)
    return np.where(zero, F(0), scale).astype(F), np.where(zero[:, None], 0, L)


def make_q3(X, nmax):
    """(scale, L + nmax) per row, ggml's make_q3_quants with do_rmse."""
    with np.errstate(all="ignore"):
        amax, mx = signed_absmax(X)
        zero = amax < F(1e-15)
        safe = np.where(zero, F(1), mx).astype(F)
        L, sumlx, suml2 = sym_sums(X, divide(F(-nmax), safe), nmax)
        W = (X * X).astype(F)
        for _ in range(5):
            changed = np.zeros(len(X), bool)
            for i in range(X.shape[1]):
                w, x, li = W[:, i], X[:, i], L[:, i].astype(F)
                slx = (sumlx - ((w * x).astype(F) * li).astype(F)).astype(F)
                sl2 = (suml2 - ((w * li).astype(F) * li).astype(F)).astype(F)
                nl = np.clip(nearest_int(divide((x * sl2).astype(F), slx)), -nmax, nmax - 1)
                nf = nl.astype(F)
                slx2 = (slx + ((w * x).astype(F) * nf).astype(F)).astype(F)
                sl22 = (sl2 + ((w * nf).astype(F) * nf).astype(F)).astype(F)
                lhs = ((slx2 * slx2).astype(F) * suml2).astype(F)
                rhs = ((sumlx * sumlx).astype(F) * sl22).astype(F)
                take = (slx > 0) & (nl != L[:, i]) & (sl22 > 0) & (lhs > rhs)
                L[:, i] = np.where(take, nl, L[:, i])
                sumlx = np.where(take, slx2, sumlx)
                suml2 = np.where(take, sl22, suml2)
                changed |= take
            if not changed.any():
                break
            # rows that changed nothing stop sweeping in C: later sweeps change nothing for them
            # either (the same state gives the same decisions), so going on is harmless
        scale = np.where(suml2 > 0, divide(sumlx, suml2), F(0)).astype(F)
    return np.where(zero, F(0), scale).astype(F), np.where(zero[:, None], 0, L + nmax)


def pack2(L):
    out = []
    for h in range(2):
        c = L[:, 128 * h: 128 * h + 128].astype(np.int64)
        out.append((c[:, 0:32] | (c[:, 32:64] << 2) | (c[:, 64:96] << 4) | (c[:, 96:128] << 6)) & 0xFF)
    return np.concatenate(out, 1).astype(np.uint8)


def requant(X, d, dm, lo, hi):
    """Levels against rounded scales: nearest((x + dm) / d), where d is not 0 (else None)."""
    v = divide((X + dm[..., None]).astype(F), np.where(d == 0, F(1), d)[..., None])
    return np.clip(nearest_int(v), lo, hi)


# ---- the K types ------------------------------------------------------------------------------

def q2_k(x):
    nb = len(x)
    X = x.reshape(nb * 16, 16)
    scales, mins, L = make_qkx2(X, np.abs(X), 3, -0.5, 0.1, 15, True)
    scales, mins, L = scales.reshape(nb, 16), mins.reshape(nb, 16), L.reshape(nb, 16, 16)
    max_scale = np.maximum(scales.max(1), F(0))
    max_min = np.maximum(mins.max(1), F(0))
    sc = np.where((max_scale > 0)[:, None], nearest_int((divide(F(15), np.where(max_scale > 0, max_scale, F(1)))[:, None] * scales).astype(F)), 0)
    d = np.where(max_scale > 0, divide(max_scale, F(15)), F(0)).astype(F)
    mq = np.where((max_min > 0)[:, None], nearest_int((divide(F(15), np.where(max_min > 0, max_min, F(1)))[:, None] * mins).astype(F)), 0)
    sc = (sc | (mq << 4)) & 0xFF
    dmin = np.where(max_min > 0, divide(max_min, F(15)), F(0)).astype(F)
    dd = (f16_round(d)[:, None] * (sc & 0xF).astype(F)).astype(F)
    dm = (f16_round(dmin)[:, None] * (sc >> 4).astype(F)).astype(F)
    L = np.where((dd != 0)[:, :, None], requant(x.reshape(nb, 16, 16), dd, dm, 0, 3), L)
    return np.concatenate([sc.astype(np.uint8), pack2(L.reshape(nb, 256)), f16_bytes(d), f16_bytes(dmin)], 1)


def q3_k(x):
    nb = len(x)
    scales, L = make_q3(x.reshape(nb * 16, 16), 4)
    scales, L = scales.reshape(nb, 16), L.reshape(nb, 16, 16)
    amax = np.zeros(nb, F)
    max_scale = np.zeros(nb, F)
    for j in range(16):
        take = np.abs(scales[:, j]) > amax
        amax = np.where(take, np.abs(scales[:, j]), amax)
        max_scale = np.where(take, scales[:, j], max_scale)
    has = max_scale != 0
    iscale = divide(F(-32), np.where(has, max_scale, F(1)))
    l = np.clip(as_int8(nearest_int((iscale[:, None] * scales).astype(F))), -32, 31) + 32
    l = np.where(has[:, None], l, 0)
    s = np.zeros((nb, 12), np.int64)
    for j in range(16):
        if j < 8:
            s[:, j] |= l[:, j] & 0xF
        else:
            s[:, j - 8] |= (l[:, j] & 0xF) << 4
        s[:, 8 + j % 4] |= (l[:, j] >> 4) << (2 * (j // 4))
    d = np.where(has, divide(F(1), iscale), F(0)).astype(F)
    sc = np.zeros((nb, 16), np.int64)
    for j in range(16):
        lo = s[:, j] & 0xF if j < 8 else s[:, j - 8] >> 4
        sc[:, j] = as_int8(lo | (((s[:, 8 + j % 4] >> (2 * (j // 4))) & 3) << 4)) - 32
    dd = (f16_round(d)[:, None] * sc.astype(F)).astype(F)
    L = np.where((dd != 0)[:, :, None], requant(x.reshape(nb, 16, 16), dd, np.zeros_like(dd), -4, 3) + 4, L)
    L = L.reshape(nb, 256)
    hm = np.zeros((nb, 32), np.int64)
    for j in range(256):
        hi = L[:, j] > 3
        hm[:, j % 32] |= np.where(hi, 1 << (j // 32), 0)
        L[:, j] = np.where(hi, L[:, j] - 4, L[:, j])
    return np.concatenate([hm.astype(np.uint8), pack2(L), (s & 0xFF).astype(np.uint8), f16_bytes(d)], 1)


def scale_min_k4(s, j):
    if j < 4:
        return s[:, j] & 63, s[:, j + 4] & 63
    return (s[:, j + 4] & 0xF) | ((s[:, j - 4] >> 6) << 4), (s[:, j + 4] >> 4) | ((s[:, j] >> 6) << 4)


def k4_scales(x, nmax, rmin, nstep):
    nb = len(x)
    X = x.reshape(nb * 8, 32)
    av = np.sqrt(divide(seq_sum((X * X).astype(F)), F(32))).astype(F)
    W = (av[:, None] + np.abs(X)).astype(F)
    scales, mins, L = make_qkx2(X, W, nmax, rmin, 0.1, nstep, False)
    scales, mins, L = scales.reshape(nb, 8), mins.reshape(nb, 8), L.reshape(nb, 8, 32)
    max_scale = np.maximum(scales.max(1), F(0))
    max_min = np.maximum(mins.max(1), F(0))
    inv_s = np.where(max_scale > 0, divide(F(63), np.where(max_scale > 0, max_scale, F(1))), F(0)).astype(F)
    inv_m = np.where(max_min > 0, divide(F(63), np.where(max_min > 0, max_min, F(1))), F(0)).astype(F)
    ls = np.minimum(nearest_int((inv_s[:, None] * scales).astype(F)) & 0xFF, 63)
    lm = np.minimum(nearest_int((inv_m[:, None] * mins).astype(F)) & 0xFF, 63)
    s = mtf.pack_scales_k4(ls.astype(np.uint8), lm.astype(np.uint8)).astype(np.int64)   # make_test_files' layout
    d, dmin = divide(max_scale, F(63)), divide(max_min, F(63))
    dd, dm = np.zeros((nb, 8), F), np.zeros((nb, 8), F)
    for j in range(8):
        sc, m = scale_min_k4(s, j)
        dd[:, j] = (f16_round(d) * sc.astype(F)).astype(F)
        dm[:, j] = (f16_round(dmin) * m.astype(F)).astype(F)
    L = np.where((dd != 0)[:, :, None], requant(x.reshape(nb, 8, 32), dd, dm, 0, nmax), L).reshape(nb, 256)
    return np.concatenate([f16_bytes(d), f16_bytes(dmin), s.astype(np.uint8)], 1), L


def q4_k(x):
    head, L = k4_scales(x, 15, -1.0, 20)
    qs = np.concatenate([L[:, j:j + 32] | (L[:, j + 32:j + 64] << 4) for j in range(0, 256, 64)], 1)
    return np.concatenate([head, (qs & 0xFF).astype(np.uint8)], 1)


def q5_k(x):
    head, L = k4_scales(x, 31, -0.5, 15)
    qh = np.zeros((len(x), 32), np.int64)
    ql = []
    for c, n in enumerate(range(0, 256, 64)):
        l1, l2 = L[:, n:n + 32].copy(), L[:, n + 32:n + 64].copy()
        qh |= np.where(l1 > 15, 1 << (2 * c), 0) | np.where(l2 > 15, 2 << (2 * c), 0)
        l1 = np.where(l1 > 15, l1 - 16, l1)
        l2 = np.where(l2 > 15, l2 - 16, l2)
        ql.append((l1 | (l2 << 4)) & 0xFF)
    return np.concatenate([head, qh.astype(np.uint8), np.concatenate(ql, 1).astype(np.uint8)], 1)


def q6_k(x):
    nb = len(x)
    scales, L = make_qx(x.reshape(nb * 16, 16), 32)
    scales, L = scales.reshape(nb, 16), L.reshape(nb, 16, 16)
    amax = np.zeros(nb, F)
    max_scale = np.zeros(nb, F)
    for j in range(16):
        take = np.abs(scales[:, j]) > amax
        amax = np.where(take, np.abs(scales[:, j]), amax)
        max_scale = np.where(take, scales[:, j], max_scale)
    zero = amax < F(1e-15)
    iscale = divide(F(-128), np.where(zero, F(1), max_scale))
    d = divide(F(1), iscale)
    sc = as_int8(np.minimum(127, nearest_int((iscale[:, None] * scales).astype(F))))
    dd = (f16_round(d)[:, None] * sc.astype(F)).astype(F)
    L = np.where((dd != 0)[:, :, None], requant(x.reshape(nb, 16, 16), dd, np.zeros_like(dd), -32, 31) + 32, L)
    L = L.reshape(nb, 256)
    ql = np.zeros((nb, 128), np.int64)
    qh = np.zeros((nb, 64), np.int64)
    for h in range(2):
        c = L[:, 128 * h: 128 * h + 128]
        ql[:, 64 * h: 64 * h + 32] = (c[:, 0:32] & 0xF) | ((c[:, 64:96] & 0xF) << 4)
        ql[:, 64 * h + 32: 64 * h + 64] = (c[:, 32:64] & 0xF) | ((c[:, 96:128] & 0xF) << 4)
        qh[:, 32 * h: 32 * h + 32] = (c[:, 0:32] >> 4) | ((c[:, 32:64] >> 4) << 2) | ((c[:, 64:96] >> 4) << 4) | ((c[:, 96:128] >> 4) << 6)
    out = np.concatenate([ql & 0xFF, qh & 0xFF, sc & 0xFF], 1).astype(np.uint8)
    out = np.concatenate([out, f16_bytes(d)], 1)
    out[zero] = 0
    return out


QUANT = dict(q4_0=q4_0, q4_1=q4_1, q5_0=q5_0, q5_1=q5_1, q8_0=q8_0, q2_k=q2_k, q3_k=q3_k, q4_k=q4_k, q5_k=q5_k, q6_k=q6_k)


def quantize(x, name):
    bs, nbytes = TYPES[name]
    x = np.ascontiguousarray(x, dtype=F).reshape(-1, bs)
    out = QUANT[name](x)
    assert out.shape == (len(x), nbytes), (name, out.shape)
    return out
