/* elem.h — what each binary operator means for one element of each C type: the one definition behind the kernels and the evaluator's scalar path */
#ifndef TL_ELEM_H
#define TL_ELEM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "ops.h"

/* As Lua's luai_num* macros serve both its constant folder and its VM, these
   functions serve kernels/binary_loops.c (which stamps each into the strided
   loops of the operator's row in TL_BINOP_LIST) and src/arith.h's quick path
   for f64/i64 numbers; every other scalar goes through tl_binary_scalar, which
   runs the kernels' own loops on one element. So `a OP b` has one meaning
   whatever the route. Naming: tl_<dtype>_<fn of the row>, e.g. tl_i64_fdiv.

   Two rules are not per element and are checked before any element is
   computed (numpy raises; nothing is written): integer // and % by zero, and
   integer ** with a negative exponent. (numpy only warns for an integer
   divisor of zero and gives 0; tl refuses it for fmod too.) The element functions then assume a
   checked right operand (and return 0 for a zero divisor, never trapping). */

#define TL_ERR_INT_DIV_ZERO "integer division by zero"
#define TL_ERR_INT_NEG_POW "integers to negative integer powers are not allowed"

/* The error of integer x OP y given whether y is zero and whether it is
   negative, or NULL when op accepts y. */
static inline const char *tl_int_operand_error(tl_binop op, bool y_zero, bool y_negative)
{
    if ((op == TL_FLOORDIV || op == TL_MOD || op == TL_FMOD) && y_zero) return TL_ERR_INT_DIV_ZERO;
    if (op == TL_POW && y_negative) return TL_ERR_INT_NEG_POW;
    return NULL;
}

/* True when op rejects some integer right operands (see tl_int_operand_error). */
static inline bool tl_int_operand_checked(tl_binop op)
{
    return op == TL_FLOORDIV || op == TL_MOD || op == TL_FMOD || op == TL_POW;
}

/* The comparisons of an ordered real type (C's operators; NaN compares false). */
#define TL_ELEM_COMPARE(S, T)                                                         \
    static inline bool tl_##S##_eq(T x, T y) { return x == y; }                       \
    static inline bool tl_##S##_ne(T x, T y) { return x != y; }                       \
    static inline bool tl_##S##_lt(T x, T y) { return x < y; }                        \
    static inline bool tl_##S##_le(T x, T y) { return x <= y; }                       \
    static inline bool tl_##S##_gt(T x, T y) { return x > y; }                        \
    static inline bool tl_##S##_ge(T x, T y) { return x >= y; }

/* ---- integers: wrap through unsigned arithmetic (no signed overflow UB) ----
   UW is the unsigned type the arithmetic happens in (at least unsigned int,
   so u16 * u16 cannot overflow a promoted int). */
#define TL_ELEM_INT_COMMON(S, T, UW)                                                  \
    static inline T tl_##S##_add(T x, T y) { return (T)((UW)x + (UW)y); }             \
    static inline T tl_##S##_sub(T x, T y) { return (T)((UW)x - (UW)y); }             \
    static inline T tl_##S##_mul(T x, T y) { return (T)((UW)x * (UW)y); }             \
    static inline T tl_##S##_and(T x, T y) { return (T)(x & y); }                     \
    static inline T tl_##S##_or(T x, T y) { return (T)(x | y); }                      \
    static inline T tl_##S##_xor(T x, T y) { return (T)(x ^ y); }                     \
    static inline T tl_##S##_min(T x, T y) { return x < y ? x : y; }                  \
    static inline T tl_##S##_max(T x, T y) { return x > y ? x : y; }                  \
    static inline T tl_##S##_fmin(T x, T y) { return x < y ? x : y; }                 \
    static inline T tl_##S##_fmax(T x, T y) { return x > y ? x : y; }                 \
    /* numpy's npy_lshift: a shift by the bit width or more (or by a negative */     \
    /* amount, which numpy reads as unsigned) gives 0. */                             \
    static inline T tl_##S##_shl(T x, T y)                                            \
    {                                                                                 \
        return (uint64_t)y < sizeof(T) * 8 ? (T)((UW)x << (uint64_t)y) : (T)0;        \
    }                                                                                 \
    TL_ELEM_COMPARE(S, T)                                                             \
    /* x ** y by squaring, wrapping; y >= 0 (checked before). */                      \
    static inline T tl_##S##_pow(T x, T y)                                            \
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
   y == 0 gives 0 (rejected before); -1 avoids INT_MIN / -1. */
#define TL_ELEM_INT_SIGNED(S, T, UW)                                                  \
    TL_ELEM_INT_COMMON(S, T, UW)                                                      \
    static inline T tl_##S##_fdiv(T x, T y)                                           \
    {                                                                                 \
        if (y == 0) return 0;                                                         \
        if (y == -1) return (T)(0 - (UW)x);                                           \
        T q = (T)(x / y);                                                             \
        if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q--;                             \
        return q;                                                                     \
    }                                                                                 \
    static inline T tl_##S##_mod(T x, T y)                                            \
    {                                                                                 \
        if (y == 0 || y == -1) return 0;                                              \
        T r = (T)(x % y);                                                             \
        if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                           \
        return r;                                                                     \
    }                                                                                 \
    /* C's remainder, with the dividend's sign (numpy's fmod). */                     \
    static inline T tl_##S##_fmod(T x, T y) { return (y == 0 || y == -1) ? 0 : (T)(x % y); } \
    /* An arithmetic shift; by the bit width or more, the sign fills (numpy). */     \
    static inline T tl_##S##_shr(T x, T y)                                            \
    {                                                                                 \
        if ((uint64_t)y >= sizeof(T) * 8) return x < 0 ? (T)-1 : (T)0;                \
        return x < 0 ? (T)~(T)((T)~x >> y) : (T)(x >> y);                             \
    }

#define TL_ELEM_INT_UNSIGNED(S, T, UW)                                                \
    TL_ELEM_INT_COMMON(S, T, UW)                                                      \
    static inline T tl_##S##_fdiv(T x, T y) { return y ? (T)(x / y) : 0; }            \
    static inline T tl_##S##_mod(T x, T y) { return y ? (T)(x % y) : 0; }             \
    static inline T tl_##S##_fmod(T x, T y) { return y ? (T)(x % y) : 0; }            \
    static inline T tl_##S##_shr(T x, T y) { return (uint64_t)y < sizeof(T) * 8 ? (T)(x >> y) : 0; }

/* UW for an integer of SIZE bytes (TL_ELEM_UW_##SIZE). */
#define TL_ELEM_UW_1 uint32_t
#define TL_ELEM_UW_2 uint32_t
#define TL_ELEM_UW_4 uint32_t
#define TL_ELEM_UW_8 uint64_t

/* The element functions of every integer row of the dtype list, by its kind. */
#define TL_ELEM_INT_ROW(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, ...) TL_ELEM_INT_ROW_##KIND(S, CTYPE, SIZE)
#define TL_ELEM_INT_ROW_UINT(S, T, SIZE) TL_ELEM_INT_UNSIGNED(S, T, TL_ELEM_UW_##SIZE)
#define TL_ELEM_INT_ROW_INT(S, T, SIZE) TL_ELEM_INT_SIGNED(S, T, TL_ELEM_UW_##SIZE)
#define TL_ELEM_INT_ROW_BOOL(...)
#define TL_ELEM_INT_ROW_FLOAT(...)
#define TL_ELEM_INT_ROW_COMPLEX(...)
TL_DTYPE_LIST(TL_ELEM_INT_ROW, )

/* ---- bool: logical operators and comparisons; min is and, max is or ------ */
static inline bool tl_b_and(bool x, bool y) { return x && y; }
static inline bool tl_b_or(bool x, bool y) { return x || y; }
static inline bool tl_b_xor(bool x, bool y) { return x != y; }
static inline bool tl_b_min(bool x, bool y) { return x && y; }
static inline bool tl_b_max(bool x, bool y) { return x || y; }
static inline bool tl_b_fmin(bool x, bool y) { return x && y; }
static inline bool tl_b_fmax(bool x, bool y) { return x || y; }
TL_ELEM_COMPARE(b, bool)

/* ---- real floats: IEEE arithmetic; numpy's npy_divmod for // and % ------- */
#define TL_ELEM_FLOAT(S, T, FMOD, FLOOR, COPYSIGN, POW, ATAN2, HYPOT)                 \
    static inline T tl_##S##_fmod(T x, T y) { return FMOD(x, y); }                    \
    static inline T tl_##S##_hypot(T x, T y) { return HYPOT(x, y); }                  \
    /* numpy's fmin/fmax: a NaN loses to a number (two NaNs give NaN). */            \
    static inline T tl_##S##_fmin(T x, T y) { return (x <= y || y != y) ? x : y; }    \
    static inline T tl_##S##_fmax(T x, T y) { return (x >= y || y != y) ? x : y; }    \
    static inline T tl_##S##_add(T x, T y) { return x + y; }                          \
    static inline T tl_##S##_sub(T x, T y) { return x - y; }                          \
    static inline T tl_##S##_mul(T x, T y) { return x * y; }                          \
    static inline T tl_##S##_div(T x, T y) { return x / y; }                          \
    static inline T tl_##S##_pow(T x, T y) { return POW(x, y); }                      \
    static inline T tl_##S##_atan2(T x, T y) { return ATAN2(x, y); }                  \
    TL_ELEM_COMPARE(S, T)                                                             \
    /* numpy's minimum/maximum: a NaN on either side wins; of equal values (-0. and 0.) */ \
    /* the second, as numpy: maximum(-0., 0) is 0. and maximum(0, -0.) is -0.          */ \
    static inline T tl_##S##_min(T x, T y) { return (x < y || x != x) ? x : y; }      \
    static inline T tl_##S##_max(T x, T y) { return (x > y || x != x) ? x : y; }      \
    /* floor(a / b) and the remainder with b's sign, as npy_divmod. */               \
    static inline T tl_##S##_divmod(T a, T b, T *modulus)                             \
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
    static inline T tl_##S##_fdiv(T a, T b)                                           \
    {                                                                                 \
        T mod;                                                                        \
        if (!b) return a / b;                                                         \
        return tl_##S##_divmod(a, b, &mod);                                           \
    }                                                                                 \
    static inline T tl_##S##_mod(T a, T b)                                            \
    {                                                                                 \
        T mod;                                                                        \
        if (!b) return FMOD(a, b);                                                    \
        tl_##S##_divmod(a, b, &mod);                                                  \
        return mod;                                                                   \
    }

TL_ELEM_FLOAT(f32, float, fmodf, floorf, copysignf, powf, atan2f, hypotf)
TL_ELEM_FLOAT(f64, double, fmod, floor, copysign, pow, atan2, hypot)

/* ---- complex: numpy's formulas, as plain pairs (not C99 Annex G's slow
   NaN-recovering multiply), on tl_cf / tl_cd (dtype.h) ------------------- */

/* a ** b by the C library's cpowf/cpow: the general case of tl_c64_pow and
   tl_c128_pow (kernels/binary_loops.c; out of line so that this header need
   not include <complex.h>, whose macro I would clash with callers' names). */
tl_cf tl_c64_cpow(tl_cf a, tl_cf b);
tl_cd tl_c128_cpow(tl_cd a, tl_cd b);

#define TL_ELEM_COMPLEX(S, C, T, ONE)                                                 \
    static inline C tl_##S##_add(C a, C b) { return (C){ a.re + b.re, a.im + b.im }; }\
    static inline C tl_##S##_sub(C a, C b) { return (C){ a.re - b.re, a.im - b.im }; }\
    static inline C tl_##S##_mul(C a, C b)                                            \
    {                                                                                 \
        return (C){ a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };           \
    }                                                                                 \
    /* Smith's division, as numpy's loops. */                                         \
    static inline C tl_##S##_div(C a, C b)                                            \
    {                                                                                 \
        T br_abs = (T)fabs((double)b.re), bi_abs = (T)fabs((double)b.im); /* -0.0 too */\
        if (br_abs >= bi_abs) {                                                       \
            if (br_abs == 0 && bi_abs == 0) return (C){ a.re / br_abs, a.im / br_abs };\
            T rat = b.im / b.re, scl = ONE / (b.re + b.im * rat);                     \
            return (C){ (a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl };       \
        }                                                                             \
        T rat = b.re / b.im, scl = ONE / (b.im + b.re * rat);                         \
        return (C){ (a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl };           \
    }                                                                                 \
    /* numpy's npy_cpow: small integer powers by repeated multiplication. */         \
    static inline C tl_##S##_pow(C a, C b)                                            \
    {                                                                                 \
        if (b.re == 0 && b.im == 0) return (C){ ONE, 0 };                             \
        if (a.re == 0 && a.im == 0) {                                                 \
            if (b.re > 0 && b.im == 0) return (C){ 0, 0 };                            \
            return (C){ (T)NAN, (T)NAN };                                             \
        }                                                                             \
        if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == (T)(int)b.re) {         \
            int n = (int)b.re;                                                        \
            if (n == 1) return a;                                                     \
            if (n == 2) return tl_##S##_mul(a, a);                                    \
            if (n == 3) return tl_##S##_mul(tl_##S##_mul(a, a), a);                   \
            unsigned m = (unsigned)(n < 0 ? -n : n), mask = 1;                        \
            C acc = { ONE, 0 }, p = a;                                                \
            for (;;) {                                                                \
                if (m & mask) acc = tl_##S##_mul(acc, p);                             \
                mask <<= 1;                                                           \
                if (m < mask || mask == 0) break;                                     \
                p = tl_##S##_mul(p, p);                                               \
            }                                                                         \
            if (n < 0) acc = tl_##S##_div((C){ ONE, 0 }, acc);                        \
            return acc;                                                               \
        }                                                                             \
        return tl_##S##_cpow(a, b);                                                   \
    }                                                                                 \
    static inline bool tl_##S##_eq(C a, C b) { return a.re == b.re && a.im == b.im; } \
    static inline bool tl_##S##_ne(C a, C b) { return !tl_##S##_eq(a, b); }           \
    /* Lexicographic order, as numpy compares complex numbers. */                     \
    static inline bool tl_##S##_lt(C a, C b) { return a.re < b.re || (a.re == b.re && a.im < b.im); } \
    static inline bool tl_##S##_le(C a, C b) { return a.re < b.re || (a.re == b.re && a.im <= b.im); } \
    static inline bool tl_##S##_gt(C a, C b) { return tl_##S##_lt(b, a); }            \
    static inline bool tl_##S##_ge(C a, C b) { return tl_##S##_le(b, a); }            \
    static inline C tl_##S##_min(C a, C b)                                            \
    {                                                                                 \
        return (tl_##S##_le(a, b) || a.re != a.re || a.im != a.im) ? a : b;           \
    }                                                                                 \
    static inline C tl_##S##_max(C a, C b)                                            \
    {                                                                                 \
        return (tl_##S##_le(b, a) || a.re != a.re || a.im != a.im) ? a : b;           \
    }                                                                                 \
    /* fmin/fmax: a NaN loses to a number, as numpy. */                               \
    static inline C tl_##S##_fmin(C a, C b)                                           \
    {                                                                                 \
        return (tl_##S##_le(a, b) || b.re != b.re || b.im != b.im) ? a : b;           \
    }                                                                                 \
    static inline C tl_##S##_fmax(C a, C b)                                           \
    {                                                                                 \
        return (tl_##S##_le(b, a) || b.re != b.re || b.im != b.im) ? a : b;           \
    }

TL_ELEM_COMPLEX(c64, tl_cf, float, 1.0f)
TL_ELEM_COMPLEX(c128, tl_cd, double, 1.0)

#endif
