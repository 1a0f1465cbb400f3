/* introspect.c — what a value is: shape ndim size dtype strides item tolist info shares_memory, and dtype casts */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "utf8.h"
#include "quant.h"

static bool bi_shape(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    *out = shape_tuple(t->ndim, t->shape);
    tl_tensor_release(t);
    return out->kind == V_TUPLE || interp_error_rt(I, a->at);
}

static bool bi_strides(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    *out = shape_tuple(t->ndim, t->strides);
    tl_tensor_release(t);
    return out->kind == V_TUPLE || interp_error_rt(I, a->at);
}

/* The one argument of ndim, size, itemsize, nbytes and dtype, a number or a tensor, into *v:
   true. Otherwise false, the call finished with its result in *done: a list runs the builtin
   again on it as a tensor, anything else is a TypeError. */
static bool numeric_arg(Interp *I, CallArgs *a, Value *out, Value *v, bool *done)
{
    *v = *arg_given(a, 0);
    if (v->kind == V_LIST) *done = arg_rerun_with_tensors(I, a, 1, out);
    else if (!val_is_numeric(*v))
        *done = interp_error(I, a->at, TypeError, "%s() takes a tensor, not a %s", a->self->name, val_kind_name(*v));
    else return true;
    return false;
}

static bool bi_ndim(Interp *I, CallArgs *a, Value *out)
{
    Value v;
    bool done;
    if (!numeric_arg(I, a, out, &v, &done)) return done;
    *out = val_i64(v.kind == V_NUM ? 0 : v.as.t->ndim);
    return true;
}

static bool bi_size(Interp *I, CallArgs *a, Value *out)
{
    Value v;
    bool done;
    if (!numeric_arg(I, a, out, &v, &done)) return done;
    *out = val_i64(v.kind == V_NUM ? 1 : tl_tensor_size(v.as.t));
    return true;
}

/* itemsize(x): the bytes of one element of x's dtype (numpy's itemsize; 4 for a quantized
   tensor, whose dtype is f32: its blocks are nbytes). */
static bool bi_itemsize(Interp *I, CallArgs *a, Value *out)
{
    Value v;
    bool done;
    if (!numeric_arg(I, a, out, &v, &done)) return done;
    *out = val_i64((int64_t)tl_dtype_size(val_dtype(v)));
    return true;
}

/* nbytes(x): the bytes x's elements take as stored: size times itemsize (numpy's nbytes, a
   view's own elements only), or for a quantized tensor its share of the blocks. */
static bool bi_nbytes(Interp *I, CallArgs *a, Value *out)
{
    Value v;
    bool done;
    if (!numeric_arg(I, a, out, &v, &done)) return done;
    if (v.kind == V_NUM) {
        *out = val_i64((int64_t)tl_dtype_size(val_dtype(v)));
        return true;
    }
    tl_footprint fp;
    tl_tensor_footprint(v.as.t, &fp);
    *out = val_i64(fp.stored > INT64_MAX ? INT64_MAX : (int64_t)fp.stored);
    return true;
}

static bool bi_dtype(Interp *I, CallArgs *a, Value *out)
{
    Value v;
    bool done;
    if (!numeric_arg(I, a, out, &v, &done)) return done;
    *out = val_cstr(tl_dtype_name(val_dtype(v)));
    return true;
}

static void print_tuple(FILE *f, int n, const int64_t *v, int64_t scale)
{
    fputc('(', f);
    for (int i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)(v[i] * scale));
    fputs(n == 1 ? ",)" : ")", f);
}

/* info(a): dtype, shape, strides (elements and bytes), offset, contiguity, storage; the ggml
   type of a tensor held as blocks; bytes as stored, in a file's mapping and in memory now. */
static bool bi_info(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
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
            t->storage->kind == TL_STORAGE_EXTERNAL ? " (the embedding program's memory)"
            : t->storage->kind == TL_STORAGE_MAPPED ? " (mapped file)"
            : t->storage->kind == TL_STORAGE_LAZY ? " (computed when first touched)" : "");
    const tl_ggml_type *q = tl_tensor_qtype(t);
    if (q)
        fprintf(f, "qtype:      %s (blocks of %d elements in %d bytes: %.4g bits per weight)\n", q->name, q->block, q->bytes,
                q->bytes * 8.0 / q->block);
    tl_footprint fp;
    tl_tensor_footprint(t, &fp);
    if (t->storage->kind != TL_STORAGE_HEAP)   /* a heap tensor's bytes are all stored and resident: said above */
        fprintf(f, "bytes:      %llu stored%s, %llu mapped from a file, %llu resident now\n", (unsigned long long)fp.stored,
                q ? " (the blocks)" : "", (unsigned long long)fp.mapped, (unsigned long long)fp.resident);
    tl_tensor_release(t);
    *out = val_none();
    return true;
}

/* The element of dtype d at p as the plain number numpy's item() gives (a Python bool, int,
   float or complex): bool, i64 (u64 stays u64, to stay exact), f64 or c128, weak as a
   literal is. */
static Value plain_number(const void *p, tl_dtype d)
{
    Value v;
    switch (tl_dtype_kind(d)) {
    case TL_KIND_BOOL: v = val_bool(*(const bool *)p); break;
    case TL_KIND_INT: v = val_i64(tl_scalar_to_i64(p, d)); break;
    case TL_KIND_UINT:
        v = d == TL_U64 ? val_num(TL_U64, &(tl_scalar){ .u64 = tl_scalar_to_u64(p, d) }) : val_i64(tl_scalar_to_i64(p, d));
        break;
    case TL_KIND_COMPLEX: {
        tl_scalar c;
        tl_scalar_to_c128(p, d, c.c128);
        v = val_num(TL_C128, &c);
        break;
    }
    default: v = val_f64(tl_scalar_to_f64(p, d)); break;
    }
    v.weak = true;
    return v;
}

/* An index given to item() (an integer: numpy refuses a bool there too), into *out. */
static bool item_index(Interp *I, CallArgs *a, Value x, int64_t *out)
{
    if (x.kind != V_NUM || !tl_is_int((tl_dtype)x.dtype))
        return bi_fail(I, a, TypeError, "an index must be an integer, not a %s",
                       x.kind == V_NUM ? tl_dtype_name((tl_dtype)x.dtype) : val_kind_name(x));
    *out = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
    return true;
}

/* item(x, *index): one element of x as a plain number (numpy's item): x's only element, the
   element at a flat index (row-major, negative from the end), or at a full index (one entry
   per axis, or one tuple). Reads that element alone, also of a view or a quantized tensor. */
static bool bi_item(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    int n = a->nrest;
    const Value *given = a->rest;
    if (n == 1 && given[0].kind == V_TUPLE) n = given[0].as.tu->n, given = given[0].as.tu->items;
    int64_t size = tl_tensor_size(t), index[TL_MAXDIM] = { 0 };
    bool ok = true;
    if (n == 0) {
        if (size != 1) ok = bi_fail(I, a, ValueError, "can only convert a tensor of size 1 to a number (this one has %lld elements)", (long long)size);
    } else if (n == 1) {
        int64_t flat;
        ok = item_index(I, a, given[0], &flat);
        if (ok && (flat < -size || flat >= size))
            ok = bi_fail(I, a, IndexError, "index %lld is out of bounds for size %lld", (long long)flat, (long long)size);
        if (ok && flat < 0) flat += size;
        for (int k = t->ndim - 1; ok && k >= 0; k--) index[k] = flat % t->shape[k], flat /= t->shape[k];
    } else if (n != t->ndim) {
        ok = bi_fail(I, a, ValueError, "incorrect number of indices for tensor: %d given for %d dimensions", n, t->ndim);
    } else {
        for (int k = 0; ok && k < n; k++) {
            ok = item_index(I, a, given[k], &index[k]);
            if (ok && (index[k] < -t->shape[k] || index[k] >= t->shape[k]))
                ok = bi_fail(I, a, IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)index[k], k,
                             (long long)t->shape[k]);
            if (ok && index[k] < 0) index[k] += t->shape[k];
        }
    }
    if (ok) *out = plain_number(tl_tensor_at(t, index), t->dtype);
    tl_tensor_release(t);
    return ok;
}

/* The elements of t from axis d on, the first `at` bytes past base, as lists nested ndim - d
   deep of plain numbers (a number itself at d == ndim) into *out: false with the tl error set
   when out of memory or interrupted. (Offsets, not pointers, until an element is read: an
   empty tensor has no bytes to point into.) */
static bool nested_lists(const tl_tensor *t, int d, const char *base, int64_t at, Value *out)
{
    if (d == t->ndim) {
        *out = plain_number(base + at, t->dtype);
        return true;
    }
    if (d == t->ndim - 1 && tl_check_interrupt() < 0) return false;
    Value l = val_list_new(t->shape[d]);
    if (l.kind != V_LIST) return false;
    int64_t step = t->strides[d] * (int64_t)tl_dtype_size(t->dtype);
    for (int64_t i = 0; i < t->shape[d]; i++) {
        Value v;
        if (!nested_lists(t, d + 1, base, at + i * step, &v) || !list_append(l.as.l, v)) {
            val_release(l);
            return false;
        }
    }
    *out = l;
    return true;
}

/* tolist(x): x's elements as lists nested x.ndim deep of plain numbers, as item() gives them
   (numpy's tolist; a 0-d value gives its number). */
static bool bi_tolist(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    bool ok = nested_lists(t, 0, tl_tensor_size(t) ? tl_tensor_data(t) : NULL, 0, out);
    tl_tensor_release(t);
    return ok || interp_error_rt(I, a->at);
}

static bool bi_shares_memory(Interp *I, CallArgs *a, Value *out)
{
    (void)I;
    Value x = *arg_given(a, 0), y = *arg_given(a, 1);
    if (x.kind != V_TENSOR || y.kind != V_TENSOR) {
        *out = val_bool(false);   /* numbers are values: they never share */
        return true;
    }
    *out = val_bool(tl_shares_memory(x.as.t, y.as.t));
    return true;
}

/* The bytes [*from, *to) of s without the whitespace around them: what str.isspace() calls
   space (Unicode's too: U+3000, U+00A0), as Python's int() and float() strip it. */
static void trim_spaces(const Str *s, size_t *from, size_t *to)
{
    size_t i = 0, end = 0;
    bool seen = false;   /* a character other than space */
    *from = 0;
    while (i < s->len) {
        uint32_t cp;
        size_t k = tl_utf8_next(s->data + i, s->len - i, &cp);
        bool space = cp != TL_UTF8_BAD && str_is_space(cp);
        if (!space && !seen) *from = i, seen = true;
        i += k;
        if (!space) end = i;
    }
    *to = seen ? end : 0;
}


/* A ValueError naming the string s (as its repr, as Python's int() does) and why. */
static bool bad_number(Interp *I, CallArgs *a, const Str *s, const char *why)
{
    StrBuf b = { 0 };
    bool ok = str_write_repr(s->data, s->len < 100 ? s->len : 100, sb_write, &b) == 0 && sb_append(&b, "", 1);
    bool r = bi_fail(I, a, ValueError, "%s%s %s", ok ? b.data : "the string", s->len > 100 ? "..." : "", why);
    sb_free(&b);
    return r;
}

/* The number a string spells, as i64 (integer and bool targets: decimal digits with an
   optional sign) or f64 (float and complex targets: what strtod reads, inf and nan too);
   spaces around it are allowed, as Python's int() and float() allow them. */
static bool parse_number(Interp *I, CallArgs *a, tl_dtype to, Value *num)
{
    const Str *s = arg_given(a, 0)->as.s;
    char buf[128], *end;
    size_t from, to_byte;
    trim_spaces(s, &from, &to_byte);
    size_t len = to_byte - from;
    if (len >= sizeof buf || memchr(s->data, '\0', s->len))
        return bi_fail(I, a, ValueError, "cannot parse a number from a string of %zu bytes", s->len);
    memcpy(buf, s->data + from, len);
    buf[len] = '\0';
    errno = 0;
    bool integer = tl_is_intlike(to);
    long long i = 0;
    double d = 0;
    if (integer) i = strtoll(buf, &end, 10);
    else d = strtod(buf, &end);
    /* strtoll and strtod skip leading ASCII spaces themselves: trimmed already, any left are inside */
    if (end == buf || *end || isspace((unsigned char)buf[0]) || (integer && !isdigit((unsigned char)end[-1])))
        return bad_number(I, a, s, integer ? "is not an integer" : "is not a number");
    if (integer && errno == ERANGE) return bad_number(I, a, s, "does not fit i64");
    *num = integer ? val_i64(i) : val_f64(d);
    return true;
}

/* f32(x), i64(x), ...: a cast to the dtype named by the builtin's tag (a strong value);
   a string argument is parsed first (i64("42"), f32("1.5")). */
static bool bi_cast(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (arg_given(a, 0)->kind == V_STR) {
        Value num;
        if (!parse_number(I, a, (tl_dtype)a->self->tag, &num)) return false;
        if (!(t = val_to_tensor(num))) return interp_error_rt(I, a->at);
    } else if (!arg_tensor(I, a, 0, &t))
        return false;
    tl_tensor *r = tl_cast_to(t, (tl_dtype)a->self->tag, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_astype(Interp *I, CallArgs *a, Value *out)
{
    tl_dtype d;
    tl_tensor *t;
    if (!arg_dtype(I, a, 1, TL_NDTYPES, &d)) return false;
    if (d == TL_NDTYPES) return interp_error(I, a->at, TypeError, "%s() missing argument 'dtype'", a->self->name);
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_cast_to(t, d, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* fill(a, v): writes v (cast to a's dtype, as a[...] = v) into every element of a, through views; none. */
static bool bi_fill(Interp *I, CallArgs *a, Value *out)
{
    Value x = *arg_given(a, 0);
    if (x.kind != V_TENSOR)
        return bi_fail(I, a, TypeError, "a must be a tensor of at least 1 dimension, not a %s (numbers are values)", val_kind_name(x));
    tl_tensor *v;
    if (!arg_tensor(I, a, 1, &v)) return false;
    if (v->ndim != 0) {
        tl_tensor_release(v);
        return bi_fail(I, a, ValueError, "v must be a single number, not a tensor of shape %s",
                       tl_shape_str(v->ndim, v->shape, (char[256]){ 0 }, 256));
    }
    tl_index_item all = { .kind = TL_IDX_ELLIPSIS };
    int rc = tl_index_set(x.as.t, 1, &all, v);
    tl_tensor_release(v);
    if (rc < 0) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

static bool bi_bitcast(Interp *I, CallArgs *a, Value *out)
{
    tl_dtype d;
    tl_tensor *t;
    if (!arg_dtype(I, a, 1, TL_NDTYPES, &d)) return false;
    if (d == TL_NDTYPES) return interp_error(I, a->at, TypeError, "%s() missing argument 'dtype'", a->self->name);
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_view_bitcast(t, d);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* One row per dtype of the master list: f32(x) and the rest. */
#define CAST_ROW(arg, ENUM, S, NAME, ...) \
    { NAME, bi_cast, NAME "(x)", "casts to " NAME " (a copy; floats round to nearest even, ints wrap)", ENUM, BF_CAST, BT_INTO },

const Builtin bi_introspect_table[] = {
    { "shape", bi_shape, "shape(x)", "the shape as a tuple", 0, BF_OTHER, BT_STATIC },
    { "ndim", bi_ndim, "ndim(x)", "the number of axes", 0, BF_OTHER, BT_STATIC },
    { "size", bi_size, "size(x)", "the number of elements", 0, BF_OTHER, BT_STATIC },
    { "dtype", bi_dtype, "dtype(x)", "the dtype's name, such as \"f32\"", 0, BF_OTHER, BT_STATIC },
    { "itemsize", bi_itemsize, "itemsize(x)", "the bytes of one element of x's dtype", 0, BF_OTHER, BT_STATIC },
    { "nbytes", bi_nbytes, "nbytes(x)", "the bytes x's elements take as stored (a quantized tensor: its share of the blocks)", 0,
      BF_OTHER, BT_STATIC },
    { "item", bi_item, "item(x, *index)", "one element as a plain number (bool, int, float, complex): x's only one, or at a flat or full index", 0,
      BF_OTHER, BT_NO },
    { "tolist", bi_tolist, "tolist(x)", "the elements as nested lists of plain numbers (bool, int, float, complex), as item() gives them", 0,
      BF_OTHER, BT_NO },
    { "strides", bi_strides, "strides(x)", "strides in elements, as a tuple", 0, BF_OTHER, BT_NO },
    { "info", bi_info, "info(x)", "prints dtype, shape, strides, offset, contiguity and storage", 0, BF_OTHER, BT_NO },
    { "shares_memory", bi_shares_memory, "shares_memory(a, b)", "true when some element of a and of b occupy the same bytes", 0, BF_OTHER, BT_NO },
    { "astype", bi_astype, "astype(x, dtype)", "a copy cast to dtype (a name such as \"f16\")", 0, BF_ELEMENTWISE, BT_INTO },
    { "bitcast", bi_bitcast, "bitcast(x, dtype)", "reinterprets the bytes as dtype without copying (to or from bool: a copy, nonzero bytes true)", 0, BF_OTHER, BT_NO },
    { "fill", bi_fill, "fill(a, v)", "writes the number v into every element of a, in place (cast as a[...] = v)", 0, BF_OTHER, BT_NO },
    TL_DTYPE_LIST(CAST_ROW, )
    { 0 },
};
