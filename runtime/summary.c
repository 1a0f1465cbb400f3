/* summary.c — stats of a tensor's values and the difference of two, a chunk at a time on every thread, in double */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include "kernels/intrinsics.h"   /* unit_summary_emulated_512 runs the AVX-512 steps on AVX2 */
#define STEPS_X86   /* the steps of both passes also in AVX2 and AVX-512 intrinsics */
#else
#define TL_TARGET_512(features) features
#endif
/* The target of the AVX-512 steps (AVX2's where a test emulates AVX-512). */
#define STEPS_512 __attribute__((target(TL_TARGET_512("avx512f"))))

#include "kernels/kern.h"
#include "kernels/prefetch.h"
#include "stream.h"
#include "summary.h"

/* Chunks one task reads: a sixteenth of the tensor, within these bounds (the split depends on
   the tensor's size alone, never on the threads, so the figures do not either). Enough work
   per task to outlast its scheduling, and few enough tasks' partial figures to keep (one per
   task, combined in order at the end). Longer tasks read longer runs of memory: compare() of
   two 1 GiB files of 64 MiB tensors, two threads, against a sum over one (three alternations
   in one process each): tasks of 16 chunks 2.07-2.17x, 32 1.98-2.03x, 64 1.95-2.00x, 128
   1.90-1.91x; against the build before, four alternations, best of 7: 81.9-85.1 ms against
   87.6-90.9 (1.95-1.97x the sum against 2.07-2.09x). summary() the same either way. */
#define TASKS_PER_TENSOR 16
#define TASK_CHUNKS_MIN 16
#define TASK_CHUNKS_MAX 64

/* Chunks per task of a tensor of nchunks chunks. */
static int64_t task_chunks(int64_t nchunks)
{
    int64_t c = nchunks / TASKS_PER_TENSOR;
    return c < TASK_CHUNKS_MIN ? TASK_CHUNKS_MIN : c > TASK_CHUNKS_MAX ? TASK_CHUNKS_MAX : c;
}

/* Lanes of eight doubles and floats (GCC and clang vector extensions: one AVX-512 register,
   two AVX ones or four SSE2 ones, as the function is compiled for; the same operations in
   each lane, so the same sums on every processor). */
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Eight contiguous floats at p (vectors pass through pointers and macros: a vector as a value
   changes the ABI with AVX, which GCC warns about in every build without it). */
#define LOAD8(v, p) memcpy(&(v), (p), sizeof(v))
/* The eight floats f widened to doubles. */
#define WIDEN8(f) __builtin_convertvector((f), v8d)
/* m becomes lanewise m < v ? m : v (MIN8) or m > v ? m : v (MAX8), v8f or v8d with its mask type. */
#define MIN8(m, v, I) ((m) = (__typeof__(m))(((I)(m) & ((m) < (v))) | ((I)(v) & ~((m) < (v)))))
#define MAX8(m, v, I) ((m) = (__typeof__(m))(((I)(m) & ((m) > (v))) | ((I)(v) & ~((m) > (v)))))

/* How far ahead of each step the steps ask for the bytes they will read: the hardware's own
   prefetching stops at the end of a 4 KiB page, and a step's request goes past it. On an
   AVX-512 Xeon (Sapphire Rapids-class), 64M floats from memory, best of seven: stats 14.1 ms
   on two threads and 19.4 on one without asking, 8.8 and 14.3 at 4 KiB ahead (1 and 2 KiB
   were slower, 8 KiB the same), where a sum took 9.5 and 17.8. A step reads 64 bytes of each
   stream: one request each. */
#define ASK_AHEAD_BYTES 4096
static inline __attribute__((always_inline)) void ask_ahead(const float *p) { prefetch_ahead(p, 64, ASK_AHEAD_BYTES); }

/* Whose registers the steps of a pass take: SSE2's (the vector extension), AVX2's, AVX-512's. */
enum steps_isa { STEPS_BASE, STEPS_AVX2, STEPS_AVX512 };

/* The sum of the lanes of *v, pairwise. */
static inline __attribute__((always_inline)) double hsum8(const v8d *v)
{
    return (((*v)[0] + (*v)[1]) + ((*v)[2] + (*v)[3])) + (((*v)[4] + (*v)[5]) + ((*v)[6] + (*v)[7]));
}

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

/* stats_f32's sixteen-float steps over x[0, n - n % 16): sums s (s1a s1b s2a s2b) and extremes e
   (lo hi lo2 hi2) carried on from their values; returns the elements done. */
static inline __attribute__((always_inline)) int64_t stats_steps(const float *x, int64_t n, const v8d *shift, v8d *s, v8f *e)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v8f f, g;
        ask_ahead(x + i);
        LOAD8(f, x + i);
        LOAD8(g, x + i + 8);
        MIN8(e[0], f, v8i);
        MIN8(e[2], g, v8i);
        MAX8(e[1], f, v8i);
        MAX8(e[3], g, v8i);
        v8d a = WIDEN8(f) - *shift, b = WIDEN8(g) - *shift;
        s[0] += a, s[1] += b, s[2] += a * a, s[3] += b * b;
    }
    return i;
}

#ifdef STEPS_X86
/* stats_steps in AVX-512 registers: GCC widens eight floats of the vector extension in two
   halves and a merge, three instructions where vcvtps2pd is one. The same operations per lane
   (min_ps and max_ps are MIN8 and MAX8), so the same figures. */
STEPS_512 static int64_t stats_steps_512(const float *x, int64_t n, const v8d *shift, v8d *s, v8f *e)
{
    __m512d sh = _mm512_loadu_pd((const double *)shift), s1a = _mm512_loadu_pd((const double *)&s[0]);
    __m512d s1b = _mm512_loadu_pd((const double *)&s[1]), s2a = _mm512_loadu_pd((const double *)&s[2]);
    __m512d s2b = _mm512_loadu_pd((const double *)&s[3]);
    __m256 lo = _mm256_loadu_ps((const float *)&e[0]), hi = _mm256_loadu_ps((const float *)&e[1]);
    __m256 lo2 = _mm256_loadu_ps((const float *)&e[2]), hi2 = _mm256_loadu_ps((const float *)&e[3]);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        ask_ahead(x + i);
        __m256 f = _mm256_loadu_ps(x + i), g = _mm256_loadu_ps(x + i + 8);
        lo = _mm256_min_ps(lo, f), lo2 = _mm256_min_ps(lo2, g);
        hi = _mm256_max_ps(hi, f), hi2 = _mm256_max_ps(hi2, g);
        __m512d a = _mm512_sub_pd(_mm512_cvtps_pd(f), sh), b = _mm512_sub_pd(_mm512_cvtps_pd(g), sh);
        s1a = _mm512_add_pd(s1a, a), s1b = _mm512_add_pd(s1b, b);
        s2a = _mm512_add_pd(s2a, _mm512_mul_pd(a, a)), s2b = _mm512_add_pd(s2b, _mm512_mul_pd(b, b));
    }
    _mm512_storeu_pd((double *)&s[0], s1a), _mm512_storeu_pd((double *)&s[1], s1b);
    _mm512_storeu_pd((double *)&s[2], s2a), _mm512_storeu_pd((double *)&s[3], s2b);
    _mm256_storeu_ps((float *)&e[0], lo), _mm256_storeu_ps((float *)&e[1], hi);
    _mm256_storeu_ps((float *)&e[2], lo2), _mm256_storeu_ps((float *)&e[3], hi2);
    return i;
}

/* stats_steps in AVX2 registers, each eight-double set of lanes as two four-double halves
   (lanes 0..3 and 4..7): the same operations per lane, so the same figures. Through the vector
   extension GCC kept the eight-double sums in memory and moved them through general registers
   at every step: summary() of 1 GiB of f32 took 2.9-3.2x a sum on a Zen 3's two threads. */
__attribute__((target("avx2"))) static int64_t stats_steps_avx2(const float *x, int64_t n, const v8d *shift, v8d *s, v8f *e)
{
    const double *sh = (const double *)shift;
    __m256d sh0 = _mm256_loadu_pd(sh), sh1 = _mm256_loadu_pd(sh + 4), r[8];
    for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_pd((const double *)s + 4 * k);   /* s1a s1b s2a s2b, halves */
    __m256 lo = _mm256_loadu_ps((const float *)&e[0]), hi = _mm256_loadu_ps((const float *)&e[1]);
    __m256 lo2 = _mm256_loadu_ps((const float *)&e[2]), hi2 = _mm256_loadu_ps((const float *)&e[3]);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        ask_ahead(x + i);
        __m256 f = _mm256_loadu_ps(x + i), g = _mm256_loadu_ps(x + i + 8);
        lo = _mm256_min_ps(lo, f), lo2 = _mm256_min_ps(lo2, g);
        hi = _mm256_max_ps(hi, f), hi2 = _mm256_max_ps(hi2, g);
        __m256d a0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), sh0);
        __m256d a1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 4)), sh1);
        __m256d b0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 8)), sh0);
        __m256d b1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i + 12)), sh1);
        r[0] = _mm256_add_pd(r[0], a0), r[1] = _mm256_add_pd(r[1], a1);
        r[2] = _mm256_add_pd(r[2], b0), r[3] = _mm256_add_pd(r[3], b1);
        r[4] = _mm256_add_pd(r[4], _mm256_mul_pd(a0, a0)), r[5] = _mm256_add_pd(r[5], _mm256_mul_pd(a1, a1));
        r[6] = _mm256_add_pd(r[6], _mm256_mul_pd(b0, b0)), r[7] = _mm256_add_pd(r[7], _mm256_mul_pd(b1, b1));
    }
    for (int k = 0; k < 8; k++) _mm256_storeu_pd((double *)s + 4 * k, r[k]);
    _mm256_storeu_ps((float *)&e[0], lo), _mm256_storeu_ps((float *)&e[1], hi);
    _mm256_storeu_ps((float *)&e[2], lo2), _mm256_storeu_ps((float *)&e[3], hi2);
    return i;
}
#endif

/* The figures of n floats in one pass, merged into st when all are finite: sums of x - x[0]
   and its square in double (the shift keeps the variance from cancelling), extremes in float
   lanes, sixteen floats a step in two sets of lanes (independent chains of additions). A nan or
   inf makes a sum nan or inf (finite floats' sums of squares stay far below double's range),
   and then nothing is merged: false. isa: whose registers the steps take (enum steps_isa). */
static inline __attribute__((always_inline)) bool stats_f32(tl_stats *st, const float *x, int64_t n, int isa)
{
    v8d sums[4] = { { 0 } }, shift = x[0] + (v8d){ 0 };
    v8f ext[4];
    for (int k = 0; k < 4; k++) ext[k] = x[0] + (v8f){ 0 };
#ifdef STEPS_X86
    int64_t i = isa == STEPS_AVX512 ? stats_steps_512(x, n, &shift, sums, ext)
                : isa == STEPS_AVX2 ? stats_steps_avx2(x, n, &shift, sums, ext)
                                    : stats_steps(x, n, &shift, sums, ext);
#else
    (void)isa;
    int64_t i = stats_steps(x, n, &shift, sums, ext);
#endif
    v8f lo = ext[0], hi = ext[1], lo2 = ext[2], hi2 = ext[3];
    v8d s1a = sums[0], s1b = sums[1], s2a = sums[2], s2b = sums[3];
    MIN8(lo, lo2, v8i);
    MAX8(hi, hi2, v8i);
    v8d s1v = s1a + s1b, s2v = s2a + s2b;
    double s1 = hsum8(&s1v), s2 = hsum8(&s2v);
    float mn = lo[0], mx = hi[0];
    for (int l = 1; l < 8; l++) mn = lo[l] < mn ? lo[l] : mn, mx = hi[l] > mx ? hi[l] : mx;
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
   three times (below): the same operations in the same order, so the same figures, in AVX-512's
   eight-double registers, or AVX2's four-double ones, where the processor has them (SSE2 pairs
   otherwise). */
static inline __attribute__((always_inline)) void stats_run(tl_stats *st, const float *x, int64_t n, int isa)
{
    if (!stats_f32(st, x, n, isa)) stats_slow(st, x, false, n);
}

STEPS_512 static void stats_run_avx512(tl_stats *st, const float *x, int64_t n) { stats_run(st, x, n, STEPS_AVX512); }
__attribute__((target("avx2"))) static void stats_run_avx2(tl_stats *st, const float *x, int64_t n) { stats_run(st, x, n, STEPS_AVX2); }
static void stats_run_base(tl_stats *st, const float *x, int64_t n) { stats_run(st, x, n, STEPS_BASE); }

/* A pass over a tensor's chunks, one partial result per task. */
typedef struct pass {
    tl_stream in[2];
    int nin;
    bool avx2, avx512;            /* the loops compiled for AVX2, for AVX-512 */
    int64_t size, ntasks, chunks; /* chunks: per task */
    void *parts;                  /* ntasks tl_stats or tl_diff */
} pass;

/* Elements of the chunk that starts at flat index first (the last chunk may be short). */
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
    for (int64_t c = 0; c < p->chunks; c++) {
        int64_t first = (task * p->chunks + c) * TL_STREAM_CHUNK;
        if (first >= p->size) break;
        int64_t n = chunk_len(p, first);
        const void *run = tl_stream_read(&p->in[0], first, n, buf);
        if (p->in[0].wide) stats_slow(st, run, true, n);
        else if (p->avx512) stats_run_avx512(st, run, n);
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
    p->avx512 = p->avx2 && tl_cpu_has_avx512();
    int64_t nchunks = (p->size + TL_STREAM_CHUNK - 1) / TL_STREAM_CHUNK;
    p->chunks = task_chunks(nchunks);
    p->ntasks = (nchunks + p->chunks - 1) / p->chunks;
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

/* One step of eight pairs: their differences' and values' sums of squares and products, and
   the lanes' largest |a - b|. */
#define DIFF_STEP(x, y, dd, aa, bb, ab, mx)                                                        \
    do {                                                                                           \
        v8d e_ = x - y, ae_ = (v8d)((v8l)e_ & INT64_MAX);   /* |e|: the sign bit cleared */        \
        MAX8(mx, ae_, v8l);                                                                        \
        dd += e_ * e_, aa += x * x, bb += y * y, ab += x * y;                                      \
    } while (0)

/* The first k < n with |a[k] - b[k]| == m (in double), eight pairs a step; n when there is none. */
static inline __attribute__((always_inline)) int64_t place_of(const float *a, const float *b, int64_t n, double m)
{
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        v8f fa, fb;
        LOAD8(fa, a + k);
        LOAD8(fb, b + k);
        v8d e = WIDEN8(fa) - WIDEN8(fb);
        v8l hit = (v8l)((v8l)e & INT64_MAX) == (v8l)(m + (v8d){ 0 });   /* |e| == m: the same bits (m is not nan) */
        int64_t any = 0;
        for (int l = 0; l < 8; l++) any |= hit[l];
        if (any) break;
    }
    for (; k < n; k++)
        if (fabs((double)a[k] - (double)b[k]) == m) return k;
    return n;
}

/* diff_f32's sixteen-pair steps over [0, n - n % 16): the ten sums and maxima s (dd aa bb ab mx,
   then the second set) carried on from their values; returns the pairs done. */
static inline __attribute__((always_inline)) int64_t diff_steps(const float *a, const float *b, int64_t n, v8d *s)
{
    v8d dd = s[0], aa = s[1], bb = s[2], ab = s[3], mx = s[4], dd2 = s[5], aa2 = s[6], bb2 = s[7], ab2 = s[8], mx2 = s[9];
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v8f fa, fb, fa2, fb2;
        ask_ahead(a + i), ask_ahead(b + i);
        LOAD8(fa, a + i);
        LOAD8(fb, b + i);
        LOAD8(fa2, a + i + 8);
        LOAD8(fb2, b + i + 8);
        v8d x = WIDEN8(fa), y = WIDEN8(fb), x2 = WIDEN8(fa2), y2 = WIDEN8(fb2);
        DIFF_STEP(x, y, dd, aa, bb, ab, mx);
        DIFF_STEP(x2, y2, dd2, aa2, bb2, ab2, mx2);
    }
    s[0] = dd, s[1] = aa, s[2] = bb, s[3] = ab, s[4] = mx, s[5] = dd2, s[6] = aa2, s[7] = bb2, s[8] = ab2, s[9] = mx2;
    return i;
}

#ifdef STEPS_X86
/* DIFF_STEP in AVX-512 registers (max_pd is MAX8). A product of two floats widened to double
   is exact (24-bit significands), so a fused multiply-add of x x, y y or x y rounds once where
   DIFF_STEP's add does: the same bits, in one instruction of two (not e e: e = x - y is rounded). */
#define DIFF_STEP_512(x, y, dd, aa, bb, ab, mx)                                                              \
    do {                                                                                                     \
        __m512d e_ = _mm512_sub_pd(x, y);                                                                    \
        mx = _mm512_max_pd(mx, _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(e_), no_sign)));     \
        dd = _mm512_add_pd(dd, _mm512_mul_pd(e_, e_)), aa = _mm512_fmadd_pd(x, x, aa);                       \
        bb = _mm512_fmadd_pd(y, y, bb), ab = _mm512_fmadd_pd(x, y, ab);                                      \
    } while (0)

/* diff_steps in AVX-512 registers, as stats_steps_512. */
STEPS_512 static int64_t diff_steps_512(const float *a, const float *b, int64_t n, v8d *s)
{
    __m512d r[10];
    for (int k = 0; k < 10; k++) r[k] = _mm512_loadu_pd((const double *)&s[k]);
    const __m512i no_sign = _mm512_set1_epi64(INT64_MAX);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        ask_ahead(a + i), ask_ahead(b + i);
        __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(a + i)), y = _mm512_cvtps_pd(_mm256_loadu_ps(b + i));
        __m512d x2 = _mm512_cvtps_pd(_mm256_loadu_ps(a + i + 8)), y2 = _mm512_cvtps_pd(_mm256_loadu_ps(b + i + 8));
        DIFF_STEP_512(x, y, r[0], r[1], r[2], r[3], r[4]);
        DIFF_STEP_512(x2, y2, r[5], r[6], r[7], r[8], r[9]);
    }
    for (int k = 0; k < 10; k++) _mm512_storeu_pd((double *)&s[k], r[k]);
    return i;
}

/* DIFF_STEP in AVX2 registers, on one four-double half of a set of lanes (the fused
   multiply-adds as DIFF_STEP_512's: the same bits). */
#define DIFF_STEP_AVX2(x, y, dd, aa, bb, ab, mx)                                                              \
    do {                                                                                                     \
        __m256d e_ = _mm256_sub_pd(x, y);                                                                    \
        mx = _mm256_max_pd(mx, _mm256_and_pd(e_, no_sign));                                                  \
        dd = _mm256_add_pd(dd, _mm256_mul_pd(e_, e_)), aa = _mm256_fmadd_pd(x, x, aa);                       \
        bb = _mm256_fmadd_pd(y, y, bb), ab = _mm256_fmadd_pd(x, y, ab);                                      \
    } while (0)

/* Pairs per block of diff_steps_avx2's two sweeps: 8 KiB of a and b, read again from L1. */
#define DIFF_BLOCK 1024

/* diff_steps in AVX2 registers, as stats_steps_avx2, over lanes 0..3 of each set of lanes and
   then over lanes 4..7 (each lane's additions in the same order): ten sums and maxima at a time
   stay in the sixteen registers, where all twenty at once went to memory and back at every
   step. The two sweeps take a block of DIFF_BLOCK pairs at a time, the second from L1, where
   they took a whole chunk (64 KiB of each), the second from L2. With the fused multiply-adds,
   compare() of two 1 GiB files took 1.81-2.09x a sum over one (medians 1.92 and 1.98 in two
   runs of four alternations on a Zen 3's two threads) where it had taken 2.00-2.33x (2.16 and
   2.15); blocks alone, or fused multiply-adds alone, gained nothing. */
__attribute__((target("avx2,fma"))) static int64_t diff_steps_avx2(const float *a, const float *b, int64_t n, v8d *s)
{
    const __m256d no_sign = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    int64_t end = n - n % 16;
    for (int64_t from = 0; from < end; from += DIFF_BLOCK) {
        int64_t to = end - from > DIFF_BLOCK ? from + DIFF_BLOCK : end;
        for (int h = 0; h < 2; h++) {
            __m256d r[10];   /* lanes 4h .. 4h + 3 of s[k] */
            for (int k = 0; k < 10; k++) r[k] = _mm256_loadu_pd((const double *)&s[k] + 4 * h);
            for (int64_t i = from; i < to; i += 16) {
                if (h == 0) ask_ahead(a + i), ask_ahead(b + i);   /* the second sweep reads from L1 */
                __m256d x = _mm256_cvtps_pd(_mm_loadu_ps(a + i + 4 * h)), y = _mm256_cvtps_pd(_mm_loadu_ps(b + i + 4 * h));
                __m256d x2 = _mm256_cvtps_pd(_mm_loadu_ps(a + i + 8 + 4 * h));
                __m256d y2 = _mm256_cvtps_pd(_mm_loadu_ps(b + i + 8 + 4 * h));
                DIFF_STEP_AVX2(x, y, r[0], r[1], r[2], r[3], r[4]);
                DIFF_STEP_AVX2(x2, y2, r[5], r[6], r[7], r[8], r[9]);
            }
            for (int k = 0; k < 10; k++) _mm256_storeu_pd((double *)&s[k] + 4 * h, r[k]);
        }
    }
    return end;
}
#endif

/* n pairs of floats in one pass, in double lanes (two sets of sums, for two additions in
   flight), merged into d when all are finite (else a sum is nan or inf, nothing is merged:
   false); the place of the largest difference is looked for afterwards, in this chunk only when
   it beats the figures so far. isa: as stats_f32's. */
static inline __attribute__((always_inline)) bool diff_f32(tl_diff *d, const float *a, const float *b, int64_t first,
                                                         int64_t n, int isa)
{
    v8d r[10] = { { 0 } };
#ifdef STEPS_X86
    int64_t i = isa == STEPS_AVX512 ? diff_steps_512(a, b, n, r)
                : isa == STEPS_AVX2 ? diff_steps_avx2(a, b, n, r)
                                    : diff_steps(a, b, n, r);
#else
    (void)isa;
    int64_t i = diff_steps(a, b, n, r);
#endif
    v8d dd = r[0], aa = r[1], bb = r[2], ab = r[3], mx = r[4], dd2 = r[5], aa2 = r[6], bb2 = r[7], ab2 = r[8], mx2 = r[9];
    dd += dd2, aa += aa2, bb += bb2, ab += ab2;
    MAX8(mx, mx2, v8l);
    tl_diff c = { .count = n, .sum_d2 = hsum8(&dd), .sum_a2 = hsum8(&aa), .sum_b2 = hsum8(&bb), .sum_ab = hsum8(&ab) };
    double m = mx[0];
    for (int l = 1; l < 8; l++) m = fmax(m, mx[l]);
    for (; i < n; i++) {
        double x = a[i], y = b[i], e = x - y;
        c.sum_d2 += e * e, c.sum_a2 += x * x, c.sum_b2 += y * y, c.sum_ab += x * y;
        m = fmax(m, fabs(e));
    }
    if (!isfinite(c.sum_d2) || !isfinite(c.sum_a2) || !isfinite(c.sum_b2) || !isfinite(c.sum_ab)) return false;
    c.max_abs = m;
    c.argmax = m > d->max_abs ? first + place_of(a, b, n, m) : -1;
    diff_merge(d, &c);
    return true;
}

/* n pairs of floats into d (first: the flat index of the first): the one-pass loop, or one by
   one when it met a nan or inf; compiled twice as stats_run. */
static inline __attribute__((always_inline)) void diff_run(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n,
                                                          int isa)
{
    if (!diff_f32(d, a, b, first, n, isa)) diff_slow(d, a, b, false, first, n);
}

STEPS_512 static void diff_run_avx512(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n)
{
    diff_run(d, a, b, first, n, STEPS_AVX512);
}
__attribute__((target("avx2"))) static void diff_run_avx2(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n)
{
    diff_run(d, a, b, first, n, STEPS_AVX2);
}
static void diff_run_base(tl_diff *d, const float *a, const float *b, int64_t first, int64_t n)
{
    diff_run(d, a, b, first, n, STEPS_BASE);
}

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
    for (int64_t c = 0; c < p->chunks; c++) {
        int64_t first = (task * p->chunks + c) * TL_STREAM_CHUNK;
        if (first >= p->size) break;
        int64_t n = chunk_len(p, first);
        const void *ra = tl_stream_read(&p->in[0], first, n, ba), *rb = tl_stream_read(&p->in[1], first, n, bb);
        if (wide) diff_slow(d, ra, rb, true, first, n);
        else if (p->avx512) diff_run_avx512(d, ra, rb, first, n);
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
