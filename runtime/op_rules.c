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

int tl_result_dtype_n(int n, const tl_dtype *dts, const bool *weak, const void *const *values, tl_dtype *dt)
{
    bool any_strong = false, any = false;
    tl_dtype acc = TL_BOOL;
    for (int i = 0; i < n; i++)
        if (!weak[i]) {
            acc = any_strong ? tl_promote(acc, dts[i]) : dts[i];
            any_strong = true;
        }
    for (int i = 0; i < n; i++) {
        if (!weak[i]) continue;
        if (!any_strong) acc = any ? tl_promote(acc, dts[i]) : dts[i];
        else if (tl_binop_dtype(TL_MINIMUM, acc, false, dts[i], true, values[i], &acc) < 0) return -1;
        any = true;
    }
    *dt = acc;
    return 0;
}
