/* io/quantize_k.c — f32 to ggml's K-quant super-blocks (Q2_K Q3_K Q4_K Q5_K Q6_K), byte for byte ggml's reference quantizers */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../cast.h"
#include "../kernels/kern.h"
#include "internal.h"

/* ggml's quantize_row_q*_K_ref (ggml-quants.c) make these bytes: each sub-block's scale (and
   min) is searched for by least squares (make_qkx2_quants, make_qx_quants, make_q3_quants
   there: their rules, tl's code), the scales quantized in turn, and the elements quantized
   again against the rounded scales. The same float operations in the same order: this file is
   compiled with -ffp-contract=off (runtime/meson.build), because a fused multiply-add rounds
   once where ggml's x86-64 build rounds twice, and the least-squares searches then choose other
   levels. Elements are finite (tl_quantize checks). */

#define QK_K 256

/* The nearest integer to f for |f| < 2^22, as ggml computes it: the float's low bits after
   adding 1.5 * 2^23 (defined for every float; ggml assumes the range). */
static inline int nearest_int(float f)
{
    float v = f + 12582912.f;
    int32_t i;
    memcpy(&i, &v, 4);
    return (i & 0x007fffff) - 0x00400000;
}

static inline void put_f16(uint8_t *p, float f) { io_put16(p, cast_f32_to_f16(f)); }
static inline float get_f16(const uint8_t *p) { return cast_f16_to_f32(io_le16(p)); }
static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ---- searches for a scale ------------------------------------------------------- */

/* What a search for an affine fit x ~ scale * l + min, l in [0, nmax], works with. */
typedef struct fit {
    int n, nmax;
    const float *x, *w;      /* elements and their weights */
    bool mad;                /* the error is weighted |diff| (else diff squared) */
} fit;

/* The weighted error of levels l under scale and min. */
static float fit_error(const fit *f, const uint8_t *l, float scale, float min)
{
    float err = 0;
    for (int i = 0; i < f->n; i++) {
        float diff = scale * (float)l[i] + min - f->x[i];
        diff = f->mad ? fabsf(diff) : diff * diff;
        err += f->w[i] * diff;
    }
    return err;
}

/* Eight float and int lanes (GCC's vector extension: AVX2 registers in the avx2 build of the
   search below, pairs of SSE2 ones otherwise; the same IEEE operations either way). */
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* The levels of iscale * xm in each lane: nearest_int, clamped to [0, nmax], as floats. (Vectors
   go by pointer: passed by value, a 32-byte vector's ABI differs with and without AVX.) */
static inline __attribute__((always_inline)) void levels8(v8f *l, const v8f *iscale, float xm, int nmax)
{
    v8f v = *iscale * xm + 12582912.f;
    v8i i = ((v8i)v & 0x007fffff) - 0x00400000;
    v8i low = i < 0, high = i > nmax;
    *l = __builtin_convertvector((i & ~low & ~high) | (nmax & high), v8f);
}

/* What eight candidate inverse scales of make_qkx2_quants' search (one per lane, around the
   same min) give: each lane's least-squares scale and min, its weighted error, and whether
   its D > 0. Every lane does the scalar step's float operations in the scalar order (sums
   over i = 0..n-1, no contraction), so its figures are the scalar step's bit for bit. */
typedef struct step8 { v8f scale, min, err; v8i ok; } step8;

static inline __attribute__((always_inline)) void search8(step8 *r, const fit *f, float min, const v8f *iscale, float sum_w,
                                                         float sum_x)
{
    const float *x = f->x, *w = f->w;
    v8f sum_l = { 0 }, sum_l2 = { 0 }, sum_xl = { 0 };
    for (int i = 0; i < f->n; i++) {
        v8f l;
        levels8(&l, iscale, x[i] - min, f->nmax);
        v8f wl = w[i] * l;
        sum_l += wl;
        sum_l2 += wl * l;
        sum_xl += wl * x[i];
    }
    v8f D = sum_w * sum_l2 - sum_l * sum_l;
    v8f scale = (sum_w * sum_xl - sum_x * sum_l) / D, mn = (sum_l2 * sum_x - sum_l * sum_xl) / D, alt = sum_xl / sum_l2;
    v8i pos = mn > 0;   /* then min 0 (+0.0: all bits clear) and the scale of levels alone */
    scale = (v8f)(((v8i)scale & ~pos) | ((v8i)alt & pos));
    mn = (v8f)((v8i)mn & ~pos);
    v8f err = { 0 };
    for (int i = 0; i < f->n; i++) {
        v8f l;
        levels8(&l, iscale, x[i] - min, f->nmax);
        v8f diff = scale * l + mn - x[i];
        diff = f->mad ? (v8f)((v8i)diff & 0x7fffffff) : diff * diff;
        err += w[i] * diff;
    }
    *r = (step8){ scale, mn, err, D > 0 };
}

/* make_qkx2_quants: levels L (0..nmax) and a scale and a min <= 0 for x ~ scale * L + min,
   searching nstep + 1 inverse scales (nmax + rmin + rdelta * k) / range, each followed by the
   weighted least-squares scale and min of its levels. Returns the scale, *neg_min = -min.
   A step that improves the fit moves min, which the steps after it work from; so eight steps
   are tried at once from the current min (search8), and after one that moved min the search
   goes on from the step after it: the steps and choices are the scalar loop's, in its order. */
static inline __attribute__((always_inline)) float affine_levels_in(const fit *f, uint8_t *L, float *neg_min, float rmin,
                                                                   float rdelta, int nstep)
{
    const float *x = f->x, *w = f->w;
    float min = x[0], max = x[0], sum_w = w[0], sum_x = sum_w * x[0];
    for (int i = 1; i < f->n; i++) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        sum_w += w[i];
        sum_x += w[i] * x[i];
    }
    if (min > 0) min = 0;
    if (max == min) {
        memset(L, 0, (size_t)f->n);
        *neg_min = -min;
        return 0.f;
    }
    float iscale = (float)f->nmax / (max - min), scale = 1 / iscale;
    for (int i = 0; i < f->n; i++) L[i] = (uint8_t)clamp(nearest_int(iscale * (x[i] - min)), 0, f->nmax);
    float best = fit_error(f, L, scale, min);
    float chosen_iscale = 0, chosen_from = 0;   /* the best step's inverse scale and the min it started from */
    bool chosen = false;
    for (int k = 0; k <= nstep;) {
        v8f is;
        for (int j = 0; j < 8; j++) is[j] = (rmin + rdelta * (float)(k + j) + (float)f->nmax) / (max - min);
        step8 r;
        search8(&r, f, min, &is, sum_w, sum_x);
        int lanes = nstep + 1 - k < 8 ? nstep + 1 - k : 8, next = k + lanes;
        for (int j = 0; j < lanes; j++) {
            if (!r.ok[j] || !(r.err[j] < best)) continue;
            float from = min, to = r.min[j];
            best = r.err[j];
            scale = r.scale[j];
            min = to;
            chosen = true, chosen_iscale = is[j], chosen_from = from;
            if (memcmp(&from, &to, sizeof from) != 0) {   /* the later lanes started from the old min */
                next = k + j + 1;
                break;
            }
        }
        k = next;
    }
    if (chosen)
        for (int i = 0; i < f->n; i++) L[i] = (uint8_t)clamp(nearest_int(chosen_iscale * (x[i] - chosen_from)), 0, f->nmax);
    *neg_min = -min;
    return scale;
}

__attribute__((target("avx2"))) static float affine_levels_avx2(const fit *f, uint8_t *L, float *neg_min, float rmin,
                                                                float rdelta, int nstep)
{
    return affine_levels_in(f, L, neg_min, rmin, rdelta, nstep);
}

static float affine_levels_base(const fit *f, uint8_t *L, float *neg_min, float rmin, float rdelta, int nstep)
{
    return affine_levels_in(f, L, neg_min, rmin, rdelta, nstep);
}

/* The search compiled for the processor: AVX2's eight-float registers where it has them. */
static float affine_levels(const fit *f, uint8_t *L, float *neg_min, float rmin, float rdelta, int nstep)
{
    return tl_simd_avx2() ? affine_levels_avx2(f, L, neg_min, rmin, rdelta, nstep)
                          : affine_levels_base(f, L, neg_min, rmin, rdelta, nstep);
}

/* Sums of w * x * l and w * l * l for levels l = clamped nearest(iscale * x), weights x^2;
   levels stored with the offset nmax when L is given. */
static void symmetric_sums(int n, int nmax, const float *x, float iscale, int8_t *L, float *sumlx, float *suml2)
{
    float slx = 0, sl2 = 0;
    for (int i = 0; i < n; i++) {
        int l = clamp(nearest_int(iscale * x[i]), -nmax, nmax - 1);
        if (L) L[i] = (int8_t)(l + nmax);
        float w = x[i] * x[i];
        slx += w * x[i] * (float)l;
        sl2 += w * (float)l * (float)l;
    }
    *sumlx = slx;
    *suml2 = sl2;
}

/* The element of largest magnitude (the first of equals), with its sign; *amax its magnitude. */
static float signed_absmax(int n, const float *x, float *amax)
{
    float a = 0, max = 0;
    for (int i = 0; i < n; i++)
        if (fabsf(x[i]) > a) {
            a = fabsf(x[i]);
            max = x[i];
        }
    *amax = a;
    return max;
}

/* make_qx_quants with weights x^2 (rmse_type 1): levels L (0..2 nmax - 1, offset nmax) and the
   scale of x ~ scale * (L - nmax), the best of 19 inverse scales by weighted least squares. */
static float symmetric_levels(int n, int nmax, const float *x, int8_t *L)
{
    float amax, max = signed_absmax(n, x, &amax);
    if (amax < 1e-15f) {   /* ggml's GROUP_MAX_EPS: all zero */
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float sumlx, suml2;
    symmetric_sums(n, nmax, x, (float)-nmax / max, L, &sumlx, &suml2);
    float scale = suml2 != 0 ? sumlx / suml2 : 0.0f, best = scale * sumlx;
    for (int k = -9; k <= 9; k++) {
        if (k == 0) continue;
        float iscale = -((float)nmax + 0.1f * (float)k) / max;
        symmetric_sums(n, nmax, x, iscale, NULL, &sumlx, &suml2);
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            symmetric_sums(n, nmax, x, iscale, L, &sumlx, &suml2);
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

/* make_q3_quants with its refinement (do_rmse): levels L (0..2 nmax - 1, offset nmax) first from
   -nmax / max, then moved one element at a time to the level that least-squares prefers, up to
   five sweeps. Returns the scale. */
static float refined_levels(int n, int nmax, const float *x, int8_t *L)
{
    float amax, max = signed_absmax(n, x, &amax);
    if (amax < 1e-15f) {
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float iscale = (float)-nmax / max, sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; i++) {
        int l = clamp(nearest_int(iscale * x[i]), -nmax, nmax - 1);
        L[i] = (int8_t)l;
        float w = x[i] * x[i];
        sumlx += w * x[i] * (float)l;
        suml2 += w * (float)l * (float)l;
    }
    for (int sweep = 0; sweep < 5; sweep++) {
        int changed = 0;
        for (int i = 0; i < n; i++) {
            float w = x[i] * x[i], slx = sumlx - w * x[i] * (float)L[i];
            if (!(slx > 0)) continue;
            float sl2 = suml2 - w * (float)L[i] * (float)L[i];
            int l = clamp(nearest_int(x[i] * sl2 / slx), -nmax, nmax - 1);
            if (l == L[i]) continue;
            slx += w * x[i] * (float)l;
            sl2 += w * (float)l * (float)l;
            if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                L[i] = (int8_t)l;
                sumlx = slx;
                suml2 = sl2;
                changed++;
            }
        }
        if (!changed) break;
    }
    for (int i = 0; i < n; i++) L[i] = (int8_t)(L[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

/* ---- packing -------------------------------------------------------------------- */

/* 2-bit levels of 256 elements into 64 bytes: per 128, byte l holds elements l, l+32, l+64, l+96. */
static void pack2(const uint8_t *L, uint8_t *qs)
{
    for (int j = 0; j < QK_K; j += 128)
        for (int l = 0; l < 32; l++)
            qs[j / 4 + l] = (uint8_t)(L[j + l] | L[j + l + 32] << 2 | L[j + l + 64] << 4 | L[j + l + 96] << 6);
}

/* Q4_K/Q5_K's 12 scale bytes: eight 6-bit scales and mins, the high bits of 4..7 in bytes 0..7's tops. */
static void pack_scales_k4(uint8_t *s, const uint8_t *ls, const uint8_t *lm)
{
    for (int j = 0; j < 8; j++) {
        if (j < 4) {
            s[j] = ls[j];
            s[j + 4] = lm[j];
        } else {
            s[j + 4] = (uint8_t)((ls[j] & 0xF) | (lm[j] & 0xF) << 4);
            s[j - 4] |= (uint8_t)((ls[j] >> 4) << 6);
            s[j] |= (uint8_t)((lm[j] >> 4) << 6);
        }
    }
}

/* The scale and min of sub-block j from the 12 scale bytes (as the dequantizer reads them). */
static void scale_min_k4(int j, const uint8_t *q, uint8_t *d, uint8_t *m)
{
    if (j < 4) {
        *d = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *d = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

/* Levels of a sub-block again, against its rounded scale d and min dm: nearest((x + dm) / d) in [0, top]. */
static void requantize(const float *x, int n, float d, float dm, int top, uint8_t *L)
{
    for (int i = 0; i < n; i++) L[i] = (uint8_t)clamp(nearest_int((x[i] + dm) / d), 0, top);
}

/* ---- the types ------------------------------------------------------------------ */

/* Q2_K {scales[16], qs[64], d, dmin}: 16 sub-blocks of 16, 2-bit levels, 4-bit scales and mins. */
void io_quantize_q2_k(const float *x, uint8_t *b)
{
    uint8_t L[QK_K], *sc = b, *qs = b + 16;
    float w[16], mins[16], scales[16], max_scale = 0, max_min = 0;
    for (int j = 0; j < 16; j++) {
        for (int l = 0; l < 16; l++) w[l] = fabsf(x[16 * j + l]);
        fit f = { 16, 3, x + 16 * j, w, true };
        scales[j] = affine_levels(&f, L + 16 * j, &mins[j], -0.5f, 0.1f, 15);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    if (max_scale > 0) {
        float iscale = 15.f / max_scale;
        for (int j = 0; j < 16; j++) sc[j] = (uint8_t)nearest_int(iscale * scales[j]);
        put_f16(b + 80, max_scale / 15.f);
    } else {
        memset(sc, 0, 16);
        put_f16(b + 80, 0.f);
    }
    if (max_min > 0) {
        float iscale = 15.f / max_min;
        for (int j = 0; j < 16; j++) sc[j] |= (uint8_t)((unsigned)nearest_int(iscale * mins[j]) << 4);   /* the low bits, as x86 shifts */
        put_f16(b + 82, max_min / 15.f);
    } else
        put_f16(b + 82, 0.f);
    for (int j = 0; j < 16; j++) {
        const float d = get_f16(b + 80) * (float)(sc[j] & 0xF);
        if (d == 0) continue;
        requantize(x + 16 * j, 16, d, get_f16(b + 82) * (float)(sc[j] >> 4), 3, L + 16 * j);
    }
    pack2(L, qs);
}

/* Q3_K {hmask[32], qs[64], scales[12], d}: 16 sub-blocks of 16, 3-bit levels (the high bit in
   hmask), 6-bit signed scales. */
void io_quantize_q3_k(const float *x, uint8_t *b)
{
    int8_t L[QK_K];
    uint8_t *hm = b, *qs = b + 32, *s = b + 96;
    float scales[16], max_scale = 0, amax = 0;
    for (int j = 0; j < 16; j++) {
        scales[j] = refined_levels(16, 4, x + 16 * j, L + 16 * j);
        if (fabsf(scales[j]) > amax) {
            amax = fabsf(scales[j]);
            max_scale = scales[j];
        }
    }
    memset(s, 0, 12);
    if (max_scale != 0) {
        float iscale = -32.f / max_scale;
        for (int j = 0; j < 16; j++) {
            int l = clamp((int8_t)nearest_int(iscale * scales[j]), -32, 31) + 32;
            if (j < 8) s[j] = (uint8_t)(l & 0xF);
            else s[j - 8] |= (uint8_t)((l & 0xF) << 4);
            s[8 + j % 4] |= (uint8_t)((l >> 4) << (2 * (j / 4)));
        }
        put_f16(b + 108, 1 / iscale);
    } else
        put_f16(b + 108, 0.f);
    for (int j = 0; j < 16; j++) {
        int lo = j < 8 ? s[j] & 0xF : s[j - 8] >> 4;
        int sc = (int8_t)(lo | ((s[8 + j % 4] >> (2 * (j / 4))) & 3) << 4) - 32;
        float d = get_f16(b + 108) * (float)sc;
        if (d == 0) continue;
        for (int i = 0; i < 16; i++) L[16 * j + i] = (int8_t)(clamp(nearest_int(x[16 * j + i] / d), -4, 3) + 4);
    }
    memset(hm, 0, 32);
    for (int j = 0; j < QK_K; j++)   /* the high bit of element j: bit j / 32 of hmask[j % 32] */
        if (L[j] > 3) {
            hm[j % 32] |= (uint8_t)(1 << (j / 32));
            L[j] -= 4;
        }
    pack2((const uint8_t *)L, qs);
}

/* Q4_K and Q5_K's scales: 8 sub-blocks of 32 fitted affinely (weights mean |x| + |x|), their
   scales and mins as 6 bits of d and dmin, and the levels again against the rounded ones. */
static void scales_k4(const float *x, uint8_t *b, int nmax, float rmin, int nstep, uint8_t *L)
{
    float w[32], mins[8], scales[8], max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; j++) {
        const float *xs = x + 32 * j;
        float sum_x2 = 0;
        for (int l = 0; l < 32; l++) sum_x2 += xs[l] * xs[l];
        float av_x = sqrtf(sum_x2 / 32);
        for (int l = 0; l < 32; l++) w[l] = av_x + fabsf(xs[l]);
        fit f = { 32, nmax, xs, w, false };
        scales[j] = affine_levels(&f, L + 32 * j, &mins[j], rmin, 0.1f, nstep);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f, inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    uint8_t ls[8], lm[8];
    for (int j = 0; j < 8; j++) {
        uint8_t a = (uint8_t)nearest_int(inv_scale * scales[j]), m = (uint8_t)nearest_int(inv_min * mins[j]);
        ls[j] = a < 63 ? a : 63;
        lm[j] = m < 63 ? m : 63;
    }
    pack_scales_k4(b + 4, ls, lm);
    put_f16(b, max_scale / 63.f);
    put_f16(b + 2, max_min / 63.f);
    for (int j = 0; j < 8; j++) {
        uint8_t sc, m;
        scale_min_k4(j, b + 4, &sc, &m);
        const float d = get_f16(b) * (float)sc;
        if (d == 0) continue;
        requantize(x + 32 * j, 32, d, get_f16(b + 2) * (float)m, nmax, L + 32 * j);
    }
}

/* Q4_K {d, dmin, scales[12], qs[128]}: 4-bit levels, sub-blocks 2c and 2c + 1 in the low and high nibbles of qs[32c..]. */
void io_quantize_q4_k(const float *x, uint8_t *b)
{
    uint8_t L[QK_K], *q = b + 16;
    scales_k4(x, b, 15, -1.f, 20, L);
    for (int j = 0; j < QK_K; j += 64, q += 32)
        for (int l = 0; l < 32; l++) q[l] = (uint8_t)(L[j + l] | L[j + l + 32] << 4);
}

/* Q5_K {d, dmin, scales[12], qh[32], qs[128]}: as Q4_K with a fifth bit per level in qh. */
void io_quantize_q5_k(const float *x, uint8_t *b)
{
    uint8_t L[QK_K], *qh = b + 16, *ql = b + 48, m1 = 1, m2 = 2;
    scales_k4(x, b, 31, -0.5f, 15, L);
    memset(qh, 0, 32);
    for (int n = 0; n < QK_K; n += 64, ql += 32, m1 <<= 2, m2 <<= 2)
        for (int j = 0; j < 32; j++) {
            int l1 = L[n + j], l2 = L[n + j + 32];
            if (l1 > 15) {
                l1 -= 16;
                qh[j] |= m1;
            }
            if (l2 > 15) {
                l2 -= 16;
                qh[j] |= m2;
            }
            ql[j] = (uint8_t)(l1 | l2 << 4);
        }
}

/* Q6_K {ql[128], qh[64], scales[16], d}: 16 sub-blocks of 16, 6-bit levels, 8-bit signed scales. */
void io_quantize_q6_k(const float *x, uint8_t *b)
{
    int8_t L[QK_K], *sc = (int8_t *)(b + 192);
    uint8_t *ql = b, *qh = b + 128;
    float scales[16], max_scale = 0, max_abs = 0;
    for (int j = 0; j < 16; j++) {
        scales[j] = symmetric_levels(16, 32, x + 16 * j, L + 16 * j);
        if (fabsf(scales[j]) > max_abs) {
            max_abs = fabsf(scales[j]);
            max_scale = scales[j];
        }
    }
    if (max_abs < 1e-15f) {
        memset(b, 0, 210);
        return;
    }
    float iscale = -128.f / max_scale;
    put_f16(b + 208, 1 / iscale);
    for (int j = 0; j < 16; j++) {
        int l = nearest_int(iscale * scales[j]);
        sc[j] = (int8_t)(l < 127 ? l : 127);
    }
    for (int j = 0; j < 16; j++) {
        float d = get_f16(b + 208) * (float)sc[j];
        if (d == 0) continue;
        for (int i = 0; i < 16; i++) L[16 * j + i] = (int8_t)(clamp(nearest_int(x[16 * j + i] / d), -32, 31) + 32);
    }
    for (int j = 0; j < QK_K; j += 128, ql += 64, qh += 32)
        for (int l = 0; l < 32; l++) {
            const uint8_t *u = (const uint8_t *)L + j + l;
            ql[l] = (uint8_t)((u[0] & 0xF) | (u[64] & 0xF) << 4);
            ql[l + 32] = (uint8_t)((u[32] & 0xF) | (u[96] & 0xF) << 4);
            qh[l] = (uint8_t)(u[0] >> 4 | (u[32] >> 4) << 2 | (u[64] >> 4) << 4 | (u[96] >> 4) << 6);
        }
}
