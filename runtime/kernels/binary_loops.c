/* kernels/binary_loops.c — inner loops of the binary operators for every dtype */
#include <complex.h>

#include "elem.h"
#include "loops.h"

/* Each loop applies an element function of elem.h, so a kernel and the
   scalar path (src/arith.h, tl_binary_scalar) share one definition per
   operator. Loops over types whose arithmetic vectorizes are multiversioned
   (TL_BIN_LOOP); those whose element work is a call or a branch are not
   (TL_BIN_LOOP_P). Which (operator, dtype) pairs exist comes from
   TL_BINOP_LIST (ops.h): see binary_table at the end. */

/* The six comparisons' loops, made by L (TL_BIN_LOOP or TL_BIN_LOOP_P). */
#define COMPARE_LOOPS(L, S, T)                                                        \
    L(S##_eq_l, T, bool, tl_##S##_eq(x, y))                                           \
    L(S##_ne_l, T, bool, tl_##S##_ne(x, y))                                           \
    L(S##_lt_l, T, bool, tl_##S##_lt(x, y))                                           \
    L(S##_le_l, T, bool, tl_##S##_le(x, y))                                           \
    L(S##_gt_l, T, bool, tl_##S##_gt(x, y))                                           \
    L(S##_ge_l, T, bool, tl_##S##_ge(x, y))

/* ---- integers ------------------------------------------------------------ */
#define INT_LOOPS(S, T)                                                               \
    TL_BIN_LOOP(S##_add_l, T, T, tl_##S##_add(x, y))                                  \
    TL_BIN_LOOP(S##_sub_l, T, T, tl_##S##_sub(x, y))                                  \
    TL_BIN_LOOP(S##_mul_l, T, T, tl_##S##_mul(x, y))                                  \
    TL_BIN_LOOP_P(S##_fdiv_l, T, T, tl_##S##_fdiv(x, y))                              \
    TL_BIN_LOOP_P(S##_mod_l, T, T, tl_##S##_mod(x, y))                                \
    TL_BIN_LOOP_P(S##_pow_l, T, T, tl_##S##_pow(x, y))                                \
    COMPARE_LOOPS(TL_BIN_LOOP_P, S, T)                                                \
    TL_BIN_LOOP_P(S##_and_l, T, T, tl_##S##_and(x, y))                                \
    TL_BIN_LOOP_P(S##_or_l, T, T, tl_##S##_or(x, y))                                  \
    TL_BIN_LOOP_P(S##_xor_l, T, T, tl_##S##_xor(x, y))                                \
    TL_BIN_LOOP_P(S##_min_l, T, T, tl_##S##_min(x, y))                                \
    TL_BIN_LOOP_P(S##_max_l, T, T, tl_##S##_max(x, y))                                \
    TL_BIN_LOOP_P(S##_fmin_l, T, T, tl_##S##_fmin(x, y))                              \
    TL_BIN_LOOP_P(S##_fmax_l, T, T, tl_##S##_fmax(x, y))                              \
    TL_BIN_LOOP_P(S##_fmod_l, T, T, tl_##S##_fmod(x, y))                              \
    TL_BIN_LOOP_P(S##_shl_l, T, T, tl_##S##_shl(x, y))                                \
    TL_BIN_LOOP_P(S##_shr_l, T, T, tl_##S##_shr(x, y))

/* The loops of every integer row of the dtype list. */
#define INT_LOOPS_ROW(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, ...) INT_LOOPS_##KIND(S, CTYPE)
#define INT_LOOPS_UINT INT_LOOPS
#define INT_LOOPS_INT INT_LOOPS
#define INT_LOOPS_BOOL(S, T)
#define INT_LOOPS_FLOAT(S, T)
#define INT_LOOPS_COMPLEX(S, T)
TL_DTYPE_LIST(INT_LOOPS_ROW, )

/* ---- bool ---------------------------------------------------------------- */
COMPARE_LOOPS(TL_BIN_LOOP_P, b, bool)
TL_BIN_LOOP_P(b_and_l, bool, bool, tl_b_and(x, y))
TL_BIN_LOOP_P(b_or_l, bool, bool, tl_b_or(x, y))
TL_BIN_LOOP_P(b_xor_l, bool, bool, tl_b_xor(x, y))
TL_BIN_LOOP_P(b_min_l, bool, bool, tl_b_min(x, y))
TL_BIN_LOOP_P(b_max_l, bool, bool, tl_b_max(x, y))
TL_BIN_LOOP_P(b_fmin_l, bool, bool, tl_b_fmin(x, y))
TL_BIN_LOOP_P(b_fmax_l, bool, bool, tl_b_fmax(x, y))

/* ---- real floats --------------------------------------------------------- */
#define FLOAT_LOOPS(S, T)                                                             \
    TL_BIN_LOOP(S##_add_l, T, T, tl_##S##_add(x, y))                                  \
    TL_BIN_LOOP(S##_sub_l, T, T, tl_##S##_sub(x, y))                                  \
    TL_BIN_LOOP(S##_mul_l, T, T, tl_##S##_mul(x, y))                                  \
    TL_BIN_LOOP(S##_div_l, T, T, tl_##S##_div(x, y))                                  \
    TL_BIN_LOOP_P(S##_fdiv_l, T, T, tl_##S##_fdiv(x, y))                              \
    TL_BIN_LOOP_P(S##_mod_l, T, T, tl_##S##_mod(x, y))                                \
    TL_BIN_LOOP_P(S##_pow_l, T, T, tl_##S##_pow(x, y))                                \
    COMPARE_LOOPS(TL_BIN_LOOP, S, T)                                                  \
    TL_BIN_LOOP(S##_min_l, T, T, tl_##S##_min(x, y))                                  \
    TL_BIN_LOOP(S##_max_l, T, T, tl_##S##_max(x, y))                                  \
    TL_BIN_LOOP_P(S##_atan2_l, T, T, tl_##S##_atan2(x, y))                            \
    TL_BIN_LOOP_P(S##_fmod_l, T, T, tl_##S##_fmod(x, y))                              \
    TL_BIN_LOOP_P(S##_hypot_l, T, T, tl_##S##_hypot(x, y))                            \
    TL_BIN_LOOP(S##_fmin_l, T, T, tl_##S##_fmin(x, y))                                \
    TL_BIN_LOOP(S##_fmax_l, T, T, tl_##S##_fmax(x, y))

FLOAT_LOOPS(f32, float)
FLOAT_LOOPS(f64, double)

/* numpy's half minimum/maximum/fmin/fmax keep the first of equal values (minimum(-0., 0.) is
   -0. in f16, 0. in f32): its half loops compare with <= and >=, its float loops with < and >. */
static inline float half_min(float x, float y) { return (x <= y || x != x) ? x : y; }
static inline float half_max(float x, float y) { return (x >= y || x != x) ? x : y; }
static inline float half_fmin(float x, float y) { return (x <= y || y != y) ? x : y; }
static inline float half_fmax(float x, float y) { return (x >= y || y != y) ? x : y; }

/* f16 and bf16: widen to f32, compute, round once (as numpy's half loops). */
#define HALF_LOOPS(S, IN, OUT)                                                        \
    TL_BIN_LOOP_P(S##_add_l, uint16_t, uint16_t, OUT(tl_f32_add(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_sub_l, uint16_t, uint16_t, OUT(tl_f32_sub(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_mul_l, uint16_t, uint16_t, OUT(tl_f32_mul(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_div_l, uint16_t, uint16_t, OUT(tl_f32_div(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_fdiv_l, uint16_t, uint16_t, OUT(tl_f32_fdiv(IN(x), IN(y))))     \
    TL_BIN_LOOP_P(S##_mod_l, uint16_t, uint16_t, OUT(tl_f32_mod(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_pow_l, uint16_t, uint16_t, OUT(tl_f32_pow(IN(x), IN(y))))       \
    TL_BIN_LOOP_P(S##_eq_l, uint16_t, bool, tl_f32_eq(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_ne_l, uint16_t, bool, tl_f32_ne(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_lt_l, uint16_t, bool, tl_f32_lt(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_le_l, uint16_t, bool, tl_f32_le(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_gt_l, uint16_t, bool, tl_f32_gt(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_ge_l, uint16_t, bool, tl_f32_ge(IN(x), IN(y)))                  \
    TL_BIN_LOOP_P(S##_min_l, uint16_t, uint16_t, OUT(half_min(IN(x), IN(y))))         \
    TL_BIN_LOOP_P(S##_max_l, uint16_t, uint16_t, OUT(half_max(IN(x), IN(y))))         \
    TL_BIN_LOOP_P(S##_atan2_l, uint16_t, uint16_t, OUT(tl_f32_atan2(IN(x), IN(y))))   \
    TL_BIN_LOOP_P(S##_fmod_l, uint16_t, uint16_t, OUT(tl_f32_fmod(IN(x), IN(y))))     \
    TL_BIN_LOOP_P(S##_hypot_l, uint16_t, uint16_t, OUT(tl_f32_hypot(IN(x), IN(y))))   \
    TL_BIN_LOOP_P(S##_fmin_l, uint16_t, uint16_t, OUT(half_fmin(IN(x), IN(y))))     \
    TL_BIN_LOOP_P(S##_fmax_l, uint16_t, uint16_t, OUT(half_fmax(IN(x), IN(y))))

HALF_LOOPS(f16, H2F, F2H)
HALF_LOOPS(bf16, B2F, F2B)

/* ---- complex ------------------------------------------------------------- */
tl_cf tl_c64_cpow(tl_cf a, tl_cf b)
{
    float complex r = cpowf(a.re + a.im * I, b.re + b.im * I);
    return (tl_cf){ crealf(r), cimagf(r) };
}

tl_cd tl_c128_cpow(tl_cd a, tl_cd b)
{
    double complex r = cpow(a.re + a.im * I, b.re + b.im * I);
    return (tl_cd){ creal(r), cimag(r) };
}

#define COMPLEX_LOOPS(S, C)                                                           \
    TL_BIN_LOOP_P(S##_add_l, C, C, tl_##S##_add(x, y))                                \
    TL_BIN_LOOP_P(S##_sub_l, C, C, tl_##S##_sub(x, y))                                \
    TL_BIN_LOOP_P(S##_mul_l, C, C, tl_##S##_mul(x, y))                                \
    TL_BIN_LOOP_P(S##_div_l, C, C, tl_##S##_div(x, y))                                \
    TL_BIN_LOOP_P(S##_pow_l, C, C, tl_##S##_pow(x, y))                                \
    COMPARE_LOOPS(TL_BIN_LOOP_P, S, C)                                                \
    TL_BIN_LOOP_P(S##_min_l, C, C, tl_##S##_min(x, y))                                \
    TL_BIN_LOOP_P(S##_max_l, C, C, tl_##S##_max(x, y))                                \
    TL_BIN_LOOP_P(S##_fmin_l, C, C, tl_##S##_fmin(x, y))                              \
    TL_BIN_LOOP_P(S##_fmax_l, C, C, tl_##S##_fmax(x, y))

COMPLEX_LOOPS(c64, tl_cf)
COMPLEX_LOOPS(c128, tl_cd)

/* ---- the table: [op][D] = the loop S_fn_l of every row of TL_BINOP_LIST
   whose column for D's kind says Y; CTX is (D, S) ------------------------- */
#define UNPACK(D, S) D, S
#define ENTRY_AT(...) ENTRY_AT_(__VA_ARGS__)
#define ENTRY_AT_(E, FN, D, S) [E][D] = S##_##FN##_l,
#define ENTRY_Y(E, FN, CTX) ENTRY_AT(E, FN, UNPACK CTX)
#define ENTRY_N(E, FN, CTX)
#define ENTRY(FLAG, E, FN, CTX) ENTRY_##FLAG(E, FN, CTX)
#define BOOL_ROW(CTX, E, SYM, FN, CMP, B, I, F, C) ENTRY(B, E, FN, (TL_BOOL, b))   /* bool's loops are b_FN_l */
#define INT_ROW(CTX, E, SYM, FN, CMP, B, I, F, C) ENTRY(I, E, FN, CTX)
#define UINT_ROW INT_ROW
#define FLOAT_ROW(CTX, E, SYM, FN, CMP, B, I, F, C) ENTRY(F, E, FN, CTX)
#define COMPLEX_ROW(CTX, E, SYM, FN, CMP, B, I, F, C) ENTRY(C, E, FN, CTX)
/* One row per dtype of the master list, by its kind. */
#define DTYPE_ROW(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, ...) TL_BINOP_LIST(KIND##_ROW, (ENUM, S))

static const tl_inner_fn binary_table[TL_NBINOPS][TL_NDTYPES] = { TL_DTYPE_LIST(DTYPE_ROW, ) };

tl_inner_fn tl_binary_loop(tl_binop op, tl_dtype cdt)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)cdt >= TL_NDTYPES) return NULL;
    return binary_table[op][cdt];
}
