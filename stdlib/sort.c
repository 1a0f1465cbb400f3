/* sort.c — sort argsort topk */
#include "builtins.h"

/* Reads x and axis= (parameter axis_pos): default -1, `none` sorts the flattened tensor (numpy);
   *t is the tensor to sort and *axis a valid axis of it (a 0-d value has none, as in numpy). */
static bool sort_input(Interp *I, CallArgs *a, int axis_pos, tl_tensor **t, int *axis)
{
    int64_t ax;
    tl_tensor *x;
    if (!arg_int(I, a, axis_pos, -1, &ax) || !arg_tensor(I, a, 0, &x)) return false;
    if (arg_given(a, axis_pos) && !arg_at(a, axis_pos)) {   /* axis=none */
        *t = tl_reshape(x, 1, (int64_t[]){ -1 });
        tl_tensor_release(x);
        *axis = 0;
        return *t || interp_error_rt(I, a->at);
    }
    if (ax < -x->ndim || ax >= x->ndim) {
        int ndim = x->ndim;   /* read before x is released */
        tl_tensor_release(x);
        return bi_fail(I, a, IndexError, "axis %lld is out of bounds for tensor of dimension %d", (long long)ax, ndim);
    }
    *axis = (int)(ax < 0 ? ax + x->ndim : ax);
    *t = x;
    return true;
}

/* sort(x, axis=-1, descending=false) / argsort (the tag says which): stable, nan sorts last (as numpy) when ascending. */
enum { SORT_VALUES, SORT_INDICES };

static bool bi_sort(Interp *I, CallArgs *a, Value *out)
{
    bool desc;
    int axis;
    tl_tensor *t;
    if (!arg_bool(I, a, 2, false, &desc) || !sort_input(I, a, 1, &t, &axis)) return false;
    tl_tensor *r = tl_sort_to(t, axis, desc, a->self->tag == SORT_INDICES, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* topk(x, k, axis=-1): a tuple (values, indices) of the k largest along axis, largest first
   (equal values keep their order, as a stable descending sort). */
static bool bi_topk(Interp *I, CallArgs *a, Value *out)
{
    int64_t k;
    int axis;
    tl_tensor *t;
    if (!arg_at(a, 1)) return interp_error(I, a->at, TypeError, "%s() missing argument 'k'", a->self->name);
    if (!arg_int(I, a, 1, 0, &k) || !sort_input(I, a, 2, &t, &axis)) return false;
    int64_t n = t->shape[axis];
    if (k < 0 || k > n) {
        tl_tensor_release(t);
        return bi_fail(I, a, IndexError, "k = %lld is out of range for axis %d of size %lld", (long long)k, axis, (long long)n);
    }
    tl_tensor *vs = tl_sort(t, axis, true), *is = vs ? tl_argsort(t, axis, true) : NULL;
    tl_tensor *v = is ? tl_view_slice(vs, axis, 0, k, 1, true, true) : NULL;
    tl_tensor *ix = v ? tl_view_slice(is, axis, 0, k, 1, true, true) : NULL;
    tl_tensor_release(t);
    if (vs) tl_tensor_release(vs);
    if (is) tl_tensor_release(is);
    Value tup = ix ? val_tuple_new(2) : val_none();
    if (tup.kind != V_TUPLE) {
        if (v) tl_tensor_release(v);
        if (ix) tl_tensor_release(ix);
        return ix ? interp_error(I, a->at, MemoryError, "out of memory") : interp_error_rt(I, a->at);
    }
    tup.as.tu->items[0] = val_from_tensor(v);
    tup.as.tu->items[1] = val_from_tensor(ix);
    *out = tup;
    return true;
}

const Builtin bi_sort_table[] = {
    { "sort", bi_sort, "sort(x, axis=-1, descending=false)", "a sorted copy along axis (flattened if axis=none); stable", SORT_VALUES, BF_OTHER, BT_INTO },
    { "argsort", bi_sort, "argsort(x, axis=-1, descending=false)", "the indices that would sort x along axis; stable", SORT_INDICES, BF_OTHER, BT_INTO },
    { "topk", bi_topk, "topk(x, k, axis=-1)", "(values, indices) of the k largest along axis, largest first", 0, BF_OTHER, BT_NO },
    { 0 },
};
