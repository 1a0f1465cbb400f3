/* compare.c — isclose and array_equal, composed from the elementwise operators as numpy composes them */
#include "kernels/kern.h"
#include "ops.h"

/* Temporaries of one computation, released together. */
typedef struct temps { tl_tensor *t[24]; int n; bool failed; } temps;

/* Keeps t for release at the end; marks the computation failed on NULL. */
static tl_tensor *keep(temps *k, tl_tensor *t)
{
    if (!t) k->failed = true;
    else k->t[k->n++] = t;
    return t;
}

static void release_all(temps *k)
{
    for (int i = 0; i < k->n; i++) tl_tensor_release(k->t[i]);
}

/* The dtype isclose computes in: the operands' common dtype, as a float (numpy's result_type(y, 1.)). */
static tl_dtype close_dtype(tl_dtype a, tl_dtype b)
{
    tl_dtype d = tl_promote(a, b);
    return tl_is_float(d) || tl_is_complex(d) ? d : tl_float_for(d);
}

tl_tensor *tl_isclose(const tl_tensor *a, const tl_tensor *b, double rtol, double atol, bool equal_nan)
{
    return tl_isclose_to(a, b, rtol, atol, equal_nan, NULL);
}

/* The last step writes into `into` (the where, or the or with both-NaN when equal_nan). */
tl_tensor *tl_isclose_to(const tl_tensor *a, const tl_tensor *b, double rtol, double atol, bool equal_nan, tl_tensor *into)
{
    tl_dtype dt = close_dtype(a->dtype, b->dtype), rt = tl_dtype_real(dt);
    temps k = { .n = 0 };
    tl_tensor *x = keep(&k, tl_as_dtype(a, dt)), *y = k.failed ? NULL : keep(&k, tl_as_dtype(b, dt));
    tl_tensor *r = NULL;
    if (!k.failed) {
        /* |x - y| <= atol + rtol * |y| where both are finite; x == y elsewhere (inf == inf) */
        tl_tensor *diff = keep(&k, tl_binary(TL_SUB, x, y, dt));
        tl_tensor *dist = diff ? keep(&k, tl_unary(TL_ABS, diff)) : NULL;
        tl_tensor *ymag = dist ? keep(&k, tl_unary(TL_ABS, y)) : NULL;
        tl_tensor *rt_t = ymag ? keep(&k, tl_tensor_from_f64(rt, rtol)) : NULL, *at_t = rt_t ? keep(&k, tl_tensor_from_f64(rt, atol)) : NULL;
        tl_tensor *scaled = at_t ? keep(&k, tl_binary(TL_MUL, rt_t, ymag, rt)) : NULL;
        tl_tensor *tol = scaled ? keep(&k, tl_binary(TL_ADD, at_t, scaled, rt)) : NULL;
        tl_tensor *within = tol ? keep(&k, tl_binary(TL_LE, dist, tol, rt)) : NULL;
        tl_tensor *fx = within ? keep(&k, tl_unary(TL_ISFINITE, x)) : NULL;
        tl_tensor *fy = fx ? keep(&k, tl_unary(TL_ISFINITE, y)) : NULL;
        tl_tensor *finite = fy ? keep(&k, tl_binary(TL_AND, fx, fy, TL_BOOL)) : NULL;
        tl_tensor *same = finite ? keep(&k, tl_binary(TL_EQ, x, y, dt)) : NULL;
        r = same ? tl_where_to(finite, within, same, TL_BOOL, equal_nan ? NULL : into) : NULL;
        if (r && equal_nan) {
            tl_tensor *nx = keep(&k, tl_unary(TL_ISNAN, x)), *ny = nx ? keep(&k, tl_unary(TL_ISNAN, y)) : NULL;
            tl_tensor *both = ny ? keep(&k, tl_binary(TL_AND, nx, ny, TL_BOOL)) : NULL;
            tl_tensor *r2 = both ? tl_binary_to(TL_OR, r, both, TL_BOOL, into) : NULL;
            tl_tensor_release(r);
            r = r2;
        }
    }
    release_all(&k);
    return r;
}

int tl_array_equal(const tl_tensor *a, const tl_tensor *b, bool equal_nan)
{
    if (a->ndim != b->ndim) return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d]) return 0;
    tl_dtype dt = tl_promote(a->dtype, b->dtype);
    temps k = { .n = 0 };
    tl_tensor *eq = keep(&k, tl_binary(TL_EQ, a, b, dt));
    if (eq && equal_nan && (tl_is_float(dt) || tl_is_complex(dt))) {
        tl_tensor *na = keep(&k, tl_unary(TL_ISNAN, a)), *nb = na ? keep(&k, tl_unary(TL_ISNAN, b)) : NULL;
        tl_tensor *both = nb ? keep(&k, tl_binary(TL_AND, na, nb, TL_BOOL)) : NULL;
        eq = both ? keep(&k, tl_binary(TL_OR, eq, both, TL_BOOL)) : NULL;
    }
    tl_tensor *all = eq ? keep(&k, tl_reduce(TL_RALL, eq, 0, NULL, false, 0)) : NULL;
    int r = all ? *(const bool *)tl_tensor_data(all) : -1;
    release_all(&k);
    return r;
}
