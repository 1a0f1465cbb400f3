/* reduce.c — reductions (sum prod mean var std min max argmin argmax any all norm logsumexp) and cumsum */
#include "builtins.h"

/* axis=() reduces over no axis: the values themselves in the result dtype (numpy), for the ops where that is defined. */
static tl_tensor *reduce_no_axes(tl_redop op, const tl_tensor *t)
{
    if (tl_redop_allows_no_axes(op)) return tl_cast(t, tl_reduce_result_dtype(op, t->dtype));
    tl_seterr(ValueError, "axis=() is not supported for this reduction");
    return NULL;
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
        return interp_error(I, a->at, TypeError, "%s(): axis must be an integer or none", fname);
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
        return interp_error(I, a->at, IndexError, "cumsum(): axis %lld is out of bounds for tensor of dimension %d", (long long)axis, t->ndim);
    }
    tl_tensor *r = tl_cumsum(t, (int)axis);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* One row per reduction of redop_list.h. */
#define RED_ROW(arg, ENUM, NAME, WHAT, RESULT, NOAXES, SIG, HELP) { NAME, bi_reduce, SIG, HELP, ENUM },

const Builtin bi_reduce_table[] = {
    TL_REDOP_LIST(RED_ROW, )
    { "cumsum", bi_cumsum, "cumsum(x, axis=none)", "running sums along axis (of the flattened tensor if none)", 0 },
    { NULL, NULL, NULL, NULL, 0 },
};
