/* sort.c — stable sort and argsort along an axis (NaN last ascending, first descending) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kern.h"

/* Keys are compared in a wide type: f64 for real floats, i64 / u64 for
   integers and bool, c128 (as two doubles) for complex. */
static tl_dtype key_dtype(tl_dtype d)
{
    if (tl_is_complex(d)) return TL_C128;
    if (tl_is_float(d)) return TL_F64;
    if (tl_dtype_kind(d) == TL_KIND_UINT || d == TL_BOOL) return TL_U64;
    return TL_I64;
}

/* "a sorts before b" for each key type and direction; NaN counts as largest. */
#define F_ISNAN(p) ((p)[0] != (p)[0])
#define C_ISNAN(p) ((p)[0] != (p)[0] || (p)[1] != (p)[1])
#define LESS_F(a, b) ((a)[0] < (b)[0] || (!F_ISNAN(a) && F_ISNAN(b)))
#define LESS_C(a, b) ((!C_ISNAN(a) && C_ISNAN(b)) || (!C_ISNAN(a) && ((a)[0] < (b)[0] || ((a)[0] == (b)[0] && (a)[1] < (b)[1]))))
#define LESS_I(a, b) ((a)[0] < (b)[0])

/* Stable merge sort of the index array idx[0..n) by key (tmp has n/2+1
   slots). BEFORE(a, b): key a must come before key b. */
#define MERGESORT(NAME, T, W, BEFORE)                                                 \
    static void NAME(int64_t *idx, int64_t *tmp, int64_t n, const T *key)             \
    {                                                                                 \
        if (n < 2) return;                                                            \
        if (n <= 16) {   /* insertion sort: stable, fast on short runs */             \
            for (int64_t i = 1; i < n; i++) {                                         \
                int64_t v = idx[i], j = i;                                            \
                const T *kv = key + W * v;                                            \
                while (j > 0 && BEFORE(kv, key + W * idx[j - 1])) {                   \
                    idx[j] = idx[j - 1];                                              \
                    j--;                                                              \
                }                                                                     \
                idx[j] = v;                                                           \
            }                                                                         \
            return;                                                                   \
        }                                                                             \
        int64_t h = n / 2;                                                            \
        NAME(idx, tmp, h, key);                                                       \
        NAME(idx + h, tmp, n - h, key);                                               \
        memcpy(tmp, idx, (size_t)h * sizeof *idx);                                    \
        int64_t i = 0, j = h, k = 0;                                                  \
        while (i < h && j < n)                                                        \
            idx[k++] = BEFORE(key + W * idx[j], key + W * tmp[i]) ? idx[j++] : tmp[i++]; \
        while (i < h) idx[k++] = tmp[i++];                                            \
    }

/* The same on the keys themselves (sort without indices): W-wide elements. */
#define VALSORT(NAME, T, W, BEFORE)                                                   \
    static void NAME(T *x, T *tmp, int64_t n)                                         \
    {                                                                                 \
        if (n < 2) return;                                                            \
        if (n <= 16) {                                                                \
            for (int64_t i = 1; i < n; i++) {                                         \
                T v[W];                                                               \
                memcpy(v, x + W * i, sizeof v);                                       \
                int64_t j = i;                                                        \
                while (j > 0 && BEFORE(v, x + W * (j - 1))) {                         \
                    memcpy(x + W * j, x + W * (j - 1), sizeof v);                     \
                    j--;                                                              \
                }                                                                     \
                memcpy(x + W * j, v, sizeof v);                                       \
            }                                                                         \
            return;                                                                   \
        }                                                                             \
        int64_t h = n / 2;                                                            \
        NAME(x, tmp, h);                                                              \
        NAME(x + W * h, tmp, n - h);                                                  \
        memcpy(tmp, x, sizeof(T) * W * (size_t)h);                                    \
        int64_t i = 0, j = h, k = 0;                                                  \
        while (i < h && j < n) {                                                      \
            if (BEFORE(x + W * j, tmp + W * i)) memcpy(x + W * k++, x + W * j++, sizeof(T) * W); \
            else memcpy(x + W * k++, tmp + W * i++, sizeof(T) * W);                  \
        }                                                                             \
        if (i < h) memcpy(x + W * k, tmp + W * i, sizeof(T) * W * (size_t)(h - i));  \
    }

#define ASC_F(a, b) LESS_F(a, b)
#define DESC_F(a, b) LESS_F(b, a)
#define ASC_C(a, b) LESS_C(a, b)
#define DESC_C(a, b) LESS_C(b, a)
#define ASC_I(a, b) LESS_I(a, b)
#define DESC_I(a, b) LESS_I(b, a)
#define SORTERS(S, T, W, CMP)                                                         \
    MERGESORT(isort_##S##_asc, T, W, ASC_##CMP)                                       \
    MERGESORT(isort_##S##_desc, T, W, DESC_##CMP)                                     \
    VALSORT(vsort_##S##_asc, T, W, ASC_##CMP)                                         \
    VALSORT(vsort_##S##_desc, T, W, DESC_##CMP)
SORTERS(f64, double, 1, F)
SORTERS(c128, double, 2, C)
SORTERS(i64, int64_t, 1, I)
SORTERS(u64, uint64_t, 1, I)

typedef struct sort_ctx {
    tl_dtype kdt;
    char *keys;               /* rows x D keys (sorted in place by sort) */
    int64_t *out;             /* rows x D indices (argsort) */
    int64_t rows, D;
    bool desc, want_indices;
} sort_ctx;

/* Sorts row r: its keys in place, or its indices into out. */
static int sort_task(void *vctx, int64_t r)
{
    sort_ctx *c = vctx;
    if ((r & 63) == 0 && tl_check_interrupt() < 0) return -1;
    int64_t D = c->D;
    size_t ks = tl_dtype_size(c->kdt);
    void *tmp = malloc(c->want_indices ? sizeof(int64_t) * (size_t)(D / 2 + 1) : ks * (size_t)(D / 2 + 1));
    if (!tmp) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    char *key = c->keys + (size_t)(r * D) * ks;
    if (c->want_indices) {
        int64_t *idx = c->out + r * D;
        for (int64_t i = 0; i < D; i++) idx[i] = i;
#define ISORT(S, T) (c->desc ? isort_##S##_desc : isort_##S##_asc)(idx, tmp, D, (const T *)key)
        switch (c->kdt) {
        case TL_F64: ISORT(f64, double); break;
        case TL_C128: ISORT(c128, double); break;
        case TL_U64: ISORT(u64, uint64_t); break;
        default: ISORT(i64, int64_t); break;
        }
#undef ISORT
    } else {
#define VSORT(S, T) (c->desc ? vsort_##S##_desc : vsort_##S##_asc)((T *)key, tmp, D)
        switch (c->kdt) {
        case TL_F64: VSORT(f64, double); break;
        case TL_C128: VSORT(c128, double); break;
        case TL_U64: VSORT(u64, uint64_t); break;
        default: VSORT(i64, int64_t); break;
        }
#undef VSORT
    }
    free(tmp);
    return 0;
}

/* Sorting works on a contiguous copy of the keys in a wide dtype (exact for
   every input dtype, so sort converts the sorted keys straight back). */
static tl_tensor *sort_impl(const tl_tensor *a, int axis, bool desc, bool want_indices, tl_tensor *into)
{
    if (a->ndim == 0) {
        tl_seterr(ShapeError, "Cannot sort a 0-d array");
        return NULL;
    }
    int ax;
    if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
    tl_tensor *moved = tl_view_swapaxes(a, ax, a->ndim - 1);
    if (!moved) return NULL;
    tl_dtype kdt = key_dtype(a->dtype);
    tl_tensor *last = ax == a->ndim - 1 ? into : NULL;                /* the result needs no move back */
    tl_tensor *keys = tl_cast_to(moved, kdt, want_indices ? NULL : last);   /* a fresh contiguous copy */
    tl_tensor *idx = (want_indices && keys) ? tl_tensor_result(last, TL_I64, moved->ndim, moved->shape) : NULL;
    tl_tensor_release(moved);
    int rc = keys && (idx || !want_indices) ? 0 : -1;
    if (rc == 0 && tl_tensor_size(keys) > 0) {
        sort_ctx c = { .kdt = kdt, .keys = tl_tensor_data(keys), .out = idx ? tl_tensor_data(idx) : NULL,
                       .desc = desc, .want_indices = want_indices };
        c.D = keys->shape[keys->ndim - 1];
        c.rows = tl_tensor_size(keys) / c.D;
        if (tl_threads_for(tl_tensor_size(keys) * 8) <= 1) {
            for (int64_t r = 0; r < c.rows && rc == 0; r++) rc = sort_task(&c, r);
        } else {
            rc = tl_parallel_for(c.rows, sort_task, &c);
        }
    }
    tl_tensor *out = NULL;
    if (rc == 0) {
        if (want_indices) {
            out = idx;
            idx = NULL;
        } else if (keys->dtype == a->dtype) {
            out = keys;
            keys = NULL;
        } else {
            out = tl_cast_to(keys, a->dtype, last);
        }
    }
    if (keys) tl_tensor_release(keys);
    if (idx) tl_tensor_release(idx);
    if (!out || ax == a->ndim - 1) return out;
    tl_tensor *back = tl_view_swapaxes(out, ax, a->ndim - 1);
    tl_tensor_release(out);
    tl_tensor *r = back ? tl_copy_to(back, into) : NULL;
    if (back) tl_tensor_release(back);
    return r;
}

tl_tensor *tl_sort(const tl_tensor *a, int axis, bool descending) { return sort_impl(a, axis, descending, false, NULL); }

tl_tensor *tl_argsort(const tl_tensor *a, int axis, bool descending) { return sort_impl(a, axis, descending, true, NULL); }

tl_tensor *tl_sort_to(const tl_tensor *a, int axis, bool descending, bool indices, tl_tensor *into)
{
    return sort_impl(a, axis, descending, indices, into);
}
