/* kernels/qdot32.c — Q4_0, Q4_1, Q5_0 and Q5_1 weight rows dotted with x rounded to Q8_0 blocks, on each CPU path */
#include <math.h>
#include <stdlib.h>

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
   minimum's x sum to f16; here it stays f32.) Q4_0 and Q5_0, with no minimum, first add
   lane l + 4 into lane l (the low nibbles' weights 4l..4l+3 and the high ones' 16 + 4l ..,
   still exact), so a block takes one conversion and one multiply-add of four lanes, and
   lanes 4..7 stay zero: 4096 x 4096 Q4_0 read from memory on one thread took 0.47-0.48 ms
   so, 0.51 before (three runs each). */

enum { Q40, Q41, Q50, Q51 };

/* Bytes per block, and where the minimum, the fifth bits and the nibbles start (macros:
   constant expressions for the permutes' indices). */
#define BLK_BYTES(t) ((t) == Q40 ? 18 : (t) == Q41 ? 20 : (t) == Q50 ? 22 : 24)
#define HAS_MIN(t) ((t) == Q41 || (t) == Q51)
#define HAS_QH(t) ((t) == Q50 || (t) == Q51)
#define QH_AT(t) (HAS_MIN(t) ? 4 : 2)
#define QS_AT(t) (QH_AT(t) + (HAS_QH(t) ? 4 : 0))
static inline int blk_bytes(int t) { return BLK_BYTES(t); }
static inline bool has_min(int t) { return HAS_MIN(t); }
static inline bool has_qh(int t) { return HAS_QH(t); }
static inline int qh_at(int t) { return QH_AT(t); }
static inline int qs_at(int t) { return QS_AT(t); }
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
        int pairs = !has_min(t);   /* lane l + 4 added into lane l */
        for (int l = 0; l < 8 - 4 * pairs; l++) {
            int32_t s = 0;
            for (int j = 4 * l; j < 4 * l + 4; j++) s += (u[j] - off) * xq[j];
            if (pairs)
                for (int j = 4 * l + 16; j < 4 * l + 20; j++) s += (u[j] - off) * xq[j];
            acc[b & 3][l] = fmaf((float)s, sc, acc[b & 3][l]);
            if (has_min(t)) acc[b & 3][l] = fmaf(dsum4[8 * b + l], cast_f16_to_f32(qdot_f16_bits(w + 2)), acc[b & 3][l]);
        }
    }
    float v[8];
    for (int l = 0; l < 8; l++) v[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
    return qdot_sum8(v);
}

/* Does a dot of one row of rb bytes ask for the bytes ahead (a long row, alone: qdot.h's
   PREFETCH_AHEAD_AVX2)? (The AVX2 dots'; the AVX-512 ones ask for every row of a long group.) */
static inline bool prefetch_ahead_for(int rows, size_t rb) { return rows == 1 && rb >= TL_QDOT_LONG_ROW_BYTES; }

/* ---- AVX2: two blocks at a time ------------------------------------------------------- */

/* Blocks b and b + 1 side by side: a 256-bit vector holds the low nibbles of both (weights
   0..15 of b, then of b + 1) and another the high ones (16..31), against x's bytes arranged
   alike, so that one maddubs per half and one madd make lanes 0..3 of b (the low nibbles'
   lanes; for Q4_0 and Q5_0 the two halves are added as 16-bit sums first, exact: a word is
   at most 2 x 31 x 128) and of b + 1 beside them, and one multiply-add applies both blocks'
   scales. The rule's acc[b % 4] and acc[(b + 1) % 4] are the halves of one accumulator, for
   pairs 0, 2, 4, ... and another for pairs 1, 3, .... Done a block at a time, with one
   conversion of a scalar scale per block, 4096 x 4096 Q4_0 ran at 0.87-0.98x Q8_0's speed
   from memory on a Zen 3 (one thread), its dot slower than the memory. */

/* What every row meets at a pair of x's blocks: the bytes against the low and high nibbles,
   the lane biases (-offset times x's sums; zero with a minimum) and each block's dx over its
   four lanes; with a minimum, dx times x's sums for lanes 0..3 and 4..7 (x_pair_min). */
typedef struct x_pair { __m256i lo, hi, bias; __m256 dx; } x_pair;
typedef struct x_pair_min { __m256 slo, shi; } x_pair_min;

/* Row i of x's blocks b and b1 (absent when b1 < 0: its lanes zero) as a pair: b1 is b + 1,
   or b itself for the pair of two rows' last blocks (rows_pairs_avx2). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void x_pair_of(int t, const tl_qact *x, int64_t i,
                                                                               int64_t b, int64_t b1, x_pair *p,
                                                                               x_pair_min *pm)
{
    bool one = b1 < 0;
    b += i * x->nb, b1 += i * x->nb;
    const __m256i zero = _mm256_setzero_si256();
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(x->q + 32 * b));
    __m256i x1 = one ? zero : _mm256_loadu_si256((const __m256i *)(x->q + 32 * b1));
    p->lo = _mm256_permute2x128_si256(x0, x1, 0x20), p->hi = _mm256_permute2x128_si256(x0, x1, 0x31);
    float d1 = one ? 0 : x->d[b1];
    p->dx = _mm256_setr_ps(x->d[b], x->d[b], x->d[b], x->d[b], d1, d1, d1, d1);
    if (has_min(t)) {
        __m256 s0 = _mm256_loadu_ps(x->dsum4 + 8 * b);
        __m256 s1 = one ? _mm256_setzero_ps() : _mm256_loadu_ps(x->dsum4 + 8 * b1);
        pm->slo = _mm256_permute2f128_ps(s0, s1, 0x20), pm->shi = _mm256_permute2f128_ps(s0, s1, 0x31);
        p->bias = zero;
        return;
    }
    /* each block's lanes l and l + 4 in one, as the halves' sums are */
    __m256i n0 = _mm256_loadu_si256((const __m256i *)(x->nsum4 + 8 * b));
    __m256i n1 = one ? zero : _mm256_loadu_si256((const __m256i *)(x->nsum4 + 8 * b1));
    __m256i n = _mm256_add_epi32(_mm256_permute2x128_si256(n0, n1, 0x20), _mm256_permute2x128_si256(n0, n1, 0x31));
    p->bias = _mm256_slli_epi32(n, offset_shift(t));
}

/* The first eight bytes of the blocks at blk and (unless one: zeros) nxt, side by side:
   each block's d and m in one load (a block is at least 18 bytes). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m128i pair_heads(const uint8_t *blk,
                                                                                  const uint8_t *nxt, bool one)
{
    __m128i h = _mm_loadl_epi64((const __m128i *)blk);
    return one ? h : _mm_unpacklo_epi64(h, _mm_loadl_epi64((const __m128i *)nxt));
}

/* The pair's first 32 bytes (a pair is at least 36), or when one, the block's first eight and
   zeros: lane 0 holds block b's d (byte 0), m (2) and fifth bits (QH_AT), lane 1 block b + 1's
   from byte BLK_BYTES - 16 on. Byte shuffles take each block's fields from its own lane, with
   no move of the heads across lanes. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i pair_bytes32(const uint8_t *blk, bool one)
{
    return one ? _mm256_zextsi128_si256(_mm_loadl_epi64((const __m128i *)blk)) : _mm256_loadu_si256((const __m256i *)blk);
}

/* The same for blocks blk and nxt anywhere (two rows' last blocks): lane 1 is the 16 bytes
   that would precede nxt's in a pair, read from nxt - (BLK_BYTES - 16) (nxt's row has bytes
   before it: the row above). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i pair_bytes32_apart(int t, const uint8_t *blk,
                                                                                          const uint8_t *nxt)
{
    return _mm256_loadu2_m128i((const __m128i *)(nxt - (blk_bytes(t) - 16)), (const __m128i *)blk);
}

/* Where byte o of block l (0 or 1) of a pair lies in its lane of pair_bytes32. */
#define LANE_BYTE(t, l, o) ((l) ? BLK_BYTES(t) - 16 + (o) : (o))
/* Byte j of lane l of the fifth-bit selectors: the byte holding bit j (lo) or 16 + j (hi) of
   block l's qh. */
#define QH_SEL(t, l, half, j) LANE_BYTE(t, l, QH_AT(t) + 2 * (half) + (j) / 8)
#define QH_SEL16(t, l, half)                                                                                     \
    QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0),                  \
        QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0), QH_SEL(t, l, half, 0),              \
        QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8),              \
        QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8), QH_SEL(t, l, half, 8)
/* Block l's d four times (eight bytes), then eight bytes not used. */
#define D_SEL16(t, l)                                                                                            \
    LANE_BYTE(t, l, 0), LANE_BYTE(t, l, 1), LANE_BYTE(t, l, 0), LANE_BYTE(t, l, 1), LANE_BYTE(t, l, 0),          \
        LANE_BYTE(t, l, 1), LANE_BYTE(t, l, 0), LANE_BYTE(t, l, 1), 0, 0, 0, 0, 0, 0, 0, 0

/* The pair's fifth bits as bytes 0x10 (set) or 0, in the order of its low nibbles (*lo:
   weights 0..15 of each block) and high ones (*hi: 16..31), from its bytes h (pair_bytes32):
   one byte shuffle picks each weight's byte of qh, a mask and a compare its bit. (Through
   general registers, each block's 32 bits loaded, the halves recombined and broadcast, Q5_0
   took 1.52-1.65x Q4_0's time in cache, one thread, 768 x 288 and 32000 x 288; so 1.40-1.45x.) */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void fifth_bits_pair(int t, __m256i h, __m256i *lo,
                                                                                     __m256i *hi)
{
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201), sixteen = _mm256_set1_epi8(0x10);
    const __m256i sel_lo = _mm256_setr_epi8(QH_SEL16(t, 0, 0), QH_SEL16(t, 1, 0));
    const __m256i sel_hi = _mm256_setr_epi8(QH_SEL16(t, 0, 1), QH_SEL16(t, 1, 1));
    *lo = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(h, sel_lo), bit), bit), sixteen);
    *hi = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(h, sel_hi), bit), bit), sixteen);
}

/* acc (acc_hi: lanes 4..7, with a minimum) plus the pair at blk (and blk + bb unless one; bb
   a block's bytes, or when apart, any distance). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void pair_step_avx2(int t, const uint8_t *blk, size_t bb,
                                                                                    bool one, bool apart,
                                                                                    const x_pair *x,
                                                                                    const x_pair_min *xm, __m256 *acc,
                                                                                    __m256 *acc_hi)
{
    const __m256i low4 = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    __m128i q0 = _mm_loadu_si128((const __m128i *)(blk + qs_at(t)));
    __m256i q = one ? _mm256_zextsi128_si256(q0)
                    : _mm256_inserti128_si256(_mm256_castsi128_si256(q0),
                                              _mm_loadu_si128((const __m128i *)(blk + bb + qs_at(t))), 1);
    __m256i ulo = _mm256_and_si256(q, low4), uhi = _mm256_and_si256(_mm256_srli_epi16(q, 4), low4);
    __m256i b32 = apart ? pair_bytes32_apart(t, blk, blk + bb) : pair_bytes32(blk, one);
    if (has_qh(t)) {
        __m256i flo, fhi;
        fifth_bits_pair(t, b32, &flo, &fhi);
        ulo = _mm256_or_si256(ulo, flo), uhi = _mm256_or_si256(uhi, fhi);
    }
    __m256i plo = _mm256_maddubs_epi16(ulo, x->lo), phi = _mm256_maddubs_epi16(uhi, x->hi);
    if (!has_min(t)) {
        /* d0 four times, d1 four times: a shuffle in each lane, then the lanes' first eight
           bytes side by side. (The heads loaded as two eight-byte halves, the fifth bits' from
           them broadcast, the scales converted and the floats permuted: Q4_0 and Q5_0 took
           1.0-1.27x this way's time, one thread, 128 x 4096 and 2048 x 288 in the cache, four
           alternating runs.) */
        __m256i dd = _mm256_shuffle_epi8(b32, _mm256_setr_epi8(D_SEL16(t, 0), D_SEL16(t, 1)));
        __m256 sc = _mm256_mul_ps(_mm256_cvtph_ps(_mm256_castsi256_si128(_mm256_permute4x64_epi64(dd, 0x08))), x->dx);
        __m256i s = _mm256_add_epi32(_mm256_madd_epi16(_mm256_add_epi16(plo, phi), ones), x->bias);
        *acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), sc, *acc);
        return;
    }
    __m128i heads = pair_heads(blk, blk + bb, one);
    __m256 halves = _mm256_cvtph_ps(heads);   /* words 0 and 4: d0, d1; 1 and 5: m0, m1 */
    __m256 sc = _mm256_mul_ps(_mm256_permutevar8x32_ps(halves, _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4)), x->dx);
    __m256 m = _mm256_permutevar8x32_ps(halves, _mm256_setr_epi32(1, 1, 1, 1, 5, 5, 5, 5));
    *acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_madd_epi16(plo, ones)), sc, *acc);
    *acc_hi = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_madd_epi16(phi, ones)), sc, *acc_hi);
    *acc = _mm256_fmadd_ps(xm->slo, m, *acc);
    *acc_hi = _mm256_fmadd_ps(xm->shi, m, *acc_hi);
}

/* R (1 or 2) rows' last blocks at blk (and blk + rb) into the low halves of their accumulators
   a0, a1 (h0, h1: lanes 4..7), x's last block being x1 (xm1) alone, x2 (xm2) twice. Two rows'
   go as one pair: their low halves side by side in c (and ch), one step, then each half back
   in its row's (the same sums in the same order as a step per row, one step fewer:
   stories15M's 288 columns are nine blocks). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void last_block_avx2(int t, int R, const uint8_t *blk,
                                                                                     size_t rb, const x_pair *x1,
                                                                                     const x_pair_min *xm1,
                                                                                     const x_pair *x2,
                                                                                     const x_pair_min *xm2, __m256 *a0,
                                                                                     __m256 *a1, __m256 *h0, __m256 *h1)
{
    if (R == 1) {
        pair_step_avx2(t, blk, (size_t)blk_bytes(t), true, false, x1, xm1, a0, h0);
        return;
    }
    __m256 c = _mm256_permute2f128_ps(*a0, *a1, 0x20), ch = _mm256_permute2f128_ps(*h0, *h1, 0x20);
    pair_step_avx2(t, blk, rb, false, true, x2, xm2, &c, &ch);
    *a0 = _mm256_blend_ps(*a0, c, 0x0F), *a1 = _mm256_permute2f128_ps(c, *a1, 0x31);
    *h0 = _mm256_blend_ps(*h0, ch, 0x0F), *h1 = _mm256_permute2f128_ps(ch, *h1, 0x31);
}

/* R (1 or 2) rows from w, rb bytes apart, against x's pairs xs (np of them, the last one
   block when odd; when odd, xs[np] is the last block twice) into o[r * os], summed as the
   rule sums. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void rows_pairs_avx2(int t, int R, const uint8_t *w,
                                                                                     size_t rb, const x_pair *xs,
                                                                                     const x_pair_min *xm, int64_t np,
                                                                                     bool odd, float *o, int64_t os)
{
    size_t bb = (size_t)blk_bytes(t);
    __m256 acc[2][2], hi[2][2];   /* [row][pair parity] */
    for (int r = 0; r < R; r++)
        for (int a = 0; a < 2; a++) acc[r][a] = hi[r][a] = _mm256_setzero_ps();
    int64_t whole = np - odd;
    bool ahead = prefetch_ahead_for(R, rb);
    for (int64_t p0 = 0; p0 < whole; p0 += 2)   /* unrolled, so that the parity is a constant */
        _Pragma("GCC unroll 2") for (int a = 0; a < 2; a++) {
            int64_t p = p0 + a;
            if (p >= whole) break;
            if (ahead) prefetch_ahead(w + 2 * p * bb, 2 * bb, PREFETCH_AHEAD_AVX2);
            for (int r = 0; r < R; r++)
                pair_step_avx2(t, w + r * rb + 2 * p * bb, bb, false, false, &xs[p], &xm[p], &acc[r][a], &hi[r][a]);
        }
    /* the last block's accumulators by a constant index (by whole & 1, GCC kept them all in memory) */
    if (odd && whole % 2)
        last_block_avx2(t, R, w + 2 * whole * bb, rb, &xs[whole], &xm[whole], &xs[np], &xm[np], acc[0] + 1,
                        acc[1] + 1, hi[0] + 1, hi[1] + 1);
    else if (odd)
        last_block_avx2(t, R, w + 2 * whole * bb, rb, &xs[whole], &xm[whole], &xs[np], &xm[np], acc[0], acc[1],
                        hi[0], hi[1]);
    for (int r = 0; r < R; r++) {
        /* v[l] = (acc0 + acc1) + (acc2 + acc3): each accumulator's halves, then the two */
        __m256 v;
        __m128 a0 = _mm_add_ps(_mm256_castps256_ps128(acc[r][0]), _mm256_extractf128_ps(acc[r][0], 1));
        __m128 a1 = _mm_add_ps(_mm256_castps256_ps128(acc[r][1]), _mm256_extractf128_ps(acc[r][1], 1));
        if (has_min(t)) {
            __m128 h0 = _mm_add_ps(_mm256_castps256_ps128(hi[r][0]), _mm256_extractf128_ps(hi[r][0], 1));
            __m128 h1 = _mm_add_ps(_mm256_castps256_ps128(hi[r][1]), _mm256_extractf128_ps(hi[r][1], 1));
            v = _mm256_set_m128(_mm_add_ps(h0, h1), _mm_add_ps(a0, a1));
        } else
            v = _mm256_set_m128(_mm_setzero_ps(), _mm_add_ps(a0, a1));
        o[r * os] = hsum256(v);
    }
}

/* x's pairs kept on the stack up to this many (rows of up to 128 blocks, 4096 columns). */
enum { X_PAIRS_ON_STACK = 64 };

/* Rows of w, rb bytes apart, against row i of x into o[r * os], x's pairs made once for all
   of them: long rows one at a time, short ones two at a time with the rows PREFETCH_ROWS
   ahead asked into the cache (4096 x 4096 Q4_0 from memory, one thread, Zen 3: 1.39 ms in
   pairs of rows, 0.90-1.00 a row at a time; 32000 x 288 in cache 520 us in pairs, 560-840 a
   row at a time). The same bits as the portable path. Returns false, having done nothing,
   when there is no memory for the pairs. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline bool rows_shared_avx2(int t, const uint8_t *w, size_t rb,
                                                                                     int64_t rows, const tl_qact *x,
                                                                                     int64_t i, float *o, int64_t os)
{
    int64_t nb = x->nb, np = (nb + 1) / 2;
    bool odd = nb % 2;
    x_pair on_stack[X_PAIRS_ON_STACK + 1], *xs = on_stack;
    x_pair_min min_on_stack[X_PAIRS_ON_STACK + 1], *xm = min_on_stack;
    if (np > X_PAIRS_ON_STACK) {
        xs = aligned_alloc(32, (size_t)(np + 1) * (sizeof *xs + sizeof *xm));
        if (!xs) return false;
        xm = (x_pair_min *)(xs + np + 1);
    }
    for (int64_t p = 0; p < np; p++) x_pair_of(t, x, i, 2 * p, odd && p == np - 1 ? -1 : 2 * p + 1, &xs[p], &xm[p]);
    if (odd) x_pair_of(t, x, i, nb - 1, nb - 1, &xs[np], &xm[np]);
    int64_t j = 0;
    if (rb >= TL_QDOT_LONG_ROW_BYTES)
        for (; j < rows; j++) rows_pairs_avx2(t, 1, w + j * rb, rb, xs, xm, np, odd, o + j * os, os);
    for (; j + 2 <= rows; j += 2) {
        if (j + PREFETCH_ROWS + 2 <= rows) prefetch_bytes(w + (j + PREFETCH_ROWS) * rb, 2 * rb);
        rows_pairs_avx2(t, 2, w + j * rb, rb, xs, xm, np, odd, o + j * os, os);
    }
    if (j < rows) rows_pairs_avx2(t, 1, w + j * rb, rb, xs, xm, np, odd, o + j * os, os);
    if (xs != on_stack) free(xs);
    return true;
}

/* ---- AVX-512: four blocks at a time --------------------------------------------------- */

/* A group of four blocks (72-96 bytes) is read as its first 64 bytes and its last 32, and
   one byte permute gathers their 4 x 16 nibble bytes: the low nibbles are weights 0..15 of
   each block, the high ones 16..31, so two vpdpbusd (against x's bytes permuted alike) give
   lanes 0..3 and 4..7 of the four blocks, each block's four lanes side by side. The rule's
   accumulator acc[b % 4][l] is lane 4 (b % 4) + l % 4 of acc_lo (l < 4) or acc_hi (l >= 4). */

/* Index, in the concatenation of the group's first 64 bytes and last 32, of its byte g. */
#define GROUP_BYTE(t, g) ((g) < 64 ? (g) : 64 + (g) - (4 * BLK_BYTES(t) - 32))
/* The permutes' sources: byte n of the nibbles (block n / 16's byte n % 16); dword k of the
   heads (64-bit lane k / 2: block k / 4's window, the eight bytes from its start rounded down
   to a dword, which hold its d (and m) and, Q5_0 and Q5_1, its fifth bits: each block's window
   twice, for the bit shuffle); word n of the scales (n < 16: block n / 4's d; then its m),
   from the heads' lane 2b of block b (Q5_0, Q5_1) or from the group's first 64 bytes (Q4_0,
   Q4_1: all four blocks' d and m lie there). One-source word and dword permutes take one
   cycle of the shuffle port, where two-source byte and word ones take two (a Sapphire
   Rapids-class Xeon), and Q5_0 was bound by that port: with a byte permute for the fifth
   bits and a two-source word permute for the scales, in cache, one thread, Q5_0 took
   1.13-1.16x and Q5_1 1.10-1.11x this way's time (32000 x 288, 768 x 288, 288 x 768). */
#define NIB_SRC(t, n) GROUP_BYTE(t, (n) / 16 * BLK_BYTES(t) + QS_AT(t) + (n) % 16)
#define WIN_AT(t, b) ((b) * BLK_BYTES(t) / 4 * 4)
#define HEAD_SRC(t, k) (GROUP_BYTE(t, WIN_AT(t, (k) / 4)) / 4 + (k) % 2)
#define SCALE_BYTE(t, n) ((n) % 16 / 4 * BLK_BYTES(t) + ((n) >= 16 ? 2 : 0))   /* in the group */
#define SCALE_SRC(t, n)                                                                                       \
    (HAS_QH(t) ? 8 * ((n) % 16 / 4) + (SCALE_BYTE(t, n) - WIN_AT(t, (n) % 16 / 4)) / 2 : SCALE_BYTE(t, n) / 2)
/* The bit shuffle's selectors: nibble byte n (weight n % 16 of its block, or 16 + n % 16) takes
   bit n % 16 (or 16 + n % 16) of its block's fifth bits, which start QH_BIT bits into its
   64-bit lane. */
#define QH_BIT(t, b) (8 * ((b) * BLK_BYTES(t) + QH_AT(t) - WIN_AT(t, b)))
#define BIT_LO(t, n) (QH_BIT(t, (n) / 16) + (n) % 16)
#define BIT_HI(t, n) (QH_BIT(t, (n) / 16) + 16 + (n) % 16)
#define E4(F, t, n) F(t, (n) + 3), F(t, (n) + 2), F(t, (n) + 1), F(t, n)
#define E16(F, t, n) E4(F, t, (n) + 12), E4(F, t, (n) + 8), E4(F, t, (n) + 4), E4(F, t, n)
/* The 64 bytes F(t, 0..63), the 32 words F(t, 0..31) or the 16 dwords F(t, 0..15) as a vector
   (constants folded). */
#define BYTES64(F, t) _mm512_set_epi8(E16(F, t, 48), E16(F, t, 32), E16(F, t, 16), E16(F, t, 0))
#define WORDS32(F, t) _mm512_set_epi16(E16(F, t, 16), E16(F, t, 0))
#define DWORDS16(F, t) _mm512_set_epi32(E16(F, t, 0))
/* Every window holds its block's d, m and fifth bits, and Q4_0's and Q4_1's scales lie in the
   group's first 64 bytes. */
_Static_assert(QH_BIT(Q50, 1) + 32 <= 64 && QH_BIT(Q51, 3) + 32 <= 64 && 3 * BLK_BYTES(Q41) + 4 <= 64,
               "a block's head outside its window");

/* The permute constants of type t: nibble bytes, d (and m) words, head dwords, and the bit
   shuffle's selectors for the low and high nibbles' fifth bits. */
typedef struct group_index { __m512i q, d, h, hlo, hhi; } group_index;

/* Type t's permute constants (folded at compile time: t is a constant where it is inlined). */
__attribute__((target(QDOT_512), always_inline)) static inline group_index group_indices(int t)
{
    return (group_index){ BYTES64(NIB_SRC, t), WORDS32(SCALE_SRC, t), DWORDS16(HEAD_SRC, t), BYTES64(BIT_LO, t),
                          BYTES64(BIT_HI, t) };
}

/* What the rows share for a group: x's bytes permuted as the nibbles are (lo: weights 0..15
   of each block, hi: 16..31), the lane biases (or d times x's sums) likewise (Q4_0 and
   Q5_0: both halves' biases in blo, whose lanes take both halves' sums), and each block's
   dx over its four lanes. */
typedef struct x_group { __m512i xlo, xhi, blo, bhi; __m512 slo, shi, dx; } x_group;

/* The group made from x's bytes x0 and x1 (64 each), bias sums n0 and n1 (16 each), scales dx
   and (types with a minimum) d times the sums s0 and s1, as x_group_512 loads them. */
__attribute__((target(QDOT_512), always_inline)) static inline x_group x_group_of(int t, __m512i x0, __m512i x1,
                                                                                  __m512i n0, __m512i n1, __m128 dx,
                                                                                  __m512 s0, __m512 s1)
{
    const __m512i xl = _mm512_set_epi32(0x6f6e6d6c, 0x6b6a6968, 0x67666564, 0x63626160, 0x4f4e4d4c, 0x4b4a4948,
                                        0x47464544, 0x43424140, 0x2f2e2d2c, 0x2b2a2928, 0x27262524, 0x23222120,
                                        0x0f0e0d0c, 0x0b0a0908, 0x07060504, 0x03020100);
    const __m512i xh = _mm512_add_epi8(xl, _mm512_set1_epi8(16));
    const __m512i ql = _mm512_setr_epi32(0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
    const __m512i qh = _mm512_add_epi32(ql, _mm512_set1_epi32(4));
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    x_group g;
    g.xlo = _mm512_permutex2var_epi8(x0, xl, x1), g.xhi = _mm512_permutex2var_epi8(x0, xh, x1);
    g.dx = _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(dx));
    if (has_min(t)) {
        g.slo = _mm512_permutex2var_ps(s0, ql, s1), g.shi = _mm512_permutex2var_ps(s0, qh, s1);
        g.blo = g.bhi = _mm512_setzero_si512();
    } else {
        /* the two halves' biases in one: step_512 adds the halves' sums in one lane */
        g.blo = _mm512_add_epi32(_mm512_slli_epi32(_mm512_permutex2var_epi32(n0, ql, n1), offset_shift(t)),
                                 _mm512_slli_epi32(_mm512_permutex2var_epi32(n0, qh, n1), offset_shift(t)));
        g.bhi = _mm512_setzero_si512();
        g.slo = g.shi = _mm512_setzero_ps();
    }
    return g;
}

/* x's blocks 4g .. 4g + n - 1 (n < 4: the row's last, partial group). */
__attribute__((target(QDOT_512), always_inline)) static inline x_group x_group_512(int t, const tl_qact *x, int64_t i,
                                                                                   int64_t g, int n)
{
    int64_t b = i * x->nb + 4 * g;
    const int8_t *q = x->q + 32 * b;
    const float *ds = x->dsum4 + 8 * b;
    __m512 s0 = _mm512_setzero_ps(), s1 = s0;
    if (n == 4) {
        if (has_min(t)) s0 = _mm512_loadu_ps(ds), s1 = _mm512_loadu_ps(ds + 16);
        return x_group_of(t, _mm512_loadu_si512(q), _mm512_loadu_si512(q + 64), _mm512_loadu_si512(x->nsum4 + 8 * b),
                          _mm512_loadu_si512(x->nsum4 + 8 * b + 16), _mm_loadu_ps(x->d + b), s0, s1);
    }
    __mmask16 h0 = n >= 2 ? 0xFFFF : 0xFF, h1 = n == 3 ? 0xFF : 0;
    if (has_min(t)) s0 = _mm512_maskz_loadu_ps(h0, ds), s1 = _mm512_maskz_loadu_ps(h1, ds + 16);
    return x_group_of(t, _mm512_maskz_loadu_epi8(n >= 2 ? ~0ull : 0xFFFFFFFFull, q),
                      _mm512_maskz_loadu_epi8(n == 3 ? 0xFFFFFFFFull : 0, q + 64),
                      _mm512_maskz_loadu_epi32(h0, x->nsum4 + 8 * b), _mm512_maskz_loadu_epi32(h1, x->nsum4 + 8 * b + 16),
                      _mm_maskz_loadu_ps((__mmask8)((1 << n) - 1), x->d + b), s0, s1);
}

/* x's block b of row i four times over: the group that four rows' block b, side by side, meet. */
__attribute__((target(QDOT_512), always_inline)) static inline x_group x_group_repeat_512(int t, const tl_qact *x,
                                                                                          int64_t i, int64_t b)
{
    b += i * x->nb;
    __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(x->q + 32 * b)));
    __m512i ns = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(x->nsum4 + 8 * b)));
    __m512 s = has_min(t) ? _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_loadu_pd((const double *)(x->dsum4 + 8 * b)))) : _mm512_setzero_ps();
    return x_group_of(t, q, q, ns, ns, _mm_set1_ps(x->d[b]), s, s);
}

/* A group of four blocks, its first 64 bytes w0 and its last 32 w1, into the accumulators'
   lanes (a mask: absent blocks' lanes untouched). */
__attribute__((target(QDOT_512), always_inline)) static inline void step_bytes_512(int t, __m512i w0, __m512i w1,
                                                                                  const x_group *x, const group_index *ix,
                                                                                  __mmask16 lanes, __m512 *lo, __m512 *hi)
{
    __m512i q = _mm512_permutex2var_epi8(w0, ix->q, w1);
    /* the high nibbles by one affine map over GF(2) (bit i of a byte from bit i + 4): a shift
       and a mask in one instruction */
    __m512i ulo = _mm512_and_si512(q, _mm512_set1_epi8(0x0F)),
            uhi = _mm512_gf2p8affine_epi64_epi8(q, _mm512_set1_epi64(0x1020408000000000ll), 0), h = w0;
    if (has_qh(t)) {
        /* the bit shuffle makes the masks in the vector unit: through general registers (two
           moves out, two into mask registers) Q5_0 took 1.33x Q4_0's time, in cache, and
           with each block's 32 bits loaded from memory into a general register instead, 1.3-2x
           this way's (768 x 288, 32000 x 288 and 4096 x 4096, one thread, three runs) */
        h = _mm512_permutex2var_epi32(w0, ix->h, w1);
        const __m512i sixteen = _mm512_set1_epi8(16);
        ulo = _mm512_mask_add_epi8(ulo, _mm512_bitshuffle_epi64_mask(h, ix->hlo), ulo, sixteen);
        uhi = _mm512_mask_add_epi8(uhi, _mm512_bitshuffle_epi64_mask(h, ix->hhi), uhi, sixteen);
    }
    __m512i dm = _mm512_permutexvar_epi16(ix->d, h);   /* d d d d ... (m m m m ...) */
    __m512 sc = _mm512_mul_ps(_mm512_cvtph_ps(_mm512_castsi512_si256(dm)), x->dx);
    if (!has_min(t)) {   /* lane l's sum and lane l + 4's in one (*hi stays zero) */
        __m512i s = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(x->blo, ulo, x->xlo), uhi, x->xhi);
        *lo = _mm512_mask3_fmadd_ps(_mm512_cvtepi32_ps(s), sc, *lo, lanes);
        return;
    }
    *lo = _mm512_mask3_fmadd_ps(_mm512_cvtepi32_ps(_mm512_dpbusd_epi32(x->blo, ulo, x->xlo)), sc, *lo, lanes);
    *hi = _mm512_mask3_fmadd_ps(_mm512_cvtepi32_ps(_mm512_dpbusd_epi32(x->bhi, uhi, x->xhi)), sc, *hi, lanes);
    __m512 m = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(dm, 1));
    *lo = _mm512_mask3_fmadd_ps(x->slo, m, *lo, lanes);
    *hi = _mm512_mask3_fmadd_ps(x->shi, m, *hi, lanes);
}

/* One row's group at gw (n blocks; n < 4: its bytes are read under a mask) into its two
   accumulators, the lanes of absent blocks untouched. */
__attribute__((target(QDOT_512), always_inline)) static inline void step_512(int t, const uint8_t *gw, const x_group *x,
                                                                            const group_index *ix, int n, __m512 *lo,
                                                                            __m512 *hi)
{
    int gb = 4 * blk_bytes(t), have = n * blk_bytes(t);
    __m512i w0, w1;
    if (n == 4) w0 = _mm512_loadu_si512(gw), w1 = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(gw + gb - 32)));
    else {
        w0 = _mm512_maskz_loadu_epi8(have >= 64 ? ~0ull : ((__mmask64)1 << have) - 1, gw);
        __mmask32 m1 = have <= gb - 32 ? 0 : (__mmask32)(((uint64_t)1 << (have - (gb - 32))) - 1);
        w1 = _mm512_castsi256_si512(_mm256_maskz_loadu_epi8(m1, gw + gb - 32));
    }
    step_bytes_512(t, w0, w1, x, ix, (__mmask16)((1u << (4 * n)) - 1), lo, hi);
}

/* The bytes [from, from + n) of a group (w0: its first 64, w1: its last 32), where byte
   from + j is bw[j], merged in (a masked load reads no byte outside its mask). */
__attribute__((target(QDOT_512), always_inline)) static inline void group_bytes_from(int t, __m512i *w0, __m512i *w1,
                                                                                    int from, int n, const uint8_t *bw)
{
    int gb = 4 * blk_bytes(t), end = from + n;
    if (from < 64) {
        int e = end < 64 ? end : 64;
        __mmask64 m = (((__mmask64)1 << (e - from)) - 1) << from;
        *w0 = _mm512_mask_loadu_epi8(*w0, m, (const void *)((uintptr_t)bw - (uintptr_t)from));
    }
    if (end > gb - 32) {
        int f = from > gb - 32 ? from : gb - 32;
        __mmask32 m = (__mmask32)((((uint64_t)1 << (end - f)) - 1) << (f - (gb - 32)));
        *w1 = _mm512_castsi256_si512(_mm256_mask_loadu_epi8(_mm512_castsi512_si256(*w1), m,
                                                            (const void *)((uintptr_t)bw - (uintptr_t)(from - (gb - 32)))));
    }
}

/* The 128-bit lane k (0..2) of each of a[0..3], side by side. */
__attribute__((target(QDOT_512), always_inline)) static inline __m512 lanes_gather(const __m512 a[4], int k)
{
    __m512 a01, a23;
    switch (k) {
    case 0: a01 = _mm512_shuffle_f32x4(a[0], a[1], 0x00), a23 = _mm512_shuffle_f32x4(a[2], a[3], 0x00); break;
    case 1: a01 = _mm512_shuffle_f32x4(a[0], a[1], 0x55), a23 = _mm512_shuffle_f32x4(a[2], a[3], 0x55); break;
    default: a01 = _mm512_shuffle_f32x4(a[0], a[1], 0xAA), a23 = _mm512_shuffle_f32x4(a[2], a[3], 0xAA); break;
    }
    return _mm512_shuffle_f32x4(a01, a23, 0x88);
}

/* lanes_gather undone: v's 128-bit lane r back into lane k of a[r]. */
__attribute__((target(QDOT_512), always_inline)) static inline void lanes_scatter(__m512 a[4], int k, __m512 v)
{
    __mmask16 m = (__mmask16)(0xF << (4 * k));
    a[0] = _mm512_mask_shuffle_f32x4(a[0], m, v, v, 0x00);
    a[1] = _mm512_mask_shuffle_f32x4(a[1], m, v, v, 0x55);
    a[2] = _mm512_mask_shuffle_f32x4(a[2], m, v, v, 0xAA);
    a[3] = _mm512_mask_shuffle_f32x4(a[3], m, v, v, 0xFF);
}

/* Four rows' partial last groups (n blocks from wt, rb bytes apart) as n whole groups: group
   k holds the four rows' block k side by side against x's block 4 ng + k four times (xt[k]).
   Each lane meets the same multiply-adds, with the same accumulator lanes gathered in and
   scattered back, as in four masked steps: the same bits, for one whole step's work instead
   of four masked ones (9-block rows, 288 columns, spend a third of their steps there). */
__attribute__((target(QDOT_512), always_inline)) static inline void tails_512(int t, const uint8_t *wt, size_t rb, int n,
                                                                             const x_group *xt, const group_index *ix,
                                                                             __m512 lo[4], __m512 hi[4])
{
    int bb = blk_bytes(t);
    for (int k = 0; k < n; k++) {
        __m512i w0 = _mm512_setzero_si512(), w1 = w0;
        _Pragma("GCC unroll 4") for (int r = 0; r < 4; r++) group_bytes_from(t, &w0, &w1, r * bb, bb, wt + r * rb + k * bb);
        __m512 vlo = lanes_gather(lo, k), vhi = has_min(t) ? lanes_gather(hi, k) : _mm512_setzero_ps();
        step_bytes_512(t, w0, w1, &xt[k], ix, 0xFFFF, &vlo, &vhi);
        lanes_scatter(lo, k, vlo);
        if (has_min(t)) lanes_scatter(hi, k, vhi);
    }
}

/* The rule's sum of a row's accumulators: v[l] = (acc0 + acc1) + (acc2 + acc3) lane by lane,
   then hsum256(v). */
__attribute__((target(QDOT_512), always_inline)) static inline float group_sum(__m512 lo, __m512 hi)
{
    /* within each 256-bit half, lanes 4..7 beside 0..3: acc0 + acc1 and acc2 + acc3 */
    __m512 a = _mm512_add_ps(lo, _mm512_shuffle_f32x4(lo, lo, 0xB1));
    __m512 b = _mm512_add_ps(hi, _mm512_shuffle_f32x4(hi, hi, 0xB1));
    __m128 vlo = _mm_add_ps(_mm512_castps512_ps128(a), _mm512_extractf32x4_ps(a, 2));
    __m128 vhi = _mm_add_ps(_mm512_castps512_ps128(b), _mm512_extractf32x4_ps(b, 2));
    return hsum256(_mm256_set_m128(vhi, vlo));
}

/* group_sum of four rows' accumulators at once, each 128-bit lane one row's through every step
   (the same additions in the same order: the same bits), into o[r * os]. */
__attribute__((target(QDOT_512), always_inline)) static inline void group_sum4(const __m512 lo[4], const __m512 hi[4],
                                                                              float *o, int64_t os)
{
    /* lanes (c0 + c1) and (c2 + c3) of rows 0 and 1, and of rows 2 and 3; then each row's sum of the two */
    __m512 l01 = qdot_lane_pairs(lo[0], lo[1]);
    __m512 l23 = qdot_lane_pairs(lo[2], lo[3]);
    __m512 h01 = qdot_lane_pairs(hi[0], hi[1]);
    __m512 h23 = qdot_lane_pairs(hi[2], hi[3]);
    __m512 vlo = qdot_lane_pairs(l01, l23);
    __m512 vhi = qdot_lane_pairs(h01, h23);
    /* hsum256 of (vlo, vhi) in every lane: halves, then movehl, then movehdup */
    __m512 v = _mm512_add_ps(vlo, vhi);
    qdot_lane_sums4(v, o, os);
}

/* R (1..4) rows from w, rb bytes apart, against x's groups xs (ng whole ones, then one of n
   blocks when n > 0) into the accumulators lo[r] and hi[r]; four rows take their partial
   groups through tails_512, against xt. */
__attribute__((target(QDOT_512), always_inline)) static inline void rows_acc_512(int t, int R, const uint8_t *w, size_t rb,
                                                                                  const x_group *xs, const x_group *xt,
                                                                                  int64_t ng, int n, const group_index *ix,
                                                                                  __m512 lo[4], __m512 hi[4])
{
    int64_t gb = 4 * blk_bytes(t);
    _Pragma("GCC unroll 4") for (int r = 0; r < 4; r++) lo[r] = hi[r] = _mm512_setzero_ps();
    bool ahead = rb >= TL_QDOT_LONG_ROW_BYTES;   /* long rows ask ahead, each for itself (qdot.h) */
    for (int64_t g = 0; g < ng; g++) {
        if (ahead) _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) prefetch_ahead(w + r * rb + g * gb, (int)gb, PREFETCH_AHEAD_512);
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) step_512(t, w + r * rb + g * gb, &xs[g], ix, 4, &lo[r], &hi[r]);
    }
    if (n && R == 4) tails_512(t, w + ng * gb, rb, n, xt, ix, lo, hi);
    else if (n) _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) step_512(t, w + r * rb + ng * gb, &xs[ng], ix, n, &lo[r], &hi[r]);
}

/* R (1..3) rows, as rows_acc_512, summed into o[r * os]. */
__attribute__((target(QDOT_512), always_inline)) static inline void rows_512(int t, int R, const uint8_t *w, size_t rb,
                                                                              const x_group *xs, const x_group *xt,
                                                                              int64_t ng, int n, const group_index *ix,
                                                                              float *o, int64_t os)
{
    __m512 lo[4], hi[4];
    rows_acc_512(t, R, w, rb, xs, xt, ng, n, ix, lo, hi);
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) o[r * os] = group_sum(lo[r], hi[r]);
}

/* x's groups kept on the stack up to this many (rows of up to 95 blocks; longer ones allocate). */
enum { X_GROUPS_ON_STACK = 24 };

/* Rows of w, rb bytes apart, against row i of x into o[r * os], x's groups made once for all
   of them: short rows four at a time, with the rows PREFETCH_ROWS ahead asked into the cache
   (made for every four rows, x's groups were an eighth of the work at 288 columns), long ones
   one at a time from each of four runs of the rows, each asking ahead for its own bytes (made
   for each row, x's groups made the product compute-bound on two threads: 11008 x 4096 Q4_0
   took 0.98 ms, 0.71-0.76 in four-row groups, 0.59-0.62 one row at a time; a row from each of
   four runs, against one at a time, best of 15, three alternations, on a Sapphire Rapids-class
   Xeon: one thread Q4_0 2.07 ms against 2.35, Q5_0 2.27-2.47 against 2.21-2.54, Q5_1 2.77-2.88
   against 2.93-3.04; two threads 0.92-0.94 against 1.17-1.20, 1.03-1.06 against 1.22-1.27,
   1.17-1.18 against 1.39-1.52; 4096 x 4096 the same or a little faster). The same bits as the
   portable path. Returns false, having done nothing, when there is no memory
   for the groups. */
__attribute__((target(QDOT_512), always_inline)) static inline bool rows_shared_512(int t, const uint8_t *w, size_t rb,
                                                                                    int64_t rows, const tl_qact *x,
                                                                                    int64_t i, float *o, int64_t os)
{
    int64_t nb = x->nb, ng = nb / 4;
    int n = (int)(nb % 4);
    x_group on_stack[X_GROUPS_ON_STACK], *xs = on_stack, xt[3];
    if (ng + 1 > X_GROUPS_ON_STACK && !(xs = aligned_alloc(64, (size_t)(ng + 1) * sizeof *xs))) return false;
    for (int64_t g = 0; g < ng; g++) xs[g] = x_group_512(t, x, i, g, 4);
    if (n) xs[ng] = x_group_512(t, x, i, ng, n);
    for (int k = 0; k < n; k++) xt[k] = x_group_repeat_512(t, x, i, 4 * ng + k);
    const group_index ix = group_indices(t);
    int64_t j = 0;
    if (rb >= TL_QDOT_LONG_ROW_BYTES) {   /* row j of each of four runs (qdot_row_loop's runs) */
        int64_t run = rows / 4;
        __m512 lo[4], hi[4];
        for (; j < run; j++) {
            rows_acc_512(t, 4, w + j * rb, (size_t)run * rb, xs, xt, ng, n, &ix, lo, hi);
            group_sum4(lo, hi, o + j * os, run * os);
        }
        for (j = 4 * run; j < rows; j++) rows_512(t, 1, w + j * rb, rb, xs, xt, ng, n, &ix, o + j * os, os);
    } else {
        /* each four rows' sums wait until the next four rows' steps are issued: summed at
           once, their chain of dependent shuffles and additions held up the next rows */
        __m512 lo[4], hi[4], plo[4], phi[4];
        for (; j + 4 <= rows; j += 4) {
            if (j + PREFETCH_ROWS + 4 <= rows) prefetch_bytes(w + (j + PREFETCH_ROWS) * rb, 4 * rb);
            rows_acc_512(t, 4, w + j * rb, rb, xs, xt, ng, n, &ix, lo, hi);
            if (j) group_sum4(plo, phi, o + (j - 4) * os, os);
            _Pragma("GCC unroll 4") for (int r = 0; r < 4; r++) plo[r] = lo[r], phi[r] = hi[r];
        }
        if (j) group_sum4(plo, phi, o + (j - 4) * os, os);
        switch (rows - j) {
        case 3: rows_512(t, 3, w + j * rb, rb, xs, xt, ng, n, &ix, o + j * os, os); break;
        case 2: rows_512(t, 2, w + j * rb, rb, xs, xt, ng, n, &ix, o + j * os, os); break;
        case 1: rows_512(t, 1, w + j * rb, rb, xs, xt, ng, n, &ix, o + j * os, os); break;
        }
    }
    if (xs != on_stack) free(xs);
    return true;
}

/* ---- the row groups of each type and path ------------------------------------------------ */

/* NAME_c: one row of type T from w against row i of x; NAME_avx2 and NAME_512: any rows, x's
   pairs or groups shared (when there is no memory for them, the next path down takes the
   rows: the same bits). */
#define Q32_KERNELS(NAME, T)                                                                                  \
    static void NAME##_c(const uint8_t *w, size_t rb, const tl_qact *x, int64_t i, float *o, int64_t os)      \
    {                                                                                                         \
        (void)rb, (void)os;                                                                                   \
        o[0] = dot_c(T, w, x->q + i * x->nb * 32, x->d + i * x->nb, x->dsum4 + i * x->nb * 8, x->nb);          \
    }                                                                                                         \
    static const qdot_group_fn NAME##_groups[5] = { NULL, NAME##_c };                                        \
    __attribute__((target(QDOT_AVX2))) static bool NAME##_avx2(const uint8_t *w, size_t rb, int64_t rows,       \
                                                               const tl_qact *x, int64_t i, float *o, int64_t os) \
    {                                                                                                         \
        return rows_shared_avx2(T, w, rb, rows, x, i, o, os);                                                 \
    }                                                                                                         \
    __attribute__((target(QDOT_512))) static bool NAME##_512(const uint8_t *w, size_t rb, int64_t rows,         \
                                                             const tl_qact *x, int64_t i, float *o, int64_t os) \
    {                                                                                                         \
        return rows_shared_512(T, w, rb, rows, x, i, o, os);                                                  \
    }                                                                                                         \
    QDOT_ROWS_FN(tl_qdot_##NAME)                                                                              \
    {                                                                                                         \
        if (path == TL_QDOT_AVX512 && NAME##_512(w, row_bytes, rows, x, i, out, os)) return;                   \
        if (path != TL_QDOT_PORTABLE && NAME##_avx2(w, row_bytes, rows, x, i, out, os)) return;                \
        qdot_row_loop(NAME##_groups, 0, w, row_bytes, rows, x, i, out, os);                                   \
    }

Q32_KERNELS(q4_0, Q40)
Q32_KERNELS(q4_1, Q41)
Q32_KERNELS(q5_0, Q50)
Q32_KERNELS(q5_1, Q51)
