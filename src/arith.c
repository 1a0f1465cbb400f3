/* arith.c — operators on values: promotion with weak literals, an inline scalar fast path, tensors via the runtime */
#include <math.h>
#include <string.h>

#include "arith.h"
#include "ops.h"

/* True when the integer value of a weak literal fits dtype d. */
static bool literal_fits(const Value *lit, tl_dtype d)
{
    if (lit->dtype != TL_I64) return true;
    int64_t x = lit->as.num.i64;
    switch (d) {
    case TL_U8: return x >= 0 && x <= UINT8_MAX;
    case TL_U16: return x >= 0 && x <= UINT16_MAX;
    case TL_U32: return x >= 0 && x <= UINT32_MAX;
    case TL_U64: return x >= 0;
    case TL_I8: return x >= INT8_MIN && x <= INT8_MAX;
    case TL_I16: return x >= INT16_MIN && x <= INT16_MAX;
    case TL_I32: return x >= INT32_MIN && x <= INT32_MAX;
    default: return true;
    }
}

bool arith_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt)
{
    tl_dtype da = val_dtype(a), db = val_dtype(b);
    bool wa = a.kind == V_NUM && a.weak, wb = b.kind == V_NUM && b.weak;
    if (wa == wb) {
        *dt = tl_promote(da, db);
    } else {
        const Value *lit = wa ? &a : &b;
        tl_dtype strong = wa ? db : da;
        *dt = tl_promote_weak(strong, (tl_dtype)lit->dtype);
        if (tl_is_int(strong) && !literal_fits(lit, strong)) {
            if (!tl_binop_is_comparison(op))
                return interp_error(I, at, "integer %lld is out of bounds for %s",
                                    (long long)lit->as.num.i64, tl_dtype_name(strong));
            *dt = tl_promote(strong, TL_I64);   /* compare exactly in a wider type */
        }
    }
    /* SPEC §5: two bools under + - * / count as integers, like Python's True + True. */
    if (da == TL_BOOL && db == TL_BOOL && (op == TL_ADD || op == TL_SUB || op == TL_MUL || op == TL_DIV))
        *dt = TL_I64;
    if (op == TL_DIV && (tl_is_int(*dt) || *dt == TL_BOOL)) *dt = TL_F64;
    return true;
}

/* numpy's floor division and remainder for doubles (npy_divmod). */
static double f64_floordiv(double a, double b, double *mod_out)
{
    if (b == 0) {
        *mod_out = fmod(a, b);
        return a / b;
    }
    double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) { mod += b; div -= 1.0; }
    } else {
        mod = copysign(0.0, b);
    }
    double floordiv;
    if (div != 0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = copysign(0.0, a / b);
    }
    *mod_out = mod;
    return floordiv;
}

/* Integer power by squaring, wrapping like the runtime's kernels. */
static uint64_t ipow(uint64_t base, int64_t e)
{
    uint64_t r = 1;
    while (e > 0) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
    }
    return r;
}

static bool compare_result(tl_binop op, int c) /* c: -1, 0, 1, or 2 for unordered */
{
    switch (op) {
    case TL_EQ: return c == 0;
    case TL_NE: return c != 0;
    case TL_LT: return c == -1;
    case TL_LE: return c == -1 || c == 0;
    case TL_GT: return c == 1;
    case TL_GE: return c == 1 || c == 0;
    default: return false;
    }
}

/* Inline scalar arithmetic for i64/f64/bool; returns 1 done, 0 not handled, -1 error. */
static int scalar_fast(Interp *I, tl_binop op, tl_dtype dt, Value a, Value b, Span at, Value *out)
{
    if (dt == TL_F64) {
        double x = tl_scalar_to_f64(a.as.num.bytes, (tl_dtype)a.dtype);
        double y = tl_scalar_to_f64(b.as.num.bytes, (tl_dtype)b.dtype);
        double r, m;
        switch (op) {
        case TL_ADD: r = x + y; break;
        case TL_SUB: r = x - y; break;
        case TL_MUL: r = x * y; break;
        case TL_DIV: r = x / y; break;
        case TL_FLOORDIV: r = f64_floordiv(x, y, &m); break;
        case TL_MOD: f64_floordiv(x, y, &m); r = m; break;
        case TL_POW: r = pow(x, y); break;
        case TL_EQ: case TL_NE: case TL_LT: case TL_LE: case TL_GT: case TL_GE: {
            int c = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
            *out = val_bool(compare_result(op, c));
            return 1;
        }
        default: return 0;
        }
        *out = val_f64(r);
        return 1;
    }
    if (dt == TL_I64) {
        int64_t x = tl_scalar_to_i64(a.as.num.bytes, (tl_dtype)a.dtype);
        int64_t y = tl_scalar_to_i64(b.as.num.bytes, (tl_dtype)b.dtype);
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        int64_t r;
        switch (op) {
        case TL_ADD: r = (int64_t)(ux + uy); break;
        case TL_SUB: r = (int64_t)(ux - uy); break;
        case TL_MUL: r = (int64_t)(ux * uy); break;
        case TL_FLOORDIV: case TL_MOD: {
            if (y == 0) { interp_error(I, at, "integer division by zero"); return -1; }
            if (y == -1) { r = op == TL_MOD ? 0 : (int64_t)(0 - ux); break; }
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) { q -= 1; m += y; }
            r = op == TL_MOD ? m : q;
            break;
        }
        case TL_POW:
            if (y < 0) { interp_error(I, at, "integers to negative integer powers are not allowed"); return -1; }
            r = (int64_t)ipow(ux, y);
            break;
        case TL_AND: r = x & y; break;
        case TL_OR: r = x | y; break;
        case TL_EQ: case TL_NE: case TL_LT: case TL_LE: case TL_GT: case TL_GE:
            *out = val_bool(compare_result(op, x < y ? -1 : x > y ? 1 : 0));
            return 1;
        default: return 0;
        }
        *out = val_i64(r);
        return 1;
    }
    if (dt == TL_BOOL) {
        bool x = a.as.num.b, y = b.as.num.b;
        switch (op) {
        case TL_AND: *out = val_bool(x && y); return 1;
        case TL_OR: *out = val_bool(x || y); return 1;
        case TL_EQ: *out = val_bool(x == y); return 1;
        case TL_NE: *out = val_bool(x != y); return 1;
        default: return 0;
        }
    }
    return 0;
}

/* Equality of non-numeric values (strings, tuples, none): a bool. */
static bool values_equal(Value a, Value b, bool *eq)
{
    if (a.kind != b.kind) {
        if (val_is_numeric(a) && val_is_numeric(b)) return false;
        *eq = false;
        return true;
    }
    switch (a.kind) {
    case V_NONE: *eq = true; return true;
    case V_STR: *eq = a.as.s->len == b.as.s->len && memcmp(a.as.s->data, b.as.s->data, a.as.s->len) == 0; return true;
    case V_TUPLE:
        if (a.as.tu->n != b.as.tu->n) { *eq = false; return true; }
        for (int i = 0; i < a.as.tu->n; i++) {
            Value x = a.as.tu->items[i], y = b.as.tu->items[i];
            bool e;
            if (x.kind == V_NUM && y.kind == V_NUM) {
                double c1[2], c2[2];
                tl_scalar_to_c128(x.as.num.bytes, (tl_dtype)x.dtype, c1);
                tl_scalar_to_c128(y.as.num.bytes, (tl_dtype)y.dtype, c2);
                e = c1[0] == c2[0] && c1[1] == c2[1];
            } else if (!values_equal(x, y, &e)) {
                return false;
            }
            if (!e) { *eq = false; return true; }
        }
        *eq = true;
        return true;
    case V_DICT: *eq = a.as.d == b.as.d; return true;
    case V_FUNC: *eq = a.as.fn == b.as.fn; return true;
    case V_BUILTIN: *eq = a.as.bi == b.as.bi; return true;
    default: return false;
    }
}

static bool concat_strings(Interp *I, Value a, Value b, Span at, Value *out)
{
    StrBuf sb = { 0 };
    bool ok = sb_append(&sb, a.as.s->data, a.as.s->len) && sb_append(&sb, b.as.s->data, b.as.s->len);
    *out = ok ? val_str(sb.data, sb.len) : (Value){ .kind = V_UNDEF };
    sb_free(&sb);
    if (out->kind != V_STR) return interp_error_rt(I, at);
    return true;
}

static bool concat_tuples(Interp *I, Value a, Value b, Span at, Value *out)
{
    *out = val_tuple_new(a.as.tu->n + b.as.tu->n);
    if (out->kind != V_TUPLE) return interp_error_rt(I, at);
    for (int i = 0; i < a.as.tu->n; i++) out->as.tu->items[i] = val_retain(a.as.tu->items[i]);
    for (int i = 0; i < b.as.tu->n; i++) out->as.tu->items[a.as.tu->n + i] = val_retain(b.as.tu->items[i]);
    return true;
}

bool arith_binary(Interp *I, int op, Value a, Value b, Span at, Value *out)
{
    return arith_binary_reusing(I, op, a, b, at, out, 0);
}

int arith_tensor_over(Interp *I, int op, tl_tensor *x, const tl_tensor *y, Span at, int64_t spare)
{
    if (x->dtype != y->dtype || x->dtype == TL_BOOL || op == OP_MATMUL) return 0;   /* promotion: the general path */
    int rc = tl_binary_over((tl_binop)op, x, y, x->dtype, spare);
    if (rc < 0) interp_error_rt(I, at);
    return rc;
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
        if (!val_is_numeric(a) || !val_is_numeric(b))
            return interp_error(I, at, "unsupported operand types for @: %s and %s", val_kind_name(a), val_kind_name(b));
        if (a.kind == V_NUM || b.kind == V_NUM)
            return interp_error(I, at, "matmul: input operand %d does not have enough dimensions", a.kind == V_NUM ? 0 : 1);
        tl_tensor *r = tl_matmul(a.as.t, b.as.t);
        if (!r) return interp_error_rt(I, at);
        *out = val_from_tensor(r);
        return true;
    }
    if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(op, a, b, out)) return true;
    if (!val_is_numeric(a) || !val_is_numeric(b)) {
        if (op == TL_ADD && a.kind == V_STR && b.kind == V_STR) return concat_strings(I, a, b, at, out);
        if (op == TL_ADD && a.kind == V_TUPLE && b.kind == V_TUPLE) return concat_tuples(I, a, b, at, out);
        if (op == TL_EQ || op == TL_NE) {
            bool eq;
            if (values_equal(a, b, &eq)) {
                *out = val_bool(op == TL_EQ ? eq : !eq);
                return true;
            }
        }
        return interp_error(I, at, "unsupported operand types for '%s': %s and %s", op_binary_symbol(op),
                            val_kind_name(a), val_kind_name(b));
    }
    tl_dtype dt;
    if (!tensor_pair_dtype(I, (tl_binop)op, a, b, at, &dt)) return false;
    bool weak = a.kind == V_NUM && b.kind == V_NUM && a.weak && b.weak;
    if (a.kind == V_NUM && b.kind == V_NUM) {
        int r = scalar_fast(I, (tl_binop)op, dt, a, b, at, out);
        if (r < 0) return false;
        if (r > 0) {
            out->weak = weak && !tl_binop_is_comparison((tl_binop)op);
            return true;
        }
    }
    tl_tensor *ta = val_to_tensor(a), *tb = ta ? val_to_tensor(b) : NULL;
    tl_tensor *r = tb ? tl_binary((tl_binop)op, ta, tb, dt) : NULL;
    if (ta) tl_tensor_release(ta);
    if (tb) tl_tensor_release(tb);
    if (!r) return interp_error_rt(I, at);
    *out = val_from_tensor(r);
    if (out->kind == V_NUM) out->weak = weak && !tl_binop_is_comparison((tl_binop)op);
    return true;
}

bool arith_unary(Interp *I, UnaryOp op, Value a, Span at, Value *out)
{
    if (op == UOP_NOT) {
        bool t;
        if (!val_truthy(a, &t)) return interp_error_rt(I, at);
        *out = val_bool(!t);
        return true;
    }
    if (!val_is_numeric(a))
        return interp_error(I, at, "unsupported operand type for unary '%s': %s", op_unary_symbol(op), val_kind_name(a));
    tl_dtype d = val_dtype(a);
    if (op == UOP_PLUS) {
        *out = val_retain(a);
        return true;
    }
    if (op == UOP_NEG && d == TL_BOOL)
        return interp_error(I, at, "the - operator is not supported for bool; use ~ or not");
    if (op == UOP_INVERT && (tl_is_float(d) || tl_is_complex(d)))
        return interp_error(I, at, "~ is not supported for %s (only bool and integers)", tl_dtype_name(d));
    if (a.kind == V_NUM && (d == TL_I64 || d == TL_F64 || d == TL_BOOL)) {
        if (d == TL_F64) *out = val_f64(-a.as.num.f64);
        else if (d == TL_I64) *out = val_i64(op == UOP_INVERT ? ~a.as.num.i64 : (int64_t)(0 - (uint64_t)a.as.num.i64));
        else *out = val_bool(!a.as.num.b);
        out->weak = a.weak;
        return true;
    }
    tl_tensor *ta = val_to_tensor(a);
    tl_tensor *r = ta ? tl_unary(op == UOP_INVERT ? TL_NOT : TL_NEG, ta) : NULL;
    if (ta) tl_tensor_release(ta);
    if (!r) return interp_error_rt(I, at);
    *out = val_from_tensor(r);
    if (out->kind == V_NUM) out->weak = a.weak;
    return true;
}
