/* kernels/simd_avx2.c — simd_x86.c's loops in AVX2 (SLEEF transcendentals, + - * /, min/max, softmax rows), where the CPU lacks AVX-512 */
#include <math.h>
#include <string.h>

#include "kern.h"
#include "simd_x86.h"

/* simd_x86.c's AVX-512 loops run 16 floats or 8 doubles a step; a CPU with AVX2 and FMA alone
   (a Zen 3, most laptops) ran the portable loops, each value through the C library: tanh of 10^7
   floats took 1.5x numpy's time on a Zen 3. These are the same loops eight floats or four
   doubles a step: SLEEF's AVX2 functions for its columns of unop_list.h, and for the OWN
   ones the AVX-512 kernels' operations lane for lane (tanh16's, scalef's scaling done as an
   exponent add, exact in its range; sigmoid, silu and gelu_tanh around SLEEF's AVX2 exp;
   gelu16's, the portable loop's bits for all 2^32 inputs: unit_gelu). With them, on a Zen 3,
   10^7 floats: tanh 144 -> 5.0 ms, exp 25 -> 5.8, sin 66 -> 8.2, gelu 143 -> 19. */

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>
#include <sleef.h>

#include "../dynlib.h"

#ifndef TL_SLEEF_LIBRARY_DEFAULT
#define TL_SLEEF_LIBRARY_DEFAULT "libsleef.so.3"
#endif

/* SLEEF's AVX2 entry points these loops call: the SLEEF columns of unop_list.h, and exp in
   double for the OWN exp. Opened on first use, as simd_x86.c opens the AVX-512 ones. */
#define SLEEF8_SYMS_ROW(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) \
    SLEEF8_APPLY(SYM8F_##SIMDF, arg, STEM) SLEEF8_APPLY(SYM4D_##SIMDD, arg, STEM)
#define SLEEF8_APPLY(M, ...) M(__VA_ARGS__)
#define SYM8F_SLEEF(X, STEM) X(Sleef_##STEM##f8_u10avx2)
#define SYM8F_SLEEF15(X, STEM) X(Sleef_##STEM##f8_u15avx2)
#define SYM4D_SLEEF(X, STEM) X(Sleef_##STEM##d4_u10avx2)
#define SYM4D_SLEEF15(X, STEM) X(Sleef_##STEM##d4_u15avx2)
#define SYM8F_OWN(...)
#define SYM8F_NONE(...)
#define SYM4D_OWN(...)
#define SYM4D_NONE(...)
#define SLEEF8_FNS(X) TL_UNOP_LIST(SLEEF8_SYMS_ROW, X) X(Sleef_expd4_u10avx2)
#define SLEEF8_POINTER(name) __typeof__(name) *name;
static struct { SLEEF8_FNS(SLEEF8_POINTER) } sleef8;
static tl_dynlib sleef8_lib = TL_DYNLIB_INIT;

/* Loads SLEEF's AVX2 functions into `sleef8` (run once). */
static void load_sleef8(void)
{
#define SLEEF8_NAME(name) #name,
#define SLEEF8_SLOT(name) (void **)&sleef8.name,
    static const char *const names[] = { SLEEF8_FNS(SLEEF8_NAME) NULL };
    static void **const slots[] = { SLEEF8_FNS(SLEEF8_SLOT) NULL };
    if (tl_dynlib_open(&sleef8_lib, "SLEEF", "TL_SLEEF_LIBRARY", TL_SLEEF_LIBRARY_DEFAULT, names, slots))
        sleef8_lib.status = 0;
}

/* The first `left` lanes of four doubles (64-bit lanes; eight floats': simd_x86.h's tl_lanes8). */
static inline __m256i lanes_f64(int64_t left)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(left), _mm256_setr_epi64x(0, 1, 2, 3));
}

/* A loop over contiguous runs L lanes at a time, the tail under a mask (maskload reads no
   element outside it); strided runs take the portable loop for the op. */
#define SIMD8_LOOP(NAME, OP, T, DT, VT, L, LOADU, MLOAD, STOREU, MSTORE, LANES, BODY)               \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)                             \
    {                                                                                              \
        if (s[0] != sizeof(T) || s[1] != sizeof(T)) {                                             \
            tl_unary_loop(OP, DT)(n, p, s, aux);                                                   \
            return;                                                                                \
        }                                                                                          \
        T *o = (T *)p[0];                                                                          \
        const T *a = (const T *)p[1];                                                              \
        int64_t i = 0;                                                                             \
        for (; i + L <= n; i += L) {                                                               \
            VT x = LOADU(a + i);                                                                   \
            BODY;                                                                                  \
            STOREU(o + i, x);                                                                      \
        }                                                                                          \
        if (i < n) {                                                                               \
            __m256i m = LANES(n - i);                                                              \
            VT x = MLOAD(a + i, m);                                                                \
            BODY;                                                                                  \
            MSTORE(o + i, m, x);                                                                   \
        }                                                                                          \
    }
#define SIMD8_LOOP_F32(NAME, OP, BODY)                                                              \
    SIMD8_LOOP(NAME, OP, float, TL_F32, __m256, 8, _mm256_loadu_ps, _mm256_maskload_ps, _mm256_storeu_ps, \
               _mm256_maskstore_ps, tl_lanes8, BODY)
#define SIMD4_LOOP_F64(NAME, OP, BODY)                                                              \
    SIMD8_LOOP(NAME, OP, double, TL_F64, __m256d, 4, _mm256_loadu_pd, _mm256_maskload_pd, _mm256_storeu_pd, \
               _mm256_maskstore_pd, lanes_f64, BODY)

/* |x| (the sign bit cleared). */
static inline __m256 abs8(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }

/* sigmoid16's operations: e = exp(-|x|); 1/(1+e) for x >= 0, e/(1+e) below. */
static inline __m256 sigmoid8(__m256 x)
{
    __m256 one = _mm256_set1_ps(1.0f);
    __m256 e = sleef8.Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), abs8(x)));
    __m256 neg = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
    return _mm256_div_ps(_mm256_blendv_ps(one, e, neg), _mm256_add_ps(one, e));
}

/* exp_for_tanh's operations for 0 <= y <= 20: k <= 29 and 0.7 < p < 1.5, so p 2^k (scalef there)
   is p with k added to its exponent, exactly (a NaN y: a NaN k converts to 0x80000000, which
   shifted by 23 adds nothing to the NaN p). */
static inline __m256 exp_for_tanh8(__m256 y)
{
    __m256 k = _mm256_round_ps(_mm256_mul_ps(y, _mm256_set1_ps(1.44269504088896341f)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(TL_TANH_LN2_HI), y);
    r = _mm256_fnmadd_ps(k, _mm256_set1_ps(TL_TANH_LN2_LO), r);
    __m256 p = _mm256_set1_ps(tl_tanh_exp[0]);
    for (int i = 1; i < 8; i++) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(tl_tanh_exp[i]));
    return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(p), _mm256_slli_epi32(_mm256_cvtps_epi32(k), 23)));
}

/* tanh16's operations (simd_x86.c: within 1 ulp over all floats). */
static inline __m256 tanh8(__m256 x)
{
    __m256 ax = _mm256_min_ps(_mm256_set1_ps(10.0f), abs8(x));
    __m256 e = exp_for_tanh8(_mm256_add_ps(ax, ax));
    __m256 big = _mm256_sub_ps(_mm256_set1_ps(1.0f),
                               _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, _mm256_set1_ps(1.0f))));
    __m256 z = _mm256_mul_ps(ax, ax);
    __m256 p = _mm256_set1_ps(tl_tanh_p[0]);
    for (int i = 1; i < 6; i++) p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(tl_tanh_p[i]));
    __m256 small = _mm256_cmp_ps(ax, _mm256_set1_ps(0.55f), _CMP_LT_OQ);
    __m256 r = _mm256_blendv_ps(big, _mm256_mul_ps(ax, p), small);
    return _mm256_or_ps(r, _mm256_and_ps(x, _mm256_set1_ps(-0.0f)));
}

/* gelu_tanh16's operations: 0.5 x (1 + tanh u) = x sigmoid(2u). */
static inline __m256 gelu_tanh8(__m256 x)
{
    __m256 x3 = _mm256_mul_ps(_mm256_mul_ps(x, x), x);
    __m256 inner = _mm256_mul_ps(_mm256_set1_ps(2 * 0.79788456080286535588f),
                                 _mm256_fmadd_ps(_mm256_set1_ps(0.044715f), x3, x));
    return _mm256_mul_ps(x, sigmoid8(inner));
}

/* gelu16's operations (simd_x86.c: the portable loop's bits for every input), four doubles
   at a time: x Phi(x) in double to about 3e-11, rounded to f32 from both ends of a bracket;
   lanes whose ends round apart go to the portable loop. The tables are simd_x86.c's. */
static inline __m256d horner4d(const double *c, int n, __m256d s)
{
    __m256d v = _mm256_set1_pd(c[n - 1]);
    for (int i = n - 2; i >= 0; i--) v = _mm256_fmadd_pd(v, s, _mm256_set1_pd(c[i]));
    return v;
}

/* gelu8d_approx's operations; its scalef(v, k), k an integer in [-152, 0] (|x| <= 14.5) and v
   near 1, is v with k added to its exponent, exactly. */
static inline __m256d gelu4d_approx(__m256d x)
{
    __m256d amax = _mm256_set1_pd(TL_GELU_AMAX), one = _mm256_set1_pd(1.0);
    __m256d a = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    __m256d ac = _mm256_min_pd(a, amax); /* NaN gives amax: x carries it to the result */
    __m256d t = _mm256_mul_pd(_mm256_mul_pd(ac, ac), _mm256_set1_pd(-0.5));
    __m256d k = _mm256_round_pd(_mm256_mul_pd(t, _mm256_set1_pd(0x1.71547652b82fep+0)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.62e42fefa39efp-1), t);
    r = _mm256_fnmadd_pd(k, _mm256_set1_pd(0x1.abc9e3b39803fp-56), r);
    __m256d v = _mm256_fmadd_pd(horner4d(tl_gelu_exp, 8, r), r, one);
    __m256i k64 = _mm256_slli_epi64(_mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(k)), 52);
    __m256d e = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(v), k64));
    __m256d s = _mm256_fmsub_pd(ac, _mm256_set1_pd(2 / TL_GELU_AMAX), one);
    __m256d p = _mm256_mul_pd(e, _mm256_div_pd(horner4d(tl_gelu_rnum, 9, s), horner4d(tl_gelu_rden, 9, s)));
    p = _mm256_and_pd(p, _mm256_cmp_pd(a, amax, _CMP_LE_OQ));
    __m256d neg = _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ);
    return _mm256_mul_pd(x, _mm256_blendv_pd(_mm256_sub_pd(one, p), p, neg));
}

/* f32 rounding of eight doubles (two halves) scaled by f. */
static inline __m256 round8(__m256d lo, __m256d hi, __m256d f)
{
    return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_mul_pd(hi, f)), _mm256_cvtpd_ps(_mm256_mul_pd(lo, f)));
}

/* The lanes `hard` (a bit each) of gelu8, by the portable loop (rare: kept out of the hot loop). */
__attribute__((noinline, cold)) static __m256 gelu8_hard(__m256 x, __m256 r, int hard)
{
    float in[8], out[8];
    _mm256_storeu_ps(in, x);
    _mm256_storeu_ps(out, r);
    const int64_t s[2] = { sizeof(float), sizeof(float) };
    for (int l = 0; l < 8; l++)
        if (hard >> l & 1) {
            char *p[2] = { (char *)&out[l], (char *)&in[l] };
            tl_unary_loop(TL_GELU, TL_F32)(1, p, s, NULL);
        }
    return _mm256_loadu_ps(out);
}

static inline __m256 gelu8(__m256 x)
{
    __m256d lo = gelu4d_approx(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));
    __m256d hi = gelu4d_approx(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
    __m256 down = round8(lo, hi, _mm256_set1_pd(1 - 0x1p-34)), up = round8(lo, hi, _mm256_set1_pd(1 + 0x1p-34));
    int hard = _mm256_movemask_ps(_mm256_castsi256_ps(
        _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_castps_si256(down), _mm256_castps_si256(up)), _mm256_set1_epi32(-1))));
    return hard ? gelu8_hard(x, down, hard) : down;
}

/* exp8d's fix: SLEEF's exp overflows a little early in f64, so the lanes above 709 take exp(). */
static inline __m256d exp4d(__m256d x)
{
    __m256d r = sleef8.Sleef_expd4_u10avx2(x);
    if (_mm256_movemask_pd(_mm256_cmp_pd(x, _mm256_set1_pd(709.0), _CMP_GT_OQ))) {
        double xs[4], rs[4];
        _mm256_storeu_pd(xs, x);
        _mm256_storeu_pd(rs, r);
        for (int i = 0; i < 4; i++)
            if (xs[i] > 709.0) rs[i] = exp(xs[i]);
        r = _mm256_loadu_pd(rs);
    }
    return r;
}

static inline __m256 sqrt8(__m256 x) { return _mm256_sqrt_ps(x); }
static inline __m256d sqrt4d(__m256d x) { return _mm256_sqrt_pd(x); }
static inline __m256 silu8(__m256 x) { return _mm256_mul_ps(x, sigmoid8(x)); }

/* The loops of the SIMDF and SIMDD columns of unop_list.h. */
#define SIMD8_APPLY(M, ...) M(__VA_ARGS__)
#define SIMD8_LOOPS(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) \
    SIMD8_APPLY(SIMD8F_##SIMDF, ENUM, STEM) SIMD8_APPLY(SIMD4D_##SIMDD, ENUM, STEM)
#define SIMD8F_OWN(ENUM, STEM) SIMD8_LOOP_F32(STEM##_f32x8, ENUM, x = STEM##8(x))
#define SIMD8F_SLEEF(ENUM, STEM) SIMD8_LOOP_F32(STEM##_f32x8, ENUM, x = sleef8.Sleef_##STEM##f8_u10avx2(x))
#define SIMD8F_SLEEF15(ENUM, STEM) SIMD8_LOOP_F32(STEM##_f32x8, ENUM, x = sleef8.Sleef_##STEM##f8_u15avx2(x))
#define SIMD8F_NONE(...)
#define SIMD4D_OWN(ENUM, STEM) SIMD4_LOOP_F64(STEM##_f64x4, ENUM, x = STEM##4d(x))
#define SIMD4D_SLEEF(ENUM, STEM) SIMD4_LOOP_F64(STEM##_f64x4, ENUM, x = sleef8.Sleef_##STEM##d4_u10avx2(x))
#define SIMD4D_SLEEF15(ENUM, STEM) SIMD4_LOOP_F64(STEM##_f64x4, ENUM, x = sleef8.Sleef_##STEM##d4_u15avx2(x))
#define SIMD4D_NONE(...)
TL_UNOP_LIST(SIMD8_LOOPS, )

#define SIMD8_F32_CELL(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, ...) \
    SIMD8_APPLY(CELL8_##SIMDF, ENUM, STEM##_f32x8)
#define SIMD4_F64_CELL(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) \
    SIMD8_APPLY(CELL8_##SIMDD, ENUM, STEM##_f64x4)
#define CELL8_OWN(ENUM, FN) [ENUM] = FN,
#define CELL8_SLEEF CELL8_OWN
#define CELL8_SLEEF15 CELL8_OWN
#define CELL8_NONE(...)
static const tl_inner_fn simd8_f32[TL_NUNOPS] = { TL_UNOP_LIST(SIMD8_F32_CELL, ) };
static const tl_inner_fn simd4_f64[TL_NUNOPS] = { TL_UNOP_LIST(SIMD4_F64_CELL, ) };

/* ---- + - * / (simd_x86.c's SIMD_BIN, eight floats or four doubles a step) ------------------ */

/* o = a OP b over contiguous or scalar-broadcast runs (not both scalars); strided runs take the
   portable loop. With the streaming hint (outputs larger than the caches) the elements up to a
   32-byte boundary of o go one by one, then stores bypass the cache, which saves reading each
   output line before overwriting it; the tail goes one by one, so that a short run never loads
   what a masked store just wrote. */
#define SIMD8_BIN(NAME, OP, T, DT, VT, L, LOADU, STOREU, STREAM, SET1, VOP, SOP)                      \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)                             \
    {                                                                                              \
        bool bscalar = s[2] == 0, ascalar = s[1] == 0;                                             \
        if (s[0] != sizeof(T) || (s[1] != sizeof(T) && !ascalar) || (s[2] != sizeof(T) && !bscalar) || \
            (ascalar && bscalar)) {                                                                \
            tl_binary_loop(OP, DT)(n, p, s, aux);                                                  \
            return;                                                                                \
        }                                                                                          \
        T *o = (T *)p[0];                                                                          \
        const T *a = (const T *)p[1], *b = (const T *)p[2];                                        \
        VT va = SET1(ascalar ? *a : (T)0), vb = SET1(bscalar ? *b : (T)0);                         \
        bool stream = aux && ((const tl_simd_hint *)aux)->stream && (uintptr_t)o % sizeof(T) == 0; \
        int64_t i = 0;                                                                             \
        if (stream) {                                                                              \
            for (; i < n && (uintptr_t)(o + i) % 32 != 0; i++)                                     \
                o[i] = (ascalar ? *a : a[i]) SOP (bscalar ? *b : b[i]);                            \
            for (; i + L <= n; i += L) {                                                           \
                VT x = ascalar ? va : LOADU(a + i), y = bscalar ? vb : LOADU(b + i);               \
                STREAM(o + i, VOP(x, y));                                                          \
            }                                                                                      \
            _mm_sfence();                                                                          \
        }                                                                                          \
        for (; i + L <= n; i += L) {                                                               \
            VT x = ascalar ? va : LOADU(a + i), y = bscalar ? vb : LOADU(b + i);                   \
            STOREU(o + i, VOP(x, y));                                                              \
        }                                                                                          \
        for (; i < n; i++) o[i] = (ascalar ? *a : a[i]) SOP (bscalar ? *b : b[i]);                 \
    }
#define SIMD8_BIN_F32(NAME, OP, VOP, SOP)                                                           \
    SIMD8_BIN(NAME, OP, float, TL_F32, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_stream_ps, \
              _mm256_set1_ps, VOP, SOP)
#define SIMD4_BIN_F64(NAME, OP, VOP, SOP)                                                           \
    SIMD8_BIN(NAME, OP, double, TL_F64, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_stream_pd, \
              _mm256_set1_pd, VOP, SOP)
SIMD8_BIN_F32(add8_f32, TL_ADD, _mm256_add_ps, +)
SIMD8_BIN_F32(sub8_f32, TL_SUB, _mm256_sub_ps, -)
SIMD8_BIN_F32(mul8_f32, TL_MUL, _mm256_mul_ps, *)
SIMD8_BIN_F32(div8_f32, TL_DIV, _mm256_div_ps, /)
SIMD4_BIN_F64(add4_f64, TL_ADD, _mm256_add_pd, +)
SIMD4_BIN_F64(sub4_f64, TL_SUB, _mm256_sub_pd, -)
SIMD4_BIN_F64(mul4_f64, TL_MUL, _mm256_mul_pd, *)
SIMD4_BIN_F64(div4_f64, TL_DIV, _mm256_div_pd, /)

static const tl_inner_fn simd8_bin_f32[TL_NBINOPS] = {
    [TL_ADD] = add8_f32, [TL_SUB] = sub8_f32, [TL_MUL] = mul8_f32, [TL_DIV] = div8_f32,
};
static const tl_inner_fn simd4_bin_f64[TL_NBINOPS] = {
    [TL_ADD] = add4_f64, [TL_SUB] = sub4_f64, [TL_MUL] = mul4_f64, [TL_DIV] = div4_f64,
};

/* ---- reductions and softmax's steps (simd_x86.c's, eight lanes) ---------------------------- */

/* min or max of n >= 2L contiguous values, L lanes a vector in two sets; a NaN anywhere gives
   NaN (tested apart: max_ps drops NaNs). Exact in any lane order. */
#define MINMAX8(NAME, T, VT, L, LOAD, OP, SOP, UNORD, MOVEMASK, HALVES)                              \
    static T NAME(const T *v, int64_t n)                                                           \
    {                                                                                              \
        VT m = LOAD(v), m2 = LOAD(v + L), nan = UNORD(m, m2);                                      \
        int64_t i = 2 * L;                                                                         \
        for (; i + 2 * L <= n; i += 2 * L) {                                                       \
            VT x = LOAD(v + i), y = LOAD(v + i + L);                                               \
            nan = (VT)_mm256_or_ps((__m256)nan, (__m256)UNORD(x, y));                              \
            m = OP(m, x), m2 = OP(m2, y);                                                          \
        }                                                                                          \
        T lane[L];                                                                                 \
        HALVES(lane, OP(m, m2));                                                                   \
        T best = lane[0];                                                                          \
        for (int l = 1; l < L; l++) best = SOP(best, lane[l]);                                     \
        bool any = MOVEMASK(nan) != 0;                                                             \
        for (; i < n; i++) {                                                                       \
            if (v[i] != v[i]) any = true;                                                          \
            best = SOP(best, v[i]);                                                                \
        }                                                                                          \
        return any ? (T)NAN : best;                                                                \
    }
#define UNORD_PS(a, b) _mm256_or_ps(_mm256_cmp_ps(a, a, _CMP_UNORD_Q), _mm256_cmp_ps(b, b, _CMP_UNORD_Q))
#define UNORD_PD(a, b) _mm256_or_pd(_mm256_cmp_pd(a, a, _CMP_UNORD_Q), _mm256_cmp_pd(b, b, _CMP_UNORD_Q))
#define MAX_S(a, b) ((b) > (a) ? (b) : (a))
#define MIN_S(a, b) ((b) < (a) ? (b) : (a))
#define STORE_PS(p, v) _mm256_storeu_ps(p, v)
#define STORE_PD(p, v) _mm256_storeu_pd(p, v)
#define MASK_PS(v) _mm256_movemask_ps((__m256)(v))
#define MASK_PD(v) _mm256_movemask_pd((__m256d)(v))
MINMAX8(vmax8_f32, float, __m256, 8, _mm256_loadu_ps, _mm256_max_ps, MAX_S, UNORD_PS, MASK_PS, STORE_PS)
MINMAX8(vmin8_f32, float, __m256, 8, _mm256_loadu_ps, _mm256_min_ps, MIN_S, UNORD_PS, MASK_PS, STORE_PS)
MINMAX8(vmax4_f64, double, __m256d, 4, _mm256_loadu_pd, _mm256_max_pd, MAX_S, UNORD_PD, MASK_PD, STORE_PD)
MINMAX8(vmin4_f64, double, __m256d, 4, _mm256_loadu_pd, _mm256_min_pd, MIN_S, UNORD_PD, MASK_PD, STORE_PD)

/* softmax_row_f32_avx512's three passes in eight lanes: max, exp and sum, scale (the sum in
   eight lanes, then the lanes in order: deterministic, a row never splits). */
static void softmax_row8(const float *x, float *y, int64_t D, bool want_log)
{
    float m = D >= 16 ? vmax8_f32(x, D) : x[0];
    for (int64_t i = D >= 16 ? D : 1; i < D; i++) m = (x[i] > m || x[i] != x[i]) ? x[i] : m;
    __m256 vm = _mm256_set1_ps(m), acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= D; i += 8) {
        __m256 e = sleef8.Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), vm));
        _mm256_storeu_ps(y + i, e);
        acc = _mm256_add_ps(acc, e);
    }
    if (i < D) {
        __m256i k = tl_lanes8(D - i);
        __m256 e = sleef8.Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_maskload_ps(x + i, k), vm));
        _mm256_maskstore_ps(y + i, k, e);
        acc = _mm256_add_ps(acc, _mm256_and_ps(e, _mm256_castsi256_ps(k)));
    }
    float lane[8];
    _mm256_storeu_ps(lane, acc);
    float s = lane[0];
    for (int l = 1; l < 8; l++) s += lane[l];
    if (want_log) {
        __m256 sub = _mm256_set1_ps(m + logf(s));
        for (i = 0; i + 8 <= D; i += 8) _mm256_storeu_ps(y + i, _mm256_sub_ps(_mm256_loadu_ps(x + i), sub));
        for (; i < D; i++) y[i] = (x[i] - m) - logf(s);
    } else {
        __m256 vs = _mm256_set1_ps(s);
        for (i = 0; i + 8 <= D; i += 8) _mm256_storeu_ps(y + i, _mm256_div_ps(_mm256_loadu_ps(y + i), vs));
        for (; i < D; i++) y[i] /= s;
    }
}

/* y[i] = exp(x[i] - m), eight floats or four doubles a step. */
static void vexp_sub8_f32(float *y, const float *x, float m, int64_t n)
{
    __m256 vm = _mm256_set1_ps(m);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, sleef8.Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), vm)));
    if (i < n) {
        __m256i k = tl_lanes8(n - i);
        _mm256_maskstore_ps(y + i, k, sleef8.Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_maskload_ps(x + i, k), vm)));
    }
}
static void vexp_sub4_f64(double *y, const double *x, double m, int64_t n)
{
    __m256d vm = _mm256_set1_pd(m);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, exp4d(_mm256_sub_pd(_mm256_loadu_pd(x + i), vm)));
    if (i < n) {
        __m256i k = lanes_f64(n - i);
        _mm256_maskstore_pd(y + i, k, exp4d(_mm256_sub_pd(_mm256_maskload_pd(x + i, k), vm)));
    }
}

#pragma GCC pop_options

/* May the loops here run: AVX2 and FMA, SIMD on, SLEEF's AVX2 functions loaded? */
static bool avx2_loops_usable(void) { return tl_simd_avx2() && tl_dynlib_load(&sleef8_lib, load_sleef8) == 0; }

tl_inner_fn tl_simd_unary_loop_avx2(tl_unop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NUNOPS || !avx2_loops_usable()) return NULL;
    if (cdt == TL_F32) return simd8_f32[op];
    if (cdt == TL_F64) return simd4_f64[op];
    return NULL;
}

tl_inner_fn tl_simd_binary_loop_avx2(tl_binop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NBINOPS || !tl_simd_avx2()) return NULL;
    if (cdt == TL_F32) return simd8_bin_f32[op];
    if (cdt == TL_F64) return simd4_bin_f64[op];
    return NULL;
}

bool tl_simd_minmax_avx2(tl_dtype dt, bool want_max, const void *v, int64_t n, void *out)
{
    if (n < 16 || !tl_simd_avx2()) return false;
    if (dt == TL_F32) *(float *)out = want_max ? vmax8_f32(v, n) : vmin8_f32(v, n);
    else if (dt == TL_F64) *(double *)out = want_max ? vmax4_f64(v, n) : vmin4_f64(v, n);
    else return false;
    return true;
}

bool tl_simd_softmax_row_f32_avx2(const float *x, float *y, int64_t D, bool want_log)
{
    if (!avx2_loops_usable()) return false;
    softmax_row8(x, y, D, want_log);
    return true;
}

bool tl_vexp_sub_avx2(tl_dtype dt, void *y, const void *x, double m, int64_t n)
{
    if (!avx2_loops_usable()) return false;
    if (dt == TL_F32) vexp_sub8_f32(y, x, (float)m, n);
    else vexp_sub4_f64(y, x, m, n);
    return true;
}

#else

tl_inner_fn tl_simd_unary_loop_avx2(tl_unop op, tl_dtype cdt)
{
    (void)op, (void)cdt;
    return NULL;
}
tl_inner_fn tl_simd_binary_loop_avx2(tl_binop op, tl_dtype cdt)
{
    (void)op, (void)cdt;
    return NULL;
}
bool tl_simd_minmax_avx2(tl_dtype dt, bool want_max, const void *v, int64_t n, void *out)
{
    (void)dt, (void)want_max, (void)v, (void)n, (void)out;
    return false;
}
bool tl_simd_softmax_row_f32_avx2(const float *x, float *y, int64_t D, bool want_log)
{
    (void)x, (void)y, (void)D, (void)want_log;
    return false;
}
bool tl_vexp_sub_avx2(tl_dtype dt, void *y, const void *x, double m, int64_t n)
{
    (void)dt, (void)y, (void)x, (void)m, (void)n;
    return false;
}

#endif
