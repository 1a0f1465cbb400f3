/* tests/unit/avx512_simde.h — the AVX-512 intrinsics of the quantized dots, the f32 and bf16
   rows, the small products, the transposes, summary()'s steps, the elementwise loops, Philox
   and the f16 and bf16 conversions, emulated, so that their 512-bit paths run (and are checked
   against the others) on CPUs without AVX-512.

   runtime/kernels/intrinsics.h includes this header in place of <immintrin.h> when a build
   names it in TL_AVX512_EMULATION (tests/unit/meson.build: the unit_*_emulated_512 tests), for
   the quantized dots (kernels/qdot.h), the f32 and bf16 rows (kernels/matvec.c), the small
   products (kernels/small_gemm.c), the transposed copies (kernels/transpose.c), the stats and
   differences (summary.c), the elementwise loops (kernels/simd_x86.c), Philox (random.c) and
   the conversions (kernels/convert.c). Those files are then compiled for AVX2,
   FMA and F16C, and every 512-bit intrinsic and type they use is SIMDe's (libsimde-dev, MIT):
   SIMDe does a 512-bit operation as two native 256-bit ones where it can, so a fused
   multiply-add stays fused. The few SIMDe 0.7.4 lacks, or does with signed overflow, are
   written out below, lane by lane, from Intel's definitions; a masked load reads only the
   bytes its mask selects, as the hardware does. The AVX2 intrinsics are the compiler's own. */
#ifndef TL_AVX512_SIMDE_H
#define TL_AVX512_SIMDE_H

#include <immintrin.h>
#include <math.h>
#include <string.h>

#include <simde/x86/avx512.h>
#include <simde/x86/gfni.h>

#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "avx512_simde.h: compile with -mavx2 -mfma -mf16c (SIMDe's 256-bit halves must be native)"
#endif

/* SIMDe includes <complex.h>, whose I the dot files use as a name */
#undef I

#define __m512 simde__m512
#define __m512i simde__m512i

/* (each name is undefined first: without optimization the compiler's headers make the
   intrinsics that take an immediate macros) */

#undef _mm256_dpbusd_epi32
#define _mm256_dpbusd_epi32 simde_mm256_dpbusd_epi32
#undef _mm512_abs_epi8
#define _mm512_abs_epi8 simde_mm512_abs_epi8
#undef _mm512_add_epi16
#define _mm512_add_epi16 simde_mm512_add_epi16
#undef _mm512_add_epi32
#define _mm512_add_epi32 simde_mm512_add_epi32
#undef _mm512_add_epi8
#define _mm512_add_epi8 simde_mm512_add_epi8
#undef _mm512_add_ps
#define _mm512_add_ps simde_mm512_add_ps
#undef _mm512_and_si512
#define _mm512_and_si512 simde_mm512_and_si512
#undef _mm512_bitshuffle_epi64_mask
#define _mm512_bitshuffle_epi64_mask simde_mm512_bitshuffle_epi64_mask
#undef _mm512_broadcast_f64x4
#define _mm512_broadcast_f64x4 simde_mm512_broadcast_f64x4
#undef _mm512_broadcast_i32x4
#define _mm512_broadcast_i32x4 simde_mm512_broadcast_i32x4
#undef _mm512_broadcast_i64x4
#define _mm512_broadcast_i64x4 simde_mm512_broadcast_i64x4
#undef _mm512_castpd_ps
#define _mm512_castpd_ps simde_mm512_castpd_ps
#undef _mm512_castps128_ps512
#define _mm512_castps128_ps512 simde_mm512_castps128_ps512
#undef _mm512_castps256_ps512
#define _mm512_castps256_ps512 simde_mm512_castps256_ps512
#undef _mm512_castps512_ps128
#define _mm512_castps512_ps128 simde_mm512_castps512_ps128
#undef _mm512_castps512_ps256
#define _mm512_castps512_ps256 simde_mm512_castps512_ps256
#undef _mm512_castps_pd
#define _mm512_castps_pd simde_mm512_castps_pd
#undef _mm512_castsi256_si512
#define _mm512_castsi256_si512 simde_mm512_castsi256_si512
#undef _mm512_castsi512_si256
#define _mm512_castsi512_si256 simde_mm512_castsi512_si256
#undef _mm512_dpbusd_epi32
#define _mm512_dpbusd_epi32 simde_mm512_dpbusd_epi32
#undef _mm512_dpwssd_epi32
#define _mm512_dpwssd_epi32 simde_mm512_dpwssd_epi32
#undef _mm512_extractf32x4_ps
#define _mm512_extractf32x4_ps simde_mm512_extractf32x4_ps
#undef _mm512_extractf64x4_pd
#define _mm512_extractf64x4_pd simde_mm512_extractf64x4_pd
#undef _mm512_extracti64x4_epi64
#define _mm512_extracti64x4_epi64 simde_mm512_extracti64x4_epi64
#undef _mm512_fmadd_ps
#define _mm512_fmadd_ps simde_mm512_fmadd_ps
#undef _mm512_gf2p8affine_epi64_epi8
#define _mm512_gf2p8affine_epi64_epi8 simde_mm512_gf2p8affine_epi64_epi8
#undef _mm512_inserti64x4
#define _mm512_inserti64x4 simde_mm512_inserti64x4
#undef _mm512_loadu_ps
#define _mm512_loadu_ps simde_mm512_loadu_ps
#undef _mm512_loadu_si512
#define _mm512_loadu_si512 simde_mm512_loadu_si512
#undef _mm512_maddubs_epi16
#define _mm512_maddubs_epi16 simde_mm512_maddubs_epi16
#undef _mm512_mask_add_epi8
#define _mm512_mask_add_epi8 simde_mm512_mask_add_epi8
#undef _mm512_mask_blend_epi16
#define _mm512_mask_blend_epi16 simde_mm512_mask_blend_epi16
#undef _mm512_mask_blend_epi8
#define _mm512_mask_blend_epi8 simde_mm512_mask_blend_epi8
#undef _mm512_mask_shuffle_f32x4
#define _mm512_mask_shuffle_f32x4 simde_mm512_mask_shuffle_f32x4
#undef _mm512_mask_sub_epi8
#define _mm512_mask_sub_epi8 simde_mm512_mask_sub_epi8
#undef _mm512_maskz_compress_ps
#define _mm512_maskz_compress_ps simde_mm512_maskz_compress_ps
#undef _mm512_maskz_mov_epi16
#define _mm512_maskz_mov_epi16 simde_mm512_maskz_mov_epi16
#undef _mm512_movepi8_mask
#define _mm512_movepi8_mask simde_mm512_movepi8_mask
#undef _mm512_mul_ps
#define _mm512_mul_ps simde_mm512_mul_ps
#undef _mm512_or_si512
#define _mm512_or_si512 simde_mm512_or_si512
#undef _mm512_permutex2var_epi16
#define _mm512_permutex2var_epi16 simde_mm512_permutex2var_epi16
#undef _mm512_permutex2var_epi32
#define _mm512_permutex2var_epi32 simde_mm512_permutex2var_epi32
#undef _mm512_permutex2var_epi8
#define _mm512_permutex2var_epi8 simde_mm512_permutex2var_epi8
#undef _mm512_permutex2var_ps
#define _mm512_permutex2var_ps simde_mm512_permutex2var_ps
#undef _mm512_permutexvar_epi16
#define _mm512_permutexvar_epi16 simde_mm512_permutexvar_epi16
#undef _mm512_permutexvar_ps
#define _mm512_permutexvar_ps simde_mm512_permutexvar_ps
#undef _mm512_set1_epi16
#define _mm512_set1_epi16 simde_mm512_set1_epi16
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 simde_mm512_set1_epi32
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 simde_mm512_set1_epi64
#undef _mm512_set1_epi8
#define _mm512_set1_epi8 simde_mm512_set1_epi8
#undef _mm512_set_epi16
#define _mm512_set_epi16 simde_mm512_set_epi16
#undef _mm512_set_epi32
#define _mm512_set_epi32 simde_mm512_set_epi32
#undef _mm512_set_epi64
#define _mm512_set_epi64 simde_mm512_set_epi64
#undef _mm512_set_epi8
#define _mm512_set_epi8 simde_mm512_set_epi8
#undef _mm512_setr_epi32
#define _mm512_setr_epi32 simde_mm512_setr_epi32
#undef _mm512_setzero_ps
#define _mm512_setzero_ps simde_mm512_setzero_ps
#undef _mm512_setzero_si512
#define _mm512_setzero_si512 simde_mm512_setzero_si512
#undef _mm512_shuffle_epi8
#define _mm512_shuffle_epi8 simde_mm512_shuffle_epi8
#undef _mm512_shuffle_f32x4
#define _mm512_shuffle_f32x4 simde_mm512_shuffle_f32x4
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2 simde_mm512_shuffle_i64x2
#undef _mm512_slli_epi32
#define _mm512_slli_epi32 simde_mm512_slli_epi32
#undef _mm512_sllv_epi16
#define _mm512_sllv_epi16 simde_mm512_sllv_epi16
#undef _mm512_srai_epi16
#define _mm512_srai_epi16 simde_mm512_srai_epi16
#undef _mm512_srli_epi16
#define _mm512_srli_epi16 simde_mm512_srli_epi16
#undef _mm512_srlv_epi16
#define _mm512_srlv_epi16 simde_mm512_srlv_epi16
#undef _mm512_test_epi8_mask
#define _mm512_test_epi8_mask simde_mm512_test_epi8_mask
#undef _mm512_xor_si512
#define _mm512_xor_si512 simde_mm512_xor_si512
/* the f16 and bf16 conversions (kernels/convert.c) */
#undef _mm512_castps_si512
#define _mm512_castps_si512 simde_mm512_castps_si512
#undef _mm512_cmp_ps_mask
#define _mm512_cmp_ps_mask simde_mm512_cmp_ps_mask
#undef _mm512_srli_epi32
#define _mm512_srli_epi32 simde_mm512_srli_epi32
#undef _mm512_storeu_ps
#define _mm512_storeu_ps simde_mm512_storeu_ps
/* the f32 and bf16 rows (kernels/matvec.c) */
#undef _mm512_castsi512_ps
#define _mm512_castsi512_ps simde_mm512_castsi512_ps
/* the stats and differences in double (summary.c) */
#define __m512d simde__m512d
#undef _mm512_loadu_pd
#define _mm512_loadu_pd simde_mm512_loadu_pd
#undef _mm512_storeu_pd
#define _mm512_storeu_pd simde_mm512_storeu_pd
#undef _mm512_sub_pd
#define _mm512_sub_pd simde_mm512_sub_pd
#undef _mm512_add_pd
#define _mm512_add_pd simde_mm512_add_pd
#undef _mm512_mul_pd
#define _mm512_mul_pd simde_mm512_mul_pd
#undef _mm512_fmadd_pd
#define _mm512_fmadd_pd simde_mm512_fmadd_pd
#undef _mm512_max_pd
#define _mm512_max_pd simde_mm512_max_pd
#undef _mm512_castsi512_pd
#define _mm512_castsi512_pd simde_mm512_castsi512_pd
#undef _mm512_castpd_si512
#define _mm512_castpd_si512 simde_mm512_castpd_si512
/* the small products and the transposes (small_gemm.c, transpose.c) */
#undef _mm512_set1_ps
#define _mm512_set1_ps simde_mm512_set1_ps
#undef _mm512_unpacklo_ps
#define _mm512_unpacklo_ps simde_mm512_unpacklo_ps
#undef _mm512_unpackhi_ps
#define _mm512_unpackhi_ps simde_mm512_unpackhi_ps
#undef _mm512_unpacklo_pd
#define _mm512_unpacklo_pd simde_mm512_unpacklo_pd
#undef _mm512_unpackhi_pd
#define _mm512_unpackhi_pd simde_mm512_unpackhi_pd
#undef _mm512_shuffle_f32x4
#define _mm512_shuffle_f32x4 simde_mm512_shuffle_f32x4
#undef _mm512_castps_pd
#define _mm512_castps_pd simde_mm512_castps_pd
#undef _mm512_castpd_ps
#define _mm512_castpd_ps simde_mm512_castpd_ps
/* the elementwise loops, min/max and softmax rows (kernels/simd_x86.c) */
#undef _mm512_abs_pd
#define _mm512_abs_pd simde_mm512_abs_pd
#undef _mm512_abs_ps
#define _mm512_abs_ps simde_mm512_abs_ps
#undef _mm512_cmp_pd_mask
#define _mm512_cmp_pd_mask simde_mm512_cmp_pd_mask
#undef _mm512_cmp_ps_mask
#define _mm512_cmp_ps_mask simde_mm512_cmp_ps_mask
#undef _mm512_div_pd
#define _mm512_div_pd simde_mm512_div_pd
#undef _mm512_div_ps
#define _mm512_div_ps simde_mm512_div_ps
#undef _mm512_fmsub_pd
#define _mm512_fmsub_pd simde_mm512_fmsub_pd
#undef _mm512_fnmadd_pd
#define _mm512_fnmadd_pd simde_mm512_fnmadd_pd
#undef _mm512_fnmadd_ps
#define _mm512_fnmadd_ps simde_mm512_fnmadd_ps
#undef _mm512_insertf32x8
#define _mm512_insertf32x8 simde_mm512_insertf32x8
#undef _mm512_mask_blend_pd
#define _mm512_mask_blend_pd simde_mm512_mask_blend_pd
#undef _mm512_mask_blend_ps
#define _mm512_mask_blend_ps simde_mm512_mask_blend_ps
#undef _mm512_mask_compressstoreu_ps
#define _mm512_mask_compressstoreu_ps simde_mm512_mask_compressstoreu_ps
#undef _mm512_maskz_mov_pd
#define _mm512_maskz_mov_pd simde_mm512_maskz_mov_pd
#undef _mm512_maskz_mov_ps
#define _mm512_maskz_mov_ps simde_mm512_maskz_mov_ps
#undef _mm512_max_ps
#define _mm512_max_ps simde_mm512_max_ps
#undef _mm512_min_pd
#define _mm512_min_pd simde_mm512_min_pd
#undef _mm512_min_ps
#define _mm512_min_ps simde_mm512_min_ps
#undef _mm512_roundscale_pd
#define _mm512_roundscale_pd simde_mm512_roundscale_pd
#undef _mm512_roundscale_ps
#define _mm512_roundscale_ps simde_mm512_roundscale_ps
#undef _mm512_scalef_pd
#define _mm512_scalef_pd simde_mm512_scalef_pd
#undef _mm512_scalef_ps
#define _mm512_scalef_ps simde_mm512_scalef_ps
#undef _mm512_set1_pd
#define _mm512_set1_pd simde_mm512_set1_pd
#undef _mm512_setzero_pd
#define _mm512_setzero_pd simde_mm512_setzero_pd
#undef _mm512_sqrt_pd
#define _mm512_sqrt_pd simde_mm512_sqrt_pd
#undef _mm512_sqrt_ps
#define _mm512_sqrt_ps simde_mm512_sqrt_ps
#undef _mm512_sub_ps
#define _mm512_sub_ps simde_mm512_sub_ps
/* Philox (random.c) */
#undef _mm512_mul_epu32
#define _mm512_mul_epu32 simde_mm512_mul_epu32
#undef _mm512_srli_epi64
#define _mm512_srli_epi64 simde_mm512_srli_epi64
#undef _mm512_mask_blend_epi32
#define _mm512_mask_blend_epi32 simde_mm512_mask_blend_epi32
#undef _mm512_mask_add_epi32
#define _mm512_mask_add_epi32 simde_mm512_mask_add_epi32
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 simde_mm512_storeu_si512

/* ---- the ones SIMDe 0.7.4 lacks --------------------------------------------------------- */

/* The 512-bit vector v as 16 floats, 16 int32 or 64 bytes, and back. */
static inline void emu512_store(void *p, simde__m512i v) { simde_mm512_storeu_si512(p, v); }
static inline simde__m512i emu512_load(const void *p) { return simde_mm512_loadu_si512(p); }
static inline void emu512_store_ps(float *p, simde__m512 v) { simde_mm512_storeu_ps(p, v); }
static inline simde__m512 emu512_load_ps(const float *p) { return simde_mm512_loadu_ps(p); }

/* Lane i of a, converted to float in the rounding mode (vcvtdq2ps). */
static inline simde__m512 emu512_cvtepi32_ps(simde__m512i a)
{
    int32_t v[16];
    float r[16];
    emu512_store(v, a);
    for (int i = 0; i < 16; i++) r[i] = (float)v[i];
    return emu512_load_ps(r);
}
#undef _mm512_cvtepi32_ps
#define _mm512_cvtepi32_ps emu512_cvtepi32_ps

/* The 16 halves of a as floats (vcvtph2ps, eight at a time with F16C). */
static inline simde__m512 emu512_cvtph_ps(__m256i a)
{
    float r[16];
    _mm256_storeu_ps(r, _mm256_cvtph_ps(_mm256_castsi256_si128(a)));
    _mm256_storeu_ps(r + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(a, 1)));
    return emu512_load_ps(r);
}
#undef _mm512_cvtph_ps
#define _mm512_cvtph_ps emu512_cvtph_ps

/* a * b + c rounded once where k has a bit, c elsewhere. */
static inline simde__m512 emu512_mask3_fmadd_ps(simde__m512 a, simde__m512 b, simde__m512 c, uint16_t k)
{
    float x[16], y[16], z[16];
    emu512_store_ps(x, a), emu512_store_ps(y, b), emu512_store_ps(z, c);
    for (int i = 0; i < 16; i++)
        if (k >> i & 1) z[i] = fmaf(x[i], y[i], z[i]);
    return emu512_load_ps(z);
}
#undef _mm512_mask3_fmadd_ps
#define _mm512_mask3_fmadd_ps emu512_mask3_fmadd_ps

/* n elements of size bytes from p where k has a bit, from src (or zeros) elsewhere, into out;
   only the selected elements are read. */
static inline void emu512_masked(void *out, const void *src, uint64_t k, const void *p, int n, int size)
{
    if (src) memcpy(out, src, (size_t)(n * size));
    else memset(out, 0, (size_t)(n * size));
    for (int i = 0; i < n; i++)
        if (k >> i & 1) memcpy((char *)out + i * size, (const char *)p + i * size, (size_t)size);
}
static inline simde__m512i emu512_maskz_loadu_epi8(uint64_t k, const void *p)
{
    int8_t r[64];
    emu512_masked(r, NULL, k, p, 64, 1);
    return emu512_load(r);
}
static inline simde__m512i emu512_mask_loadu_epi8(simde__m512i src, uint64_t k, const void *p)
{
    int8_t s[64], r[64];
    emu512_store(s, src);
    emu512_masked(r, s, k, p, 64, 1);
    return emu512_load(r);
}
static inline simde__m512i emu512_maskz_loadu_epi32(uint16_t k, const void *p)
{
    int32_t r[16];
    emu512_masked(r, NULL, k, p, 16, 4);
    return emu512_load(r);
}
static inline simde__m512 emu512_maskz_loadu_ps(uint16_t k, const void *p)
{
    float r[16];
    emu512_masked(r, NULL, k, p, 16, 4);
    return emu512_load_ps(r);
}
static inline __m128 emu512_maskz_loadu_ps128(uint8_t k, const void *p)
{
    float r[4];
    emu512_masked(r, NULL, k, p, 4, 4);
    return _mm_loadu_ps(r);
}
static inline __m256i emu512_maskz_loadu_epi8_256(uint32_t k, const void *p)
{
    int8_t r[32];
    emu512_masked(r, NULL, k, p, 32, 1);
    return _mm256_loadu_si256((const __m256i *)r);
}
static inline __m256i emu512_mask_loadu_epi8_256(__m256i src, uint32_t k, const void *p)
{
    int8_t s[32], r[32];
    _mm256_storeu_si256((__m256i *)s, src);
    emu512_masked(r, s, k, p, 32, 1);
    return _mm256_loadu_si256((const __m256i *)r);
}
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8 emu512_maskz_loadu_epi8
#undef _mm512_mask_loadu_epi8
#define _mm512_mask_loadu_epi8 emu512_mask_loadu_epi8
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32 emu512_maskz_loadu_epi32
#undef _mm512_maskz_loadu_ps
#define _mm512_maskz_loadu_ps emu512_maskz_loadu_ps
#undef _mm_maskz_loadu_ps
#define _mm_maskz_loadu_ps emu512_maskz_loadu_ps128
#undef _mm256_maskz_loadu_epi8
#define _mm256_maskz_loadu_epi8 emu512_maskz_loadu_epi8_256
#undef _mm256_mask_loadu_epi8
#define _mm256_mask_loadu_epi8 emu512_mask_loadu_epi8_256

/* Each odd element twice (vmovshdup). */
static inline simde__m512 emu512_movehdup_ps(simde__m512 a)
{
    float v[16];
    emu512_store_ps(v, a);
    for (int i = 0; i < 16; i += 2) v[i] = v[i + 1];
    return emu512_load_ps(v);
}
#undef _mm512_movehdup_ps
#define _mm512_movehdup_ps emu512_movehdup_ps

/* In each 128-bit lane, element j is the lane's element (imm >> 2j) & 3 (vpermilps). */
static inline simde__m512 emu512_permute_ps(simde__m512 a, int imm)
{
    float v[16], r[16];
    emu512_store_ps(v, a);
    for (int i = 0; i < 16; i++) r[i] = v[(i & ~3) + (imm >> 2 * (i & 3) & 3)];
    return emu512_load_ps(r);
}
#undef _mm512_permute_ps
#define _mm512_permute_ps emu512_permute_ps

/* Bit i set where lane i of a is below lane i of b, unsigned (vpcmpud). */
static inline uint16_t emu512_cmplt_epu32_mask(simde__m512i a, simde__m512i b)
{
    uint32_t x[16], y[16];
    emu512_store(x, a), emu512_store(y, b);
    uint16_t k = 0;
    for (int i = 0; i < 16; i++) k |= (uint16_t)((x[i] < y[i]) << i);
    return k;
}
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask emu512_cmplt_epu32_mask

/* The low 32 bits of each lane's product (vpmulld; SIMDe 0.7.4's loop multiplies signed ints,
   whose overflow UndefinedBehaviorSanitizer rightly reports). */
static inline simde__m512i emu512_mullo_epi32(simde__m512i a, simde__m512i b)
{
    uint32_t x[16], y[16];
    emu512_store(x, a), emu512_store(y, b);
    for (int i = 0; i < 16; i++) x[i] *= y[i];
    return emu512_load(x);
}
#undef _mm512_mullo_epi32
#define _mm512_mullo_epi32 emu512_mullo_epi32

/* The 16 floats of a as halves, rounded as imm says (vcvtps2ph, eight at a time with F16C). */
#define emu512_cvtps_ph(a, imm)                                                                          \
    __extension__({                                                                                      \
        float emu512_f_[16];                                                                             \
        emu512_store_ps(emu512_f_, (a));                                                                 \
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvtps_ph(_mm256_loadu_ps(emu512_f_), (imm))), \
                                _mm256_cvtps_ph(_mm256_loadu_ps(emu512_f_ + 8), (imm)), 1);              \
    })
#undef _mm512_cvtps_ph
#define _mm512_cvtps_ph emu512_cvtps_ph

/* Each lane's low 16 bits (vpmovdw truncates). */
static inline __m256i emu512_cvtepi32_epi16(simde__m512i a)
{
    uint32_t v[16];
    uint16_t r[16];
    emu512_store(v, a);
    for (int i = 0; i < 16; i++) r[i] = (uint16_t)v[i];
    return _mm256_loadu_si256((const __m256i *)r);
}
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16 emu512_cvtepi32_epi16

/* The 16 words of a, zero-extended (vpmovzxwd). */
static inline simde__m512i emu512_cvtepu16_epi32(__m256i a)
{
    uint16_t v[16];
    uint32_t r[16];
    _mm256_storeu_si256((__m256i *)v, a);
    for (int i = 0; i < 16; i++) r[i] = v[i];
    return emu512_load(r);
}
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32 emu512_cvtepu16_epi32

/* The eight floats of a widened to doubles (vcvtps2pd). */
static inline simde__m512d emu512_cvtps_pd(__m256 a)
{
    double r[8];
    _mm256_storeu_pd(r, _mm256_cvtps_pd(_mm256_castps256_ps128(a)));
    _mm256_storeu_pd(r + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)));
    return simde_mm512_loadu_pd(r);
}
#undef _mm512_cvtps_pd
#define _mm512_cvtps_pd emu512_cvtps_pd

/* The n elements of size bytes at v stored at p where k has a bit; only those bytes are
   written (a masked store). */
static inline void emu512_masked_store(void *p, const void *v, uint64_t k, int n, int size)
{
    for (int i = 0; i < n; i++)
        if (k >> i & 1) memcpy((char *)p + i * size, (const char *)v + i * size, (size_t)size);
}
static inline void emu512_mask_storeu_ps(void *p, uint16_t k, simde__m512 a)
{
    float v[16];
    emu512_store_ps(v, a);
    emu512_masked_store(p, v, k, 16, 4);
}
static inline void emu512_mask_storeu_pd(void *p, uint8_t k, simde__m512d a)
{
    double v[8];
    simde_mm512_storeu_pd(v, a);
    emu512_masked_store(p, v, k, 8, 8);
}
#undef _mm512_mask_storeu_ps
#define _mm512_mask_storeu_ps emu512_mask_storeu_ps
#undef _mm512_mask_storeu_pd
#define _mm512_mask_storeu_pd emu512_mask_storeu_pd

/* A store around the caches (vmovntps, vmovntpd): p must be 64-byte aligned, as the hardware
   requires. */
static inline void emu512_aligned(const void *p)
{
    if ((uintptr_t)p % 64) __builtin_trap();
}
static inline void emu512_stream_ps(float *p, simde__m512 a) { emu512_aligned(p), emu512_store_ps(p, a); }
static inline void emu512_stream_pd(double *p, simde__m512d a) { emu512_aligned(p), simde_mm512_storeu_pd(p, a); }
#undef _mm512_stream_ps
#define _mm512_stream_ps emu512_stream_ps
#undef _mm512_stream_pd
#define _mm512_stream_pd emu512_stream_pd

/* Bit i set where lanes i of a and b differ (vpcmpd, not equal). */
static inline uint16_t emu512_cmpneq_epi32_mask(simde__m512i a, simde__m512i b)
{
    int32_t x[16], y[16];
    emu512_store(x, a), emu512_store(y, b);
    uint16_t k = 0;
    for (int i = 0; i < 16; i++)
        if (x[i] != y[i]) k |= (uint16_t)(1u << i);
    return k;
}
#undef _mm512_cmpneq_epi32_mask
#define _mm512_cmpneq_epi32_mask emu512_cmpneq_epi32_mask

/* The eight doubles of a rounded to floats in the rounding mode (vcvtpd2ps). */
static inline __m256 emu512_cvtpd_ps(simde__m512d a)
{
    double v[8];
    simde_mm512_storeu_pd(v, a);
    return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(v + 4)), _mm256_cvtpd_ps(_mm256_loadu_pd(v)));
}
#undef _mm512_cvtpd_ps
#define _mm512_cvtpd_ps emu512_cvtpd_ps

/* src with the lanes k selects taken in order from the floats at p, only as many read as k
   has bits (vexpandps). */
static inline simde__m512 emu512_mask_expandloadu_ps(simde__m512 src, uint16_t k, const void *p)
{
    float v[16];
    const char *q = p;
    emu512_store_ps(v, src);
    for (int i = 0; i < 16; i++)
        if (k >> i & 1) memcpy(&v[i], q, 4), q += 4;
    return emu512_load_ps(v);
}
#undef _mm512_mask_expandloadu_ps
#define _mm512_mask_expandloadu_ps emu512_mask_expandloadu_ps

/* The doubles at p where k has a bit, zeros elsewhere; only those read. */
static inline simde__m512d emu512_maskz_loadu_pd(uint8_t k, const void *p)
{
    double r[8];
    emu512_masked(r, NULL, k, p, 8, 8);
    return simde_mm512_loadu_pd(r);
}
#undef _mm512_maskz_loadu_pd
#define _mm512_maskz_loadu_pd emu512_maskz_loadu_pd

/* The reductions of 16 floats or 8 doubles in the order GCC's avx512fintrin.h takes (halves,
   then quarters, then pairs), with the AVX and SSE operations it names. */
#define EMU512_REDUCE_PS(NAME, OP256, OP128)                                                \
    static inline float NAME(simde__m512 a)                                                 \
    {                                                                                       \
        float v[16];                                                                        \
        emu512_store_ps(v, a);                                                              \
        __m256 t3 = OP256(_mm256_loadu_ps(v + 8), _mm256_loadu_ps(v));                      \
        __m128 t6 = OP128(_mm256_extractf128_ps(t3, 1), _mm256_castps256_ps128(t3));        \
        __m128 t8 = OP128(t6, _mm_shuffle_ps(t6, t6, _MM_SHUFFLE(1, 0, 3, 2)));             \
        __m128 t10 = OP128(t8, _mm_shuffle_ps(t8, t8, _MM_SHUFFLE(0, 1, 0, 1)));            \
        return _mm_cvtss_f32(t10);                                                          \
    }
#define EMU512_REDUCE_PD(NAME, OP256, OP128)                                                \
    static inline double NAME(simde__m512d a)                                               \
    {                                                                                       \
        double v[8];                                                                        \
        simde_mm512_storeu_pd(v, a);                                                        \
        __m256d t3 = OP256(_mm256_loadu_pd(v + 4), _mm256_loadu_pd(v));                     \
        __m128d t6 = OP128(_mm256_extractf128_pd(t3, 1), _mm256_castpd256_pd128(t3));       \
        __m128d t8 = OP128(t6, _mm_shuffle_pd(t6, t6, 1));                                  \
        return _mm_cvtsd_f64(t8);                                                           \
    }
EMU512_REDUCE_PS(emu512_reduce_min_ps, _mm256_min_ps, _mm_min_ps)
EMU512_REDUCE_PS(emu512_reduce_max_ps, _mm256_max_ps, _mm_max_ps)
EMU512_REDUCE_PD(emu512_reduce_min_pd, _mm256_min_pd, _mm_min_pd)
EMU512_REDUCE_PD(emu512_reduce_max_pd, _mm256_max_pd, _mm_max_pd)
#undef _mm512_reduce_min_ps
#define _mm512_reduce_min_ps emu512_reduce_min_ps
#undef _mm512_reduce_max_ps
#define _mm512_reduce_max_ps emu512_reduce_max_ps
#undef _mm512_reduce_min_pd
#define _mm512_reduce_min_pd emu512_reduce_min_pd
#undef _mm512_reduce_max_pd
#define _mm512_reduce_max_pd emu512_reduce_max_pd

/* The sum of 16 floats as GCC's _mm512_reduce_add_ps adds them: halves, quarters, pairs. */
static inline float emu512_reduce_add_ps(simde__m512 a)
{
    float v[16];
    emu512_store_ps(v, a);
    __m256 t3 = _mm256_add_ps(_mm256_loadu_ps(v + 8), _mm256_loadu_ps(v));
    __m128 t6 = _mm_add_ps(_mm256_extractf128_ps(t3, 1), _mm256_castps256_ps128(t3));
    __m128 t8 = _mm_add_ps(t6, _mm_shuffle_ps(t6, t6, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(t8) + _mm_cvtss_f32(_mm_shuffle_ps(t8, t8, 1));
}
#undef _mm512_reduce_add_ps
#define _mm512_reduce_add_ps emu512_reduce_add_ps

/* A 16-float or 8-double SLEEF function as its AVX2 form f on each half (simd_x86.c's calls
   under the emulation: SLEEF's AVX-512 functions would not run here). */
static inline simde__m512 emu512_halves_ps(__m256 (*f)(__m256), simde__m512 x)
{
    float v[16];
    emu512_store_ps(v, x);
    _mm256_storeu_ps(v, f(_mm256_loadu_ps(v)));
    _mm256_storeu_ps(v + 8, f(_mm256_loadu_ps(v + 8)));
    return emu512_load_ps(v);
}
static inline simde__m512d emu512_halves_pd(__m256d (*f)(__m256d), simde__m512d x)
{
    double v[8];
    simde_mm512_storeu_pd(v, x);
    _mm256_storeu_pd(v, f(_mm256_loadu_pd(v)));
    _mm256_storeu_pd(v + 4, f(_mm256_loadu_pd(v + 4)));
    return simde_mm512_loadu_pd(v);
}

#endif
