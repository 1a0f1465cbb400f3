/* make.c — builtins that make new tensors: zeros ones full empty arange linspace eye, and random ones */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* Shared body of zeros/ones/empty/rand/randn(*shape, dtype=...): a shape (either form) and dtype=. */
static bool shape_and_dtype(Interp *I, CallArgs *a, tl_dtype def, int *nd, int64_t *shape, tl_dtype *dt)
{
    return arg_dtype(I, a, 1, def, dt) && arg_shape(I, a, nd, shape);
}

/* A tensor of the given shape filled with the double v converted to dt. */
static tl_tensor *filled(tl_dtype dt, int nd, const int64_t *shape, double v)
{
    tl_scalar s;
    tl_scalar_convert(&s, dt, &v, TL_F64);
    return tl_full(dt, nd, shape, &s);
}

/* zeros, ones and empty: a shape and a dtype, filled as the row's tag says. */
enum { SHAPED_ZEROS, SHAPED_ONES, SHAPED_EMPTY };
static bool bi_shaped(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_dtype dt;
    if (!shape_and_dtype(I, a, TL_F64, &nd, shape, &dt)) return false;
    tl_tensor *t = a->self->tag == SHAPED_ZEROS ? tl_tensor_zeros(dt, nd, shape)
                 : a->self->tag == SHAPED_ONES ? filled(dt, nd, shape, 1.0)
                 : tl_tensor_empty(dt, nd, shape);
    return ret_tensor(I, a, t, out);
}

/* full(shape, value, dtype=none): the dtype defaults to the value's, as numpy's np.array(value).dtype;
   a tensor value broadcasts to the shape. */
static bool bi_full(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_dtype dt;
    tl_tensor *v;
    if (!value_to_shape(I, a->at, *arg_given(a, 0), &nd, shape)) return false;
    for (int k = 0; k < nd; k++)
        if (shape[k] < 0) return bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
    if (!arg_tensor(I, a, 1, &v)) return false;
    if (!arg_dtype(I, a, 2, v->dtype, &dt)) {
        tl_tensor_release(v);
        return false;
    }
    tl_tensor *r = tl_tensor_empty(dt, nd, shape);
    if (r && tl_assign(r, v) < 0) {
        tl_tensor_release(r);
        r = NULL;
    }
    tl_tensor_release(v);
    return ret_tensor(I, a, r, out);
}

/* Reads real number parameter i for arange/linspace; notes whether it is a float. */
static bool real_arg(Interp *I, CallArgs *a, int i, double def, double *x, bool *is_float)
{
    Value *v = arg_at(a, i);
    if (v && v->kind == V_NUM && tl_is_complex((tl_dtype)v->dtype)) return bi_fail(I, a, TypeError, "complex arguments are not supported");
    if (v && v->kind == V_NUM && tl_is_float((tl_dtype)v->dtype)) *is_float = true;
    return arg_double(I, a, i, def, x);
}

/* Whether one of parameters 0..n-1 is a u64 beyond i64's range (arange then computes in doubles). */
static bool beyond_i64(CallArgs *a, int n)
{
    for (int i = 0; i < n; i++) {
        const Value *v = arg_at(a, i);
        if (v && v->kind == V_NUM && v->dtype == TL_U64 && tl_scalar_to_u64(v->as.num.bytes, TL_U64) > INT64_MAX) return true;
    }
    return false;
}

/* arange([start,] stop, step=1, *, dtype=none): i64 for integer arguments, else f64, as numpy. */
static bool bi_arange(Interp *I, CallArgs *a, Value *out)
{
    double start, stop, step;
    bool fl = false;
    tl_dtype dt;
    if (!real_arg(I, a, 0, 0, &start, &fl) || !real_arg(I, a, 1, 0, &stop, &fl) || !real_arg(I, a, 2, 1, &step, &fl) ||
        !arg_dtype(I, a, 3, fl ? TL_F64 : TL_I64, &dt))
        return false;
    if (step == 0) return bi_fail(I, a, ValueError, "step must not be zero");
    if (!fl && !beyond_i64(a, 3)) {   /* integers: read again exactly, as doubles lose what lies beyond 2**53 */
        int64_t v[3];
        if (!arg_int(I, a, 0, 0, &v[0]) || !arg_int(I, a, 1, 0, &v[1]) || !arg_int(I, a, 2, 1, &v[2])) return false;
        return ret_tensor(I, a, tl_arange_int(v[0], v[1], v[2], dt), out);
    }
    return ret_tensor(I, a, tl_arange(start, stop, step, dt), out);
}

static bool bi_linspace(Interp *I, CallArgs *a, Value *out)
{
    double start, stop;
    int64_t num;
    bool endpoint, fl = false;
    tl_dtype dt;
    if (!real_arg(I, a, 0, 0, &start, &fl) || !real_arg(I, a, 1, 0, &stop, &fl) || !arg_int(I, a, 2, 50, &num) ||
        !arg_bool(I, a, 3, true, &endpoint) || !arg_dtype(I, a, 4, TL_F64, &dt))
        return false;
    return ret_tensor(I, a, tl_linspace(start, stop, num, endpoint, dt), out);
}

static bool bi_eye(Interp *I, CallArgs *a, Value *out)
{
    int64_t n, m, k;
    tl_dtype dt;
    if (!arg_int(I, a, 0, 0, &n) || !arg_int(I, a, 1, n, &m) || !arg_int(I, a, 2, 0, &k) || !arg_dtype(I, a, 3, TL_F64, &dt))
        return false;
    return ret_tensor(I, a, tl_eye(n, m, k, dt), out);
}

/* A value as a tensor the way numpy's np.array reads it: a number, a tensor, or a (nested) tuple of
   them stacked along a new first axis with promotion (an empty tuple is an empty f64 vector). */
static tl_tensor *value_as_tensor(Interp *I, Span at, const char *fname, Value v, int depth)
{
    if (val_is_tensorlike(v)) {   /* a list: as np.asarray reads it */
        tl_tensor *t = val_to_tensor(v);
        if (!t) interp_error_rt(I, at);
        return t;
    }
    if (v.kind != V_TUPLE) {
        interp_error(I, at, TypeError, "%s(): expected a tensor, a number, or a list or tuple of them, not a %s", fname, val_kind_name(v));
        return NULL;
    }
    int n = v.as.tu->n;
    if (n == 0) return tl_tensor_zeros(TL_F64, 1, (int64_t[]){ 0 });
    if (depth >= TL_MAXDIM) {
        interp_error(I, at, ShapeError, "%s(): too many dimensions (at most %d)", fname, TL_MAXDIM);
        return NULL;
    }
    tl_tensor **parts = calloc((size_t)n, sizeof *parts);
    if (!parts) {
        interp_error(I, at, MemoryError, "out of memory");
        return NULL;
    }
    tl_tensor *r = NULL;
    int got = 0;
    for (; got < n; got++)
        if (!(parts[got] = value_as_tensor(I, at, fname, v.as.tu->items[got], depth + 1))) break;
    if (got == n) {
        r = tl_stack(n, parts, 0);
        if (!r && tl_errkind_last() == TL_E_ShapeError)   /* numpy's words for a ragged nesting */
            tl_seterr(ValueError, "%s(): setting an element with a sequence: the items have different shapes", fname);
        if (!r) interp_error_rt(I, at);
    }
    for (int k = 0; k < got; k++) tl_tensor_release(parts[k]);
    free(parts);
    return r;
}

/* array(x, dtype=none) always copies; asarray(x, dtype=none) gives x itself when its dtype already fits. */
enum { ARRAY_COPY, ARRAY_AS };
static bool bi_array(Interp *I, CallArgs *a, Value *out)
{
    Value x = *arg_given(a, 0);
    tl_tensor *t = value_as_tensor(I, a->at, a->self->name, x, 0);
    if (!t) return false;
    tl_dtype dt;
    if (!arg_dtype(I, a, 1, t->dtype, &dt)) {
        tl_tensor_release(t);
        return false;
    }
    /* a tensor built from a tuple is already new, so array() need not copy it again */
    bool fresh = x.kind != V_TENSOR;
    tl_tensor *r = dt != t->dtype ? tl_cast(t, dt) : a->self->tag == ARRAY_AS || fresh ? (tl_tensor_retain(t), t) : tl_copy(t);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* zeros_like/ones_like/empty_like(a, dtype=none, shape=none) and full_like(a, fill_value, dtype=none,
   shape=none): a new C-contiguous tensor with a's dtype and shape unless given. */
enum { LIKE_ZEROS, LIKE_ONES, LIKE_EMPTY, LIKE_FULL };
static bool bi_like(Interp *I, CallArgs *a, Value *out)
{
    int tag = a->self->tag, first = tag == LIKE_FULL ? 2 : 1, nd;   /* the parameters after a (and fill_value) */
    int64_t shape[TL_MAXDIM];
    tl_tensor *t, *fill = NULL;
    tl_dtype dt;
    if (!arg_tensor(I, a, 0, &t)) return false;
    nd = t->ndim;
    memcpy(shape, t->shape, sizeof shape[0] * (size_t)nd);
    Value *sv = arg_at(a, first + 1);
    bool ok = arg_dtype(I, a, first, t->dtype, &dt) && (!sv || value_to_shape(I, a->at, *sv, &nd, shape)) &&
              (tag != LIKE_FULL || arg_tensor(I, a, 1, &fill));
    tl_tensor_release(t);
    for (int k = 0; ok && k < nd; k++)
        if (shape[k] < 0) ok = bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
    tl_tensor *r = NULL;
    if (ok) {
        r = tag == LIKE_ZEROS ? tl_tensor_zeros(dt, nd, shape) : tag == LIKE_ONES ? filled(dt, nd, shape, 1.0)
                                                                                : tl_tensor_empty(dt, nd, shape);
        /* full_like casts the value as numpy's copyto(casting="unsafe"), so full_like(ints, 2.7) holds 2 */
        if (r && fill && tl_tensor_size(r) > 0) {
            tl_tensor *real = tl_is_complex(fill->dtype) && !tl_is_complex(dt) ? tl_view_real(fill) : (tl_tensor_retain(fill), fill);
            if (!real || tl_assign(r, real) < 0) {
                tl_tensor_release(r);
                r = NULL;
            }
            if (real) tl_tensor_release(real);
        }
    }
    if (fill) tl_tensor_release(fill);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* logspace(start, stop, num=50, endpoint=true, base=10.0, dtype=none): base ** linspace(start, stop),
   computed in f64 and then cast, as numpy. */
static bool bi_logspace(Interp *I, CallArgs *a, Value *out)
{
    double start, stop, base;
    int64_t num;
    bool endpoint, fl = false;
    tl_dtype dt;
    if (!real_arg(I, a, 0, 0, &start, &fl) || !real_arg(I, a, 1, 0, &stop, &fl) || !arg_int(I, a, 2, 50, &num) ||
        !arg_bool(I, a, 3, true, &endpoint) || !real_arg(I, a, 4, 10.0, &base, &fl) || !arg_dtype(I, a, 5, TL_F64, &dt))
        return false;
    tl_tensor *y = tl_linspace(start, stop, num, endpoint, TL_F64);
    tl_tensor *b = y ? tl_tensor_scalar(TL_F64, &base) : NULL;
    tl_tensor *p = b ? tl_binary(TL_POW, b, y, TL_F64) : NULL;
    tl_tensor *r = p ? tl_as_dtype(p, dt) : NULL;
    if (p) tl_tensor_release(p);
    if (b) tl_tensor_release(b);
    if (y) tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* identity(n, dtype="f64"): the n x n identity. */
static bool bi_identity(Interp *I, CallArgs *a, Value *out)
{
    int64_t n;
    tl_dtype dt;
    if (!arg_int(I, a, 0, 0, &n) || !arg_dtype(I, a, 1, TL_F64, &dt)) return false;
    return ret_tensor(I, a, tl_eye(n, n, 0, dt), out);
}

/* meshgrid(*xs, indexing="xy", sparse=false, copy=true): a tuple of coordinate tensors, each x flattened;
   "xy" swaps the first two output axes (Cartesian), "ij" does not (matrix). copy=false gives read-only
   broadcast views; sparse=true the reshaped inputs themselves (views), as numpy. */
static bool bi_meshgrid(Interp *I, CallArgs *a, Value *out)
{
    const char *indexing;
    bool sparse, copy;
    int n = a->nrest;
    if (!arg_string(I, a, 1, "xy", &indexing) || !arg_bool(I, a, 2, false, &sparse) || !arg_bool(I, a, 3, true, &copy)) return false;
    bool xy = strcmp(indexing, "xy") == 0;
    if (!xy && strcmp(indexing, "ij") != 0) return bi_fail(I, a, ValueError, "indexing must be \"xy\" or \"ij\", not \"%s\"", indexing);
    if (n > TL_MAXDIM) return bi_fail(I, a, ShapeError, "too many inputs (%d; at most %d)", n, TL_MAXDIM);
    tl_tensor *ts[TL_MAXDIM] = { 0 };
    int64_t full[TL_MAXDIM];
    for (int i = 0; i < n; i++) {
        tl_tensor *t;
        if (!val_is_tensorlike(a->rest[i]) || !(t = val_to_tensor(a->rest[i]))) {
            for (int k = 0; k < i; k++) tl_tensor_release(ts[k]);
            if (val_is_tensorlike(a->rest[i])) return interp_error_rt(I, a->at);
            return bi_fail(I, a, TypeError, "xs must be tensors or numbers, not a %s", val_kind_name(a->rest[i]));
        }
        /* input i varies along output axis i, except that "xy" swaps the first two */
        int axis = xy && n >= 2 && i < 2 ? 1 - i : i;
        int64_t shape[TL_MAXDIM];
        for (int k = 0; k < n; k++) shape[k] = 1;
        shape[axis] = tl_tensor_size(t);
        full[axis] = shape[axis];
        ts[i] = tl_reshape(t, n, shape);
        tl_tensor_release(t);
        if (!ts[i]) {
            for (int k = 0; k < i; k++) tl_tensor_release(ts[k]);
            return interp_error_rt(I, a->at);
        }
    }
    for (int i = 0; i < n && !sparse; i++) {
        tl_tensor *b = tl_view_broadcast_to(ts[i], n, full);
        tl_tensor *r = b && copy ? tl_copy(b) : b;
        if (b && copy) tl_tensor_release(b);
        tl_tensor_release(ts[i]);
        ts[i] = r;
    }
    if (sparse && copy)
        for (int i = 0; i < n; i++) {
            tl_tensor *r = ts[i] ? tl_copy(ts[i]) : NULL;
            if (ts[i]) tl_tensor_release(ts[i]);
            ts[i] = r;
        }
    return ret_tuple(I, a, n, ts, out);
}

/* rand/randn: floats only (the tag says which); uniform in [0, 1) or standard normal. */
enum { RANDOM_UNIFORM, RANDOM_NORMAL };

static bool bi_random_float(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_dtype dt;
    if (!shape_and_dtype(I, a, TL_F64, &nd, shape, &dt)) return false;
    if (!tl_is_float(dt)) return bi_fail(I, a, TypeError, "dtype must be a float dtype, not %s", tl_dtype_name(dt));
    return ret_tensor(I, a, a->self->tag == RANDOM_NORMAL ? tl_randn(dt, nd, shape) : tl_rand(dt, nd, shape), out);
}

/* randint(low, high=none, size=none, dtype="i64"): integers in [low, high), or [0, low) without high. */
static bool bi_randint(Interp *I, CallArgs *a, Value *out)
{
    int64_t lo, hi, shape[TL_MAXDIM];
    int nd = 0;
    tl_dtype dt;
    if (!arg_int(I, a, 0, 0, &lo) || !arg_dtype(I, a, 3, TL_I64, &dt)) return false;
    if (arg_at(a, 1)) {
        if (!arg_int(I, a, 1, 0, &hi)) return false;
    } else {
        hi = lo;
        lo = 0;
    }
    Value *size = arg_at(a, 2);
    if (size && !value_to_shape(I, a->at, *size, &nd, shape)) return false;
    for (int k = 0; k < nd; k++)
        if (shape[k] < 0) return bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
    if (!tl_is_int(dt)) return bi_fail(I, a, TypeError, "dtype must be an integer dtype, not %s", tl_dtype_name(dt));
    if (lo >= hi) return bi_fail(I, a, ValueError, "low >= high (%lld >= %lld)", (long long)lo, (long long)hi);
    return ret_tensor(I, a, tl_randint(lo, hi, dt, nd, shape), out);
}

static bool bi_seed(Interp *I, CallArgs *a, Value *out)
{
    int64_t s;
    if (!arg_int(I, a, 0, 0, &s)) return false;
    tl_seed((uint64_t)s);
    *out = val_none();
    return true;
}

const Builtin bi_make_table[] = {
    { "zeros", bi_shaped, "zeros(*shape, dtype=\"f64\")", "a tensor of zeros; zeros(2, 3) or zeros((2, 3))", SHAPED_ZEROS, BF_OTHER, BT_NO },
    { "ones", bi_shaped, "ones(*shape, dtype=\"f64\")", "a tensor of ones", SHAPED_ONES, BF_OTHER, BT_NO },
    { "empty", bi_shaped, "empty(*shape, dtype=\"f64\")", "an uninitialized tensor", SHAPED_EMPTY, BF_OTHER, BT_NO },
    { "full", bi_full, "full(shape, value, *, dtype=none)", "a tensor filled with value (dtype defaults to value's)", 0, BF_OTHER, BT_NO },
    { "arange", bi_arange, "arange([start,] stop, step=1, *, dtype=none)",
      "evenly spaced values in [start, stop); i64 for integer arguments, else f64", 0, BF_OTHER, BT_NO },
    { "linspace", bi_linspace, "linspace(start, stop, num=50, *, endpoint=true, dtype=\"f64\")",
      "num evenly spaced values from start to stop", 0, BF_OTHER, BT_NO },
    { "eye", bi_eye, "eye(n, m=n, k=0, *, dtype=\"f64\")", "an n x m tensor with ones on diagonal k", 0, BF_OTHER, BT_NO },
    { "array", bi_array, "array(x, dtype=none)", "a new tensor (always a copy) from a tensor, a number or nested tuples", ARRAY_COPY, BF_OTHER, BT_NO },
    { "asarray", bi_array, "asarray(x, dtype=none)", "x itself when it is a tensor of that dtype, else a new tensor", ARRAY_AS, BF_OTHER, BT_NO },
    { "zeros_like", bi_like, "zeros_like(a, dtype=none, shape=none)", "zeros with a's dtype and shape (unless given)", LIKE_ZEROS, BF_OTHER, BT_NO },
    { "ones_like", bi_like, "ones_like(a, dtype=none, shape=none)", "ones with a's dtype and shape (unless given)", LIKE_ONES, BF_OTHER, BT_NO },
    { "empty_like", bi_like, "empty_like(a, dtype=none, shape=none)", "an uninitialized tensor with a's dtype and shape", LIKE_EMPTY, BF_OTHER, BT_NO },
    { "full_like", bi_like, "full_like(a, fill_value, dtype=none, shape=none)",
      "fill_value (cast to the dtype) with a's dtype and shape (unless given)", LIKE_FULL, BF_OTHER, BT_NO },
    { "logspace", bi_logspace, "logspace(start, stop, num=50, endpoint=true, base=10.0, dtype=\"f64\")",
      "base ** linspace(start, stop, num): numbers spaced evenly on a log scale", 0, BF_OTHER, BT_NO },
    { "identity", bi_identity, "identity(n, dtype=\"f64\")", "the n x n identity matrix", 0, BF_OTHER, BT_NO },
    { "meshgrid", bi_meshgrid, "meshgrid(*xs, indexing=\"xy\", sparse=false, copy=true)",
      "a tuple of coordinate grids from 1-d coordinates (\"xy\": Cartesian, \"ij\": matrix indexing)", 0, BF_OTHER, BT_NO },
    { "rand", bi_random_float, "rand(*shape, dtype=\"f64\")", "uniform random numbers in [0, 1)", RANDOM_UNIFORM, BF_OTHER, BT_NO },
    { "randn", bi_random_float, "randn(*shape, dtype=\"f64\")", "standard normal random numbers", RANDOM_NORMAL, BF_OTHER, BT_NO },
    { "randint", bi_randint, "randint(low, high=none, size=none, *, dtype=\"i64\")",
      "random integers in [low, high) (or [0, low))", 0, BF_OTHER, BT_NO },
    { "seed", bi_seed, "seed(n)", "seeds the random generator (results do not depend on thread count)", 0, BF_OTHER, BT_NO },
    { 0 },
};
