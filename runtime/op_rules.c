/* op_rules.c — the element-wise operators' dtype rules, the one place every path asks: compute and result dtypes, weak literals, what a dtype may go through, numpy's ** shortcuts, the dtype of n operands */
#include <string.h>

#include "kernels/kern.h"

/* The eager kernels, the fused programs (kernels/fusion_build.c) and the language's operators,
   fusion and graphs (src/arith.c, fuse.c, graph_fuse.c, stdlib/math.c) each used to restate
   these; they ask here instead, as Lua's constant folder and its VM both call luaO_rawarith. */

/* ---- compute and result dtypes ---------------------------------------------- */

/* Whether the integer x can be held by integer dtype d. */
static bool int_fits(int64_t x, tl_dtype d) { return x >= tl_int_min(d) && (x < 0 || (uint64_t)x <= tl_int_max(d)); }

tl_dtype tl_float_for(tl_dtype d)
{
    if (!tl_is_intlike(d)) return d;
    size_t size = tl_dtype_size(d);
    return size == 1 ? TL_F16 : size == 2 ? TL_F32 : TL_F64;   /* 11, 24, 53 significant bits */
}

tl_dtype tl_binop_compute_dtype(tl_binop op, tl_dtype dt)
{
    bool intlike = tl_is_int(dt) || dt == TL_BOOL;
    switch (op) {
    case TL_ADD: case TL_SUB: case TL_MUL: case TL_FLOORDIV: case TL_MOD: case TL_POW:
        return dt == TL_BOOL ? TL_I64 : dt;      /* true + true is 2, as Python */
    case TL_DIV:
        return intlike ? TL_F64 : dt;            /* integer / is true division */
    case TL_ATAN2: case TL_HYPOT:
        return intlike ? tl_float_for(dt) : dt;
    case TL_LSHIFT: case TL_RSHIFT:
        return dt == TL_BOOL ? TL_I8 : dt;       /* numpy shifts bools as int8 */
    case TL_FMOD:
        return dt == TL_BOOL ? TL_I8 : dt;
    default:
        return dt;
    }
}

/* True when the integer value of a weak literal (an i64, or any other dtype,
   which always fits) can be held by dtype d. */
static bool literal_fits(const void *lit, tl_dtype lit_dtype, tl_dtype d)
{
    if (lit_dtype != TL_I64 || !tl_is_int(d)) return true;
    int64_t x;
    memcpy(&x, lit, sizeof x);
    return int_fits(x, d);
}

int tl_binop_dtype(tl_binop op, tl_dtype da, bool weak_a, tl_dtype db, bool weak_b, const void *weak_value,
                   tl_dtype *dt)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)da >= TL_NDTYPES || (unsigned)db >= TL_NDTYPES) {
        tl_seterr(ValueError, "invalid binary operator or dtype");
        return -1;
    }
    tl_dtype d;
    if (weak_a == weak_b) {
        d = tl_promote(da, db);
    } else {
        tl_dtype strong = weak_a ? db : da, lit = weak_a ? da : db;
        d = tl_promote_weak(strong, lit);
        if (tl_is_int(strong) && weak_value && !literal_fits(weak_value, lit, strong)) {
            if (!tl_binop_is_comparison(op)) {
                int64_t x;
                memcpy(&x, weak_value, sizeof x);
                tl_seterr(ValueError, "integer %lld is out of bounds for %s", (long long)x, tl_dtype_name(strong));
                return -1;
            }
            d = tl_promote(strong, TL_I64);   /* compare exactly in a wider type */
        }
    }
    *dt = tl_binop_compute_dtype(op, d);
    return 0;
}

tl_dtype tl_binop_result_dtype(tl_binop op, tl_dtype computation)
{
    if (tl_binop_is_comparison(op)) return TL_BOOL;
    return tl_binop_compute_dtype(op, computation);
}

/* Each function's COMPUTE and RESULT rules (unop_list.h). */
enum { UN_COMPUTE_KEEP, UN_COMPUTE_FLOAT, UN_COMPUTE_ROUND };
enum { UN_RESULT_SAME, UN_RESULT_BOOL, UN_RESULT_REAL };
typedef struct unop_rules { uint8_t compute, result; } unop_rules;
#define UNOP_RULES(arg, ENUM, STEM, NAME, COMPUTE, RESULT, ...) [ENUM] = { UN_COMPUTE_##COMPUTE, UN_RESULT_##RESULT },
static const unop_rules unop_rule[TL_NUNOPS] = { TL_UNOP_LIST(UNOP_RULES, ) };
#undef UNOP_RULES

tl_dtype tl_unop_compute_dtype(tl_unop op, tl_dtype d)
{
    switch (unop_rule[op].compute) {
    case UN_COMPUTE_KEEP: return d;
    case UN_COMPUTE_ROUND: return d == TL_BOOL ? TL_F16 : d;      /* numpy rounds ints to themselves */
    default: return tl_float_for(d);                              /* sqrt(i8) is f16, as numpy */
    }
}

tl_dtype tl_unop_result_dtype(tl_unop op, tl_dtype d)
{
    switch (unop_rule[op].result) {
    case UN_RESULT_BOOL: return TL_BOOL;
    case UN_RESULT_REAL: return tl_dtype_real(tl_unop_compute_dtype(op, d));
    default: return tl_unop_compute_dtype(op, d);
    }
}

const char *tl_binop_name(tl_binop op)
{
    static const char *const names[TL_NBINOPS] = {
#define BINOP_NAME(CTX, E, SYM, FN, CMP, B, I, F, C) [E] = SYM,
        TL_BINOP_LIST(BINOP_NAME, _)
#undef BINOP_NAME
    };
    return (unsigned)op < TL_NBINOPS ? names[op] : "?";
}

const char *tl_unop_name(tl_unop op)
{
#define UNOP_NAME(arg, ENUM, STEM, NAME, ...) [ENUM] = NAME,
    static const char *const names[TL_NUNOPS] = { TL_UNOP_LIST(UNOP_NAME, ) };
#undef UNOP_NAME
    return (unsigned)op < TL_NUNOPS ? names[op] : "?";
}

/* ---- what applies, and numpy's shortcuts -------------------------------------- */


bool tl_unop_accepts(tl_unop op, tl_dtype d)
{
    if ((unsigned)op >= TL_NUNOPS || (unsigned)d >= TL_NDTYPES) return false;
    if (op == TL_NEG && d == TL_BOOL) return false;   /* numpy refuses - of bool (~ or not is meant) */
    return tl_unary_loop(op, tl_unop_compute_dtype(op, d)) != NULL;
}

bool tl_binop_accepts(tl_binop op, tl_dtype dt)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)dt >= TL_NDTYPES) return false;
    enum { N = 0, Y = 1 };
    /* per operator, whether the list has kernels for each kind of computation dtype */
    static const bool kinds[TL_NBINOPS][4] = {
#define BINOP_KINDS(CTX, E, SYM, FN, CMP, B, I, F, C) [E] = { B, I, F, C },
        TL_BINOP_LIST(BINOP_KINDS, _)
#undef BINOP_KINDS
    };
    static const int column[] = { [TL_KIND_BOOL] = 0, [TL_KIND_UINT] = 1, [TL_KIND_INT] = 1, [TL_KIND_FLOAT] = 2, [TL_KIND_COMPLEX] = 3 };
    return kinds[op][column[tl_dtype_kind(tl_binop_compute_dtype(op, dt))]];
}

tl_pow_shortcut tl_pow_shortcut_of(tl_dtype cdt, const void *e, tl_dtype edt)
{
    bool complex = tl_is_complex(cdt);
    if (!tl_is_float(cdt) && !complex) return TL_POW_GENERAL;
    if (complex && tl_is_complex(edt)) return TL_POW_GENERAL;
    /* the exponent as the computation sees it: converted to cdt (its real part's dtype for complex) */
    tl_dtype as = complex ? tl_dtype_real(cdt) : cdt;
    double x = tl_scalar_to_f64(e, edt);
    tl_scalar s;
    tl_scalar_convert(&s, as, &x, TL_F64);
    x = tl_scalar_to_f64(&s, as);
    if (x == 0.5) return TL_POW_SQRT;
    if (x == -1) return TL_POW_RECIPROCAL;   /* numpy's reciprocal; for complex not Smith's 1 / x */
    if (complex) return TL_POW_GENERAL;      /* for 2 and 1 the complex power already gives numpy's bits */
    return x == 2 ? TL_POW_SQUARE : x == 1 ? TL_POW_COPY : TL_POW_GENERAL;
}


void tl_dtype_acc_add(tl_dtype_acc *a, tl_dtype d, bool weak, const void *value)
{
    if (!weak) {
        a->strong = a->any_strong ? tl_promote(a->strong, d) : d;
        a->any_strong = true;
        return;
    }
    a->weak = a->any_weak ? tl_promote(a->weak, d) : d;
    a->any_weak = true;
    if (d == TL_I64 && value) {   /* an integer literal: its range is checked against the result */
        int64_t x;
        memcpy(&x, value, sizeof x);
        if (!a->any_int || x < a->int_lo) a->int_lo = x;
        if (!a->any_int || x > a->int_hi) a->int_hi = x;
        a->any_int = true;
    }
}

int tl_dtype_acc_result(const tl_dtype_acc *a, tl_dtype *dt)
{
    if (!a->any_strong || !a->any_weak) {
        *dt = a->any_strong ? a->strong : a->any_weak ? a->weak : TL_BOOL;
        return 0;
    }
    tl_dtype d = tl_promote_weak(a->strong, a->weak);
    if (tl_is_int(d) && a->any_int && (!int_fits(a->int_lo, d) || !int_fits(a->int_hi, d))) {
        tl_seterr(ValueError, "integer %lld is out of bounds for %s", (long long)(int_fits(a->int_lo, d) ? a->int_hi : a->int_lo),
                  tl_dtype_name(d));
        return -1;
    }
    *dt = d;
    return 0;
}
