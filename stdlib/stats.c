/* stats.c — numpy's statistics: median, percentile, quantile, histogram, bincount */
#include <string.h>

#include "builtins.h"
#include "stats.h"

enum { Q_MEDIAN, Q_PERCENTILE, Q_QUANTILE };

/* Parameter i (axis=) as a list of axes (all of them for none). */
static bool stat_axes(Interp *I, CallArgs *a, int i, int ndim, int *naxes, int *axes)
{
    bool all;
    if (!arg_axes(I, a, i, ndim, naxes, axes, &all)) return false;
    if (all) {
        *naxes = ndim;
        for (int i = 0; i < ndim; i++) axes[i] = i;
    }
    return true;
}

/* q of percentile/quantile as fractions (percent / 100), checked against numpy's range. */
static bool quantile_fractions(Interp *I, CallArgs *a, bool percent, tl_tensor **qd)
{
    tl_tensor *q, *c;
    if (!arg_tensor(I, a, 1, &q)) return false;
    if (tl_is_complex(q->dtype)) {
        tl_tensor_release(q);
        return bi_fail(I, a, TypeError, "q must be real");
    }
    c = tl_cast(q, TL_F64);
    tl_tensor_release(q);
    *qd = c ? tl_contiguous(c) : NULL;
    if (c) tl_tensor_release(c);
    if (!*qd) return interp_error_rt(I, a->at);
    double *v = tl_tensor_data(*qd);
    int64_t n = tl_tensor_size(*qd);
    for (int64_t i = 0; i < n; i++) {
        if (percent) v[i] /= 100.0;
        if (!(v[i] >= 0.0 && v[i] <= 1.0)) {
            tl_tensor_release(*qd);
            return bi_fail(I, a, ValueError, "%s", percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
        }
    }
    return true;
}

/* median(x, axis=none, *, keepdims=false), percentile(x, q, axis=none, *, method="linear", keepdims=false)
   and quantile(...): the row's tag says which. */
static bool bi_quantile(Interp *I, CallArgs *a, Value *out)
{
    const char *method = "linear";
    int tag = (int)a->self->tag, naxes, axes[TL_MAXDIM];
    bool median = tag == Q_MEDIAN, keepdims;
    tl_tensor *t, *q = NULL;
    if (!arg_bool(I, a, median ? 2 : 4, false, &keepdims) || (!median && !arg_string(I, a, 3, "linear", &method))) return false;
    tl_quant_kind kind = TL_QUANT_MEDIAN;
    if (!median && tl_quant_method(method, &kind) < 0) return interp_error_rt(I, a->at);
    if (!arg_tensor(I, a, 0, &t)) return false;
    if (!stat_axes(I, a, median ? 1 : 2, t->ndim, &naxes, axes) || (!median && !quantile_fractions(I, a, tag == Q_PERCENTILE, &q))) {
        tl_tensor_release(t);
        return false;
    }
    tl_tensor *r = median ? tl_quantile(t, naxes, axes, keepdims, TL_QUANT_MEDIAN, 1, NULL, 0, NULL)
                          : tl_quantile(t, naxes, axes, keepdims, kind, tl_tensor_size(q), tl_tensor_data(q),
                                        q->ndim, q->shape);
    tl_tensor_release(t);
    if (q) tl_tensor_release(q);
    return ret_tensor(I, a, r, out);
}

/* range=(lo, hi): two real numbers, as a tuple or a tensor. */
static bool hist_range(Interp *I, CallArgs *a, tl_hist_bins *hb)
{
    Value *v = arg_at(a, 2);
    if (!v) return true;
    double lh[2];
    tl_tensor *t = NULL;
    if (v->kind == V_TENSOR) t = val_to_tensor(*v);
    bool ok = t && t->ndim == 1 && t->shape[0] == 2 && !tl_is_complex(t->dtype);
    if (ok) {
        for (int i = 0; i < 2; i++) lh[i] = tl_scalar_to_f64(tl_tensor_at(t, (int64_t[]){ i }), t->dtype);
    } else if (v->kind == V_TUPLE && v->as.tu->n == 2) {
        ok = true;
        for (int i = 0; i < 2; i++) {
            Value x = v->as.tu->items[i];
            ok = ok && x.kind == V_NUM && !tl_is_complex((tl_dtype)x.dtype);
            if (ok) lh[i] = tl_scalar_to_f64(x.as.num.bytes, (tl_dtype)x.dtype);
        }
    }
    if (t) tl_tensor_release(t);
    if (!ok) return bi_fail(I, a, ValueError, "range must be two real numbers (lo, hi)");
    hb->has_range = true, hb->lo = lh[0], hb->hi = lh[1];
    return true;
}

/* histogram(x, bins=10, range=none, weights=none, density=false) -> (hist, bin_edges) */
static bool bi_histogram(Interp *I, CallArgs *a, Value *out)
{
    tl_hist_bins hb = { .count = 10 };
    tl_tensor *t, *w = NULL, *edges = NULL, *res[2];
    bool density;
    if (!arg_bool(I, a, 4, false, &density) || !hist_range(I, a, &hb)) return false;
    Value *bins = arg_at(a, 1);
    if (bins && bins->kind == V_TENSOR) {
        edges = val_to_tensor(*bins);
        if (edges && edges->ndim != 1) {
            tl_tensor_release(edges);
            return bi_fail(I, a, ValueError, "`bins` must be 1d, when an array");
        }
        if (!edges) return interp_error_rt(I, a->at);
        hb.edges = edges;
    } else if (bins && !(bins->kind == V_NUM && (tl_is_int((tl_dtype)bins->dtype) || bins->dtype == TL_BOOL))) {
        return bi_fail(I, a, TypeError, "`bins` must be an integer or an array of edges");
    } else if (!arg_int(I, a, 1, 10, &hb.count)) {
        return false;
    } else if (hb.count < 1) {
        return bi_fail(I, a, ValueError, "`bins` must be positive, when an integer");
    }
    bool ok = arg_tensor(I, a, 0, &t);
    if (ok && arg_at(a, 3) && !arg_tensor(I, a, 3, &w)) {
        tl_tensor_release(t);
        ok = false;
    }
    if (ok) {
        ok = tl_histogram(t, &hb, w, density, &res[0], &res[1]) == 0;
        tl_tensor_release(t);
        if (w) tl_tensor_release(w);
        if (ok) ok = ret_tuple(I, a, 2, res, out);
        else interp_error_rt(I, a->at);
    }
    if (edges) tl_tensor_release(edges);
    return ok;
}

/* bincount(x, weights=none, minlength=0) */
static bool bi_bincount(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *w = NULL;
    int64_t minlength;
    if (!arg_int(I, a, 2, 0, &minlength) || !arg_tensor(I, a, 0, &x)) return false;
    if (arg_at(a, 1) && !arg_tensor(I, a, 1, &w)) {
        tl_tensor_release(x);
        return false;
    }
    tl_tensor *r = tl_bincount(x, w, minlength);
    tl_tensor_release(x);
    if (w) tl_tensor_release(w);
    return ret_tensor(I, a, r, out);
}

const Builtin bi_stats_table[] = {
    { "median", bi_quantile, "median(x, axis=none, *, keepdims=false)",
      "the median along axis (all of x if none), by selection; nan if a lane holds nan", Q_MEDIAN, BF_OTHER, BT_NO },
    { "percentile", bi_quantile, "percentile(x, q, axis=none, *, method=\"linear\", keepdims=false)",
      "the q-th percentiles (q in [0, 100], a number or a tensor) by any of numpy's methods", Q_PERCENTILE, BF_OTHER, BT_NO },
    { "quantile", bi_quantile, "quantile(x, q, axis=none, *, method=\"linear\", keepdims=false)",
      "the q-th quantiles (q in [0, 1], a number or a tensor) by any of numpy's methods", Q_QUANTILE, BF_OTHER, BT_NO },
    { "histogram", bi_histogram, "histogram(x, bins=10, range=none, weights=none, density=false)",
      "(counts, edges): equal bins over range (default x's min..max) or the given edges; last bin closed", 0, BF_OTHER, BT_NO },
    { "bincount", bi_bincount, "bincount(x, weights=none, minlength=0)",
      "occurrences of each non-negative integer of the 1-d x (sums of weights if given)", 0, BF_OTHER, BT_NO },
    { 0 },
};
