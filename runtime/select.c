/* select.c — take, take_along_axis, put_along_axis, nonzero and argwhere: gathers built on numpy indexing */
#include <stdlib.h>
#include <string.h>

#include "ops.h"

/* The indices as a fresh i64 tensor (bool counts as 0 and 1 when bool_ok); other dtypes are
   refused unless empty (`[]` is an empty f64 tensor). */
static tl_tensor *int_indices(const tl_tensor *idx, bool bool_ok, const char *what)
{
    if (!tl_is_int(idx->dtype) && !(bool_ok && idx->dtype == TL_BOOL) && tl_tensor_size(idx) > 0) {
        tl_seterr(IndexError, "%s of dtype %s are not integers", what, tl_dtype_name(idx->dtype));
        return NULL;
    }
    return tl_cast(idx, TL_I64);
}

tl_tensor *tl_take(const tl_tensor *a, const tl_tensor *indices, int axis, tl_take_mode mode)
{
    return tl_take_to(a, indices, axis, mode, NULL);
}

tl_tensor *tl_take_to(const tl_tensor *a, const tl_tensor *indices, int axis, tl_take_mode mode, tl_tensor *into)
{
    tl_tensor *src;
    if (axis == TL_AXIS_NONE) {
        src = tl_reshape(a, 1, (int64_t[]){ -1 });
        axis = 0;
    } else {
        if (tl_normalize_axis(axis, a->ndim, &axis) < 0) return NULL;
        src = a->ndim ? tl_view_slice(a, 0, 0, 0, 1, false, false) : NULL;   /* a new header on a */
    }
    if (!src) return NULL;
    tl_tensor *idx = int_indices(indices, true, "indices");
    tl_tensor *r = NULL;
    int64_t n = src->shape[axis], m = idx ? tl_tensor_size(idx) : 0;
    if (idx && n == 0 && m > 0) {
        tl_seterr(IndexError, "cannot do a non-empty take from an empty axis");
    } else if (idx) {
        int64_t *p = m ? tl_tensor_data(idx) : NULL;
        for (int64_t i = 0; i < m && mode != TL_TAKE_RAISE; i++) {
            if (mode == TL_TAKE_WRAP) p[i] = ((p[i] % n) + n) % n;
            else p[i] = p[i] < 0 ? 0 : p[i] >= n ? n - 1 : p[i];
        }
        tl_index_item items[TL_MAXDIM];
        for (int d = 0; d < axis; d++) items[d] = (tl_index_item){ .kind = TL_IDX_SLICE, .step = 1 };
        if (idx->ndim == 0) items[axis] = (tl_index_item){ .kind = TL_IDX_INT, .i = p[0] };
        else items[axis] = (tl_index_item){ .kind = TL_IDX_TENSOR, .tensor = idx };
        r = tl_index_get_to(src, axis + 1, items, into);
    }
    tl_tensor_release(src);
    if (idx) tl_tensor_release(idx);
    return r;
}

/* numpy's take_along_axis index: for each axis but `axis` an arange shaped to broadcast along
   that axis alone, and the indices at `axis`. Fills items and the aranges (n of them, to release). */
static int along_items(const tl_tensor *a, const tl_tensor *idx, int axis, tl_index_item *items, tl_tensor **ar)
{
    int nd = a->ndim;
    for (int d = 0; d < nd; d++) ar[d] = NULL;
    for (int d = 0; d < nd; d++) {
        if (d == axis) {
            items[d] = (tl_index_item){ .kind = TL_IDX_TENSOR, .tensor = idx };
            continue;
        }
        int64_t shape[TL_MAXDIM];
        for (int e = 0; e < nd; e++) shape[e] = e == d ? a->shape[d] : 1;
        tl_tensor *r = tl_arange(0, (double)a->shape[d], 1, TL_I64);
        ar[d] = r ? tl_reshape(r, nd, shape) : NULL;
        if (r) tl_tensor_release(r);
        if (!ar[d]) return -1;
        items[d] = (tl_index_item){ .kind = TL_IDX_TENSOR, .tensor = ar[d] };
    }
    return 0;
}

/* Shared by take_along_axis and put_along_axis: checks, then the index; *flat is a when axis is
   given, else a flattened (a view when it can be, which put_along_axis requires). */
static int along_setup(const tl_tensor *a, const tl_tensor *indices, int *axis, tl_tensor **flat, tl_tensor **idx)
{
    *flat = *idx = NULL;
    if (*axis == TL_AXIS_NONE) {
        if (indices->ndim != 1) {
            tl_seterr(ValueError, "indices must be 1-d when axis is none, not %d-d", indices->ndim);
            return -1;
        }
        *flat = tl_reshape(a, 1, (int64_t[]){ -1 });
        *axis = 0;
    } else {
        if (tl_normalize_axis(*axis, a->ndim, axis) < 0) return -1;
        if (indices->ndim != a->ndim) {
            tl_seterr(ValueError, "indices (%d-d) and the tensor (%d-d) must have the same number of dimensions",
                      indices->ndim, a->ndim);
            return -1;
        }
        *flat = tl_view_slice(a, 0, 0, 0, 1, false, false);
    }
    if (!*flat) return -1;
    *idx = int_indices(indices, false, "indices");
    return *idx ? 0 : -1;
}

tl_tensor *tl_take_along_axis(const tl_tensor *a, const tl_tensor *indices, int axis)
{
    return tl_take_along_axis_to(a, indices, axis, NULL);
}

tl_tensor *tl_take_along_axis_to(const tl_tensor *a, const tl_tensor *indices, int axis, tl_tensor *into)
{
    tl_tensor *src, *idx, *ar[TL_MAXDIM] = { NULL };
    tl_index_item items[TL_MAXDIM];
    tl_tensor *r = NULL;
    if (along_setup(a, indices, &axis, &src, &idx) == 0 && along_items(src, idx, axis, items, ar) == 0)
        r = tl_index_get_to(src, src->ndim, items, into);
    for (int d = 0; src && d < src->ndim; d++)
        if (ar[d]) tl_tensor_release(ar[d]);
    if (src) tl_tensor_release(src);
    if (idx) tl_tensor_release(idx);
    return r;
}

int tl_put_along_axis(tl_tensor *a, const tl_tensor *indices, const tl_tensor *values, int axis)
{
    if (axis == TL_AXIS_NONE && !tl_is_contiguous(a)) {   /* the flattened view must be a itself */
        tl_seterr(ValueError, "put_along_axis with axis none needs a contiguous tensor");
        return -1;
    }
    tl_tensor *dst, *idx, *ar[TL_MAXDIM] = { NULL };
    tl_index_item items[TL_MAXDIM];
    int rc = -1;
    if (along_setup(a, indices, &axis, &dst, &idx) == 0 && along_items(dst, idx, axis, items, ar) == 0)
        rc = tl_index_set(dst, dst->ndim, items, values);
    for (int d = 0; dst && d < dst->ndim; d++)
        if (ar[d]) tl_tensor_release(ar[d]);
    if (dst) tl_tensor_release(dst);
    if (idx) tl_tensor_release(idx);
    return rc;
}

tl_tensor *tl_argwhere(const tl_tensor *a)
{
    tl_tensor *b = tl_cast(a, TL_BOOL);   /* contiguous; nan is true, as numpy */
    if (!b) return NULL;
    int64_t n = tl_tensor_size(b), count = 0;
    const uint8_t *p = n ? tl_tensor_data(b) : NULL;
    for (int64_t i = 0; i < n; i++) count += p[i] != 0;
    int nd = a->ndim;
    tl_tensor *r = tl_tensor_empty(TL_I64, 2, (int64_t[]){ count, nd });
    if (r && count && nd) {
        int64_t *out = tl_tensor_data(r), at[TL_MAXDIM] = { 0 };
        for (int64_t i = 0; i < n; i++) {
            if (p[i]) {
                memcpy(out, at, sizeof(int64_t) * (size_t)nd);
                out += nd;
            }
            for (int d = nd - 1; d >= 0 && ++at[d] == a->shape[d]; d--) at[d] = 0;   /* C order */
        }
    }
    tl_tensor_release(b);
    return r;
}

int tl_nonzero(const tl_tensor *a, tl_tensor **out)
{
    tl_tensor *one = a->ndim ? NULL : tl_reshape(a, 1, (int64_t[]){ 1 });   /* numpy 1.24: a 0-d as 1-d */
    if (!a->ndim && !one) return -1;
    tl_tensor *w = tl_argwhere(one ? one : a);
    if (one) tl_tensor_release(one);
    if (!w) return -1;
    int nd = (int)w->shape[1];
    int64_t count = w->shape[0];
    const int64_t *p = count ? tl_tensor_data(w) : NULL;
    for (int d = 0; d < nd; d++) {
        out[d] = tl_tensor_empty(TL_I64, 1, &count);
        if (!out[d]) {
            for (int e = 0; e < d; e++) tl_tensor_release(out[e]);
            tl_tensor_release(w);
            return -1;
        }
        int64_t *o = count ? tl_tensor_data(out[d]) : NULL;
        for (int64_t i = 0; i < count; i++) o[i] = p[i * nd + d];
    }
    tl_tensor_release(w);
    return nd;
}
