/* arith_seq.c — operators on strings, tuples, lists and dicts: + and * (concatenation, repetition), % (printf.c), | (dicts), comparisons, `in` */
#include <string.h>

#include "arith.h"

/* The repeat count of s * n: an integer (or bool) number; false when n is not one. */
static bool repeat_count(Value n, int64_t *count)
{
    if (n.kind != V_NUM || !(tl_is_int((tl_dtype)n.dtype) || n.dtype == TL_BOOL)) return false;
    int64_t k = tl_scalar_to_i64(n.as.num.bytes, (tl_dtype)n.dtype);
    if (n.dtype == TL_U64 && tl_scalar_to_u64(n.as.num.bytes, TL_U64) > INT64_MAX) k = INT64_MAX;
    *count = k < 0 ? 0 : k;
    return true;
}

/* The items of a tuple or list. */
static const Value *items_of(Value v, int64_t *n)
{
    *n = v.kind == V_TUPLE ? v.as.tu->n : v.as.l->n;
    return v.kind == V_TUPLE ? v.as.tu->items : v.as.l->items;
}

/* A new tuple or list (kind) of the n items at x followed by the m items at y, each repeated
   `times` times over. */
static bool join_items(Interp *I, int kind, const Value *x, int64_t n, const Value *y, int64_t m, int64_t times,
                       Span at, Value *out)
{
    int64_t each = n + m, total;
    if (__builtin_mul_overflow(each, times, &total) || total > (kind == V_TUPLE ? INT32_MAX : LIST_MAX_ITEMS))
        return interp_error(I, at, MemoryError, "a %s of %lld x %lld items is too large", kind == V_TUPLE ? "tuple" : "list",
                            (long long)each, (long long)times);
    Value r = kind == V_TUPLE ? val_tuple_new((int)total) : val_list_new(total);
    if (r.kind == V_UNDEF) return interp_error_rt(I, at);
    Value *dst = kind == V_TUPLE ? r.as.tu->items : r.as.l->items;
    for (int64_t t = 0, k = 0; t < times; t++) {
        for (int64_t i = 0; i < n; i++) dst[k++] = val_retain(x[i]);
        for (int64_t i = 0; i < m; i++) dst[k++] = val_retain(y[i]);
    }
    if (kind == V_LIST) r.as.l->n = total;
    *out = r;
    return true;
}

/* The bytes x then y, the whole repeated `times` times, as a new string. */
static bool join_bytes(Interp *I, const Str *x, const Str *y, int64_t times, Span at, Value *out)
{
    size_t each = x->len + (y ? y->len : 0), total;
    if (__builtin_mul_overflow(each, (size_t)times, &total) || total > STR_MAX_BYTES)
        return interp_error(I, at, MemoryError, "a string of %zu x %lld bytes is too large", each, (long long)times);
    Value r = str_new(total);
    if (r.kind != V_STR) return interp_error_rt(I, at);
    for (int64_t t = 0; t < times; t++) {
        memcpy(r.as.s->data + (size_t)t * each, x->data, x->len);
        if (y) memcpy(r.as.s->data + (size_t)t * each + x->len, y->data, y->len);
    }
    *out = r;
    return true;
}

/* The TypeError for an operator that does not apply; a list hears how to compute with its numbers. */
static bool unsupported(Interp *I, int op, Value a, Value b, Span at)
{
    const char *hint = a.kind == V_LIST || b.kind == V_LIST
                           ? "; to compute with a list's numbers, make it a tensor first: array(xs)" : "";
    if (op == OP_MATMUL)
        return interp_error(I, at, TypeError, "unsupported operand types for @: %s and %s%s", val_kind_name(a), val_kind_name(b), hint);
    return interp_error(I, at, TypeError, "unsupported operand types for '%s': %s and %s%s", op_binary_symbol(op),
                        val_kind_name(a), val_kind_name(b), hint);
}

bool arith_sequence(Interp *I, int op, Value a, Value b, Span at, Value *out)
{
    bool seq_a = a.kind == V_TUPLE || a.kind == V_LIST, seq_b = b.kind == V_TUPLE || b.kind == V_LIST;
    int64_t n, m, times;
    if (op == TL_ADD && a.kind == V_STR && b.kind == V_STR) return join_bytes(I, a.as.s, b.as.s, 1, at, out);
    if (op == TL_MOD && a.kind == V_STR) return str_percent_format(I, a.as.s, b, at, out);
    if (op == TL_ADD && seq_a && a.kind == b.kind) {
        const Value *x = items_of(a, &n), *y = items_of(b, &m);
        return join_items(I, a.kind, x, n, y, m, 1, at, out);
    }
    if (op == TL_MUL && (a.kind == V_STR || seq_a) && repeat_count(b, &times)) {
        if (a.kind == V_STR) return join_bytes(I, a.as.s, NULL, times, at, out);
        const Value *x = items_of(a, &n);
        return join_items(I, a.kind, x, n, NULL, 0, times, at, out);
    }
    if (op == TL_MUL && (b.kind == V_STR || seq_b) && repeat_count(a, &times)) return arith_sequence(I, op, b, a, at, out);
    if (op == TL_OR && a.kind == V_DICT && b.kind == V_DICT) {   /* Python's d | e: a new dict, e's entries winning */
        Value d = val_dict_new();
        if (d.kind != V_DICT || !dict_update(d.as.d, a.as.d) || !dict_update(d.as.d, b.as.d)) {
            val_release(d);
            return interp_error_rt(I, at);
        }
        *out = d;
        return true;
    }
    if (op == TL_EQ || op == TL_NE) {
        bool eq;
        if (!val_equal(a, b, &eq)) return interp_error_rt(I, at);
        *out = val_bool(op == TL_EQ ? eq : !eq);
        return true;
    }
    if (op == TL_LT || op == TL_LE || op == TL_GT || op == TL_GE) {
        int c;
        if (!val_order(a, b, &c))
            return tl_errkind_last() == TL_E_TypeError
                       ? interp_error(I, at, TypeError, "'%s' is not supported: %s", op_binary_symbol(op), tl_errmsg())
                       : interp_error_rt(I, at);   /* nested too deeply */
        *out = val_bool(op == TL_LT ? c < 0 : op == TL_LE ? c <= 0 : op == TL_GT ? c > 0 : c >= 0);
        return true;
    }
    return unsupported(I, op, a, b, at);
}

int arith_list_in_place(Interp *I, int op, List *l, Value rhs, Span at)
{
    Value items;
    int64_t times;
    if (op == TL_ADD) {   /* list.__iadd__ is extend: any iterable, its items copied first (xs += xs) */
        if (!val_iter_list(rhs, &items))
            return tl_errkind_last() == TL_E_TypeError
                       ? (interp_error(I, at, TypeError, "'+=' on a list takes an iterable, whose items it adds, not a %s", val_kind_name(rhs)), -1)
                       : (interp_error_rt(I, at), -1);
    } else if (op == TL_MUL && repeat_count(rhs, &times)) {   /* the list's items, `times` over */
        if (!join_items(I, V_LIST, l->items, l->n, NULL, 0, times, at, &items)) return -1;
        int64_t n = l->n;
        bool ok = list_splice(l, 0, n, items.as.l->items, items.as.l->n);
        val_release(items);
        return ok ? 1 : (interp_error_rt(I, at), -1);
    } else
        return 0;
    bool ok = items.as.l->n <= LIST_MAX_ITEMS - l->n
                  ? list_splice(l, l->n, l->n, items.as.l->items, items.as.l->n)
                  : (tl_seterr(MemoryError, "a list of %lld + %lld items is too large", (long long)l->n, (long long)items.as.l->n), false);
    val_release(items);
    return ok ? 1 : (interp_error_rt(I, at), -1);
}

bool arith_contains(Interp *I, Value x, Value c, bool negate, Span at, Value *out)
{
    bool in;
    if (!val_contains(c, x, &in)) return interp_error_rt(I, at);
    *out = val_bool(negate ? !in : in);
    return true;
}
