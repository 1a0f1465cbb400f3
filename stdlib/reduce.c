/* reduce.c — reductions (redop_list.h: sum ... logsumexp, the nan-reductions) and cumsum/cumprod */
#include "builtins.h"

/* axis=() reduces over no axis: the values themselves in the result dtype (numpy), for the ops where that is defined. */
static tl_tensor *reduce_no_axes(tl_redop op, const tl_tensor *t, tl_tensor *into)
{
    if (tl_redop_allows_no_axes(op)) return tl_cast_to(t, tl_reduce_result_dtype(op, t->dtype), into);
    tl_seterr(ValueError, "axis=() is not supported for this reduction");
    return NULL;
}

/* x cast to dtype= (parameter i) when given (numpy computes in it); *t is replaced. */
static bool apply_dtype(Interp *I, CallArgs *a, int i, tl_tensor **t, bool *given, tl_dtype *dt)
{
    *given = arg_at(a, i) != NULL;
    if (!arg_dtype(I, a, i, (*t)->dtype, dt)) {
        tl_tensor_release(*t);
        return false;
    }
    if (*given && (*t)->dtype != *dt) {
        tl_tensor *c = tl_cast(*t, *dt);
        tl_tensor_release(*t);
        *t = c;
        if (!c) return interp_error_rt(I, a->at);
    }
    return true;
}

/* The result cast to dtype= when one was given (sums of i8 with dtype=i8 stay i8; numpy's
   var(x, dtype=c64) is c64 too); into: where the caller wants the result (CallArgs.into). */
static tl_tensor *finish_dtype(tl_tensor *r, bool given, tl_dtype dt, tl_tensor *into)
{
    if (!r || !given || r->dtype == dt) return r;
    tl_tensor *c = tl_cast_to(r, dt, into);
    tl_tensor_release(r);
    return c;
}

/* sum(x, axis=none, dtype=none, *, keepdims=false) and the rest of the family; the row's tag is the
   tl_redop. Every row's signature (redop_list.h) is x, axis, then dtype when it takes one, then ddof
   for the variances, and keepdims last. */
static bool bi_reduce(Interp *I, CallArgs *a, Value *out)
{
    tl_redop op = (tl_redop)a->self->tag;
    if (op == TL_RNORM) return bi_norm(I, a, out);     /* numpy's ord comes before axis */
    bool has_ddof = op == TL_RVAR || op == TL_RSTD || op == TL_RNANVAR || op == TL_RNANSTD;
    bool has_dtype = tl_redop_takes_dtype(op);
    bool arg_op = op == TL_RARGMIN || op == TL_RARGMAX;
    tl_tensor *t;
    bool keepdims, all, dt_given = false;
    tl_dtype dt;
    int64_t ddof = 0;
    int naxes, axes[TL_MAXDIM];
    if (!arg_bool(I, a, a->params->n - 1, false, &keepdims) || (has_ddof && !arg_int(I, a, 3, 0, &ddof)) ||
        !arg_tensor(I, a, 0, &t))
        return false;
    if (has_dtype && !apply_dtype(I, a, 2, &t, &dt_given, &dt)) return false;
    Value *axis = arg_at(a, 1);
    if ((op == TL_RMIN || op == TL_RMAX) && t->ndim == 0 && axis && a->npos >= 2) {   /* Python's min(a, b) */
        tl_tensor_release(t);
        return bi_fail(I, a, IndexError, "the second argument is the axis, and a number has none; the %s of two values is %s(a, b), as numpy's",
                       op == TL_RMIN ? "smaller" : "larger", op == TL_RMIN ? "minimum" : "maximum");
    }
    if (arg_op && axis && axis->kind != V_NUM) {
        tl_tensor_release(t);
        return bi_fail(I, a, TypeError, "axis must be an integer or none");
    }
    if (!arg_axes(I, a, 1, t->ndim, &naxes, axes, &all)) {
        tl_tensor_release(t);
        return false;
    }
    tl_tensor *r;
    if (!all && naxes == 0) r = reduce_no_axes(op, t, a->into);
    else r = tl_reduce_to(op, t, all ? 0 : naxes, axes, keepdims, ddof, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, finish_dtype(r, dt_given, dt, a->into), out);
}

/* cumsum(x, axis=none, dtype=none) and cumprod: running sums or products; none works on the
   flattened tensor, as numpy. The row's tag is TL_RSUM or TL_RPROD. */
static bool bi_cumulative(Interp *I, CallArgs *a, Value *out)
{
    int64_t axis;
    tl_tensor *t;
    bool dt_given;
    tl_dtype dt;
    if (!arg_int(I, a, 1, TL_AXIS_NONE, &axis) || !arg_tensor(I, a, 0, &t) || !apply_dtype(I, a, 2, &t, &dt_given, &dt)) return false;
    if (axis != TL_AXIS_NONE && (axis < -t->ndim || axis >= t->ndim)) {
        int ndim = t->ndim;   /* read before t is released */
        tl_tensor_release(t);
        return bi_fail(I, a, IndexError, "axis %lld is out of bounds for tensor of dimension %d", (long long)axis, ndim);
    }
    tl_tensor *r = tl_cumulative_to((tl_redop)a->self->tag, t, (int)axis, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, finish_dtype(r, dt_given, dt, a->into), out);
}

/* One row per reduction of redop_list.h. */
#define RED_ROW(arg, ENUM, NAME, WHAT, RESULT, NOAXES, DT, SIG, HELP) { NAME, bi_reduce, SIG, HELP, ENUM, BF_REDUCE, BT_INTO },

const Builtin bi_reduce_table[] = {
    TL_REDOP_LIST(RED_ROW, )
    { "cumsum", bi_cumulative, "cumsum(x, axis=none, dtype=none)", "running sums along axis (of the flattened tensor if none)", TL_RSUM, BF_OTHER, BT_INTO },
    { "cumprod", bi_cumulative, "cumprod(x, axis=none, dtype=none)", "running products along axis (of the flattened tensor if none)", TL_RPROD, BF_OTHER, BT_INTO },
    { 0 },
};
