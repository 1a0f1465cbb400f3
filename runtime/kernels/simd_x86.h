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
