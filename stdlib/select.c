/* select.c — take take_along_axis put_along_axis nonzero argwhere select searchsorted partition argpartition unique isin */
#include <string.h>

#include "builtins.h"

/* Parameter i (axis=): an int checked against ndim and normalized, or TL_AXIS_NONE when it
   is none (or absent and def_none; else absent means def). */
static bool get_axis(Interp *I, CallArgs *a, int i, int ndim, bool def_none, int64_t def, int *axis)
{
    int64_t ax;
    if (!arg_at(a, i) && (def_none || arg_given(a, i))) {
        *axis = TL_AXIS_NONE;
        return true;
    }
    if (!arg_int(I, a, i, def, &ax)) return false;
    if (ax < -ndim || ax >= ndim) return bi_fail(I, a, IndexError, "axis %lld is out of bounds for tensor of dimension %d", (long long)ax, ndim);
    *axis = (int)(ax < 0 ? ax + ndim : ax);
    return true;
}

/* Parameters 0 and 1 as tensors: x, then y (x released on failure). */
static bool two_tensors(Interp *I, CallArgs *a, tl_tensor **x, tl_tensor **y)
{
    if (!arg_tensor(I, a, 0, x)) return false;
    if (arg_tensor(I, a, 1, y)) return true;
    tl_tensor_release(*x);
    return false;
}

/* take(a, indices, axis=none, mode="raise"): a's elements at indices along axis (numpy's take). */
static bool bi_take(Interp *I, CallArgs *a, Value *out)
{
    const char *mode;
    tl_tensor *x, *idx;
    int axis;
    if (!arg_string(I, a, 3, "raise", &mode)) return false;
    tl_take_mode m = strcmp(mode, "raise") == 0 ? TL_TAKE_RAISE : strcmp(mode, "wrap") == 0 ? TL_TAKE_WRAP
                   : strcmp(mode, "clip") == 0 ? TL_TAKE_CLIP : (tl_take_mode)-1;
    if ((int)m < 0) return bi_fail(I, a, ValueError, "mode must be \"raise\", \"wrap\" or \"clip\", not \"%s\"", mode);
    if (!two_tensors(I, a, &x, &idx)) return false;
    bool got = get_axis(I, a, 2, x->ndim, true, 0, &axis);
    tl_tensor *r = got ? tl_take_to(x, idx, axis, m, a->into) : NULL;
    tl_tensor_release(x);
    tl_tensor_release(idx);
    return got && ret_tensor(I, a, r, out);
}

enum { ALONG_TAKE, ALONG_PUT };

/* take_along_axis(arr, indices, axis) and put_along_axis(arr, indices, values, axis) (the tag). */
static bool bi_along(Interp *I, CallArgs *a, Value *out)
{
    bool put = a->self->tag == ALONG_PUT;
    int apos = put ? 3 : 2, axis;   /* the signatures: (arr, indices, axis) and (arr, indices, values, axis) */
    if (put && arg_given(a, 0)->kind != V_TENSOR)
        return bi_fail(I, a, TypeError, "arr must be a tensor of 1 or more dimensions, not a %s", val_kind_name(*arg_given(a, 0)));
    tl_tensor *x, *idx, *v = NULL;
    if (!two_tensors(I, a, &x, &idx)) return false;
    bool ok = get_axis(I, a, apos, x->ndim, false, 0, &axis) && (!put || arg_tensor(I, a, 2, &v));
    tl_tensor *r = NULL;
    if (ok && put) ok = tl_put_along_axis(x, idx, v, axis) == 0 || interp_error_rt(I, a->at);
    else if (ok) r = tl_take_along_axis_to(x, idx, axis, a->into);
    tl_tensor_release(x);
    tl_tensor_release(idx);
    if (v) tl_tensor_release(v);
    if (!ok) return false;
    if (put) {
        *out = val_none();
        return true;
    }
    return ret_tensor(I, a, r, out);
}

/* nonzero(a): a tuple of i64 index tensors, one per axis, of the nonzero elements. */
bool bi_nonzero(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *cols[TL_MAXDIM];
    if (!arg_tensor(I, a, 0, &x)) return false;
    int n = tl_nonzero(x, cols);
    tl_tensor_release(x);
    if (n < 0) return interp_error_rt(I, a->at);
    return ret_tuple(I, a, n, cols, out);
}

/* nonzero(a) and argwhere(a) (the tag): the coordinates of the nonzero elements. */
enum { NZ_TUPLE, NZ_ROWS };
static bool bi_argwhere(Interp *I, CallArgs *a, Value *out)
{
    if (a->self->tag == NZ_TUPLE) return bi_nonzero(I, a, out);
    tl_tensor *x;
    if (!arg_tensor(I, a, 0, &x)) return false;
    tl_tensor *r = tl_argwhere(x);
    tl_tensor_release(x);
    return ret_tensor(I, a, r, out);
}

/* The entries of a tuple (each a value) or of a tensor along its first axis, as tensors (owned). */
static int seq_tensors(Interp *I, CallArgs *a, Value v, const char *what, tl_tensor **ts, int max)
{
    int n;
    if (v.kind == V_TUPLE) n = v.as.tu->n;
    else if (v.kind == V_LIST) n = v.as.l->n > max ? max + 1 : (int)v.as.l->n;
    else if (v.kind == V_TENSOR) n = v.as.t->shape[0] > max ? max + 1 : (int)v.as.t->shape[0];
    else return bi_fail(I, a, TypeError, "%s must be a tuple, list or tensor, not a %s", what, val_kind_name(v)), -1;
    if (n > max) return bi_fail(I, a, ValueError, "at most %d entries in %s", max, what), -1;
    for (int i = 0; i < n; i++) {
        Value item = v.kind == V_TUPLE ? v.as.tu->items[i] : v.kind == V_LIST ? v.as.l->items[i] : val_none();
        ts[i] = v.kind == V_TENSOR ? tl_view_index(v.as.t, 0, i) : val_to_tensor(item);
        if (!ts[i]) {
            for (int j = 0; j < i; j++) tl_tensor_release(ts[j]);
            if (v.kind != V_TENSOR && !val_is_tensorlike(item))
                return bi_fail(I, a, TypeError, "entry %d of %s must be a tensor or number, not a %s", i, what,
                               val_kind_name(item)), -1;
            return interp_error_rt(I, a->at), -1;
        }
    }
    return n;
}

#define SELECT_MAX 256

/* select(condlist, choicelist, default=0): where the first true condition picks its choice, else default. */
static bool bi_select(Interp *I, CallArgs *a, Value *out)
{
    Value *cv = arg_at(a, 0), *chv = arg_at(a, 1), *dv = arg_at(a, 2);
    Value zero = val_i64(0);
    zero.weak = true;
    if (!dv) dv = &zero;
    if (!cv || !chv) return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", a->self->name, arg_name(a, cv ? 1 : 0));
    if (!val_is_numeric(*dv)) return bi_fail(I, a, TypeError, "default must be a tensor or number, not a %s", val_kind_name(*dv));
    tl_tensor *conds[SELECT_MAX + 1], *choices[SELECT_MAX + 1];
    int nc = seq_tensors(I, a, *cv, "condlist", conds, SELECT_MAX);
    if (nc < 0) return false;
    int nch = seq_tensors(I, a, *chv, "choicelist", choices, SELECT_MAX);
    bool ok = nch >= 0;
    if (ok && nc != nch) ok = bi_fail(I, a, ValueError, "choicelist has %d entries and condlist %d: they must match", nch, nc);
    else if (ok && nc == 0) ok = bi_fail(I, a, ValueError, "condlist is empty");
    for (int i = 0; ok && i < nc; i++)
        if (conds[i]->dtype != TL_BOOL) ok = bi_fail(I, a, TypeError, "condition %d must be bool, not %s", i, tl_dtype_name(conds[i]->dtype));
    /* the result's dtype: the choices' and default's, a number default weak as in arithmetic */
    tl_dtype dt = TL_BOOL;
    if (ok) {
        Value vs[SELECT_MAX + 1];
        Value *ps[SELECT_MAX + 1];
        for (int i = 0; i < nch; i++) vs[i] = (Value){ .kind = V_NUM, .dtype = (uint8_t)choices[i]->dtype }, ps[i] = &vs[i];
        ps[nch] = dv;
        bool weak;
        ok = common_dtype(I, a->at, nch + 1, ps, &dt, &weak);
    }
    tl_tensor *r = ok ? val_to_tensor(*dv) : NULL;
    if (ok && !r) ok = interp_error_rt(I, a->at);
    for (int i = nc - 1; ok && i >= 0; i--) {   /* the first true condition is applied last */
        tl_tensor *next = tl_where(conds[i], choices[i], r, dt);
        tl_tensor_release(r);
        r = next;
        ok = r || interp_error_rt(I, a->at);
    }
    for (int i = 0; i < nc; i++) tl_tensor_release(conds[i]);
    for (int i = 0; i < (nch > 0 ? nch : 0); i++) tl_tensor_release(choices[i]);
    if (!ok) {
        if (r) tl_tensor_release(r);
        return false;
    }
    if (r->dtype != dt) {   /* one condition: where already cast; none left r the default's */
        tl_tensor *c = tl_cast(r, dt);
        tl_tensor_release(r);
        r = c;
    }
    return ret_tensor(I, a, r, out);
}

/* The dtype x (from argument v0) and y (from v1) compare in: numpy's promotion, a number literal weak as in arithmetic. */
static bool pair_dtype(Interp *I, CallArgs *a, const Value *v0, const Value *v1, const tl_tensor *x, const tl_tensor *y,
                       tl_dtype *dt)
{
    Value s0 = { .kind = V_NUM, .dtype = (uint8_t)x->dtype }, s1 = { .kind = V_NUM, .dtype = (uint8_t)y->dtype };
    Value *ps[2] = { v0->kind == V_NUM && v0->weak ? (Value *)v0 : &s0, v1->kind == V_NUM && v1->weak ? (Value *)v1 : &s1 };
    bool weak;
    return common_dtype(I, a->at, 2, ps, dt, &weak);
}

/* searchsorted(a, v, side="left", sorter=none): where v's values would go in the sorted 1-d a. */
static bool bi_searchsorted(Interp *I, CallArgs *a, Value *out)
{
    const char *side;
    if (!arg_string(I, a, 2, "left", &side)) return false;
    bool right = strcmp(side, "right") == 0;
    if (!right && strcmp(side, "left") != 0) return bi_fail(I, a, ValueError, "side must be \"left\" or \"right\", not \"%s\"", side);
    tl_tensor *x, *v, *sorter = NULL;
    tl_dtype dt;
    if (!two_tensors(I, a, &x, &v)) return false;
    bool ok = pair_dtype(I, a, arg_given(a, 0), arg_given(a, 1), x, v, &dt) && (!arg_at(a, 3) || arg_tensor(I, a, 3, &sorter));
    tl_tensor *r = ok ? tl_searchsorted(x, v, dt, right, sorter) : NULL;
    tl_tensor_release(x);
    tl_tensor_release(v);
    if (sorter) tl_tensor_release(sorter);
    return ok && ret_tensor(I, a, r, out);
}

/* isin(element, test_elements, invert=false): true where element's value is among test_elements'. */
static bool bi_isin(Interp *I, CallArgs *a, Value *out)
{
    bool invert;
    tl_dtype dt;
    tl_tensor *x, *t;
    if (!arg_bool(I, a, 2, false, &invert) || !two_tensors(I, a, &x, &t)) return false;
    bool ok = pair_dtype(I, a, arg_given(a, 0), arg_given(a, 1), x, t, &dt);
    tl_tensor *r = ok ? tl_isin(x, t, dt, invert) : NULL;
    tl_tensor_release(x);
    tl_tensor_release(t);
    return ok && ret_tensor(I, a, r, out);
}

#define KTH_MAX 4096

/* kth (parameter 1) as an int, a tuple of ints or an integer tensor (at most KTH_MAX of them). */
static bool get_kth(Interp *I, CallArgs *a, int64_t *kth, int *n)
{
    Value *v = arg_at(a, 1);
    if (!v) return interp_error(I, a->at, TypeError, "%s() missing argument 'kth'", a->self->name);
    tl_tensor *t = val_is_tensorlike(*v) ? val_to_tensor(*v) : NULL;
    if (!t && v->kind == V_TUPLE) {
        int ndim;
        int64_t shape[TL_MAXDIM];
        if (v->as.tu->n > TL_MAXDIM) return bi_fail(I, a, ValueError, "at most %d kth in a tuple", TL_MAXDIM);
        if (!value_to_shape(I, a->at, *v, &ndim, shape)) return false;
        for (int i = 0; i < ndim; i++) kth[i] = shape[i];
        *n = ndim;
        return true;
    }
    if (!t || !(tl_is_int(t->dtype)) || t->ndim > 1) {
        if (t) tl_tensor_release(t);
        return bi_fail(I, a, TypeError, "kth must be an integer or a tuple of integers");
    }
    int64_t m = tl_tensor_size(t);
    tl_tensor *c = m <= KTH_MAX ? tl_cast(t, TL_I64) : NULL;
    tl_tensor_release(t);
    if (m > KTH_MAX) return bi_fail(I, a, ValueError, "at most %d kth", KTH_MAX);
    if (!c) return interp_error_rt(I, a->at);
    if (m) memcpy(kth, tl_tensor_data(c), sizeof(int64_t) * (size_t)m);
    tl_tensor_release(c);
    *n = (int)m;
    return true;
}

enum { PART_VALUES, PART_INDICES };

/* partition(a, kth, axis=-1) and argpartition (the tag): numpy's selection along axis (none: flattened). */
static bool bi_partition(Interp *I, CallArgs *a, Value *out)
{
    int64_t kth[KTH_MAX];
    int nk = 0, axis;
    tl_tensor *x;
    if (!get_kth(I, a, kth, &nk) || !arg_tensor(I, a, 0, &x)) return false;
    if (!get_axis(I, a, 2, x->ndim, false, -1, &axis)) {
        tl_tensor_release(x);
        return false;
    }
    if (axis == TL_AXIS_NONE) {
        tl_tensor *f = tl_reshape(x, 1, (int64_t[]){ -1 });
        tl_tensor_release(x);
        if (!f) return interp_error_rt(I, a->at);
        x = f;
        axis = 0;
    }
    tl_tensor *r = a->self->tag == PART_INDICES ? tl_argpartition(x, nk, kth, axis) : tl_partition(x, nk, kth, axis);
    tl_tensor_release(x);
    return ret_tensor(I, a, r, out);
}

/* unique(ar, return_index=false, return_inverse=false, return_counts=false, axis=none): sorted distinct values. */
static bool bi_unique(Interp *I, CallArgs *a, Value *out)
{
    bool wi, wv, wc;
    int axis;
    tl_tensor *x;
    if (!arg_bool(I, a, 1, false, &wi) || !arg_bool(I, a, 2, false, &wv) || !arg_bool(I, a, 3, false, &wc) || !arg_tensor(I, a, 0, &x))
        return false;
    if (!get_axis(I, a, 4, x->ndim, true, 0, &axis)) {
        tl_tensor_release(x);
        return false;
    }
    tl_unique_result u;
    int rc = tl_unique(x, axis, wi, wv, wc, &u);
    tl_tensor_release(x);
    if (rc < 0) return interp_error_rt(I, a->at);
    if (!wi && !wv && !wc) return ret_tensor(I, a, u.values, out);
    tl_tensor *ts[4] = { u.values };
    int n = 1;
    if (wi) ts[n++] = u.index;
    else if (u.index) tl_tensor_release(u.index);
    if (wv) ts[n++] = u.inverse;
    if (wc) ts[n++] = u.counts;
    return ret_tuple(I, a, n, ts, out);
}

const Builtin bi_select_table[] = {
    { "take", bi_take, "take(a, indices, axis=none, mode=\"raise\")",
      "a's elements at indices along axis (flattened if none); mode \"wrap\" or \"clip\" for indices outside", 0,
      BF_OTHER, BT_INTO },
    { "take_along_axis", bi_along, "take_along_axis(arr, indices, axis)",
      "arr's elements at indices matched along axis (as argsort's output)", ALONG_TAKE, BF_OTHER, BT_INTO },
    { "put_along_axis", bi_along, "put_along_axis(arr, indices, values, axis)",
      "writes values into arr at indices matched along axis, in place", ALONG_PUT, BF_OTHER, BT_NO },
    { "nonzero", bi_argwhere, "nonzero(a)", "a tuple of i64 index tensors, one per axis, of the nonzero elements", NZ_TUPLE, BF_OTHER, BT_NO },
    { "argwhere", bi_argwhere, "argwhere(a)", "the (count, ndim) i64 indices of the nonzero elements", NZ_ROWS, BF_OTHER, BT_NO },
    { "select", bi_select, "select(condlist, choicelist, default=0)",
      "per element, the choice of the first true condition, else default", 0, BF_OTHER, BT_NO },
    { "searchsorted", bi_searchsorted, "searchsorted(a, v, side=\"left\", sorter=none)",
      "where v's values would be inserted into the sorted 1-d a to keep it sorted", 0, BF_OTHER, BT_NO },
    { "partition", bi_partition, "partition(a, kth, axis=-1)",
      "a copy with the kth element where a sort puts it, smaller before and larger after", PART_VALUES, BF_OTHER, BT_NO },
    { "argpartition", bi_partition, "argpartition(a, kth, axis=-1)", "the indices that would partition a", PART_INDICES, BF_OTHER, BT_NO },
    { "unique", bi_unique, "unique(ar, return_index=false, return_inverse=false, return_counts=false, axis=none)",
      "the sorted distinct values (or sub-tensors along axis); more with the return_ flags", 0, BF_OTHER, BT_NO },
    { "isin", bi_isin, "isin(element, test_elements, invert=false)", "true where element's value is in test_elements", 0, BF_OTHER, BT_NO },
    { 0 },
};
