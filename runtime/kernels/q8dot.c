/* kernels/q8dot.c — Q8_0 weight rows dotted with x rounded to Q8_0 blocks, on each CPU path */
#include <math.h>

#include "../cast.h"
#include "qdot.h"

/* Every path computes the same bits: per block b, eight lane sums s[l] of four byte
   products each (bytes 4l..4l+3; exact integers), then acc[b % 4][l] += s[l] * (dw * dx)
   as one fused multiply-add, then the four accumulators and their eight lanes are summed
   in one fixed order. That is how the AVX2 instructions (maddubs + madd) and AVX-512
   VNNI's vpdpbusd naturally group the products, so the portable loop follows them.
   vpdpbusd multiplies unsigned by signed bytes: it reads w + 128, and each lane starts at
   the bias -128 times its four x bytes' sum (x's nsum4 shifted left by 7). */

/* ---- dots ---------------------------------------------------------------------------- */

/* One Q8_0 weight row (nb blocks) dotted with x's blocks xq, xd. */
static float dot_c(const uint8_t *w, const int8_t *xq, const float *xd, int64_t nb)
{
    float acc[4][8] = { { 0 } };
    for (int64_t b = 0; b < nb; b++, w += 34, xq += 32) {
        float sc = cast_f16_to_f32((uint16_t)(w[0] | w[1] << 8)) * xd[b];
        for (int l = 0; l < 8; l++) {
            int32_t s = 0;
            for (int t = 0; t < 4; t++) s += (int8_t)w[2 + 4 * l + t] * xq[4 * l + t];
            acc[b & 3][l] = fmaf((float)s, sc, acc[b & 3][l]);
        }
    }
    float v[8];
    for (int l = 0; l < 8; l++) v[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
}

/* The f16 bits at p, one 16-bit load ((p[0] | p[1] << 8) compiled to two byte loads, a
   shift and an or per block). */
#define load_f16_bits qdot_f16_bits

/* The bias of the eight lanes at p (x's nsum4): -128 times each four x bytes' sum. */
#define Q8_BIAS256(p) _mm256_slli_epi32(_mm256_loadu_si256((const __m256i *)(p)), 7)

/* The scale of block b: w's f16 d times x's. */
#define Q8_SCALE(w, b) _mm256_set1_ps(_cvtsh_ss(load_f16_bits((w) + 34 * (b))) * xd[b])

/* acc += lane sums of block b * its scale, the lane sums from maddubs (|w| times x with
   w's sign, in i16 pairs; at most 2 * 128 * 127, no saturation) and madd. */
#define Q8_AVX2_STEP(acc, b)                                                                             \
    do {                                                                                                 \
        __m256i wq = _mm256_loadu_si256((const __m256i *)(w + 34 * (b) + 2));                          \
        __m256i xv = _mm256_loadu_si256((const __m256i *)(xq + 32 * (b)));                             \
        __m256i s = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_sign_epi8(wq, wq), _mm256_sign_epi8(xv, wq)), \
                                      ones);                                                            \
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), Q8_SCALE(w, b), acc);                              \
    } while (0)

/* The same lane sums in one instruction: vpdpbusd adds (w + 128) * x over each four
   bytes to the lane, which starts at the bias -128 * (their x sum). */
#define Q8_VNNI_STEP(acc, b)                                                                             \
    do {                                                                                                 \
        __m256i wq = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(w + 34 * (b) + 2)), flip);  \
        __m256i s = _mm256_dpbusd_epi32(Q8_BIAS256(bias + 8 * (b)), wq,      \
                                        _mm256_loadu_si256((const __m256i *)(xq + 32 * (b))));          \
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), Q8_SCALE(w, b), acc);                              \
    } while (0)

/* dot_NAME(w, xq, bias, xd, nb): blocks b go to accumulator b % 4, STEP(acc, b) adding one;
   with AHEAD, a long row asks for the bytes PREFETCH_AHEAD_AVX2 ahead as it goes. */
#define Q8_DOT(NAME, TARGET, STEP, AHEAD)                                                               \
    __attribute__((target(TARGET))) static float NAME(const uint8_t *w, const int8_t *xq, const int32_t *bias, \
                                                      const float *xd, int64_t nb)                       \
    {                                                                                                    \
        const __m256i ones = _mm256_set1_epi16(1), flip = _mm256_set1_epi8((char)0x80);                 \
        (void)ones, (void)flip, (void)bias;                                                              \
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;                                      \
        int64_t b = 0;                                                                                   \
        bool ahead = AHEAD && 34 * nb >= TL_QDOT_LONG_ROW_BYTES;                                         \
        for (; b + 4 <= nb; b += 4) {                                                                    \
            if (ahead) prefetch_ahead(w + 34 * b, 4 * 34, PREFETCH_AHEAD_AVX2);                          \
            STEP(a0, b);                                                                                 \
            STEP(a1, b + 1);                                                                             \
            STEP(a2, b + 2);                                                                             \
            STEP(a3, b + 3);                                                                             \
        }                                                                                                \
        if (b < nb) STEP(a0, b);                                                                         \
        if (b + 1 < nb) STEP(a1, b + 1);                                                                 \
        if (b + 2 < nb) STEP(a2, b + 2);                                                                 \
        return hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));                     \
    }
Q8_DOT(dot_avx2, QDOT_AVX2, Q8_AVX2_STEP, true)
Q8_DOT(dot_vnni, QDOT_VNNI256, Q8_VNNI_STEP, false)

/* Row w's share of an AVX2 multi-row step: block b's lane sums from the shared x bytes
   xv, times its scale (the shared dx times w's d), into acc. */
#define Q8_AVX2_ROW(acc, w, b)                                                                           \
    do {                                                                                                 \
        __m256i wq = _mm256_loadu_si256((const __m256i *)((w) + 34 * (b) + 2));                        \
        __m256i s = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_sign_epi8(wq, wq), _mm256_sign_epi8(xv, wq)), \
                                      ones);                                                            \
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_set1_ps(_cvtsh_ss(load_f16_bits((w) + 34 * (b))) * dx), \
                              acc);                                                                     \
    } while (0)

/* Two rows' blocks b at once into acc0, acc1 (x's bytes and d loaded once). */
#define Q8_AVX2_STEP2(acc0, acc1, b)                                                                     \
    do {                                                                                                 \
        __m256i xv = _mm256_loadu_si256((const __m256i *)(xq + 32 * (b)));                             \
        float dx = xd[b];                                                                                \
        Q8_AVX2_ROW(acc0, w0, b);                                                                        \
        Q8_AVX2_ROW(acc1, w1, b);                                                                        \
    } while (0)

/* Row w's share of a VNNI multi-row step: block b's lane sums from the shared x bytes xv
   and bias bv, times its scale (the shared dx times w's d), into acc. */
#define Q8_VNNI_ROW(acc, w, b)                                                                           \
    acc = _mm256_fmadd_ps(                                                                               \
        _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(                                                          \
            bv, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)((w) + 34 * (b) + 2)), flip), xv)), \
        _mm256_set1_ps(_cvtsh_ss(load_f16_bits((w) + 34 * (b))) * dx), acc)

/* What the rows of a VNNI multi-row step share for block b: x's bytes, bias and d. */
#define Q8_VNNI_SHARED(b)                                                                                \
    __m256i xv = _mm256_loadu_si256((const __m256i *)(xq + 32 * (b)));                                 \
    __m256i bv = Q8_BIAS256(bias + 8 * (b));                                                            \
    float dx = xd[b]

/* Two rows' blocks b at once into acc0, acc1 (x's bytes, bias and d loaded once). */
#define Q8_VNNI_STEP2(acc0, acc1, b)                                                                     \
    do {                                                                                                 \
        Q8_VNNI_SHARED(b);                                                                               \
        Q8_VNNI_ROW(acc0, w0, b);                                                                        \
        Q8_VNNI_ROW(acc1, w1, b);                                                                        \
    } while (0)

/* dot2_NAME(w0, rb, xq, bias, xd, nb, o, os): rows w0 and w0 + rb dotted with x into o[0]
   and o[os], each the same bits as one row's dot (the same accumulators, the same order). */
#define Q8_DOT2(NAME, TARGET, STEP2)                                                                     \
    __attribute__((target(TARGET))) static void NAME(const uint8_t *w0, size_t rb, const int8_t *xq,     \
                                                     const int32_t *bias, const float *xd, int64_t nb,   \
                                                     float *o, int64_t os)                               \
    {                                                                                                    \
        const __m256i ones = _mm256_set1_epi16(1), flip = _mm256_set1_epi8((char)0x80);                 \
        (void)ones, (void)flip, (void)bias;                                                              \
        const uint8_t *w1 = w0 + rb;                                                                     \
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, c0 = a0, c1 = a0, c2 = a0, c3 = a0;  \
        int64_t b = 0;                                                                                   \
        for (; b + 4 <= nb; b += 4) {                                                                    \
            STEP2(a0, c0, b);                                                                            \
            STEP2(a1, c1, b + 1);                                                                        \
            STEP2(a2, c2, b + 2);                                                                        \
            STEP2(a3, c3, b + 3);                                                                        \
        }                                                                                                \
        if (b < nb) STEP2(a0, c0, b);                                                                    \
        if (b + 1 < nb) STEP2(a1, c1, b + 1);                                                            \
        if (b + 2 < nb) STEP2(a2, c2, b + 2);                                                            \
        o[0] = hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));                     \
        o[os] = hsum256(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)));                    \
    }
Q8_DOT2(dot2_avx2, QDOT_AVX2, Q8_AVX2_STEP2)
Q8_DOT2(dot2_vnni, QDOT_VNNI256, Q8_VNNI_STEP2)

/* Four rows' blocks b at once into acc0..acc3 (x's bytes, bias and d loaded once). */
#define Q8_VNNI_STEP4(acc0, acc1, acc2, acc3, b)                                                         \
    do {                                                                                                 \
        Q8_VNNI_SHARED(b);                                                                               \
        Q8_VNNI_ROW(acc0, w0, b);                                                                        \
        Q8_VNNI_ROW(acc1, w1, b);                                                                        \
        Q8_VNNI_ROW(acc2, w2, b);                                                                        \
        Q8_VNNI_ROW(acc3, w3, b);                                                                        \
    } while (0)

/* Rows w, w + rb, w + 2 rb, w + 3 rb dotted with x into o[0], o[os], o[2 os], o[3 os]. */
__attribute__((target(QDOT_VNNI256))) static void
dot4_vnni(const uint8_t *w0, size_t rb, const int8_t *xq, const int32_t *bias, const float *xd, int64_t nb,
          float *o, int64_t os)
{
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    const uint8_t *w1 = w0 + rb, *w2 = w1 + rb, *w3 = w2 + rb;
    __m256 z = _mm256_setzero_ps();
    __m256 a0 = z, a1 = z, a2 = z, a3 = z, b0 = z, b1 = z, b2 = z, b3 = z;
    __m256 c0 = z, c1 = z, c2 = z, c3 = z, d0 = z, d1 = z, d2 = z, d3 = z;
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        Q8_VNNI_STEP4(a0, b0, c0, d0, b);
        Q8_VNNI_STEP4(a1, b1, c1, d1, b + 1);
        Q8_VNNI_STEP4(a2, b2, c2, d2, b + 2);
        Q8_VNNI_STEP4(a3, b3, c3, d3, b + 3);
    }
    if (b < nb) Q8_VNNI_STEP4(a0, b0, c0, d0, b);
    if (b + 1 < nb) Q8_VNNI_STEP4(a1, b1, c1, d1, b + 1);
    if (b + 2 < nb) Q8_VNNI_STEP4(a2, b2, c2, d2, b + 2);
    o[0] = hsum256(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
    o[os] = hsum256(_mm256_add_ps(_mm256_add_ps(b0, b1), _mm256_add_ps(b2, b3)));
    o[2 * os] = hsum256(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)));
    o[3 * os] = hsum256(_mm256_add_ps(_mm256_add_ps(d0, d1), _mm256_add_ps(d2, d3)));
}

/* ---- AVX-512 VBMI + VNNI: two blocks per 512-bit vector ------------------------------ */

#define V512 QDOT_512

/* Row w's blocks 2p and 2p + 1 (68 bytes: d, 32 q, d, 32 q) into acc, block 2p in the low
   eight lanes and 2p + 1 in the high ones: the two blocks' q bytes are loaded as the halves of
   one vector, and A (bytes 0..63) gives both d's, one word permute spreading each over its
   eight lanes. xv, bv, dx: x's bytes, bias and d (each spread likewise) for the two blocks.
   (A byte permute of A and bytes 36..67 had gathered the q bytes: two cycles of the shuffle
   port, where the insert takes none of it. One thread, a Sapphire Rapids-class Xeon: in cache
   768 x 288 and 288 x 768 1.10-1.14x faster, 32000 x 288 1.03-1.10x; from memory 1.06-1.07x,
   two threads 1.01-1.04x.) */
#define Q8_512_ROW(acc, w, p)                                                                            \
    do {                                                                                                 \
        const uint8_t *wp = (w) + 68 * (p);                                                              \
        __m512i A = _mm512_loadu_si512(wp);                                                              \
        __m512i Q = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(wp + 2))), \
                                       _mm256_loadu_si256((const __m256i *)(wp + 36)), 1);               \
        __m512i wq = _mm512_xor_si512(Q, flip);                                                          \
        __m512 sc = _mm512_mul_ps(_mm512_cvtph_ps(_mm512_castsi512_si256(_mm512_permutexvar_epi16(didx, A))), dx); \
        acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_dpbusd_epi32(bv, wq, xv)), sc, acc);             \
    } while (0)

/* Row w's lone last block b (nb odd) into acc's low eight lanes. */
#define Q8_512_LAST(acc, w, b)                                                                           \
    do {                                                                                                 \
        __m256i wq = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)((w) + 34 * (b) + 2)),        \
                                      _mm512_castsi512_si256(flip));                                     \
        __m256 s = _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(bv, wq, xv));                                 \
        __m256 sc = _mm256_set1_ps(_cvtsh_ss(load_f16_bits((w) + 34 * (b))) * dx);                       \
        acc = _mm512_mask3_fmadd_ps(_mm512_castps256_ps512(s), _mm512_castps256_ps512(sc), acc, 0xFF);    \
    } while (0)

/* The word permute's sources for the d's of a block pair: word 0 eight times, then word 17. */
static const uint16_t q8_512_didx[32] = { 0, 0, 0, 0, 0, 0, 0, 0, 17, 17, 17, 17, 17, 17, 17, 17 };

/* Loops over the R rows unrolled, so their accumulators stay in registers. */
#define Q8_UNROLL _Pragma("GCC unroll 4")

/* Rows w0 + r rb (r < R) dotted with x into acc[r]: acc[r][h] holds the scalar paths'
   acc[2h] in its low lanes and acc[2h + 1] in its high ones (block b goes to acc[b % 4] as
   there), and (lo + hi) + (lo + hi) of the two is their sum in their order: the same bits. */
__attribute__((target(V512), always_inline)) static inline void
dotn_acc_512(int R, const uint8_t *w0, size_t rb, const int8_t *xq, const int32_t *bias, const float *xd, int64_t nb,
             __m512 acc[4][2])
{
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const __m512i didx = _mm512_loadu_si512(q8_512_didx);
    const __m512i dsel = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    Q8_UNROLL for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    int64_t np = nb / 2, p = 0;
    bool ahead = 34 * nb >= TL_QDOT_LONG_ROW_BYTES;   /* long rows ask ahead, each for itself (qdot.h) */
    for (; p < np; p++) {
        if (ahead) Q8_UNROLL for (int r = 0; r < R; r++) prefetch_ahead_l2(w0 + r * rb + 68 * p, 64, PREFETCH_AHEAD_512);
        __m512i xv = _mm512_loadu_si512(xq + 64 * p), bv = _mm512_slli_epi32(_mm512_loadu_si512(bias + 16 * p), 7);
        __m512 dx = _mm512_permutexvar_ps(dsel, _mm512_castps128_ps512(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(xd + 2 * p)))));
        if (p & 1)
            Q8_UNROLL for (int r = 0; r < R; r++) Q8_512_ROW(acc[r][1], w0 + r * rb, p);
        else
            Q8_UNROLL for (int r = 0; r < R; r++) Q8_512_ROW(acc[r][0], w0 + r * rb, p);
    }
    if (nb & 1) {
        int64_t b = nb - 1;
        __m256i xv = _mm256_loadu_si256((const __m256i *)(xq + 32 * b)), bv = Q8_BIAS256(bias + 8 * b);
        float dx = xd[b];
        if (np & 1)
            Q8_UNROLL for (int r = 0; r < R; r++) Q8_512_LAST(acc[r][1], w0 + r * rb, b);
        else
            Q8_UNROLL for (int r = 0; r < R; r++) Q8_512_LAST(acc[r][0], w0 + r * rb, b);
    }
}

/* Rows w0 + r rb (r < R) dotted with x into o[r os]. */
__attribute__((target(V512), always_inline)) static inline void
dotn_512(int R, const uint8_t *w0, size_t rb, const int8_t *xq, const int32_t *bias, const float *xd, int64_t nb,
         float *o, int64_t os)
{
    __m512 acc[4][2];
    dotn_acc_512(R, w0, rb, xq, bias, xd, nb, acc);
    Q8_UNROLL for (int r = 0; r < R; r++) {
        __m256 h0 = _mm256_add_ps(_mm512_castps512_ps256(acc[r][0]), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc[r][0]), 1)));
        __m256 h1 = _mm256_add_ps(_mm512_castps512_ps256(acc[r][1]), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc[r][1]), 1)));
        o[r * os] = hsum256(_mm256_add_ps(h0, h1));
    }
}

/* dotn_512's sums of four rows at once, each 128-bit lane one row's through the same
   additions in the same order (the same bits), into o[r os]. */
__attribute__((target(V512), always_inline)) static inline void sum4_512(__m512 acc[4][2], float *o, int64_t os)
{
    /* (lo + hi) of each accumulator, two rows to a vector: [r, r + 1] */
    __m512 h[2][2];
    for (int q = 0; q < 2; q++)
        for (int a = 0; a < 2; a++)
            h[q][a] = _mm512_add_ps(_mm512_shuffle_f32x4(acc[2 * q][a], acc[2 * q + 1][a], 0x44),
                                    _mm512_shuffle_f32x4(acc[2 * q][a], acc[2 * q + 1][a], 0xEE));
    __m512 v01 = _mm512_add_ps(h[0][0], h[0][1]), v23 = _mm512_add_ps(h[1][0], h[1][1]);
    /* hsum256 of each row's eight lanes: its halves (one 128-bit lane a row), movehl, movehdup */
    __m512 v = qdot_lane_pairs(v01, v23);
    qdot_lane_sums4(v, o, os);
}

/* dotR_512: dotn_512 with R fixed, so its accumulators stay in registers. */
#define Q8_DOTN_512(R)                                                                                    \
    __attribute__((target(V512))) static void dot##R##_512(const uint8_t *w, size_t rb, const int8_t *xq, \
                                                           const int32_t *bias, const float *xd, int64_t nb, \
                                                           float *o, int64_t os)                           \
    {                                                                                                     \
        dotn_512(R, w, rb, xq, bias, xd, nb, o, os);                                                      \
    }
Q8_DOTN_512(1)
Q8_DOTN_512(2)
Q8_DOTN_512(3)
Q8_DOTN_512(4)

/* ---- the row groups of each path ------------------------------------------------------ */

/* x's row i: its bytes xq, scales xd and nsum4 (the bias's sums), and its blocks nb. */
#define Q8_X(x, i)                                                                                        \
    int64_t nb = (x)->nb;                                                                                 \
    const int8_t *xq = (x)->q + (i) * nb * 32;                                                            \
    const float *xd = (x)->d + (i) * nb;                                                                  \
    const int32_t *bias = (x)->nsum4 + (i) * nb * 8;                                                      \
    (void)bias

/* One row on the portable path. */
static void one_c(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)
{
    (void)rb, (void)os;
    Q8_X(x, i);
    o[0] = dot_c(w, xq, xd, nb);
}

/* NAME(w, rb, x, i, o, os): R rows by the multi-row dot DOT. */
#define Q8_GROUP(NAME, DOT)                                                                               \
    static void NAME(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)      \
    {                                                                                                     \
        Q8_X(x, i);                                                                                       \
        DOT(w, rb, xq, bias, xd, nb, o, os);                                                              \
    }
/* NAME(w, rb, x, i, o, os): one row by the one-row dot DOT. */
#define Q8_ONE(NAME, DOT)                                                                                 \
    static void NAME(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)      \
    {                                                                                                     \
        (void)rb, (void)os;                                                                               \
        Q8_X(x, i);                                                                                       \
        o[0] = DOT(w, xq, bias, xd, nb);                                                                  \
    }
Q8_ONE(one_avx2, dot_avx2)
Q8_GROUP(two_avx2, dot2_avx2)
Q8_ONE(one_vnni, dot_vnni)
Q8_GROUP(two_vnni, dot2_vnni)
Q8_GROUP(four_vnni, dot4_vnni)
Q8_GROUP(one_512, dot1_512)
Q8_GROUP(two_512, dot2_512)
Q8_GROUP(three_512, dot3_512)
Q8_GROUP(four_512, dot4_512)

/* Rows four (VNNI) or two (AVX2: sixteen registers) at a time, sharing x's loads. Long rows
   on AVX-512 go a row from each of four runs at a time (qdot_row_loop), each asking ahead
   for its own bytes: from memory, against one row at a time, 4096 and 11008 x 4096, one
   thread 1.31-1.40 ms against 1.36-1.42 and 3.62-3.77 against 3.77-3.92, two threads
   0.67-0.68 against 0.70-0.74 and 1.60-1.66 against 1.87-1.98 (best of 15, four
   alternations; two and three runs did about as well). */
static const qdot_group_fn groups[4][5] = {
    [TL_QDOT_PORTABLE] = { NULL, one_c },
    [TL_QDOT_AVX2] = { NULL, one_avx2, two_avx2 },
    [TL_QDOT_VNNI256] = { NULL, one_vnni, two_vnni, NULL, four_vnni },
    [TL_QDOT_AVX512] = { NULL, one_512, two_512, three_512, four_512 },   /* short rows: rows_512 */
};

/* Short rows on AVX-512, four at a time with the rows PREFETCH_ROWS ahead asked into the
   cache, as qdot_row_loop would, but each four rows' sums made at once and after the next
   four rows' dots are issued (summed row by row right away, their chains of dependent
   shuffles and additions held the next rows up). */
__attribute__((target(V512))) static void rows_512(const uint8_t *w, size_t rb, int64_t rows, const tl_qact *x,
                                                   int64_t i, float *o, int64_t os)
{
    Q8_X(x, i);
    __m512 acc[4][2], prev[4][2];
    int64_t j = 0;
    for (; j + 4 <= rows; j += 4) {
        if (j + PREFETCH_ROWS + 4 <= rows) prefetch_bytes(w + (j + PREFETCH_ROWS) * rb, 4 * rb);
        dotn_acc_512(4, w + j * rb, rb, xq, bias, xd, nb, acc);
        if (j) sum4_512(prev, o + (j - 4) * os, os);
        Q8_UNROLL for (int r = 0; r < 4; r++) prev[r][0] = acc[r][0], prev[r][1] = acc[r][1];
    }
    if (j) sum4_512(prev, o + (j - 4) * os, os);
    if (j < rows) groups[TL_QDOT_AVX512][rows - j](w + j * rb, rb, x, i, o + j * os, os);
}

QDOT_ROWS_FN(tl_qdot_q8_0)
{
    if (path == TL_QDOT_AVX512 && row_bytes < TL_QDOT_LONG_ROW_BYTES) rows_512(w, row_bytes, rows, x, i, out, os);
    else qdot_row_loop(groups[path], path == TL_QDOT_AVX512 ? 4 : 1, w, row_bytes, rows, x, i, out, os);
}
