/* logic.c — truth-valued elementwise functions: logical_and/or/xor/not, isclose, allclose, array_equal */
#include "builtins.h"

/* The first n parameters as bool tensors (nonzero is true, nan too, as numpy's logical functions). */
static bool bool_args(Interp *I, CallArgs *a, int n, tl_tensor **out)
{
    for (int i = 0; i < n; i++) {
        tl_tensor *t;
        if (!arg_tensor(I, a, i, &t)) {
            for (int j = 0; j < i; j++) tl_tensor_release(out[j]);
            return false;
        }
        out[i] = tl_as_dtype(t, TL_BOOL);
        tl_tensor_release(t);
        if (!out[i]) {
            for (int j = 0; j < i; j++) tl_tensor_release(out[j]);
            return interp_error_rt(I, a->at);
        }
    }
    return true;
}

/* logical_and, logical_or, logical_xor: the bool rows of &, | and ^ (the row's tag) on truth values. */
static bool bi_logical(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t[2];
    if (!bool_args(I, a, 2, t)) return false;
    tl_tensor *r = tl_binary_to((tl_binop)a->self->tag, t[0], t[1], TL_BOOL, a->into);
    tl_tensor_release(t[0]);
    tl_tensor_release(t[1]);
    return ret_tensor(I, a, r, out);
}

/* logical_not(x): ~ on x's truth values. */
static bool bi_logical_not(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!bool_args(I, a, 1, &t)) return false;
    tl_tensor *r = tl_unary_to(TL_NOT, t, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

enum { CLOSE_ELEMENTWISE, CLOSE_ALL };

/* isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false) and allclose (the same, all of it; the tag). */
static bool bi_isclose(Interp *I, CallArgs *a, Value *out)
{
    double rtol, atol;
    bool equal_nan;
    tl_tensor *x, *y;
    if (!arg_double(I, a, 2, 1e-05, &rtol) || !arg_double(I, a, 3, 1e-08, &atol) || !arg_bool(I, a, 4, false, &equal_nan)) return false;
    if (!arg_tensor(I, a, 0, &x)) return false;
    if (!arg_tensor(I, a, 1, &y)) {
        tl_tensor_release(x);
        return false;
    }
    tl_tensor *r = tl_isclose_to(x, y, rtol, atol, equal_nan, a->into);
    if (r && a->self->tag == CLOSE_ALL) {
        tl_tensor *all = tl_reduce(TL_RALL, r, 0, NULL, false, 0);
        tl_tensor_release(r);
        r = all;
    }
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* array_equal(a1, a2, equal_nan=false): true when the shapes and all elements are equal. */
static bool bi_array_equal(Interp *I, CallArgs *a, Value *out)
{
    bool equal_nan;
    tl_tensor *x, *y;
    if (!arg_bool(I, a, 2, false, &equal_nan)) return false;
    if (!arg_tensor(I, a, 0, &x)) return false;
    if (!arg_tensor(I, a, 1, &y)) {
        tl_tensor_release(x);
        return false;
    }
    int r = tl_array_equal(x, y, equal_nan);
    tl_tensor_release(x);
    tl_tensor_release(y);
    if (r < 0) return interp_error_rt(I, a->at);
    *out = val_bool(r == 1);
    return true;
}

const Builtin bi_logic_table[] = {
    { "logical_and", bi_logical, "logical_and(x, y)", "true where both x and y are nonzero", TL_AND, BF_ELEMENTWISE, BT_INTO },
    { "logical_or", bi_logical, "logical_or(x, y)", "true where x or y is nonzero", TL_OR, BF_ELEMENTWISE, BT_INTO },
    { "logical_xor", bi_logical, "logical_xor(x, y)", "true where exactly one of x and y is nonzero", TL_XOR, BF_ELEMENTWISE, BT_INTO },
    { "logical_not", bi_logical_not, "logical_not(x)", "true where x is zero", 0, BF_ELEMENTWISE, BT_INTO },
    { "isclose", bi_isclose, "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)",
      "true where |a - b| <= atol + rtol * |b| (inf only equal to itself)", CLOSE_ELEMENTWISE, BF_ELEMENTWISE, BT_INTO },
    { "allclose", bi_isclose, "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)",
      "true when isclose(a, b) holds everywhere", CLOSE_ALL, BF_OTHER, BT_NO },
    { "array_equal", bi_array_equal, "array_equal(a1, a2, equal_nan=false)",
      "true when a1 and a2 have one shape and equal elements", 0, BF_OTHER, BT_NO },
    { 0 },
};
