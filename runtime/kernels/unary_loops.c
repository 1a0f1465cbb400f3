/* kernels/unary_loops.c — inner loops of the unary functions for every dtype */
#include "../cmplx.h"
#include "loops.h"

/* ---- dtype-independent loops ------------------------------------------ */

/* Copies elements of `size` bytes (identity functions: abs of unsigned...). */
#define COPY_LOOP(NAME, T) TL_UN_LOOP_P(NAME, T, T, x)
COPY_LOOP(copy1, uint8_t)
COPY_LOOP(copy2, uint16_t)
COPY_LOOP(copy4, uint32_t)
COPY_LOOP(copy8, uint64_t)

/* A bool result that does not depend on the value (isnan of an integer). */
static void fill_loop(int64_t n, char **p, const int64_t *s, bool v)
{
    char *o = p[0];
    if (s[0] == 1) { memset(o, v, (size_t)n); return; }
    for (int64_t i = 0; i < n; i++, o += s[0]) *(bool *)o = v;
}
static void false_loop(int64_t n, char **p, const int64_t *s, void *aux) { (void)aux; fill_loop(n, p, s, false); }
static void true_loop(int64_t n, char **p, const int64_t *s, void *aux) { (void)aux; fill_loop(n, p, s, true); }

/* ---- bool ---------------------------------------------------------------- */
TL_UN_LOOP_P(b_not_l, bool, bool, !x)

/* ---- integers ------------------------------------------------------------ */
#define INT_UNARY(S, T, UW, ABS, SIGN, RELU)                                          \
    TL_UN_LOOP(S##_neg_l, T, T, (T)(0 - (UW)x))                                       \
    TL_UN_LOOP(S##_not_l, T, T, (T)~x)                                                \
    TL_UN_LOOP(S##_abs_l, T, T, ABS)                                                  \
    TL_UN_LOOP_P(S##_sign_l, T, T, SIGN)                                              \
    TL_UN_LOOP(S##_relu_l, T, T, RELU)

#define SABS(T, UW) (x < 0 ? (T)(0 - (UW)x) : x)
/* The loops of every integer row of the dtype list, by its kind (UW from elem.h). */
#define INT_UNARY_ROW(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, ...) INT_UNARY_##KIND(S, CTYPE, TL_ELEM_UW_##SIZE)
#define INT_UNARY_INT(S, T, UW) INT_UNARY(S, T, UW, SABS(T, UW), (T)((x > 0) - (x < 0)), (x > 0 ? x : 0))
#define INT_UNARY_UINT(S, T, UW) INT_UNARY(S, T, UW, x, (T)(x > 0), x)
#define INT_UNARY_BOOL(...)
#define INT_UNARY_FLOAT(...)
#define INT_UNARY_COMPLEX(...)
TL_DTYPE_LIST(INT_UNARY_ROW, )

/* ---- real floats: scalar definitions shared by f16/bf16/f32 (in float) and f64 */
#define REAL_FUNCS(S, T, EXPF, FABS, ATAN2, NEXTAFTER)                     \
    static inline T S##_sign(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x == 0 ? (T)0 : x; } \
    /* 1/(1+e^-x) without overflow: the exponent is never positive. */              \
    static inline T S##_sigmoid(T x)                                                  \
    {                                                                                 \
        if (x >= 0) return (T)1 / ((T)1 + EXPF(-x));                                  \
        T e = EXPF(x);                                                                \
        return e / ((T)1 + e);                                                        \
    }                                                                                 \
    static inline T S##_relu(T x) { return x > 0 ? x : (x != x ? x : (T)0); }          \
    /* Exact GELU (simd_x86.c gelu16 returns the same f32): erfc keeps precision    \
       for negative x, where 1 + erf cancels; computed in double because erfc        \
       magnifies the rounding of its argument. Below 2^-56 erfc is 1 in double and   \
       gelu(x) = x/2 + x^2/sqrt(2 pi) + ...: x/2, whose ties (x subnormal) round up. */ \
    static inline T S##_gelu(T x)                                                     \
    {                                                                                 \
        if (FABS(x) < (T)0x1p-56) {                                                   \
            T h = x * (T)0.5;                                                         \
            return h + h < x ? NEXTAFTER(h, (T)INFINITY) : h;                         \
        }                                                                             \
        return (T)(0.5 * (double)x * erfc(-(double)x * 0.70710678118654752440));     \
    }                                                                                 \
    /* 0.5 x (1 + tanh u) written as x sigmoid(2u): no cancellation for x < 0. */    \
    static inline T S##_gelu_tanh(T x)                                                \
    {                                                                                 \
        T inner = (T)0.79788456080286535588 * (x + (T)0.044715 * x * x * x);          \
        return x * S##_sigmoid((T)2 * inner);                                         \
    }                                                                                 \
    static inline T S##_silu(T x) { return x * S##_sigmoid(x); }                      \
    static inline T S##_angle(T x) { return ATAN2((T)0, x); }                         \
    static inline T S##_abs(T x) { return FABS(x); }

REAL_FUNCS(f32, float, expf, fabsf, atan2f, nextafterf)
REAL_FUNCS(f64, double, exp, fabs, atan2, nextafter)

/* The real unary functions unary_loops.c writes itself (OWN in unop_list.h)
   over one float type: IN converts storage type T to the computing float, OUT
   converts back. */
#define REAL_UNARY(S, T, IN, OUT, P, L)                                               \
    L(S##_neg_l, T, T, OUT(-IN(x)))                                                   \
    L(S##_abs_l, T, T, OUT(P##_abs(IN(x))))                                           \
    TL_UN_LOOP_P(S##_sign_l, T, T, OUT(P##_sign(IN(x))))                              \
    L(S##_sqrt_l, T, T, OUT(P##_SQRT(IN(x))))                                         \
    L(S##_floor_l, T, T, OUT(P##_FLOOR(IN(x))))                                       \
    L(S##_ceil_l, T, T, OUT(P##_CEIL(IN(x))))                                         \
    L(S##_round_l, T, T, OUT(P##_RINT(IN(x))))                                        \
    L(S##_trunc_l, T, T, OUT(P##_TRUNC(IN(x))))                                       \
    TL_UN_LOOP_P(S##_isnan_l, T, bool, isnan(IN(x)))                                  \
    TL_UN_LOOP_P(S##_isinf_l, T, bool, isinf(IN(x)))                                  \
    TL_UN_LOOP_P(S##_isfinite_l, T, bool, isfinite(IN(x)))                            \
    TL_UN_LOOP_P(S##_angle_l, T, T, OUT(P##_angle(IN(x))))                            \
    TL_UN_LOOP_P(S##_sigmoid_l, T, T, OUT(P##_sigmoid(IN(x))))                        \
    L(S##_relu_l, T, T, OUT(P##_relu(IN(x))))                                         \
    TL_UN_LOOP_P(S##_gelu_l, T, T, OUT(P##_gelu(IN(x))))                              \
    TL_UN_LOOP_P(S##_gelu_tanh_l, T, T, OUT(P##_gelu_tanh(IN(x))))                    \
    TL_UN_LOOP_P(S##_silu_l, T, T, OUT(P##_silu(IN(x))))

#define f32_SQRT sqrtf
#define f32_FLOOR floorf
#define f32_CEIL ceilf
#define f32_RINT rintf
#define f32_TRUNC truncf
#define f64_SQRT sqrt
#define f64_FLOOR floor
#define f64_CEIL ceil
#define f64_RINT rint
#define f64_TRUNC trunc

/* The LIBM rows of unop_list.h: STEMf (f16, bf16, f32) or STEM (f64) of the
   C library; LIBMD rows take STEM in double for every float dtype. */
#define UN_APPLY(M, ...) M(__VA_ARGS__)
#define UN_UNPACK(...) __VA_ARGS__
#define LIBM_FLOAT_LOOP(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, ...) \
    UN_APPLY(LIBM_FLOAT_##FLOAT, STEM, UN_UNPACK arg)
#define LIBM_FLOAT_LIBM(STEM, S, T, IN, OUT, SUF) TL_UN_LOOP_P(S##_##STEM##_l, T, T, OUT(STEM##SUF(IN(x))))
#define LIBM_FLOAT_LIBMD(STEM, S, T, IN, OUT, SUF) TL_UN_LOOP_P(S##_##STEM##_l, T, T, OUT((__typeof__(IN(x)))STEM((double)IN(x))))
#define LIBM_FLOAT_OWN(...)
#define LIBM_FLOAT_COPY(...)
#define LIBM_FLOAT_NONE(...)

#define ID(x) (x)
#define FLOAT_UNARY(S, T, IN, OUT, P, SUF, L) REAL_UNARY(S, T, IN, OUT, P, L) TL_UNOP_LIST(LIBM_FLOAT_LOOP, (S, T, IN, OUT, SUF))
FLOAT_UNARY(f32, float, ID, ID, f32, f, TL_UN_LOOP)
FLOAT_UNARY(f64, double, ID, ID, f64, , TL_UN_LOOP)
FLOAT_UNARY(f16, uint16_t, H2F, F2H, f32, f, TL_UN_LOOP_P)
FLOAT_UNARY(bf16, uint16_t, B2F, F2B, f32, f, TL_UN_LOOP_P)

/* ---- complex ------------------------------------------------------------- */
#define COMPLEX_UNARY(S, C, T, CT, MK, SUF)                                           \
    static inline CT S##_in(C x) { return MK(x.re, x.im); }                          \
    static inline C S##_out(CT z) { return (C){ creal##SUF(z), cimag##SUF(z) }; }    \
    /* numpy 1.24's sign: the sign of the first nonzero part, as a complex. */       \
    static inline C S##_sign(C x)                                                     \
    {                                                                                 \
        if (x.re > 0 || (x.re == 0 && x.im > 0)) return (C){ 1, 0 };                  \
        if (x.re < 0 || (x.re == 0 && x.im < 0)) return (C){ -1, 0 };                 \
        if (x.re == 0 && x.im == 0) return (C){ 0, 0 };                               \
        return (C){ (T)NAN, 0 };                                                      \
    }                                                                                 \
    /* numpy's nc_expm1 and nc_log1p: keep precision near zero. */                   \
    static inline C S##_expm1(C x)                                                    \
    {                                                                                 \
        T a = sin##SUF(x.im / 2);                                                     \
        return (C){ expm1##SUF(x.re) * cos##SUF(x.im) - 2 * a * a,                    \
                    exp##SUF(x.re) * sin##SUF(x.im) };                                \
    }                                                                                 \
    static inline C S##_log1p(C x)                                                    \
    {                                                                                 \
        T l = hypot##SUF(x.re + 1, x.im);                                             \
        return (C){ log##SUF(l), atan2##SUF(x.im, x.re + 1) };                        \
    }                                                                                 \
    /* numpy's complex reciprocal, which its x ** -1 is: not Smith's 1 / x (the zeros'  \
       signs differ, and at times the last bit). */                                    \
    static inline C S##_reciprocal(C x)                                               \
    {                                                                                 \
        if (fabs##SUF(x.im) <= fabs##SUF(x.re)) {                                     \
            T r = x.im / x.re, d = x.re + x.im * r;                                   \
            return (C){ 1 / d, -r / d };                                              \
        }                                                                             \
        T r = x.re / x.im, d = x.re * r + x.im;                                       \
        return (C){ r / d, -1 / d };                                                  \
    }                                                                                 \
    static inline C S##_log2(C x)                                                     \
    {                                                                                 \
        C r = S##_out(clog##SUF(S##_in(x)));                                          \
        return (C){ r.re / (T)0.69314718055994530942, r.im / (T)0.69314718055994530942 }; \
    }                                                                                 \
    TL_UN_LOOP_P(S##_neg_l, C, C, ((C){ -x.re, -x.im }))                              \
    TL_UN_LOOP_P(S##_abs_l, C, T, hypot##SUF(x.re, x.im))                             \
    TL_UN_LOOP_P(S##_sign_l, C, C, S##_sign(x))                                       \
    TL_UN_LOOP_P(S##_expm1_l, C, C, S##_expm1(x))                                     \
    TL_UN_LOOP_P(S##_log1p_l, C, C, S##_log1p(x))                                     \
    TL_UN_LOOP_P(S##_log2_l, C, C, S##_log2(x))                                       \
    TL_UN_LOOP_P(S##_round_l, C, C, ((C){ rint##SUF(x.re), rint##SUF(x.im) }))        \
    TL_UN_LOOP_P(S##_isnan_l, C, bool, isnan(x.re) || isnan(x.im))                    \
    TL_UN_LOOP_P(S##_isinf_l, C, bool, isinf(x.re) || isinf(x.im))                    \
    TL_UN_LOOP_P(S##_isfinite_l, C, bool, isfinite(x.re) && isfinite(x.im))           \
    TL_UN_LOOP_P(S##_conj_l, C, C, ((C){ x.re, -x.im }))                              \
    TL_UN_LOOP_P(S##_reciprocal_l, C, C, S##_reciprocal(x))                           \
    TL_UN_LOOP_P(S##_angle_l, C, T, atan2##SUF(x.im, x.re))

/* The LIBM rows of unop_list.h for complex: cSTEMf or cSTEM of the C library. */
#define LIBM_COMPLEX_LOOP(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, ...) \
    UN_APPLY(LIBM_COMPLEX_##CPLX, STEM, UN_UNPACK arg)
#define LIBM_COMPLEX_LIBM(STEM, S, C, SUF) TL_UN_LOOP_P(S##_##STEM##_l, C, C, S##_out(c##STEM##SUF(S##_in(x))))
#define LIBM_COMPLEX_OWN(...)
#define LIBM_COMPLEX_NONE(...)

#define COMPLEX_FUNCS(S, C, T, CT, MK, SUF) COMPLEX_UNARY(S, C, T, CT, MK, SUF) TL_UNOP_LIST(LIBM_COMPLEX_LOOP, (S, C, SUF))
COMPLEX_FUNCS(c64, tl_cf, float, float complex, CMPLXF, f)
COMPLEX_FUNCS(c128, tl_cd, double, double complex, CMPLX, )

/* ---- the table ------------------------------------------------------------ */
#define INT_ENTRIES(D, S, COPY)                                                       \
    [TL_NEG][D] = S##_neg_l, [TL_NOT][D] = S##_not_l, [TL_ABS][D] = S##_abs_l,        \
    [TL_SIGN][D] = S##_sign_l, [TL_RELU][D] = S##_relu_l, [TL_ROUND][D] = COPY,       \
    [TL_CONJ][D] = COPY, [TL_ISNAN][D] = false_loop, [TL_ISINF][D] = false_loop,      \
    [TL_ISFINITE][D] = true_loop,

/* Float and complex entries come from the FLOAT and CPLX columns of unop_list.h. */
#define UN_ENTRY(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, ...) \
    UN_APPLY(UN_ENTRY_PICK, ENUM, STEM, FLOAT, CPLX, UN_UNPACK arg)
#define UN_ENTRY_PICK(ENUM, STEM, FLOAT, CPLX, COLUMN, D, S, COPY) UN_ENTRY_##COLUMN(ENUM, STEM, FLOAT, CPLX, D, S, COPY)
#define UN_ENTRY_FLOAT(ENUM, STEM, FLOAT, CPLX, D, S, COPY) UN_CELL_##FLOAT(ENUM, STEM, D, S, COPY)
#define UN_ENTRY_CPLX(ENUM, STEM, FLOAT, CPLX, D, S, COPY) UN_CELL_##CPLX(ENUM, STEM, D, S, COPY)
#define UN_CELL_OWN(ENUM, STEM, D, S, COPY) [ENUM][D] = S##_##STEM##_l,
#define UN_CELL_LIBM UN_CELL_OWN
#define UN_CELL_LIBMD UN_CELL_OWN
#define UN_CELL_COPY(ENUM, STEM, D, S, COPY) [ENUM][D] = COPY,
#define UN_CELL_NONE(...)
#define FLOAT_ENTRIES(D, S, COPY) TL_UNOP_LIST(UN_ENTRY, (FLOAT, D, S, COPY))
#define COMPLEX_ENTRIES(D, S, COPY) TL_UNOP_LIST(UN_ENTRY, (CPLX, D, S, COPY))

#define BOOL_ENTRIES(D, S, COPY)                                                      \
    [TL_NOT][D] = b_not_l, [TL_ABS][D] = COPY, [TL_CONJ][D] = COPY,                   \
    [TL_ISNAN][D] = false_loop, [TL_ISINF][D] = false_loop, [TL_ISFINITE][D] = true_loop,
#define UINT_ENTRIES INT_ENTRIES

/* One row per dtype of the master list, by its kind. */
#define DTYPE_ENTRIES(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, ...) KIND##_ENTRIES(ENUM, S, copy##SIZE)
static const tl_inner_fn unary_table[TL_NUNOPS][TL_NDTYPES] = { TL_DTYPE_LIST(DTYPE_ENTRIES, ) };

tl_inner_fn tl_unary_loop(tl_unop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NUNOPS || (unsigned)cdt >= TL_NDTYPES) return NULL;
    return unary_table[op][cdt];
}
