/* shape.c — shaping tensors: concat, stack, split, tile, repeat, flatten */
#include <string.h>

#include "ops.h"
#include "tensor.h"

/* A view of t with shape `shape` except along `axis`: [start, start + len). */
static tl_tensor *region(const tl_tensor *t, const int64_t *shape, int axis, int64_t start, int64_t len)
{
    int64_t sub[TL_MAXDIM];
    memcpy(sub, shape, (size_t)t->ndim * sizeof *sub);
    sub[axis] = len;
    return tl_tensor_view_of(t->storage, t->dtype, t->ndim, sub, t->strides,
                             t->offset + (len > 0 ? start * t->strides[axis] : 0));
}

/* dst = src, then drops the view; -1 on failure. */
static int assign_into(tl_tensor *dst, const tl_tensor *src)
{
    if (!dst) return -1;
    int rc = tl_assign(dst, src);
    tl_tensor_release(dst);
    return rc;
}

tl_tensor *tl_concat(int n, tl_tensor *const *ts, int axis) { return tl_concat_to(n, ts, axis, NULL); }

tl_tensor *tl_concat_to(int n, tl_tensor *const *ts, int axis, tl_tensor *into)
{
    if (n <= 0) {
        tl_seterr(ValueError, "need at least one tensor to concatenate");
        return NULL;
    }
    const tl_tensor *t0 = ts[0];
    if (t0->ndim == 0) {
        tl_seterr(ShapeError, "zero-dimensional tensors cannot be concatenated");
        return NULL;
    }
    if (tl_normalize_axis(axis, t0->ndim, &axis) < 0) return NULL;
    int64_t shape[TL_MAXDIM];
    memcpy(shape, t0->shape, sizeof shape);
    tl_dtype dt = t0->dtype;
    for (int i = 1; i < n; i++) {
        const tl_tensor *t = ts[i];
        char s0[TL_MAXDIM * 24 + 8], si[TL_MAXDIM * 24 + 8];
        if (t->ndim != t0->ndim) {
            tl_seterr(ShapeError, "cannot concatenate %s (tensor 0) and %s (tensor %d): %d and %d dimensions; all must have as many",
                      tl_shape_str(t0->ndim, t0->shape, s0, sizeof s0), tl_shape_str(t->ndim, t->shape, si, sizeof si), i, t0->ndim,
                      t->ndim);
            return NULL;
        }
        for (int k = 0; k < t->ndim; k++) {
            if (k != axis && t->shape[k] != t0->shape[k]) {
                tl_seterr(ShapeError, "cannot concatenate %s (tensor 0) and %s (tensor %d) along axis %d: dim %d differs (%lld vs %lld); "
                          "every dim but the axis's must match", tl_shape_str(t0->ndim, t0->shape, s0, sizeof s0),
                          tl_shape_str(t->ndim, t->shape, si, sizeof si), i, axis, k, (long long)t0->shape[k], (long long)t->shape[k]);
                return NULL;
            }
        }
        if (__builtin_add_overflow(shape[axis], t->shape[axis], &shape[axis])) {
            tl_seterr(ShapeError, "concatenation is too big");
            return NULL;
        }
        dt = tl_promote(dt, t->dtype);
    }
    tl_tensor *out = tl_tensor_result(into, dt, t0->ndim, shape);
    if (!out) return NULL;
    int64_t pos = 0;
    for (int i = 0; i < n; i++) {
        int64_t len = ts[i]->shape[axis];
        if (len > 0 && tl_tensor_size(out) > 0 && assign_into(region(out, out->shape, axis, pos, len), ts[i]) < 0) {
            tl_tensor_release(out);
            return NULL;
        }
        pos += len;
    }
    return out;
}

tl_tensor *tl_stack(int n, tl_tensor *const *ts, int axis) { return tl_stack_to(n, ts, axis, NULL); }

tl_tensor *tl_stack_to(int n, tl_tensor *const *ts, int axis, tl_tensor *into)
{
    if (n <= 0) {
        tl_seterr(ValueError, "need at least one tensor to stack");
        return NULL;
    }
    const tl_tensor *t0 = ts[0];
    if (t0->ndim + 1 > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", t0->ndim + 1, TL_MAXDIM);
        return NULL;
    }
    if (tl_normalize_axis(axis, t0->ndim + 1, &axis) < 0) return NULL;
    tl_dtype dt = t0->dtype;
    for (int i = 1; i < n; i++) {
        bool same = ts[i]->ndim == t0->ndim &&
                    memcmp(ts[i]->shape, t0->shape, (size_t)t0->ndim * sizeof *t0->shape) == 0;
        if (!same) {
            char s0[TL_MAXDIM * 24 + 8], si[TL_MAXDIM * 24 + 8];
            tl_seterr(ShapeError, "cannot stack %s (tensor 0) and %s (tensor %d): all must have the same shape",
                      tl_shape_str(t0->ndim, t0->shape, s0, sizeof s0), tl_shape_str(ts[i]->ndim, ts[i]->shape, si, sizeof si), i);
            return NULL;
        }
        dt = tl_promote(dt, ts[i]->dtype);
    }
    int64_t shape[TL_MAXDIM];
    memcpy(shape, t0->shape, (size_t)axis * sizeof *shape);
    shape[axis] = n;
    memcpy(shape + axis + 1, t0->shape + axis, (size_t)(t0->ndim - axis) * sizeof *shape);
    tl_tensor *out = tl_tensor_result(into, dt, t0->ndim + 1, shape);
    if (!out || tl_tensor_size(out) == 0) return out;
    for (int i = 0; i < n; i++) {
        if (assign_into(tl_view_index(out, axis, i), ts[i]) < 0) {
            tl_tensor_release(out);
            return NULL;
        }
    }
    return out;
}

/* numpy split with indices: sections t[prev:idx] with slice clamping (so
   negative indices count from the end and decreasing ones give empty parts). */
int tl_split(const tl_tensor *t, int nidx, const int64_t *indices, int axis, tl_tensor **out)
{
    if (t->ndim == 0) {
        tl_seterr(ShapeError, "cannot split a 0-d tensor");
        return -1;
    }
    if (nidx < 0 || tl_normalize_axis(axis, t->ndim, &axis) < 0) return -1;
    for (int i = 0; i <= nidx; i++) {
        int64_t start = i == 0 ? 0 : indices[i - 1], stop = i == nidx ? t->shape[axis] : indices[i];
        out[i] = tl_view_slice(t, axis, start, stop, 1, true, true);
        if (!out[i]) {
            while (i-- > 0) tl_tensor_release(out[i]);
            return -1;
        }
    }
    return 0;
}

/* numpy tile: reps padded with leading 1s to t's ndim (or t promoted to
   len(reps) dims); built by copying t once, then doubling along each axis. */
tl_tensor *tl_tile(const tl_tensor *t, int nreps, const int64_t *reps) { return tl_tile_to(t, nreps, reps, NULL); }

tl_tensor *tl_tile_to(const tl_tensor *t, int nreps, const int64_t *reps, tl_tensor *into)
{
    int d = nreps > t->ndim ? nreps : t->ndim;
    if (nreps < 0 || d > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", d, TL_MAXDIM);
        return NULL;
    }
    int64_t r[TL_MAXDIM], inshape[TL_MAXDIM], outshape[TL_MAXDIM];
    for (int k = 0; k < d; k++) {
        r[k] = k < d - nreps ? 1 : reps[k - (d - nreps)];
        inshape[k] = k < d - t->ndim ? 1 : t->shape[k - (d - t->ndim)];
        if (r[k] < 0) {
            tl_seterr(ValueError, "tile repetitions must be non-negative");
            return NULL;
        }
        if (__builtin_mul_overflow(inshape[k], r[k], &outshape[k])) {
            tl_seterr(ShapeError, "tile result is too big");
            return NULL;
        }
    }
    tl_tensor *c = tl_view_reshape(t, d, inshape, NULL);   /* adding leading 1s never copies */
    tl_tensor *out = c ? tl_tensor_result(into, t->dtype, d, outshape) : NULL;
    if (!out || tl_tensor_size(out) == 0) {
        tl_tensor_release(c);
        return out;
    }
    int64_t cur[TL_MAXDIM];
    memcpy(cur, inshape, sizeof cur);
    int rc = assign_into(region(out, cur, 0, 0, cur[0]), c);
    for (int k = 0; rc == 0 && k < d; k++) {
        int64_t target = cur[k] * r[k];
        for (int64_t filled = cur[k]; rc == 0 && filled < target;) {
            int64_t n = filled < target - filled ? filled : target - filled;
            tl_tensor *src = region(out, cur, k, 0, n);
            rc = src ? assign_into(region(out, cur, k, filled, n), src) : -1;
            tl_tensor_release(src);
            filled += n;
        }
        cur[k] = target;
    }
    tl_tensor_release(c);
    if (rc < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

/* numpy repeat: element i along axis appears repeats[i] times (one count for all when nrepeats == 1). */
tl_tensor *tl_repeat(const tl_tensor *t, const int64_t *repeats, int64_t nrepeats, int axis)
{
    return tl_repeat_to(t, repeats, nrepeats, axis, NULL);
}

tl_tensor *tl_repeat_to(const tl_tensor *t, const int64_t *repeats, int64_t nrepeats, int axis, tl_tensor *into)
{
    tl_tensor *src;
    if (axis == TL_AXIS_NONE) {
        src = tl_reshape(t, 1, (const int64_t[]){ -1 });
        axis = 0;
    } else {
        if (tl_normalize_axis(axis, t->ndim, &axis) < 0) return NULL;
        tl_tensor_retain((tl_tensor *)t);
        src = (tl_tensor *)t;
    }
    if (!src) return NULL;
    tl_tensor *c = tl_contiguous(src), *out = NULL;
    tl_tensor_release(src);
    if (!c) return NULL;
    int64_t n = c->shape[axis], total = 0;
    if (nrepeats != 1 && nrepeats != n) {
        tl_seterr(ShapeError, "repeats has %lld entries but axis %d has size %lld", (long long)nrepeats, axis, (long long)n);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = repeats[nrepeats == 1 ? 0 : i];
        if (r < 0) {
            tl_seterr(ValueError, "repeats may not contain negative values");
            goto done;
        }
        if (__builtin_add_overflow(total, r, &total)) {
            tl_seterr(ShapeError, "repeat result is too big");
            goto done;
        }
    }
    if (n == 0 && nrepeats == 1 && repeats[0] < 0) {
        tl_seterr(ValueError, "repeats may not contain negative values");
        goto done;
    }
    int64_t shape[TL_MAXDIM];
    memcpy(shape, c->shape, sizeof shape);
    shape[axis] = total;
    if (!(out = tl_tensor_result(into, c->dtype, c->ndim, shape)) || tl_tensor_size(out) == 0) goto done;
    int64_t outer = 1, inner = (int64_t)tl_dtype_size(c->dtype);
    for (int k = 0; k < axis; k++) outer *= c->shape[k];
    for (int k = axis + 1; k < c->ndim; k++) inner *= c->shape[k];
    const char *from = tl_tensor_data(c);
    char *to = tl_tensor_data(out);
    for (int64_t o = 0, step = 0; o < outer; o++) {
        for (int64_t i = 0; i < n; i++, from += inner) {
            if ((++step & 0xffff) == 0 && tl_check_interrupt() < 0) {
                tl_tensor_release(out);
                out = NULL;
                goto done;
            }
            for (int64_t j = repeats[nrepeats == 1 ? 0 : i]; j > 0; j--, to += inner) memcpy(to, from, (size_t)inner);
        }
    }
done:
    tl_tensor_release(c);
    return out;
}

tl_tensor *tl_flatten(const tl_tensor *t) { return tl_flatten_to(t, NULL); }

tl_tensor *tl_flatten_to(const tl_tensor *t, tl_tensor *into)
{
    tl_tensor *c = tl_copy_to(t, into);
    if (!c) return NULL;
    int64_t n = tl_tensor_size(c);
    tl_tensor *v = tl_view_reshape(c, 1, &n, NULL);
    tl_tensor_release(c);
    return v;
}
