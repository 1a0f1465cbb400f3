/* arith.h — operators on values */

/* Where `a + b` is computed (what each element means is defined once, in
   runtime/elem.h; promotion once, in tl_binop_dtype):
   - arith_scalar_quick (below): f64/i64 numbers, inline at the evaluator's
     two hot sites (eval's N_BINARY, exec's `x = a OP b`) so a scalar loop
     makes no call; elem.h's functions.
   - arith_binary: every other pair of values. Numbers: tl_binary_scalar (the
     kernels' own loops on one element); tensors: tl_binary, or
     tl_binary_over when a temporary or x in `x = x OP y` can take the
     result (numpy's temporary elision); strings and tuples concatenate.
   - exec.c's update_in_place: `x = x OP y` over tensors when x alone holds
     its tensor, straight to tl_binary_over (arith_tensor_over) without
     touching a reference count.
   - exec.c's exec_opassign: `x += y` on a tensor writes x's own elements,
     result cast to x's dtype (tl_binary_into), as numpy's in-place operators.
   - fuse.c: a statement's elementwise tree over large tensors in one pass
     (runtime/fusion.h), running the same loops block by block.
   Each tensor route runs the loops of kernels/binary_loops.c, so all of them
   give the same bits (tests/unit/test_binops.c checks numbers against
   tensors for every operator and dtype pair). */
#ifndef TL_ARITH_H
#define TL_ARITH_H

#include "elem.h"
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
/* Reports the runtime's error at `at`; returns -1. Out of line, so inline callers stay small. */
__attribute__((cold)) int arith_report_failure(Interp *I, Span at);
static inline int arith_tensor_over(Interp *I, int op, tl_tensor *x, const tl_tensor *y, Span at, int64_t spare)
{
    /* other dtypes promote (tl_binary_over declines them), bool + bool is the general path's; @ is not
       a tl_binop (tl_binary_over declines it too) */
    if (x->dtype == TL_BOOL) return 0;
    int rc = tl_binary_over((tl_binop)op, x, y, x->dtype, spare);
    return __builtin_expect(rc >= 0, 1) ? rc : arith_report_failure(I, at);
}
/* True when an op's dt result may be stored in place in x (a same or lower
   kind, or any integer into an integer); else reports the error. */
bool arith_in_place_fits(Interp *I, int op, tl_dtype dt, const tl_tensor *x, Span at);
/* x @= y for a tensor x: the product goes to a temporary first (y may overlap x), then into
   x's own elements, cast to x's dtype; its shape must be x's. */
bool arith_matmul_in_place(Interp *I, Value x, Value y, Span at);
/* OP a for unary -, +, ~ and not. */
bool arith_unary(Interp *I, UnaryOp op, Value a, Span at, Value *out);
/* arith_binary and arith_unary with a tensor result written into `into` when it fits
   (tl_tensor_result: a graph's arena buffer), else into a new tensor. */
bool arith_binary_to(Interp *I, int op, Value a, Value b, Span at, tl_tensor *into, Value *out);
bool arith_unary_to(Interp *I, UnaryOp op, Value a, Span at, tl_tensor *into, Value *out);
/* a OP b when a or b is not a number or tensor (arith_seq.c): + and * on strings, tuples and
   lists, == != by value, < <= > >= in Python's order; anything else a TypeError. */
bool arith_sequence(Interp *I, int op, Value a, Value b, Span at, Value *out);
/* fmt % args (printf.c): Python's printf-style formatting; args a tuple of values, a dict for
   %(key) conversions, or one value. */
bool str_percent_format(Interp *I, const Str *fmt, Value args, Span at, Value *out);
/* xs += items (any iterable, as extend) and xs *= n on a list: the list itself changes, as
   Python's do, so every name holding it sees the change. 1 done, 0 not one of these, -1 error
   reported. */
int arith_list_in_place(Interp *I, int op, List *l, Value rhs, Span at);
/* x in c (x not in c when negate): a bool. */
bool arith_contains(Interp *I, Value x, Value c, bool negate, Span at, Value *out);
/* The computation dtype of a OP b (weak literals per NEP 50; errors for out-of-range literals). */
bool arith_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt);

/* The evaluator's one quick path: the commonest scalar cases (f64 and i64
   under + - * / // % ** and comparisons) without the general promotion machinery,
   with the runtime's element functions (elem.h), so the result is the one
   tl_binary_scalar would give: f64 with f64 or i64 gives f64 whatever the
   weakness, i64 with i64 gives i64 (what tl_binop_dtype would say). False:
   not one of these (i64 / i64, & |, integer division by zero...); use arith_binary. */
static inline __attribute__((always_inline)) bool arith_scalar_quick(int op, Value a, Value b, Value *out)
{
    bool af = a.dtype == TL_F64, bf = b.dtype == TL_F64;
    if (!((af || a.dtype == TL_I64) && (bf || b.dtype == TL_I64))) return false;
    bool weak = a.weak && b.weak;
    if (af || bf) {
        double x = af ? a.as.num.f64 : (double)a.as.num.i64, y = bf ? b.as.num.f64 : (double)b.as.num.i64;
        switch (op) {
        case TL_ADD: *out = val_f64(tl_f64_add(x, y)); break;
        case TL_SUB: *out = val_f64(tl_f64_sub(x, y)); break;
        case TL_MUL: *out = val_f64(tl_f64_mul(x, y)); break;
        case TL_DIV: *out = val_f64(tl_f64_div(x, y)); break;
        case TL_FLOORDIV: *out = val_f64(tl_f64_fdiv(x, y)); break;
        case TL_MOD: *out = val_f64(tl_f64_mod(x, y)); break;
        case TL_POW: *out = val_f64(tl_f64_pow(x, y)); break;
        case TL_LT: *out = val_bool(tl_f64_lt(x, y)); return true;
        case TL_LE: *out = val_bool(tl_f64_le(x, y)); return true;
        case TL_GT: *out = val_bool(tl_f64_gt(x, y)); return true;
        case TL_GE: *out = val_bool(tl_f64_ge(x, y)); return true;
        case TL_EQ: *out = val_bool(tl_f64_eq(x, y)); return true;
        case TL_NE: *out = val_bool(tl_f64_ne(x, y)); return true;
        default: return false;
        }
        out->weak = weak;
        return true;
    }
    int64_t x = a.as.num.i64, y = b.as.num.i64;
    switch (op) {
    case TL_ADD: *out = val_i64(tl_i64_add(x, y)); break;
    case TL_SUB: *out = val_i64(tl_i64_sub(x, y)); break;
    case TL_MUL: *out = val_i64(tl_i64_mul(x, y)); break;
    case TL_FLOORDIV: case TL_MOD: case TL_POW:   /* a zero divisor or negative power: the runtime's error */
        if (tl_int_operand_error((tl_binop)op, y == 0, y < 0)) return false;
        *out = val_i64(op == TL_FLOORDIV ? tl_i64_fdiv(x, y) : op == TL_MOD ? tl_i64_mod(x, y) : tl_i64_pow(x, y));
        break;
    case TL_LT: *out = val_bool(tl_i64_lt(x, y)); return true;
    case TL_LE: *out = val_bool(tl_i64_le(x, y)); return true;
    case TL_GT: *out = val_bool(tl_i64_gt(x, y)); return true;
    case TL_GE: *out = val_bool(tl_i64_ge(x, y)); return true;
    case TL_EQ: *out = val_bool(tl_i64_eq(x, y)); return true;
    case TL_NE: *out = val_bool(tl_i64_ne(x, y)); return true;
    default: return false;
    }
    out->weak = weak;
    return true;
}

#endif
