/* kernels/matvec.c — matrix products that read a weight matrix row by row: f32/bf16 GEMV and quantized GGUF blocks */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../blas.h"
#include "../cast.h"
#include "../io/internal.h"
#include "intrinsics.h"   /* unit_matvec_emulated_512 runs the AVX-512 rows on AVX2 */
#include "kern.h"
#include "prefetch.h"
#include "simd_x86.h"

/* A product a @ b where one operand is a matrix W whose rows run along the shared
   axis k with unit stride (W itself in W @ x, W.T in x @ W.T) is out[x row, W row] =
   dot(W row, x row). Read row by row, W streams through memory once per product
   whatever its dtype: f32 and bf16 rows are read as they are (bf16 widened in
   registers), and a quantized GGUF tensor (an f32 tensor over lazy storage) is read
   from its ggml blocks, never dequantized whole. */

/* Up to this many x rows, f32 and bf16 products take the row path; beyond it a
   matrix-matrix product is compute-bound and BLAS gemm does better. Quantized
   matrices always take it (in tiles, see qtile_task). */
#define MATVEC_MAX_ROWS 4
/* ... and only for matrices of at least this many weights, where reading W once matters:
   small products keep BLAS's summation order, the same as in a batched product. */
#define MATVEC_MIN_WEIGHTS ((int64_t)1 << 16)
/* Bytes of W per task (whole rows, at least one): few enough tasks that each outlasts its
   scheduling and the prefetching in tl_qdot_rows, which starts cold with every task, runs
   long; enough to share the rows among threads. In weights it was 1 << 15 for every kind
   (f32: the same); the 32000 x 288 Q8_0 classifier read from memory on two threads took
   243-364 us in 113-row tasks and 178-208 in 400-500-row ones (one thread: 280-370). */
#define TASK_BYTES ((int64_t)1 << 17)
/* A product against one to four x rows is threaded from this many bytes of W, whatever
   its type: a 288 x 288 f32 matrix (324 KiB, about 4 us) is, since the pool's workers poll
   for the next job for a while (threads.c) and so take one within a microsecond; waking a
   sleeping worker cost about what a 288 x 768 product (10-40 us) saved. bf16 and quantized
   W were threaded from 1 MiB (sharing their 288 x 768 products, 442 and 235 KiB, made
   llama's decode 4-5% slower at load 2); with 512-bit Q8_0 dots and 128 KiB tasks, sharing
   them from 128 KiB made it faster on a quiet machine (medians of 11-15 interleaved runs,
   load 1.4-1.9: Q8_0 +10%, +2%, +12%; bf16 +6%, +13%, 0%) and slower under load (load
   1.7, 7 runs: Q8_0 -11%, bf16 +7%; load 7: -6%, -20%), as f32's sharing does. */
#define MATVEC_THREAD_BYTES ((int64_t)1 << 17)
/* Quantized W is threaded from this many bytes instead. A product of a few microseconds
   shared in two saves less than the hand-over costs: the worker starts about 0.75 us after
   the call and the caller sees it finish about 0.5 us after it does (two tasks of 2 us of
   work took 3.5-4.4 us, at best 3.0, against 4.2 on one thread; a cache line takes about 0.26 us from one
   core to the other here), each task's rows come cold to its core, and a shared product
   waits for its slower half. Where that pays has moved with the machines (llama.tl's
   decode of the stories15M-shaped files, whose products are 57-235 KiB, on two threads):
   - an older AVX-512 Xeon, whose two cores differed by up to 1.7x: not sharing the Q4_K
     file's 152 KiB 768 x 288 Q5_0 and 124 KiB 288 x 768 Q4_K products, its worker kept
     awake between classifiers (threads.c's SPIN_US), took it from 2,481 to 2,712 tokens/s
     (medians of eight interleaved runs, the main thread pinned to each core in turn); the
     Q8_0 file within 3% either way. It shared from 192 KiB.
   - a Zen 3 (AVX2 dots, several times as long for the same bytes), 300 tokens, five
     alternating rounds: the Q4_K file 665-716 tokens/s unshared under 192 KiB, 794-852 from
     96 KiB, 829-868 from 48 KiB; the Q8_0 file 767-849, 705-789, 809-888.
   - a Sapphire Rapids-class Xeon (2026-11-29), 300 tokens, five alternating rounds: the Q4_K
     file 1,519-1,685 tokens/s (median 1,546) from 192 KiB, 1,651-1,692 (1,674) from 48 KiB,
     1,644-1,708 from 24 KiB; the Q8_0 file 1,368-1,491 (1,402), 1,443-1,471 (1,454),
     1,355-1,461.
   So every path shares from 48 KiB. The stories110M-shaped files' smallest products (768 x
   768, 331 KiB of Q4_K) are shared: unsharing them cost 6-14%. A shared product's short rows
   go in tasks of about QUANT_TASK_WEIGHTS weights, as many as a multiple of the threads: in
   the cache a dot's cost follows its weights more than its bytes. */
#define QUANT_THREAD_BYTES ((int64_t)48 << 10)
#define QUANT_TASK_WEIGHTS ((int64_t)1 << 17)
/* f32 and bf16 rows shared among threads go in tasks of about this many weights (4 MiB
   of f32), as many as a multiple of the threads (a 288 x 288 matrix: one half each). Each
   task is one run of memory, and the hardware's prefetching takes some misses to find each
   new run: the 32000 x 288 f32 classifier read from memory on two threads took a median of
   690 us in tasks of 32,768 weights and 500 us in these (eight interleaved runs each, at
   load 4-6: 1 << 18 gave 620, 1 << 22 490); llama.tl's f32 decode went from 596 to 660
   tokens/s (medians of eight interleaved runs). Long quantized rows (TL_QDOT_LONG_ROW_BYTES)
   take these tasks too, whether their type reads them one at a time or in groups: 11008 x
   4096 from memory on two threads, Q8_0 took 0.86-0.91 ms so and 1.08-1.12 in TASK_BYTES
   tasks, Q4_0 0.59-0.62 and 0.69-0.74 (three runs each); Q2_K, Q3_K and Q8_K, which keep
   their groups, took 0.85-1.13x the time (within one process, alternating). Shorter
   quantized rows keep TASK_BYTES: qdot.c prefetches them itself. */
#define STREAM_WEIGHTS ((int64_t)1 << 20)
/* Floats of dequantized rows one task keeps for an x with many rows. */
#define QTILE_FLOATS ((int64_t)1 << 16)
/* f32 and bf16 rows of at least this many bytes are read several at a time from as many runs
   of memory (ROWS_RUNS_LOOP: four with AVX-512, three with AVX2), the runs this many
   bytes apart (whole rows, at least one). One thread, AVX-512, W from memory, against one
   row at a time: f32 rows of 4096 and 11008 1.33-1.51x faster (256 KiB to 1 MiB apart), of
   2048 1.14x, of 768 about the same, of 288 0.85x (short rows already read at 30 GB/s one
   at a time, long ones at 23-25); in tl, the 32000 x 288 classifier took 1.3-2x longer so. */
#define ROWS4_MIN_BYTES ((int64_t)8 << 10)
/* ... and with AVX2 alone (three runs), f32 and bf16 rows from this many weights (1 KiB of
   f32, 512 bytes of bf16): on a Zen 3 short rows gained too, in cache as from memory (one
   thread, three alternating runs against one row at a time: f32 768 x 288 in cache 18-21 us against 23-24, 32000 x 288 in cache
   2.0-2.5 ms against 2.9-3.2 and from memory 2.7-3.0 against 3.1-3.5, 2048 x 768 from memory
   400-417 us against 497-638, llama.tl's f32 decode 196-249 tokens/s against 174-217 in six
   pairs; bf16 4096 x 4096 2.2-2.3 ms against 3.1-4.2 in cache and 2.8-2.95 against 3.2-4.4
   from memory, 288 x 768 from memory 50-62 us against 58-97, 32000 x 288 about the same).
   bf16 rows of 288 (576 bytes) too: 32000 x 288 in cache 1.02-1.14 ms against 1.46-1.66 on
   one thread and 0.40-0.48 against 0.67-0.76 on two, llama.tl's bf16 decode 436-639
   tokens/s against 349-479 (four alternating pairs); a 288 x 288 or 768 x 288 product
   repeated in L2 took up to 1.3x the time, but a decode reads each matrix from L3. Shorter
   rows were not measured and keep one stream. */
#define ROWS3_MIN_WEIGHTS_AVX2 256
#define ROW_RUN_BYTES ((int64_t)256 << 10)

enum { W_F32, W_BF16, W_QUANT };

typedef struct mv_plan {
    const char *w;          /* W[0, 0] (f32 or bf16; f32 view of the lazy storage for W_QUANT) */
    int64_t n, k, rs;       /* W rows, row length, elements from row to row */
    int kind;
    const tl_storage *st;   /* W_QUANT: the lazy storage and its blocks */
    const uint8_t *qblocks;
    int qtype;
    int64_t qfirst;         /* element index of W[0, 0] in the quantized tensor */
    int64_t qbs;            /* elements per block */
    size_t qbb;             /* bytes per block */
    const float *x;         /* m contiguous f32 rows of k */
    int64_t m;
    const tl_qact *xq;      /* x rounded to 8-bit blocks for W's dot (NULL: not used) */
    float *out;
    int64_t os_x, os_w;     /* out[i * os_x + j * os_w]: x row i, W row j */
    int64_t rows_per_task;
} mv_plan;

/* ---- row dots ---------------------------------------------------------------- */

static float dot_f32_c(const float *w, const float *x, int64_t k)
{
    float s[8] = { 0 };
    int64_t i = 0;
    for (; i + 8 <= k; i += 8)
        for (int j = 0; j < 8; j++) s[j] += w[i + j] * x[i + j];
    for (; i < k; i++) s[0] += w[i] * x[i];
    return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
}

static float dot_bf16_c(const uint16_t *w, const float *x, int64_t k)
{
    float s[8] = { 0 };
    int64_t i = 0;
    for (; i + 8 <= k; i += 8)
        for (int j = 0; j < 8; j++) s[j] += cast_bf16_to_f32(w[i + j]) * x[i + j];
    for (; i < k; i++) s[0] += cast_bf16_to_f32(w[i]) * x[i];
    return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
}

/* Eight bf16 at p widened to f32: each is the top half of its f32. */
__attribute__((target("avx2,fma"))) static inline __m256 load_bf16x8(const uint16_t *p)
{
    __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
}

__attribute__((target("avx2,fma"))) static inline __m256 load_f32x8(const float *p) { return _mm256_loadu_ps(p); }
static inline float f32_id(float f) { return f; }

/* The end of a row's dot after its 32-element steps (from i): eight at a time into a0, the
   four accumulators summed, the last few one by one. */
#define DOT_END_AVX2(LOAD, SCALAR, w, x, k, i, a0, a1, a2, a3, s)                                  \
    do {                                                                                           \
        for (; i + 8 <= k; i += 8) a0 = _mm256_fmadd_ps(LOAD(w + i), _mm256_loadu_ps(x + i), a0);  \
        s = hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));                  \
        for (; i < k; i++) s += SCALAR(w[i]) * x[i];                                               \
    } while (0)

/* The loops over the four rows unrolled, so that their accumulators stay in registers. */
#define ROWS4_UNROLL _Pragma("GCC unroll 4")

/* The four-run AVX-512 loops (ROWS_RUNS_LOOP) ask for each row's bytes this far ahead into L2
   as they go. One thread, 4096 x 4096 from memory, two alternations, best of seven, a
   Sapphire Rapids-class Xeon (2026-11-29): f32 1.05-1.06x and bf16 1.08-1.13x faster than not asking;
   2 KiB ahead 0.97-0.98x and 512 bytes 0.99-1.00x of that. */
#define MATVEC_PREFETCH_AHEAD 1024

/* NAME(R, ahead, w, x, k, out, os): R rows at once, w[0..R-1] (of element type T, widened by
   LOAD), dotted with x into out[0], out[os], ...: each row keeps its own four accumulators of
   eight lanes and their order, so its bits are those of the row alone (R = 1: dot_f32_avx2,
   dot_bf16_avx2); x's loads are shared. With ahead > 0 each row asks for its bytes that far
   ahead into L2 as it goes (MATVEC_PREFETCH_AHEAD).
   Sixteen accumulators and x need AVX-512's 32 registers (with sixteen, AVX2's, they
   spill): AVX2 takes three rows. */
#define DOTN_AVX2(NAME, T, LOAD, SCALAR)                                                                          \
    __attribute__((target("avx2,fma"), always_inline)) static inline void NAME(int R, int ahead, const T *const *w,\
                                                                              const float *x, int64_t k,          \
                                                                              float *out, int64_t os)             \
    {                                                                                                             \
        __m256 a[4][4];                                                                                           \
        for (int r = 0; r < R; r++)                                                                               \
            for (int q = 0; q < 4; q++) a[r][q] = _mm256_setzero_ps();                                            \
        int64_t i = 0;                                                                                            \
        for (; i + 32 <= k; i += 32)                                                                              \
            ROWS4_UNROLL for (int q = 0; q < 4; q++) {                                                            \
                if (ahead && 8 * q * sizeof(T) % 64 == 0)   /* once per line */                                   \
                    ROWS4_UNROLL for (int r = 0; r < R; r++) prefetch_ahead_l2(w[r] + i + 8 * q, 64, ahead);        \
                __m256 xv = _mm256_loadu_ps(x + i + 8 * q);                                                       \
                ROWS4_UNROLL for (int r = 0; r < R; r++) a[r][q] = _mm256_fmadd_ps(LOAD(w[r] + i + 8 * q), xv, a[r][q]); \
            }                                                                                                     \
        for (int r = 0; r < R; r++) {                                                                             \
            int64_t e = i;                                                                                        \
            float s;                                                                                              \
            DOT_END_AVX2(LOAD, SCALAR, w[r], x, k, e, a[r][0], a[r][1], a[r][2], a[r][3], s);                     \
            out[r * os] = s;                                                                                      \
        }                                                                                                         \
    }
DOTN_AVX2(dotn_f32, float, load_f32x8, f32_id)
DOTN_AVX2(dotn_bf16, uint16_t, load_bf16x8, cast_bf16_to_f32)

/* dot_T_avx2(w, x, k): one row's dot. */
__attribute__((target("avx2,fma"), always_inline)) static inline float dot_f32_avx2(const float *w, const float *x, int64_t k)
{
    float s;
    dotn_f32(1, 0, &w, x, k, &s, 0);
    return s;
}
__attribute__((target("avx2,fma"), always_inline)) static inline float dot_bf16_avx2(const uint16_t *w, const float *x,
                                                                                    int64_t k)
{
    float s;
    dotn_bf16(1, 0, &w, x, k, &s, 0);
    return s;
}

/* The targets of the 512-bit rows (intrinsics.h: AVX2 alone when a test emulates AVX-512). */
#define MATVEC_512 TL_TARGET_512("avx512f,avx2,fma")
#define MATVEC_512VL TL_TARGET_512("avx512f,avx512vl,avx2,fma")

/* Sixteen bf16 at p widened to f32. */
__attribute__((target(MATVEC_512))) static inline __m512 load_bf16x16(const uint16_t *p)
{
    __m512i v = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
}

/* The upper eight lanes of v. */
__attribute__((target(MATVEC_512))) static inline __m256 upper8(__m512 v)
{
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

/* The end of dot_bf16_avx512 after its 32-element steps (from i), accumulators a and b. */
__attribute__((target(MATVEC_512), always_inline)) static inline float dot_bf16_avx512_end(const uint16_t *w,
                                                                                           const float *x, int64_t k,
                                                                                           int64_t i, __m512 a, __m512 b)
{
    __m256 a0 = _mm512_castps512_ps256(a);
    for (; i + 8 <= k; i += 8) a0 = _mm256_fmadd_ps(load_bf16x8(w + i), _mm256_loadu_ps(x + i), a0);
    __m256 lo = _mm256_add_ps(a0, upper8(a)), hi = _mm256_add_ps(_mm512_castps512_ps256(b), upper8(b));
    float s = hsum256(_mm256_add_ps(lo, hi));
    for (; i < k; i++) s += cast_bf16_to_f32(w[i]) * x[i];
    return s;
}

/* dot_bf16_avx2 sixteen lanes at a time: a zmm accumulator is two of its ymm ones, so
   each lane sums the same products in the same order (the same bits); widening twice
   the elements per instruction is what bf16 rows are bound by. (Long rows are read four
   runs at a time, ROWS_RUNS_LOOP.) */
__attribute__((target(MATVEC_512), always_inline)) static inline float dot_bf16_avx512(const uint16_t *w,
                                                                                       const float *x, int64_t k)
{
    __m512 a = _mm512_setzero_ps(), b = a;
    int64_t i = 0;
    for (; i + 32 <= k; i += 32) {
        a = _mm512_fmadd_ps(load_bf16x16(w + i), _mm512_loadu_ps(x + i), a);
        b = _mm512_fmadd_ps(load_bf16x16(w + i + 16), _mm512_loadu_ps(x + i + 16), b);
    }
    return dot_bf16_avx512_end(w, x, k, i, a, b);
}

/* NAME(w, rs, n, x, k, out, os): out[j * os] = DOT(W row j, x) for the n rows of W from w,
   rs elements apart, in one loop with the dot inlined. Called once per row, the dispatch
   (the kind, the CPU, a call) cost as much as a 288-long bf16 row read from cache: a
   768 x 288 bf16 product in cache took 7.9 us on one thread so and takes 5.6, with the same
   bits; llama's decode, medians of ten interleaved runs, twice: bf16 +6% and +8%, f32 +7%
   and 0%. */
#define ROWS_LOOP(NAME, T, DOT, TARGET)                                                               \
    __attribute__((target(TARGET))) static void NAME(const T *w, int64_t rs, int64_t n, const float *x, \
                                                     int64_t k, float *out, int64_t os)             \
    {                                                                                               \
        for (int64_t j = 0; j < n; j++) out[j * os] = DOT(w + j * rs, x, k);                        \
    }
ROWS_LOOP(rows_f32_avx2, float, dot_f32_avx2, "avx2,fma")
ROWS_LOOP(rows_bf16_avx2, uint16_t, dot_bf16_avx2, "avx2,fma")
ROWS_LOOP(rows_bf16_avx512, uint16_t, dot_bf16_avx512, MATVEC_512)

__attribute__((target(MATVEC_512VL), always_inline)) static inline void dot4_f32(const float *const *w,
                                                                                 const float *x, int64_t k,
                                                                                 float *out, int64_t os)
{
    dotn_f32(4, MATVEC_PREFETCH_AHEAD, w, x, k, out, os);
}
__attribute__((target("avx2,fma"), always_inline)) static inline void dot3_f32(const float *const *w, const float *x,
                                                                              int64_t k, float *out, int64_t os)
{
    dotn_f32(3, 0, w, x, k, out, os);
}
__attribute__((target("avx2,fma"), always_inline)) static inline void dot3_bf16(const uint16_t *const *w, const float *x,
                                                                               int64_t k, float *out, int64_t os)
{
    dotn_bf16(3, 0, w, x, k, out, os);
}

/* dot_bf16_avx512 of four rows at once, as dot4_f32. */
__attribute__((target(MATVEC_512VL), always_inline)) static inline void dot4_bf16(const uint16_t *const *w,
                                                                                  const float *x, int64_t k,
                                                                                  float *out, int64_t os)
{
    __m512 a[4], b[4];
    for (int r = 0; r < 4; r++) a[r] = b[r] = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 32 <= k; i += 32) {
        __m512 x0 = _mm512_loadu_ps(x + i), x1 = _mm512_loadu_ps(x + i + 16);
        ROWS4_UNROLL for (int r = 0; r < 4; r++) prefetch_ahead_l2(w[r] + i, 64, MATVEC_PREFETCH_AHEAD);
        ROWS4_UNROLL for (int r = 0; r < 4; r++) {
            a[r] = _mm512_fmadd_ps(load_bf16x16(w[r] + i), x0, a[r]);
            b[r] = _mm512_fmadd_ps(load_bf16x16(w[r] + i + 16), x1, b[r]);
        }
    }
    for (int r = 0; r < 4; r++) {
        int64_t e = i;
        out[r * os] = dot_bf16_avx512_end(w[r], x, k, e, a[r], b[r]);
    }
}

/* R rows at once, from R runs of memory: rows j, j + h, j + 2h, ... for j in [j0, j0 + h),
   the runs ROW_RUN_BYTES apart while R h rows are left, then an R-th of what is left, then
   one at a time. One core's reads of a 4096 x 4096 f32 W from memory went from 22-25 GB/s
   one row at a time (and 23-26 four adjacent rows at a time) to 30-35 with four runs (AVX-512):
   the hardware prefetchers follow each run, and more runs keep more reads in flight. On AVX2
   (three runs; Zen 3, 2026-11-28, one thread, three alternating runs) 4096 x 4096 took
   4.7-7.1 ms one row at a time and 4.1-4.9 so, 11008 x 4096 13.0-17.1 and 10.6-13.6 (two
   runs about as fast). */
#define ROWS_RUNS_LOOP(NAME, T, R, DOTR, DOT, TARGET)                                                    \
    __attribute__((target(TARGET))) static void NAME(const T *w, int64_t rs, int64_t n, const float *x,   \
                                                     int64_t k, float *out, int64_t os)                  \
    {                                                                                               \
        int64_t j0 = 0;                                                                             \
        while (n - j0 >= R) {                                                                       \
            int64_t gap = ROW_RUN_BYTES / (k * (int64_t)sizeof(T)) > 1 ? ROW_RUN_BYTES / (k * (int64_t)sizeof(T)) : 1; \
            int64_t h = n - j0 >= R * gap ? gap : (n - j0) / R;                                     \
            for (int64_t j = j0; j < j0 + h; j++) {                                                 \
                const T *r[4];                                                                      \
                for (int q = 0; q < R; q++) r[q] = w + (j + q * h) * rs;                            \
                DOTR(r, x, k, out + j * os, h * os);                                                \
            }                                                                                       \
            j0 += R * h;                                                                            \
        }                                                                                           \
        for (int64_t j = j0; j < n; j++) out[j * os] = DOT(w + j * rs, x, k);                     \
    }
ROWS_RUNS_LOOP(rows4_f32_avx512, float, 4, dot4_f32, dot_f32_avx2, MATVEC_512VL)
ROWS_RUNS_LOOP(rows3_f32_avx2, float, 3, dot3_f32, dot_f32_avx2, "avx2,fma")
ROWS_RUNS_LOOP(rows3_bf16_avx2, uint16_t, 3, dot3_bf16, dot_bf16_avx2, "avx2,fma")
ROWS_RUNS_LOOP(rows4_bf16_avx512, uint16_t, 4, dot4_bf16, dot_bf16_avx512, MATVEC_512VL)

/* Rows [0, n) of an f32 (or bf16: W_BF16) W from w against x, into out (os apart). */
static void rows_plain(int kind, const void *w, int64_t rs, int64_t n, const float *x, int64_t k, float *out,
                       int64_t os)
{
    if (kind == W_BF16) {
        const uint16_t *b = w;
        if (tl_simd_avx2() && tl_cpu_has_avx512() && k * 2 >= ROWS4_MIN_BYTES) rows4_bf16_avx512(b, rs, n, x, k, out, os);
        else if (tl_simd_avx2() && tl_cpu_has_avx512()) rows_bf16_avx512(b, rs, n, x, k, out, os);
        else if (tl_simd_avx2() && k >= ROWS3_MIN_WEIGHTS_AVX2) rows3_bf16_avx2(b, rs, n, x, k, out, os);
        else if (tl_simd_avx2()) rows_bf16_avx2(b, rs, n, x, k, out, os);
        else
            for (int64_t j = 0; j < n; j++) out[j * os] = dot_bf16_c(b + j * rs, x, k);
        return;
    }
    const float *f = w;
    if (tl_simd_avx2() && tl_cpu_has_avx512() && k * 4 >= ROWS4_MIN_BYTES) rows4_f32_avx512(f, rs, n, x, k, out, os);
    else if (tl_simd_avx2() && k >= ROWS3_MIN_WEIGHTS_AVX2) rows3_f32_avx2(f, rs, n, x, k, out, os);
    else if (tl_simd_avx2()) rows_f32_avx2(f, rs, n, x, k, out, os);
    else
        for (int64_t j = 0; j < n; j++) out[j * os] = dot_f32_c(f + j * rs, x, k);
}

/* ---- tasks ------------------------------------------------------------------- */

/* Has W row j been computed as f32 (and so possibly written)? Then it is read as f32. */
static bool row_touched(const mv_plan *p, int64_t j)
{
    int64_t lo = (int64_t)(p->w - (const char *)p->st->data) + j * p->rs * 4;
    return tl_storage_touched(p->st, lo, lo + p->k * 4);
}

static const float *f32_row(const mv_plan *p, int64_t j)
{
    const float *r = (const float *)p->w + j * p->rs;
    if (p->kind == W_QUANT) tl_storage_materialize((tl_storage *)p->st, (const char *)r - (const char *)p->st->data,
                                                   (const char *)(r + p->k) - (const char *)p->st->data);
    return r;
}

/* Has any of W rows [j0, j1) been computed as f32? */
static bool rows_touched(const mv_plan *p, int64_t j0, int64_t j1)
{
    int64_t lo = (int64_t)(p->w - (const char *)p->st->data) + j0 * p->rs * 4;
    return tl_storage_touched(p->st, lo, lo + ((j1 - 1 - j0) * p->rs + p->k) * 4);
}

/* Rows [j0, j1) of W against every x row, one dot each. scratch: k floats (quantized W). */
static void rows_dot(const mv_plan *p, int64_t j0, int64_t j1, float *scratch)
{
    /* quantized rows none of which was computed as f32 (the usual case): one run of blocks */
    if (p->kind == W_QUANT && p->xq && !rows_touched(p, j0, j1)) {
        const uint8_t *blk = p->qblocks + (size_t)((p->qfirst + j0 * p->rs) / p->qbs) * p->qbb;
        size_t row_bytes = (size_t)(p->rs / p->qbs) * p->qbb;
        for (int64_t i = 0; i < p->m; i++)
            tl_qdot_rows(p->qtype, blk, row_bytes, j1 - j0, p->xq, i, p->out + j0 * p->os_w + i * p->os_x, p->os_w);
        return;
    }
    int64_t es = p->kind == W_BF16 ? 2 : 4;   /* bytes per element; rows may run backwards (rs < 0) */
    if (p->kind != W_QUANT && p->m == 1) {   /* one x row: a loop over the rows */
        rows_plain(p->kind, p->w + j0 * p->rs * es, p->rs, j1 - j0, p->x, p->k, p->out + j0 * p->os_w, p->os_w);
        return;
    }
    for (int64_t j = j0; j < j1; j++) {   /* several x rows: each W row read once for all of them */
        float *o = p->out + j * p->os_w;
        const void *r = p->w + j * p->rs * es;
        int kind = p->kind;
        if (kind == W_QUANT && !row_touched(p, j)) {
            const uint8_t *blk = p->qblocks + (size_t)((p->qfirst + j * p->rs) / p->qbs) * p->qbb;
            if (p->xq) {                   /* blocks against x's 8-bit blocks */
                for (int64_t i = 0; i < p->m; i++) tl_qdot_rows(p->qtype, blk, 0, 1, p->xq, i, o + i * p->os_x, 0);
                continue;
            }
            io_dequant(p->qblocks, p->qtype, p->qfirst + j * p->rs, p->k, scratch);
            r = scratch;
            kind = W_F32;
        } else if (kind == W_QUANT) {
            r = f32_row(p, j);
            kind = W_F32;
        }
        for (int64_t i = 0; i < p->m; i++) rows_plain(kind, r, 0, 1, p->x + i * p->k, p->k, o + i * p->os_x, 0);
    }
}

static int rows_task(void *ctx, int64_t t)
{
    const mv_plan *p = ctx;
    if (tl_check_interrupt() < 0) return -1;   /* Ctrl-C between tasks */
    int64_t j0 = t * p->rows_per_task, j1 = j0 + p->rows_per_task < p->n ? j0 + p->rows_per_task : p->n;
    float *scratch = NULL;
    if (p->kind == W_QUANT && !p->xq && !(scratch = malloc((size_t)p->k * sizeof *scratch))) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    rows_dot(p, j0, j1, scratch);
    free(scratch);
    return 0;
}

/* Quantized W against many x rows: the task's W rows are dequantized (or read, where
   computed already) into a bounded tile, then one gemm multiplies x by the tile. */
static int qtile_task(void *ctx, int64_t t)
{
    const mv_plan *p = ctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t j0 = t * p->rows_per_task, rows = p->n - j0 < p->rows_per_task ? p->n - j0 : p->rows_per_task;
    float *tile = malloc((size_t)(rows * p->k) * sizeof *tile);
    if (!tile) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t r = 0; r < rows; r++) {
        if (row_touched(p, j0 + r)) memcpy(tile + r * p->k, f32_row(p, j0 + r), (size_t)p->k * sizeof *tile);
        else io_dequant(p->qblocks, p->qtype, p->qfirst + (j0 + r) * p->rs, p->k, tile + r * p->k);
    }
    /* out[i, j0 + r] = x[i, :] . tile[r, :]; out's x axis or W axis is the unit one */
    if (p->os_w == 1)
        tl_blas.cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)p->m, (blasint)rows, (blasint)p->k, 1.0f, p->x,
                    (blasint)p->k, tile, (blasint)p->k, 0.0f, p->out + j0, (blasint)p->os_x);
    else
        tl_blas.cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)rows, (blasint)p->m, (blasint)p->k, 1.0f, tile,
                    (blasint)p->k, p->x, (blasint)p->k, 0.0f, p->out + j0 * p->os_w, (blasint)p->os_w);
    free(tile);
    return 0;
}

/* ---- planning ---------------------------------------------------------------- */

/* Fills the W part of p from w2 (a 2-d view whose axis `kax` is the shared axis,
   with unit stride); false when W cannot be read row by row. */
static bool plan_weight(mv_plan *p, const tl_tensor *w2, int kax)
{
    int64_t k = w2->shape[kax], n = w2->shape[1 - kax];
    int64_t ks = w2->strides[kax], rs = w2->strides[1 - kax];
    if ((ks != 1 && k > 1) || n < 1 || k < 1) return false;
    if (n == 1) rs = k;
    p->n = n;
    p->k = k;
    p->rs = rs;
    p->st = w2->storage;
    if (w2->dtype == TL_BF16) p->kind = W_BF16;
    else if (w2->dtype != TL_F32) return false;
    else if (tl_storage_quant(w2->storage, &p->qblocks, &p->qtype)) {
        p->kind = W_QUANT;
        io_quant_block(p->qtype, &p->qbs, &p->qbb);
        p->qfirst = w2->offset;
        if (k % p->qbs || rs % p->qbs || w2->offset % p->qbs || rs < k) return false;
    } else
        p->kind = W_F32;
    if (p->kind != W_QUANT) p->w = (const char *)tl_tensor_data(w2);   /* not lazy: no work */
    else p->w = (const char *)w2->storage->data + w2->offset * 4;
    return true;
}

/* Is t a plain f32, f16 or bf16 operand (x), and does W suit the row path? */
static bool worth_it(const mv_plan *p, const tl_tensor *x, int64_t m)
{
    if (x->dtype != TL_F32 && x->dtype != TL_BF16 && x->dtype != TL_F16) return false;
    return p->kind == W_QUANT || (m <= MATVEC_MAX_ROWS && p->n * p->k >= MATVEC_MIN_WEIGHTS);
}

/* Bytes of W one product reads. */
static int64_t weight_bytes(const mv_plan *p)
{
    if (p->kind == W_QUANT) return p->n * (p->k / p->qbs) * (int64_t)p->qbb;
    return p->n * p->k * (p->kind == W_BF16 ? 2 : 4);
}

/* Rows per task of a product shared among nth threads: tasks of about `weights` weights
   (STREAM_WEIGHTS for f32, bf16 and long quantized rows, QUANT_TASK_WEIGHTS for short
   quantized rows), as many as a multiple of nth. */
static int64_t task_rows(int64_t n, int64_t k, int nth, int64_t weights)
{
    int64_t tasks = (n * k + weights - 1) / weights;
    tasks = (tasks + nth - 1) / nth * nth;
    return (n + tasks - 1) / tasks;
}

static int run_plan(mv_plan *p)
{
    tl_qact xq = { 0 };
    p->xq = NULL;
    bool tiles = p->kind == W_QUANT && p->m > MATVEC_MAX_ROWS;
    int64_t bl;
    if (p->kind == W_QUANT && !tiles && tl_qdot_supports(p->qtype, &bl)) {
        if (tl_qact_make(p->x, p->m, p->k, bl, &xq) < 0) return -1;
        p->xq = &xq;
    }
    int nth = tl_threads_for(p->n * p->k);
    bool shared = nth > 1 && (tiles || weight_bytes(p) >= (p->kind == W_QUANT ? QUANT_THREAD_BYTES : MATVEC_THREAD_BYTES));
    int64_t per = TASK_BYTES / (weight_bytes(p) / p->n);
    if (tiles) per = QTILE_FLOATS / p->k;
    else if (shared && (p->kind != W_QUANT || weight_bytes(p) / p->n >= TL_QDOT_LONG_ROW_BYTES))
        per = task_rows(p->n, p->k, nth, STREAM_WEIGHTS);
    else if (shared && p->kind == W_QUANT)
        per = task_rows(p->n, p->k, nth, QUANT_TASK_WEIGHTS);
    if (per < 1) per = 1;
    p->rows_per_task = per;
    int64_t ntasks = (p->n + per - 1) / per;
    int rc;
    if (tiles) {   /* the tiles' sgemm calls run on tl's pool, BLAS on one thread inside each */
        int fit = tl_blas_load() < 0 ? -1 : tl_blas_reserve(shared ? tl_get_threads() : 1);
        if (fit < 0) return -1;
        if (fit < tl_get_threads()) shared = false;
        tl_blas_threads(1);
    }
    if (shared)
        rc = tl_parallel_for(ntasks, tiles ? qtile_task : rows_task, p);
    else {
        rc = 0;
        for (int64_t t = 0; t < ntasks && rc == 0; t++) rc = (tiles ? qtile_task : rows_task)(p, t);
    }
    tl_qact_free(&xq);
    return rc;
}

int tl_matmul_rows(const tl_tensor *a, const tl_tensor *b, tl_tensor *into, tl_tensor **out)
{
    if (a->ndim > 2 || b->ndim > 2 || a->ndim < 1 || b->ndim < 1) return 0;
    tl_dtype dt = tl_promote(a->dtype, b->dtype);
    if (dt != TL_F32 && dt != TL_BF16) return 0;
    mv_plan p = { 0 };
    const tl_tensor *x;
    bool w_is_b;
    int64_t k = a->shape[a->ndim - 1];
    if (b->shape[0] != k) return 0;    /* the general path reports the mismatch */
    /* which operand is W: prefer a quantized one, then the one with rows along k */
    bool b_ok = b->ndim == 2 && plan_weight(&p, b, 0);
    mv_plan pa = { 0 };
    bool a_ok = a->ndim == 2 && plan_weight(&pa, a, 1);
    if (a_ok && (!b_ok || (pa.kind == W_QUANT && p.kind != W_QUANT))) {
        p = pa;
        w_is_b = false;
        x = b;
    } else if (b_ok) {
        w_is_b = true;
        x = a;
    } else
        return 0;
    int64_t m = w_is_b ? (a->ndim == 2 ? a->shape[0] : 1) : (b->ndim == 2 ? b->shape[1] : 1);
    if (m < 1 || !worth_it(&p, x, m)) return 0;
    if (p.kind == W_QUANT && (m * k > INT32_MAX || p.n > INT32_MAX)) return 0;

    /* x as m contiguous f32 rows of k: a's rows, or b's columns */
    tl_tensor *xt = w_is_b || x->ndim == 1 ? (tl_tensor_retain((tl_tensor *)x), (tl_tensor *)x) : tl_view_transpose(x);
    tl_tensor *xc = NULL;
    if (xt && xt->dtype == TL_F32 && tl_is_contiguous(xt)) xc = xt;
    else if (xt) {
        xc = tl_cast(xt, TL_F32);
        tl_tensor_release(xt);
    }
    if (!xc) return -1;
    int64_t oshape[2];
    int ond = 0;
    if (w_is_b) {
        if (a->ndim == 2) oshape[ond++] = m;
        oshape[ond++] = p.n;
        p.os_x = p.n;
        p.os_w = 1;
    } else {
        oshape[ond++] = p.n;
        if (b->ndim == 2) oshape[ond++] = m;
        p.os_x = 1;
        p.os_w = m;
    }
    tl_tensor *o = dt == TL_F32 ? tl_tensor_result(into, TL_F32, ond, oshape) : tl_tensor_empty(TL_F32, ond, oshape);
    p.x = o ? tl_tensor_data(xc) : NULL;
    p.m = m;
    p.out = o ? tl_tensor_data(o) : NULL;
    int rc = o ? run_plan(&p) : -1;
    tl_tensor_release(xc);
    if (rc == 0 && dt != TL_F32) {
        tl_tensor *c = tl_cast_to(o, dt, into);
        tl_tensor_release(o);
        o = c;
    }
    if (rc < 0 || !o) {
        if (o && rc < 0) tl_tensor_release(o);
        return -1;
    }
    *out = o;
    return 1;
}
