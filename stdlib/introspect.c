/* introspect.c — what a value is: shape ndim size dtype strides info shares_memory, and dtype casts */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* Applies to any numeric value; 0-d numbers have shape (). */
static bool numeric_arg(Interp *I, CallArgs *a, const char *fname, tl_tensor **t)
{
    if (!args_check(I, a, fname, 1, 1, NULL)) return false;
    return arg_tensor(I, a, fname, 0, NULL, t);
}

static bool bi_shape(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!numeric_arg(I, a, "shape", &t)) return false;
    *out = shape_tuple(t->ndim, t->shape);
    tl_tensor_release(t);
    return out->kind == V_TUPLE || interp_error_rt(I, a->at);
}

static bool bi_strides(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!numeric_arg(I, a, "strides", &t)) return false;
    *out = shape_tuple(t->ndim, t->strides);
    tl_tensor_release(t);
    return out->kind == V_TUPLE || interp_error_rt(I, a->at);
}

static bool bi_ndim(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "ndim", 1, 1, NULL)) return false;
    Value v = a->pos[0];
    if (!val_is_numeric(v)) return interp_error(I, a->at, TypeError, "ndim() takes a tensor, not a %s", val_kind_name(v));
    *out = val_i64(v.kind == V_NUM ? 0 : v.as.t->ndim);
    return true;
}

static bool bi_size(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "size", 1, 1, NULL)) return false;
    Value v = a->pos[0];
    if (!val_is_numeric(v)) return interp_error(I, a->at, TypeError, "size() takes a tensor, not a %s", val_kind_name(v));
    *out = val_i64(v.kind == V_NUM ? 1 : tl_tensor_size(v.as.t));
    return true;
}

static bool bi_dtype(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "dtype", 1, 1, NULL)) return false;
    Value v = a->pos[0];
    if (!val_is_numeric(v)) return interp_error(I, a->at, TypeError, "dtype() takes a tensor, not a %s", val_kind_name(v));
    *out = val_cstr(tl_dtype_name(val_dtype(v)));
    return true;
}

static void print_tuple(FILE *f, int n, const int64_t *v, int64_t scale)
{
    fputc('(', f);
    for (int i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)(v[i] * scale));
    fputs(n == 1 ? ",)" : ")", f);
}

/* info(a): dtype, shape, strides (elements and bytes), offset, contiguity, storage. */
static bool bi_info(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!numeric_arg(I, a, "info", &t)) return false;
    FILE *f = interp_out(I);
    int64_t isz = (int64_t)tl_dtype_size(t->dtype);
    fprintf(f, "dtype:      %s (%lld bytes per element)\n", tl_dtype_name(t->dtype), (long long)isz);
    fprintf(f, "shape:      ");
    print_tuple(f, t->ndim, t->shape, 1);
    fprintf(f, "\nstrides:    ");
    print_tuple(f, t->ndim, t->strides, 1);
    fprintf(f, " elements, ");
    print_tuple(f, t->ndim, t->strides, isz);
    fprintf(f, " bytes\noffset:     %lld elements (%lld bytes)\n", (long long)t->offset, (long long)(t->offset * isz));
    fprintf(f, "contiguous: %s%s\n", tl_is_contiguous(t) ? "true" : "false", t->readonly ? " (read-only view)" : "");
    char sname[80];
    fprintf(f, "storage:    %s, %zu bytes%s\n", tl_storage_name(t->storage, sname, sizeof sname), t->storage->nbytes,
            t->storage->kind != TL_STORAGE_HEAP ? " (mapped file)" : "");
    tl_tensor_release(t);
    *out = val_none();
    return true;
}

static bool bi_shares_memory(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "shares_memory", 2, 2, NULL)) return false;
    if (a->pos[0].kind != V_TENSOR || a->pos[1].kind != V_TENSOR) {
        *out = val_bool(false);   /* numbers are values: they never share */
        return true;
    }
    *out = val_bool(tl_shares_memory(a->pos[0].as.t, a->pos[1].as.t));
    return true;
}

/* The number a string spells, as i64 (integer and bool targets: decimal digits with an
   optional sign) or f64 (float and complex targets: what strtod reads, inf and nan too);
   spaces around it are allowed, as Python's int() and float() allow them. */
static bool parse_number(Interp *I, CallArgs *a, tl_dtype to, Value *num)
{
    const Str *s = a->pos[0].as.s;
    char buf[128], *end;
    if (s->len >= sizeof buf || memchr(s->data, '\0', s->len))
        return interp_error(I, a->at, ValueError, "%s(): cannot parse a number from a string of %zu bytes", a->self->name, s->len);
    memcpy(buf, s->data, s->len);
    buf[s->len] = '\0';
    errno = 0;
    bool integer = tl_is_intlike(to);
    long long i = 0;
    double d = 0;
    if (integer) i = strtoll(buf, &end, 10);
    else d = strtod(buf, &end);
    bool spaces_only = end != buf && strspn(end, " \t\n\r") == strlen(end);
    if (!spaces_only || (integer && !isdigit((unsigned char)end[-1])))
        return interp_error(I, a->at, ValueError, "%s(): '%s' is not %s", a->self->name, buf, integer ? "an integer" : "a number");
    if (integer && errno == ERANGE) return interp_error(I, a->at, ValueError, "%s(): '%s' does not fit i64", a->self->name, buf);
    *num = integer ? val_i64(i) : val_f64(d);
    return true;
}

/* f32(x), i64(x), ...: a cast to the dtype named by the builtin's tag (a strong value);
   a string argument is parsed first (i64("42"), f32("1.5")). */
static bool bi_cast(Interp *I, CallArgs *a, Value *out)
{
    const char *name = a->self->name;
    tl_tensor *t;
    if (a->npos == 1 && a->nkw == 0 && a->pos[0].kind == V_STR) {
        Value num;
        if (!parse_number(I, a, (tl_dtype)a->self->tag, &num)) return false;
        if (!(t = val_to_tensor(num))) return interp_error_rt(I, a->at);
    } else if (!numeric_arg(I, a, name, &t))
        return false;
    tl_tensor *r = tl_cast_to(t, (tl_dtype)a->self->tag, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_astype(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "dtype", NULL };
    tl_dtype d;
    tl_tensor *t;
    if (!args_check(I, a, "astype", 1, 2, kws) || !arg_dtype(I, a, "astype", 1, "dtype", TL_NDTYPES, &d)) return false;
    if (d == TL_NDTYPES) return interp_error(I, a->at, TypeError, "astype() missing dtype");
    if (!arg_tensor(I, a, "astype", 0, NULL, &t)) return false;
    tl_tensor *r = tl_cast_to(t, d, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* fill(a, v): writes v (cast to a's dtype, as a[...] = v) into every element of a, through views; none. */
static bool bi_fill(Interp *I, CallArgs *a, Value *out)
{
    if (!args_check(I, a, "fill", 2, 2, NULL)) return false;
    if (a->pos[0].kind != V_TENSOR)
        return interp_error(I, a->at, TypeError, "fill(): a must be a tensor of at least 1 dimension, not a %s (numbers are values)",
                            val_kind_name(a->pos[0]));
    tl_tensor *v;
    if (!arg_tensor(I, a, "fill", 1, NULL, &v)) return false;
    if (v->ndim != 0) {
        tl_tensor_release(v);
        return interp_error(I, a->at, ValueError, "fill(): v must be a single number, not a tensor of shape %s",
                            tl_shape_str(v->ndim, v->shape, (char[256]){ 0 }, 256));
    }
    tl_index_item all = { .kind = TL_IDX_ELLIPSIS };
    int rc = tl_index_set(a->pos[0].as.t, 1, &all, v);
    tl_tensor_release(v);
    if (rc < 0) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

static bool bi_bitcast(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "dtype", NULL };
    tl_dtype d;
    tl_tensor *t;
    if (!args_check(I, a, "bitcast", 1, 2, kws) || !arg_dtype(I, a, "bitcast", 1, "dtype", TL_NDTYPES, &d)) return false;
    if (d == TL_NDTYPES) return interp_error(I, a->at, TypeError, "bitcast() missing dtype");
    if (!arg_tensor(I, a, "bitcast", 0, NULL, &t)) return false;
    tl_tensor *r = tl_view_bitcast(t, d);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* One row per dtype of the master list: f32(x) and the rest. */
#define CAST_ROW(arg, ENUM, S, NAME, ...) \
    { NAME, bi_cast, NAME "(x)", "casts to " NAME " (a copy; floats round to nearest even, ints wrap)", ENUM },

const Builtin bi_introspect_table[] = {
    { "shape", bi_shape, "shape(x)", "the shape as a tuple", 0 },
    { "ndim", bi_ndim, "ndim(x)", "the number of axes", 0 },
    { "size", bi_size, "size(x)", "the number of elements", 0 },
    { "dtype", bi_dtype, "dtype(x)", "the dtype's name, such as \"f32\"", 0 },
    { "strides", bi_strides, "strides(x)", "strides in elements, as a tuple", 0 },
    { "info", bi_info, "info(x)", "prints dtype, shape, strides, offset, contiguity and storage", 0 },
    { "shares_memory", bi_shares_memory, "shares_memory(a, b)", "true when some element of a and of b occupy the same bytes", 0 },
    { "astype", bi_astype, "astype(x, dtype)", "a copy cast to dtype (a name such as \"f16\")", 0 },
    { "bitcast", bi_bitcast, "bitcast(x, dtype)", "reinterprets the bytes as dtype without copying (to or from bool: a copy, nonzero bytes true)", 0 },
    { "fill", bi_fill, "fill(a, v)", "writes the number v into every element of a, in place (cast as a[...] = v)", 0 },
    TL_DTYPE_LIST(CAST_ROW, )
    { NULL, NULL, NULL, NULL, 0 },
};
