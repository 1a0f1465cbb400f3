/* rearrange.c — new tensors made by moving another's elements: roll, pad, tril/triu, diag */
#include <string.h>

#include "ops.h"
#include "tensor.h"

/* The part of t along axis in [start, start + len), other axes whole (a view). */
static tl_tensor *band(const tl_tensor *t, int axis, int64_t start, int64_t len)
{
    return tl_view_slice(t, axis, start, start + len, 1, true, true);
}

/* dst's band [dstart, dstart + len) along axis = src's band [sstart, sstart + len); -1 on failure. */
static int copy_band(tl_tensor *dst, int64_t dstart, const tl_tensor *src, int64_t sstart, int axis, int64_t len)
{
    if (len <= 0) return 0;
    tl_tensor *d = band(dst, axis, dstart, len), *s = d ? band(src, axis, sstart, len) : NULL;
    int rc = s ? tl_assign(d, s) : -1;
    if (s) tl_tensor_release(s);
    if (d) tl_tensor_release(d);
    return rc;
}

tl_tensor *tl_roll(const tl_tensor *t, int n, const int64_t *shifts, const int *axes)
{
    return tl_roll_to(t, n, shifts, axes, NULL);
}

/* Each shifted axis moves the previous step's tensor (t itself at first) into a new one,
   the last into `into`; with nothing shifted, a copy (numpy's roll always returns a new tensor). */
tl_tensor *tl_roll_to(const tl_tensor *t, int n, const int64_t *shifts, const int *axes, tl_tensor *into)
{
    int64_t net[TL_MAXDIM] = { 0 };
    int last = -1;
    for (int i = 0; i < n; i++) {
        int64_t len = t->shape[axes[i]];
        if (len > 0) net[axes[i]] = ((net[axes[i]] + shifts[i] % len) % len + len) % len;
    }
    for (int ax = 0; ax < t->ndim; ax++)
        if (net[ax]) last = ax;
    if (last < 0) return tl_copy_to(t, into);
    tl_tensor *cur = (tl_tensor *)t;
    tl_tensor_retain(cur);
    for (int ax = 0; ax <= last && cur; ax++) {
        int64_t s = net[ax], len = t->shape[ax];
        if (s == 0) continue;
        tl_tensor *next = ax == last ? tl_tensor_result(into, t->dtype, t->ndim, t->shape) : tl_tensor_empty(t->dtype, t->ndim, t->shape);
        if (next && (copy_band(next, s, cur, 0, ax, len - s) < 0 || copy_band(next, 0, cur, len - s, ax, s) < 0)) {
            tl_tensor_release(next);
            next = NULL;
        }
        tl_tensor_release(cur);
        cur = next;
    }
    return cur;
}

/* Where pad position p (relative to the first original element; p < 0 or p >= len) reads from, in [0, len). */
static int64_t pad_source(tl_pad_mode mode, int64_t p, int64_t len)
{
    switch (mode) {
    case TL_PAD_EDGE: return p < 0 ? 0 : len - 1;
    case TL_PAD_WRAP: return ((p % len) + len) % len;
    case TL_PAD_REFLECT: {   /* mirror about the edge elements: period 2 (len - 1) */
        if (len == 1) return 0;
        int64_t period = 2 * (len - 1), q = ((p % period) + period) % period;
        return q < len ? q : period - q;
    }
    case TL_PAD_SYMMETRIC: { /* mirror including the edge elements: period 2 len */
        int64_t period = 2 * len, q = ((p % period) + period) % period;
        return q < len ? q : period - 1 - q;
    }
    default: return 0;
    }
}

const char *tl_pad_mode_name(tl_pad_mode mode)
{
    static const char *const names[] = { "constant", "edge", "reflect", "symmetric", "wrap" };
    return mode >= 0 && mode <= TL_PAD_WRAP ? names[mode] : "?";
}

/* Fills the pad bands of out along axis (the rest of out is already final along the earlier axes). */
static int pad_axis(tl_tensor *out, int axis, int64_t before, int64_t len, tl_pad_mode mode, const tl_tensor *const *values)
{
    int64_t after = out->shape[axis] - before - len;
    if (mode == TL_PAD_CONSTANT) {
        for (int side = 0; side < 2; side++) {
            int64_t w = side ? after : before;
            if (w == 0) continue;
            tl_tensor *d = band(out, axis, side ? before + len : 0, w);
            int rc = d ? tl_assign(d, values[side]) : -1;
            if (d) tl_tensor_release(d);
            if (rc < 0) return -1;
        }
        return 0;
    }
    /* one slab at a time: later slabs of a wide pad read the original band only, so order does not matter */
    for (int64_t j = 0; j < before + after; j++) {
        int64_t pos = j < before ? j : before + len + (j - before);
        if (copy_band(out, pos, out, before + pad_source(mode, pos - before, len), axis, 1) < 0) return -1;
    }
    return 0;
}

tl_tensor *tl_pad(const tl_tensor *t, const int64_t (*widths)[2], tl_pad_mode mode, const tl_tensor *const *values)
{
    return tl_pad_to(t, widths, mode, values, NULL);
}

tl_tensor *tl_pad_to(const tl_tensor *t, const int64_t (*widths)[2], tl_pad_mode mode, const tl_tensor *const *values,
                     tl_tensor *into)
{
    int64_t shape[TL_MAXDIM];
    for (int k = 0; k < t->ndim; k++) {
        if (widths[k][0] < 0 || widths[k][1] < 0) {
            tl_seterr(ValueError, "pad(): pad widths must not be negative");
            return NULL;
        }
        if (t->shape[k] == 0 && mode != TL_PAD_CONSTANT && (widths[k][0] || widths[k][1])) {
            tl_seterr(ValueError, "pad(): cannot extend the empty axis %d with mode \"%s\" (only \"constant\")", k,
                      tl_pad_mode_name(mode));
            return NULL;
        }
        if (__builtin_add_overflow(t->shape[k], widths[k][0], &shape[k]) ||
            __builtin_add_overflow(shape[k], widths[k][1], &shape[k])) {
            tl_seterr(MemoryError, "pad(): the result is too large");
            return NULL;
        }
    }
    tl_tensor *out = tl_tensor_result(into, t->dtype, t->ndim, shape);
    if (!out || tl_tensor_size(out) == 0) return out;
    tl_tensor *inner = out;
    tl_tensor_retain(out);
    for (int k = 0; k < t->ndim && inner; k++) {
        tl_tensor *next = band(inner, k, widths[k][0], t->shape[k]);
        tl_tensor_release(inner);
        inner = next;
    }
    int rc = inner ? tl_assign(inner, t) : -1;
    if (inner) tl_tensor_release(inner);
    /* axis by axis, as numpy: a later axis's bands span the earlier axes' padding too */
    for (int k = 0; k < t->ndim && rc == 0; k++)
        rc = pad_axis(out, k, widths[k][0], t->shape[k], mode, values + 2 * k);
    if (rc < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

tl_tensor *tl_tri(const tl_tensor *t, int64_t k, bool upper) { return tl_tri_to(t, k, upper, NULL); }

tl_tensor *tl_tri_to(const tl_tensor *t, int64_t k, bool upper, tl_tensor *into)
{
    if (t->ndim == 0) {
        tl_seterr(ValueError, "%s(): the input must have at least one dimension", upper ? "triu" : "tril");
        return NULL;
    }
    /* a 1-d input is taken as the rows of a square matrix, as numpy */
    tl_tensor *m;
    if (t->ndim == 1) {
        tl_tensor *b = tl_view_broadcast_to(t, 2, (int64_t[]){ t->shape[0], t->shape[0] });
        m = b ? tl_copy_to(b, into) : NULL;
        if (b) tl_tensor_release(b);
    } else {
        m = tl_copy_to(t, into);
    }
    if (!m) return NULL;
    int rax = m->ndim - 2, cax = m->ndim - 1;
    int64_t rows = m->shape[rax], cols = m->shape[cax];
    tl_tensor *zero = tl_tensor_zeros(m->dtype, 0, NULL);
    int rc = zero ? 0 : -1;
    /* row i keeps columns j <= i + k (tril) or j >= i + k (triu); the rest becomes 0 */
    for (int64_t i = 0; i < rows && rc == 0 && tl_tensor_size(m) > 0; i++) {
        int64_t edge = i + k;   /* |k| is far below 2^62 for any real shape */
        int64_t lo = upper ? 0 : edge + 1, hi = upper ? edge : cols;
        if (lo < 0) lo = 0;
        if (hi > cols) hi = cols;
        if (lo >= hi) continue;
        tl_tensor *row = tl_view_index(m, rax, i);
        tl_tensor *part = row ? band(row, cax - 1, lo, hi - lo) : NULL;
        rc = part ? tl_assign(part, zero) : -1;
        if (part) tl_tensor_release(part);
        if (row) tl_tensor_release(row);
    }
    if (zero) tl_tensor_release(zero);
    if (rc < 0) {
        tl_tensor_release(m);
        return NULL;
    }
    return m;
}

tl_tensor *tl_diag(const tl_tensor *v, int64_t k) { return tl_diag_to(v, k, NULL); }

tl_tensor *tl_diag_to(const tl_tensor *v, int64_t k, tl_tensor *into)
{
    if (v->ndim == 2) return tl_view_diagonal(v, k, 0, 1);
    if (v->ndim != 1) {
        tl_seterr(ValueError, "diag(): the input must be 1-d or 2-d, not %d-d", v->ndim);
        return NULL;
    }
    int64_t n = v->shape[0], side;   /* n + |k|; -k is taken only once k > INT64_MIN */
    if (k == INT64_MIN || __builtin_add_overflow(n, k < 0 ? -k : k, &side)) {
        tl_seterr(MemoryError, "diag(): the result is too large");
        return NULL;
    }
    tl_tensor *out = tl_tensor_zeros_to(v->dtype, 2, (int64_t[]){ side, side }, into);
    tl_tensor *d = out ? tl_view_diagonal(out, k, 0, 1) : NULL;
    if (!d || tl_assign(d, v) < 0) {
        if (d) tl_tensor_release(d);
        if (out) tl_tensor_release(out);
        return NULL;
    }
    tl_tensor_release(d);
    return out;
}
