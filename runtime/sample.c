/* sample.c — drawing from a population on random.c's stream: permutations and numpy's choice */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "tensor.h"

/* n uniforms in [0, 1) from the generator (one call of its stream), or NULL with an error set. */
static tl_tensor *uniforms(int64_t n)
{
    return tl_rand(TL_F64, 1, (int64_t[]){ n });
}

/* The first k entries of a random permutation of 0..n-1, by Fisher-Yates on the generator's uniforms. */
static tl_tensor *partial_permutation(int64_t n, int64_t k, int ndim, const int64_t *shape)
{
    tl_tensor *out = tl_tensor_empty(TL_I64, ndim, shape);
    int64_t *idx = n > 0 ? malloc(sizeof(int64_t) * (size_t)n) : NULL;
    tl_tensor *u = out && (idx || n == 0) ? uniforms(k) : NULL;
    if (!u) {
        if (out && n > 0 && !idx) tl_seterr(MemoryError, "out of memory");
        free(idx);
        if (out) tl_tensor_release(out);
        return NULL;
    }
    const double *r = tl_tensor_data(u);
    int64_t *dst = tl_tensor_data(out);
    for (int64_t i = 0; i < n; i++) idx[i] = i;
    for (int64_t i = 0; i < k; i++) {
        int64_t j = i + (int64_t)(r[i] * (double)(n - i));
        if (j >= n) j = n - 1;   /* guards the rounding of r * (n - i) */
        int64_t tmp = idx[i];
        idx[i] = idx[j];
        idx[j] = tmp;
        dst[i] = idx[i];
    }
    free(idx);
    tl_tensor_release(u);
    return out;
}

tl_tensor *tl_permutation_indices(int64_t n)
{
    if (n < 0) {
        tl_seterr(ValueError, "permutation(): n must not be negative");
        return NULL;
    }
    return partial_permutation(n, n, 1, &n);
}

/* Checks p as numpy's choice does and returns its values as doubles (malloc'd), or NULL with an error. */
static double *checked_probabilities(const tl_tensor *p, int64_t n, int64_t *nonzero)
{
    if (p->ndim != 1) {
        tl_seterr(ValueError, "choice(): p must be 1-dimensional");
        return NULL;
    }
    if (p->shape[0] != n) {
        tl_seterr(ValueError, "choice(): a and p must have the same size (%lld and %lld)", (long long)n, (long long)p->shape[0]);
        return NULL;
    }
    tl_tensor *pf = tl_cast(p, TL_F64);
    double *w = pf ? malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)) : NULL;
    if (!w) {
        if (pf) {
            tl_tensor_release(pf);
            tl_seterr(MemoryError, "out of memory");
        }
        return NULL;
    }
    memcpy(w, tl_tensor_data(pf), sizeof(double) * (size_t)n);   /* tl_cast gives a contiguous tensor */
    tl_tensor_release(pf);
    double sum = 0, c = 0;   /* Kahan's sum, as numpy */
    *nonzero = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!(w[i] >= 0) || isinf(w[i])) {
            free(w);
            tl_seterr(ValueError, "choice(): probabilities must be finite and not negative");
            return NULL;
        }
        *nonzero += w[i] > 0;
        double y = w[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    double atol = sqrt(2.220446049250313e-16);   /* numpy: sqrt of f64's epsilon */
    if (fabs(sum - 1.0) > atol) {
        free(w);
        tl_seterr(ValueError, "choice(): probabilities do not sum to 1 (they sum to %.17g)", sum);
        return NULL;
    }
    return w;
}

/* k indices drawn with probabilities w: with replacement by the cumulative sums (numpy's searchsorted
   rule: a zero weight is never drawn); without, one at a time from the weights left, renormalized. */
static tl_tensor *weighted(double *w, int64_t n, int64_t k, bool replace, int ndim, const int64_t *shape)
{
    tl_tensor *out = tl_tensor_empty(TL_I64, ndim, shape);
    tl_tensor *u = out ? uniforms(k) : NULL;
    if (!u) {
        if (out) tl_tensor_release(out);
        return NULL;
    }
    const double *r = tl_tensor_data(u);
    int64_t *dst = tl_tensor_data(out);
    if (replace) {
        for (int64_t i = 1; i < n; i++) w[i] += w[i - 1];
        for (int64_t i = 0; i < n; i++) w[i] /= w[n - 1];
        for (int64_t i = 0; i < k; i++) {
            int64_t lo = 0, hi = n - 1;   /* the first j with w[j] > r (the last one if rounding leaves none) */
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if (w[mid] > r[i]) hi = mid;
                else lo = mid + 1;
            }
            dst[i] = lo;
        }
    } else {
        for (int64_t i = 0; i < k; i++) {
            double total = 0;
            for (int64_t j = 0; j < n; j++) total += w[j];
            double x = r[i] * total, run = 0;
            int64_t pick = -1;
            for (int64_t j = 0; j < n && pick < 0; j++) {
                run += w[j];
                if (w[j] > 0 && x < run) pick = j;
            }
            for (int64_t j = n - 1; pick < 0 && j >= 0; j--)   /* rounding: the last weight left */
                if (w[j] > 0) pick = j;
            dst[i] = pick;
            w[pick] = 0;
        }
    }
    tl_tensor_release(u);
    return out;
}

tl_tensor *tl_choice_indices(int64_t n, int ndim, const int64_t *shape, bool replace, const tl_tensor *p)
{
    int64_t k;
    if (tl_shape_size(ndim, shape, &k) < 0) return NULL;
    if (n < 0 || (n == 0 && k > 0)) {
        tl_seterr(ValueError, "choice(): a must be greater than 0 unless no samples are taken");
        return NULL;
    }
    if (!replace && k > n) {
        tl_seterr(ValueError, "choice(): cannot take a larger sample (%lld) than the population (%lld) with replace=false",
                  (long long)k, (long long)n);
        return NULL;
    }
    if (!p) return replace ? (k > 0 ? tl_randint(0, n, TL_I64, ndim, shape) : tl_tensor_empty(TL_I64, ndim, shape))
                           : partial_permutation(n, k, ndim, shape);
    int64_t nonzero;
    double *w = checked_probabilities(p, n, &nonzero);
    if (!w) return NULL;
    tl_tensor *out = NULL;
    if (!replace && nonzero < k)
        tl_seterr(ValueError, "choice(): fewer non-zero entries in p (%lld) than size (%lld)", (long long)nonzero, (long long)k);
    else
        out = weighted(w, n, k, replace, ndim, shape);
    free(w);
    return out;
}
