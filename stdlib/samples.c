/* samples.c — numpy's diff, ptp, count_nonzero, average, cov, corrcoef, convolve, interp */
#include <string.h>

#include "builtins.h"
#include "stats.h"

/* Releases up to four tensors (NULLs skipped). */
static void release4(tl_tensor *a, tl_tensor *b, tl_tensor *c, tl_tensor *d)
{
    tl_tensor *ts[4] = { a, b, c, d };
    for (int i = 0; i < 4; i++)
        if (ts[i]) tl_tensor_release(ts[i]);
}

/* prepend=/append= of diff: a 0-d value is broadcast to t's shape with size 1 along axis. */
static tl_tensor *diff_edge(Value *v, const tl_tensor *t, int axis)
{
    tl_tensor *e = val_to_tensor(*v);
    if (!e || e->ndim > 0) return e;
    int64_t shape[TL_MAXDIM];
    memcpy(shape, t->shape, sizeof shape);
    shape[axis] = 1;
    tl_tensor *b = tl_view_broadcast_to(e, t->ndim, shape);
    tl_tensor_release(e);
    return b;
}

/* diff(x, n=1, axis=-1, prepend=none, append=none): n-th differences along axis. */
static bool bi_diff(Interp *I, CallArgs *a, Value *out)
{
    int64_t n, axis;
    int ax;
    tl_tensor *t;
    if (!arg_int(I, a, 1, 1, &n) || !arg_int(I, a, 2, -1, &axis) || !arg_tensor(I, a, 0, &t)) return false;
    if (t->ndim == 0 || n < 0) {
        tl_tensor_release(t);
        return n < 0 ? bi_fail(I, a, ValueError, "order must be non-negative but got %lld", (long long)n)
                     : bi_fail(I, a, ValueError, "diff requires input that is at least one dimensional");
    }
    if (tl_normalize_axis((int)axis, t->ndim, &ax) < 0 || axis != (int)axis) {
        int ndim = t->ndim;
        tl_tensor_release(t);
        return bi_fail(I, a, IndexError, "axis %lld is out of bounds for a tensor of dimension %d", (long long)axis, ndim);
    }
    Value *pre = arg_at(a, 3), *app = arg_at(a, 4);
    if (pre || app) {
        tl_tensor *parts[3];
        int k = 0;
        bool ok = true;
        if (pre && ok) ok = (parts[k++] = diff_edge(pre, t, ax)) != NULL;
        parts[k++] = t;
        if (app && ok) ok = (parts[k++] = diff_edge(app, t, ax)) != NULL;
        tl_tensor *c = ok ? tl_concat(k, parts, ax) : NULL;
        for (int i = 0; i < k; i++)
            if (parts[i]) tl_tensor_release(parts[i]);
        if (!c) return interp_error_rt(I, a->at);
        t = c;
    }
    for (int64_t i = 0; i < n && t->shape[ax] > 0; i++) {
        int64_t len = t->shape[ax];
        tl_tensor *hi = tl_view_slice(t, ax, 1, len, 1, true, true), *lo = tl_view_slice(t, ax, 0, len - 1, 1, true, true);
        tl_tensor *d = hi && lo ? tl_binary(t->dtype == TL_BOOL ? TL_NE : TL_SUB, hi, lo, t->dtype) : NULL;
        release4(hi, lo, t, NULL);
        if (!d) return interp_error_rt(I, a->at);
        t = d;
    }
    return ret_tensor(I, a, t, out);
}

/* x, its axes and keepdims: the arguments (x, axis=none, keepdims=false) of ptp and count_nonzero. */
typedef struct AxisArgs { tl_tensor *t; bool keepdims, all; int naxes; int axes[TL_MAXDIM]; } AxisArgs;

/* Reads (x, axis=none, *, keepdims=false) into r; false (error raised) when they do not check. */
static bool axis_args(Interp *I, CallArgs *a, AxisArgs *r)
{
    if (!arg_bool(I, a, 2, false, &r->keepdims) || !arg_tensor(I, a, 0, &r->t)) return false;
    if (!arg_axes(I, a, 1, r->t->ndim, &r->naxes, r->axes, &r->all)) {
        tl_tensor_release(r->t);
        return false;
    }
    return true;
}

/* ptp(x, axis=none, keepdims=false): max - min along axis, in x's dtype. */
static bool bi_ptp(Interp *I, CallArgs *a, Value *out)
{
    AxisArgs x;
    if (!axis_args(I, a, &x)) return false;
    tl_tensor *t = x.t;
    if (t->dtype == TL_BOOL) {
        tl_tensor_release(t);
        return bi_fail(I, a, TypeError, "boolean subtract is not supported (numpy refuses it too)");
    }
    bool reduce = x.all || x.naxes;
    int na = x.all ? 0 : x.naxes;
    tl_tensor *mx = reduce ? tl_reduce(TL_RMAX, t, na, x.axes, x.keepdims, 0) : (tl_tensor_retain(t), t);
    tl_tensor *mn = !mx ? NULL : reduce ? tl_reduce(TL_RMIN, t, na, x.axes, x.keepdims, 0) : (tl_tensor_retain(t), t);
    tl_tensor *r = mn ? tl_binary(TL_SUB, mx, mn, t->dtype) : NULL;
    release4(mx, mn, t, NULL);
    return ret_tensor(I, a, r, out);
}

/* count_nonzero(x, axis=none, keepdims=false): how many elements are not zero (i64). */
static bool bi_count_nonzero(Interp *I, CallArgs *a, Value *out)
{
    AxisArgs x;
    if (!axis_args(I, a, &x)) return false;
    tl_tensor *t = x.t;
    tl_tensor *zero = tl_tensor_from_f64(t->dtype, 0.0), *nz = zero ? tl_binary(TL_NE, t, zero, t->dtype) : NULL;
    tl_tensor *r = !nz ? NULL
                 : x.all || x.naxes ? tl_reduce(TL_RSUM, nz, x.all ? 0 : x.naxes, x.axes, x.keepdims, 0)
                                    : tl_cast(nz, TL_I64);
    release4(zero, nz, t, NULL);
    return ret_tensor(I, a, r, out);
}

/* average's weights, checked and laid along axis as numpy (wgt.shape == x.shape, or 1-d along one axis). */
static bool average_weights(Interp *I, CallArgs *a, const tl_tensor *t, bool all, int naxes, const int *axes, tl_tensor **w)
{
    if (!arg_tensor(I, a, 2, w)) return false;
    if ((*w)->ndim == t->ndim && !memcmp((*w)->shape, t->shape, (size_t)t->ndim * sizeof(int64_t))) return true;
    bool length = !all && (*w)->ndim == 1 && (naxes != 1 || (*w)->shape[0] != t->shape[axes[0]]);
    if (all || (*w)->ndim != 1 || length) {
        tl_tensor_release(*w);
        if (length) return bi_fail(I, a, ValueError, "Length of weights not compatible with specified axis.");
        return bi_fail(I, a, TypeError, "%s", all ? "Axis must be specified when shapes of a and weights differ."
                                                  : "1D weights expected when shapes of a and weights differ.");
    }
    int64_t shape[TL_MAXDIM];
    for (int d = 0; d < t->ndim; d++) shape[d] = d == axes[0] ? t->shape[d] : 1;
    tl_tensor *r = tl_reshape(*w, t->ndim, shape);
    tl_tensor_release(*w);
    *w = r;
    return r || interp_error_rt(I, a->at);
}

/* average(x, axis=none, weights=none, returned=false, keepdims=false); returned gives (average, sum of weights). */
static bool bi_average(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t, *w = NULL, *avg = NULL, *scl = NULL;
    bool returned, keepdims, all;
    int naxes, axes[TL_MAXDIM];
    if (!arg_bool(I, a, 3, false, &returned) || !arg_bool(I, a, 4, false, &keepdims) || !arg_tensor(I, a, 0, &t)) return false;
    if (!arg_axes(I, a, 1, t->ndim, &naxes, axes, &all) || (arg_at(a, 2) && !average_weights(I, a, t, all, naxes, axes, &w))) {
        tl_tensor_release(t);
        return false;
    }
    int na = all ? 0 : naxes;
    if (!w) {
        avg = tl_reduce(TL_RMEAN, t, na, axes, keepdims, 0);
        int64_t n = avg ? tl_tensor_size(t) / (tl_tensor_size(avg) ? tl_tensor_size(avg) : 1) : 0;
        tl_tensor *s = avg ? tl_tensor_from_f64(avg->dtype, (double)n) : NULL;
        scl = s ? tl_view_broadcast_to(s, avg->ndim, avg->shape) : NULL;
        if (s) tl_tensor_release(s);
    } else {
        tl_dtype rdt = tl_promote(t->dtype, w->dtype);
        if (tl_is_intlike(t->dtype)) rdt = tl_promote(rdt, TL_F64);
        tl_tensor *wb = tl_view_broadcast_to(w, t->ndim, t->shape), *wc = wb ? tl_cast(wb, rdt) : NULL;
        tl_tensor *prod = wc ? tl_binary(TL_MUL, t, wc, rdt) : NULL;
        scl = wc ? tl_reduce(TL_RSUM, wc, na, axes, keepdims, 0) : NULL;
        tl_tensor *zero = scl ? tl_tensor_from_f64(rdt, 0.0) : NULL, *isz = zero ? tl_binary(TL_EQ, scl, zero, rdt) : NULL;
        tl_tensor *anyz = isz ? tl_reduce(TL_RANY, isz, 0, NULL, false, 0) : NULL;
        if (anyz && *(bool *)tl_tensor_data(anyz)) {
            release4(wb, wc, prod, zero);
            release4(isz, anyz, scl, w);
            tl_tensor_release(t);
            return bi_fail(I, a, ZeroDivisionError, "Weights sum to zero, can't be normalized (division by zero)");
        }
        tl_tensor *sum = anyz && prod ? tl_reduce(TL_RSUM, prod, na, axes, keepdims, 0) : NULL;
        avg = sum ? tl_binary(TL_DIV, sum, scl, rdt) : NULL;
        release4(wb, wc, prod, zero);
        release4(isz, anyz, sum, w);
    }
    tl_tensor_release(t);
    if (!returned) {
        if (scl) tl_tensor_release(scl);
        return ret_tensor(I, a, avg, out);
    }
    tl_tensor *pair[2] = { avg, scl ? tl_contiguous(scl) : NULL };
    if (scl) tl_tensor_release(scl);
    return ret_tuple(I, a, 2, pair, out);
}

/* One variable set of cov as numpy's 2-d f64 rows (ndmin=2, transposed unless rowvar). */
static tl_tensor *cov_rows(const tl_tensor *m, bool rowvar, const char *name)
{
    if (m->ndim > 2) {
        tl_seterr(ValueError, "%s has more than 2 dimensions", name);
        return NULL;
    }
    if (tl_is_complex(m->dtype)) {
        tl_seterr(TypeError, "cov of complex values is not supported");
        return NULL;
    }
    int64_t shape[2] = { 1, m->ndim == 1 ? m->shape[0] : 1 };
    tl_tensor *x = m->ndim == 2 ? tl_cast(m, TL_F64) : NULL, *c = m->ndim < 2 ? tl_cast(m, TL_F64) : NULL;
    if (c) x = tl_reshape(c, 2, shape), tl_tensor_release(c);
    if (x && !rowvar && x->shape[0] != 1) {
        tl_tensor *tt = tl_view_transpose(x);
        tl_tensor_release(x);
        x = tt;
    }
    return x;
}

/* numpy.cov of the rows of m (and y): the result before squeezing, f64. */
static tl_tensor *cov_matrix(const tl_tensor *m, const tl_tensor *y, bool rowvar, int64_t ddof)
{
    tl_tensor *x = cov_rows(m, rowvar, "m"), *yr = x && y ? cov_rows(y, rowvar, "y") : NULL;
    if (!x || (y && !yr)) {
        release4(x, yr, NULL, NULL);
        return NULL;
    }
    if (yr) {
        tl_tensor *parts[2] = { x, yr }, *c = tl_concat(2, parts, 0);
        release4(x, yr, NULL, NULL);
        if (!(x = c)) return NULL;
    }
    if (x->shape[0] == 0) {
        int64_t z[2] = { 0, 0 };
        tl_tensor_release(x);
        return tl_tensor_empty(TL_F64, 2, z);
    }
    int ax1 = 1;
    double fact = (double)(x->shape[1] - ddof);
    if (fact <= 0) fact = 0.0;
    tl_tensor *avg = tl_reduce(TL_RMEAN, x, 1, &ax1, true, 0), *xc = avg ? tl_binary(TL_SUB, x, avg, TL_F64) : NULL;
    tl_tensor *xt = xc ? tl_view_transpose(xc) : NULL, *c = xt ? tl_matmul(xc, xt) : NULL;
    tl_tensor *k = c ? tl_tensor_from_f64(TL_F64, 1.0 / fact) : NULL, *r = k ? tl_binary(TL_MUL, c, k, TL_F64) : NULL;
    release4(x, avg, xc, xt);
    release4(c, k, NULL, NULL);
    return r;
}

/* cov(m, y=none, rowvar=true, bias=false, ddof=none) and corrcoef(x, y=none, rowvar=true); tag 1: corrcoef. */
static bool bi_cov(Interp *I, CallArgs *a, Value *out)
{
    bool corr = a->self->tag == 1, rowvar, bias;   /* corrcoef's signature stops after rowvar */
    int64_t ddof;
    tl_tensor *m, *y = NULL;
    if (!arg_bool(I, a, 2, true, &rowvar) || !arg_bool(I, a, 3, false, &bias)) return false;
    if (!arg_int(I, a, 4, bias ? 0 : 1, &ddof) || !arg_tensor(I, a, 0, &m)) return false;
    if (arg_at(a, 1) && !arg_tensor(I, a, 1, &y)) {
        tl_tensor_release(m);
        return false;
    }
    tl_tensor *c = cov_matrix(m, y, rowvar, ddof);
    release4(m, y, NULL, NULL);
    if (c && corr && c->ndim == 2 && c->shape[0] == 1) {       /* numpy: a 0-d covariance gives c / c */
        tl_tensor *r = tl_binary(TL_DIV, c, c, TL_F64);
        tl_tensor_release(c);
        c = r;
    } else if (c && corr) {
        tl_tensor *d = tl_view_diagonal(c, 0, 0, 1), *sd = d ? tl_unary(TL_SQRT, d) : NULL;
        tl_tensor *col = sd ? tl_view_unsqueeze(sd, 1) : NULL, *r1 = col ? tl_binary(TL_DIV, c, col, TL_F64) : NULL;
        tl_tensor *r2 = r1 ? tl_binary(TL_DIV, r1, sd, TL_F64) : NULL;
        tl_tensor *lo = r2 ? tl_tensor_from_f64(TL_F64, -1.0) : NULL, *hi = lo ? tl_tensor_from_f64(TL_F64, 1.0) : NULL;
        tl_tensor *r = hi ? tl_clip(r2, lo, hi, TL_F64) : NULL;
        release4(c, d, sd, col);
        release4(r1, r2, lo, hi);
        c = r;
    }
    tl_tensor *sq = c ? tl_view_squeeze(c, TL_AXIS_NONE) : NULL;
    if (c) tl_tensor_release(c);
    return ret_tensor(I, a, sq, out);
}

/* convolve(a, v, mode="full"): the discrete linear convolution of two 1-d tensors. */
static bool bi_convolve(Interp *I, CallArgs *a, Value *out)
{
    static const char *const modes[] = { "full", "same", "valid" };
    const char *mode;
    tl_tensor *x, *v;
    if (!arg_string(I, a, 2, "full", &mode)) return false;
    int m = 0;
    while (m < 3 && strcmp(mode, modes[m]) != 0) m++;
    if (m == 3) return bi_fail(I, a, ValueError, "mode must be \"full\", \"same\" or \"valid\", not \"%s\"", mode);
    if (!arg_tensor(I, a, 0, &x)) return false;
    if (!arg_tensor(I, a, 1, &v)) {
        tl_tensor_release(x);
        return false;
    }
    tl_tensor *r = tl_convolve(x, v, m);
    release4(x, v, NULL, NULL);
    return ret_tensor(I, a, r, out);
}

/* interp(x, xp, fp, left=none, right=none): piecewise-linear interpolation of (xp, fp) at x. */
static bool bi_interp(Interp *I, CallArgs *a, Value *out)
{
    double left, right;
    tl_tensor *t[3] = { NULL, NULL, NULL };
    if (!arg_double(I, a, 3, 0, &left) || !arg_double(I, a, 4, 0, &right)) return false;
    for (int i = 0; i < 3; i++)
        if (!arg_tensor(I, a, i, &t[i])) {
            release4(t[0], t[1], t[2], NULL);
            return false;
        }
    tl_tensor *r = tl_interp(t[0], t[1], t[2], arg_at(a, 3) ? &left : NULL, arg_at(a, 4) ? &right : NULL);
    release4(t[0], t[1], t[2], NULL);
    return ret_tensor(I, a, r, out);
}

const Builtin bi_samples_table[] = {
    { "diff", bi_diff, "diff(x, n=1, axis=-1, prepend=none, append=none)",
      "n-th differences along axis (x[1:] - x[:-1]; != for bool), after joining prepend and append", 0, BF_OTHER, BT_NO },
    { "ptp", bi_ptp, "ptp(x, axis=none, *, keepdims=false)", "peak to peak: max - min along axis, in x's dtype", 0, BF_OTHER, BT_NO },
    { "count_nonzero", bi_count_nonzero, "count_nonzero(x, axis=none, *, keepdims=false)",
      "how many elements along axis are not zero (i64)", 0, BF_OTHER, BT_NO },
    { "average", bi_average, "average(x, axis=none, weights=none, returned=false, *, keepdims=false)",
      "weighted mean along axis; returned=true gives (average, sum of weights)", 0, BF_OTHER, BT_NO },
    { "cov", bi_cov, "cov(m, y=none, rowvar=true, bias=false, ddof=none)",
      "covariance matrix of the rows (columns if rowvar=false) of m and y", 0, BF_OTHER, BT_NO },
    { "corrcoef", bi_cov, "corrcoef(x, y=none, rowvar=true)", "Pearson correlation coefficients of the rows of x and y", 1, BF_OTHER, BT_NO },
    { "convolve", bi_convolve, "convolve(a, v, mode=\"full\")", "discrete linear convolution of two 1-d tensors (full, same or valid)", 0, BF_OTHER, BT_NO },
    { "interp", bi_interp, "interp(x, xp, fp, left=none, right=none)",
      "piecewise-linear interpolation at x of the points (xp, fp), xp increasing", 0, BF_OTHER, BT_NO },
    { 0 },
};
