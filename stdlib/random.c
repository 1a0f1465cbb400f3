/* random.c — numpy.random's sampling builtins on tl's own generator: uniform normal choice permutation shuffle */
#include <string.h>

#include "builtins.h"

/* Parameter i (size=) as a shape (none: *given false); negative entries are an error. */
static bool size_arg(Interp *I, CallArgs *a, int i, int *nd, int64_t *shape, bool *given)
{
    Value *v = arg_at(a, i);
    *given = v != NULL;
    *nd = 0;
    if (!v) return true;
    if (!value_to_shape(I, a->at, *v, nd, shape)) return false;
    for (int k = 0; k < *nd; k++)
        if (shape[k] < 0) return bi_fail(I, a, ShapeError, "negative dimensions are not allowed");
    return true;
}

/* uniform(low=0, high=1, size=none) is low + (high - low) * rand; normal(loc=0, scale=1, size=none) is
   loc + scale * randn. The parameters broadcast; without size the result has their broadcast shape. */
enum { DIST_UNIFORM, DIST_NORMAL };

static bool bi_distribution(Interp *I, CallArgs *a, Value *out)
{
    bool normal = a->self->tag == DIST_NORMAL;
    int nd;
    int64_t shape[TL_MAXDIM];
    bool sized;
    if (!size_arg(I, a, 2, &nd, shape, &sized)) return false;
    tl_tensor *p[2] = { NULL, NULL };   /* (low, high) or (loc, scale) */
    double defaults[2] = { 0, 1 };
    for (int k = 0; k < 2; k++) {
        bool ok = arg_at(a, k) ? arg_tensor(I, a, k, &p[k]) : (p[k] = tl_tensor_scalar(TL_F64, &defaults[k])) || interp_error_rt(I, a->at);
        if (ok && tl_is_complex(p[k]->dtype)) ok = bi_fail(I, a, TypeError, "%s must be real", arg_name(a, k));
        if (!ok) {
            if (p[0]) tl_tensor_release(p[0]);
            if (k == 1 && p[1]) tl_tensor_release(p[1]);
            return false;
        }
    }
    tl_tensor *r = NULL, *spread = NULL, *scaled = NULL, *draw = NULL;
    bool ok = true;
    if (normal) {   /* numpy refuses a negative scale */
        tl_tensor *least = tl_tensor_size(p[1]) > 0 ? tl_reduce(TL_RMIN, p[1], 0, NULL, false, 0) : NULL;
        double v = 0;
        if (least) tl_scalar_convert(&v, TL_F64, tl_tensor_data(least), least->dtype);
        if (least) tl_tensor_release(least);
        if (v < 0) ok = bi_fail(I, a, ValueError, "scale < 0");
    }
    if (ok && !sized && tl_broadcast_shapes(p[0]->ndim, p[0]->shape, p[1]->ndim, p[1]->shape, &nd, shape) < 0)
        ok = interp_error_rt(I, a->at);
    /* the parameters must broadcast to size, as numpy */
    for (int k = 0; ok && k < 2; k++) {
        tl_tensor *b = tl_view_broadcast_to(p[k], nd, shape);
        ok = b || interp_error_rt(I, a->at);
        if (b) tl_tensor_release(b);
    }
    if (ok) {
        draw = normal ? tl_randn(TL_F64, nd, shape) : tl_rand(TL_F64, nd, shape);
        spread = normal ? (tl_tensor_retain(p[1]), p[1]) : draw ? tl_binary(TL_SUB, p[1], p[0], TL_F64) : NULL;
        scaled = spread ? tl_binary(TL_MUL, spread, draw, TL_F64) : NULL;
        r = scaled ? tl_binary(TL_ADD, p[0], scaled, TL_F64) : NULL;
    }
    tl_tensor *all[] = { p[0], p[1], spread, scaled, draw };
    for (int k = 0; k < 5; k++)
        if (all[k]) tl_tensor_release(all[k]);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* The rows of t (along axis 0) in the order idx gives (a copy). */
static tl_tensor *take_rows(const tl_tensor *t, const tl_tensor *idx)
{
    tl_index_item item = { .kind = TL_IDX_TENSOR, .tensor = idx };
    return tl_index_get(t, 1, &item);
}

/* choice(a, size=none, replace=true, p=none): samples of a's elements (a 1-d tensor) or of arange(a). */
static bool bi_choice(Interp *I, CallArgs *a, Value *out)
{
    int nd;
    int64_t shape[TL_MAXDIM], n;
    bool sized, replace;
    tl_tensor *pop = NULL, *p = NULL;
    if (!size_arg(I, a, 1, &nd, shape, &sized) || !arg_bool(I, a, 2, true, &replace)) return false;
    Value *av = arg_given(a, 0);
    if (av->kind == V_NUM && tl_is_int((tl_dtype)av->dtype)) {
        n = tl_scalar_to_i64(av->as.num.bytes, (tl_dtype)av->dtype);
    } else if (!arg_tensor(I, a, 0, &pop)) {
        return false;
    } else if (pop->ndim != 1) {
        tl_tensor_release(pop);
        return bi_fail(I, a, ValueError, "a must be 1-dimensional (or an integer)");
    } else {
        n = pop->shape[0];
    }
    if (arg_at(a, 3) && !arg_tensor(I, a, 3, &p)) {
        if (pop) tl_tensor_release(pop);
        return false;
    }
    tl_tensor *idx = tl_choice_indices(n, nd, shape, replace, p);
    tl_tensor *r = idx && pop ? take_rows(pop, idx) : idx;
    if (idx && pop) tl_tensor_release(idx);
    if (p) tl_tensor_release(p);
    if (pop) tl_tensor_release(pop);
    return ret_tensor(I, a, r, out);
}

/* permutation(x): arange(x) shuffled for an integer, else a copy of x with its rows (axis 0) shuffled.
   shuffle(x): x's rows shuffled in place. */
enum { PERMUTE_COPY, PERMUTE_IN_PLACE };

static bool bi_permutation(Interp *I, CallArgs *a, Value *out)
{
    bool in_place = a->self->tag == PERMUTE_IN_PLACE;
    Value v = *arg_given(a, 0);
    if (!in_place && v.kind == V_LIST) return arg_rerun_with_tensors(I, a, 1, out);
    if (!in_place && v.kind == V_NUM && tl_is_int((tl_dtype)v.dtype))
        return ret_tensor(I, a, tl_permutation_indices(tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype)), out);
    if (v.kind != V_TENSOR) {
        if (!val_is_numeric(v)) return bi_fail(I, a, TypeError, "x must be a tensor%s, not a %s", in_place ? "" : " or an integer", val_kind_name(v));
        return in_place ? bi_fail(I, a, TypeError, "x must be a tensor of at least 1 dimension, not a number")
                        : bi_fail(I, a, IndexError, "x is neither an integer nor a tensor of at least 1 dimension");
    }
    tl_tensor *t = v.as.t;
    tl_tensor *idx = tl_permutation_indices(t->shape[0]);
    tl_tensor *rows = idx ? take_rows(t, idx) : NULL;
    if (idx) tl_tensor_release(idx);
    if (!in_place || !rows) return ret_tensor(I, a, rows, out);
    int rc = tl_assign(t, rows);   /* through views too: t's own elements are rewritten */
    tl_tensor_release(rows);
    if (rc < 0) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

const Builtin bi_random_table[] = {
    { "uniform", bi_distribution, "uniform(low=0, high=1, size=none)",
      "uniform random numbers in [low, high) (f64; tl's own stream, not numpy's)", DIST_UNIFORM, BF_OTHER, BT_NO },
    { "normal", bi_distribution, "normal(loc=0, scale=1, size=none)",
      "normal random numbers with mean loc and standard deviation scale (f64; tl's own stream)", DIST_NORMAL, BF_OTHER, BT_NO },
    { "choice", bi_choice, "choice(a, size=none, replace=true, p=none)",
      "random samples of a 1-d tensor's elements, or of arange(a), with probabilities p", 0, BF_OTHER, BT_NO },
    { "permutation", bi_permutation, "permutation(x)", "arange(x) shuffled, or a copy of x with its rows (axis 0) shuffled", PERMUTE_COPY, BF_OTHER, BT_NO },
    { "shuffle", bi_permutation, "shuffle(x)", "shuffles x's rows (axis 0) in place", PERMUTE_IN_PLACE, BF_OTHER, BT_NO },
    { 0 },
};
