/* kernels/qdot32.c — Q4_0, Q4_1, Q5_0 and Q5_1 weight rows dotted with x rounded to Q8_0 blocks, on each CPU path */
#include <math.h>

#include "../cast.h"
#include "qdot.h"

/* A block of 32 weights holds an f16 scale d, for Q4_1/Q5_1 an f16 minimum m, for Q5_0/Q5_1
   32 fifth bits qh, then 16 bytes of nibbles: weight j < 16 is the low nibble of byte j and
   weight j + 16 its high one, and the fifth bit of weight j is bit j of qh. With u the
   unsigned 4- or 5-bit value, a weight is d (u - 8) (Q4_0), d (u - 16) (Q5_0) or d u + m.

   Every path computes the same bits, as q8dot.c's Q8_0 dot does: per block b, eight lane
   sums s[l] over the block's weights 4l..4l+3 of (u - offset) times x's bytes (exact
   integers: vpdpbusd or maddubs + madd sum u x, and the lane starts at -offset times x's
   four bytes' sum), then acc[b % 4][l] += s[l] * (d * dx) as one fused multiply-add, and for
   Q4_1/Q5_1 acc[b % 4][l] += (dx * x's four bytes' sum) * m as another; at the end the four
   accumulators, then the eight lanes, are summed in one fixed order. (ggml rounds the
   minimum's x sum to f16; here it stays f32.) */

enum { Q40, Q41, Q50, Q51 };

/* Bytes per block, and where the minimum, the fifth bits and the nibbles start. */
static inline int blk_bytes(int t) { return t == Q40 ? 18 : t == Q41 ? 20 : t == Q50 ? 22 : 24; }
static inline bool has_min(int t) { return t == Q41 || t == Q51; }
static inline bool has_qh(int t) { return t == Q50 || t == Q51; }
static inline int qh_at(int t) { return has_min(t) ? 4 : 2; }
static inline int qs_at(int t) { return qh_at(t) + (has_qh(t) ? 4 : 0); }
/* log2 of the offset subtracted from u (Q4_0: 8, Q5_0: 16; none with a minimum). */
static inline int offset_shift(int t) { return has_qh(t) ? 4 : 3; }

/* ---- portable ------------------------------------------------------------------------ */

/* One row (nb blocks of type t from w) dotted with x's bytes xq, scales xd and sums dsum4. */
static float dot_c(int t, const uint8_t *w, const int8_t *xq, const float *xd, const float *dsum4, int64_t nb)
{
    float acc[4][8] = { { 0 } };
    int off = has_min(t) ? 0 : 1 << offset_shift(t);
    for (int64_t b = 0; b < nb; b++, w += blk_bytes(t), xq += 32) {
        const uint8_t *qs = w + qs_at(t);
        uint32_t qh = has_qh(t) ? qdot_u32(w + qh_at(t)) : 0;
        int u[32];
        for (int j = 0; j < 16; j++) {
            u[j] = (qs[j] & 15) | (int)((qh >> j) & 1) << 4;
            u[j + 16] = (qs[j] >> 4) | (int)((qh >> (j + 16)) & 1) << 4;
        }
        float sc = cast_f16_to_f32(qdot_f16_bits(w)) * xd[b];
        for (int l = 0; l < 8; l++) {
            int32_t s = 0;
            for (int j = 4 * l; j < 4 * l + 4; j++) s += (u[j] - off) * xq[j];
            acc[b & 3][l] = fmaf((float)s, sc, acc[b & 3][l]);
            if (has_min(t)) acc[b & 3][l] = fmaf(dsum4[8 * b + l], cast_f16_to_f32(qdot_f16_bits(w + 2)), acc[b & 3][l]);
        }
    }
    float v[8];
    for (int l = 0; l < 8; l++) v[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
    return qdot_sum8(v);
}

/* ---- AVX2 ---------------------------------------------------------------------------- */

/* The 32 fifth bits of qh as bytes 0x10 (bit set) or 0. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i fifth_bits_avx2(uint32_t qh)
{
    const __m256i spread = _mm256_setr_epi64x(0, 0x0101010101010101, 0x0202020202020202, 0x0303030303030303);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201);
    __m256i v = _mm256_and_si256(_mm256_shuffle_epi8(_mm256_set1_epi32((int)qh), spread), bit);
    return _mm256_and_si256(_mm256_cmpeq_epi8(v, bit), _mm256_set1_epi8(0x10));
}

/* Block blk's u as 32 bytes in weight order. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i unpack_avx2(int t, const uint8_t *blk)
{
    __m128i q = _mm_loadu_si128((const __m128i *)(blk + qs_at(t)));
    __m256i u = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(q, 4), q), _mm256_set1_epi8(0x0F));
    if (has_qh(t)) u = _mm256_or_si256(u, fifth_bits_avx2(qdot_u32(blk + qh_at(t))));
    return u;
}

/* What rows share for block b: x's bytes, its lane bias (or d times its sums) and d. */
typedef struct x_avx2 { __m256i xv, bias; __m256 xs; float dx; } x_avx2;

__attribute__((target(QDOT_AVX2), always_inline)) static inline x_avx2 x_block_avx2(int t, const int8_t *xq,
                                                                                     const float *xd, const int32_t *nsum,
                                                                                     const float *dsum, int64_t b)
{
    x_avx2 s;
    s.xv = _mm256_loadu_si256((const __m256i *)(xq + 32 * b));
    s.dx = xd[b];
    if (has_min(t)) s.xs = _mm256_loadu_ps(dsum + 8 * b), s.bias = _mm256_setzero_si256();
    else s.bias = _mm256_slli_epi32(_mm256_loadu_si256((const __m256i *)(nsum + 8 * b)), offset_shift(t)),
         s.xs = _mm256_setzero_ps();
    return s;
}

/* acc plus row block blk's share: its lane sums (maddubs: u <= 31, no saturation) times
   d * dx, then for a minimum x's sums times m. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256 step_avx2(int t, const uint8_t *blk,
                                                                                  const x_avx2 *x, __m256 acc)
{
    __m256i s = _mm256_madd_epi16(_mm256_maddubs_epi16(unpack_avx2(t, blk), x->xv), _mm256_set1_epi16(1));
    s = _mm256_add_epi32(s, x->bias);
    acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), _mm256_set1_ps(_cvtsh_ss(qdot_f16_bits(blk)) * x->dx), acc);
    if (has_min(t)) acc = _mm256_fmadd_ps(x->xs, _mm256_set1_ps(_cvtsh_ss(qdot_f16_bits(blk + 2))), acc);
    return acc;
}

/* R (1 or 2) rows from w, rb bytes apart, against row i of x into o[r * os]. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void rows_avx2(int t, int R, const uint8_t *w, size_t rb,
                                                                                const tl_qact *x, int64_t i, float *o,
                                                                                int64_t os)
{
    int64_t nb = x->nb, bb = blk_bytes(t);
    const int8_t *xq = x->q + i * nb * 32;
    const float *xd = x->d + i * nb, *dsum = x->dsum4 + i * nb * 8;
    const int32_t *nsum = x->nsum4 + i * nb * 8;
    __m256 acc[2][4];
    for (int r = 0; r < R; r++)
        for (int a = 0; a < 4; a++) acc[r][a] = _mm256_setzero_ps();
    for (int64_t b0 = 0; b0 < nb; b0 += 4)   /* unrolled, so that acc's indices are constants */
        _Pragma("GCC unroll 4") for (int a = 0; a < 4; a++) {
            int64_t b = b0 + a;
            if (b >= nb) break;
            x_avx2 xb = x_block_avx2(t, xq, xd, nsum, dsum, b);
            for (int r = 0; r < R; r++) acc[r][a] = step_avx2(t, w + r * rb + b * bb, &xb, acc[r][a]);
        }
    for (int r = 0; r < R; r++)
        o[r * os] = hsum256(_mm256_add_ps(_mm256_add_ps(acc[r][0], acc[r][1]), _mm256_add_ps(acc[r][2], acc[r][3])));
}

/* ---- AVX-512: two blocks per 512-bit vector ----------------------------------------- */

/* The masks of one block's and of a pair's bytes. */
static inline __mmask64 bytes_mask(int n) { return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1; }

/* The byte permute that spreads a pair's nibble bytes (block A's 16, then B's) as A, A, B, B. */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i nibble_index(int t)
{
    const __m512i j16 = _mm512_set4_epi32(0x0F0E0D0C, 0x0B0A0908, 0x07060504, 0x03020100);
    __m512i base = _mm512_mask_blend_epi8((__mmask64)0xFFFFFFFF00000000ull, _mm512_set1_epi8((char)qs_at(t)),
                                          _mm512_set1_epi8((char)(blk_bytes(t) + qs_at(t))));
    return _mm512_add_epi8(j16, base);
}

/* The word permute that spreads a pair's d (and m) over their halves: A's d eight times, B's
   d eight times, then A's m and B's m likewise (words 0, bb / 2, 1, bb / 2 + 1). */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i scale_index(int t)
{
    __m512i b = _mm512_maskz_mov_epi16(0xFF00FF00, _mm512_set1_epi16((short)(blk_bytes(t) / 2)));
    return _mm512_mask_add_epi16(b, 0xFFFF0000, b, _mm512_set1_epi16(1));
}

/* What rows share for a pair (or a last lone block): x's bytes, the lane bias (or d times
   x's sums) and dx, each block's in its half. */
typedef struct x_512 { __m512i xv, bias; __m512 xs, dx; } x_512;

/* x's pair p (blocks 2p, 2p + 1), or its lone last block (half: the low half alone). */
__attribute__((target(QDOT_512), always_inline)) static inline x_512 x_pair_512(int t, const int8_t *xq, const float *xd,
                                                                               const int32_t *nsum, const float *dsum,
                                                                               int64_t p, bool half)
{
    const __m512i dsel = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    __mmask64 qm = half ? bytes_mask(32) : bytes_mask(64);
    __mmask16 lm = half ? 0xFF : 0xFFFF;
    x_512 s;
    s.xv = _mm512_maskz_loadu_epi8(qm, xq + 64 * p);
    s.dx = _mm512_permutexvar_ps(dsel, _mm512_maskz_loadu_ps(half ? 1 : 3, xd + 2 * p));
    if (has_min(t)) s.xs = _mm512_maskz_loadu_ps(lm, dsum + 16 * p), s.bias = _mm512_setzero_si512();
    else s.bias = _mm512_slli_epi32(_mm512_maskz_loadu_epi32(lm, nsum + 16 * p), offset_shift(t)),
         s.xs = _mm512_setzero_ps();
    return s;
}

/* acc plus the share of the pair at pw (its two blocks in the two halves; half: block A
   alone, in the low lanes, the high lanes of acc untouched). */
__attribute__((target(QDOT_512), always_inline)) static inline __m512 step_512(int t, const uint8_t *pw, const x_512 *x,
                                                                              __m512i nib, __m512i sci, bool half,
                                                                              __m512 acc)
{
    const __m512i shifts = _mm512_setr_epi64(0, 0, 0x0004000400040004, 0x0004000400040004, 0, 0,
                                             0x0004000400040004, 0x0004000400040004);
    int bb = blk_bytes(t);
    __m512i raw = _mm512_maskz_loadu_epi8(bytes_mask(half ? bb : 2 * bb), pw);
    __m512i u = _mm512_and_si512(_mm512_srlv_epi16(_mm512_permutexvar_epi8(nib, raw), shifts), _mm512_set1_epi8(0x0F));
    if (has_qh(t)) {
        uint64_t qh = qdot_u32(pw + qh_at(t));
        if (!half) qh |= (uint64_t)qdot_u32(pw + bb + qh_at(t)) << 32;
        u = _mm512_mask_add_epi8(u, _cvtu64_mask64(qh), u, _mm512_set1_epi8(0x10));
    }
    __m512i sc16 = _mm512_permutexvar_epi16(sci, raw);   /* d d (m m): f16 words */
    __m512 sc = _mm512_mul_ps(_mm512_cvtph_ps(_mm512_castsi512_si256(sc16)), x->dx);
    __m512 s = _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(x->bias, u, x->xv));
    __mmask16 lanes = half ? 0xFF : 0xFFFF;
    acc = _mm512_mask3_fmadd_ps(s, sc, acc, lanes);
    if (has_min(t)) {
        __m512 m = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(sc16, 1));
        acc = _mm512_mask3_fmadd_ps(x->xs, m, acc, lanes);
    }
    return acc;
}

/* R (1..4) rows from w, rb bytes apart, against row i of x into o[r * os]. Accumulator
   acc[r][h] holds the portable loop's acc[2h] in its low lanes and acc[2h + 1] in its high
   ones (pair p's blocks 2p, 2p + 1 go to acc[r][p % 2]), so the sums are the same. */
__attribute__((target(QDOT_512), always_inline)) static inline void rows_512(int t, int R, const uint8_t *w, size_t rb,
                                                                              const tl_qact *x, int64_t i, float *o,
                                                                              int64_t os)
{
    int64_t nb = x->nb, np = nb / 2, pb = 2 * blk_bytes(t);
    const int8_t *xq = x->q + i * nb * 32;
    const float *xd = x->d + i * nb, *dsum = x->dsum4 + i * nb * 8;
    const int32_t *nsum = x->nsum4 + i * nb * 8;
    const __m512i nib = nibble_index(t), sci = scale_index(t);
    __m512 acc[4][2];
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    for (int64_t p = 0; p < np; p++) {
        x_512 xp = x_pair_512(t, xq, xd, nsum, dsum, p, false);
        if (p & 1)
            _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
                acc[r][1] = step_512(t, w + r * rb + p * pb, &xp, nib, sci, false, acc[r][1]);
        else
            _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
                acc[r][0] = step_512(t, w + r * rb + p * pb, &xp, nib, sci, false, acc[r][0]);
    }
    if (nb & 1) {
        x_512 xp = x_pair_512(t, xq, xd, nsum, dsum, np, true);
        int h = (int)(np & 1);
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
            acc[r][h] = step_512(t, w + r * rb + np * pb, &xp, nib, sci, true, acc[r][h]);
    }
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) {
        __m256 h0 = _mm256_add_ps(_mm512_castps512_ps256(acc[r][0]), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc[r][0]), 1)));
        __m256 h1 = _mm256_add_ps(_mm512_castps512_ps256(acc[r][1]), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc[r][1]), 1)));
        o[r * os] = hsum256(_mm256_add_ps(h0, h1));
    }
}

/* ---- the row groups of each type and path ------------------------------------------------ */

/* NAME_c, NAME_avx2_R, NAME_512_R: R rows of type T from w against row i of x. */
#define Q32_KERNELS(NAME, T)                                                                                  \
    static void NAME##_c(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)      \
    {                                                                                                         \
        (void)rb, (void)os;                                                                                   \
        o[0] = dot_c(T, w, x->q + i * x->nb * 32, x->d + i * x->nb, x->dsum4 + i * x->nb * 8, x->nb);          \
    }                                                                                                         \
    __attribute__((target(QDOT_AVX2))) static void NAME##_avx2_1(const uint8_t *w, size_t rb, const tl_qact *x, \
                                                                 int64_t i, float *o, int64_t os)              \
    {                                                                                                         \
        rows_avx2(T, 1, w, rb, x, i, o, os);                                                                  \
    }                                                                                                         \
    __attribute__((target(QDOT_AVX2))) static void NAME##_avx2_2(const uint8_t *w, size_t rb, const tl_qact *x, \
                                                                 int64_t i, float *o, int64_t os)              \
    {                                                                                                         \
        rows_avx2(T, 2, w, rb, x, i, o, os);                                                                  \
    }                                                                                                         \
    Q32_512(NAME, T, 1) Q32_512(NAME, T, 2) Q32_512(NAME, T, 3) Q32_512(NAME, T, 4)                           \
    static const qdot_group_fn NAME##_groups[4][5] = {                                                       \
        [TL_QDOT_PORTABLE] = { NULL, NAME##_c },                                                               \
        [TL_QDOT_AVX2] = { NULL, NAME##_avx2_1, NAME##_avx2_2 },                                               \
        [TL_QDOT_VNNI256] = { NULL, NAME##_avx2_1, NAME##_avx2_2 },                                            \
        [TL_QDOT_AVX512] = { NULL, NAME##_512_1, NAME##_512_2, NAME##_512_3, NAME##_512_4 },                   \
    };                                                                                                        \
    QDOT_ROWS_FN(tl_qdot_##NAME) { qdot_row_loop(NAME##_groups[path], w, row_bytes, rows, x, i, out, os); }
#define Q32_512(NAME, T, R)                                                                                   \
    __attribute__((target(QDOT_512))) static void NAME##_512_##R(const uint8_t *w, size_t rb, const tl_qact *x, \
                                                                 int64_t i, float *o, int64_t os)              \
    {                                                                                                         \
        rows_512(T, R, w, rb, x, i, o, os);                                                                   \
    }

Q32_KERNELS(q4_0, Q40)
Q32_KERNELS(q4_1, Q41)
Q32_KERNELS(q5_0, Q50)
Q32_KERNELS(q5_1, Q51)
