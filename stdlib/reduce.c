/* reduce.c — reductions (sum prod mean var std min max argmin argmax any all norm logsumexp) and cumsum */
#include "builtins.h"

/* axis=() reduces over no axis: the values themselves in the result dtype (numpy), for the ops where that is defined. */
static tl_tensor *reduce_no_axes(tl_redop op, const tl_tensor *t)
{
    switch (op) {
    case TL_RSUM: case TL_RPROD: case TL_RMEAN: case TL_RMIN: case TL_RMAX: case TL_RANY: case TL_RALL:
        return tl_cast(t, tl_reduce_result_dtype(op, t->dtype));
    default:
        tl_seterr("axis=() is not supported for this reduction");
        return NULL;
    }
}

/* sum(x, axis=none, keepdims=false) and the rest of the family; the row's tag is the tl_redop. */
static bool bi_reduce(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "axis", "keepdims", NULL };
    static const char *const ddof_kws[] = { "axis", "keepdims", "ddof", NULL };
    tl_redop op = (tl_redop)a->self->tag;
    const char *fname = a->self->name;
    bool has_ddof = op == TL_RVAR || op == TL_RSTD;
    bool arg_op = op == TL_RARGMIN || op == TL_RARGMAX;
    tl_tensor *t;
    bool keepdims, all;
    int64_t ddof;
    int naxes, axes[TL_MAXDIM];
    if (!args_check(I, a, fname, 1, 2, has_ddof ? ddof_kws : kws) ||
        !arg_bool(I, a, fname, -1, "keepdims", false, &keepdims) || !arg_int(I, a, fname, -1, "ddof", 0, &ddof) ||
        !arg_tensor(I, a, fname, 0, NULL, &t))
        return false;
    Value *axis = arg_find(a, 1, "axis");
    if (arg_op && axis && axis->kind != V_NUM) {
        tl_tensor_release(t);
        return interp_error(I, a->at, "%s(): axis must be an integer or none", fname);
    }
    if (!arg_axes(I, a, fname, 1, "axis", t->ndim, &naxes, axes, &all)) {
        tl_tensor_release(t);
        return false;
    }
    tl_tensor *r;
    if (!all && naxes == 0) r = reduce_no_axes(op, t);
    else r = tl_reduce(op, t, all ? 0 : naxes, axes, keepdims, ddof);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* cumsum(x, axis=none): running sums; none works on the flattened tensor, as numpy. */
static bool bi_cumsum(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "axis", NULL };
    int64_t axis;
    tl_tensor *t;
    if (!args_check(I, a, "cumsum", 1, 2, kws) || !arg_int(I, a, "cumsum", 1, "axis", TL_AXIS_NONE, &axis) ||
        !arg_tensor(I, a, "cumsum", 0, NULL, &t))
        return false;
    if (axis != TL_AXIS_NONE && (axis < -t->ndim || axis >= t->ndim)) {
        tl_tensor_release(t);
        return interp_error(I, a->at, "cumsum(): axis %lld is out of bounds for tensor of dimension %d", (long long)axis, t->ndim);
    }
    tl_tensor *r = tl_cumsum(t, (int)axis);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

#define RED(NAME, OP, HELP) { NAME, bi_reduce, NAME "(x, axis=none, keepdims=false)", HELP, OP }

const Builtin bi_reduce_table[] = {
    RED("sum", TL_RSUM, "sum over axis (all axes if none); small ints and bool sum in i64"),
    RED("prod", TL_RPROD, "product over axis"),
    RED("mean", TL_RMEAN, "arithmetic mean over axis (f64 for integers)"),
    { "var", bi_reduce, "var(x, axis=none, keepdims=false, ddof=0)", "variance: mean squared deviation, divided by n - ddof", TL_RVAR },
    { "std", bi_reduce, "std(x, axis=none, keepdims=false, ddof=0)", "standard deviation: sqrt(var)", TL_RSTD },
    RED("min", TL_RMIN, "smallest value over axis (nan propagates)"),
    RED("max", TL_RMAX, "largest value over axis (nan propagates)"),
    RED("argmin", TL_RARGMIN, "index of the smallest value (of the flattened tensor if axis is none)"),
    RED("argmax", TL_RARGMAX, "index of the largest value (of the flattened tensor if axis is none)"),
    RED("any", TL_RANY, "true if any element over axis is nonzero"),
    RED("all", TL_RALL, "true if every element over axis is nonzero"),
    RED("norm", TL_RNORM, "2-norm over axis (Frobenius over all axes if none)"),
    RED("logsumexp", TL_RLOGSUMEXP, "log(sum(exp(x))) over axis, computed stably"),
    { "cumsum", bi_cumsum, "cumsum(x, axis=none)", "running sums along axis (of the flattened tensor if none)", 0 },
    { NULL, NULL, NULL, NULL, 0 },
};
