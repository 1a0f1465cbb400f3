/* kernels/binary_loops.c — inner loops of the binary operators for every dtype */
#pragma GCC optimize("O3")
#include <complex.h>

#include "loops.h"

/* ---- integers: wrap through unsigned arithmetic (no signed overflow UB) ----
   UW is the unsigned type the arithmetic happens in (at least unsigned int,
   so u16 * u16 cannot overflow a promoted int). */
#define INT_COMMON(S, T, UW)                                                          \
    static inline T S##_add(T x, T y) { return (T)((UW)x + (UW)y); }                  \
    static inline T S##_sub(T x, T y) { return (T)((UW)x - (UW)y); }                  \
    static inline T S##_mul(T x, T y) { return (T)((UW)x * (UW)y); }                  \
    static inline T S##_min(T x, T y) { return x < y ? x : y; }                       \
    static inline T S##_max(T x, T y) { return x > y ? x : y; }                       \
    /* x ** y by squaring; y >= 0 was checked before the loop ran. */                 \
    static inline T S##_pow(T x, T y)                                                 \
    {                                                                                 \
        UW r = 1, b = (UW)x;                                                          \
        uint64_t e = (uint64_t)y;                                                     \
        while (e) {                                                                   \
            if (e & 1) r *= b;                                                        \
            b *= b;                                                                   \
            e >>= 1;                                                                  \
        }                                                                             \
        return (T)r;                                                                  \
    }

/* Python/numpy floor semantics: the remainder takes the divisor's sign.
   A zero divisor was rejected before the loop; -1 avoids INT_MIN / -1. */
#define INT_SIGNED(S, T, UW)                                                          \
    INT_COMMON(S, T, UW)                                                              \
    static inline T S##_fdiv(T x, T y)                                                \
    {                                                                                 \
        if (y == 0) return 0;                                                         \
        if (y == -1) return (T)(0 - (UW)x);                                           \
        T q = (T)(x / y);                                                             \
        if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q--;                             \
        return q;                                                                     \
    }                                                                                 \
    static inline T S##_mod(T x, T y)                                                 \
    {                                                                                 \
        if (y == 0 || y == -1) return 0;                                              \
        T r = (T)(x % y);                                                             \
        if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                           \
        return r;                                                                     \
    }

#define INT_UNSIGNED(S, T, UW)                                                        \
    INT_COMMON(S, T, UW)                                                              \
    static inline T S##_fdiv(T x, T y) { return y ? (T)(x / y) : 0; }                 \
    static inline T S##_mod(T x, T y) { return y ? (T)(x % y) : 0; }

#define INT_LOOPS(S, T)                                                               \
    TL_BIN_LOOP(S##_add_l, T, T, S##_add(x, y))                                       \
    TL_BIN_LOOP(S##_sub_l, T, T, S##_sub(x, y))                                       \
    TL_BIN_LOOP(S##_mul_l, T, T, S##_mul(x, y))                                       \
    TL_BIN_LOOP_P(S##_fdiv_l, T, T, S##_fdiv(x, y))                                     \
    TL_BIN_LOOP_P(S##_mod_l, T, T, S##_mod(x, y))                                       \
    TL_BIN_LOOP_P(S##_pow_l, T, T, S##_pow(x, y))                                       \
    TL_BIN_LOOP_P(S##_eq_l, T, bool, x == y)                                            \
    TL_BIN_LOOP_P(S##_ne_l, T, bool, x != y)                                            \
    TL_BIN_LOOP_P(S##_lt_l, T, bool, x < y)                                             \
    TL_BIN_LOOP_P(S##_le_l, T, bool, x <= y)                                            \
    TL_BIN_LOOP_P(S##_gt_l, T, bool, x > y)                                             \
    TL_BIN_LOOP_P(S##_ge_l, T, bool, x >= y)                                            \
    TL_BIN_LOOP_P(S##_and_l, T, T, (T)(x & y))                                          \
    TL_BIN_LOOP_P(S##_or_l, T, T, (T)(x | y))                                           \
    TL_BIN_LOOP_P(S##_xor_l, T, T, (T)(x ^ y))                                          \
    TL_BIN_LOOP_P(S##_min_l, T, T, S##_min(x, y))                                       \
    TL_BIN_LOOP_P(S##_max_l, T, T, S##_max(x, y))

#define INT_ENTRIES(D, S)                                                             \
    [TL_ADD][D] = S##_add_l, [TL_SUB][D] = S##_sub_l, [TL_MUL][D] = S##_mul_l,        \
    [TL_FLOORDIV][D] = S##_fdiv_l, [TL_MOD][D] = S##_mod_l, [TL_POW][D] = S##_pow_l,  \
    [TL_EQ][D] = S##_eq_l, [TL_NE][D] = S##_ne_l, [TL_LT][D] = S##_lt_l,              \
    [TL_LE][D] = S##_le_l, [TL_GT][D] = S##_gt_l, [TL_GE][D] = S##_ge_l,              \
    [TL_AND][D] = S##_and_l, [TL_OR][D] = S##_or_l, [TL_XOR][D] = S##_xor_l,          \
    [TL_MINIMUM][D] = S##_min_l, [TL_MAXIMUM][D] = S##_max_l

INT_UNSIGNED(u8, uint8_t, uint32_t)
INT_UNSIGNED(u16, uint16_t, uint32_t)
INT_UNSIGNED(u32, uint32_t, uint32_t)
INT_UNSIGNED(u64, uint64_t, uint64_t)
INT_SIGNED(i8, int8_t, uint32_t)
INT_SIGNED(i16, int16_t, uint32_t)
INT_SIGNED(i32, int32_t, uint32_t)
INT_SIGNED(i64, int64_t, uint64_t)
INT_LOOPS(u8, uint8_t)
INT_LOOPS(u16, uint16_t)
INT_LOOPS(u32, uint32_t)
INT_LOOPS(u64, uint64_t)
INT_LOOPS(i8, int8_t)
INT_LOOPS(i16, int16_t)
INT_LOOPS(i32, int32_t)
INT_LOOPS(i64, int64_t)

/* ---- bool: logical operators, comparisons, min = and, max = or ---------- */
TL_BIN_LOOP_P(b_eq_l, bool, bool, x == y)
TL_BIN_LOOP_P(b_ne_l, bool, bool, x != y)
TL_BIN_LOOP_P(b_lt_l, bool, bool, x < y)
TL_BIN_LOOP_P(b_le_l, bool, bool, x <= y)
TL_BIN_LOOP_P(b_gt_l, bool, bool, x > y)
TL_BIN_LOOP_P(b_ge_l, bool, bool, x >= y)
TL_BIN_LOOP_P(b_and_l, bool, bool, x && y)
TL_BIN_LOOP_P(b_or_l, bool, bool, x || y)
TL_BIN_LOOP_P(b_xor_l, bool, bool, x != y)

/* ---- real floats: numpy's npy_divmod for // and % ----------------------- */
#define FLOAT_OPS(S, T, FMOD, FLOOR, COPYSIGN)                                        \
    static inline T S##_divmod(T a, T b, T *modulus)                                  \
    {                                                                                 \
        T mod = FMOD(a, b);                                                           \
        if (!b) { *modulus = mod; return a / b; }                                     \
        T div = (a - mod) / b;                                                        \
        if (mod) {                                                                    \
            if ((b < 0) != (mod < 0)) { mod += b; div -= (T)1; }                      \
        } else {                                                                      \
            mod = COPYSIGN((T)0, b);                                                  \
        }                                                                             \
        T floordiv;                                                                   \
        if (div) {                                                                    \
            floordiv = FLOOR(div);                                                    \
            if (div - floordiv > (T)0.5) floordiv += (T)1;                            \
        } else {                                                                      \
            floordiv = COPYSIGN((T)0, a / b);                                         \
        }                                                                             \
        *modulus = mod;                                                               \
        return floordiv;                                                              \
    }                                                                                 \
    static inline T S##_fdiv(T a, T b)                                                \
    {                                                                                 \
        T mod;                                                                        \
        if (!b) return a / b;                                                         \
        return S##_divmod(a, b, &mod);                                                \
    }                                                                                 \
    static inline T S##_mod(T a, T b)                                                 \
    {                                                                                 \
        T mod;                                                                        \
        if (!b) return FMOD(a, b);                                                    \
        S##_divmod(a, b, &mod);                                                       \
        return mod;                                                                   \
    }                                                                                 \
    /* numpy's minimum/maximum: a NaN on either side wins. */                        \
    static inline T S##_min(T x, T y) { return (x <= y || x != x) ? x : y; }          \
    static inline T S##_max(T x, T y) { return (x >= y || x != x) ? x : y; }

FLOAT_OPS(f32, float, fmodf, floorf, copysignf)
FLOAT_OPS(f64, double, fmod, floor, copysign)

#define FLOAT_LOOPS(S, T, POW, ATAN2)                                                 \
    TL_BIN_LOOP(S##_add_l, T, T, x + y)                                               \
    TL_BIN_LOOP(S##_sub_l, T, T, x - y)                                               \
    TL_BIN_LOOP(S##_mul_l, T, T, x * y)                                               \
    TL_BIN_LOOP(S##_div_l, T, T, x / y)                                               \
    TL_BIN_LOOP_P(S##_fdiv_l, T, T, S##_fdiv(x, y))                                     \
    TL_BIN_LOOP_P(S##_mod_l, T, T, S##_mod(x, y))                                       \
    TL_BIN_LOOP_P(S##_pow_l, T, T, POW(x, y))                                           \
    TL_BIN_LOOP(S##_eq_l, T, bool, x == y)                                            \
    TL_BIN_LOOP(S##_ne_l, T, bool, x != y)                                            \
    TL_BIN_LOOP(S##_lt_l, T, bool, x < y)                                             \
    TL_BIN_LOOP(S##_le_l, T, bool, x <= y)                                            \
    TL_BIN_LOOP(S##_gt_l, T, bool, x > y)                                             \
    TL_BIN_LOOP(S##_ge_l, T, bool, x >= y)                                            \
    TL_BIN_LOOP(S##_min_l, T, T, S##_min(x, y))                                       \
    TL_BIN_LOOP(S##_max_l, T, T, S##_max(x, y))                                       \
    TL_BIN_LOOP_P(S##_atan2_l, T, T, ATAN2(x, y))

FLOAT_LOOPS(f32, float, powf, atan2f)
FLOAT_LOOPS(f64, double, pow, atan2)

/* f16 and bf16: widen to f32, compute, round once (as numpy's half loops). */
#define HALF_LOOPS(S, IN, OUT)                                                        \
    TL_BIN_LOOP_P(S##_add_l, uint16_t, uint16_t, OUT(IN(x) + IN(y)))                    \
    TL_BIN_LOOP_P(S##_sub_l, uint16_t, uint16_t, OUT(IN(x) - IN(y)))                    \
    TL_BIN_LOOP_P(S##_mul_l, uint16_t, uint16_t, OUT(IN(x) * IN(y)))                    \
    TL_BIN_LOOP_P(S##_div_l, uint16_t, uint16_t, OUT(IN(x) / IN(y)))                    \
    TL_BIN_LOOP_P(S##_fdiv_l, uint16_t, uint16_t, OUT(f32_fdiv(IN(x), IN(y))))          \
    TL_BIN_LOOP_P(S##_mod_l, uint16_t, uint16_t, OUT(f32_mod(IN(x), IN(y))))            \
    TL_BIN_LOOP_P(S##_pow_l, uint16_t, uint16_t, OUT(powf(IN(x), IN(y))))               \
    TL_BIN_LOOP_P(S##_eq_l, uint16_t, bool, IN(x) == IN(y))                             \
    TL_BIN_LOOP_P(S##_ne_l, uint16_t, bool, IN(x) != IN(y))                             \
    TL_BIN_LOOP_P(S##_lt_l, uint16_t, bool, IN(x) < IN(y))                              \
    TL_BIN_LOOP_P(S##_le_l, uint16_t, bool, IN(x) <= IN(y))                             \
    TL_BIN_LOOP_P(S##_gt_l, uint16_t, bool, IN(x) > IN(y))                              \
    TL_BIN_LOOP_P(S##_ge_l, uint16_t, bool, IN(x) >= IN(y))                             \
    TL_BIN_LOOP_P(S##_min_l, uint16_t, uint16_t, OUT(f32_min(IN(x), IN(y))))            \
    TL_BIN_LOOP_P(S##_max_l, uint16_t, uint16_t, OUT(f32_max(IN(x), IN(y))))            \
    TL_BIN_LOOP_P(S##_atan2_l, uint16_t, uint16_t, OUT(atan2f(IN(x), IN(y))))

HALF_LOOPS(f16, H2F, F2H)
HALF_LOOPS(bf16, B2F, F2B)

#define FLOAT_ENTRIES(D, S)                                                           \
    [TL_ADD][D] = S##_add_l, [TL_SUB][D] = S##_sub_l, [TL_MUL][D] = S##_mul_l,        \
    [TL_DIV][D] = S##_div_l, [TL_FLOORDIV][D] = S##_fdiv_l, [TL_MOD][D] = S##_mod_l,  \
    [TL_POW][D] = S##_pow_l,                                                          \
    [TL_EQ][D] = S##_eq_l, [TL_NE][D] = S##_ne_l, [TL_LT][D] = S##_lt_l,              \
    [TL_LE][D] = S##_le_l, [TL_GT][D] = S##_gt_l, [TL_GE][D] = S##_ge_l,              \
    [TL_MINIMUM][D] = S##_min_l, [TL_MAXIMUM][D] = S##_max_l, [TL_ATAN2][D] = S##_atan2_l

/* ---- complex: numpy's formulas --------------------------------------- */
#define COMPLEX_OPS(S, C, T, CT, CPOW, ONE)                                           \
    static inline C S##_add(C a, C b) { return (C){ a.re + b.re, a.im + b.im }; }     \
    static inline C S##_sub(C a, C b) { return (C){ a.re - b.re, a.im - b.im }; }     \
    static inline C S##_mul(C a, C b)                                                 \
    {                                                                                 \
        return (C){ a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };           \
    }                                                                                 \
    /* Smith's division, as numpy's loops. */                                         \
    static inline C S##_div(C a, C b)                                                 \
    {                                                                                 \
        T br_abs = b.re < 0 ? -b.re : b.re, bi_abs = b.im < 0 ? -b.im : b.im;         \
        if (br_abs >= bi_abs) {                                                       \
            if (br_abs == 0 && bi_abs == 0) return (C){ a.re / br_abs, a.im / br_abs };\
            T rat = b.im / b.re, scl = ONE / (b.re + b.im * rat);                     \
            return (C){ (a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl };       \
        }                                                                             \
        T rat = b.re / b.im, scl = ONE / (b.im + b.re * rat);                         \
        return (C){ (a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl };           \
    }                                                                                 \
    /* numpy's npy_cpow: small integer powers by repeated multiplication. */         \
    static inline C S##_pow(C a, C b)                                                 \
    {                                                                                 \
        if (b.re == 0 && b.im == 0) return (C){ ONE, 0 };                             \
        if (a.re == 0 && a.im == 0) {                                                 \
            if (b.re > 0 && b.im == 0) return (C){ 0, 0 };                            \
            return (C){ (T)NAN, (T)NAN };                                             \
        }                                                                             \
        if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == (T)(int)b.re) {         \
            int n = (int)b.re;                                                        \
            if (n == 1) return a;                                                     \
            if (n == 2) return S##_mul(a, a);                                         \
            if (n == 3) return S##_mul(S##_mul(a, a), a);                             \
            unsigned m = (unsigned)(n < 0 ? -n : n), mask = 1;                        \
            C acc = { ONE, 0 }, p = a;                                                \
            for (;;) {                                                                \
                if (m & mask) acc = S##_mul(acc, p);                                  \
                mask <<= 1;                                                           \
                if (m < mask || mask == 0) break;                                     \
                p = S##_mul(p, p);                                                    \
            }                                                                         \
            if (n < 0) acc = S##_div((C){ ONE, 0 }, acc);                             \
            return acc;                                                               \
        }                                                                             \
        CT r = CPOW(a.re + a.im * I, b.re + b.im * I);                                \
        return (C){ creal(r), cimag(r) };                                             \
    }                                                                                 \
    static inline bool S##_eq(C a, C b) { return a.re == b.re && a.im == b.im; }      \
    /* Lexicographic order, as numpy compares complex numbers. */                     \
    static inline bool S##_lt(C a, C b) { return a.re < b.re || (a.re == b.re && a.im < b.im); } \
    static inline bool S##_le(C a, C b) { return a.re < b.re || (a.re == b.re && a.im <= b.im); } \
    static inline C S##_min(C a, C b)                                                 \
    {                                                                                 \
        return (S##_le(a, b) || a.re != a.re || a.im != a.im) ? a : b;                \
    }                                                                                 \
    static inline C S##_max(C a, C b)                                                 \
    {                                                                                 \
        return (S##_le(b, a) || a.re != a.re || a.im != a.im) ? a : b;                \
    }                                                                                 \
    TL_BIN_LOOP_P(S##_add_l, C, C, S##_add(x, y))                                       \
    TL_BIN_LOOP_P(S##_sub_l, C, C, S##_sub(x, y))                                       \
    TL_BIN_LOOP_P(S##_mul_l, C, C, S##_mul(x, y))                                       \
    TL_BIN_LOOP_P(S##_div_l, C, C, S##_div(x, y))                                       \
    TL_BIN_LOOP_P(S##_pow_l, C, C, S##_pow(x, y))                                       \
    TL_BIN_LOOP_P(S##_eq_l, C, bool, S##_eq(x, y))                                      \
    TL_BIN_LOOP_P(S##_ne_l, C, bool, !S##_eq(x, y))                                     \
    TL_BIN_LOOP_P(S##_lt_l, C, bool, S##_lt(x, y))                                      \
    TL_BIN_LOOP_P(S##_le_l, C, bool, S##_le(x, y))                                      \
    TL_BIN_LOOP_P(S##_gt_l, C, bool, S##_lt(y, x))                                      \
    TL_BIN_LOOP_P(S##_ge_l, C, bool, S##_le(y, x))                                      \
    TL_BIN_LOOP_P(S##_min_l, C, C, S##_min(x, y))                                       \
    TL_BIN_LOOP_P(S##_max_l, C, C, S##_max(x, y))

COMPLEX_OPS(c64, tl_cf, float, float complex, cpowf, 1.0f)
COMPLEX_OPS(c128, tl_cd, double, double complex, cpow, 1.0)

#define COMPLEX_ENTRIES(D, S)                                                         \
    [TL_ADD][D] = S##_add_l, [TL_SUB][D] = S##_sub_l, [TL_MUL][D] = S##_mul_l,        \
    [TL_DIV][D] = S##_div_l, [TL_POW][D] = S##_pow_l,                                 \
    [TL_EQ][D] = S##_eq_l, [TL_NE][D] = S##_ne_l, [TL_LT][D] = S##_lt_l,              \
    [TL_LE][D] = S##_le_l, [TL_GT][D] = S##_gt_l, [TL_GE][D] = S##_ge_l,              \
    [TL_MINIMUM][D] = S##_min_l, [TL_MAXIMUM][D] = S##_max_l

static const tl_inner_fn binary_table[TL_NBINOPS][TL_NDTYPES] = {
    [TL_EQ][TL_BOOL] = b_eq_l, [TL_NE][TL_BOOL] = b_ne_l, [TL_LT][TL_BOOL] = b_lt_l,
    [TL_LE][TL_BOOL] = b_le_l, [TL_GT][TL_BOOL] = b_gt_l, [TL_GE][TL_BOOL] = b_ge_l,
    [TL_AND][TL_BOOL] = b_and_l, [TL_OR][TL_BOOL] = b_or_l, [TL_XOR][TL_BOOL] = b_xor_l,
    [TL_MINIMUM][TL_BOOL] = b_and_l, [TL_MAXIMUM][TL_BOOL] = b_or_l,
    INT_ENTRIES(TL_U8, u8), INT_ENTRIES(TL_U16, u16), INT_ENTRIES(TL_U32, u32),
    INT_ENTRIES(TL_U64, u64), INT_ENTRIES(TL_I8, i8), INT_ENTRIES(TL_I16, i16),
    INT_ENTRIES(TL_I32, i32), INT_ENTRIES(TL_I64, i64),
    FLOAT_ENTRIES(TL_F16, f16), FLOAT_ENTRIES(TL_BF16, bf16),
    FLOAT_ENTRIES(TL_F32, f32), FLOAT_ENTRIES(TL_F64, f64),
    COMPLEX_ENTRIES(TL_C64, c64), COMPLEX_ENTRIES(TL_C128, c128),
};

tl_inner_fn tl_binary_loop(tl_binop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)cdt >= TL_NDTYPES) return NULL;
    return binary_table[op][cdt];
}
