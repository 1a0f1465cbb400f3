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

/* Below this population, or when it is within SPARSE_RATIO times the sample, a draw keeps the whole
   population as a table of n indices; above both, only the entries its swaps have moved. */
#define DENSE_MAX_N ((int64_t)1 << 16)
#define SPARSE_RATIO 4

/* The positions Fisher-Yates has moved, as an open-addressed table from position to index: a
   position not in it still holds itself. */
typedef struct moved {
    int64_t *pos, *val;   /* pos -1: an empty slot */
    uint64_t mask;
    int shift;            /* 64 - log2 of the slots: a hash's top bits pick the slot */
} moved;

/* A table for up to k moves (at most half full); false when it cannot be allocated. */
static bool moved_init(moved *m, int64_t k)
{
    uint64_t cap = 16;
    m->shift = 60;
    while (cap / 2 < (uint64_t)k && cap <= SIZE_MAX / 16) cap *= 2, m->shift--;
    m->mask = cap - 1;
    m->pos = cap / 2 >= (uint64_t)k ? malloc(cap * sizeof(int64_t)) : NULL;
    m->val = m->pos ? malloc(cap * sizeof(int64_t)) : NULL;
    if (!m->val) {
        free(m->pos);
        m->pos = NULL;
        return false;
    }
    memset(m->pos, 0xff, cap * sizeof(int64_t));
    return true;
}

/* The slot of position p: where it is, or the empty slot where it would go. */
static uint64_t moved_slot(const moved *m, int64_t p)
{
    uint64_t h = (uint64_t)p * UINT64_C(0x9E3779B97F4A7C15) >> m->shift;
    while (m->pos[h] >= 0 && m->pos[h] != p) h = (h + 1) & m->mask;
    return h;
}

/* Fisher-Yates's steps on a table of n indices: idx[i] and idx[j] swap and idx[i] is drawn. */
static void draw_dense(int64_t *idx, int64_t i, int64_t j, int64_t *dst)
{
    int64_t tmp = idx[i];
    idx[i] = idx[j];
    idx[j] = tmp;
    dst[i] = idx[i];
}

/* The same step on the moved positions alone: position i is never read again, so only j is
   written; the index drawn is the one the table would hold, so the draws are the same. */
static void draw_sparse(moved *m, int64_t i, int64_t j, int64_t *dst)
{
    uint64_t si = moved_slot(m, i), sj = moved_slot(m, j);
    int64_t vi = m->pos[si] >= 0 ? m->val[si] : i, vj = m->pos[sj] >= 0 ? m->val[sj] : j;
    m->pos[sj] = j;
    m->val[sj] = vi;
    dst[i] = vj;
}

/* The first k entries of a random permutation of 0..n-1, by Fisher-Yates on the generator's
   uniforms: on a table of the population when it is small, else on the positions moved (the
   same draws, in memory for k rather than n). */
static tl_tensor *partial_permutation(int64_t n, int64_t k, int ndim, const int64_t *shape)
{
    bool dense = n <= DENSE_MAX_N || n / SPARSE_RATIO <= k;
    tl_tensor *out = tl_tensor_empty(TL_I64, ndim, shape);
    if (!out) return NULL;
    int64_t *idx = NULL;
    moved m = { 0 };
    bool table;
    if (!dense) table = moved_init(&m, k);
    else if (n == 0) table = true;
    else table = (uint64_t)n <= SIZE_MAX / sizeof(int64_t) && (idx = malloc(sizeof(int64_t) * (size_t)n));
    tl_tensor *u = table ? uniforms(k) : NULL;
    if (!u) {
        if (!table) tl_seterr(MemoryError, "out of memory");
        free(idx);
        free(m.pos);
        free(m.val);
        tl_tensor_release(out);
        return NULL;
    }
    const double *r = tl_tensor_data(u);
    int64_t *dst = tl_tensor_data(out);
    for (int64_t i = 0; dense && i < n; i++) idx[i] = i;
    for (int64_t i = 0; i < k; i++) {
        int64_t j = i + (int64_t)(r[i] * (double)(n - i));
        if (j >= n) j = n - 1;   /* guards the rounding of r * (n - i) */
        if (dense) draw_dense(idx, i, j, dst);
        else draw_sparse(&m, i, j, dst);
    }
    free(idx);
    free(m.pos);
    free(m.val);
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
