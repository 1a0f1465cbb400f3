/* kernels/qdot.h — what the quantized dot files share: the CPU paths' targets, small vector helpers, the row loop */
#ifndef TL_QDOT_H
#define TL_QDOT_H

#include <string.h>

#include "intrinsics.h"
#include "kern.h"
#include "prefetch.h"
#include "simd_x86.h"

/* The target attributes of the three vector paths (the 256-bit VNNI one is Q8_0's alone). */
#define QDOT_AVX2 "avx2,fma,f16c"
#define QDOT_VNNI256 TL_TARGET_512("avx512f,avx512vl,avx512vnni,avx2,fma,f16c")
#define QDOT_512 TL_TARGET_512("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx512bitalg,gfni,avx2,fma,f16c")

/* Of two vectors' 128-bit lanes c0..c3: (a.c0 + a.c1, a.c2 + a.c3, b.c0 + b.c1, b.c2 + b.c3). */
__attribute__((target(QDOT_512), always_inline)) static inline __m512 qdot_lane_pairs(__m512 a, __m512 b)
{
    return _mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x88), _mm512_shuffle_f32x4(a, b, 0xDD));
}

/* Four rows' sums, a row to each 128-bit lane of v, each lane summed as hsum128 sums (movehl,
   then movehdup: the order of hsum256's last steps), into o[r * os]. */
__attribute__((target(QDOT_512), always_inline)) static inline void qdot_lane_sums4(__m512 v, float *o, int64_t os)
{
    v = _mm512_add_ps(v, _mm512_permute_ps(v, 0xEE));
    v = _mm512_add_ps(v, _mm512_movehdup_ps(v));
    __m128 sums = _mm512_castps512_ps128(_mm512_maskz_compress_ps(0x1111, v));
    if (os == 1) {
        _mm_storeu_ps(o, sums);
        return;
    }
    float f[4];
    _mm_storeu_ps(f, sums);
    for (int r = 0; r < 4; r++) o[r * os] = f[r];
}

/* The f16 bits at p (x86: little-endian), one 16-bit load. */
static inline unsigned short qdot_f16_bits(const uint8_t *p)
{
    unsigned short h;
    memcpy(&h, p, sizeof h);
    return h;
}

/* The little-endian 32-bit word at p. */
static inline uint32_t qdot_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The sum of v's four lanes: (v0 + v2) + (v1 + v3). */
__attribute__((target("avx2,fma"))) static inline float hsum128(__m128 v)
{
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    return _mm_cvtss_f32(_mm_add_ss(v, _mm_movehdup_ps(v)));
}

/* The same sums in portable C: of eight lanes as hsum256, of four as hsum128. */
static inline float qdot_sum8(const float v[8])
{
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
}
static inline float qdot_sum4(const float v[4]) { return (v[0] + v[2]) + (v[1] + v[3]); }

/* The rows this many ahead of the ones being dotted are fetched into the cache first. Read
   from memory (a decode's weights, each read once per token; here after summing 128 MiB
   elsewhere), the 32000 x 288 Q8_0 classifier took 604-616 us on one thread without it and
   322-331 us with 16 rows ahead (best of 50, three runs each); distances of 8, 32 and 64
   rows did no better, and it took about 250 us when it sat in the cache. The dot does
   enough work per byte that the hardware's own prefetching falls behind; f32 and bf16
   rows (matvec.c), with less work per byte, did not gain from it. */
#define PREFETCH_ROWS 16


/* A long row (TL_QDOT_LONG_ROW_BYTES or more, read from memory with no rows asked ahead: one
   at a time, or a few side by side, each for itself) asks, at each step of its dot, for the
   bytes PREFETCH_AHEAD_AVX2 or PREFETCH_AHEAD_512 ahead of the step's into the cache: the
   stream of rows goes on past the row's end. Which dots ask, and how far, is each path's own
   measure:
   - AVX-512, Q4_0 ... Q5_1 (qdot32.c): one thread, from memory, the builds alternating five
     and six times (medians): Q4_0 0.998 -> 0.950 ms and 1.296 -> 1.211 at 11008 x 4096,
     0.487 -> 0.457 at 4096 x 4096; Q5_0 1.588 -> 1.456 and 0.617 -> 0.567; two threads
     0.94-1.06x. 4096 and 16384 bytes ahead did no better, and whole rows asked for rows
     ahead (PREFETCH_ROWS) made no difference to long rows. The K types' 512-bit dots went
     both ways (medians 0.74-1.18x) and Q8_0's got slower (0.87-1.00x) on that machine (an
     older AVX-512 Xeon); on the next one they ask (below).
   - AVX2 (Zen 3, 2026-11-28), the K types that read long rows alone (Q4_K, Q5_K, Q6_K,
     qdotk_x86.c) and Q8_0 (q8dot.c) ask: one thread, from memory, four alternating runs,
     Q6_K 4096 x 4096 1.40-1.68 -> 1.09-1.26 ms and 11008 x 4096 3.9-4.8 -> 2.9-3.4, Q4_K
     1.11-1.29 -> 0.85-0.94 and 2.7-3.3 -> 2.1-2.7; Q8_0 1.95-2.26 -> 1.55-1.89 and 5.3-5.8
     -> 4.2-4.9 (1 KiB and 16 KiB ahead no better; a whole row asked for at the row's start
     did nothing). Q4_0 ... Q5_1 ask too: 11008 x 4096 Q4_0 3.4-4.7 -> 2.7-3.2 ms, 4096 x
     4096 within the noise (1.24-1.56 and 1.22-1.44; asking into L2 only, or further ahead,
     no better).
   - AVX-512 on a Sapphire Rapids-class Xeon (2026-11-29), where the weights' file pages are
     4 KiB pages and the hardware's prefetching stops at each page's end: Q8_0 (q8dot.c) and
     the K types that read long rows without rows asked ahead (qdotk.c, qk_long_group_512)
     ask, into L2 (prefetch_ahead_l2; into L1 Q6_K got slower than not asking). One thread, from memory, against the build before in one run
     (three alternations): Q8_0 4096 x 4096 2.02 -> 1.59 ms, 11008 x 4096 4.92 -> 4.14, two
     threads 1.05 -> 0.82 and 2.45 -> 2.07. Two alternations each way: Q6_K 4096 x 4096
     1.18-1.19 -> 0.95-0.99 ms, 11008 x 4096 3.13-3.28 -> 2.67-2.72; Q4_K 11008 x 4096
     2.71-2.76 -> 2.03-2.09; Q5_K 3.28-3.50 -> 2.82-2.95. 4 KiB ahead did as well as 8 KiB.
     With the pages huge (runtime/io/file.c), 1 KiB ahead did better than 8 KiB on every
     AVX-512 dot (PREFETCH_AHEAD_512; 4096 x 4096 and 11008 x 4096 from memory, two
     alternations, best of seven): one thread Q4_0 ... Q5_1 1.14-1.26x, Q4_K 1.18-1.19x, Q5_K
     1.14-1.15x, Q6_K 1.09-1.17x, Q8_0 1.07-1.08x, Q8_K 1.09x, Q2_K and Q3_K 1.00-1.05x; two
     threads 0.98-1.14x. 2 KiB ahead took 0.93-1.01x and 512 bytes 0.92-1.06x the speed of
     1 KiB; into L1 at 1 KiB, Q8_0 1.05x and Q6_K 0.95-1.02x. */
#define PREFETCH_AHEAD_AVX2 8192
#define PREFETCH_AHEAD_512 1024

/* The 512-bit dots of Q8_0 (n = 64 for a 68-byte pair of blocks: about one request per line)
   and of the K types ask into L2 only (prefetch_ahead_l2): Q8_0 4096 x 4096 from memory, one
   thread, two runs each, 8 KiB ahead, 0.96-0.97 ms so, 1.05-1.24 into L1. */

/* One group of n weight rows (row_bytes apart from w) dotted with row i of x into out[r * os]. */
typedef void (*qdot_group_fn)(const uint8_t *w, size_t row_bytes, const tl_qact *x, int64_t i, float *out,
                              int64_t os);
/* Rows [0, rows) in groups: group[n] takes n rows at a time (NULL: no such kernel; group[1]
   must exist; its row_bytes is the distance between the group's rows), the largest first,
   with the rows PREFETCH_ROWS ahead asked into the cache; rows of TL_QDOT_LONG_ROW_BYTES or
   more go one at a time so. With long_n > 0, rows of
   TL_QDOT_LONG_ROW_BYTES or more are cut instead into g = long_n runs (or the largest group
   below it) of rows / g rows each, and a group takes row j of every run, with no rows asked
   ahead: each row's dot asks for its own bytes ahead, and the hardware follows g streams of
   memory at once, as the f32 rows of matvec.c do (ROWS_RUNS_LOOP); the rows left over go
   one at a time. (The AVX-512 paths of qdot32.c, for all rows, and of q8dot.c, for short
   rows, run loops of their own: x's groups shared by all the rows, and four rows' sums made
   together after the next four rows' dots, which group kernels called one group at a time
   could not.) */
void qdot_row_loop(const qdot_group_fn group[5], int long_n, const uint8_t *w, size_t row_bytes, int64_t rows,
                   const tl_qact *x, int64_t i, float *out, int64_t os);

/* The row kernels of each type (qdot.c's table names them): rows of w against row i of x
   on the given path, which the caller has checked this CPU has. */
#define QDOT_ROWS_FN(name)                                                                                     \
    void name(int path, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x, int64_t i, float *out, \
              int64_t os)
QDOT_ROWS_FN(tl_qdot_q8_0);
QDOT_ROWS_FN(tl_qdot_q4_0);
QDOT_ROWS_FN(tl_qdot_q4_1);
QDOT_ROWS_FN(tl_qdot_q5_0);
QDOT_ROWS_FN(tl_qdot_q5_1);
QDOT_ROWS_FN(tl_qdot_q2_k);
QDOT_ROWS_FN(tl_qdot_q3_k);
QDOT_ROWS_FN(tl_qdot_q4_k);
QDOT_ROWS_FN(tl_qdot_q5_k);
QDOT_ROWS_FN(tl_qdot_q6_k);
QDOT_ROWS_FN(tl_qdot_q8_k);

#endif
