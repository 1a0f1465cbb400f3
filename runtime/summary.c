/* summary.c — stats of a tensor's values and the difference of two, a chunk at a time on every thread, in double */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kern.h"
#include "stream.h"
#include "summary.h"

/* Chunks one task reads: enough work per task to outlast its scheduling, and few enough
   tasks' partial figures to keep (one per task, combined in order at the end). */
#define CHUNKS_PER_TASK 16

/* Lanes of four doubles and eight floats (GCC and clang vector extensions: SSE2 pairs, or AVX
   where the compiler may use it; the same sums either way). */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));

/* Four contiguous floats at p, widened into *v. (Vectors pass through pointers: a 32-byte vector
   as a value changes the ABI with AVX, which GCC warns about in every build without it.) */
static inline __attribute__((always_inline)) void load4(v4d *v, const float *p)
{
    v4f f;
    memcpy(&f, p, sizeof f);
    *v = __builtin_convertvector(f, v4d);
}

/* The sum of the lanes of *v, pairwise. */
static inline __attribute__((always_inline)) double hsum(const v4d *v) { return ((*v)[0] + (*v)[1]) + ((*v)[2] + (*v)[3]); }

/* ---- stats ---------------------------------------------------------------------- */

void tl_stats_clear(tl_stats *st)
{
    memset(st, 0, sizeof *st);
    st->min = INFINITY;
    st->max = -INFINITY;
    st->absmax = -INFINITY;
}

void tl_stats_merge(tl_stats *a, const tl_stats *b)
{
    int64_t na = a->count - a->nan - a->inf, nb = b->count - b->nan - b->inf;
    if (nb > 0) {
        double n = (double)(na + nb), delta = b->mean - a->mean;
        a->m2 += b->m2 + delta * delta * ((double)na * (double)nb / n);
        a->mean += delta * ((double)nb / n);
    }
    a->count += b->count;
    a->nan += b->nan;
    a->inf += b->inf;
    if (b->min < a->min) a->min = b->min;
    if (b->max > a->max) a->max = b->max;
    if (b->absmax > a->absmax) a->absmax = b->absmax;
}

double tl_stats_std(const tl_stats *st)
{
    int64_t n = st->count - st->nan - st->inf;
    return n > 0 ? sqrt(st->m2 / (double)n) : NAN;
}

/* The figures of n values given one by one (any run with a nan or inf, and f64 runs). */
static void stats_slow(tl_stats *st, const void *run, bool wide, int64_t n)
{
    tl_stats c;
    tl_stats_clear(&c);
    double s1 = 0, s2 = 0, shift = 0;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = wide ? ((const double *)run)[i] : ((const float *)run)[i];
        if (isnan(x)) c.nan++;
        else if (isinf(x)) c.inf++;
        else {
            if (k++ == 0) shift = x;
            s1 += x - shift;
            s2 += (x - shift) * (x - shift);
            if (x < c.min) c.min = x;
            if (x > c.max) c.max = x;
        }
    }
    c.count = n;
    if (k > 0) {
        c.mean = shift + s1 / (double)k;
        c.m2 = fmax(s2 - s1 * s1 / (double)k, 0);
        c.absmax = fmax(fabs(c.min), fabs(c.max));
    }
    tl_stats_merge(st, &c);
}

/* Lanewise a < b ? a : b, and a > b ? a : b. */
static inline __attribute__((always_inline)) v4f vmin(v4f a, v4f b)
{
    v4i lt = a < b;
    return (v4f)(((v4i)a & lt) | ((v4i)b & ~lt));
}
static inline __attribute__((always_inline)) v4f vmax(v4f a, v4f b)
{
    v4i gt = a > b;
    return (v4f)(((v4i)a & gt) | ((v4i)b & ~gt));
}

/* The figures of n floats in one pass, merged into st when all are finite: sums of x - x[0]
   and its square in double (the shift keeps the variance from cancelling), extremes in float
   lanes. A nan or inf makes a sum nan or inf (finite floats' sums of squares stay far below
   double's range), and then nothing is merged: false. */
static inline __attribute__((always_inline)) bool stats_f32(tl_stats *st, const float *x, int64_t n)
{
    v4d s1a = { 0 }, s1b = { 0 }, s2a = { 0 }, s2b = { 0 }, shift = { x[0], x[0], x[0], x[0] };
    v4f lo, hi;
    for (int l = 0; l < 4; l++) lo[l] = hi[l] = x[0];
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v4f f, g;
        memcpy(&f, x + i, sizeof f);
        memcpy(&g, x + i + 4, sizeof g);
        lo = vmin(vmin(lo, f), g);
        hi = vmax(vmax(hi, f), g);
        v4d a = __builtin_convertvector(f, v4d) - shift, b = __builtin_convertvector(g, v4d) - shift;
        s1a += a, s1b += b, s2a += a * a, s2b += b * b;
    }
    v4d s1v = s1a + s1b, s2v = s2a + s2b;
    double s1 = hsum(&s1v), s2 = hsum(&s2v);
    float mn = lo[0], mx = hi[0];
    for (int l = 1; l < 4; l++) mn = lo[l] < mn ? lo[l] : mn, mx = hi[l] > mx ? hi[l] : mx;
    for (; i < n; i++) {
        double a = (double)x[i] - shift[0];
        s1 += a, s2 += a * a;
        mn = x[i] < mn ? x[i] : mn, mx = x[i] > mx ? x[i] : mx;
    }
    if (!isfinite(s1) || !isfinite(s2)) return false;
    tl_stats c = { .count = n, .mean = shift[0] + s1 / (double)n, .min = mn, .max = mx };
    c.m2 = fmax(s2 - s1 * s1 / (double)n, 0);
    c.absmax = fmax(fabs(c.min), fabs(c.max));
    tl_stats_merge(st, &c);
    return true;
}

/* A run of n floats into st: the one-pass loop, or one by one when it met a nan or inf. Compiled
   twice (below): the same operations in the same order, so the same figures, with AVX2's
   four-double lanes where the processor has them (SSE2 pairs emulate them otherwise). */
static inline __attribute__((always_inline)) void stats_run(tl_stats *st, const float *x, int64_t n)
{
    if (!stats_f32(st, x, n)) stats_slow(st, x, false, n);
}

__attribute__((target("avx2"))) static void stats_run_avx2(tl_stats *st, const float *x, int64_t n) { stats_run(st, x, n); }
static void stats_run_base(tl_stats *st, const float *x, int64_t n) { stats_run(st, x, n); }

/* A pass over a tensor's chunks, one partial result per task. */
typedef struct pass {
    tl_stream in[2];
    int nin;
    bool avx2;                    /* the loops compiled for AVX2 */
    int64_t size, ntasks;
    void *parts;                  /* ntasks tl_stats or tl_diff */
} pass;

/* Chunks [task * CHUNKS_PER_TASK, ...) of the pass: element range of chunk c. */
static int64_t chunk_len(const pass *p, int64_t first)
{
    return p->size - first < TL_STREAM_CHUNK ? p->size - first : TL_STREAM_CHUNK;
}

static int stats_task(void *ctx, int64_t task)
{
    pass *p = ctx;
    tl_stats *st = (tl_stats *)p->parts + task;
    if (tl_check_interrupt() < 0) return -1;
    double *buf = malloc(TL_STREAM_CHUNK * sizeof *buf);
    if (!buf) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    tl_stats_clear(st);
    for (int64_t c = 0; c < CHUNKS_PER_TASK; c++) {
        int64_t first = (task * CHUNKS_PER_TASK + c) * TL_STREAM_CHUNK;
        if (first >= p->size) break;
        int64_t n = chunk_len(p, first);
        const void *run = tl_stream_read(&p->in[0], first, n, buf);
        if (p->in[0].wide) stats_slow(st, run, true, n);
        else if (p->avx2) stats_run_avx2(st, run, n);
        else stats_run_base(st, run, n);
    }
    free(buf);
    return 0;
}

/* Runs fn over the pass's tasks on every thread; parts of size `part` each. */
static int run_pass(pass *p, tl_task_fn fn, size_t part)
{
    p->avx2 = tl_simd_avx2();
    p->ntasks = (p->size + TL_STREAM_CHUNK * CHUNKS_PER_TASK - 1) / (TL_STREAM_CHUNK * CHUNKS_PER_TASK);
    p->parts = calloc((size_t)(p->ntasks ? p->ntasks : 1), part);
    if (!p->parts) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    if (p->ntasks > 0 && tl_parallel_for(p->ntasks, fn, p) < 0) {
        free(p->parts);
        return -1;
    }
    return 0;
}

int tl_stats_of(const tl_tensor *t, tl_stats *st)
{
    pass p = { .nin = 1 };
    tl_stats_clear(st);
    if (tl_stream_init(&p.in[0], t, false) < 0) return -1;
    p.size = p.in[0].size;
    if (run_pass(&p, stats_task, sizeof(tl_stats)) < 0) return -1;
    for (int64_t k = 0; k < p.ntasks; k++) tl_stats_merge(st, (tl_stats *)p.parts + k);
    free(p.parts);
    return 0;
}

/* ---- differences ---------------------------------------------------------------------- */

/* Adds chunk figures c (its pairs starting at flat index first) into d. */
static void diff_merge(tl_diff *d, const tl_diff *c)
{
    d->count += c->count;
    d->skipped += c->skipped;
    d->sum_d2 += c->sum_d2, d->sum_a2 += c->sum_a2, d->sum_b2 += c->sum_b2, d->sum_ab += c->sum_ab;
    if (c->max_abs > d->max_abs) {
        d->max_abs = c->max_abs;
        d->argmax = c->argmax;
    }
}

/* n pairs one by one (runs with a nan or inf, and f64 runs). */
static void diff_slow(tl_diff *d, const void *ra, const void *rb, bool wide, int64_t first, int64_t n)
{
    tl_diff c = { .count = n, .max_abs = -1, .argmax = -1 };
    for (int64_t i = 0; i < n; i++) {
        double a = wide ? ((const double *)ra)[i] : ((const float *)ra)[i];
        double b = wide ? ((const double *)rb)[i] : ((const float *)rb)[i];
        if (!isfinite(a) || !isfinite(b)) {
            c.skipped++;
            continue;
        }
        double e = a - b;
        c.sum_d2 += e * e, c.sum_a2 += a * a, c.sum_b2 += b * b, c.sum_ab += a * b;
        if (fabs(e) > c.max_abs) {
            c.max_abs = fabs(e);
            c.argmax = first + i;
        }
    }
    diff_merge(d, &c);
}

/* One step of four pairs: their differences' and values' sums of squares and products, and
   the lanes' largest |a - b| (GCC's vector extension; the lanes are AVX2's or SSE2 pairs). */
#define DIFF_STEP(x, y, dd, aa, bb, ab, mx)                                                        \
    do {                                                                                           \
        v4d e_ = x - y, ae_ = (v4d)((v4l)e_ & INT64_MAX);   /* |e|: the sign bit cleared */        \
        v4l gt_ = ae_ > mx;                                                                        \
        mx = (v4d)(((v4l)ae_ & gt_) | ((v4l)mx & ~gt_));                                           \
        dd += e_ * e_, aa += x * x, bb += y * y, ab += x * y;                                      \
    } while (0)

/* n pairs of floats in one pass, in double lanes (two sets of sums, for two additions in
   flight), merged into d when all are finite (else a sum is nan or inf, nothing is merged:
   false); the place of the largest difference is looked for afterwards, in this chunk only when
   it beats the figures so far. */
static inline __attribute__((always_inline)) bool diff_f32(tl_diff *d, const float *a, const float *b, int64_t first,
                                                         int64_t n)
{
    v4d dd = { 0 }, aa = { 0 }, bb = { 0 }, ab = { 0 }, mx = { 0 };
    v4d dd2 = { 0 }, aa2 = { 0 }, bb2 = { 0 }, ab2 = { 0 }, mx2 = { 0 };
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v4d x, y, x2, y2;
        load4(&x, a + i);
        load4(&y, b + i);
        load4(&x2, a + i + 4);
        load4(&y2, b + i + 4);
        DIFF_STEP(x, y, dd, aa, bb, ab, mx);
        DIFF_STEP(x2, y2, dd2, aa2, bb2, ab2, mx2);
    }
    dd += dd2, aa += aa2, bb += bb2, ab += ab2;
    tl_diff c = { .count = n, .sum_d2 = hsum(&dd), .sum_a2 = hsum(&aa), .sum_b2 = hsum(&bb), .sum_ab = hsum(&ab) };
    double m = fmax(fmax(fmax(mx[0], mx[1]), fmax(mx[2], mx[3])), fmax(fmax(mx2[0], mx2[1]), fmax(mx2[2], mx2[3])));
    for (; i < n; i++) {
        double x = a[i], y = b[i], e = x - y;
        c.sum_d2 += e * e, c.sum_a2 += x * x, c.sum_b2 += y * y, c.sum_ab += x * y;
        m = fmax(m, fabs(e));
    }
    if (!isfinite(c.sum_d2) || !isfinite(c.sum_a2) || !isfinite(c.sum_b2) || !isfinite(c.sum_ab)) return false;
    c.max_abs = m;
    c.argmax = -1;
    if (m > d->max_abs)
        for (int64_t k = 0; k < n; k++)
            if (fabs((double)a[k] - (double)b[k]) == m) {
                c.argmax = first + k;
                break;
            }
    diff_merge(d, &c);
    return true;
}

/* n pairs of floats into d (first: the flat index of the first): the one-pass loop, or one by
   one when it met a nan or inf; compiled twice as stats_run. */
static inline __attribute__((always_inline)) void diff_run(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n)
{
    if (!diff_f32(d, a, b, first, n)) diff_slow(d, a, b, false, first, n);
}

__attribute__((target("avx2"))) static void diff_run_avx2(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n)
{
    diff_run(d, a, b, first, n);
}
static void diff_run_base(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n) { diff_run(d, a, b, first, n); }

static int diff_task(void *ctx, int64_t task)
{
    pass *p = ctx;
    tl_diff *d = (tl_diff *)p->parts + task;
    if (tl_check_interrupt() < 0) return -1;
    double *ba = malloc(2 * TL_STREAM_CHUNK * sizeof *ba), *bb = ba + TL_STREAM_CHUNK;
    if (!ba) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    *d = (tl_diff){ .max_abs = -1, .argmax = -1 };
    bool wide = p->in[0].wide;
    for (int64_t c = 0; c < CHUNKS_PER_TASK; c++) {
        int64_t first = (task * CHUNKS_PER_TASK + c) * TL_STREAM_CHUNK;
        if (first >= p->size) break;
        int64_t n = chunk_len(p, first);
        const void *ra = tl_stream_read(&p->in[0], first, n, ba), *rb = tl_stream_read(&p->in[1], first, n, bb);
        if (wide) diff_slow(d, ra, rb, true, first, n);
        else if (p->avx2) diff_run_avx2(d, ra, rb, first, n);
        else diff_run_base(d, ra, rb, first, n);
    }
    free(ba);
    return 0;
}

int tl_diff_of(const tl_tensor *a, const tl_tensor *b, tl_diff *d)
{
    char sa[TL_MAXDIM * 22 + 8], sb[TL_MAXDIM * 22 + 8];
    *d = (tl_diff){ .max_abs = -1, .argmax = -1 };
    if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape) != 0) {
        tl_seterr(ShapeError, "shapes %s and %s differ", tl_shape_str(a->ndim, a->shape, sa, sizeof sa),
                  tl_shape_str(b->ndim, b->shape, sb, sizeof sb));
        return -1;
    }
    pass p = { .nin = 2 };
    if (tl_stream_init(&p.in[0], a, false) < 0) return -1;
    bool wide = p.in[0].wide;
    if (tl_stream_init(&p.in[1], b, wide) < 0) return -1;
    if (p.in[1].wide && !wide && tl_stream_init(&p.in[0], a, true) < 0) return -1;   /* both wide, or neither */
    p.size = p.in[0].size;
    if (run_pass(&p, diff_task, sizeof(tl_diff)) < 0) return -1;
    for (int64_t k = 0; k < p.ntasks; k++) diff_merge(d, (tl_diff *)p.parts + k);
    free(p.parts);
    return 0;
}
