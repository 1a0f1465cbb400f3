/* compare.c — equality, Python's ordering and `in` for any values: items of tuples and lists, strings, dict keys, tensors */
#include <string.h>

#include "ops.h"
#include "value.h"

/* Two numbers (V_NUM) by value, across dtypes: integers exactly, the rest as complex doubles. */
static bool numbers_equal(Value a, Value b)
{
    tl_dtype da = (tl_dtype)a.dtype, db = (tl_dtype)b.dtype;
    bool ia = tl_is_int(da) || da == TL_BOOL, ib = tl_is_int(db) || db == TL_BOOL;
    if (ia && ib) {
        bool ua = da == TL_U64 && tl_scalar_to_u64(a.as.num.bytes, da) > INT64_MAX;
        bool ub = db == TL_U64 && tl_scalar_to_u64(b.as.num.bytes, db) > INT64_MAX;
        if (ua || ub) return ua && ub && tl_scalar_to_u64(a.as.num.bytes, da) == tl_scalar_to_u64(b.as.num.bytes, db);
        return tl_scalar_to_i64(a.as.num.bytes, da) == tl_scalar_to_i64(b.as.num.bytes, db);
    }
    double x[2], y[2];
    tl_scalar_to_c128(a.as.num.bytes, da, x);
    tl_scalar_to_c128(b.as.num.bytes, db, y);
    return x[0] == y[0] && x[1] == y[1];
}

/* Tuples and lists inside others deeper than this are not compared (a RecursionError): each
   level is a C frame, and two lists that hold themselves would go down forever. */
#define MAX_COMPARE_DEPTH 1000

static bool equal_at(Value a, Value b, bool *eq, int depth);

/* Whether a and b are one tuple or list (equal without looking, as Python's item comparisons
   take the same object: `xs == xs` for a list holding itself); false with a RecursionError
   when they are tuples or lists too deep to compare. */
static bool same_or_too_deep(Value a, Value b, int depth, bool *same)
{
    *same = a.kind == V_TUPLE ? a.as.tu == b.as.tu : a.as.l == b.as.l;
    if (*same || depth < MAX_COMPARE_DEPTH) return true;
    tl_seterr(RecursionError, "values nested too deeply to compare (more than %d levels)", MAX_COMPARE_DEPTH);
    return false;
}

/* Two sequences of n and m items, item by item, at the given depth. */
static bool items_equal(const Value *x, int64_t n, const Value *y, int64_t m, bool *eq, int depth)
{
    *eq = n == m;
    for (int64_t i = 0; i < n && *eq; i++)
        if (!equal_at(x[i], y[i], eq, depth + 1)) return false;
    return true;
}

bool val_equal(Value a, Value b, bool *eq) { return equal_at(a, b, eq, 0); }

/* val_equal for a and b inside depth tuples or lists. */
static bool equal_at(Value a, Value b, bool *eq, int depth)
{
    if (a.kind == V_TRACE || b.kind == V_TRACE) {   /* a graph's tensor has no values to compare yet */
        tl_seterr(TypeError, GRAPH_NEEDS_VALUES " (comparing it as an item reads them)");
        return false;
    }
    if (a.kind == V_NUM && b.kind == V_NUM) {
        *eq = numbers_equal(a, b);
        return true;
    }
    if (val_is_numeric(a) && val_is_numeric(b)) {   /* a tensor: one shape, equal elements (array_equal) */
        tl_tensor *x = val_to_tensor(a), *y = x ? val_to_tensor(b) : NULL;
        int r = y ? tl_array_equal(x, y, false) : -1;
        if (x) tl_tensor_release(x);
        if (y) tl_tensor_release(y);
        *eq = r == 1;
        return r >= 0;
    }
    if (a.kind != b.kind) {
        *eq = false;
        return true;
    }
    switch (a.kind) {
    case V_NONE: *eq = true; return true;
    case V_STR: *eq = a.as.s->len == b.as.s->len && memcmp(a.as.s->data, b.as.s->data, a.as.s->len) == 0; return true;
    case V_TUPLE:
    case V_LIST: {
        bool same;
        if (!same_or_too_deep(a, b, depth, &same)) return false;
        if (same) { *eq = true; return true; }
        return a.kind == V_TUPLE ? items_equal(a.as.tu->items, a.as.tu->n, b.as.tu->items, b.as.tu->n, eq, depth)
                                 : items_equal(a.as.l->items, a.as.l->n, b.as.l->items, b.as.l->n, eq, depth);
    }
    case V_DICT: *eq = a.as.d == b.as.d; return true;
    case V_FUNC: *eq = a.as.fn == b.as.fn; return true;
    case V_BUILTIN: *eq = a.as.bi == b.as.bi; return true;
    case V_ERROR: *eq = a.as.err == b.as.err; return true;
    case V_GRAPH: *eq = a.as.g == b.as.g; return true;
    default: *eq = false; return true;
    }
}

/* Two real numbers' order: integers exactly, the rest as doubles (nan orders as equal). */
static int numbers_order(Value a, Value b)
{
    tl_dtype da = (tl_dtype)a.dtype, db = (tl_dtype)b.dtype;
    bool ia = tl_is_int(da) || da == TL_BOOL, ib = tl_is_int(db) || db == TL_BOOL;
    if (ia && ib && da != TL_U64 && db != TL_U64) {
        int64_t x = tl_scalar_to_i64(a.as.num.bytes, da), y = tl_scalar_to_i64(b.as.num.bytes, db);
        return (x > y) - (x < y);
    }
    if (ia && ib) {   /* a u64 beyond i64: compare signs, then magnitudes */
        bool na = da != TL_U64 && tl_scalar_to_i64(a.as.num.bytes, da) < 0;
        bool nb = db != TL_U64 && tl_scalar_to_i64(b.as.num.bytes, db) < 0;
        if (na != nb) return na ? -1 : 1;
        uint64_t x = tl_scalar_to_u64(a.as.num.bytes, da), y = tl_scalar_to_u64(b.as.num.bytes, db);
        return (x > y) - (x < y);
    }
    double x = tl_scalar_to_f64(a.as.num.bytes, da), y = tl_scalar_to_f64(b.as.num.bytes, db);
    return (x > y) - (x < y);
}

static bool order_at(Value a, Value b, int *cmp, int depth);

/* Two sequences lexicographically: the first unequal pair decides, else the shorter first. */
static bool items_order(const Value *x, int64_t n, const Value *y, int64_t m, int *cmp, int depth)
{
    for (int64_t i = 0; i < n && i < m; i++) {
        bool eq;
        if (!equal_at(x[i], y[i], &eq, depth + 1)) return false;
        if (!eq) return order_at(x[i], y[i], cmp, depth + 1);
    }
    *cmp = (n > m) - (n < m);
    return true;
}

bool val_order(Value a, Value b, int *cmp) { return order_at(a, b, cmp, 0); }

/* val_order for a and b inside depth tuples or lists. */
static bool order_at(Value a, Value b, int *cmp, int depth)
{
    if (a.kind == V_TRACE || b.kind == V_TRACE) {
        tl_seterr(TypeError, GRAPH_NEEDS_VALUES " (ordering it as an item reads them)");
        return false;
    }
    if (a.kind == V_NUM && b.kind == V_NUM && !tl_is_complex((tl_dtype)a.dtype) && !tl_is_complex((tl_dtype)b.dtype)) {
        *cmp = numbers_order(a, b);
        return true;
    }
    if (a.kind == b.kind && a.kind == V_STR) {   /* UTF-8 byte order is code point order */
        size_t n = a.as.s->len < b.as.s->len ? a.as.s->len : b.as.s->len;
        int c = memcmp(a.as.s->data, b.as.s->data, n);
        *cmp = c ? (c > 0) - (c < 0) : (a.as.s->len > b.as.s->len) - (a.as.s->len < b.as.s->len);
        return true;
    }
    if (a.kind == b.kind && (a.kind == V_TUPLE || a.kind == V_LIST)) {
        bool same;
        if (!same_or_too_deep(a, b, depth, &same)) return false;
        if (same) { *cmp = 0; return true; }
        return a.kind == V_TUPLE ? items_order(a.as.tu->items, a.as.tu->n, b.as.tu->items, b.as.tu->n, cmp, depth)
                                 : items_order(a.as.l->items, a.as.l->n, b.as.l->items, b.as.l->n, cmp, depth);
    }
    if (a.kind == V_NUM && b.kind == V_NUM)
        tl_seterr(TypeError, "complex numbers do not order");
    else if (a.kind == V_TENSOR || b.kind == V_TENSOR)
        tl_seterr(TypeError, "tensors do not order as items (sort them with a key, or use sort() on one tensor)");
    else
        tl_seterr(TypeError, "a %s and a %s do not order", val_kind_name(a), val_kind_name(b));
    return false;
}

/* x in t for a tensor t: any(t == x), as numpy's `in`; a non-number x is in no tensor. */
static bool tensor_contains(Value t, Value x, bool *in)
{
    *in = false;
    if (!val_is_numeric(x)) return true;
    bool weak = x.kind == V_NUM && x.weak;   /* 3 in u8_tensor compares as u8 == 3 does */
    tl_dtype dt;
    if (tl_binop_dtype(TL_EQ, val_dtype(t), false, val_dtype(x), weak, weak ? x.as.num.bytes : NULL, &dt) < 0) return false;
    tl_tensor *a = val_to_tensor(t), *b = a ? val_to_tensor(x) : NULL;
    tl_tensor *eq = b ? tl_binary(TL_EQ, a, b, dt) : NULL;
    tl_tensor *any = eq ? tl_reduce(TL_RANY, eq, 0, NULL, false, 0) : NULL;
    if (any) *in = tl_scalar_is_nonzero(tl_tensor_data(any), any->dtype);
    if (a) tl_tensor_release(a);
    if (b) tl_tensor_release(b);
    if (eq) tl_tensor_release(eq);
    if (any) tl_tensor_release(any);
    return any != NULL;
}

/* x among n items. */
static bool items_contain(const Value *items, int64_t n, Value x, bool *in)
{
    *in = false;
    for (int64_t i = 0; i < n && !*in; i++)
        if (!val_equal(items[i], x, in)) return false;
    return true;
}

bool val_contains(Value c, Value x, bool *in)
{
    switch (c.kind) {
    case V_STR:
        if (x.kind != V_STR) {
            tl_seterr(TypeError, "'in <string>' needs a string on the left, not a %s", val_kind_name(x));
            return false;
        }
        *in = x.as.s->len == 0 || memmem(c.as.s->data, c.as.s->len, x.as.s->data, x.as.s->len) != NULL;
        return true;
    case V_TUPLE: return items_contain(c.as.tu->items, c.as.tu->n, x, in);
    case V_LIST: return items_contain(c.as.l->items, c.as.l->n, x, in);
    case V_DICT:
        *in = x.kind == V_STR && dict_get(c.as.d, x.as.s->data, x.as.s->len) != NULL;
        return true;
    case V_TENSOR: case V_NUM: return tensor_contains(c, x, in);
    default:
        tl_seterr(TypeError, "'in' needs a string, tuple, list, dict or tensor on the right, not a %s", val_kind_name(c));
        return false;
    }
}
