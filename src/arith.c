/* arith.c — operators on values: numbers through the runtime's scalar arithmetic, tensors through its kernels (strings, tuples, lists: arith_seq.c) */
#include <string.h>

#include "arith.h"
#include "graph.h"
#include "ops.h"

bool arith_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt)
{
    bool wa = a.kind == V_NUM && a.weak, wb = b.kind == V_NUM && b.weak;
    const void *lit = wa && !wb ? a.as.num.bytes : wb && !wa ? b.as.num.bytes : NULL;
    if (tl_binop_dtype(op, val_dtype(a), wa, val_dtype(b), wb, lit, dt) < 0) return interp_error_rt(I, at);
    return true;
}

static bool binary_core(Interp *I, int op, Value a, Value b, Span at, Value *out, int64_t spare, tl_tensor *into);

bool arith_binary(Interp *I, int op, Value a, Value b, Span at, Value *out)
{
    return arith_binary_reusing(I, op, a, b, at, out, 0);
}

int arith_report_failure(Interp *I, Span at)
{
    interp_error_rt(I, at);
    return -1;
}

/* The result dtype of two tensors: equal non-bool dtypes need no promotion
   table (weak or not, d with d is d); the rest asks arith_result_dtype. */
static bool tensor_pair_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt)
{
    if (a.kind == V_TENSOR && b.kind == V_TENSOR && a.as.t->dtype == b.as.t->dtype && a.as.t->dtype != TL_BOOL) {
        *dt = a.as.t->dtype;
        return true;
    }
    return arith_result_dtype(I, op, a, b, at, dt);
}

bool arith_binary_reusing(Interp *I, int op, Value a, Value b, Span at, Value *out, int64_t spare)
{
    return binary_core(I, op, a, b, at, out, spare, NULL);
}

bool arith_binary_to(Interp *I, int op, Value a, Value b, Span at, tl_tensor *into, Value *out)
{
    return binary_core(I, op, a, b, at, out, 0, into);
}

/* arith_binary_reusing, a tensor result written into `into` when it fits (tl_tensor_result). */
static bool binary_core(Interp *I, int op, Value a, Value b, Span at, Value *out, int64_t spare, tl_tensor *into)
{
    if (__builtin_expect(a.kind == V_TRACE || b.kind == V_TRACE, 0)) return graph_trace_binary(I, op, a, b, at, out);
    if (spare > 0 && a.kind == V_TENSOR && b.kind == V_TENSOR) {
        int rc = arith_tensor_over(I, op, a.as.t, b.as.t, at, spare);
        if (rc < 0) return false;
        if (rc > 0) {
            *out = val_retain(a);
            out->weak = false;   /* as a fresh result: only scalars carry weakness */
            return true;
        }
    }
    if (op == OP_MATMUL) {
        if (!val_is_numeric(a) || !val_is_numeric(b)) return arith_sequence(I, op, a, b, at, out);
        if (a.kind == V_NUM || b.kind == V_NUM)
            return interp_error(I, at, ShapeError, "matmul: input operand %d does not have enough dimensions", a.kind == V_NUM ? 0 : 1);
        tl_tensor *r = tl_matmul_to(a.as.t, b.as.t, into);
        if (!r) return interp_error_rt(I, at);
        *out = val_from_tensor(r);
        return true;
    }
    if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(op, a, b, out)) return true;
    if (!val_is_numeric(a) || !val_is_numeric(b)) return arith_sequence(I, op, a, b, at, out);
    tl_dtype dt;
    if (!tensor_pair_dtype(I, (tl_binop)op, a, b, at, &dt)) return false;
    bool weak = a.kind == V_NUM && b.kind == V_NUM && a.weak && b.weak;
    if (a.kind == V_NUM && b.kind == V_NUM) {   /* numpy's scalar arithmetic, in the runtime */
        tl_scalar r = { 0 };
        int rdt = tl_binary_scalar((tl_binop)op, dt, a.as.num.bytes, (tl_dtype)a.dtype, b.as.num.bytes,
                                   (tl_dtype)b.dtype, &r);
        if (rdt < 0) return interp_error_rt(I, at);
        *out = val_num((tl_dtype)rdt, &r);
        out->weak = weak && !tl_binop_is_comparison((tl_binop)op);
        return true;
    }
    tl_tensor *ta = val_to_tensor(a), *tb = ta ? val_to_tensor(b) : NULL;
    tl_tensor *r = tb ? tl_binary_to((tl_binop)op, ta, tb, dt, into) : NULL;
    if (ta) tl_tensor_release(ta);
    if (tb) tl_tensor_release(tb);
    if (!r) return interp_error_rt(I, at);
    *out = val_from_tensor(r);
    if (out->kind == V_NUM) out->weak = weak && !tl_binop_is_comparison((tl_binop)op);
    return true;
}

bool arith_in_place_fits(Interp *I, int op, tl_dtype dt, const tl_tensor *x, Span at)
{
    if (tl_dtype_kind(dt) <= tl_dtype_kind(x->dtype) || (tl_is_int(dt) && tl_is_int(x->dtype))) return true;
    return interp_error(I, at, TypeError, "cannot store the %s result of '%s' in place in a %s tensor",
                        tl_dtype_name(dt), op_binary_symbol(op), tl_dtype_name(x->dtype));
}

bool arith_matmul_in_place(Interp *I, Value xv, Value y, Span at)
{
    tl_tensor *x = xv.as.t;
    Value prod;
    if (!arith_binary(I, OP_MATMUL, xv, y, at, &prod)) return false;
    tl_tensor *r = val_to_tensor(prod);   /* a 0-d result arrives as a number */
    val_release(prod);
    if (!r) return interp_error_rt(I, at);
    bool ok = arith_in_place_fits(I, OP_MATMUL, r->dtype, x, at);
    if (ok && (r->ndim != x->ndim || memcmp(r->shape, x->shape, sizeof *x->shape * (size_t)x->ndim) != 0)) {
        char rs[160], xs[160];
        ok = interp_error(I, at, ShapeError, "cannot store the %s result of '@' in place in a %s tensor",
                          tl_shape_str(r->ndim, r->shape, rs, sizeof rs), tl_shape_str(x->ndim, x->shape, xs, sizeof xs));
    }
    if (ok && tl_assign(x, r) != 0) ok = interp_error_rt(I, at);
    tl_tensor_release(r);
    return ok;
}

bool arith_unary(Interp *I, UnaryOp op, Value a, Span at, Value *out) { return arith_unary_to(I, op, a, at, NULL, out); }

bool arith_unary_to(Interp *I, UnaryOp op, Value a, Span at, tl_tensor *into, Value *out)
{
    if (__builtin_expect(a.kind == V_TRACE, 0)) return graph_trace_unary(I, op, a, at, out);
    if (op == UOP_NOT) {
        bool t;
        if (!val_truthy(a, &t)) return interp_error_rt(I, at);
        *out = val_bool(!t);
        return true;
    }
    if (!val_is_numeric(a))
        return interp_error(I, at, TypeError, "unsupported operand type for unary '%s': %s", op_unary_symbol(op), val_kind_name(a));
    tl_dtype d = val_dtype(a);
    if (op == UOP_PLUS) {
        *out = val_retain(a);
        return true;
    }
    if (!tl_unop_accepts(op_unary_function(op), d)) {
        if (op == UOP_NEG) return interp_error(I, at, TypeError, "the - operator is not supported for bool; use ~ or not");
        return interp_error(I, at, TypeError, "~ is not supported for %s (only bool and integers)", tl_dtype_name(d));
    }
    if (a.kind == V_NUM && (d == TL_I64 || d == TL_F64 || d == TL_BOOL)) {
        if (d == TL_F64) *out = val_f64(-a.as.num.f64);
        else if (d == TL_I64) *out = val_i64(op == UOP_INVERT ? ~a.as.num.i64 : (int64_t)(0 - (uint64_t)a.as.num.i64));
        else *out = val_bool(!a.as.num.b);
        out->weak = a.weak;
        return true;
    }
    tl_tensor *ta = val_to_tensor(a);
    tl_tensor *r = ta ? tl_unary_to(op_unary_function(op), ta, into) : NULL;
    if (ta) tl_tensor_release(ta);
    if (!r) return interp_error_rt(I, at);
    *out = val_from_tensor(r);
    if (out->kind == V_NUM) out->weak = a.weak;
    return true;
}
