/* nn.c — softmax / log_softmax over an axis, layer_norm and rms_norm over the last axis */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kern.h"

/* f32 for f16/bf16/f32 (rounded back at the end), f64 for f64 and integers. */
static tl_dtype nn_compute_dtype(tl_dtype d)
{
    return tl_is_float(d) ? tl_dtype_wide(d) : TL_F64;
}

static tl_dtype nn_result_dtype(tl_dtype d)
{
    return tl_is_float(d) && tl_dtype_wide(d) == TL_F32 ? d : TL_F64;
}

/* Rows of length D (contiguous), processed in parallel blocks. */
typedef struct rows_ctx {
    const tl_iter *at;       /* one element per row: (y, x) at the row's start */
    int64_t rows, D, rows_per_task;
    bool log;
    const char *w, *b;       /* per-column weight and bias (compute dtype) or NULL */
    double eps;
    bool rms;
    bool softmax;            /* softmax rows, else layer_norm / rms_norm rows */
} rows_ctx;

#define ROW_FUNCS(S, T, VEXP, SUM, EXP, LOG, SQRT)                                      \
    /* softmax of one row: subtract the max, exponentiate, divide by the sum. */        \
    static void softmax_generic_##S(const T *x, T *y, int64_t D, bool want_log)              \
    {                                                                                   \
        T m = x[0];                                                                     \
        for (int64_t i = 1; i < D; i++) m = x[i] > m ? x[i] : m;                        \
        VEXP(y, x, m, D);                                                               \
        T s = SUM((const char *)y, D, (int64_t)sizeof(T));                              \
        if (want_log) {                                                                 \
            T ls = LOG(s);                                                              \
            for (int64_t i = 0; i < D; i++) y[i] = (x[i] - m) - ls;                     \
        } else {                                                                        \
            for (int64_t i = 0; i < D; i++) y[i] = y[i] / s;                            \
        }                                                                               \
    }                                                                                   \
    /* layer_norm / rms_norm of one row (two passes: mean, then squares). */            \
    static void norm_row_##S(const T *x, T *y, int64_t D, const T *w, const T *b, T eps, bool rms) \
    {                                                                                   \
        T mean = rms ? (T)0 : SUM((const char *)x, D, (int64_t)sizeof(T)) / (T)D;       \
        for (int64_t i = 0; i < D; i++) y[i] = (x[i] - mean) * (x[i] - mean);           \
        T var = SUM((const char *)y, D, (int64_t)sizeof(T)) / (T)D;                     \
        T r = (T)1 / SQRT(var + eps);                                                   \
        for (int64_t i = 0; i < D; i++) {                                               \
            T v = (x[i] - mean) * r;                                                    \
            if (w) v *= w[i];                                                           \
            if (b) v += b[i];                                                           \
            y[i] = v;                                                                   \
        }                                                                               \
    }                                                                                   \
    /* The rows of one task: softmax or the norm, as the context says. */               \
    static int rows_task_##S(void *vctx, int64_t t)                                     \
    {                                                                                   \
        rows_ctx *c = vctx;                                                             \
        if (tl_check_interrupt() < 0) return -1;                                        \
        int64_t r0 = t * c->rows_per_task, r1 = r0 + c->rows_per_task;                  \
        if (r1 > c->rows) r1 = c->rows;                                                 \
        for (int64_t r = r0; r < r1; r++) {                                             \
            char *p[2];                                                                 \
            tl_iter_at(c->at, r, p);                                                    \
            if (c->softmax)                                                             \
                softmax_row_##S((const T *)p[1], (T *)p[0], c->D, c->log);              \
            else                                                                        \
                norm_row_##S((const T *)p[1], (T *)p[0], c->D, (const T *)c->w,         \
                             (const T *)c->b, (T)c->eps, c->rms);                       \
        }                                                                               \
        return 0;                                                                       \
    }

static void softmax_row_f32(const float *x, float *y, int64_t D, bool want_log);
static void softmax_row_f64(const double *x, double *y, int64_t D, bool want_log);
ROW_FUNCS(f32, float, tl_vexp_sub_f32, tl_sum_f32, expf, logf, sqrtf)
ROW_FUNCS(f64, double, tl_vexp_sub_f64, tl_sum_f64, exp, log, sqrt)

/* The f32 row: the fused AVX-512 version when the CPU has one. */
static void softmax_row_f32(const float *x, float *y, int64_t D, bool want_log)
{
    if (!tl_simd_softmax_row_f32(x, y, D, want_log)) softmax_generic_f32(x, y, D, want_log);
}

static void softmax_row_f64(const double *x, double *y, int64_t D, bool want_log)
{
    softmax_generic_f64(x, y, D, want_log);
}

/* Runs softmax or the norm over the rows (last axis, unit stride) of x into
   y, a fresh tensor of x's shape. */
static int run_rows(rows_ctx *c, tl_tensor *y, const tl_tensor *x, tl_dtype cdt, bool softmax)
{
    const tl_tensor *ops[2] = { y, x };
    bool last[TL_MAXDIM] = { false };
    last[x->ndim - 1] = true;
    tl_iter_runs rows;          /* one axis in the run: it always merges */
    if (tl_iter_runs_init(&rows, 2, ops, x->ndim, x->shape, last, false) != 0) return -1;
    c->at = &rows.outer;
    c->rows = rows.outer.size;
    c->D = rows.len;
    int64_t total = c->rows * c->D;
    int nth = tl_threads_for(total);
    int64_t ntasks = nth <= 1 ? 1 : 4 * (int64_t)nth;
    if (ntasks > c->rows) ntasks = c->rows > 0 ? c->rows : 1;
    c->rows_per_task = (c->rows + ntasks - 1) / ntasks;
    if (c->rows_per_task == 0) return 0;
    ntasks = (c->rows + c->rows_per_task - 1) / c->rows_per_task;
    c->softmax = softmax;
    return tl_parallel_for(ntasks, cdt == TL_F32 ? rows_task_f32 : rows_task_f64, c);
}

/* t itself when it is in dtype dt with a unit-stride last axis (its rows
   can be read in place), else a contiguous copy in dt. */
static tl_tensor *rows_as(const tl_tensor *t, tl_dtype dt)
{
    int last = t->ndim - 1;
    if (t->dtype == dt && (t->ndim == 0 || t->shape[last] == 1 || t->strides[last] == 1)) {
        tl_tensor_retain((tl_tensor *)t);
        return (tl_tensor *)t;
    }
    return tl_cast(t, dt);
}

static tl_tensor *finish(tl_tensor *y, tl_dtype rdt, tl_tensor *into)
{
    if (!y || y->dtype == rdt) return y;
    tl_tensor *r = tl_cast_to(y, rdt, into);
    tl_tensor_release(y);
    return r;
}

tl_tensor *tl_softmax(const tl_tensor *a, int axis, bool log) { return tl_softmax_to(a, axis, log, NULL); }

tl_tensor *tl_softmax_to(const tl_tensor *a, int axis, bool log, tl_tensor *into)
{
    if (tl_is_complex(a->dtype)) {
        tl_seterr(TypeError, "%s is not supported for dtype %s", log ? "log_softmax" : "softmax", tl_dtype_name(a->dtype));
        return NULL;
    }
    if (a->ndim == 0) {     /* a single element: softmax 1, log_softmax 0 */
        tl_tensor *v = tl_view_unsqueeze(a, 0), *r = v ? tl_softmax(v, 0, log) : NULL;
        if (v) tl_tensor_release(v);
        tl_tensor *out = r ? tl_reshape(r, 0, NULL) : NULL;
        if (r) tl_tensor_release(r);
        return out;
    }
    int ax;
    if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
    tl_dtype cdt = nn_compute_dtype(a->dtype), rdt = nn_result_dtype(a->dtype);
    /* move the axis last, compute on unit-stride rows, move it back */
    tl_tensor *moved = tl_view_swapaxes(a, ax, a->ndim - 1);
    tl_tensor *x = moved ? rows_as(moved, cdt) : NULL;
    tl_tensor *y = x ? tl_tensor_result(ax == a->ndim - 1 ? into : NULL, cdt, x->ndim, x->shape) : NULL;
    if (moved) tl_tensor_release(moved);
    int rc = y ? 0 : -1;
    if (rc == 0 && tl_tensor_size(y) > 0) {
        rows_ctx c = { .log = log };
        rc = run_rows(&c, y, x, cdt, true);
    }
    if (x) tl_tensor_release(x);
    if (rc < 0) {
        if (y) tl_tensor_release(y);
        return NULL;
    }
    if (ax != a->ndim - 1) {
        tl_tensor *back = tl_view_swapaxes(y, ax, a->ndim - 1);
        tl_tensor_release(y);
        y = back ? tl_copy_to(back, into) : NULL;
        if (back) tl_tensor_release(back);
    }
    return finish(y, rdt, into);
}

/* Weight or bias: NULL, or a tensor with D elements, as one unit-stride row in cdt. */
static int norm_param(const char *fn, const char *what, const tl_tensor *p, int64_t D, tl_dtype cdt, tl_tensor **out)
{
    *out = NULL;
    if (!p) return 0;
    if (tl_tensor_size(p) != D || (p->ndim > 1 && p->shape[p->ndim - 1] != D)) {
        char s[160];
        tl_seterr(ShapeError, "%s: %s has shape %s but the last axis has size %lld", fn, what,
                  tl_shape_str(p->ndim, p->shape, s, sizeof s), (long long)D);
        return -1;
    }
    *out = rows_as(p, cdt);     /* D elements, all on the last axis: one row */
    return *out ? 0 : -1;
}

static tl_tensor *norm_impl(const char *fn, const tl_tensor *a, const tl_tensor *w, const tl_tensor *b,
                            double eps, bool rms, tl_tensor *into)
{
    if (a->ndim == 0) {
        tl_seterr(ShapeError, "%s: needs at least one axis", fn);
        return NULL;
    }
    if (tl_is_complex(a->dtype)) {
        tl_seterr(TypeError, "%s is not supported for complex dtypes", fn);
        return NULL;
    }
    tl_dtype cdt = nn_compute_dtype(a->dtype), rdt = nn_result_dtype(a->dtype);
    int64_t D = a->shape[a->ndim - 1];
    tl_tensor *cw = NULL, *cb = NULL, *x = NULL, *y = NULL;
    int rc = -1;
    if (norm_param(fn, "weight", w, D, cdt, &cw) == 0 && norm_param(fn, "bias", b, D, cdt, &cb) == 0) {
        x = rows_as(a, cdt);
        y = x ? tl_tensor_result(into, cdt, x->ndim, x->shape) : NULL;
        rc = y ? 0 : -1;
    }
    if (rc == 0 && tl_tensor_size(y) > 0) {
        rows_ctx c = { .eps = eps, .rms = rms };
        c.w = cw ? tl_tensor_data(cw) : NULL;
        c.b = cb ? tl_tensor_data(cb) : NULL;
        rc = run_rows(&c, y, x, cdt, false);
    }
    tl_tensor *all[3] = { cw, cb, x };
    for (int i = 0; i < 3; i++) if (all[i]) tl_tensor_release(all[i]);
    if (rc < 0) {
        if (y) tl_tensor_release(y);
        return NULL;
    }
    return finish(y, rdt, into);
}

tl_tensor *tl_layer_norm(const tl_tensor *a, const tl_tensor *w, const tl_tensor *b, double eps)
{
    return norm_impl("layer_norm", a, w, b, eps, false, NULL);
}

tl_tensor *tl_rms_norm(const tl_tensor *a, const tl_tensor *w, double eps)
{
    return norm_impl("rms_norm", a, w, NULL, eps, true, NULL);
}

tl_tensor *tl_norm_layer_to(const tl_tensor *a, const tl_tensor *w, const tl_tensor *b, double eps, bool rms, tl_tensor *into)
{
    return norm_impl(rms ? "rms_norm" : "layer_norm", a, w, b, eps, rms, into);
}
