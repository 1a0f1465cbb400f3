/* histogram.c — numpy.histogram and numpy.bincount, each one pass over the data */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cast.h"
#include "kernels/kern.h"
#include "ops.h"
#include "stats.h"

/* numpy's histogram works through its data in blocks of this many elements; weighted
   counts are summed per block in f64 and then added in the weights' dtype, as there. */
#define HIST_BLOCK 65536
#define CHUNK 4096

/* A range end as numpy prints it in its messages ("nan", "inf", "-1.5"). */
static const char *end_str(double v, char *buf, size_t n)
{
    if (isnan(v)) return "nan";
    snprintf(buf, n, "%.17g", v);
    return isinf(v) ? (v > 0 ? "inf" : "-inf") : buf;
}

/* Equal bins: what the pass needs, in the edges' dtype B (as doubles rounded to B). */
typedef struct uniform {
    tl_dtype B;
    int64_t bins;
    double first, last, norm;
    const double *edges;        /* bins + 1 */
} uniform;

/* numpy's bin of x (in [first, last]) among equal bins: the scaled index, then corrected
   by comparing with the edges, the last bin closed. */
static inline int64_t uniform_bin(const uniform *u, double x)
{
    int64_t i = (int64_t)tl_round_to(u->B, tl_round_to(u->B, x - u->first) * u->norm);
    if (i == u->bins) i--;
    if (x < u->edges[i]) i--;
    if (i != u->bins - 1 && x >= u->edges[i + 1]) i++;
    return i;
}

/* The f32 pass: f32 data and f32 edges, in float arithmetic throughout. Tasks of F32_SPAN
   elements count into rows of their own (four interleaved copies when the bins are few, so that
   a run of equal bins does not wait on its own last increment), summed at the end: counts are
   exact, so the thread count and order change nothing. */
#define F32_SPAN ((int64_t)1 << 20)
/* Above this many bins the copies would cost more than they save: one thread, one row. */
#define F32_ROW_BINS 65536
/* Counters a task keeps on its stack (copies x bins), 8 KB. */
#define F32_LOCAL_COUNTS 1024
typedef struct f32_counts {
    const float *x, *e;
    float first, last, norm;
    int64_t n, bins, copies, *rows;   /* rows: copies * bins counters per task */
} f32_counts;

/* Counts task t's span of the data into its own rows. */
static int f32_counts_task(void *ctx, int64_t t)
{
    const f32_counts *c = ctx;
    int64_t lo = t * F32_SPAN, hi = lo + F32_SPAN < c->n ? lo + F32_SPAN : c->n, bins = c->bins;
    int64_t *row = c->rows + t * c->copies * bins, mask = c->copies - 1, ncount = c->copies * bins;
    /* Few bins count on the stack: rows of tasks that threads run side by side share cache
       lines at their edges, and the compiler keeps first, last and norm in registers. */
    int64_t local[F32_LOCAL_COUNTS];
    int64_t *cnt = ncount <= F32_LOCAL_COUNTS ? local : row;
    if (cnt == local) memset(local, 0, (size_t)ncount * sizeof(int64_t));
    const float *e = c->e, *x = c->x, first = c->first, last = c->last, norm = c->norm;
    for (int64_t i = lo; i < hi; i++) {
        float v = x[i];
        if (!(v >= first && v <= last)) continue;
        int64_t k = (int64_t)((v - first) * norm);
        k -= k == bins;
        k -= v < e[k];
        k += k != bins - 1 && v >= e[k + 1];
        cnt[(i & mask) * bins + k]++;
    }
    if (cnt == local)
        for (int64_t k = 0; k < ncount; k++) row[k] += local[k];
    return tl_check_interrupt();
}

/* numpy's equal-bin counts of f32 data with f32 edges; -1 on an error (set). */
static int uniform_counts_f32(const uniform *u, const float *x, int64_t n, int64_t *counts)
{
    int64_t bins = u->bins, tasks = (n + F32_SPAN - 1) / F32_SPAN, copies = bins > F32_ROW_BINS ? 1 : 4;
    if (copies == 1 || tl_threads_for(n) <= 1) tasks = n > 0;
    float *e = malloc((size_t)(bins + 1) * sizeof(float));
    int64_t *rows = tasks ? calloc((size_t)(tasks * copies * bins), sizeof(int64_t)) : NULL;
    if (!e || (tasks && !rows)) {
        free(e);
        free(rows);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t k = 0; k <= bins; k++) e[k] = (float)u->edges[k];
    f32_counts c = { x, e, (float)u->first, (float)u->last, (float)u->norm, n, bins, copies, rows };
    int rc = 0;
    if (tasks == 1) {   /* one thread: the spans one after another, into one set of rows */
        for (int64_t lo = 0; lo < n && rc == 0; lo += F32_SPAN) {
            f32_counts part = c;
            part.x = x + lo;
            part.n = n - lo < F32_SPAN ? n - lo : F32_SPAN;
            rc = f32_counts_task(&part, 0);
        }
    } else if (tasks > 1) {
        rc = tl_parallel_for(tasks, f32_counts_task, &c);
    }
    for (int64_t r = 0; rc == 0 && r < copies * tasks; r++)
        for (int64_t k = 0; k < bins; k++) counts[k] += rows[r * bins + k];
    free(e);
    free(rows);
    return rc;
}

/* The bin of x among increasing edges (numpy's searchsorted rule: [e_k, e_k+1), the last
   closed); -1 outside them or for nan. */
static int64_t edges_bin(const double *e, int64_t ne, double x)
{
    if (ne < 2 || !(x >= e[0] && x <= e[ne - 1])) return -1;
    if (x == e[ne - 1]) return ne - 2;      /* the last bin is closed */
    int64_t lo = 0, hi = ne - 1;            /* e[lo] <= x < e[hi] */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (e[mid] <= x) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The bins' edges as doubles, the equal-bin parameters, and the edges tensor itself. */
static int hist_edges(const tl_tensor *a, const tl_tensor *flat, const tl_hist_bins *hb, uniform *u, double **edges,
                      int64_t *nedges, tl_tensor **edges_t)
{
    tl_dtype B = tl_is_float(a->dtype) ? a->dtype : TL_F64;
    if (hb->edges) {
        tl_tensor *c = tl_cast(hb->edges, TL_F64), *cc = c ? tl_contiguous(c) : NULL;
        if (c) tl_tensor_release(c);
        if (!cc) return -1;
        int64_t ne = hb->edges->shape[0];
        double *e = malloc((size_t)(ne + 1) * sizeof(double));
        if (!e) {
            tl_tensor_release(cc);
            tl_seterr(MemoryError, "out of memory");
            return -1;
        }
        memcpy(e, tl_tensor_data(cc), (size_t)ne * sizeof(double));
        tl_tensor_release(cc);
        for (int64_t k = 0; k + 1 < ne; k++)
            if (e[k] > e[k + 1]) {
                free(e);
                tl_seterr(ValueError, "`bins` must increase monotonically, when an array");
                return -1;
            }
        tl_tensor_retain((tl_tensor *)hb->edges);
        *edges_t = (tl_tensor *)hb->edges, *edges = e, *nedges = ne, u->bins = 0;
        return 0;
    }
    double first, last, width;
    bool scalar_width = false;   /* last - first taken in B (numpy subtracts two of a's scalars) */
    int64_t size = tl_tensor_size(flat);
    if (hb->has_range) {
        first = hb->lo, last = hb->hi;
        if (first > last) {
            tl_seterr(ValueError, "max must be larger than min in range parameter.");
            return -1;
        }
        if (!isfinite(first) || !isfinite(last)) {
            char b1[32], b2[32];
            tl_seterr(ValueError, "supplied range of [%s, %s] is not finite", end_str(first, b1, 32), end_str(last, b2, 32));
            return -1;
        }
    } else if (size == 0) {
        first = 0, last = 1;
    } else {
        tl_tensor *mn = tl_reduce(TL_RMIN, flat, 0, NULL, false, 0), *mx = mn ? tl_reduce(TL_RMAX, flat, 0, NULL, false, 0) : NULL;
        if (!mx) {
            if (mn) tl_tensor_release(mn);
            return -1;
        }
        first = tl_scalar_to_f64(tl_tensor_data(mn), mn->dtype), last = tl_scalar_to_f64(tl_tensor_data(mx), mx->dtype);
        tl_tensor_release(mn);
        tl_tensor_release(mx);
        if (!isfinite(first) || !isfinite(last)) {
            char b1[32], b2[32];
            tl_seterr(ValueError, "autodetected range of [%s, %s] is not finite", end_str(first, b1, 32), end_str(last, b2, 32));
            return -1;
        }
        scalar_width = tl_is_float(a->dtype);
    }
    if (first == last) first -= 0.5, last += 0.5, scalar_width = false;
    width = scalar_width ? tl_round_to(B, last - first) : last - first;
    tl_tensor *et = tl_linspace(first, last, hb->count + 1, true, B);
    tl_tensor *ed = et ? tl_cast(et, TL_F64) : NULL;
    double *e = ed ? malloc((size_t)(hb->count + 1) * sizeof(double)) : NULL;
    if (!e) {
        if (ed) tl_seterr(MemoryError, "out of memory");
        if (et) tl_tensor_release(et);
        if (ed) tl_tensor_release(ed);
        return -1;
    }
    memcpy(e, tl_tensor_data(ed), (size_t)(hb->count + 1) * sizeof(double));
    tl_tensor_release(ed);
    *u = (uniform){ B, hb->count, tl_round_to(B, first), tl_round_to(B, last), tl_round_to(B, (double)hb->count / width), e };
    if (!isfinite(u->norm)) {   /* the range is too narrow to split in B ([1e17, 1e17] after the +-0.5): numpy 2's error */
        free(e);
        tl_tensor_release(et);
        tl_seterr(ValueError, "Too many bins for data range. Cannot create %lld finite-sized bins.", (long long)hb->count);
        return -1;
    }
    *edges_t = et, *edges = e, *nedges = hb->count + 1;
    return 0;
}

/* Adds one block's f64 sums into the histogram held in ntype (integers truncate, as astype,
   and add with wrapping, as numpy's int64 +=). */
static void add_block(tl_dtype nt, double *blk, double *hd, int64_t *hi, int64_t bins)
{
    for (int64_t k = 0; k < bins; k++) {
        if (tl_is_float(nt)) hd[k] = tl_round_to(nt, hd[k] + tl_round_to(nt, blk[k]));
        else hi[k] = (int64_t)((uint64_t)hi[k] + (uint64_t)cast_f64_to_i64(blk[k]));
        blk[k] = 0;
    }
}

/* The histogram n in its dtype nt: the float sums hd, or the integer counts hi, cast to nt. */
static tl_tensor *counts_in(tl_dtype nt, const double *hd, const int64_t *hi, int64_t bins)
{
    bool fl = tl_is_float(nt);
    tl_tensor *raw = tl_tensor_empty(fl ? TL_F64 : TL_I64, 1, &bins);
    if (!raw) return NULL;
    memcpy(tl_tensor_data(raw), fl ? (const void *)hd : (const void *)hi, (size_t)bins * 8);
    if (raw->dtype == nt) return raw;
    tl_tensor *n = tl_cast(raw, nt);
    tl_tensor_release(raw);
    return n;
}

/* numpy's n/db/n.sum(): the f64 density of n (the counts or weight sums in their dtype,
   released here) over the bins' widths; hd holds n's float sums, else hi its integer counts.
   NULL: error set. */
static tl_tensor *density_of(tl_tensor *n, const double *hd, const int64_t *hi, const double *e, tl_dtype edt)
{
    int64_t bins = n->shape[0];
    tl_tensor *s = hd ? tl_reduce(TL_RSUM, n, 0, NULL, false, 0) : NULL;   /* numpy's n.sum() */
    tl_tensor_release(n);
    if (hd && !s) return NULL;
    double total;
    if (s) {
        total = tl_scalar_to_f64(tl_tensor_data(s), s->dtype);
        tl_tensor_release(s);
    } else {
        uint64_t t = 0;   /* wraps, as numpy's int64 sum */
        for (int64_t k = 0; k < bins; k++) t += (uint64_t)hi[k];
        total = (double)(int64_t)t;
    }
    tl_tensor *d = tl_tensor_empty(TL_F64, 1, &bins);
    if (!d) return NULL;
    double *r = tl_tensor_data(d);
    for (int64_t k = 0; k < bins; k++) {
        double w = tl_is_float(edt) ? tl_round_to(edt, e[k + 1] - e[k]) : e[k + 1] - e[k];
        r[k] = (hd ? hd[k] : (double)hi[k]) / w / total;
    }
    return d;
}

int tl_histogram(const tl_tensor *a, const tl_hist_bins *hb, const tl_tensor *weights, bool density,
                 tl_tensor **hist, tl_tensor **edges_out)
{
    *hist = *edges_out = NULL;
    if (tl_is_complex(a->dtype) || (weights && tl_is_complex(weights->dtype))) {
        tl_seterr(TypeError, "histogram of complex values is not supported");
        return -1;
    }
    if (weights && (weights->ndim != a->ndim || memcmp(weights->shape, a->shape, (size_t)a->ndim * sizeof(int64_t)))) {
        tl_seterr(ValueError, "weights should have the same shape as a.");
        return -1;
    }
    tl_tensor *flat = tl_flatten(a), *wflat = NULL;
    if (!flat) return -1;
    uniform u = { 0 };
    double *e = NULL, *blk = NULL, *hd = NULL, *xbuf = NULL, *wbuf = NULL;
    int64_t ne = 0, *hi = NULL, n = tl_tensor_size(flat);
    tl_tensor *et = NULL, *h = NULL;
    int rc = -1;
    if (hist_edges(a, flat, hb, &u, &e, &ne, &et) < 0) goto out;
    int64_t bins = ne > 0 ? ne - 1 : 0;
    tl_dtype nt = weights ? weights->dtype : TL_I64;
    if (weights && !(wflat = tl_flatten(weights))) goto out;
    hi = calloc((size_t)bins + 1, sizeof(int64_t));
    hd = calloc((size_t)bins + 1, sizeof(double));
    blk = calloc((size_t)bins + 1, sizeof(double));
    xbuf = malloc(CHUNK * sizeof(double));
    wbuf = malloc(CHUNK * sizeof(double));
    if (!hi || !hd || !blk || !xbuf || !wbuf) {
        tl_seterr(MemoryError, "out of memory");
        goto out;
    }
    const char *xd = tl_tensor_data(flat), *wd = wflat ? tl_tensor_data(wflat) : NULL;
    size_t xs = tl_dtype_size(flat->dtype), ws = wflat ? tl_dtype_size(wflat->dtype) : 0;
    if (!weights && u.bins && flat->dtype == TL_F32 && u.B == TL_F32) {
        if (uniform_counts_f32(&u, (const float *)xd, n, hi) < 0) goto out;
    } else {
        for (int64_t b = 0; b < n; b += CHUNK) {
            int64_t m = n - b < CHUNK ? n - b : CHUNK;
            tl_convert_run(m, xd + b * (int64_t)xs, flat->dtype, (int64_t)xs, xbuf, TL_F64, sizeof(double));
            if (wd) tl_convert_run(m, wd + b * (int64_t)ws, wflat->dtype, (int64_t)ws, wbuf, TL_F64, sizeof(double));
            for (int64_t i = 0; i < m; i++) {
                double x = u.bins ? tl_round_to(u.B, xbuf[i]) : xbuf[i];
                int64_t k = -1;
                if (!u.bins) k = edges_bin(e, ne, x);
                else if (x >= u.first && x <= u.last) k = uniform_bin(&u, x);
                if (k < 0) continue;
                if (wd) blk[k] += wbuf[i];
                else hi[k]++;
            }
            if (wd && ((b + m) % HIST_BLOCK == 0 || b + m == n)) add_block(nt, blk, hd, hi, bins);
            if (tl_check_interrupt() < 0) goto out;
        }
    }
    h = counts_in(nt, hd, hi, bins);
    if (h && density) h = density_of(h, tl_is_float(nt) ? hd : NULL, hi, e, et->dtype);
    if (!h) goto out;
    *hist = h, *edges_out = et, et = NULL, rc = 0;
out:
    if (rc < 0 && h) tl_tensor_release(h);
    if (et) tl_tensor_release(et);
    tl_tensor_release(flat);
    if (wflat) tl_tensor_release(wflat);
    free(e);
    free(blk);
    free(hd);
    free(hi);
    free(xbuf);
    free(wbuf);
    return rc;
}

/* bincount reads x in place, in any integer dtype but u64: T's values as int64. Per type
   (suffix S), the range of x[lo, hi) and the counts (or weight sums) of its values. */
#define BINCOUNT_LOOPS(T, S)                                                                     \
    static void bin_range_##S(const void *x, int64_t lo, int64_t hi, int64_t *mn, int64_t *mx)  \
    {                                                                                            \
        const T *v = x;                                                                          \
        int64_t a = INT64_MAX, b = -1;                                                           \
        for (int64_t i = lo; i < hi; i++) {                                                      \
            int64_t e = (int64_t)v[i];                                                           \
            a = e < a ? e : a;                                                                   \
            b = e > b ? e : b;                                                                   \
        }                                                                                        \
        *mn = a, *mx = b;                                                                        \
    }                                                                                            \
    static void bin_count_##S(const void *x, int64_t lo, int64_t hi, int64_t *out)              \
    {                                                                                            \
        const T *v = x;                                                                          \
        for (int64_t i = lo; i < hi; i++) out[(int64_t)v[i]]++;                                  \
    }                                                                                            \
    static void bin_weigh_##S(const void *x, const double *w, int64_t n, double *out)            \
    {                                                                                            \
        const T *v = x;                                                                          \
        for (int64_t i = 0; i < n; i++) out[(int64_t)v[i]] += w[i];                              \
    }
BINCOUNT_LOOPS(uint8_t, u8)
BINCOUNT_LOOPS(uint16_t, u16)
BINCOUNT_LOOPS(uint32_t, u32)
BINCOUNT_LOOPS(int8_t, i8)
BINCOUNT_LOOPS(int16_t, i16)
BINCOUNT_LOOPS(int32_t, i32)
BINCOUNT_LOOPS(int64_t, i64)

typedef struct bin_loops {
    void (*range)(const void *, int64_t, int64_t, int64_t *, int64_t *);
    void (*count)(const void *, int64_t, int64_t, int64_t *);
    void (*weigh)(const void *, const double *, int64_t, double *);
} bin_loops;

/* The loops for dtype dt by its storage type; {NULL} for u64 (its values need not fit int64:
   numpy's 'safe' cast refuses it) and non-integers. */
static bin_loops bin_loops_for(tl_dtype dt)
{
#define BIN_LOOPS(NAME, S) [TL_CT_##NAME] = { bin_range_##S, bin_count_##S, bin_weigh_##S }
    static const bin_loops loops[TL_NCTYPES] = {
        BIN_LOOPS(U8, u8), BIN_LOOPS(U16, u16), BIN_LOOPS(U32, u32),
        BIN_LOOPS(I8, i8), BIN_LOOPS(I16, i16), BIN_LOOPS(I32, i32), BIN_LOOPS(I64, i64),
    };
#undef BIN_LOOPS
    int ct = tl_int_ctype_of(dt);
    return ct < 0 ? (bin_loops){ 0 } : loops[ct];
}

/* A bincount's passes, split into tasks over x: ranges, then counts into per-task rows. */
typedef struct bin_job {
    bin_loops f;
    const void *x;
    int64_t n, per_task, len;
    int64_t *mn, *mx;            /* per task */
    int64_t *rows;               /* per task, len counts each; NULL: the range pass */
} bin_job;

/* Task t of a bin_job: the range of its part of x, or its counts. */
static int bin_task(void *ctx, int64_t t)
{
    const bin_job *j = ctx;
    int64_t lo = t * j->per_task, hi = lo + j->per_task < j->n ? lo + j->per_task : j->n;
    if (j->rows) j->f.count(j->x, lo, hi, j->rows + t * j->len);
    else j->f.range(j->x, lo, hi, &j->mn[t], &j->mx[t]);
    return 0;
}

tl_tensor *tl_bincount(const tl_tensor *x, const tl_tensor *weights, int64_t minlength)
{
    if (x->ndim != 1) {
        tl_seterr(ValueError, x->ndim == 0 ? "object of too small depth for desired array" : "object too deep for desired array");
        return NULL;
    }
    bin_loops f = bin_loops_for(x->dtype);
    if (!f.range) {
        tl_seterr(TypeError, "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                  tl_dtypes[x->dtype].numpy_name);
        return NULL;
    }
    if (minlength < 0) {
        tl_seterr(ValueError, "'minlength' must not be negative");
        return NULL;
    }
    if (weights && (weights->ndim != 1 || weights->shape[0] != x->shape[0])) {
        tl_seterr(ValueError, "The weights and list don't have the same length.");
        return NULL;
    }
    if (weights && tl_is_complex(weights->dtype)) {
        tl_seterr(TypeError, "Cannot cast array data from dtype('%s') to dtype('float64') according to the rule 'safe'",
                  tl_dtypes[weights->dtype].numpy_name);
        return NULL;
    }
    tl_tensor *xc = tl_contiguous(x);   /* x itself when it is contiguous */
    if (!xc) return NULL;
    int64_t n = xc->shape[0], tasks = tl_threads_for(n), top = -1, low = 0;
    if (tasks > 1) tasks *= 4;   /* a few per thread */
    bin_job j = { .f = f, .x = tl_tensor_data(xc), .n = n, .per_task = (n + tasks - 1) / tasks };
    j.mn = malloc(sizeof(int64_t) * (size_t)tasks), j.mx = malloc(sizeof(int64_t) * (size_t)tasks);
    int rc = j.mn && j.mx ? 0 : (tl_seterr(MemoryError, "out of memory"), -1);
    if (rc == 0 && n > 0) rc = tasks > 1 ? tl_parallel_for(tasks, bin_task, &j) : bin_task(&j, 0);
    for (int64_t t = 0; rc == 0 && n > 0 && t < tasks; t++) {
        if (j.mn[t] < low) low = j.mn[t];
        if (j.mx[t] > top) top = j.mx[t];
    }
    free(j.mn), free(j.mx);
    if (rc == 0 && low < 0) rc = (tl_seterr(ValueError, "'list' argument must have no negative elements"), -1);
    if (rc == 0 && top == INT64_MAX)   /* max(x) + 1 counts: as tl_tensor_zeros says of any other too-big length */
        rc = (tl_seterr(ShapeError, "shape (%llu,) of i64 is too big", (unsigned long long)top + 1), -1);
    int64_t len = rc == 0 && top + 1 > minlength ? top + 1 : minlength;
    j.len = len;
    /* numpy: an empty x gives int64 counts even with weights */
    tl_tensor *r = rc == 0 ? tl_tensor_zeros(weights && n > 0 ? TL_F64 : TL_I64, 1, &len) : NULL, *w = NULL;
    if (r && weights && n > 0) {
        tl_tensor *wc = tl_cast(weights, TL_F64);
        w = wc ? tl_contiguous(wc) : NULL;
        if (wc) tl_tensor_release(wc);
        if (!w) tl_tensor_release(r), r = NULL;
    }
    if (r && w) {   /* one pass in order: each bin's sum adds its weights as numpy does */
        f.weigh(j.x, tl_tensor_data(w), n, tl_tensor_data(r));
    } else if (r && n > 0) {
        int64_t *out = tl_tensor_data(r);
        /* Counts are integers, so their order does not matter: tasks count into rows of their
           own when the rows cost less to add up than the counting itself. */
        j.rows = tasks > 1 && len <= n / (2 * tasks) ? calloc((size_t)(tasks * len), sizeof(int64_t)) : NULL;
        if (j.rows && tl_parallel_for(tasks, bin_task, &j) == 0) {
            for (int64_t t = 0; t < tasks; t++)
                for (int64_t b = 0; b < len; b++) out[b] += j.rows[t * len + b];
        } else {
            f.count(j.x, 0, n, out);
        }
        free(j.rows);
    }
    if (w) tl_tensor_release(w);
    tl_tensor_release(xc);
    return r;
}
