/* make.c — builtins that make new tensors: zeros ones full empty arange linspace eye, and random ones */
#include <math.h>
#include <string.h>

#include "builtins.h"

static const char *const dtype_kw[] = { "dtype", NULL };

/* Shared body of zeros/ones/empty/rand/randn: a shape (either form) and dtype=. */
static bool shape_and_dtype(Interp *I, CallArgs *a, const char *fname, tl_dtype def, int *nd, int64_t *shape,
                            tl_dtype *dt)
{
    return args_check(I, a, fname, 0, -1, dtype_kw) && arg_dtype(I, a, fname, -1, "dtype", def, dt) &&
           arg_shape(I, a, fname, 0, nd, shape);
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
    if (!shape_and_dtype(I, a, a->self->name, TL_F64, &nd, shape, &dt)) return false;
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
    if (!args_check(I, a, "full", 2, 2, dtype_kw)) return false;
    if (!value_to_shape(I, a->at, a->pos[0], &nd, shape)) return false;
    for (int k = 0; k < nd; k++)
        if (shape[k] < 0) return interp_error(I, a->at, ShapeError, "full(): negative dimensions are not allowed");
    if (!arg_tensor(I, a, "full", 1, NULL, &v)) return false;
    if (!arg_dtype(I, a, "full", -1, "dtype", v->dtype, &dt)) {
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

/* Reads a real number argument for arange/linspace; notes whether it is a float. */
static bool real_arg(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, double def, double *x,
                     bool *is_float)
{
    Value *v = arg_find(a, i, kw);
    if (v && v->kind == V_NUM && tl_is_complex((tl_dtype)v->dtype))
        return interp_error(I, a->at, TypeError, "%s(): complex arguments are not supported", fname);
    if (v && v->kind == V_NUM && tl_is_float((tl_dtype)v->dtype)) *is_float = true;
    return arg_double(I, a, fname, i, kw, def, x);
}

/* arange(stop) or arange(start, stop, step=1, dtype=none): i64 for integer arguments, else f64, as numpy. */
static bool bi_arange(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "start", "stop", "step", "dtype", NULL };
    double start = 0, stop, step = 1;
    bool fl = false;
    tl_dtype dt;
    if (!args_check(I, a, "arange", 1, 3, kws)) return false;
    bool one = a->npos == 1 && !arg_find(a, -1, "stop");
    if (one) {
        if (!real_arg(I, a, "arange", 0, "stop", 0, &stop, &fl)) return false;
    } else if (!real_arg(I, a, "arange", 0, "start", 0, &start, &fl) ||
               !real_arg(I, a, "arange", 1, "stop", NAN, &stop, &fl)) {
        return false;
    }
    if (!real_arg(I, a, "arange", 2, "step", 1, &step, &fl)) return false;
    if (isnan(stop) && !arg_find(a, one ? 0 : 1, "stop")) return interp_error(I, a->at, TypeError, "arange() missing stop");
    if (!arg_dtype(I, a, "arange", -1, "dtype", fl ? TL_F64 : TL_I64, &dt)) return false;
    if (step == 0) return interp_error(I, a->at, ValueError, "arange(): step must not be zero");
    return ret_tensor(I, a, tl_arange(start, stop, step, dt), out);
}

static bool bi_linspace(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "num", "endpoint", "dtype", NULL };
    double start, stop;
    int64_t num;
    bool endpoint, fl = false;
    tl_dtype dt;
    if (!args_check(I, a, "linspace", 2, 3, kws) || !real_arg(I, a, "linspace", 0, NULL, 0, &start, &fl) ||
        !real_arg(I, a, "linspace", 1, NULL, 0, &stop, &fl) || !arg_int(I, a, "linspace", 2, "num", 50, &num) ||
        !arg_bool(I, a, "linspace", -1, "endpoint", true, &endpoint) ||
        !arg_dtype(I, a, "linspace", -1, "dtype", TL_F64, &dt))
        return false;
    return ret_tensor(I, a, tl_linspace(start, stop, num, endpoint, dt), out);
}

static bool bi_eye(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "m", "k", "dtype", NULL };
    int64_t n, m, k;
    tl_dtype dt;
    if (!args_check(I, a, "eye", 1, 3, kws) || !arg_int(I, a, "eye", 0, NULL, 0, &n) ||
        !arg_int(I, a, "eye", 1, "m", n, &m) || !arg_int(I, a, "eye", 2, "k", 0, &k) ||
        !arg_dtype(I, a, "eye", -1, "dtype", TL_F64, &dt))
        return false;
    return ret_tensor(I, a, tl_eye(n, m, k, dt), out);
}

/* rand/randn: floats only (the tag says which); uniform in [0, 1) or standard normal. */
enum { RANDOM_UNIFORM, RANDOM_NORMAL };

static bool bi_random_float(Interp *I, CallArgs *a, Value *out)
{
    const char *fname = a->self->name;
    int nd;
    int64_t shape[TL_MAXDIM];
    tl_dtype dt;
    if (!shape_and_dtype(I, a, fname, TL_F64, &nd, shape, &dt)) return false;
    if (!tl_is_float(dt)) return interp_error(I, a->at, TypeError, "%s(): dtype must be a float dtype, not %s", fname, tl_dtype_name(dt));
    return ret_tensor(I, a, a->self->tag == RANDOM_NORMAL ? tl_randn(dt, nd, shape) : tl_rand(dt, nd, shape), out);
}

/* randint(low, high=none, size=none, dtype="i64"): integers in [low, high), or [0, low) without high. */
static bool bi_randint(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "high", "size", "dtype", NULL };
    int64_t lo, hi, shape[TL_MAXDIM];
    int nd = 0;
    tl_dtype dt;
    if (!args_check(I, a, "randint", 1, 3, kws) || !arg_int(I, a, "randint", 0, NULL, 0, &lo) ||
        !arg_dtype(I, a, "randint", -1, "dtype", TL_I64, &dt))
        return false;
    if (arg_find(a, 1, "high")) {
        if (!arg_int(I, a, "randint", 1, "high", 0, &hi)) return false;
    } else {
        hi = lo;
        lo = 0;
    }
    Value *size = arg_find(a, 2, "size");
    if (size && !value_to_shape(I, a->at, *size, &nd, shape)) return false;
    for (int k = 0; k < nd; k++)
        if (shape[k] < 0) return interp_error(I, a->at, ShapeError, "randint(): negative dimensions are not allowed");
    if (!tl_is_int(dt)) return interp_error(I, a->at, TypeError, "randint(): dtype must be an integer dtype, not %s", tl_dtype_name(dt));
    if (lo >= hi) return interp_error(I, a->at, ValueError, "randint(): low >= high (%lld >= %lld)", (long long)lo, (long long)hi);
    return ret_tensor(I, a, tl_randint(lo, hi, dt, nd, shape), out);
}

static bool bi_seed(Interp *I, CallArgs *a, Value *out)
{
    int64_t s;
    if (!args_check(I, a, "seed", 1, 1, NULL) || !arg_int(I, a, "seed", 0, NULL, 0, &s)) return false;
    tl_seed((uint64_t)s);
    *out = val_none();
    return true;
}

const Builtin bi_make_table[] = {
    { "zeros", bi_shaped, "zeros(*shape, dtype=\"f64\")", "a tensor of zeros; zeros(2, 3) or zeros((2, 3))", SHAPED_ZEROS },
    { "ones", bi_shaped, "ones(*shape, dtype=\"f64\")", "a tensor of ones", SHAPED_ONES },
    { "empty", bi_shaped, "empty(*shape, dtype=\"f64\")", "an uninitialized tensor", SHAPED_EMPTY },
    { "full", bi_full, "full(shape, value, dtype=none)", "a tensor filled with value (dtype defaults to value's)", 0 },
    { "arange", bi_arange, "arange([start,] stop, step=1, dtype=none)",
      "evenly spaced values in [start, stop); i64 for integer arguments, else f64", 0 },
    { "linspace", bi_linspace, "linspace(start, stop, num=50, endpoint=true, dtype=\"f64\")",
      "num evenly spaced values from start to stop", 0 },
    { "eye", bi_eye, "eye(n, m=n, k=0, dtype=\"f64\")", "an n x m tensor with ones on diagonal k", 0 },
    { "rand", bi_random_float, "rand(*shape, dtype=\"f64\")", "uniform random numbers in [0, 1)", RANDOM_UNIFORM },
    { "randn", bi_random_float, "randn(*shape, dtype=\"f64\")", "standard normal random numbers", RANDOM_NORMAL },
    { "randint", bi_randint, "randint(low, high=none, size=none, dtype=\"i64\")",
      "random integers in [low, high) (or [0, low))", 0 },
    { "seed", bi_seed, "seed(n)", "seeds the random generator (results do not depend on thread count)", 0 },
    { NULL, NULL, NULL, NULL, 0 },
};
