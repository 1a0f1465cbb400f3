/* literal.c — building tensors from [a, b, ...] literals */
#include <stdlib.h>
#include <string.h>

#include "literal.h"
#include "ops.h"

/* The dtype of a list literal: strong items promote among themselves; weak ones adopt it. */
static tl_dtype literal_dtype(int n, const Value *items)
{
    bool any_strong = false, any_weak = false;
    tl_dtype strong = TL_BOOL, weak = TL_BOOL;
    for (int i = 0; i < n; i++) {
        tl_dtype d = val_dtype(items[i]);
        if (items[i].kind == V_NUM && items[i].weak) {
            weak = any_weak ? tl_promote(weak, d) : d;
            any_weak = true;
        } else {
            strong = any_strong ? tl_promote(strong, d) : d;
            any_strong = true;
        }
    }
    if (!any_strong) return weak;
    if (!any_weak) return strong;
    return tl_promote_weak(strong, weak);
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
    tl_dtype dt = literal_dtype(n, items);
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
