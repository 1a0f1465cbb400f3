/* kernels/qdotk_x86.c — the K-quant dots on AVX2 and AVX-512, bit for bit the rule of qdotk.c */
#include "qdotk.h"

/* Each superblock's integer lanes come from maddubs (u times x's bytes, in i16 pairs: u at
   most 63 and |x| at most 127, so no saturation) and madd or vpdpwssd with each group's
   scale (a pair of pairs, four weights of one group, per i32 lane); the lanes hold the
   rule's I[l] once the two halves of a 512-bit vector are added. x's bytes are read in
   weight order, so lane l of every 32 weights is lane l of the rule. */

/* Q4_K/Q5_K's 8 scales and 8 minimums (6 bits each) from the 12 bytes at s, as 16 bytes
   (qk_scales_k4 in vector registers; s is followed by at least 4 more bytes of the block). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m128i scales_k4(const uint8_t *s)
{
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    __m128i a = _mm_shuffle_epi8(v, _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11));
    __m128i b = _mm_shuffle_epi8(v, _mm_setr_epi8(-1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7));
    __m128i lo = _mm_and_si128(_mm_srlv_epi32(a, _mm_setr_epi32(0, 0, 0, 4)),
                               _mm_setr_epi32(0x3f3f3f3f, 0x0f0f0f0f, 0x3f3f3f3f, 0x0f0f0f0f));
    return _mm_or_si128(lo, _mm_and_si128(_mm_srli_epi32(b, 2), _mm_set1_epi8(0x30)));
}

/* Q3_K's 16 signed scales from the 12 bytes at s + 2 (qk_scales_q3 in vector registers;
   s + 2 ends its block, so the load starts at s). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m128i scales_q3(const uint8_t *s)
{
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    __m128i a = _mm_shuffle_epi8(v, _mm_setr_epi8(2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9));
    __m128i h = _mm_shuffle_epi8(v, _mm_setr_epi8(10, 11, 12, 13, 10, 11, 12, 13, 10, 11, 12, 13, 10, 11, 12, 13));
    __m128i lo = _mm_and_si128(_mm_srlv_epi32(a, _mm_setr_epi32(0, 0, 4, 4)), _mm_set1_epi8(0x0F));
    h = _mm_srlv_epi32(_mm_sllv_epi32(h, _mm_setr_epi32(4, 2, 0, 0)), _mm_setr_epi32(0, 0, 0, 2));
    return _mm_sub_epi8(_mm_or_si128(lo, _mm_and_si128(h, _mm_set1_epi8(0x30))), _mm_set1_epi8(32));
}

/* ---- AVX-512 ----------------------------------------------------------------------------- */

/* x's superblock: its 256 bytes as four vectors, its sums of 16 and 32, its d. */
typedef struct kx512 { __m512i x[4]; __m256i s16; __m128i s32; float dx; } kx512;

/* A row's superblock in integers: the lanes (before the halves are added), the group scales
   as words (with an offset), the minimums' lanes, d and dmin. */
typedef struct kint512 { __m512i i; __m256i sc16; __m128i m; float d, dmin; } kint512;

/* The scale words of two groups of 32 from s, the 16 scale bytes in each 128-bit lane:
   words 0..15 s[a], 16..31 s[b], zero-extended (vpshufb: a byte 0x80 gives 0). */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i pick2(__m512i s, int a, int b)
{
    return _mm512_shuffle_epi8(s, _mm512_mask_blend_epi16(0xFFFF0000, _mm512_set1_epi16((short)(0x8000 | a)),
                                                          _mm512_set1_epi16((short)(0x8000 | b))));
}

/* The scale words of four groups of 16 from g: word j s[g + j / 8], sign-extended (the
   byte twice, then an arithmetic shift). */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i pick4(__m512i s, int g)
{
    __m512i idx = _mm512_add_epi16(_mm512_set1_epi16((short)(g * 0x0101)),
                                   _mm512_set_epi64(0x0303030303030303, 0x0303030303030303, 0x0202020202020202,
                                                    0x0202020202020202, 0x0101010101010101, 0x0101010101010101, 0, 0));
    return _mm512_srai_epi16(_mm512_shuffle_epi8(s, idx), 8);
}

/* Bytes 0..31 with bit a, 32..63 with bit b: tests of the fifth (or third) bits. */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i bits2(int a, int b)
{
    return _mm512_mask_blend_epi8(0xFFFFFFFF00000000ull, _mm512_set1_epi8((char)(1 << a)), _mm512_set1_epi8((char)(1 << b)));
}

/* i plus u's products with x, times the word scales sc. */
__attribute__((target(QDOT_512), always_inline)) static inline __m512i dot_512(__m512i i, __m512i u, __m512i x,
                                                                              __m512i sc)
{
    return _mm512_dpwssd_epi32(i, _mm512_maddubs_epi16(u, x), sc);
}

/* Q4_K (five: Q5_K): sub-blocks 2c and 2c + 1 are the low and high nibbles of bytes 32c..,
   so a vector of 64 nibble bytes holds sub-blocks (0, 2) or (1, 3) (4..7 likewise); x is
   read so too. The fifth bit of weight e is bit e / 32 of qh[e % 32]. */
__attribute__((target(QDOT_512), always_inline)) static inline kint512 sb_q45_512(const uint8_t *b, const kx512 *x,
                                                                                  bool five)
{
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    __m128i s8 = scales_k4(b + 4);
    __m512i sc = _mm512_broadcast_i32x4(s8);
    const uint8_t *qs = b + (five ? 48 : 16);
    __m512i z0 = _mm512_loadu_si512(qs), z1 = _mm512_loadu_si512(qs + 64);
    __m512i u[4] = { _mm512_and_si512(z0, m4), _mm512_and_si512(_mm512_srli_epi16(z0, 4), m4), _mm512_and_si512(z1, m4),
                     _mm512_and_si512(_mm512_srli_epi16(z1, 4), m4) };
    if (five) {
        __m512i h = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(b + 16)));
        const __m512i sixteen = _mm512_set1_epi8(16);
        u[0] = _mm512_mask_add_epi8(u[0], _mm512_test_epi8_mask(h, bits2(0, 2)), u[0], sixteen);
        u[1] = _mm512_mask_add_epi8(u[1], _mm512_test_epi8_mask(h, bits2(1, 3)), u[1], sixteen);
        u[2] = _mm512_mask_add_epi8(u[2], _mm512_test_epi8_mask(h, bits2(4, 6)), u[2], sixteen);
        u[3] = _mm512_mask_add_epi8(u[3], _mm512_test_epi8_mask(h, bits2(5, 7)), u[3], sixteen);
    }
    kint512 r;
    __m512i i0 = dot_512(_mm512_setzero_si512(), u[0], _mm512_shuffle_i64x2(x->x[0], x->x[1], 0x44), pick2(sc, 0, 2));
    __m512i i1 = dot_512(_mm512_setzero_si512(), u[1], _mm512_shuffle_i64x2(x->x[0], x->x[1], 0xEE), pick2(sc, 1, 3));
    i0 = dot_512(i0, u[2], _mm512_shuffle_i64x2(x->x[2], x->x[3], 0x44), pick2(sc, 4, 6));
    i1 = dot_512(i1, u[3], _mm512_shuffle_i64x2(x->x[2], x->x[3], 0xEE), pick2(sc, 5, 7));
    r.i = _mm512_add_epi32(i0, i1);
    r.m = _mm_madd_epi16(_mm_cvtepu8_epi16(_mm_srli_si128(s8, 8)), x->s32);
    r.d = _cvtsh_ss(qdot_f16_bits(b)), r.dmin = _cvtsh_ss(qdot_f16_bits(b + 2));
    return r;
}

/* Q6_K: per half h, bytes ql[64h..] hold weights 128h + 0..63 in their low nibbles and
   128h + 64..127 in their high ones; their top two bits are bits 2q, 2q + 1 of qh[32h + e % 32]
   for the quarter q = e % 128 / 32. */
__attribute__((target(QDOT_512), always_inline)) static inline kint512 sb_q6_512(const uint8_t *b, const kx512 *x)
{
    const __m512i m4 = _mm512_set1_epi8(0x0F), m30 = _mm512_set1_epi8(0x30);
    const __m512i lo_shift = _mm512_mask_blend_epi16(0xFFFF0000, _mm512_set1_epi16(4), _mm512_set1_epi16(2));
    const __m512i hi_shift = _mm512_maskz_mov_epi16(0xFFFF0000, _mm512_set1_epi16(2));
    kint512 r;
    __m128i s8 = _mm_loadu_si128((const __m128i *)(b + 192));
    r.sc16 = _mm256_cvtepi8_epi16(s8);
    __m512i sc = _mm512_broadcast_i32x4(s8), i0 = _mm512_setzero_si512(), i1 = i0;
    for (int h = 0; h < 2; h++) {
        __m512i l = _mm512_loadu_si512(b + 64 * h);
        __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(b + 128 + 32 * h)));
        __m512i lo = _mm512_or_si512(_mm512_and_si512(l, m4), _mm512_and_si512(_mm512_sllv_epi16(q, lo_shift), m30));
        __m512i hi = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(l, 4), m4),
                                     _mm512_and_si512(_mm512_srlv_epi16(q, hi_shift), m30));
        i0 = dot_512(i0, lo, x->x[2 * h], pick4(sc, 8 * h));
        i1 = dot_512(i1, hi, x->x[2 * h + 1], pick4(sc, 8 * h + 4));
    }
    r.i = _mm512_add_epi32(i0, i1);
    r.d = _cvtsh_ss(qdot_f16_bits(b + 208));
    return r;
}

/* Q2_K (three: Q3_K): per half h, bits 2j, 2j + 1 of the 32 bytes qs[32h..] are weights
   128h + 32j + 0..31; Q3_K's third bit of weight e is bit e / 32 of hmask[e % 32]. */
__attribute__((target(QDOT_512), always_inline)) static inline kint512 sb_q23_512(const uint8_t *b, const kx512 *x,
                                                                                  bool three)
{
    const __m512i m2 = _mm512_set1_epi8(3), four = _mm512_set1_epi8(4);
    const __m512i sa = _mm512_maskz_mov_epi16(0xFFFF0000, _mm512_set1_epi16(2));
    const __m512i sb = _mm512_mask_blend_epi16(0xFFFF0000, _mm512_set1_epi16(4), _mm512_set1_epi16(6));
    kint512 r;
    __m128i s8;
    if (three)
        s8 = scales_q3(b + 94);
    else {
        __m128i raw = _mm_loadu_si128((const __m128i *)b);
        s8 = _mm_and_si128(raw, _mm_set1_epi8(15));
        __m256i m8 = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), _mm_set1_epi8(15))), x->s16);
        r.m = _mm_add_epi32(_mm256_castsi256_si128(m8), _mm256_extracti128_si256(m8, 1));
    }
    r.sc16 = _mm256_cvtepi8_epi16(s8);
    __m512i sc = _mm512_broadcast_i32x4(s8), i0 = _mm512_setzero_si512(), i1 = i0;
    __m512i hm = three ? _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)b)) : i0;
    const uint8_t *qs = b + (three ? 32 : 16);
    for (int h = 0; h < 2; h++) {
        __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(qs + 32 * h)));
        __m512i ua = _mm512_and_si512(_mm512_srlv_epi16(q, sa), m2), ub = _mm512_and_si512(_mm512_srlv_epi16(q, sb), m2);
        if (three) {
            ua = _mm512_mask_add_epi8(ua, _mm512_test_epi8_mask(hm, bits2(4 * h, 4 * h + 1)), ua, four);
            ub = _mm512_mask_add_epi8(ub, _mm512_test_epi8_mask(hm, bits2(4 * h + 2, 4 * h + 3)), ub, four);
        }
        i0 = dot_512(i0, ua, x->x[2 * h], pick4(sc, 8 * h));
        i1 = dot_512(i1, ub, x->x[2 * h + 1], pick4(sc, 8 * h + 4));
    }
    r.i = _mm512_add_epi32(i0, i1);
    r.d = _cvtsh_ss(qdot_f16_bits(b + (three ? 108 : 80)));
    r.dmin = three ? 0 : _cvtsh_ss(qdot_f16_bits(b + 82));
    return r;
}

/* Q8_K: signed bytes; |w| times x with w's sign (vpabsb, x negated under w's sign mask). */
__attribute__((target(QDOT_512), always_inline)) static inline kint512 sb_q8_512(const uint8_t *b, const kx512 *x)
{
    const __m512i ones = _mm512_set1_epi16(1), zero = _mm512_setzero_si512();
    __m512i i0 = zero, i1 = zero;
    for (int k = 0; k < 4; k += 2) {
        __m512i w0 = _mm512_loadu_si512(b + 4 + 64 * k), w1 = _mm512_loadu_si512(b + 68 + 64 * k);
        __m512i x0 = _mm512_mask_sub_epi8(x->x[k], _mm512_movepi8_mask(w0), zero, x->x[k]);
        __m512i x1 = _mm512_mask_sub_epi8(x->x[k + 1], _mm512_movepi8_mask(w1), zero, x->x[k + 1]);
        i0 = _mm512_dpwssd_epi32(i0, _mm512_maddubs_epi16(_mm512_abs_epi8(w0), x0), ones);
        i1 = _mm512_dpwssd_epi32(i1, _mm512_maddubs_epi16(_mm512_abs_epi8(w1), x1), ones);
    }
    kint512 r;
    r.i = _mm512_add_epi32(i0, i1);
    memcpy(&r.d, b, 4);
    return r;
}

/* Type t's superblock at b in integers. */
__attribute__((target(QDOT_512), always_inline)) static inline kint512 sb_512(int t, const uint8_t *b, const kx512 *x)
{
    switch (t) {
    case QK_Q2: return sb_q23_512(b, x, false);
    case QK_Q3: return sb_q23_512(b, x, true);
    case QK_Q4: return sb_q45_512(b, x, false);
    case QK_Q5: return sb_q45_512(b, x, true);
    case QK_Q6: return sb_q6_512(b, x);
    default: return sb_q8_512(b, x);
    }
}

/* R rows of type t from w, rb bytes apart, against row i of x into o[r * os]. */
__attribute__((target(QDOT_512), always_inline)) static inline void rows_512(int t, int R, const uint8_t *w, size_t rb,
                                                                              const tl_qact *x, int64_t i, float *o,
                                                                              int64_t os)
{
    int64_t nb = x->nb;
    int offset = t == QK_Q3 ? 2 : t == QK_Q6 ? 5 : 0;   /* log2 of the offset */
    __m256 acc[4];
    __m128 accm[4];
    for (int r = 0; r < R; r++) acc[r] = _mm256_setzero_ps(), accm[r] = _mm_setzero_ps();
    /* the types that read long rows with no rows asked ahead ask for each row's bytes ahead,
       into L2 (qdot.h, PREFETCH_AHEAD_512; qdotk.c, qk_long_group_512) */
    bool ahead = t != QK_Q2 && nb * qk_bytes(t) >= TL_QDOT_LONG_ROW_BYTES;
    for (int64_t b = 0; b < nb; b++) {
        if (ahead)
            for (int r = 0; r < R; r++) prefetch_ahead_l2(w + r * rb + b * qk_bytes(t), qk_bytes(t), PREFETCH_AHEAD_512);
        kx512 xb;
        const int8_t *xq = x->q + (i * nb + b) * 256;
        for (int k = 0; k < 4; k++) xb.x[k] = _mm512_loadu_si512(xq + 64 * k);
        xb.s16 = _mm256_loadu_si256((const __m256i *)(x->sum16 + (i * nb + b) * 16));
        xb.s32 = _mm_loadu_si128((const __m128i *)(x->sum32 + (i * nb + b) * 8));
        xb.dx = x->d[i * nb + b];
        for (int r = 0; r < R; r++) {
            kint512 k = sb_512(t, w + r * rb + b * qk_bytes(t), &xb);
            __m256i i8 = _mm256_add_epi32(_mm512_castsi512_si256(k.i), _mm512_extracti64x4_epi64(k.i, 1));
            if (offset) i8 = _mm256_sub_epi32(i8, _mm256_slli_epi32(_mm256_madd_epi16(k.sc16, xb.s16), offset));
            acc[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(i8), _mm256_set1_ps(k.d * xb.dx), acc[r]);
            if (qk_has_min(t)) accm[r] = _mm_fmadd_ps(_mm_cvtepi32_ps(k.m), _mm_set1_ps(k.dmin * xb.dx), accm[r]);
        }
    }
    for (int r = 0; r < R; r++) o[r * os] = qk_has_min(t) ? hsum256(acc[r]) - hsum128(accm[r]) : hsum256(acc[r]);
}

/* ---- AVX2 -------------------------------------------------------------------------------- */

/* x's superblock as eight vectors of 32 bytes, with its sums and d. */
typedef struct kx256 { __m256i x[8]; __m256i s16; __m128i s32; float dx; } kx256;

/* A row's superblock in integers: the eight lanes, the group scales (with an offset), the
   minimums' lanes, d and dmin. */
typedef struct kint256 { __m256i i; __m256i sc16; __m128i m; float d, dmin; } kint256;

/* The 16 byte scales s as words (signed: sign-extended), scales 0..7 in both 128-bit lanes
   of w[0] and 8..15 in both lanes of w[1]: each pair of groups' words is then one in-lane
   shuffle (pair_scales), where widening each pair's two bytes took two instructions per 32
   weights. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void scale_words(__m256i all, __m256i w[2])
{
    w[0] = _mm256_permute2x128_si256(all, all, 0x00), w[1] = _mm256_permute2x128_si256(all, all, 0x11);
}

/* Words 0..7 the scale a, 8..15 the scale b, from scale_words's w (a and b in one half of 8). */
#define SCALE_WORD(a) (char)(2 * ((a) % 8)), (char)(2 * ((a) % 8) + 1)
#define SCALE_WORD8(a)                                                                                        \
    SCALE_WORD(a), SCALE_WORD(a), SCALE_WORD(a), SCALE_WORD(a), SCALE_WORD(a), SCALE_WORD(a), SCALE_WORD(a), \
        SCALE_WORD(a)
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i pair_scales(const __m256i w[2], int a, int b)
{
    return _mm256_shuffle_epi8(w[a / 8], _mm256_setr_epi8(SCALE_WORD8(a), SCALE_WORD8(b)));
}

/* i plus u's products with x times the word scales sc. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i dot_avx2(__m256i i, __m256i u, __m256i x, __m256i sc)
{
    return _mm256_add_epi32(i, _mm256_madd_epi16(_mm256_maddubs_epi16(u, x), sc));
}

/* Bit c of each byte of v moved to bit to (0 elsewhere). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline __m256i move_bit(__m256i v, int c, int to)
{
    __m256i s = c <= to ? _mm256_slli_epi16(v, to - c) : _mm256_srli_epi16(v, c - to);
    return _mm256_and_si256(s, _mm256_set1_epi8((char)(1 << to)));
}

/* Q4_K (five: Q5_K), 32 weights at a time (see sb_q45_512). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline kint256 sb_q45_avx2(const uint8_t *b, const kx256 *x,
                                                                                    bool five)
{
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    __m128i s = scales_k4(b + 4);
    __m256i sw[2];
    scale_words(_mm256_cvtepu8_epi16(s), sw);
    const uint8_t *qs = b + (five ? 48 : 16);
    __m256i h = five ? _mm256_loadu_si256((const __m256i *)(b + 16)) : _mm256_setzero_si256();
    kint256 r;
    r.i = _mm256_setzero_si256();
    for (int c = 0; c < 4; c++) {
        __m256i q = _mm256_loadu_si256((const __m256i *)(qs + 32 * c));
        __m256i lo = _mm256_and_si256(q, m4), hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), m4);
        if (five) lo = _mm256_or_si256(lo, move_bit(h, 2 * c, 4)), hi = _mm256_or_si256(hi, move_bit(h, 2 * c + 1, 4));
        r.i = dot_avx2(r.i, lo, x->x[2 * c], pair_scales(sw, 2 * c, 2 * c));
        r.i = dot_avx2(r.i, hi, x->x[2 * c + 1], pair_scales(sw, 2 * c + 1, 2 * c + 1));
    }
    r.m = _mm_madd_epi16(_mm_cvtepu8_epi16(_mm_srli_si128(s, 8)), x->s32);
    r.d = _cvtsh_ss(qdot_f16_bits(b)), r.dmin = _cvtsh_ss(qdot_f16_bits(b + 2));
    return r;
}

/* Q6_K, 32 weights (a quarter q of a half h) at a time (see sb_q6_512). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline kint256 sb_q6_avx2(const uint8_t *b, const kx256 *x)
{
    const __m256i m4 = _mm256_set1_epi8(0x0F), m30 = _mm256_set1_epi8(0x30);
    __m128i s = _mm_loadu_si128((const __m128i *)(b + 192));
    kint256 r;
    r.sc16 = _mm256_cvtepi8_epi16(s);
    __m256i sw[2];
    scale_words(r.sc16, sw);
    r.i = _mm256_setzero_si256();
    for (int h = 0; h < 2; h++) {
        __m256i qh = _mm256_loadu_si256((const __m256i *)(b + 128 + 32 * h));
        for (int q = 0; q < 4; q++) {
            __m256i l = _mm256_loadu_si256((const __m256i *)(b + 64 * h + 32 * (q & 1)));
            __m256i u = _mm256_and_si256(q & 2 ? _mm256_srli_epi16(l, 4) : l, m4);
            __m256i t = 2 * q <= 4 ? _mm256_slli_epi16(qh, 4 - 2 * q) : _mm256_srli_epi16(qh, 2 * q - 4);
            u = _mm256_or_si256(u, _mm256_and_si256(t, m30));
            r.i = dot_avx2(r.i, u, x->x[4 * h + q], pair_scales(sw, 8 * h + 2 * q, 8 * h + 2 * q + 1));
        }
    }
    r.d = _cvtsh_ss(qdot_f16_bits(b + 208));
    return r;
}

/* Q2_K (three: Q3_K), 32 weights at a time (see sb_q23_512). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline kint256 sb_q23_avx2(const uint8_t *b, const kx256 *x,
                                                                                    bool three)
{
    const __m256i m2 = _mm256_set1_epi8(3);
    kint256 r;
    __m128i s;
    if (three) {
        s = scales_q3(b + 94);
        r.sc16 = _mm256_cvtepi8_epi16(s);
    } else {
        __m128i raw = _mm_loadu_si128((const __m128i *)b);
        s = _mm_and_si128(raw, _mm_set1_epi8(15));
        r.sc16 = _mm256_cvtepu8_epi16(s);
        __m256i m8 = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), _mm_set1_epi8(15))), x->s16);
        r.m = _mm_add_epi32(_mm256_castsi256_si128(m8), _mm256_extracti128_si256(m8, 1));
    }
    __m256i sw[2];
    scale_words(r.sc16, sw);
    __m256i hm = three ? _mm256_loadu_si256((const __m256i *)b) : _mm256_setzero_si256();
    const uint8_t *qs = b + (three ? 32 : 16);
    r.i = _mm256_setzero_si256();
    for (int h = 0; h < 2; h++) {
        __m256i q = _mm256_loadu_si256((const __m256i *)(qs + 32 * h));
        for (int j = 0; j < 4; j++) {
            __m256i u = _mm256_and_si256(_mm256_srli_epi16(q, 2 * j), m2);
            if (three) u = _mm256_or_si256(u, move_bit(hm, 4 * h + j, 2));
            r.i = dot_avx2(r.i, u, x->x[4 * h + j], pair_scales(sw, 8 * h + 2 * j, 8 * h + 2 * j + 1));
        }
    }
    r.d = _cvtsh_ss(qdot_f16_bits(b + (three ? 108 : 80)));
    r.dmin = three ? 0 : _cvtsh_ss(qdot_f16_bits(b + 82));
    return r;
}

/* Q8_K: |w| times x with w's sign (maddubs after vpsignb). */
__attribute__((target(QDOT_AVX2), always_inline)) static inline kint256 sb_q8_avx2(const uint8_t *b, const kx256 *x)
{
    const __m256i ones = _mm256_set1_epi16(1);
    kint256 r;
    r.i = _mm256_setzero_si256();
    for (int k = 0; k < 8; k++) {
        __m256i w = _mm256_loadu_si256((const __m256i *)(b + 4 + 32 * k));
        __m256i p = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x->x[k], w));
        r.i = _mm256_add_epi32(r.i, _mm256_madd_epi16(p, ones));
    }
    memcpy(&r.d, b, 4);
    return r;
}

/* Type t's superblock at b in integers. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline kint256 sb_avx2(int t, const uint8_t *b, const kx256 *x)
{
    switch (t) {
    case QK_Q2: return sb_q23_avx2(b, x, false);
    case QK_Q3: return sb_q23_avx2(b, x, true);
    case QK_Q4: return sb_q45_avx2(b, x, false);
    case QK_Q5: return sb_q45_avx2(b, x, true);
    case QK_Q6: return sb_q6_avx2(b, x);
    default: return sb_q8_avx2(b, x);
    }
}

/* One row of type t from w against row i of x into o[0]. */
__attribute__((target(QDOT_AVX2), always_inline)) static inline void row_avx2(int t, const uint8_t *w, const tl_qact *x,
                                                                               int64_t i, float *o)
{
    int64_t nb = x->nb;
    int offset = t == QK_Q3 ? 2 : t == QK_Q6 ? 5 : 0;
    __m256 acc = _mm256_setzero_ps();
    __m128 accm = _mm_setzero_ps();
    /* the types that read long rows alone ask for the bytes ahead (qdot.h, PREFETCH_AHEAD_AVX2) */
    bool ahead = (t == QK_Q4 || t == QK_Q5 || t == QK_Q6) && nb * qk_bytes(t) >= TL_QDOT_LONG_ROW_BYTES;
    for (int64_t b = 0; b < nb; b++) {
        if (ahead) prefetch_ahead(w + b * qk_bytes(t), qk_bytes(t), PREFETCH_AHEAD_AVX2);
        kx256 xb;
        const int8_t *xq = x->q + (i * nb + b) * 256;
        for (int k = 0; k < 8; k++) xb.x[k] = _mm256_loadu_si256((const __m256i *)(xq + 32 * k));
        xb.s16 = _mm256_loadu_si256((const __m256i *)(x->sum16 + (i * nb + b) * 16));
        xb.s32 = _mm_loadu_si128((const __m128i *)(x->sum32 + (i * nb + b) * 8));
        xb.dx = x->d[i * nb + b];
        kint256 k = sb_avx2(t, w + b * qk_bytes(t), &xb);
        if (offset) k.i = _mm256_sub_epi32(k.i, _mm256_slli_epi32(_mm256_madd_epi16(k.sc16, xb.s16), offset));
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(k.i), _mm256_set1_ps(k.d * xb.dx), acc);
        if (qk_has_min(t)) accm = _mm_fmadd_ps(_mm_cvtepi32_ps(k.m), _mm_set1_ps(k.dmin * xb.dx), accm);
    }
    o[0] = qk_has_min(t) ? hsum256(acc) - hsum128(accm) : hsum256(acc);
}

/* ---- the row groups ------------------------------------------------------------------------ */

/* NAME_avx2, NAME_512: one row of type T; NAME_512_4: four (short rows, x's loads shared). */
#define QK_X86(NAME, T)                                                                                        \
    __attribute__((target(QDOT_AVX2))) static void NAME##_avx2(const uint8_t *w, size_t rb, const tl_qact *x,   \
                                                               int64_t i, float *o, int64_t os)                 \
    {                                                                                                          \
        (void)rb, (void)os;                                                                                    \
        row_avx2(T, w, x, i, o);                                                                               \
    }                                                                                                          \
    __attribute__((target(QDOT_512))) static void NAME##_512(const uint8_t *w, size_t rb, const tl_qact *x,     \
                                                             int64_t i, float *o, int64_t os)                   \
    {                                                                                                          \
        rows_512(T, 1, w, rb, x, i, o, os);                                                                    \
    }                                                                                                          \
    __attribute__((target(QDOT_512))) static void NAME##_512_4(const uint8_t *w, size_t rb, const tl_qact *x,   \
                                                               int64_t i, float *o, int64_t os)                 \
    {                                                                                                          \
        rows_512(T, 4, w, rb, x, i, o, os);                                                                    \
    }                                                                                                          \
    __attribute__((target(QDOT_512))) static void NAME##_512_2(const uint8_t *w, size_t rb, const tl_qact *x,   \
                                                               int64_t i, float *o, int64_t os)                 \
    {                                                                                                          \
        rows_512(T, 2, w, rb, x, i, o, os);                                                                    \
    }
QK_X86(q2, QK_Q2)
QK_X86(q3, QK_Q3)
QK_X86(q4, QK_Q4)
QK_X86(q5, QK_Q5)
QK_X86(q6, QK_Q6)
QK_X86(q8, QK_Q8)

const qdot_group_fn qk_groups_avx2[6][5] = {
    { NULL, q2_avx2 }, { NULL, q3_avx2 }, { NULL, q4_avx2 }, { NULL, q5_avx2 }, { NULL, q6_avx2 }, { NULL, q8_avx2 },
};
const qdot_group_fn qk_groups_512[6][5] = {
    { NULL, q2_512, q2_512_2, NULL, q2_512_4 }, { NULL, q3_512, q3_512_2, NULL, q3_512_4 },
    { NULL, q4_512, q4_512_2, NULL, q4_512_4 }, { NULL, q5_512, q5_512_2, NULL, q5_512_4 },
    { NULL, q6_512, q6_512_2, NULL, q6_512_4 }, { NULL, q8_512, q8_512_2, NULL, q8_512_4 },
};
