/* shape.c — builtins that reshape, reorder, join and split tensors (views where numpy gives views) */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* An axis value as an int; huge values fail here with the value the user wrote. */
static bool axis_value(Interp *I, CallArgs *a, const Value *v, int64_t def, int *out)
{
    int64_t x = def;
    if (v && v->kind != V_NONE) {
        if (v->kind != V_NUM || !(tl_is_int((tl_dtype)v->dtype) || v->dtype == TL_BOOL)) return bi_fail(I, a, TypeError, "axis must be an integer");
        x = tl_scalar_to_i64(v->as.num.bytes, (tl_dtype)v->dtype);
    }
    if (x < -(int64_t)TL_MAXDIM - 1 || x > TL_MAXDIM) return bi_fail(I, a, IndexError, "axis %lld is out of bounds", (long long)x);
    *out = (int)x;
    return true;
}

/* Parameter i as an axis (axis_value). */
static bool arg_axis(Interp *I, CallArgs *a, int i, int64_t def, int *out)
{
    Value *v = arg_at(a, i);
    if (v && !(v->kind == V_NUM && (tl_is_int((tl_dtype)v->dtype) || v->dtype == TL_BOOL)))
        return bi_fail(I, a, TypeError, "%s must be an integer", arg_name(a, i));
    return axis_value(I, a, v, def, out);
}

/* A list of integers of any length: an int, a tuple of ints, or a 1-d integer tensor (malloc'd). */
static bool int_vector(Interp *I, CallArgs *a, Value v, int64_t **out, int64_t *n)
{
    *out = NULL;
    if (v.kind == V_NUM && (tl_is_int((tl_dtype)v.dtype) || v.dtype == TL_BOOL)) {
        *out = malloc(sizeof(int64_t));
        if (!*out) return interp_error(I, a->at, MemoryError, "out of memory");
        (*out)[0] = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
        *n = 1;
        return true;
    }
    int64_t count = v.kind == V_TUPLE ? v.as.tu->n : v.kind == V_TENSOR && v.as.t->ndim == 1 ? v.as.t->shape[0] : -1;
    if (count < 0 || (v.kind == V_TENSOR && !tl_is_int(v.as.t->dtype) && count > 0))
        return bi_fail(I, a, TypeError, "expected an integer or a tuple of integers");
    *out = malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
    if (!*out) return interp_error(I, a->at, MemoryError, "out of memory");
    for (int64_t k = 0; k < count; k++) {
        if (v.kind == V_TUPLE) {
            Value x = v.as.tu->items[k];
            if (x.kind != V_NUM || !tl_is_int((tl_dtype)x.dtype)) {
                free(*out);
                return bi_fail(I, a, TypeError, "expected integers");
            }
            (*out)[k] = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
        } else {
            (*out)[k] = tl_scalar_to_i64(tl_tensor_at(v.as.t, &k), v.as.t->dtype);
        }
    }
    *n = count;
    return true;
}

/* reshape(a, *shape): a view when the strides allow it, else a copy; one -1 is inferred. view() never copies. */
enum { RESHAPE_ANY, RESHAPE_VIEW };

static bool bi_reshape(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_tensor *t;
    if (!arg_shape_entries(I, a, &nd, shape) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r;
    if (a->self->tag == RESHAPE_VIEW) {
        bool needs_copy = false;
        r = tl_view_reshape(t, nd, shape, &needs_copy);
        if (!r && needs_copy)
            tl_seterr(ShapeError, "%s(): this tensor's strides do not allow a view of shape %s; use reshape() to copy", a->self->name,
                      tl_shape_str(nd, shape, (char[256]){ 0 }, 256));
    } else {
        r = tl_reshape_to(t, nd, shape, a->into);
    }
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* Reads the *axes values (separate ints or one tuple); their count must equal ndim. */
static bool perm_args(Interp *I, CallArgs *a, int ndim, int *perm)
{
    int n;
    int64_t raw[TL_MAXDIM];
    if (!arg_shape_entries(I, a, &n, raw)) return false;
    if (n != ndim) return bi_fail(I, a, ShapeError, "axes don't match the tensor (%d given for %d dimensions)", n, ndim);
    for (int k = 0; k < n; k++) {
        if (raw[k] < -ndim || raw[k] >= ndim)
            return bi_fail(I, a, IndexError, "axis %lld is out of bounds for tensor of dimension %d", (long long)raw[k], ndim);
        perm[k] = (int)raw[k];
    }
    return true;
}

/* transpose(a, *axes) reverses the axes, or reorders them as given (separate ints or one tuple, or
   axes=); permute(a, 2, 0, 1) reorders them. T(a) is a.T. */
enum { AXES_TRANSPOSE, AXES_PERMUTE, AXES_T };

static bool bi_transpose(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    int perm[TL_MAXDIM];
    bool ok = true;
    tl_tensor *r = NULL;
    if (a->self->tag == AXES_PERMUTE || (a->self->tag == AXES_TRANSPOSE && a->nrest > 0 && a->rest[0].kind != V_NONE)) {
        ok = perm_args(I, a, t->ndim, perm);
        if (ok) r = tl_view_permute(t, perm);
    } else {
        r = tl_view_transpose(t);
    }
    tl_tensor_release(t);
    if (!ok) return false;
    return ret_tensor(I, a, r, out);
}

static bool bi_swapaxes(Interp *I, CallArgs *a, Value *out)
{
    int i, j;
    tl_tensor *t;
    if (!arg_axis(I, a, 1, 0, &i) || !arg_axis(I, a, 2, 0, &j) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_view_swapaxes(t, i, j);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* squeeze(a, axis=none): drops size-1 axes (all of them, or the given ones; a non-1 axis is an error). */
static bool bi_squeeze(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int naxes, axes[TL_MAXDIM];
    bool all;
    if (!arg_tensor(I, a, 0, &t)) return false;
    if (!arg_axes(I, a, 1, t->ndim, &naxes, axes, &all)) {
        tl_tensor_release(t);
        return false;
    }
    for (int k = 0; k < naxes; k++)
        if (t->shape[axes[k]] != 1) {
            int64_t size = t->shape[axes[k]];
            tl_tensor_release(t);
            return bi_fail(I, a, ShapeError, "cannot squeeze axis %d: its size is %lld, not 1", axes[k], (long long)size);
        }
    /* dropping size-1 axes is a view; the axes kept keep their strides (numpy), which a reshape
       would not promise for the size-1 ones. Highest axis first, so the lower ones keep their place. */
    tl_tensor *r = all ? tl_view_squeeze(t, TL_AXIS_NONE) : t;
    if (!all) tl_tensor_retain(t);
    for (int k = t->ndim - 1; k >= 0 && r && !all; k--) {
        bool drop = false;
        for (int j = 0; j < naxes; j++) drop = drop || axes[j] == k;
        if (!drop) continue;
        tl_tensor *next = tl_view_squeeze(r, k);
        tl_tensor_release(r);
        r = next;
    }
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_unsqueeze(Interp *I, CallArgs *a, Value *out)
{
    int axis;
    tl_tensor *t;
    if (!arg_at(a, 1)) return interp_error(I, a->at, TypeError, "%s() missing argument 'axis'", a->self->name);
    if (!arg_axis(I, a, 1, 0, &axis) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_view_unsqueeze(t, axis);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* broadcast_to(a, shape) and expand(a, *shape) (PyTorch: -1 keeps a dim): read-only stride-0 views. */
enum { BROADCAST_TO, BROADCAST_EXPAND };

static bool bi_broadcast_to(Interp *I, CallArgs *a, Value *out)
{
    bool expand = a->self->tag == BROADCAST_EXPAND;   /* expand(a, *shape), broadcast_to(a, shape) */
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_tensor *t;
    if (!(expand ? arg_shape_entries(I, a, &nd, shape) : value_to_shape(I, a->at, *arg_given(a, 1), &nd, shape)) || !arg_tensor(I, a, 0, &t))
        return false;
    for (int k = 0; k < nd; k++) {
        int src = k - (nd - t->ndim);
        if (expand && shape[k] == -1 && src >= 0) shape[k] = t->shape[src];
        if (shape[k] < 0) {
            tl_tensor_release(t);
            return bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
        }
    }
    tl_tensor *r = tl_view_broadcast_to(t, nd, shape);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* flip(a, axis=none): reverses the given axes (all when none) as negative-stride views. */
static bool bi_flip(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int naxes, axes[TL_MAXDIM];
    bool all;
    if (!arg_tensor(I, a, 0, &t)) return false;
    if (!arg_axes(I, a, 1, t->ndim, &naxes, axes, &all)) {
        tl_tensor_release(t);
        return false;
    }
    if (all)
        for (naxes = 0; naxes < t->ndim; naxes++) axes[naxes] = naxes;
    tl_tensor *r = t;
    for (int k = 0; k < naxes && r; k++) {
        tl_tensor *next = tl_view_flip(r, axes[k]);
        tl_tensor_release(r);
        r = next;
    }
    return ret_tensor(I, a, r, out);
}

/* The tensors of concat/stack/hstack/...(*tensors): one tuple, separate arguments, or one tensor
   (its rows, as numpy). */
static bool tensor_list(Interp *I, CallArgs *a, tl_tensor ***out, int *n)
{
    Value *items = a->rest;
    int count = a->nrest;
    if (count >= 1 && items[0].kind == V_TUPLE) {   /* the tuple form; a second positional is the axis */
        count = items[0].as.tu->n;
        items = items[0].as.tu->items;
    } else if (count >= 1 && items[0].kind == V_LIST) {   /* a list of tensors, as numpy's */
        if (items[0].as.l->n > INT_MAX / 2) return bi_fail(I, a, ValueError, "too many tensors");
        count = (int)items[0].as.l->n;
        items = items[0].as.l->items;
    }
    bool rows = count == 1 && items[0].kind == V_TENSOR;
    int64_t total = rows ? items[0].as.t->shape[0] : count;
    *out = NULL;
    *n = 0;
    if (total > INT_MAX / 2) return bi_fail(I, a, ValueError, "too many tensors");
    tl_tensor **ts = calloc((size_t)(total > 0 ? total : 1), sizeof *ts);
    if (!ts) return interp_error(I, a->at, MemoryError, "out of memory");
    for (int64_t i = 0; i < total; i++) {
        if (rows) {
            ts[i] = tl_view_index(items[0].as.t, 0, i);
        } else if (val_is_tensorlike(items[i])) {
            ts[i] = val_to_tensor(items[i]);
        } else {
            for (int64_t j = 0; j < i; j++) tl_tensor_release(ts[j]);
            free(ts);
            return bi_fail(I, a, TypeError, "expected tensors, got a %s", val_kind_name(items[i]));
        }
        if (!ts[i]) {
            for (int64_t j = 0; j < i; j++) tl_tensor_release(ts[j]);
            free(ts);
            return interp_error_rt(I, a->at);
        }
    }
    *out = ts;
    *n = (int)total;
    return true;
}

static void release_list(tl_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) tl_tensor_release(ts[i]);
    free(ts);
}

/* concat(*tensors, axis=0) / stack(...) (the tag picks which): concat((a, b)), concat(a, b), and
   concat((a, b), 1) as numpy, where after a tuple the axis may come positionally. */
enum { JOIN_CONCAT, JOIN_STACK };

static bool bi_concat(Interp *I, CallArgs *a, Value *out)
{
    int axis, n;
    tl_tensor **ts;
    bool tuple_form = a->nrest >= 1 && a->rest[0].kind == V_TUPLE;
    const Value *axis_v = arg_given(a, 1);
    if (tuple_form && a->nrest > 2)
        return interp_error(I, a->at, TypeError, "%s() takes at most 2 positional arguments (%d given)", a->self->name, a->npos);
    if (tuple_form && a->nrest == 2) {
        if (axis_v) return interp_error(I, a->at, TypeError, "%s() got multiple values for argument 'axis'", a->self->name);
        axis_v = &a->rest[1];
        a->nrest = 1;
    }
    if (!axis_value(I, a, axis_v, 0, &axis) || !tensor_list(I, a, &ts, &n)) return false;
    /* concat(..., axis=none) joins the flattened tensors, as numpy */
    bool stack = a->self->tag == JOIN_STACK;
    bool flat = !stack && axis_v && axis_v->kind == V_NONE;
    for (int i = 0; flat && i < n; i++) {
        tl_tensor *f = tl_reshape(ts[i], 1, (int64_t[]){ -1 });
        if (!f) {
            release_list(ts, n);
            return interp_error_rt(I, a->at);
        }
        tl_tensor_release(ts[i]);
        ts[i] = f;
    }
    tl_tensor *r = stack ? tl_stack_to(n, ts, axis, a->into) : tl_concat_to(n, ts, axis, a->into);
    release_list(ts, n);
    return ret_tensor(I, a, r, out);
}

/* Normalizes the axes in v (an int or a tuple) against ndim into out; which names the argument in
   messages. Out of range is an IndexError and a repeated axis a ValueError, as numpy. */
static bool axis_list(Interp *I, CallArgs *a, const char *which, Value v, int ndim, int *n, int *out)
{
    int64_t raw[TL_MAXDIM];
    if (!value_to_shape(I, a->at, v, n, raw)) return false;
    for (int k = 0; k < *n; k++) {
        if (raw[k] < -ndim || raw[k] >= ndim)
            return bi_fail(I, a, IndexError, "%saxis %lld is out of bounds for a tensor of dimension %d", which, (long long)raw[k], ndim);
        out[k] = (int)(raw[k] < 0 ? raw[k] + ndim : raw[k]);
        for (int j = 0; j < k; j++)
            if (out[j] == out[k]) return bi_fail(I, a, ValueError, "%saxis %d is repeated", which, out[k]);
    }
    return true;
}

/* moveaxis(a, source, destination): the axes in source moved to the places in destination, the others
   keeping their order (a view). */
static bool bi_moveaxis(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int ns, nd, src[TL_MAXDIM], dst[TL_MAXDIM];
    Value *sv = arg_at(a, 1), *dv = arg_at(a, 2);
    if (!sv || !dv) return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", a->self->name, sv ? "destination" : "source");
    if (!arg_tensor(I, a, 0, &t)) return false;
    bool ok = axis_list(I, a, "source ", *sv, t->ndim, &ns, src) && axis_list(I, a, "destination ", *dv, t->ndim, &nd, dst);
    if (ok && ns != nd) ok = bi_fail(I, a, ValueError, "source and destination must have the same number of axes (%d and %d)", ns, nd);
    tl_tensor *r = NULL;
    if (ok) {
        /* the axes not moved fill the free places in order */
        int perm[TL_MAXDIM], rest = 0;
        bool placed[TL_MAXDIM] = { false }, moved[TL_MAXDIM] = { false };
        for (int k = 0; k < ns; k++) {
            perm[dst[k]] = src[k];
            placed[dst[k]] = moved[src[k]] = true;
        }
        for (int k = 0; k < t->ndim; k++) {
            if (placed[k]) continue;
            while (moved[rest]) rest++;
            perm[k] = rest++;
        }
        r = tl_view_permute(t, perm);
    }
    tl_tensor_release(t);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* expand_dims(a, axis): size-1 axes inserted at the given places of the result (an int or a tuple; a view). */
static bool bi_expand_dims(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int64_t raw[TL_MAXDIM + 1];
    int n;
    Value *av = arg_at(a, 1);
    if (!av) return interp_error(I, a->at, TypeError, "%s() missing argument 'axis'", a->self->name);
    if (!value_to_shape(I, a->at, *av, &n, raw) || !arg_tensor(I, a, 0, &t)) return false;
    int nd = t->ndim + n;
    bool at[TL_MAXDIM] = { false };
    for (int k = 0; k < n && nd <= TL_MAXDIM; k++) {
        if (raw[k] < -nd || raw[k] >= nd) {
            tl_tensor_release(t);
            return bi_fail(I, a, IndexError, "axis %lld is out of bounds for a tensor of dimension %d", (long long)raw[k], nd);
        }
        int ax = (int)(raw[k] < 0 ? raw[k] + nd : raw[k]);
        if (at[ax]) {
            tl_tensor_release(t);
            return bi_fail(I, a, ValueError, "repeated axis %d", ax);
        }
        at[ax] = true;
    }
    if (nd > TL_MAXDIM) {
        tl_tensor_release(t);
        return bi_fail(I, a, ShapeError, "too many dimensions (%d; at most %d)", nd, TL_MAXDIM);
    }
    /* inserting in increasing order puts each new axis at its final place */
    tl_tensor *r = t;
    for (int k = 0; k < nd && r; k++) {
        if (!at[k]) continue;
        tl_tensor *next = tl_view_unsqueeze(r, k);   /* numpy's strides: expand_dims is a reshape */
        tl_tensor_release(r);
        r = next;
    }
    return ret_tensor(I, a, r, out);
}

/* t viewed with at least n dimensions (n = 1, 2, 3), numpy's atleast_nd: a 1-d (N,) becomes (1, N) or
   (1, N, 1), a 2-d (M, N) becomes (M, N, 1). Takes t's reference. */
static tl_tensor *at_least(tl_tensor *t, int n)
{
    /* where the new size-1 axes go, for each input ndim below n */
    static const int places[4][3][3] = {
        [1] = { { 0 } },
        [2] = { { 0, 1 }, { 0 } },
        [3] = { { 0, 1, 2 }, { 0, 2 }, { 2 } },
    };
    int have = t->ndim;
    for (int k = 0; have < n && k < n - have && t; k++) {
        tl_tensor *next = tl_view_newaxis(t, places[n][have][k]);
        tl_tensor_release(t);
        t = next;
    }
    return t;
}

/* atleast_1d/2d/3d(*tensors): each with at least that many dimensions (views); one tensor, or a tuple. */
static bool bi_atleast(Interp *I, CallArgs *a, Value *out)
{
    int n = a->nrest;
    tl_tensor **ts = calloc((size_t)(n > 0 ? n : 1), sizeof *ts);
    if (!ts) return interp_error(I, a->at, MemoryError, "out of memory");
    for (int i = 0; i < n; i++)
        if (!val_is_tensorlike(a->rest[i]) || !(ts[i] = val_to_tensor(a->rest[i]))) {
            release_list(ts, i);
            if (val_is_tensorlike(a->rest[i])) return interp_error_rt(I, a->at);
            return bi_fail(I, a, TypeError, "tensors must be tensors or numbers, not a %s", val_kind_name(a->rest[i]));
        }
    for (int i = 0; i < n; i++) ts[i] = at_least(ts[i], a->self->tag);
    bool ok = n == 1 ? ret_tensor(I, a, ts[0], out) : ret_tuple(I, a, n, ts, out);
    free(ts);
    return ok;
}

/* hstack/vstack/dstack(tensors): concat after atleast_1d (along axis 0 for 1-d, else 1), atleast_2d (axis 0)
   or atleast_3d (axis 2); the tag is the atleast dimension. */
enum { STACK_H = 1, STACK_V = 2, STACK_D = 3 };

static bool bi_hvdstack(Interp *I, CallArgs *a, Value *out)
{
    int n, tag = a->self->tag;
    tl_tensor **ts;
    if (a->nrest == 0) return interp_error(I, a->at, TypeError, "%s() takes at least 1 argument (0 given)", a->self->name);
    if (!tensor_list(I, a, &ts, &n)) return false;
    for (int i = 0; i < n; i++)
        if (!(ts[i] = at_least(ts[i], tag))) {
            for (int j = i + 1; j < n; j++) tl_tensor_release(ts[j]);
            release_list(ts, i);
            return interp_error_rt(I, a->at);
        }
    int axis = tag == STACK_D ? 2 : tag == STACK_V || (n > 0 && ts[0]->ndim == 1) ? 0 : 1;
    tl_tensor *r = tl_concat_to(n, ts, axis, a->into);
    release_list(ts, n);
    return ret_tensor(I, a, r, out);
}

/* split(a, n_or_indices, axis=0): a tuple of views; an int n must divide the axis evenly, as numpy.
   array_split takes any n: the first parts get one element more. */
enum { SPLIT_EQUAL, SPLIT_UNEQUAL };

static bool bi_split(Interp *I, CallArgs *a, Value *out)
{
    int axis, nax;
    tl_tensor *t;
    int64_t *idx, nidx;
    if (!arg_axis(I, a, 2, 0, &axis) || !arg_tensor(I, a, 0, &t)) return false;
    if (t->ndim == 0 || tl_normalize_axis(axis, t->ndim, &nax) < 0) {
        if (t->ndim == 0) tl_seterr(ShapeError, "%s(): cannot split a 0-d tensor", a->self->name);
        tl_tensor_release(t);
        return interp_error_rt(I, a->at);
    }
    Value spec = *arg_given(a, 1);
    if (spec.kind == V_NUM) {
        int64_t sections;
        if (!arg_int(I, a, 1, 0, &sections)) goto fail;
        int64_t len = t->shape[nax];
        bool unequal = a->self->tag == SPLIT_UNEQUAL;
        if (sections <= 0 || sections > 1000000 || (!unequal && len % sections != 0)) {
            tl_tensor_release(t);
            if (sections <= 0) return bi_fail(I, a, ValueError, "number of sections must be larger than 0");
            return sections > 1000000 ? bi_fail(I, a, ValueError, "too many sections (%lld; at most 1000000)", (long long)sections)
                                      : bi_fail(I, a, ValueError, "tensor split does not result in an equal division (axis %d of size %lld into %lld)",
                                                nax, (long long)len, (long long)sections);
        }
        nidx = sections - 1;
        idx = malloc(sizeof(int64_t) * (size_t)(nidx > 0 ? nidx : 1));
        if (!idx) goto oom;
        /* array_split: the first len % sections parts get one element more, as numpy */
        for (int64_t k = 0, at = 0; k < nidx; k++) idx[k] = at += len / sections + (k < len % sections);
    } else if (!int_vector(I, a, spec, &idx, &nidx)) {
        goto fail;
    }
    if (nidx >= INT_MAX - 1) {
        free(idx);
        goto oom;
    }
    tl_tensor **parts = calloc((size_t)nidx + 1, sizeof *parts);
    Value tup = parts ? val_tuple_new((int)nidx + 1) : val_none();
    if (!parts || tup.kind != V_TUPLE) {
        free(parts);
        free(idx);
        goto oom;
    }
    int rc = tl_split(t, (int)nidx, idx, nax, parts);
    free(idx);
    tl_tensor_release(t);
    if (rc < 0) {
        free(parts);
        val_release(tup);
        return interp_error_rt(I, a->at);
    }
    for (int64_t k = 0; k <= nidx; k++) tup.as.tu->items[k] = val_from_tensor(parts[k]);
    free(parts);
    *out = tup;
    return true;
oom:
    tl_tensor_release(t);
    return interp_error(I, a->at, MemoryError, "out of memory");
fail:
    tl_tensor_release(t);
    return false;
}

static bool bi_tile(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t reps[TL_MAXDIM];
    tl_tensor *t;
    if (!value_to_shape(I, a->at, *arg_given(a, 1), &nd, reps) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_tile_to(t, nd, reps, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* repeat(a, repeats, axis=none): none repeats the flattened elements, as numpy. */
static bool bi_repeat(Interp *I, CallArgs *a, Value *out)
{
    int axis = TL_AXIS_NONE;
    tl_tensor *t;
    int64_t *reps, nreps;
    if (arg_at(a, 2) && !arg_axis(I, a, 2, 0, &axis)) return false;
    if (!int_vector(I, a, *arg_given(a, 1), &reps, &nreps)) return false;
    if (!arg_tensor(I, a, 0, &t)) {
        free(reps);
        return false;
    }
    tl_tensor *r = tl_repeat_to(t, reps, nreps, axis, a->into);
    free(reps);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* flatten / ravel / copy / contiguous / real / imag: one tensor in, one out; the tag picks which. */
enum { ONE_FLATTEN, ONE_RAVEL, ONE_COPY, ONE_CONTIGUOUS, ONE_REAL, ONE_IMAG };

static bool bi_one(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t, *r = NULL;
    if (!arg_tensor(I, a, 0, &t)) return false;
    switch (a->self->tag) {
    case ONE_FLATTEN: r = tl_flatten_to(t, a->into); break;
    case ONE_RAVEL: r = tl_reshape_to(t, 1, (int64_t[]){ -1 }, a->into); break;   /* a view when strides allow */
    case ONE_COPY: r = tl_copy_to(t, a->into); break;
    case ONE_CONTIGUOUS: r = tl_is_contiguous(t) ? tl_contiguous(t) : tl_copy_to(t, a->into); break;
    case ONE_REAL: r = tl_view_real(t); break;
    case ONE_IMAG:
        /* numpy's imag of a real tensor is zeros of its dtype */
        r = tl_is_complex(t->dtype) ? tl_view_imag(t) : tl_tensor_zeros_to(t->dtype, t->ndim, t->shape, a->into);
        break;
    }
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_diagonal(Interp *I, CallArgs *a, Value *out)
{
    int64_t offset;
    int ax1, ax2;
    tl_tensor *t;
    if (!arg_int(I, a, 1, 0, &offset) || !arg_axis(I, a, 2, 0, &ax1) || !arg_axis(I, a, 3, 1, &ax2) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_view_diagonal(t, offset, ax1, ax2);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

const Builtin bi_shape_table[] = {
    { "reshape", bi_reshape, "reshape(a, *shape)", "a view with a new shape when strides allow, else a copy; one -1 is inferred", RESHAPE_ANY, BF_OTHER, BT_INTO },
    { "view", bi_reshape, "view(a, *shape)", "like reshape, but an error where a copy would be needed", RESHAPE_VIEW, BF_OTHER, BT_VIEW },
    { "transpose", bi_transpose, "transpose(a, *axes)", "reverses (or reorders) the axes: a view", AXES_TRANSPOSE, BF_OTHER, BT_VIEW },
    { "permute", bi_transpose, "permute(a, *axes)", "reorders the axes: permute(a, 2, 0, 1) (a view)", AXES_PERMUTE, BF_OTHER, BT_VIEW },
    { "T", bi_transpose, "T(a)", "a.T: the axes reversed (a view)", AXES_T, BF_OTHER, BT_VIEW },
    { "swapaxes", bi_swapaxes, "swapaxes(a, axis1, axis2)", "exchanges two axes (a view)", 0, BF_OTHER, BT_VIEW },
    { "squeeze", bi_squeeze, "squeeze(a, axis=none)", "drops size-1 axes (a view); naming a non-1 axis is an error", 0, BF_OTHER, BT_VIEW },
    { "unsqueeze", bi_unsqueeze, "unsqueeze(a, axis)", "inserts a size-1 axis at axis (a view)", 0, BF_OTHER, BT_VIEW },
    { "broadcast_to", bi_broadcast_to, "broadcast_to(a, shape)", "a read-only view repeating a to shape (stride 0)", BROADCAST_TO, BF_OTHER, BT_VIEW },
    { "expand", bi_broadcast_to, "expand(a, *shape)", "broadcast_to where -1 keeps a's size (as PyTorch)", BROADCAST_EXPAND, BF_OTHER, BT_VIEW },
    { "flip", bi_flip, "flip(a, axis=none)", "reverses the order along axis (all axes if none): a view", 0, BF_OTHER, BT_VIEW },
    { "concat", bi_concat, "concat(*tensors, axis=0)", "joins tensors along an existing axis (flattened if axis=none): concat((a, b)) or concat(a, b)", JOIN_CONCAT, BF_OTHER, BT_INTO },
    { "stack", bi_concat, "stack(*tensors, axis=0)", "joins same-shape tensors along a new axis", JOIN_STACK, BF_OTHER, BT_INTO },
    { "split", bi_split, "split(a, n_or_indices, axis=0)", "a tuple of views: n equal parts, or cut at the indices", SPLIT_EQUAL, BF_OTHER, BT_NO },
    { "ravel", bi_one, "ravel(a)", "the elements as 1-d in row-major order: a view when strides allow, else a copy", ONE_RAVEL, BF_OTHER, BT_INTO },
    { "moveaxis", bi_moveaxis, "moveaxis(a, source, destination)", "moves axes (ints or tuples) to new places, the others keeping their order (a view)", 0, BF_OTHER, BT_VIEW },
    { "expand_dims", bi_expand_dims, "expand_dims(a, axis)", "inserts size-1 axes at the given places of the result (a view)", 0, BF_OTHER, BT_VIEW },
    { "atleast_1d", bi_atleast, "atleast_1d(*tensors)", "each tensor with at least 1 dimension (views; a tuple for several)", 1, BF_OTHER, BT_VIEW },
    { "atleast_2d", bi_atleast, "atleast_2d(*tensors)", "each with at least 2 dimensions: (N,) becomes (1, N) (views)", 2, BF_OTHER, BT_VIEW },
    { "atleast_3d", bi_atleast, "atleast_3d(*tensors)", "each with at least 3 dimensions: (N,) -> (1, N, 1), (M, N) -> (M, N, 1)", 3, BF_OTHER, BT_VIEW },
    { "hstack", bi_hvdstack, "hstack(*tensors)", "joins along axis 1 (axis 0 for 1-d tensors)", STACK_H, BF_OTHER, BT_INTO },
    { "vstack", bi_hvdstack, "vstack(*tensors)", "joins along axis 0 after making each at least 2-d", STACK_V, BF_OTHER, BT_INTO },
    { "dstack", bi_hvdstack, "dstack(*tensors)", "joins along axis 2 after making each at least 3-d", STACK_D, BF_OTHER, BT_INTO },
    { "array_split", bi_split, "array_split(a, n_or_indices, axis=0)", "like split, but n need not divide the axis: the first parts get one more", SPLIT_UNEQUAL, BF_OTHER, BT_NO },
    { "tile", bi_tile, "tile(a, reps)", "repeats the whole tensor reps times along each axis", 0, BF_OTHER, BT_INTO },
    { "repeat", bi_repeat, "repeat(a, repeats, axis=none)", "repeats each element (flattened when axis is none)", 0, BF_OTHER, BT_INTO },
    { "flatten", bi_one, "flatten(a)", "a 1-d copy of the elements in row-major order", ONE_FLATTEN, BF_OTHER, BT_INTO },
    { "copy", bi_one, "copy(a)", "a C-contiguous copy", ONE_COPY, BF_OTHER, BT_INTO },
    { "contiguous", bi_one, "contiguous(a)", "a itself when C-contiguous, else a contiguous copy", ONE_CONTIGUOUS, BF_OTHER, BT_INTO },
    { "diagonal", bi_diagonal, "diagonal(a, offset=0, axis1=0, axis2=1)", "the diagonal as a view (as the last axis)", 0, BF_OTHER, BT_VIEW },
    { "real", bi_one, "real(z)", "the real part: a view for complex tensors, else z itself", ONE_REAL, BF_ELEMENTWISE, BT_VIEW },
    { "imag", bi_one, "imag(z)", "the imaginary part: a view for complex tensors, else zeros", ONE_IMAG, BF_ELEMENTWISE, BT_INTO },
    { 0 },
};
