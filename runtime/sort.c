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

/* Stable merge sort of the index array idx[0..n) by key (tmp has n slots). */
#define MERGESORT(NAME, T, W, LESS)                                                   \
    static void NAME(int64_t *idx, int64_t *tmp, int64_t n, const T *key, bool desc)  \
    {                                                                                 \
        if (n < 2) return;                                                            \
        if (n <= 16) {   /* insertion sort: stable, fast on short runs */             \
            for (int64_t i = 1; i < n; i++) {                                         \
                int64_t v = idx[i], j = i;                                            \
                const T *kv = key + W * v;                                            \
                while (j > 0 && (desc ? LESS(key + W * idx[j - 1], kv) : LESS(kv, key + W * idx[j - 1]))) { \
                    idx[j] = idx[j - 1];                                              \
                    j--;                                                              \
                }                                                                     \
                idx[j] = v;                                                           \
            }                                                                         \
            return;                                                                   \
        }                                                                             \
        int64_t h = n / 2;                                                            \
        NAME(idx, tmp, h, key, desc);                                                 \
        NAME(idx + h, tmp, n - h, key, desc);                                         \
        memcpy(tmp, idx, (size_t)h * sizeof *idx);                                    \
        int64_t i = 0, j = h, k = 0;                                                  \
        while (i < h && j < n) {                                                      \
            const T *a = key + W * tmp[i], *b = key + W * idx[j];                     \
            bool take_right = desc ? LESS(a, b) : LESS(b, a);                         \
            idx[k++] = take_right ? idx[j++] : tmp[i++];                              \
        }                                                                             \
        while (i < h) idx[k++] = tmp[i++];                                            \
    }

MERGESORT(sort_f64, double, 1, LESS_F)
MERGESORT(sort_c128, double, 2, LESS_C)
MERGESORT(sort_i64, int64_t, 1, LESS_I)
MERGESORT(sort_u64, uint64_t, 1, LESS_I)

typedef struct sort_ctx {
    tl_dtype kdt;
    const char *keys;         /* rows x D keys */
    const char *vals;         /* rows x D values in the input dtype (sort only) */
    char *out;
    size_t vsize;
    int64_t rows, D;
    bool desc, want_indices;
} sort_ctx;

static int sort_task(void *vctx, int64_t r)
{
    sort_ctx *c = vctx;
    if ((r & 63) == 0 && tl_check_interrupt() < 0) return -1;
    int64_t D = c->D;
    int64_t *idx = c->want_indices ? (int64_t *)c->out + r * D : malloc(sizeof(int64_t) * (size_t)D);
    int64_t *tmp = malloc(sizeof(int64_t) * (size_t)(D / 2 + 1));
    if (!idx || !tmp) {
        if (!c->want_indices) free(idx);
        free(tmp);
        tl_seterr("out of memory");
        return -1;
    }
    for (int64_t i = 0; i < D; i++) idx[i] = i;
    switch (c->kdt) {
    case TL_F64: sort_f64(idx, tmp, D, (const double *)c->keys + r * D, c->desc); break;
    case TL_C128: sort_c128(idx, tmp, D, (const double *)c->keys + 2 * r * D, c->desc); break;
    case TL_U64: sort_u64(idx, tmp, D, (const uint64_t *)c->keys + r * D, c->desc); break;
    default: sort_i64(idx, tmp, D, (const int64_t *)c->keys + r * D, c->desc); break;
    }
    if (!c->want_indices) {
        const char *src = c->vals + (size_t)(r * D) * c->vsize;
        char *dst = c->out + (size_t)(r * D) * c->vsize;
        for (int64_t i = 0; i < D; i++) memcpy(dst + (size_t)i * c->vsize, src + (size_t)idx[i] * c->vsize, c->vsize);
        free(idx);
    }
    free(tmp);
    return 0;
}

static tl_tensor *sort_impl(const tl_tensor *a, int axis, bool desc, bool want_indices)
{
    if (a->ndim == 0) {
        tl_seterr("Cannot sort a 0-d array");
        return NULL;
    }
    int ax;
    if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
    tl_tensor *moved = tl_view_swapaxes(a, ax, a->ndim - 1);
    if (!moved) return NULL;
    tl_dtype kdt = key_dtype(a->dtype);
    tl_tensor *keys = tl_cast(moved, kdt);                           /* contiguous */
    tl_tensor *vals = (!want_indices && keys) ? tl_copy(moved) : NULL;
    tl_tensor *out = keys && (want_indices || vals)
                         ? tl_kern_empty(want_indices ? TL_I64 : a->dtype, moved->ndim, moved->shape) : NULL;
    tl_tensor_release(moved);
    int rc = out ? 0 : -1;
    if (rc == 0 && tl_tensor_size(out) > 0) {
        sort_ctx c = { .kdt = kdt, .keys = tl_tensor_data(keys), .vals = vals ? tl_tensor_data(vals) : NULL,
                       .out = tl_tensor_data(out), .vsize = tl_dtype_size(a->dtype), .desc = desc,
                       .want_indices = want_indices };
        c.D = out->shape[out->ndim - 1];
        c.rows = tl_tensor_size(out) / c.D;
        if (tl_threads_for(tl_tensor_size(out) * 8) <= 1) {
            for (int64_t r = 0; r < c.rows && rc == 0; r++) rc = sort_task(&c, r);
        } else {
            rc = tl_parallel_for(c.rows, sort_task, &c);
        }
    }
    if (keys) tl_tensor_release(keys);
    if (vals) tl_tensor_release(vals);
    if (rc < 0) {
        if (out) tl_tensor_release(out);
        return NULL;
    }
    if (ax == a->ndim - 1) return out;
    tl_tensor *back = tl_view_swapaxes(out, ax, a->ndim - 1);
    tl_tensor_release(out);
    tl_tensor *r = back ? tl_copy(back) : NULL;
    if (back) tl_tensor_release(back);
    return r;
}

tl_tensor *tl_sort(const tl_tensor *a, int axis, bool descending)
{
    return sort_impl(a, axis, descending, false);
}

tl_tensor *tl_argsort(const tl_tensor *a, int axis, bool descending)
{
    return sort_impl(a, axis, descending, true);
}
