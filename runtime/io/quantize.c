/* io/quantize.c — f32 to ggml's 32-element blocks (Q4_0 Q4_1 Q5_0 Q5_1 Q8_0), byte for byte ggml's reference quantizers */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../cast.h"
#include "internal.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ggml's quantize_row_*_ref (ggml-quants.c) make these bytes; tl's code is its own, with the
   same float operations in the same order. runtime/meson.build compiles this file with
   -ffp-contract=off: ggml's x86-64 build computes a * b + c as two roundings, and so must tl,
   whatever the compiler would fuse. Elements are finite (tl_quantize checks). */

#define QK 32

/* f as ggml stores a block's scale: binary16, nearest even, little-endian at p. */
static inline void put_f16(uint8_t *p, float f) { io_put16(p, cast_f32_to_f16(f)); }

/* (int32_t)f as x86-64's cvttss2si computes it: truncated, and INT32_MIN for a value out of
   range or nan, where C leaves the conversion undefined (only an overflowing 1 / d gives one). */
static inline int32_t trunc_i32(float f)
{
    return f > -2147483904.0f && f < 2147483648.0f ? (int32_t)f : INT32_MIN;
}

/* roundf(v): to nearest, halves away from zero. */
static inline float round_away(float v)
{
    float a = fabsf(v);
    if (!(a < 8388608.0f)) return v;   /* already an integer, or inf or nan */
    float t = (float)(int32_t)a;
    if (a - t >= 0.5f) t += 1.0f;      /* exact: a - t is a's fraction */
    return copysignf(t, v);
}

/* The element of largest magnitude (the first of equals), with its sign. */
static float signed_absmax(const float *x)
{
    float amax = 0, max = 0;
    for (int j = 0; j < QK; j++)
        if (amax < fabsf(x[j])) {
            amax = fabsf(x[j]);
            max = x[j];
        }
    return max;
}

/* The smallest and largest element. */
static void min_max(const float *x, float *lo, float *hi)
{
    float mn = FLT_MAX, mx = -FLT_MAX;
    for (int j = 0; j < QK; j++) {
        if (x[j] < mn) mn = x[j];
        if (x[j] > mx) mx = x[j];
    }
    *lo = mn;
    *hi = mx;
}

/* The reciprocal ggml multiplies by: 0 for a zero scale. */
static inline float inverse(float d) { return d != 0 ? 1.0f / d : 0.0f; }

/* A 4-bit (or 5-bit) level: trunc(v + bias) held to at most top, as ggml's int8 conversion gives it. */
static inline uint8_t level(float v, float bias, int top)
{
    int q = (int8_t)(uint8_t)trunc_i32(v + bias);
    return (uint8_t)(q < top ? q : top);
}

/* Q4_0 {d, qs[16]}: x = d * (q - 8), d = -max / 8 for the element of largest magnitude. */
void io_quantize_q4_0(const float *x, uint8_t *b)
{
    const float d = signed_absmax(x) / -8, id = inverse(d);
    put_f16(b, d);
    for (int j = 0; j < QK / 2; j++)
        b[2 + j] = (uint8_t)(level(x[j] * id, 8.5f, 15) | level(x[j + QK / 2] * id, 8.5f, 15) << 4);
}

/* Q4_1 {d, m, qs[16]}: x = d * q + m over the block's range. */
void io_quantize_q4_1(const float *x, uint8_t *b)
{
    float mn, mx;
    min_max(x, &mn, &mx);
    const float d = (mx - mn) / 15, id = inverse(d);
    put_f16(b, d);
    put_f16(b + 2, mn);
    for (int j = 0; j < QK / 2; j++)
        b[4 + j] = (uint8_t)(level((x[j] - mn) * id, 0.5f, 15) | level((x[j + QK / 2] - mn) * id, 0.5f, 15) << 4);
}

/* Q5_0 {d, qh[4], qs[16]}: x = d * (q - 16); bit 4 of element j's level is bit j of qh. */
void io_quantize_q5_0(const float *x, uint8_t *b)
{
    const float d = signed_absmax(x) / -16, id = inverse(d);
    uint32_t qh = 0;
    put_f16(b, d);
    for (int j = 0; j < QK / 2; j++) {
        uint8_t lo = level(x[j] * id, 16.5f, 31), hi = level(x[j + QK / 2] * id, 16.5f, 31);
        b[6 + j] = (uint8_t)((lo & 0x0F) | (hi & 0x0F) << 4);
        qh |= (uint32_t)(lo >> 4 & 1) << j | (uint32_t)(hi >> 4 & 1) << (j + QK / 2);
    }
    io_put32(b + 2, qh);
}

/* Q5_1 {d, m, qh[4], qs[16]}: x = d * q + m; the level is ggml's uint8 conversion, unclamped. */
void io_quantize_q5_1(const float *x, uint8_t *b)
{
    float mn, mx;
    min_max(x, &mn, &mx);
    const float d = (mx - mn) / 31, id = inverse(d);
    uint32_t qh = 0;
    put_f16(b, d);
    put_f16(b + 2, mn);
    for (int j = 0; j < QK / 2; j++) {
        uint8_t lo = (uint8_t)trunc_i32((x[j] - mn) * id + 0.5f), hi = (uint8_t)trunc_i32((x[j + QK / 2] - mn) * id + 0.5f);
        b[8 + j] = (uint8_t)((lo & 0x0F) | (hi & 0x0F) << 4);
        qh |= (uint32_t)(lo >> 4 & 1) << j | (uint32_t)(hi >> 4 & 1) << (j + QK / 2);
    }
    io_put32(b + 4, qh);
}

/* Q8_0 {d, qs[32]}: x = d * q, d = max |x| / 127, q rounded half away from zero. */
#ifdef __SSE2__
/* The largest |x[j]| of a block, four lanes at a time (max is exact: any order gives it). */
static inline float absmax_sse2(const float *x)
{
    const __m128 sign = _mm_set1_ps(-0.0f);
    __m128 m = _mm_setzero_ps();
    for (int j = 0; j < QK; j += 4) m = _mm_max_ps(m, _mm_andnot_ps(sign, _mm_loadu_ps(x + j)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(m);
}

/* round_away of four products of magnitude under 2^23, as int32 lanes: the same steps. */
static inline __m128i round_away_sse2(__m128 v)
{
    __m128 a = _mm_andnot_ps(_mm_set1_ps(-0.0f), v);
    __m128i t = _mm_cvttps_epi32(a);
    __m128 frac = _mm_sub_ps(a, _mm_cvtepi32_ps(t));                          /* exact */
    t = _mm_sub_epi32(t, _mm_castps_si128(_mm_cmpge_ps(frac, _mm_set1_ps(0.5f))));   /* + 1 there */
    __m128i neg = _mm_castps_si128(_mm_cmplt_ps(v, _mm_setzero_ps()));
    return _mm_sub_epi32(_mm_xor_si128(t, neg), neg);                           /* negated there */
}
#endif

/* Q8_0: the scale maps the largest magnitude to 127. The products x[j] * id lie within about
   127.00003 whenever id is finite, so the SSE2 lanes (the same multiply and rounding, packed with
   saturation that never acts) give the scalar loop's bytes; an infinite id (a subnormal scale)
   takes the scalar loop, whose conversion of inf and nan is x86-64's. */
void io_quantize_q8_0(const float *x, uint8_t *b)
{
#ifdef __SSE2__
    const float amax = absmax_sse2(x);
#else
    float amax = 0;
    for (int j = 0; j < QK; j++) amax = amax > fabsf(x[j]) ? amax : fabsf(x[j]);
#endif
    const float d = amax / 127, id = inverse(d);
    put_f16(b, d);
#ifdef __SSE2__
    if (id <= FLT_MAX) {
        const __m128 vid = _mm_set1_ps(id);
        for (int j = 0; j < QK; j += 16) {
            __m128i q0 = round_away_sse2(_mm_mul_ps(_mm_loadu_ps(x + j), vid));
            __m128i q1 = round_away_sse2(_mm_mul_ps(_mm_loadu_ps(x + j + 4), vid));
            __m128i q2 = round_away_sse2(_mm_mul_ps(_mm_loadu_ps(x + j + 8), vid));
            __m128i q3 = round_away_sse2(_mm_mul_ps(_mm_loadu_ps(x + j + 12), vid));
            __m128i p = _mm_packs_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3));
            _mm_storeu_si128((__m128i *)(b + 2 + j), p);
        }
        return;
    }
#endif
    for (int j = 0; j < QK; j++) b[2 + j] = (uint8_t)trunc_i32(round_away(x[j] * id));
}
