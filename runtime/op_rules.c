/* op_rules.c — the element-wise operators' rules that every path shares: what a dtype may go through, numpy's ** shortcuts, the dtype of n operands */
#include <string.h>

#include "kernels/kern.h"

/* The eager kernels, the fused programs (kernels/fusion_build.c) and the language's operators,
   fusion and graphs (src/arith.c, fuse.c, graph_fuse.c, stdlib/math.c) each used to restate
   these; they ask here instead, as Lua's constant folder and its VM both call luaO_rawarith. */

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
    if (complex) return TL_POW_GENERAL;   /* for 2, 1 and -1 the complex power already gives numpy's bits */
    return x == 2 ? TL_POW_SQUARE : x == 1 ? TL_POW_COPY : x == -1 ? TL_POW_RECIPROCAL : TL_POW_GENERAL;
}

/* Whether the integer x can be held by integer dtype d (its limits follow from kind and size). */
static bool int_fits(int64_t x, tl_dtype d)
{
    unsigned bits = 8u * (unsigned)tl_dtype_size(d);
    if (tl_dtype_kind(d) == TL_KIND_UINT) return x >= 0 && (bits >= 64 || (uint64_t)x <= (UINT64_MAX >> (64 - bits)));
    if (bits >= 64) return true;
    int64_t lim = INT64_C(1) << (bits - 1);
    return x >= -lim && x < lim;
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
