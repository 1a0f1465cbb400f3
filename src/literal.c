/* literal.c — [a, b, ...] literals and comprehensions: a tensor when every item is a number or a tensor, else a list; lists as tensors */
#include <stdlib.h>
#include <string.h>

#include "literal.h"
#include "ops.h"

/* The dtype of a list literal: its items' as operators combine them (tl_dtype_acc: strong items
   by result_type, weak ones joining as literals; an integer literal out of range of the integer
   dtype that results is an error, as in arithmetic). -1: error set. */
static int literal_dtype(int64_t n, const Value *items, tl_dtype *dt)
{
    tl_dtype_acc acc = { 0 };
    for (int64_t i = 0; i < n; i++) {
        bool weak = items[i].kind == V_NUM && items[i].weak;
        tl_dtype_acc_add(&acc, val_dtype(items[i]), weak, weak ? items[i].as.num.bytes : NULL);
    }
    return tl_dtype_acc_result(&acc, dt);
}

/* n numbers (V_NUM) written into a new 1-d tensor of their literal dtype. */
static tl_tensor *numbers_tensor(int64_t n, const Value *items)
{
    tl_dtype dt;
    if (literal_dtype(n, items, &dt) < 0) return NULL;
    tl_tensor *t = tl_tensor_empty(dt, 1, (int64_t[]){ n });
    if (!t) return NULL;
    char *p = tl_tensor_data(t);
    size_t sz = tl_dtype_size(dt);
    if (dt == TL_I64 || dt == TL_F64) {   /* every item has dt's own bytes: the commonest case, copied as is */
        bool same = true;
        for (int64_t i = 0; i < n && same; i++) same = items[i].dtype == dt;
        if (same) {
            for (int64_t i = 0; i < n; i++) memcpy(p + (size_t)i * 8, items[i].as.num.bytes, 8);
            return t;
        }
    }
    for (int64_t i = 0; i < n; i++) tl_scalar_convert(p + (size_t)i * sz, dt, items[i].as.num.bytes, (tl_dtype)items[i].dtype);
    return t;
}

/* Numbers and tensors of one shape stacked along a new first axis, in their literal dtype. */
static tl_tensor *stack_items(int64_t n, const Value *items, const char *what)
{
    tl_dtype dt;
    if (literal_dtype(n, items, &dt) < 0) return NULL;
    tl_tensor **ts = calloc((size_t)n, sizeof *ts);
    if (!ts) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    tl_tensor *r = NULL;
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++) {
        if (!(ts[i] = val_to_tensor(items[i]))) { ok = false; break; }
        if (ts[i]->ndim != ts[0]->ndim || memcmp(ts[i]->shape, ts[0]->shape, sizeof(int64_t) * (size_t)ts[i]->ndim) != 0) {
            char s0[256], s1[256];
            tl_seterr(ShapeError, "%s: item 0 has shape %s but item %lld has shape %s", what,
                      tl_shape_str(ts[0]->ndim, ts[0]->shape, s0, sizeof s0), (long long)i,
                      tl_shape_str(ts[i]->ndim, ts[i]->shape, s1, sizeof s1));
            ok = false;
        }
    }
    for (int64_t i = 0; i < n && ok; i++) {
        if (ts[i]->dtype == dt) continue;
        tl_tensor *c = tl_cast(ts[i], dt);
        if (!c) { ok = false; break; }
        tl_tensor_release(ts[i]);
        ts[i] = c;
    }
    if (ok && n > INT32_MAX) {
        tl_seterr(MemoryError, "a literal of %lld tensors is too large", (long long)n);
        ok = false;
    }
    if (ok) r = tl_stack((int)n, ts, 0);
    for (int64_t i = 0; i < n; i++)
        if (ts[i]) tl_tensor_release(ts[i]);
    free(ts);
    return r;
}

bool items_are_numeric(int64_t n, const Value *items)
{
    for (int64_t i = 0; i < n; i++)
        if (!val_is_numeric(items[i])) return false;
    return n > 0;
}

/* n numeric items as one tensor: numbers into a vector, tensors (and numbers) stacked. */
static tl_tensor *numeric_tensor(int64_t n, const Value *items, const char *what)
{
    for (int64_t i = 0; i < n; i++)
        if (items[i].kind != V_NUM) return stack_items(n, items, what);
    return numbers_tensor(n, items);
}

bool literal_value(Interp *I, Span at, int64_t n, Value *items, Value *out)
{
    if (!items_are_numeric(n, items)) {   /* a list: the items move into it */
        Value l = val_list_new(n);
        if (l.kind != V_LIST) return interp_error_rt(I, at);
        if (n > 0) memcpy(l.as.l->items, items, (size_t)n * sizeof *items);
        l.as.l->n = n;
        for (int64_t i = 0; i < n; i++) items[i] = val_none();
        *out = l;
        return true;
    }
    tl_tensor *t = numeric_tensor(n, items, "ragged tensor literal");
    if (!t) return interp_error_rt(I, at);
    *out = val_from_tensor(t);
    return true;
}

tl_tensor *values_to_tensor(int64_t n, const Value *items, int depth)
{
    if (n == 0) return tl_tensor_empty(TL_F64, 1, (int64_t[]){ 0 });
    if (depth >= TL_MAXDIM) {
        tl_seterr(ShapeError, "a list nested more than %d deep cannot become a tensor", TL_MAXDIM);
        return NULL;
    }
    bool nested = false;
    for (int64_t i = 0; i < n; i++) {
        Value v = items[i];
        if (v.kind == V_LIST || v.kind == V_TUPLE) nested = true;
        else if (!val_is_numeric(v)) {
            tl_seterr(TypeError, "a list holding a %s cannot become a tensor", val_kind_name(v));
            return NULL;
        }
    }
    if (!nested) return numeric_tensor(n, items, "a list whose items differ in shape cannot become a tensor");
    Value *rows = calloc((size_t)n, sizeof *rows);   /* inner lists and tuples as tensors first */
    if (!rows) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    tl_tensor *r = NULL;
    int64_t done = 0;
    for (; done < n; done++) {
        Value v = items[done];
        if (v.kind != V_LIST && v.kind != V_TUPLE) { rows[done] = val_retain(v); continue; }
        tl_tensor *t = v.kind == V_LIST ? values_to_tensor(v.as.l->n, v.as.l->items, depth + 1)
                                        : values_to_tensor(v.as.tu->n, v.as.tu->items, depth + 1);
        if (!t) break;
        rows[done] = (Value){ .kind = V_TENSOR, .as.t = t };
        if (t->ndim == 0) rows[done] = val_from_scalar_tensor(t);
    }
    if (done == n) r = numeric_tensor(n, rows, "a list whose items differ in shape cannot become a tensor");
    for (int64_t i = 0; i < done; i++) val_release(rows[i]);
    free(rows);
    return r;
}
