/* math.c — elementwise functions: the unary family (one C function, the row's tag is the op), binary ones, clip, where */
#include <math.h>
#include <string.h>

#include "builtins.h"

/* Marks a 0-d result weak when every numeric argument was weak (docs/language.md §7: weakness belongs to the value). */
static void keep_weak(CallArgs *a, Value *out)
{
    if (out->kind == V_NUM && out->dtype != TL_BOOL && args_all_weak(a)) out->weak = true;
}

/* Applies op to t and returns the result value; releases t. */
static bool unary_result(Interp *I, CallArgs *a, tl_unop op, tl_tensor *t, Value *out)
{
    tl_tensor *r = tl_unary_to(op, t, a->into);
    tl_tensor_release(t);
    if (!ret_tensor(I, a, r, out)) return false;
    keep_weak(a, out);
    return true;
}

/* t * f (or t / f) with f a scalar in t's float dtype: the scaling steps of round(x, decimals). */
static tl_tensor *scale_by(const tl_tensor *t, double f, bool divide)
{
    tl_tensor *ft = tl_tensor_from_f64(t->dtype, f);
    tl_tensor *r = ft ? tl_binary(divide ? TL_DIV : TL_MUL, t, ft, t->dtype) : NULL;
    if (ft) tl_tensor_release(ft);
    return r;
}

/* t scaled by 10**decimals, rounded half to even and scaled back (numpy's around for floats). */
static tl_tensor *scaled_round(const tl_tensor *t, int64_t decimals)
{
    double f = pow(10.0, (double)(decimals >= 0 ? decimals : -decimals));
    tl_tensor *y = scale_by(t, f, decimals < 0);
    tl_tensor *r = y ? tl_unary(TL_ROUND, y) : NULL;
    if (y) tl_tensor_release(y);
    tl_tensor *z = r ? scale_by(r, f, decimals >= 0) : NULL;
    if (r) tl_tensor_release(r);
    return z;
}

/* round(x, decimals=0) as numpy: floats scale by 10**decimals, round half to even, scale back;
   integers with negative decimals do that in f64 and cast back (round([15, 25, -17], -1) is
   [20, 20, -20]); bool refuses negative decimals, as numpy. */
static bool round_decimals(Interp *I, CallArgs *a, tl_tensor *t, int64_t decimals, Value *out)
{
    bool integer = tl_is_int(t->dtype) || t->dtype == TL_BOOL;
    if (integer && decimals >= 0) return unary_result(I, a, TL_ROUND, t, out);
    if (t->dtype == TL_BOOL) {
        tl_tensor_release(t);
        return bi_fail(I, a, TypeError, "negative decimals are not supported for bool tensors");
    }
    if (decimals > 400 || decimals < -400) {
        tl_tensor_release(t);
        return bi_fail(I, a, ValueError, "decimals must be between -400 and 400");
    }
    tl_tensor *wide = integer ? tl_cast(t, TL_F64) : t;
    tl_tensor *z = wide ? scaled_round(wide, decimals) : NULL;
    if (integer && wide) tl_tensor_release(wide);
    if (integer && z) {
        tl_tensor *back = tl_cast(z, t->dtype);
        tl_tensor_release(z);
        z = back;
    }
    tl_tensor_release(t);
    if (!ret_tensor(I, a, z, out)) return false;
    keep_weak(a, out);
    return true;
}

/* abs, sqrt, sin, ..., gelu: one builtin per tl_unop (the row's tag). */
static bool bi_unary(Interp *I, CallArgs *a, Value *out)
{
    tl_unop op = (tl_unop)a->self->tag;
    tl_tensor *t;
    if (op == TL_GELU) {   /* gelu(x, *, approximate="none") */
        const char *approx;
        if (!arg_string(I, a, 1, "none", &approx)) return false;
        if (strcmp(approx, "tanh") == 0) op = TL_GELU_TANH;
        else if (strcmp(approx, "none") != 0) return bi_fail(I, a, ValueError, "approximate must be \"none\" or \"tanh\", not \"%s\"", approx);
    }
    int64_t decimals = 0;
    if (op == TL_ROUND && !arg_int(I, a, 1, 0, &decimals)) return false;   /* round(x, decimals=0) */
    if (!arg_tensor(I, a, 0, &t)) return false;
    if (decimals != 0) return round_decimals(I, a, t, decimals, out);
    return unary_result(I, a, op, t, out);
}

/* Computes x OP y for two values with operator promotion (weak literals as NEP 50). */
static bool binary_values(Interp *I, CallArgs *a, tl_binop op, Value x, Value y, Value *out)
{
    tl_dtype dt;
    if (!interp_result_dtype(I, op, x, y, a->at, &dt)) return false;
    tl_tensor *tx = val_to_tensor(x), *ty = tx ? val_to_tensor(y) : NULL;
    tl_tensor *r = ty ? tl_binary_to(op, tx, ty, dt, a->into) : NULL;
    if (tx) tl_tensor_release(tx);
    if (ty) tl_tensor_release(ty);
    if (!ret_tensor(I, a, r, out)) return false;
    keep_weak(a, out);
    return true;
}

/* True for the operators numpy defines on bool and integers only (& | ^ << >>): their rows of the
   operator list have neither float nor complex kernels. */
static bool bits_only(tl_binop op) { return !tl_binop_accepts(op, TL_F64) && !tl_binop_accepts(op, TL_C128); }

/* The error of a bitwise function given a float or complex dtype, as numpy's TypeError. */
static bool bits_dtype_error(Interp *I, CallArgs *a, tl_dtype dt)
{
    return interp_error(I, a->at, TypeError, "%s() is not supported for dtype %s (only bool and integers)", a->self->name, tl_dtype_name(dt));
}

/* Whether parameters 0 and 1 are both tensors or numbers (else a TypeError naming the other). */
static bool numeric_pair(Interp *I, CallArgs *a)
{
    for (int i = 0; i < 2; i++)
        if (!val_is_numeric(*arg_given(a, i)))
            return bi_fail(I, a, TypeError, "%s must be a tensor or number, not a %s", arg_name(a, i), val_kind_name(*arg_given(a, i)));
    return true;
}

/* add, pow, minimum, bitwise_and, ...: one builtin per tl_binop (the row's tag), the operator's own row. */
static bool bi_binary(Interp *I, CallArgs *a, Value *out)
{
    tl_binop op = (tl_binop)a->self->tag;
    Value x = *arg_given(a, 0), y = *arg_given(a, 1);
    if (!numeric_pair(I, a)) return false;
    if (bits_only(op)) {
        tl_dtype dt;
        if (!interp_result_dtype(I, op, x, y, a->at, &dt)) return false;
        if (!tl_binop_accepts(op, dt)) return bits_dtype_error(I, a, dt);
    }
    return binary_values(I, a, op, x, y, out);
}

/* divmod(x, y): the tuple (x // y, x % y), as numpy's divmod (and Python's, for numbers). */
static bool bi_divmod(Interp *I, CallArgs *a, Value *out)
{
    Value x = *arg_given(a, 0), y = *arg_given(a, 1), q, r;
    if (!numeric_pair(I, a)) return false;
    if (!binary_values(I, a, TL_FLOORDIV, x, y, &q)) return false;
    if (!binary_values(I, a, TL_MOD, x, y, &r)) {
        val_release(q);
        return false;
    }
    Value t = val_tuple_new(2);
    if (t.kind != V_TUPLE) {
        val_release(q);
        val_release(r);
        return interp_error_rt(I, a->at);
    }
    t.as.tu->items[0] = q, t.as.tu->items[1] = r;
    *out = t;
    return true;
}

/* invert(x): ~x, bitwise for integers and logical for bool. */
static bool bi_invert(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    if (!tl_unop_accepts(TL_NOT, t->dtype)) {
        tl_dtype dt = t->dtype;
        tl_tensor_release(t);
        return bits_dtype_error(I, a, dt);
    }
    return unary_result(I, a, TL_NOT, t, out);
}

/* square(x): x * x in x's dtype (bool squares in i8, as numpy). */
static bool bi_square(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_dtype dt = t->dtype == TL_BOOL ? TL_I8 : t->dtype;
    tl_tensor *r = tl_binary_to(TL_MUL, t, t, dt, a->into);
    tl_tensor_release(t);
    if (!ret_tensor(I, a, r, out)) return false;
    keep_weak(a, out);
    return true;
}

/* The common dtype of several values (NULL entries skipped) as operators promote them
   (tl_dtype_acc: strong ones by result_type, the weak ones joining as literals, NEP 50). */
bool common_dtype(Interp *I, Span at, int n, Value *const *vs, tl_dtype *dt, bool *all_weak)
{
    tl_dtype_acc acc = { 0 };
    for (int i = 0; i < n; i++) {
        if (!vs[i]) continue;
        bool weak = vs[i]->kind == V_NUM && vs[i]->weak;
        tl_dtype_acc_add(&acc, val_dtype(*vs[i]), weak, weak ? vs[i]->as.num.bytes : NULL);
    }
    *all_weak = !acc.any_strong;
    return tl_dtype_acc_result(&acc, dt) == 0 || interp_error_rt(I, at);
}

/* clip(a, lo=none, hi=none): minimum(maximum(a, lo), hi) in the common dtype, as numpy. */
static bool bi_clip(Interp *I, CallArgs *a, Value *out)
{
    Value *vs[3] = { arg_at(a, 0), arg_at(a, 1), arg_at(a, 2) };
    for (int i = 0; i < 3; i++)
        if (vs[i] && !val_is_numeric(*vs[i])) return bi_fail(I, a, TypeError, "arguments must be tensors or numbers, not a %s", val_kind_name(*vs[i]));
    if (!vs[0]) return interp_error(I, a->at, TypeError, "%s() missing argument 'a'", a->self->name);
    tl_dtype dt;
    bool weak;
    if (!common_dtype(I, a->at, 3, vs, &dt, &weak)) return false;
    tl_tensor *ts[3] = { NULL, NULL, NULL };
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++)
        if (vs[i]) ok = (ts[i] = val_to_tensor(*vs[i])) != NULL;
    tl_tensor *r = ok ? tl_clip_to(ts[0], ts[1], ts[2], dt, a->into) : NULL;
    for (int i = 0; i < 3; i++)
        if (ts[i]) tl_tensor_release(ts[i]);
    if (!ret_tensor(I, a, r, out)) return false;
    if (out->kind == V_NUM && weak) out->weak = true;
    return true;
}

/* where(cond, x, y): x where cond is true, else y; x and y promote like operands of an operator.
   where(cond) alone is nonzero(cond), as numpy. */
static bool bi_where(Interp *I, CallArgs *a, Value *out)
{
    if (!arg_given(a, 1) && !arg_given(a, 2)) return bi_nonzero(I, a, out);
    if (!arg_given(a, 1) || !arg_given(a, 2)) return bi_fail(I, a, ValueError, "give both x and y, or neither");
    for (int i = 0; i < 3; i++)
        if (!val_is_numeric(*arg_given(a, i)))
            return bi_fail(I, a, TypeError, "%s must be a tensor or number, not a %s", arg_name(a, i), val_kind_name(*arg_given(a, i)));
    Value *vs[2] = { arg_given(a, 1), arg_given(a, 2) };
    tl_dtype dt;
    bool weak;
    if (!common_dtype(I, a->at, 2, vs, &dt, &weak)) return false;
    tl_tensor *c = val_to_tensor(*arg_given(a, 0)), *x = c ? val_to_tensor(*vs[0]) : NULL;
    tl_tensor *y = x ? val_to_tensor(*vs[1]) : NULL;
    tl_tensor *r = y ? tl_where_to(c, x, y, dt, a->into) : NULL;
    if (c) tl_tensor_release(c);
    if (x) tl_tensor_release(x);
    if (y) tl_tensor_release(y);
    if (!ret_tensor(I, a, r, out)) return false;
    if (out->kind == V_NUM && weak) out->weak = true;
    return true;
}

/* One row per unop_list.h function with a builtin (BI column UN). */
#define UN_ROW(arg, ENUM, STEM, NAME, COMPUTE, RESULT, FLOAT, CPLX, SIMDF, SIMDD, BI, SIG, HELP) UN_ROW_##BI(ENUM, NAME, SIG, HELP)
#define UN_ROW_UN(ENUM, NAME, SIG, HELP) { NAME, bi_unary, SIG, HELP, ENUM, BF_UNARY, BT_INTO },
#define UN_ROW_NONE(...)
#define BIN(NAME, OP, SIG, HELP) { NAME, bi_binary, SIG, HELP, OP, BF_BINARY, BT_INTO }

const Builtin bi_math_table[] = {
    TL_UNOP_LIST(UN_ROW, )
    BIN("add", TL_ADD, "add(x, y)", "x + y, elementwise"),
    BIN("subtract", TL_SUB, "subtract(x, y)", "x - y, elementwise"),
    BIN("multiply", TL_MUL, "multiply(x, y)", "x * y, elementwise"),
    BIN("divide", TL_DIV, "divide(x, y)", "x / y, true division"),
    BIN("floor_divide", TL_FLOORDIV, "floor_divide(x, y)", "x // y, rounding toward -inf"),
    BIN("mod", TL_MOD, "mod(x, y)", "x % y, the remainder with y's sign"),
    BIN("remainder", TL_MOD, "remainder(x, y)", "x % y, the remainder with y's sign (numpy's other name for mod)"),
    { "divmod", bi_divmod, "divmod(x, y)", "the tuple (x // y, x % y), elementwise", 0, BF_OTHER, BT_NO },
    BIN("power", TL_POW, "power(x, y)", "x ** y, elementwise"),
    BIN("fmod", TL_FMOD, "fmod(x, y)", "the remainder of x / y with x's sign (C's fmod)"),
    BIN("hypot", TL_HYPOT, "hypot(x, y)", "sqrt(x**2 + y**2) without overflow, elementwise"),
    BIN("fmin", TL_FMIN, "fmin(x, y)", "the smaller of x and y, elementwise (nan ignored)"),
    BIN("fmax", TL_FMAX, "fmax(x, y)", "the larger of x and y, elementwise (nan ignored)"),
    BIN("bitwise_and", TL_AND, "bitwise_and(x, y)", "x & y: bitwise and of integers, logical of bools"),
    BIN("bitwise_or", TL_OR, "bitwise_or(x, y)", "x | y: bitwise or of integers, logical of bools"),
    BIN("bitwise_xor", TL_XOR, "bitwise_xor(x, y)", "x ^ y: bitwise xor of integers, logical of bools"),
    BIN("left_shift", TL_LSHIFT, "left_shift(x, y)", "x << y (0 once y reaches the bit width)"),
    BIN("right_shift", TL_RSHIFT, "right_shift(x, y)", "x >> y, arithmetic for signed integers"),
    { "invert", bi_invert, "invert(x)", "~x: bitwise not of integers, logical not of bools", 0, BF_ELEMENTWISE, BT_INTO },
    { "square", bi_square, "square(x)", "x * x, in x's dtype", 0, BF_ELEMENTWISE, BT_INTO },
    BIN("atan2", TL_ATAN2, "atan2(y, x)", "the angle of the point (x, y), elementwise"),
    BIN("pow", TL_POW, "pow(x, y)", "x ** y, elementwise"),
    BIN("minimum", TL_MINIMUM, "minimum(x, y)", "the smaller of x and y, elementwise (nan propagates)"),
    BIN("maximum", TL_MAXIMUM, "maximum(x, y)", "the larger of x and y, elementwise (nan propagates)"),
    { "clip", bi_clip, "clip(a, lo=none, hi=none)", "limits values to [lo, hi]", 0, BF_ELEMENTWISE, BT_INTO },
    { "where", bi_where, "where(cond, x=none, y=none)", "x where cond is true, else y (broadcast); where(cond) is nonzero(cond)", 0,
      BF_WHERE, BT_INTO },
    { 0 },
};
