/* arith.h — operators on values */
#ifndef TL_ARITH_H
#define TL_ARITH_H

#include "interp.h"
#include "ops.h"

/* a OP b for a binary operator: a tl_binop or OP_MATMUL (ast.h). */
bool arith_binary(Interp *I, int op, Value a, Value b, Span at, Value *out);
/* arith_binary that may write the result over tensor a when the caller holds
   all of a's references, `spare` of them, and releases them right after (a
   temporary, or x in `x = x OP y`): see tl_binary_over. */
bool arith_binary_reusing(Interp *I, int op, Value a, Value b, Span at, Value *out, int64_t spare);
/* x OP y written over x, for tensors of one (non-bool) dtype, when the
   caller's `spare` references are all x has (see tl_binary_over). 1: done;
   0: not possible, nothing written; -1: failed, error reported. */
int arith_tensor_over(Interp *I, int op, tl_tensor *x, const tl_tensor *y, Span at, int64_t spare);
/* OP a for unary -, +, ~ and not. */
bool arith_unary(Interp *I, UnaryOp op, Value a, Span at, Value *out);
/* The computation dtype of a OP b (weak literals per NEP 50; errors for out-of-range literals). */
bool arith_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt);

/* The commonest scalar cases (f64 and i64 under + - * / and comparisons) without the general
   promotion machinery: f64 with f64 or i64 gives f64 whatever the weakness, i64 with i64 gives
   i64 (what arith_result_dtype would say). False: not one of these; use arith_binary. */
static inline __attribute__((always_inline)) bool arith_scalar_quick(int op, Value a, Value b, Value *out)
{
    bool af = a.dtype == TL_F64, bf = b.dtype == TL_F64;
    if (!((af || a.dtype == TL_I64) && (bf || b.dtype == TL_I64))) return false;
    bool weak = a.weak && b.weak;
    if (af || bf) {
        double x = af ? a.as.num.f64 : (double)a.as.num.i64, y = bf ? b.as.num.f64 : (double)b.as.num.i64;
        switch (op) {
        case TL_ADD: *out = val_f64(x + y); break;
        case TL_SUB: *out = val_f64(x - y); break;
        case TL_MUL: *out = val_f64(x * y); break;
        case TL_DIV: *out = val_f64(x / y); break;
        case TL_LT: *out = val_bool(x < y); return true;
        case TL_LE: *out = val_bool(x <= y); return true;
        case TL_GT: *out = val_bool(x > y); return true;
        case TL_GE: *out = val_bool(x >= y); return true;
        case TL_EQ: *out = val_bool(x == y); return true;
        case TL_NE: *out = val_bool(x != y); return true;
        default: return false;
        }
        out->weak = weak;
        return true;
    }
    uint64_t x = (uint64_t)a.as.num.i64, y = (uint64_t)b.as.num.i64;   /* wrapping arithmetic */
    switch (op) {
    case TL_ADD: *out = val_i64((int64_t)(x + y)); break;
    case TL_SUB: *out = val_i64((int64_t)(x - y)); break;
    case TL_MUL: *out = val_i64((int64_t)(x * y)); break;
    case TL_LT: *out = val_bool(a.as.num.i64 < b.as.num.i64); return true;
    case TL_LE: *out = val_bool(a.as.num.i64 <= b.as.num.i64); return true;
    case TL_GT: *out = val_bool(a.as.num.i64 > b.as.num.i64); return true;
    case TL_GE: *out = val_bool(a.as.num.i64 >= b.as.num.i64); return true;
    case TL_EQ: *out = val_bool(a.as.num.i64 == b.as.num.i64); return true;
    case TL_NE: *out = val_bool(a.as.num.i64 != b.as.num.i64); return true;
    default: return false;
    }
    out->weak = weak;
    return true;
}

#endif
