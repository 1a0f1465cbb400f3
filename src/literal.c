/* literal.c — building tensors from [a, b, ...] literals */
#include <stdlib.h>
#include <string.h>

#include "literal.h"
#include "ops.h"

/* The dtype of a list literal: its items' common dtype as operators promote them
   (tl_result_dtype_n: strong items by result_type, weak ones joining as literals). */
static bool literal_dtype(Interp *I, Span at, int n, const Value *items, tl_dtype *dt)
{
    enum { SMALL = 16 };
    tl_dtype small_dts[SMALL] = { 0 }, *dts = n > SMALL ? malloc(sizeof *dts * (size_t)n) : small_dts;
    bool small_weak[SMALL] = { 0 }, *weak = n > SMALL ? malloc(sizeof *weak * (size_t)n) : small_weak;
    const void *small_values[SMALL] = { 0 }, **values = n > SMALL ? malloc(sizeof *values * (size_t)n) : small_values;
    bool ok = dts && weak && values;
    for (int i = 0; ok && i < n; i++) {
        dts[i] = val_dtype(items[i]);
        weak[i] = items[i].kind == V_NUM && items[i].weak;
        values[i] = weak[i] ? items[i].as.num.bytes : NULL;
    }
    if (!ok) interp_error(I, at, MemoryError, "out of memory");
    else if (tl_result_dtype_n(n, dts, weak, values, dt) < 0) ok = interp_error_rt(I, at);
    if (n > SMALL) {
        free(dts);
        free(weak);
        free((void *)values);
    }
    return ok;
}

bool literal_tensor(Interp *I, Span at, int n, const Value *items, Value *out)
{
    if (n == 0) {
        int64_t shape[1] = { 0 };
        tl_tensor *t = tl_tensor_empty(TL_F64, 1, shape);
        if (!t) return interp_error_rt(I, at);
        *out = val_from_tensor(t);
        return true;
    }
    bool all_scalars = true;
    for (int i = 0; i < n; i++) {
        if (!val_is_numeric(items[i]))
            return interp_error(I, at, TypeError, "a tensor literal holds numbers or tensors, not a %s", val_kind_name(items[i]));
        if (items[i].kind != V_NUM) all_scalars = false;
    }
    tl_dtype dt;
    if (!literal_dtype(I, at, n, items, &dt)) return false;
    if (all_scalars) {
        int64_t shape[1] = { n };
        tl_tensor *t = tl_tensor_empty(dt, 1, shape);
        if (!t) return interp_error_rt(I, at);
        char *p = tl_tensor_data(t);
        size_t sz = tl_dtype_size(dt);
        for (int i = 0; i < n; i++)
            tl_scalar_convert(p + (size_t)i * sz, dt, items[i].as.num.bytes, (tl_dtype)items[i].dtype);
        *out = val_from_tensor(t);
        return true;
    }
    /* Mixed or nested: every item must have the same shape (scalars are 0-d). */
    tl_tensor **ts = calloc((size_t)n, sizeof *ts);
    if (!ts) return interp_error(I, at, MemoryError, "out of memory");
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        tl_tensor *t = val_to_tensor(items[i]);
        if (!t) { ok = interp_error_rt(I, at); break; }
        ts[i] = t;
        if (t->ndim != ts[0]->ndim || memcmp(t->shape, ts[0]->shape, sizeof(int64_t) * (size_t)t->ndim) != 0) {
            char s0[256], s1[256];
            tl_shape_str(ts[0]->ndim, ts[0]->shape, s0, sizeof s0);
            tl_shape_str(t->ndim, t->shape, s1, sizeof s1);
            ok = interp_error(I, at, ShapeError, "ragged tensor literal: item 0 has shape %s but item %d has shape %s", s0, i, s1);
        }
    }
    if (ok) {
        for (int i = 0; i < n && ok; i++) {
            if (ts[i]->dtype == dt) continue;
            tl_tensor *c = tl_cast(ts[i], dt);
            if (!c) { ok = interp_error_rt(I, at); break; }
            tl_tensor_release(ts[i]);
            ts[i] = c;
        }
    }
    if (ok) {
        tl_tensor *r = tl_stack(n, ts, 0);
        if (!r) ok = interp_error_rt(I, at);
        else *out = val_from_tensor(r);
    }
    for (int i = 0; i < n; i++)
        if (ts[i]) tl_tensor_release(ts[i]);
    free(ts);
    return ok;
}
