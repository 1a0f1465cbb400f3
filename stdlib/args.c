/* args.c — argument checking and conversion shared by every builtin */
#include <string.h>

#include "builtins.h"

/* The parameters of a builtin's signature that may come positionally ("sum(x, axis=none)" gives
   x, axis), up to a *rest parameter (those after it are keyword-only); returns how many. */
static int signature_params(const char *sig, char names[][32], int max)
{
    const char *p = sig ? strchr(sig, '(') : NULL;
    int n = 0;
    while (p && *p && *p != ')' && n < max) {
        p += strspn(p + 1, " ") + 1;
        if (*p == '*' || *p == ')') break;
        size_t len = strcspn(p, "=,) ");
        if (len == 0 || len >= 32) break;
        memcpy(names[n], p, len);
        names[n++][len] = '\0';
        p = strpbrk(p, ",)");   /* a default holds no comma in these signatures */
    }
    return n;
}

bool args_check(Interp *I, CallArgs *a, const char *fname, int min_pos, int max_pos, const char *const *kws)
{
    int npos = a->npos;
    if (npos < min_pos) {
        /* a required parameter may also come by keyword; callers check those with arg_find */
        bool all_by_kw = kws != NULL;
        if (!all_by_kw || a->nkw == 0)
            return interp_error(I, a->at, TypeError, "%s() takes at least %d argument%s (%d given)", fname, min_pos,
                                min_pos == 1 ? "" : "s", npos);
    }
    if (max_pos >= 0 && npos > max_pos)
        return interp_error(I, a->at, TypeError, "%s() takes at most %d positional argument%s (%d given)", fname, max_pos,
                            max_pos == 1 ? "" : "s", npos);
    for (int k = 0; k < a->nkw; k++) {
        bool known = false;
        for (int j = 0; kws && kws[j]; j++)
            if (strcmp(kws[j], a->kwnames[k]) == 0) known = true;
        if (!known) return interp_error(I, a->at, TypeError, "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
        for (int j = 0; j < k; j++)
            if (strcmp(a->kwnames[j], a->kwnames[k]) == 0)
                return interp_error(I, a->at, TypeError, "%s() got keyword argument '%s' twice", fname, a->kwnames[k]);
    }
    if (a->nkw == 0 || max_pos < 0 || !a->self) return true;   /* varargs: keywords never name a positional */
    char names[16][32];
    const char *params[16];
    int n = signature_params(a->self->signature, names, 16);
    for (int i = 0; i < n; i++) params[i] = names[i];
    return interp_check_repeated(I, a, fname, n, params);
}

Value *arg_find(CallArgs *a, int i, const char *kw)
{
    Value *v = NULL;
    if (i >= 0 && i < a->npos) v = &a->pos[i];
    else if (kw)
        for (int k = 0; k < a->nkw; k++)
            if (strcmp(a->kwnames[k], kw) == 0) v = &a->kw[k];
    return v && v->kind != V_NONE ? v : NULL;
}

static const char *param_name(int i, const char *kw, char *buf, size_t n)
{
    if (kw) return kw;
    snprintf(buf, n, "argument %d", i + 1);
    return buf;
}

bool arg_tensor(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, tl_tensor **out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) return interp_error(I, a->at, TypeError, "%s() missing %s", fname, param_name(i, kw, pb, sizeof pb));
    if (!val_is_numeric(*v))
        return interp_error(I, a->at, TypeError, "%s(): %s must be a tensor or number, not a %s", fname,
                            param_name(i, kw, pb, sizeof pb), val_kind_name(*v));
    *out = val_to_tensor(*v);
    return *out || interp_error_rt(I, a->at);
}

bool arg_int(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, int64_t def, int64_t *out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && (tl_is_int((tl_dtype)v->dtype) || v->dtype == TL_BOOL)) {
        *out = tl_scalar_to_i64(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return interp_error(I, a->at, TypeError, "%s(): %s must be an integer", fname, param_name(i, kw, pb, sizeof pb));
}

bool arg_double(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, double def, double *out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && !tl_is_complex((tl_dtype)v->dtype)) {
        *out = tl_scalar_to_f64(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return interp_error(I, a->at, TypeError, "%s(): %s must be a real number", fname, param_name(i, kw, pb, sizeof pb));
}

bool arg_bool(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, bool def, bool *out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) { *out = def; return true; }
    if (v->kind == V_NUM && (v->dtype == TL_BOOL || tl_is_int((tl_dtype)v->dtype))) {
        *out = tl_scalar_is_nonzero(v->as.num.bytes, (tl_dtype)v->dtype);
        return true;
    }
    return interp_error(I, a->at, TypeError, "%s(): %s must be true or false", fname, param_name(i, kw, pb, sizeof pb));
}

bool arg_dtype(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, tl_dtype def, tl_dtype *out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) { *out = def; return true; }
    const char *name = v->kind == V_STR ? v->as.s->data : v->kind == V_BUILTIN ? v->as.bi->name : NULL;
    if (name && tl_dtype_from_name(name, out)) return true;
    if (name) return interp_error(I, a->at, ValueError, "%s(): unknown dtype \"%s\"", fname, name);
    return interp_error(I, a->at, TypeError, "%s(): %s must be a dtype name such as \"f32\"", fname, param_name(i, kw, pb, sizeof pb));
}

bool arg_string(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, const char *def, const char **out)
{
    char pb[32];
    Value *v = arg_find(a, i, kw);
    if (!v) {
        if (!def) return interp_error(I, a->at, TypeError, "%s() missing %s", fname, param_name(i, kw, pb, sizeof pb));
        *out = def;
        return true;
    }
    if (v->kind != V_STR) return interp_error(I, a->at, TypeError, "%s(): %s must be a string", fname, param_name(i, kw, pb, sizeof pb));
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

bool arg_shape_entries(Interp *I, CallArgs *a, const char *fname, int first, int *ndim, int64_t *shape)
{
    int n = a->npos - first;
    if (n == 1 && a->pos[first].kind != V_NUM) return value_to_shape(I, a->at, a->pos[first], ndim, shape);
    if (n > TL_MAXDIM) return interp_error(I, a->at, ShapeError, "%s(): too many dimensions (%d; at most %d)", fname, n, TL_MAXDIM);
    *ndim = n > 0 ? n : 0;
    for (int k = 0; k < n; k++) {
        Value x = a->pos[first + k];
        if (x.kind != V_NUM || !tl_is_int((tl_dtype)x.dtype))
            return interp_error(I, a->at, TypeError, "%s(): shape entries must be integers", fname);
        shape[k] = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
    }
    return true;
}

bool arg_shape(Interp *I, CallArgs *a, const char *fname, int first, int *ndim, int64_t *shape)
{
    if (!arg_shape_entries(I, a, fname, first, ndim, shape)) return false;
    for (int k = 0; k < *ndim; k++)
        if (shape[k] < 0) return interp_error(I, a->at, ShapeError, "%s(): negative dimensions are not allowed", fname);
    return true;
}

bool arg_axes(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, int ndim, int *naxes, int *axes, bool *all)
{
    Value *v = arg_find(a, i, kw);
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
            return interp_error(I, a->at, IndexError, "%s(): axis %lld is out of bounds for a tensor of dimension %d", fname,
                                (long long)raw[k], ndim);
        for (int j = 0; j < k; j++)
            if (axes[j] == ax) return interp_error(I, a->at, ValueError, "%s(): duplicate value in axis", fname);
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
