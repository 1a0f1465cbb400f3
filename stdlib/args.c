/* args.c — argument checking and conversion shared by every builtin */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "suggest.h"

bool builtin_error(Interp *I, CallArgs *a, tl_errkind kind, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return interp_error_kind(I, a->at, kind, "%s(): %s", a->self->name, msg);
}

bool arg_tensor(Interp *I, CallArgs *a, int i, tl_tensor **out)
{
    Value *v = arg_at(a, i);
    if (!v) return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", a->self->name, arg_name(a, i));
    if (!val_is_tensorlike(*v))
        return bi_fail(I, a, TypeError, "%s must be a tensor or number, not a %s", arg_name(a, i), val_kind_name(*v));
    *out = val_to_tensor(*v);   /* a list converts as np.asarray reads it */
    return *out || interp_error_rt(I, a->at);
}

bool arg_rerun_with_tensors(Interp *I, CallArgs *a, int n, Value *out)
{
    Value conv[BUILTIN_MAX_PARAMS], *old[BUILTIN_MAX_PARAMS];
    bool ok = true;
    int i = 0;
    for (; i < n && ok; i++) {
        old[i] = a->slot[i];
        conv[i] = val_none();
        if (!old[i] || old[i]->kind != V_LIST) continue;
        tl_tensor *t = val_to_tensor(*old[i]);
        if (!t) { ok = interp_error_rt(I, a->at); break; }
        conv[i] = val_from_tensor(t);
        a->slot[i] = &conv[i];
    }
    if (ok) ok = a->self->fn(I, a, out);
    for (int k = 0; k < i; k++) {
        a->slot[k] = old[k];
        val_release(conv[k]);
    }
    return ok;
}

Value *arg_kind(Interp *I, CallArgs *a, int i, int kind)
{
    Value *v = arg_given(a, i);
    if (v && v->kind == kind) return v;
    bi_fail(I, a, TypeError, "%s must be a %s, not a %s", arg_name(a, i), val_kind_name((Value){ .kind = (uint8_t)kind }),
            v ? val_kind_name(*v) : "none");
    return NULL;
}

bool arg_int(Interp *I, CallArgs *a, int i, int64_t def, int64_t *out)
{
    Value *v = arg_at(a, i);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && (tl_is_int((tl_dtype)v->dtype) || v->dtype == TL_BOOL)) {
        *out = tl_scalar_to_i64(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return bi_fail(I, a, TypeError, "%s must be an integer", arg_name(a, i));
}

bool arg_double(Interp *I, CallArgs *a, int i, double def, double *out)
{
    Value *v = arg_at(a, i);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && !tl_is_complex((tl_dtype)v->dtype)) {
        *out = tl_scalar_to_f64(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return bi_fail(I, a, TypeError, "%s must be a real number", arg_name(a, i));
}

bool arg_bool(Interp *I, CallArgs *a, int i, bool def, bool *out)
{
    Value *v = arg_at(a, i);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && (v->dtype == TL_BOOL || tl_is_int((tl_dtype)v->dtype))) {
        *out = tl_scalar_is_nonzero(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return bi_fail(I, a, TypeError, "%s must be true or false", arg_name(a, i));
}

bool arg_dtype(Interp *I, CallArgs *a, int i, tl_dtype def, tl_dtype *out)
{
    Value *v = arg_at(a, i);
    if (!v) { *out = def; return true; }
    const char *name = v->kind == V_STR ? v->as.s->data : v->kind == V_BUILTIN ? v->as.bi->name : NULL;
    if (name && tl_dtype_from_name(name, out)) return true;
    if (name) {
        const char *names[2 * TL_NDTYPES];
        for (int d = 0; d < TL_NDTYPES; d++) names[2 * d] = tl_dtypes[d].name, names[2 * d + 1] = tl_dtypes[d].numpy_name;
        char hint[160];
        return bi_fail(I, a, ValueError, "unknown dtype \"%s\"%s", name, tl_suggest_among(name, names, 2 * TL_NDTYPES, '"', hint, sizeof hint));
    }
    return bi_fail(I, a, TypeError, "%s must be a dtype name such as \"f32\"", arg_name(a, i));
}

bool arg_string(Interp *I, CallArgs *a, int i, const char *def, const char **out)
{
    Value *v = arg_at(a, i);
    if (!v) {
        if (!def) return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", a->self->name, arg_name(a, i));
        *out = def;
        return true;
    }
    if (v->kind != V_STR) return bi_fail(I, a, TypeError, "%s must be a string", arg_name(a, i));
    *out = v->as.s->data;
    return true;
}

bool value_to_shape(Interp *I, Span at, Value v, int *ndim, int64_t *shape)
{
    if (v.kind == V_NUM && tl_is_int((tl_dtype)v.dtype)) {
        *ndim = 1;
        shape[0] = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
        return true;
    }
    if (v.kind == V_TUPLE) {
        if (v.as.tu->n > TL_MAXDIM) return interp_error(I, at, ShapeError, "too many dimensions (%d; at most %d)", v.as.tu->n, TL_MAXDIM);
        *ndim = v.as.tu->n;
        for (int k = 0; k < v.as.tu->n; k++) {
            Value x = v.as.tu->items[k];
            if (x.kind != V_NUM || !tl_is_int((tl_dtype)x.dtype)) return interp_error(I, at, TypeError, "shape entries must be integers");
            shape[k] = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
        }
        return true;
    }
    if (v.kind == V_TENSOR && v.as.t->ndim == 1 && tl_is_int(v.as.t->dtype)) {
        if (v.as.t->shape[0] > TL_MAXDIM) return interp_error(I, at, ShapeError, "too many dimensions");
        *ndim = (int)v.as.t->shape[0];
        for (int k = 0; k < *ndim; k++) {
            int64_t idx = k;
            shape[k] = tl_scalar_to_i64(tl_tensor_at(v.as.t, &idx), v.as.t->dtype);
        }
        return true;
    }
    return interp_error(I, at, TypeError, "a shape must be integers or a tuple of integers, not a %s", val_kind_name(v));
}

bool arg_shape_entries(Interp *I, CallArgs *a, int *ndim, int64_t *shape)
{
    int n = a->nrest;
    if (n == 1 && a->rest[0].kind != V_NUM) return value_to_shape(I, a->at, a->rest[0], ndim, shape);
    if (n > TL_MAXDIM) return bi_fail(I, a, ShapeError, "too many dimensions (%d; at most %d)", n, TL_MAXDIM);
    *ndim = n;
    for (int k = 0; k < n; k++) {
        Value x = a->rest[k];
        if (x.kind != V_NUM || !tl_is_int((tl_dtype)x.dtype)) return bi_fail(I, a, TypeError, "shape entries must be integers");
        shape[k] = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
    }
    return true;
}

bool arg_shape(Interp *I, CallArgs *a, int *ndim, int64_t *shape)
{
    if (!arg_shape_entries(I, a, ndim, shape)) return false;
    for (int k = 0; k < *ndim; k++)
        if (shape[k] < 0) return bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
    return true;
}

bool arg_axes(Interp *I, CallArgs *a, int i, int ndim, int *naxes, int *axes, bool *all)
{
    Value *v = arg_at(a, i);
    *naxes = 0;
    *all = v == NULL;
    if (!v) return true;
    int64_t raw[TL_MAXDIM];
    int n;
    if (v->kind == V_TUPLE && v->as.tu->n == 0) { *all = false; return true; }
    if (!value_to_shape(I, a->at, *v, &n, raw)) return false;
    for (int k = 0; k < n; k++) {
        int ax;
        if (raw[k] < -(int64_t)TL_MAXDIM - 1 || raw[k] > TL_MAXDIM || tl_normalize_axis((int)raw[k], ndim, &ax) < 0)
            return bi_fail(I, a, IndexError, "axis %lld is out of bounds for a tensor of dimension %d", (long long)raw[k], ndim);
        for (int j = 0; j < k; j++)
            if (axes[j] == ax) return bi_fail(I, a, ValueError, "duplicate value in axis");
        axes[k] = ax;
    }
    *naxes = n;
    return true;
}

bool ret_tensor(Interp *I, CallArgs *a, tl_tensor *t, Value *out)
{
    if (!t) return interp_error_rt(I, a->at);
    *out = val_from_tensor(t);
    return true;
}

bool ret_tuple(Interp *I, CallArgs *a, int n, tl_tensor **ts, Value *out)
{
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && ts[i];
    Value tup = ok ? val_tuple_new(n) : val_none();
    if (tup.kind != V_TUPLE) {
        for (int i = 0; i < n; i++)
            if (ts[i]) tl_tensor_release(ts[i]);
        return ok ? interp_error(I, a->at, MemoryError, "out of memory") : interp_error_rt(I, a->at);
    }
    for (int i = 0; i < n; i++) tup.as.tu->items[i] = val_from_tensor(ts[i]);
    *out = tup;
    return true;
}

Value shape_tuple(int ndim, const int64_t *shape)
{
    Value t = val_tuple_new(ndim);
    if (t.kind != V_TUPLE) return t;
    for (int k = 0; k < ndim; k++) t.as.tu->items[k] = val_i64(shape[k]);
    return t;
}

bool args_all_weak(CallArgs *a)
{
    bool any = false;
    for (int i = 0; i < a->npos; i++) {
        if (!val_is_numeric(a->pos[i])) continue;
        if (a->pos[i].kind != V_NUM || !a->pos[i].weak) return false;
        any = true;
    }
    return any;
}
