/* stats.c — quantiles by selection (median, percentile, quantile) and numpy's quantile arithmetic */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kern.h"
#include "ops.h"
#include "stats.h"

#define SWAP(T, x, y) do { T tmp_ = (x); (x) = (y); (y) = tmp_; } while (0)

/* A lane at least this long, read in place, is first tried by bracketing its ranks
   from a sample (one streaming pass, no copy of the lane). */
#define BRACKET_MIN 65536
#define SAMPLE 8192
#define SAMPLE_MARGIN 192

/* Most brackets one pass fills (clusters of ranks far apart, e.g. percentiles 5, 50, 95). */
#define MAX_BRACKETS 4

/* One bracket: ranks ks[first..last], between sample positions ilo and ihi, gathering at
   most cap values. */
typedef struct bracket { int64_t first, last, ilo, ihi, cap; } bracket;

/* Groups ranks ks[0] < ... < ks[nk-1] of n values into brackets whose sample windows do not
   overlap; the count, or -1 when there would be more than MAX_BRACKETS or they would gather
   more than a third of the lane (copying it is then as cheap). */
static int plan_brackets(int64_t n, int64_t nk, const int64_t *ks, bracket *br)
{
    int nbr = 0;
    int64_t gathered = 0;
    for (int64_t j = 0; j < nk; j++) {
        int64_t at = ks[j] * SAMPLE / n, ilo = at - SAMPLE_MARGIN, ihi = at + SAMPLE_MARGIN;
        if (nbr && ilo <= br[nbr - 1].ihi) {
            br[nbr - 1].ihi = ihi, br[nbr - 1].last = j;
            continue;
        }
        if (nbr == MAX_BRACKETS) return -1;
        br[nbr++] = (bracket){ .first = j, .last = j, .ilo = ilo, .ihi = ihi };
    }
    for (int c = 0; c < nbr; c++) {
        br[c].cap = (br[c].ihi - br[c].ilo) * (n / SAMPLE + 1) * 2 + 4096;
        gathered += br[c].cap;
    }
    return gathered > n / 3 ? -1 : nbr;
}

/* Per element type T (suffix S): an ascending comparison for qsort, selection of rank k
   in place (Hoare partitions around a median of three; a range that keeps not shrinking
   is sorted instead), and the bracketing pass. Lanes hold no nan when selected. */
#define DEF_SELECT(T, S)                                                                         \
    static int cmp_##S(const void *pa, const void *pb)                                          \
    {                                                                                            \
        T x = *(const T *)pa, y = *(const T *)pb;                                                \
        return (x > y) - (x < y);                                                                \
    }                                                                                            \
    static void select_##S(T *v, int64_t n, int64_t k)                                           \
    {                                                                                            \
        int64_t lo = 0, hi = n - 1;                                                              \
        int rounds = 0;                                                                          \
        while (hi > lo) {                                                                        \
            if (hi - lo < 16 || ++rounds > 96) {                                                 \
                qsort(v + lo, (size_t)(hi - lo + 1), sizeof(T), cmp_##S);                        \
                return;                                                                          \
            }                                                                                    \
            int64_t mid = lo + (hi - lo) / 2;                                                    \
            if (v[mid] < v[lo]) SWAP(T, v[mid], v[lo]);                                          \
            if (v[hi] < v[lo]) SWAP(T, v[hi], v[lo]);                                            \
            if (v[hi] < v[mid]) SWAP(T, v[hi], v[mid]);                                          \
            T p = v[mid];                                                                        \
            int64_t i = lo, j = hi;                                                              \
            while (i <= j) {                                                                     \
                while (v[i] < p) i++;                                                            \
                while (p < v[j]) j--;                                                            \
                if (i <= j) {                                                                    \
                    SWAP(T, v[i], v[j]);                                                         \
                    i++;                                                                         \
                    j--;                                                                         \
                }                                                                                \
            }                                                                                    \
            if (k <= j) hi = j;                                                                  \
            else if (k >= i) lo = i;                                                             \
            else return;                                                                         \
        }                                                                                        \
    }                                                                                            \
    /* Ranks ks[0] < ... < ks[nk-1] of v (n values, reordered) into out; true when v holds nan. */ \
    static bool select_ranks_##S(T *v, int64_t n, int64_t nk, const int64_t *ks, double *out)       \
    {                                                                                            \
        bool nan = false;                                                                        \
        for (int64_t i = 0; i < n; i++) nan |= v[i] != v[i];                                     \
        if (nan) return true;                                                                    \
        int64_t start = 0;                                                                       \
        for (int64_t j = 0; j < nk; j++) {                                                           \
            select_##S(v + start, n - start, ks[j] - start);                                     \
            start = ks[j];                                                                       \
            out[j] = (double)v[start];                                                           \
        }                                                                                        \
        return false;                                                                            \
    }                                                                                            \
    /* The same for a lane read in place: a sample brackets each cluster of nearby ranks       \
       between two values, one pass counts what lies below each bracket and gathers what lies  \
       inside it, and only that is selected. Returns 0 done, 1 nan found, -1 a bracket missed  \
       or the brackets would hold too much (the caller copies the lane). */                    \
    static int bracket_ranks_##S(const T *x, int64_t n, int64_t nk, const int64_t *ks, double *out)  \
    {                                                                                            \
        T sample[SAMPLE];                                                                        \
        uint64_t r = 0x9E3779B97F4A7C15ull;                                                      \
        for (int i = 0; i < SAMPLE; i++) {                                                       \
            r = r * 6364136223846793005ull + 1442695040888963407ull;                             \
            sample[i] = x[(int64_t)((r >> 33) % (uint64_t)n)];                                   \
            if (sample[i] != sample[i]) return 1;                                                \
        }                                                                                        \
        qsort(sample, SAMPLE, sizeof(T), cmp_##S);                                               \
        bracket br[MAX_BRACKETS];                                                                \
        int nbr = plan_brackets(n, nk, ks, br);                                                  \
        if (nbr < 0) return -1;                                                                  \
        T lo[MAX_BRACKETS], hi[MAX_BRACKETS], *buf[MAX_BRACKETS];                                \
        int64_t below[MAX_BRACKETS] = { 0 }, nb[MAX_BRACKETS] = { 0 }, total = 0;                \
        for (int c = 0; c < nbr; c++) {                                                          \
            lo[c] = br[c].ilo < 0 ? (T)-INFINITY : sample[br[c].ilo];                            \
            hi[c] = br[c].ihi >= SAMPLE ? (T)INFINITY : sample[br[c].ihi];                       \
            total += br[c].cap + 4096;                                                           \
        }                                                                                        \
        T *mem = malloc((size_t)total * sizeof(T));                                              \
        if (!mem) return -1;                                                                     \
        for (int c = 0; c < nbr; c++)                                                            \
            buf[c] = c ? buf[c - 1] + br[c - 1].cap + 4096 : mem;                                \
        int nan = 0, over = 0;                                                                   \
        for (int64_t b = 0; b < n && !nan && !over; b += 4096) {                                 \
            int64_t e = n - b < 4096 ? n : b + 4096;                                             \
            for (int c = 0; c < nbr; c++) {   /* bracket by bracket: each loop has no branch */   \
                T l = lo[c], h = hi[c], *bc = buf[c];                                            \
                int64_t bl = below[c], k = nb[c];                                                \
                for (int64_t i = b; i < e; i++) {                                                \
                    T v = x[i];                                                                  \
                    bl += v < l;                                                                 \
                    bc[k] = v;                                                                   \
                    k += (v >= l) & (v <= h);                                                    \
                }                                                                                \
                below[c] = bl, nb[c] = k;                                                        \
                over |= k > br[c].cap;                                                           \
            }                                                                                    \
            for (int64_t i = b; i < e; i++) nan |= x[i] != x[i];                                 \
        }                                                                                        \
        int rc = nan ? 1 : 0;                                                                    \
        for (int c = 0; c < nbr && rc == 0; c++) {                                               \
            int64_t first = ks[br[c].first], last = ks[br[c].last];                             \
            if (over || below[c] > first || below[c] + nb[c] <= last) rc = -1;                   \
        }                                                                                        \
        for (int c = 0; c < nbr && rc == 0; c++) {                                               \
            int64_t start = 0;                                                                   \
            for (int64_t j = br[c].first; j <= br[c].last; j++) {                               \
                select_##S(buf[c] + start, nb[c] - start, ks[j] - below[c] - start);             \
                start = ks[j] - below[c];                                                        \
                out[j] = (double)buf[c][start];                                                  \
            }                                                                                    \
        }                                                                                        \
        free(mem);                                                                               \
        return rc;                                                                               \
    }

DEF_SELECT(float, f32)
DEF_SELECT(double, f64)

/* Ascending order of int64_t, for qsort. */
static int cmp_i64(const void *pa, const void *pb)
{
    int64_t x = *(const int64_t *)pa, y = *(const int64_t *)pb;
    return (x > y) - (x < y);
}

/* tl_round_to's narrow floats (f16, bf16): through their bits. */
double tl_round_to_narrow(tl_dtype dt, double v)
{
    tl_scalar h;
    tl_scalar_convert(&h, dt, &v, TL_F64);
    return tl_scalar_to_f64(&h, dt);
}

/* The ranks a lane of n values needs: the middle one or two for the median, those each
   fraction q[i] reads by the method (prev[i], next[i], weighed by gamma[i]: quantile.c). */
static int64_t lane_ranks(tl_quant_kind kind, int64_t n, int64_t nq, const double *q, int64_t *prev, int64_t *next,
                          double *gamma, int64_t *ks)
{
    int64_t nk = 0;
    if (kind == TL_QUANT_MEDIAN) {
        ks[nk++] = (n - 1) / 2;
        if (n % 2 == 0) ks[nk++] = n / 2;
        return nk;
    }
    for (int64_t i = 0; i < nq; i++) tl_quant_ranks(kind, n, q[i], &prev[i], &next[i], &gamma[i]);
    int64_t *all = ks;
    for (int64_t i = 0; i < nq; i++) {
        all[nk++] = prev[i] < 0 ? n - 1 : prev[i];
        all[nk++] = next[i] < 0 ? n - 1 : next[i];
    }
    qsort(all, (size_t)nk, sizeof(int64_t), cmp_i64);
    int64_t u = 0;
    for (int64_t i = 0; i < nk; i++)
        if (u == 0 || all[u - 1] != all[i]) all[u++] = all[i];
    return u;
}

/* The selected value of rank r (ks sorted and holding r). */
static double rank_value(int64_t nk, const int64_t *ks, const double *vals, int64_t r)
{
    int64_t lo = 0, hi = nk - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ks[mid] < r) lo = mid + 1;
        else hi = mid;
    }
    return vals[lo];
}

/* The dtype a quantile of dtype `in` selects and averages in: a float's compute dtype (f32
   for f32, f16 and bf16, as np.mean sums them), f64 for every other dtype. */
static tl_dtype quantile_work(tl_dtype in) { return tl_is_float(in) ? tl_dtype_wide(in) : TL_F64; }

/* numpy's median of a lane from its middle value(s) v: their mean as np.mean takes it. */
static double lane_median(tl_dtype in, int64_t n, const double *v)
{
    if (n % 2) return v[0];
    if (quantile_work(in) == TL_F32) return (double)(((float)v[0] + (float)v[1]) / 2.0f);
    return (v[0] + v[1]) / 2.0;
}

/* numpy's _lerp: b - a in the input's dtype, then from whichever end is nearer. */
static double lerp(tl_dtype in, double a, double b, double t)
{
    double diff = tl_is_float(in) ? tl_round_to(in, b - a) : b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/* The ranks of one lane into vals; true when the lane holds nan. Reads the lane in place
   when it may (own false), else selects inside it. */
static bool lane_select(tl_dtype work, void *lane, bool own, void *scratch, int64_t n, int64_t nk,
                        const int64_t *ks, double *vals)
{
    size_t isz = tl_dtype_size(work);
    int rc = -1;
    if (!own && n >= BRACKET_MIN)
        rc = work == TL_F32 ? bracket_ranks_f32(lane, n, nk, ks, vals) : bracket_ranks_f64(lane, n, nk, ks, vals);
    if (rc >= 0) return rc == 1;
    void *v = lane;
    if (!own) v = memcpy(scratch, lane, (size_t)n * isz);
    return work == TL_F32 ? select_ranks_f32(v, n, nk, ks, vals) : select_ranks_f64(v, n, nk, ks, vals);
}

/* The lanes of a quantile and what their ranks are (tl_quantile's tasks). */
typedef struct lanes_ctx {
    tl_dtype in, work;
    tl_quant_kind kind;
    const char *base;            /* outer lanes of n values of `work`, one after another */
    bool own;                    /* base is a copy: lanes may be reordered in place */
    int64_t n, nk, nq, outer, per_task;
    const int64_t *ks, *prev, *next;
    const double *gamma;
    double *rd;                  /* nq x outer results */
} lanes_ctx;

/* Quantiles of lanes [task * per_task, ...) into rd; each task selects in its own scratch. */
static int lanes_task(void *ctx, int64_t task)
{
    const lanes_ctx *c = ctx;
    int64_t n = c->n, from = task * c->per_task, to = from + c->per_task < c->outer ? from + c->per_task : c->outer;
    size_t isz = tl_dtype_size(c->work);
    void *scratch = n > 0 && !c->own ? malloc((size_t)n * isz) : NULL;
    double *vals = malloc((size_t)(c->nk + 1) * sizeof(double));
    if ((n > 0 && !c->own && !scratch) || !vals) {
        free(scratch);
        free(vals);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t o = from; o < to; o++) {
        bool nan = n == 0;
        if (n > 0) nan = lane_select(c->work, (char *)c->base + o * n * (int64_t)isz, c->own, scratch, n, c->nk, c->ks, vals);
        for (int64_t i = 0; i < c->nq; i++) {
            double r = NAN;
            if (!nan && c->kind == TL_QUANT_MEDIAN) {
                r = lane_median(c->in, n, vals);
            } else if (!nan) {
                int64_t p = c->prev[i] < 0 ? n - 1 : c->prev[i], x = c->next[i] < 0 ? n - 1 : c->next[i];
                double a = rank_value(c->nk, c->ks, vals, p);
                r = tl_quant_discrete(c->kind) ? a : lerp(c->in, a, rank_value(c->nk, c->ks, vals, x), c->gamma[i]);
            }
            c->rd[i * c->outer + o] = r;
        }
    }
    free(scratch);
    free(vals);
    return 0;
}

tl_tensor *tl_quantile(const tl_tensor *a, int naxes, const int *axes, bool keepdims, tl_quant_kind kind,
                       int64_t nq, const double *q, int qndim, const int64_t *qshape)
{
    tl_dtype in = a->dtype;
    if (tl_is_complex(in)) {
        tl_seterr(TypeError, "%s of a complex tensor is not supported", kind == TL_QUANT_MEDIAN ? "median" : "quantile");
        return NULL;
    }
    bool discrete = tl_quant_discrete(kind);
    if (kind != TL_QUANT_MEDIAN && !discrete && in == TL_BOOL) {
        tl_seterr(TypeError, "boolean subtract is not supported: interpolating between booleans needs a numeric tensor");
        return NULL;
    }
    if (kind == TL_QUANT_MEDIAN) nq = 1, qndim = 0;
    tl_dtype work = quantile_work(in);
    tl_dtype out_dt = discrete || (kind == TL_QUANT_MEDIAN && tl_is_float(in)) ? in : TL_F64;
    bool red[TL_MAXDIM] = { false };
    for (int i = 0; i < naxes; i++) red[axes[i]] = true;
    int perm[TL_MAXDIM], np = 0, rndim = 0;
    int64_t rshape[2 * TL_MAXDIM], outer = 1, n = 1;
    for (int i = 0; i < qndim; i++) rshape[rndim++] = qshape[i];
    for (int d = 0; d < a->ndim; d++) {
        if (!red[d]) perm[np++] = d, outer *= a->shape[d];
        if (!red[d] || keepdims) rshape[rndim++] = red[d] ? 1 : a->shape[d];
    }
    for (int d = 0; d < a->ndim; d++)
        if (red[d]) perm[np++] = d, n *= a->shape[d];
    if (rndim > TL_MAXDIM) {
        tl_seterr(ValueError, "the result would have %d dimensions (at most %d)", rndim, TL_MAXDIM);
        return NULL;
    }
    if (n == 0 && kind != TL_QUANT_MEDIAN && outer > 0 && nq > 0) {   /* numpy's take, or its partition at -1 */
        if (discrete) tl_seterr(IndexError, "index -1 is out of bounds for axis 0 with size 0");
        else tl_seterr(IndexError, "cannot do a non-empty take from an empty axes.");
        return NULL;
    }
    tl_tensor *res = tl_tensor_empty(TL_F64, rndim, rshape);
    if (!res) return NULL;
    double *rd = tl_tensor_data(res);
    tl_tensor *view = tl_view_permute(a, perm), *own = NULL;
    int64_t *ks = malloc((size_t)(2 * nq + 2) * sizeof(int64_t)), *prev = malloc((size_t)(nq + 1) * sizeof(int64_t)),
            *next = malloc((size_t)(nq + 1) * sizeof(int64_t));
    double *gamma = malloc((size_t)(nq + 1) * sizeof(double));
    bool ok = view != NULL;
    if (ok && !(ks && prev && next && gamma)) ok = false, tl_seterr(MemoryError, "out of memory");
    const char *base = NULL;
    if (ok && outer > 0 && n > 0) {
        if (in == work && tl_is_contiguous(view)) {
            base = tl_tensor_data(view);
        } else {
            tl_tensor *c = tl_cast(view, work);
            own = c ? tl_contiguous(c) : NULL;
            if (c) tl_tensor_release(c);
            ok = own != NULL;
            if (own) base = tl_tensor_data(own);
        }
    }
    int64_t nk = ok && n > 0 ? lane_ranks(kind, n, nq, q, prev, next, gamma, ks) : 0;
    lanes_ctx lc = { .in = in, .work = work, .kind = kind, .base = base, .own = own != NULL, .n = n, .nk = nk,
                    .nq = nq, .outer = outer, .ks = ks, .prev = prev, .next = next, .gamma = gamma, .rd = rd };
    int64_t tasks = outer > 1 && n > 0 ? tl_threads_for(outer * n) : 1;
    if (tasks > 1) tasks = outer < 4 * tasks ? outer : 4 * tasks;   /* a few per thread: lanes finish unevenly */
    lc.per_task = (outer + tasks - 1) / tasks;
    if (ok && outer > 0) ok = (tasks > 1 ? tl_parallel_for(tasks, lanes_task, &lc) : lanes_task(&lc, 0)) == 0;
    free(ks);
    free(prev);
    free(next);
    free(gamma);
    if (own) tl_tensor_release(own);
    if (view) tl_tensor_release(view);
    if (!ok) {
        tl_tensor_release(res);
        return NULL;
    }
    if (out_dt == TL_F64) return res;
    tl_tensor *c = tl_cast(res, out_dt);
    tl_tensor_release(res);
    return c;
}
