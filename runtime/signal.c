/* signal.c — numpy.convolve and numpy.interp on 1-d samples */
#include <math.h>
#include <stdlib.h>

#include "ops.h"
#include "stats.h"

/* t as a contiguous tensor of dtype dt (a new reference). */
static tl_tensor *contiguous_as(const tl_tensor *t, tl_dtype dt)
{
    tl_tensor *c = tl_cast(t, dt), *cc = c ? tl_contiguous(c) : NULL;
    if (c) tl_tensor_release(c);
    return cc;
}

tl_tensor *tl_convolve(const tl_tensor *a, const tl_tensor *v, int mode)
{
    if (a->ndim > 1 || v->ndim > 1) {
        tl_seterr(ValueError, "object too deep for desired array");
        return NULL;
    }
    int64_t n = tl_tensor_size(a), m = tl_tensor_size(v);
    if (n < m) {                       /* numpy swaps so that a is the longer */
        const tl_tensor *t = a;
        a = v, v = t;
        int64_t k = n;
        n = m, m = k;
    }
    if (n == 0 || m == 0) {
        tl_seterr(ValueError, n == 0 ? "a cannot be empty" : "v cannot be empty");
        return NULL;
    }
    tl_dtype dt = tl_promote(a->dtype, v->dtype);
    if (tl_is_complex(dt)) {
        tl_seterr(TypeError, "convolve of complex tensors is not supported");
        return NULL;
    }
    bool ints = tl_is_int(dt) || dt == TL_BOOL;   /* bool: counts of coinciding trues, then any() as numpy */
    tl_dtype work = ints ? TL_I64 : TL_F64;
    int64_t len = mode == 0 ? n + m - 1 : mode == 1 ? n : n - m + 1;
    int64_t off = mode == 0 ? 0 : mode == 1 ? (m - 1) / 2 : m - 1;
    tl_tensor *ac = contiguous_as(a, work), *vc = ac ? contiguous_as(v, work) : NULL;
    tl_tensor *r = vc ? tl_tensor_empty(work, 1, &len) : NULL;
    if (r) {
        for (int64_t i = 0; i < len; i++) {
            int64_t k = i + off, j0 = k - (n - 1) > 0 ? k - (n - 1) : 0, j1 = k < m - 1 ? k : m - 1;
            if (ints) {
                const int64_t *x = tl_tensor_data(ac), *y = tl_tensor_data(vc);
                uint64_t s = 0;     /* wraps as numpy's integer sums do */
                for (int64_t j = j0; j <= j1; j++) s += (uint64_t)x[k - j] * (uint64_t)y[j];
                ((int64_t *)tl_tensor_data(r))[i] = (int64_t)s;
            } else {
                const double *x = tl_tensor_data(ac), *y = tl_tensor_data(vc);
                double s = 0;
                for (int64_t j = j0; j <= j1; j++) s += x[k - j] * y[j];
                ((double *)tl_tensor_data(r))[i] = s;
            }
        }
    }
    if (ac) tl_tensor_release(ac);
    if (vc) tl_tensor_release(vc);
    if (!r || r->dtype == dt) return r;
    tl_tensor *c = tl_cast(r, dt);
    tl_tensor_release(r);
    return c;
}

/* numpy's binary_search_with_guess without the guess: -1 below xp[0], n above xp[n-1],
   else the last j with xp[j] <= x. */
static int64_t interp_index(const double *xp, int64_t n, double x)
{
    if (x < xp[0]) return -1;
    if (x > xp[n - 1]) return n;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (x >= xp[mid]) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

tl_tensor *tl_interp(const tl_tensor *x, const tl_tensor *xp, const tl_tensor *fp, const double *left,
                     const double *right)
{
    if (xp->ndim != 1 || fp->ndim != 1) {
        tl_seterr(ValueError, xp->ndim == 0 || fp->ndim == 0 ? "object of too small depth for desired array"
                                                             : "object too deep for desired array");
        return NULL;
    }
    if (xp->shape[0] != fp->shape[0]) {
        tl_seterr(ValueError, "fp and xp are not of the same length.");
        return NULL;
    }
    if (xp->shape[0] == 0) {
        tl_seterr(ValueError, "array of sample points is empty");
        return NULL;
    }
    if (tl_is_complex(x->dtype) || tl_is_complex(xp->dtype) || tl_is_complex(fp->dtype)) {
        tl_seterr(TypeError, "interp of complex values is not supported");
        return NULL;
    }
    tl_tensor *xc = contiguous_as(x, TL_F64), *pc = xc ? contiguous_as(xp, TL_F64) : NULL;
    tl_tensor *fc = pc ? contiguous_as(fp, TL_F64) : NULL;
    tl_tensor *r = fc ? tl_tensor_empty(TL_F64, x->ndim, x->shape) : NULL;
    if (r) {
        const double *dx = tl_tensor_data(pc), *dy = tl_tensor_data(fc), *xv = tl_tensor_data(xc);
        double *out = tl_tensor_data(r);
        int64_t n = xp->shape[0], count = tl_tensor_size(r);
        double lval = left ? *left : dy[0], rval = right ? *right : dy[n - 1];
        for (int64_t i = 0; i < count; i++) {
            double xv_i = xv[i], res;
            int64_t j = isnan(xv_i) ? -2 : interp_index(dx, n, xv_i);
            if (n == 1) res = xv_i < dx[0] ? lval : xv_i > dx[0] ? rval : dy[0];
            else if (j == -2) res = xv_i;
            else if (j == -1) res = lval;
            else if (j == n) res = rval;
            else if (j == n - 1 || dx[j] == xv_i) res = dy[j];
            else {
                double slope = (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j]);
                res = slope * (xv_i - dx[j]) + dy[j];
                if (isnan(res)) {
                    res = slope * (xv_i - dx[j + 1]) + dy[j + 1];
                    if (isnan(res) && dy[j] == dy[j + 1]) res = dy[j];
                }
            }
            out[i] = res;
        }
    }
    if (xc) tl_tensor_release(xc);
    if (pc) tl_tensor_release(pc);
    if (fc) tl_tensor_release(fc);
    return r;
}
