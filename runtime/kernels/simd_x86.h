/* kernels/simd_x86.h — small x86 vector helpers that more than one kernel file uses */
#ifndef TL_SIMD_X86_H
#define TL_SIMD_X86_H

#include <immintrin.h>

/* The sum of v's eight lanes: ((v0 + v4) + (v2 + v6)) + ((v1 + v5) + (v3 + v7)). */
__attribute__((target("avx2,fma"))) static inline float hsum256(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/* The first `left` of eight 32-bit lanes (all of them when left >= 8), as maskload's and
   maskstore's mask. */
__attribute__((target("avx2"), always_inline)) static inline __m256i tl_lanes8(int64_t left)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(left >= 8 ? 8 : (int)left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* The 8 x 8 block v transposed in place: v[q] lane r = old v[r] lane q (small_gemm.c's column
   form, transpose.c's 8 x 8 tiles). */
__attribute__((target("avx2"), always_inline)) static inline void tl_transpose8x8_ps(__m256 v[8])
{
    __m256 t[8], u[8];
    for (int r = 0; r < 8; r += 2) t[r] = _mm256_unpacklo_ps(v[r], v[r + 1]), t[r + 1] = _mm256_unpackhi_ps(v[r], v[r + 1]);
    for (int r = 0; r < 8; r += 4)
        for (int h = 0; h < 2; h++) {
            u[r + 2 * h] = _mm256_shuffle_ps(t[r + h], t[r + 2 + h], 0x44);
            u[r + 2 * h + 1] = _mm256_shuffle_ps(t[r + h], t[r + 2 + h], 0xEE);
        }
    for (int q = 0; q < 4; q++) {
        v[q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x20);
        v[4 + q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x31);
    }
}

/* f32 gelu's double-precision approximation (simd_x86.c's gelu16, simd_avx2.c's gelu8): Phi(-a)
   = e^(-a^2/2) R(a) for a = |x| <= TL_GELU_AMAX, R a degree-8/8 rational (numerator and
   denominator coefficients, constant term first) in s = a (2 / TL_GELU_AMAX) - 1, and e^r for
   |r| <= ln2/2 as 1 + r (c0 + r (c1 + ...)). */
#define TL_GELU_AMAX 14.5
extern const double tl_gelu_rnum[9], tl_gelu_rden[9], tl_gelu_exp[8];

/* f32 tanh's kernels (tanh16, tanh8): tl_tanh_p, highest degree first, the polynomial P of
   |x| P(x^2) below 0.55; above, e^y by y - k ln 2 (ln 2 as TL_TANH_LN2_HI + TL_TANH_LN2_LO)
   and tl_tanh_exp's degree-7 Taylor polynomial, highest degree first. */
extern const float tl_tanh_p[6], tl_tanh_exp[8];
#define TL_TANH_LN2_HI 0.693145751953125f
#define TL_TANH_LN2_LO 1.42860682030941723212e-6f

#endif
