/* kernels/simd_x86.c — AVX-512 loops (SLEEF) for transcendental f32/f64 functions, picked at run time (AVX2 ones: simd_avx2.c) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kern.h"
#include "simd_x86.h"

/* clang ignores `#pragma GCC target` (so sleef.h hides its AVX-512 functions): clang builds,
   such as the fuzzers' (docs/fuzzing.md), use the portable loops. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TL_SIMD_X86 1
#else
#define TL_SIMD_X86 0
#endif

#if TL_SIMD_X86

#include "intrinsics.h"   /* unit_kernels_emulated_512 and unit_gelu_emulated_512 run these loops on AVX2 */
#pragma GCC push_options
TL_PRAGMA_TARGET_512("avx512f,avx512dq,avx2,fma")
#include <sleef.h>

#include "../dynlib.h"

/* SLEEF is opened on first use (dlopen), like BLAS: linked, its 900-odd symbol bindings were the
   largest part of the dynamic loader's work at every start. Its entry points are the SLEEF
   columns of unop_list.h plus the two used by hand below, each a pointer typed from sleef.h. */
#ifndef TL_SLEEF_LIBRARY_DEFAULT
#define TL_SLEEF_LIBRARY_DEFAULT "libsleef.so.3"
#endif
#define SLEEF_SYMS_ROW(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) \
    SLEEF_APPLY(SYMF_##SIMDF, arg, STEM) SLEEF_APPLY(SYMD_##SIMDD, arg, STEM)
#define SLEEF_APPLY(M, ...) M(__VA_ARGS__)
/* SLEEF's function STEM (to U ulps) of 16 floats or 8 doubles: its name and its call. Where a
   test emulates AVX-512 (intrinsics.h), SLEEF's 512-bit functions cannot run, so a call is
   the AVX2 function on each half of the vector. */
#ifdef TL_AVX512_EMULATION
#define SLEEF_NAME_F(STEM, U) Sleef_##STEM##f8_##U##avx2
#define SLEEF_NAME_D(STEM, U) Sleef_##STEM##d4_##U##avx2
#define SLEEF_F(STEM, U, x) emu512_halves_ps(sleef.SLEEF_NAME_F(STEM, U), x)
#define SLEEF_D(STEM, U, x) emu512_halves_pd(sleef.SLEEF_NAME_D(STEM, U), x)
#else
#define SLEEF_NAME_F(STEM, U) Sleef_##STEM##f16_##U
#define SLEEF_NAME_D(STEM, U) Sleef_##STEM##d8_##U
#define SLEEF_F(STEM, U, x) sleef.SLEEF_NAME_F(STEM, U)(x)
#define SLEEF_D(STEM, U, x) sleef.SLEEF_NAME_D(STEM, U)(x)
#endif
/* (X of the name expanded first: X may stringize it) */
#define SLEEF_NAMED(X, name) X(name)
#define SYMF_SLEEF(X, STEM) SLEEF_NAMED(X, SLEEF_NAME_F(STEM, u10))
#define SYMF_SLEEF15(X, STEM) SLEEF_NAMED(X, SLEEF_NAME_F(STEM, u15))
#define SYMD_SLEEF(X, STEM) SLEEF_NAMED(X, SLEEF_NAME_D(STEM, u10))
#define SYMD_SLEEF15(X, STEM) SLEEF_NAMED(X, SLEEF_NAME_D(STEM, u15))
#define SYMF_OWN(...)
#define SYMF_NONE(...)
#define SYMD_OWN(...)
#define SYMD_NONE(...)
#define SLEEF_FNS(X) TL_UNOP_LIST(SLEEF_SYMS_ROW, X) SYMD_SLEEF(X, exp) SYMD_SLEEF15(X, erfc)
#define SLEEF_POINTER(name) __typeof__(name) *name;
static struct { SLEEF_FNS(SLEEF_POINTER) } sleef;
static tl_dynlib sleef_lib = TL_DYNLIB_INIT;

/* Loads SLEEF into `sleef` (run once). */
static void load_sleef(void)
{
#define SLEEF_NAME(name) #name,
#define SLEEF_SLOT(name) (void **)&sleef.name,
    static const char *const names[] = { SLEEF_FNS(SLEEF_NAME) NULL };
    static void **const slots[] = { SLEEF_FNS(SLEEF_SLOT) NULL };
    if (tl_dynlib_open(&sleef_lib, "SLEEF", "TL_SLEEF_LIBRARY", TL_SLEEF_LIBRARY_DEFAULT, names, slots)) sleef_lib.status = 0;
}

/* A loop over contiguous runs 16 (f32) or 8 (f64) lanes at a time with a
   masked tail; strided runs fall back to the portable loop for the op. With
   the streaming hint (outputs larger than the caches) stores bypass the cache
   once the output is 64-byte aligned, which saves reading each output line
   before overwriting it. */
#define SIMD_LOOP(NAME, OP, T, DT, VT, L, MT, LOADU, MLOAD, STOREU, MSTORE, STREAM, BODY)  \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)                \
    {                                                                                 \
        if (s[0] != sizeof(T) || s[1] != sizeof(T)) {                                \
            tl_unary_loop(OP, DT)(n, p, s, aux);                                      \
            return;                                                                   \
        }                                                                             \
        T *o = (T *)p[0];                                                             \
        const T *a = (const T *)p[1];                                                 \
        bool stream = aux && ((const tl_simd_hint *)aux)->stream && (uintptr_t)o % sizeof(T) == 0; \
        int64_t i = 0;                                                                \
        if (stream) {                                                                 \
            int64_t head = (int64_t)(((64 - ((uintptr_t)o & 63)) & 63) / sizeof(T)); \
            if (head > n) head = n;                                                   \
            if (head > 0) {                                                           \
                MT m = (MT)((1u << head) - 1);                                        \
                VT x = MLOAD(m, a);                                                   \
                BODY;                                                                 \
                MSTORE(o, m, x);                                                      \
                i = head;                                                             \
            }                                                                         \
            for (; i + L <= n; i += L) {                                              \
                VT x = LOADU(a + i);                                                  \
                BODY;                                                                 \
                STREAM(o + i, x);                                                     \
            }                                                                         \
        }                                                                             \
        for (; i + L <= n; i += L) {                                                  \
            VT x = LOADU(a + i);                                                      \
            BODY;                                                                     \
            STOREU(o + i, x);                                                         \
        }                                                                             \
        if (i < n) {                                                                  \
            MT m = (MT)((1u << (n - i)) - 1);                                         \
            VT x = MLOAD(m, a + i);                                                   \
            BODY;                                                                     \
            MSTORE(o + i, m, x);                                                      \
        }                                                                             \
        if (stream) _mm_sfence();                                                     \
    }
#define SIMD_LOOP_F32(NAME, OP, BODY)                                                 \
    SIMD_LOOP(NAME, OP, float, TL_F32, __m512, 16, __mmask16, _mm512_loadu_ps, _mm512_maskz_loadu_ps, \
              _mm512_storeu_ps, _mm512_mask_storeu_ps, _mm512_stream_ps, BODY)
#define SIMD_LOOP_F64(NAME, OP, BODY)                                                 \
    SIMD_LOOP(NAME, OP, double, TL_F64, __m512d, 8, __mmask8, _mm512_loadu_pd, _mm512_maskz_loadu_pd, \
              _mm512_storeu_pd, _mm512_mask_storeu_pd, _mm512_stream_pd, BODY)

/* Binary + - * / on contiguous or scalar-broadcast f32/f64 runs, same scheme. */
#define SIMD_BIN(NAME, OP, T, DT, VT, L, MT, LOADU, MLOAD, STOREU, MSTORE, STREAM, SET1, VOP, SOP) \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)                \
    {                                                                                 \
        bool bscalar = s[2] == 0, ascalar = s[1] == 0;                                \
        if (s[0] != sizeof(T) || (s[1] != sizeof(T) && !ascalar) || (s[2] != sizeof(T) && !bscalar) || \
            (ascalar && bscalar)) {                                                   \
            tl_binary_loop(OP, DT)(n, p, s, aux);                                     \
            return;                                                                   \
        }                                                                             \
        T *o = (T *)p[0];                                                             \
        const T *a = (const T *)p[1], *b = (const T *)p[2];                           \
        /* read a lone scalar only when there is one: a load of the element  \
           just written by a masked store (x = x + y in a loop) cannot take  \
           the value from the store buffer and waits for the store */         \
        VT va = SET1((T)0), vb = SET1((T)0);                                    \
        if (ascalar) va = SET1(*a);                                           \
        if (bscalar) vb = SET1(*b);                                           \
        bool stream = aux && ((const tl_simd_hint *)aux)->stream && (uintptr_t)o % sizeof(T) == 0; \
        int64_t i = 0;                                                                \
        _Pragma("GCC diagnostic push")                                                \
        _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")                  \
        if (stream) {                                                                 \
            int64_t head = (int64_t)(((64 - ((uintptr_t)o & 63)) & 63) / sizeof(T)); \
            if (head > n) head = n;                                                   \
            if (head > 0) {                                                           \
                MT m = (MT)((1u << head) - 1);                                        \
                VT x = ascalar ? va : MLOAD(m, a), y = bscalar ? vb : MLOAD(m, b);    \
                MSTORE(o, m, VOP(x, y));                                              \
                i = head;                                                             \
            }                                                                         \
            for (; i + L <= n; i += L) {                                              \
                VT x = ascalar ? va : LOADU(a + i), y = bscalar ? vb : LOADU(b + i);  \
                STREAM(o + i, VOP(x, y));                                             \
            }                                                                         \
        }                                                                             \
        for (; i + L <= n; i += L) {                                                  \
            VT x = ascalar ? va : LOADU(a + i), y = bscalar ? vb : LOADU(b + i);      \
            STOREU(o + i, VOP(x, y));                                                 \
        }                                                                             \
        /* the tail element by element: a masked load of what a masked store \
           just wrote (x = x + y over a few elements, in a loop) waits for the \
           store to retire, where plain loads take the stored value at once */ \
        for (; i < n; i++) o[i] = (ascalar ? *a : a[i]) SOP (bscalar ? *b : b[i]);   \
        _Pragma("GCC diagnostic pop")                                                 \
        if (stream) _mm_sfence();                                                     \
    }
#define SIMD_BIN_F32(NAME, OP, VOP, SOP)                                              \
    SIMD_BIN(NAME, OP, float, TL_F32, __m512, 16, __mmask16, _mm512_loadu_ps, _mm512_maskz_loadu_ps, \
             _mm512_storeu_ps, _mm512_mask_storeu_ps, _mm512_stream_ps, _mm512_set1_ps, VOP, SOP)
#define SIMD_BIN_F64(NAME, OP, VOP, SOP)                                              \
    SIMD_BIN(NAME, OP, double, TL_F64, __m512d, 8, __mmask8, _mm512_loadu_pd, _mm512_maskz_loadu_pd, \
             _mm512_storeu_pd, _mm512_mask_storeu_pd, _mm512_stream_pd, _mm512_set1_pd, VOP, SOP)
SIMD_BIN_F32(add_f32, TL_ADD, _mm512_add_ps, +)
SIMD_BIN_F32(sub_f32, TL_SUB, _mm512_sub_ps, -)
SIMD_BIN_F32(mul_f32, TL_MUL, _mm512_mul_ps, *)
SIMD_BIN_F32(div_f32, TL_DIV, _mm512_div_ps, /)
SIMD_BIN_F64(add_f64, TL_ADD, _mm512_add_pd, +)
SIMD_BIN_F64(sub_f64, TL_SUB, _mm512_sub_pd, -)
SIMD_BIN_F64(mul_f64, TL_MUL, _mm512_mul_pd, *)
SIMD_BIN_F64(div_f64, TL_DIV, _mm512_div_pd, /)

/* sigmoid without overflow: e = exp(-|x|); 1/(1+e) for x >= 0, e/(1+e) below. */
static inline __m512 sigmoid16(__m512 x)
{
    __m512 one = _mm512_set1_ps(1.0f);
    __m512 ax = _mm512_abs_ps(x);
    __m512 e = SLEEF_F(exp, u10, _mm512_sub_ps(_mm512_setzero_ps(), ax));
    __m512 d = _mm512_add_ps(one, e);
    __mmask16 neg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_div_ps(_mm512_mask_blend_ps(neg, one, e), d);
}

/* f32 GELU x Phi(x): the bits of the portable loop's 0.5 x erfc(-x/sqrt2) in double rounded
   to f32, about 6.7x faster. Each lane is computed in double to about 3e-11 relative (below),
   then rounded to f32 from both ends of y (1 -+ 2^-34), a bracket holding the exact value and
   the portable loop's: where both ends round alike that is its result, else (0.14% of lanes
   for randn-like inputs; subnormal x, whose x/2 is often a tie) the lane goes to the portable
   loop. The same bits as the portable loop for all 2^32 inputs (docs/runtime.md). */

/* Phi(-a) = e^(-a^2/2) R(a) for a = |x|: R (= Phi(-a) e^(a^2/2)) a degree-8/8 rational in
   s = a (2/14.5) - 1, fitted for relative error over [0, 14.5] (2.8e-11; beyond 14.36,
   gelu(-a) rounds to -0 in f32); e^(-a^2/2) from an exact argument (a^2 of a float is exact
   in double), reduced by ln 2, a degree-8 minimax polynomial (8e-13) scaled by 2^k. */
const double tl_gelu_rnum[9] = {
    0x1.2b22e071e2595p-4, 0x1.9049e2b98f734p-4, -0x1.77dc03e4cfc04p-4, -0x1.93c489a20bf87p-3, -0x1.bc7a3efd4a9b4p-6,
    0x1.ca6630cdd9f97p-4, 0x1.331ca92ed15cap-4, 0x1.e3754ff4aae2fp-7, 0x1.7783586012a93p-26,
};
const double tl_gelu_rden[9] = {
    0x1.5a009964d6a22p+0, 0x1.8e788ca90f8bap+1, 0x1.161c7f1873b40p-4, -0x1.51cd913f20b63p+2, -0x1.03b8ea031078cp+2,
    0x1.8fc592ed6ac46p+0, 0x1.b364df350c461p+1, 0x1.a1761f78035b4p+0, 0x1.128fe4e7b3c0ep-2,
};
const double tl_gelu_exp[8] = { /* e^r = 1 + r (c0 + r (c1 + ...)), |r| <= ln2/2 */
    0x1.ffffffffdac78p-1, 0x1.0000000064b6cp-1, 0x1.5555559c4c506p-3, 0x1.55555430ae439p-5,
    0x1.11108671ef55ap-7, 0x1.6c188a8daab60p-10, 0x1.a1a40b1052ad0p-13, 0x1.9ef349b200bf0p-16,
};

/* Horner's rule over c[0..n-1] (c[0] the constant term) at s. */
static inline __m512d horner8d(const double *c, int n, __m512d s)
{
    __m512d v = _mm512_set1_pd(c[n - 1]);
    for (int i = n - 2; i >= 0; i--) v = _mm512_fmadd_pd(v, s, _mm512_set1_pd(c[i]));
    return v;
}

/* x Phi(x) in double for 8 lanes (f32 inputs widened), to about 3e-11 relative. */
static inline __m512d gelu8d_approx(__m512d x)
{
    __m512d amax = _mm512_set1_pd(TL_GELU_AMAX), one = _mm512_set1_pd(1.0);
    __m512d a = _mm512_abs_pd(x);
    __m512d ac = _mm512_min_pd(a, amax); /* NaN gives amax: x carries it to the result */
    __m512d t = _mm512_mul_pd(_mm512_mul_pd(ac, ac), _mm512_set1_pd(-0.5));
    __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(t, _mm512_set1_pd(0x1.71547652b82fep+0)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa39efp-1), t);
    r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.abc9e3b39803fp-56), r);
    __m512d e = _mm512_scalef_pd(_mm512_fmadd_pd(horner8d(tl_gelu_exp, 8, r), r, one), k);
    __m512d s = _mm512_fmsub_pd(ac, _mm512_set1_pd(2 / TL_GELU_AMAX), one);
    __m512d p = _mm512_mul_pd(e, _mm512_div_pd(horner8d(tl_gelu_rnum, 9, s), horner8d(tl_gelu_rden, 9, s)));
    p = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(a, amax, _CMP_LE_OQ), p);
    __mmask8 neg = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LT_OQ);
    return _mm512_mul_pd(x, _mm512_mask_blend_pd(neg, _mm512_sub_pd(one, p), p));
}

/* The lanes `hard` of gelu16, by the portable loop (rare: kept out of the hot loop). */
__attribute__((noinline, cold)) static __m512 gelu16_hard(__m512 x, __m512 r, __mmask16 hard)
{
    float in[16], out[16];
    _mm512_mask_compressstoreu_ps(in, hard, x);
    char *p[2] = { (char *)out, (char *)in };
    const int64_t s[2] = { sizeof(float), sizeof(float) };
    tl_unary_loop(TL_GELU, TL_F32)(__builtin_popcount(hard), p, s, NULL);
    return _mm512_mask_expandloadu_ps(r, hard, out);
}

/* f32 rounding of 16 doubles (two halves) scaled by f. */
static inline __m512 round16(__m512d lo, __m512d hi, __m512d f)
{
    __m256 l = _mm512_cvtpd_ps(_mm512_mul_pd(lo, f)), h = _mm512_cvtpd_ps(_mm512_mul_pd(hi, f));
    return _mm512_insertf32x8(_mm512_castps256_ps512(l), h, 1);
}

static inline __m512 gelu16(__m512 x)
{
    __m512d lo = gelu8d_approx(_mm512_cvtps_pd(_mm512_castps512_ps256(x)));
    __m512d hi = gelu8d_approx(_mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1))));
    __m512 down = round16(lo, hi, _mm512_set1_pd(1 - 0x1p-34)), up = round16(lo, hi, _mm512_set1_pd(1 + 0x1p-34));
    __mmask16 hard = _mm512_cmpneq_epi32_mask(_mm512_castps_si512(down), _mm512_castps_si512(up));
    return hard ? gelu16_hard(x, down, hard) : down;
}

/* 0.5 x (1 + tanh u) = x sigmoid(2u): no cancellation for negative x. */
static inline __m512 gelu_tanh16(__m512 x)
{
    __m512 x3 = _mm512_mul_ps(_mm512_mul_ps(x, x), x);
    __m512 inner = _mm512_mul_ps(_mm512_set1_ps(2 * 0.79788456080286535588f),
                                 _mm512_fmadd_ps(_mm512_set1_ps(0.044715f), x3, x));
    return _mm512_mul_ps(x, sigmoid16(inner));
}

/* SLEEF's exp overflows a little early in f64: redo the lanes near the top. */
static inline __m512d exp8d(__m512d x)
{
    __m512d r = SLEEF_D(exp, u10, x);
    __mmask8 big = _mm512_cmp_pd_mask(x, _mm512_set1_pd(709.0), _CMP_GT_OQ);
    if (big) {
        double xs[8], rs[8];
        _mm512_storeu_pd(xs, x);
        _mm512_storeu_pd(rs, r);
        for (int i = 0; i < 8; i++)
            if (big >> i & 1) rs[i] = exp(xs[i]);
        r = _mm512_loadu_pd(rs);
    }
    return r;
}

const float tl_tanh_exp[8] = { 1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f, 1.0f };
const float tl_tanh_p[6] = { -0.006277653f, 0.021073146f, -0.05385221f, 0.13332576f, -0.33333316f, 1.0f };

/* e^y for 0 <= y <= 20 (tanh's range): Cody-Waite reduction by ln 2, a
   degree-7 Taylor polynomial on |r| <= ln2/2, scaled by 2^k. Inline, so the
   constants stay in registers (a SLEEF call spills them). */
static inline __m512 exp_for_tanh(__m512 y)
{
    __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(y, _mm512_set1_ps(1.44269504088896341f)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(TL_TANH_LN2_HI), y);
    r = _mm512_fnmadd_ps(k, _mm512_set1_ps(TL_TANH_LN2_LO), r);
    __m512 p = _mm512_set1_ps(tl_tanh_exp[0]);
    for (int i = 1; i < 8; i++) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(tl_tanh_exp[i]));
    return _mm512_scalef_ps(p, k);
}

/* tanh in 16 lanes, within 1 ulp over all floats (checked in steps of 31
   ulps against tanh in double), about 3x faster than SLEEF's u10 tanh:
   |x| < 0.55: x P(x^2), P a degree-5 least-squares fit (0.02 ulp);
   above: 1 - 2 / (e^{2|x|} + 1), whose cancellation is harmless there.
   |x| is capped at 10, where tanh rounds to 1; the min keeps NaN (its
   second operand wins). */
static inline __m512 tanh16(__m512 x)
{
    __m512 ax = _mm512_min_ps(_mm512_set1_ps(10.0f), _mm512_abs_ps(x));
    __m512 e = exp_for_tanh(_mm512_add_ps(ax, ax));
    __m512 big = _mm512_sub_ps(_mm512_set1_ps(1.0f),
                               _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(e, _mm512_set1_ps(1.0f))));
    __m512 z = _mm512_mul_ps(ax, ax);
    __m512 p = _mm512_set1_ps(tl_tanh_p[0]);
    for (int i = 1; i < 6; i++) p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(tl_tanh_p[i]));
    __mmask16 small = _mm512_cmp_ps_mask(ax, _mm512_set1_ps(0.55f), _CMP_LT_OQ);
    __m512 r = _mm512_mask_blend_ps(small, big, _mm512_mul_ps(ax, p));
    __m512i sign = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN));
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(r), sign));
}

static inline __m512 sqrt16(__m512 x) { return _mm512_sqrt_ps(x); }
static inline __m512d sqrt8d(__m512d x) { return _mm512_sqrt_pd(x); }
static inline __m512 silu16(__m512 x) { return _mm512_mul_ps(x, sigmoid16(x)); }

/* The loops of the SIMDF and SIMDD columns of unop_list.h. */
#define SIMD_APPLY(M, ...) M(__VA_ARGS__)
#define SIMD_LOOPS(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) \
    SIMD_APPLY(SIMDF_##SIMDF, ENUM, STEM) SIMD_APPLY(SIMDD_##SIMDD, ENUM, STEM)
#define SIMDF_OWN(ENUM, STEM) SIMD_LOOP_F32(STEM##_f32, ENUM, x = STEM##16(x))
#define SIMDF_SLEEF(ENUM, STEM) SIMD_LOOP_F32(STEM##_f32, ENUM, x = SLEEF_F(STEM, u10, x))
#define SIMDF_SLEEF15(ENUM, STEM) SIMD_LOOP_F32(STEM##_f32, ENUM, x = SLEEF_F(STEM, u15, x))
#define SIMDF_NONE(...)
#define SIMDD_OWN(ENUM, STEM) SIMD_LOOP_F64(STEM##_f64, ENUM, x = STEM##8d(x))
#define SIMDD_SLEEF(ENUM, STEM) SIMD_LOOP_F64(STEM##_f64, ENUM, x = SLEEF_D(STEM, u10, x))
#define SIMDD_SLEEF15(ENUM, STEM) SIMD_LOOP_F64(STEM##_f64, ENUM, x = SLEEF_D(STEM, u15, x))
#define SIMDD_NONE(...)
TL_UNOP_LIST(SIMD_LOOPS, )

#pragma GCC pop_options

/* TL_SIMD=avx2 in the environment: the CPU is taken to lack AVX-512 (for comparisons). */
static bool avx512_refused(void)
{
    const char *e = getenv("TL_SIMD");
    return e && strcmp(e, "avx2") == 0;
}

bool tl_cpu_has_avx512(void)
{
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && !avx512_refused();
    }
    return cached;
}

/* Whether this file's AVX-512 loops run (intrinsics.h: under a test's emulation, AVX2 is enough). */
static bool loops_512(void) { return TL_RUNS_512(tl_cpu_has_avx512()); }

/* Whether the SLEEF-based loops may run: SIMD on, AVX-512 present and SLEEF loaded (without
   it the portable loops run instead: slower, the same results within their documented ulps). */
static bool sleef_loops_usable(void)
{
    return tl_simd_enabled() && loops_512() && tl_dynlib_load(&sleef_lib, load_sleef) == 0;
}

#define SIMD_F32_CELL(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, ...) SIMD_APPLY(CELL_##SIMDF, ENUM, STEM##_f32)
#define SIMD_F64_CELL(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, ...) SIMD_APPLY(CELL_##SIMDD, ENUM, STEM##_f64)
#define CELL_OWN(ENUM, FN) [ENUM] = FN,
#define CELL_SLEEF CELL_OWN
#define CELL_SLEEF15 CELL_OWN
#define CELL_NONE(...)
static const tl_inner_fn simd_f32[TL_NUNOPS] = { TL_UNOP_LIST(SIMD_F32_CELL, ) };
static const tl_inner_fn simd_f64[TL_NUNOPS] = { TL_UNOP_LIST(SIMD_F64_CELL, ) };

static const tl_inner_fn simd_bin_f32[TL_NBINOPS] = {
    [TL_ADD] = add_f32, [TL_SUB] = sub_f32, [TL_MUL] = mul_f32, [TL_DIV] = div_f32,
};
static const tl_inner_fn simd_bin_f64[TL_NBINOPS] = {
    [TL_ADD] = add_f64, [TL_SUB] = sub_f64, [TL_MUL] = mul_f64, [TL_DIV] = div_f64,
};

tl_inner_fn tl_simd_binary_loop(tl_binop op, tl_dtype cdt)
{
    if (!loops_512()) return tl_simd_binary_loop_avx2(op, cdt);
    if ((unsigned)op >= TL_NBINOPS || !tl_simd_enabled()) return NULL;
    if (cdt == TL_F32) return simd_bin_f32[op];
    if (cdt == TL_F64) return simd_bin_f64[op];
    return NULL;
}

tl_inner_fn tl_simd_unary_loop(tl_unop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NUNOPS) return NULL;
    if (!loops_512()) return tl_simd_unary_loop_avx2(op, cdt);
    if (!sleef_loops_usable()) return NULL;
    if (cdt == TL_F32) return simd_f32[op];
    if (cdt == TL_F64) return simd_f64[op];
    return NULL;
}

#else

bool tl_cpu_has_avx512(void) { return false; }
tl_inner_fn tl_simd_binary_loop(tl_binop op, tl_dtype cdt)
{
    return tl_simd_binary_loop_avx2(op, cdt);
}
tl_inner_fn tl_simd_unary_loop(tl_unop op, tl_dtype cdt)
{
    return tl_simd_unary_loop_avx2(op, cdt);
}

#endif

/* TL_SIMD=0 in the environment turns the SLEEF loops off (for comparisons). */
bool tl_simd_enabled(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *e = getenv("TL_SIMD");
        cached = !(e && e[0] == '0');
    }
    return cached;
}

#if defined(__x86_64__)
#include <cpuid.h>
bool tl_simd_avx2(void)
{
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        unsigned a, b, c, d;   /* clang's __builtin_cpu_supports does not know "f16c": ask cpuid */
        cached = tl_simd_enabled() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                 __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
    }
    return cached;
}
#else
bool tl_simd_avx2(void) { return false; }
#endif

/* min or max of n >= 16 contiguous floats; a NaN anywhere gives NaN. The
   NaN test is separate because max_ps drops NaNs. Exact: any lane order. */
#if TL_SIMD_X86
#pragma GCC push_options
TL_PRAGMA_TARGET_512("avx512f,avx512dq,avx2,fma")
#define MINMAX512(NAME, T, VT, L, LOAD, OP, CMP, RED, SET1NAN)                         \
    static T NAME(const T *v, int64_t n)                                              \
    {                                                                                 \
        VT m = LOAD(v), m2 = m;                                                       \
        __mmask16 nan = (__mmask16)CMP(m, m, _CMP_UNORD_Q);                           \
        int64_t i = L;                                                                \
        for (; i + 2 * L <= n; i += 2 * L) {                                          \
            VT x = LOAD(v + i), y = LOAD(v + i + L);                                  \
            nan |= (__mmask16)(CMP(x, x, _CMP_UNORD_Q) | CMP(y, y, _CMP_UNORD_Q));     \
            m = OP(m, x);                                                             \
            m2 = OP(m2, y);                                                           \
        }                                                                             \
        for (; i + L <= n; i += L) {                                                  \
            VT x = LOAD(v + i);                                                       \
            nan |= (__mmask16)CMP(x, x, _CMP_UNORD_Q);                                \
            m = OP(m, x);                                                             \
        }                                                                             \
        T best = RED(OP(m, m2));                                                      \
        for (; i < n; i++) {                                                          \
            if (v[i] != v[i]) nan = 1;                                                \
            best = OP##_S(best, v[i]);                                                \
        }                                                                             \
        return nan ? (T)NAN : best;                                                   \
    }
#define _mm512_max_ps_S(a, b) ((b) > (a) ? (b) : (a))
#define _mm512_min_ps_S(a, b) ((b) < (a) ? (b) : (a))
#define _mm512_max_pd_S(a, b) ((b) > (a) ? (b) : (a))
#define _mm512_min_pd_S(a, b) ((b) < (a) ? (b) : (a))
MINMAX512(vmax_f32, float, __m512, 16, _mm512_loadu_ps, _mm512_max_ps, _mm512_cmp_ps_mask, _mm512_reduce_max_ps, 0)
MINMAX512(vmin_f32, float, __m512, 16, _mm512_loadu_ps, _mm512_min_ps, _mm512_cmp_ps_mask, _mm512_reduce_min_ps, 0)
MINMAX512(vmax_f64, double, __m512d, 8, _mm512_loadu_pd, _mm512_max_pd, _mm512_cmp_pd_mask, _mm512_reduce_max_pd, 0)
MINMAX512(vmin_f64, double, __m512d, 8, _mm512_loadu_pd, _mm512_min_pd, _mm512_cmp_pd_mask, _mm512_reduce_min_pd, 0)
#pragma GCC pop_options
#endif

#if TL_SIMD_X86
#pragma GCC push_options
TL_PRAGMA_TARGET_512("avx512f,avx512dq,avx2,fma")
/* One softmax row in three passes over L1-resident data: max, exp and sum,
   scale. The sum runs in 16 lanes (deterministic: a row never splits). */
static void softmax_row_f32_avx512(const float *x, float *y, int64_t D, bool want_log)
{
    float m = D >= 16 ? vmax_f32(x, D) : x[0];
    for (int64_t i = D >= 16 ? D : 1; i < D; i++) m = (x[i] > m || x[i] != x[i]) ? x[i] : m;
    __m512 vm = _mm512_set1_ps(m), acc = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= D; i += 16) {
        __m512 e = SLEEF_F(exp, u10, _mm512_sub_ps(_mm512_loadu_ps(x + i), vm));
        _mm512_storeu_ps(y + i, e);
        acc = _mm512_add_ps(acc, e);
    }
    if (i < D) {
        __mmask16 k = (__mmask16)((1u << (D - i)) - 1);
        __m512 e = SLEEF_F(exp, u10, _mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), vm));
        _mm512_mask_storeu_ps(y + i, k, e);
        acc = _mm512_add_ps(acc, _mm512_maskz_mov_ps(k, e));
    }
    float s = _mm512_reduce_add_ps(acc);
    if (want_log) {
        __m512 sub = _mm512_set1_ps(m + logf(s));
        for (i = 0; i + 16 <= D; i += 16) _mm512_storeu_ps(y + i, _mm512_sub_ps(_mm512_loadu_ps(x + i), sub));
        for (; i < D; i++) y[i] = (x[i] - m) - logf(s);
    } else {
        __m512 vs = _mm512_set1_ps(s);
        for (i = 0; i + 16 <= D; i += 16) _mm512_storeu_ps(y + i, _mm512_div_ps(_mm512_loadu_ps(y + i), vs));
        for (; i < D; i++) y[i] /= s;
    }
}
#pragma GCC pop_options
#endif

bool tl_simd_softmax_row_f32(const float *x, float *y, int64_t D, bool want_log)
{
#if TL_SIMD_X86
    if (!loops_512()) return tl_simd_softmax_row_f32_avx2(x, y, D, want_log);
    if (sleef_loops_usable()) {
        softmax_row_f32_avx512(x, y, D, want_log);
        return true;
    }
#endif
    (void)x; (void)y; (void)D; (void)want_log;
    return false;
}

bool tl_simd_minmax(tl_dtype dt, bool want_max, const void *v, int64_t n, void *out)
{
#if TL_SIMD_X86
    if (!loops_512()) return tl_simd_minmax_avx2(dt, want_max, v, n, out);
    if (n < 16 || !tl_simd_enabled()) return false;
    if (dt == TL_F32) {
        *(float *)out = want_max ? vmax_f32(v, n) : vmin_f32(v, n);
        return true;
    }
    if (dt == TL_F64) {
        *(double *)out = want_max ? vmax_f64(v, n) : vmin_f64(v, n);
        return true;
    }
#endif
    (void)dt; (void)want_max; (void)v; (void)n; (void)out;
    return false;
}

/* y[i] = exp(x[i] - m): the inner step of softmax, vectorized when possible. */
#if TL_SIMD_X86
#pragma GCC push_options
TL_PRAGMA_TARGET_512("avx512f,avx512dq,avx2,fma")
static void vexp_sub_f32_avx512(float *y, const float *x, float m, int64_t n)
{
    __m512 vm = _mm512_set1_ps(m);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(y + i, SLEEF_F(exp, u10, _mm512_sub_ps(_mm512_loadu_ps(x + i), vm)));
    if (i < n) {
        __mmask16 k = (__mmask16)((1u << (n - i)) - 1);
        __m512 v = _mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), vm);
        _mm512_mask_storeu_ps(y + i, k, SLEEF_F(exp, u10, v));
    }
}
static void vexp_sub_f64_avx512(double *y, const double *x, double m, int64_t n)
{
    __m512d vm = _mm512_set1_pd(m);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm512_storeu_pd(y + i, exp8d(_mm512_sub_pd(_mm512_loadu_pd(x + i), vm)));
    if (i < n) {
        __mmask8 k = (__mmask8)((1u << (n - i)) - 1);
        __m512d v = _mm512_sub_pd(_mm512_maskz_loadu_pd(k, x + i), vm);
        _mm512_mask_storeu_pd(y + i, k, exp8d(v));
    }
}
#pragma GCC pop_options
#endif

void tl_vexp_sub_f32(float *y, const float *x, float m, int64_t n)
{
#if TL_SIMD_X86
    if (!loops_512() && tl_vexp_sub_avx2(TL_F32, y, x, m, n)) return;
    if (sleef_loops_usable()) {
        vexp_sub_f32_avx512(y, x, m, n);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++) y[i] = expf(x[i] - m);
}

void tl_vexp_sub_f64(double *y, const double *x, double m, int64_t n)
{
#if TL_SIMD_X86
    if (!loops_512() && tl_vexp_sub_avx2(TL_F64, y, x, m, n)) return;
    if (sleef_loops_usable()) {
        vexp_sub_f64_avx512(y, x, m, n);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++) y[i] = exp(x[i] - m);
}
