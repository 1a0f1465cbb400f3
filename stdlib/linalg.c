/* linalg.c — matmul dot vdot inner outer tensordot einsum kron matrix_power cross trace det inv solve */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "linalg.h"

/* Reads the two tensor operands (parameters 0 and 1) of a binary linalg builtin. */
static bool two_tensors(Interp *I, CallArgs *a, tl_tensor **x, tl_tensor **y)
{
    if (!arg_tensor(I, a, 0, x)) return false;
    if (arg_tensor(I, a, 1, y)) return true;
    tl_tensor_release(*x);
    return false;
}

static bool bi_matmul(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_tensor *r = NULL;
    int rc = 0;
    if (x->ndim == 0 || y->ndim == 0)
        tl_seterr(ShapeError, "matmul: input operand %d does not have enough dimensions (a 0-d value; use * to scale)",
                  x->ndim == 0 ? 0 : 1);
    else if (!a->into || (rc = tl_matmul_into(x, y, a->into)) == 0)
        r = tl_matmul(x, y);
    else if (rc > 0)
        r = (tl_tensor_retain(a->into), a->into);
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* numpy dot for b.ndim > 2: sum over a's last axis and b's second-to-last, as one matmul
   (P, K) @ (K, Q) with b's contracted axis moved first, then reshaped to a.shape[:-1] + b.shape[:-2] + b.shape[-1:]. */
static tl_tensor *dot_general(const tl_tensor *x, const tl_tensor *y, tl_tensor *into)
{
    int64_t k = x->shape[x->ndim - 1], p = 1, q = 1;
    for (int d = 0; d < x->ndim - 1; d++) p *= x->shape[d];
    int perm[TL_MAXDIM], n = 0;
    perm[n++] = y->ndim - 2;
    for (int d = 0; d < y->ndim; d++)
        if (d != y->ndim - 2) perm[n++] = d, q *= y->shape[d];
    int rnd = x->ndim - 1 + y->ndim - 1;
    if (rnd > TL_MAXDIM) {
        tl_seterr(ShapeError, "dot: too many dimensions (%d)", rnd);
        return NULL;
    }
    int64_t rshape[TL_MAXDIM];
    memcpy(rshape, x->shape, sizeof(int64_t) * (size_t)(x->ndim - 1));
    memcpy(rshape + x->ndim - 1, y->shape, sizeof(int64_t) * (size_t)(y->ndim - 2));
    rshape[rnd - 1] = y->shape[y->ndim - 1];
    tl_tensor *x2 = tl_reshape(x, 2, (int64_t[]){ p, k });
    tl_tensor *yp = x2 ? tl_view_permute(y, perm) : NULL;
    tl_tensor *y2 = yp ? tl_reshape(yp, 2, (int64_t[]){ k, q }) : NULL;
    tl_tensor *m = y2 ? tl_matmul_to(x2, y2, into) : NULL;
    tl_tensor *r = m ? tl_reshape(m, rnd, rshape) : NULL;
    if (x2) tl_tensor_release(x2);
    if (yp) tl_tensor_release(yp);
    if (y2) tl_tensor_release(y2);
    if (m) tl_tensor_release(m);
    return r;
}

/* dot(a, b) as numpy: scalars multiply, 1-d·1-d is the inner product, otherwise a sum over
   a's last axis and b's second-to-last (its only one when 1-d). */
static bool bi_dot(Interp *I, CallArgs *a, Value *out)
{
    Value va = *arg_given(a, 0), vb = *arg_given(a, 1);
    if (va.kind == V_LIST || vb.kind == V_LIST) return arg_rerun_with_tensors(I, a, 2, out);
    if (!val_is_numeric(va) || !val_is_numeric(vb))
        return interp_error(I, a->at, TypeError, "%s() takes tensors, not a %s", a->self->name, val_kind_name(val_is_numeric(va) ? vb : va));
    if (va.kind == V_NUM || vb.kind == V_NUM) {
        tl_dtype dt;
        if (!interp_result_dtype(I, TL_MUL, va, vb, a->at, &dt)) return false;
        tl_tensor *x = val_to_tensor(va), *y = x ? val_to_tensor(vb) : NULL;
        tl_tensor *r = y ? tl_binary_to(TL_MUL, x, y, dt, a->into) : NULL;
        if (x) tl_tensor_release(x);
        if (y) tl_tensor_release(y);
        return ret_tensor(I, a, r, out);
    }
    tl_tensor *x = va.as.t, *y = vb.as.t;
    int ky = y->ndim == 1 ? 0 : y->ndim - 2;
    if (x->shape[x->ndim - 1] != y->shape[ky]) {
        char s1[160], s2[160];
        return bi_fail(I, a, ShapeError, "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)",
                       tl_shape_str(x->ndim, x->shape, s1, sizeof s1), tl_shape_str(y->ndim, y->shape, s2, sizeof s2),
                       (long long)x->shape[x->ndim - 1], x->ndim - 1, (long long)y->shape[ky], ky);
    }
    /* for b of 1 or 2 dims, numpy's dot is exactly matmul (a's leading axes act as batch/rows) */
    return ret_tensor(I, a, y->ndim <= 2 ? tl_matmul_to(x, y, a->into) : dot_general(x, y, a->into), out);
}

/* vdot(a, b): the flattened a (conjugated) dotted with the flattened b. */
static bool bi_vdot(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_tensor *cx = NULL, *fx = NULL, *fy = NULL, *r = NULL;
    int64_t nx = tl_tensor_size(x), ny = tl_tensor_size(y);
    if (nx != ny) {
        tl_seterr(ShapeError, "%s(): the operands have different sizes (%lld and %lld)", a->self->name, (long long)nx, (long long)ny);
    } else {
        cx = tl_is_complex(x->dtype) ? tl_unary(TL_CONJ, x) : tl_flatten(x);
        fx = cx ? tl_flatten(cx) : NULL;
        fy = fx ? tl_flatten(y) : NULL;
        r = fy ? tl_matmul_to(fx, fy, a->into) : NULL;
    }
    tl_tensor *all[5] = { x, y, cx, fx, fy };
    for (int i = 0; i < 5; i++)
        if (all[i]) tl_tensor_release(all[i]);
    return ret_tensor(I, a, r, out);
}

/* inner(a, b): sum over the last axes of both (scalars multiply). */
static bool bi_inner(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_tensor *r = NULL;
    if (x->ndim == 0 || y->ndim == 0) {
        r = tl_kron_to(x, y, a->into);           /* a scalar times a tensor */
    } else if (x->shape[x->ndim - 1] != y->shape[y->ndim - 1]) {
        char s1[160], s2[160];
        tl_seterr(ShapeError, "%s(): shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)", a->self->name,
                  tl_shape_str(x->ndim, x->shape, s1, sizeof s1), tl_shape_str(y->ndim, y->shape, s2, sizeof s2),
                  (long long)x->shape[x->ndim - 1], x->ndim - 1, (long long)y->shape[y->ndim - 1], y->ndim - 1);
    } else {
        r = tl_tensordot_to(x, y, 1, (int[]){ x->ndim - 1 }, (int[]){ y->ndim - 1 }, a->into);
    }
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* One side of tensordot's axes=(axes_a, axes_b): an int or a sequence, normalized against ndim. */
static bool tensordot_side(Interp *I, CallArgs *a, Value v, int ndim, int *n, int *axes)
{
    int64_t raw[TL_MAXDIM];
    if (!value_to_shape(I, a->at, v, n, raw)) return false;
    for (int i = 0; i < *n; i++)
        if (raw[i] < -TL_MAXDIM || raw[i] >= TL_MAXDIM || tl_normalize_axis((int)raw[i], ndim, &axes[i]) < 0) {
            if (raw[i] < -TL_MAXDIM || raw[i] >= TL_MAXDIM)
                tl_seterr(IndexError, "%s(): axis %lld is out of bounds for %d dimensions", a->self->name, (long long)raw[i], ndim);
            return interp_error_rt(I, a->at);
        }
    return true;
}

/* tensordot(a, b, axes=2): sum over a's last `axes` axes and b's first, or over the pairs of
   axes=(axes_a, axes_b); a's free axes, then b's. */
static bool bi_tensordot(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    Value *av = arg_at(a, 2);
    int n = 0, nb = 0, ax[TL_MAXDIM], bx[TL_MAXDIM];
    bool ok = true;
    if (!av || (av->kind == V_NUM && tl_is_int((tl_dtype)av->dtype))) {
        int64_t k = av ? tl_scalar_to_i64(av->as.num.bytes, (tl_dtype)av->dtype) : 2;
        if (k < 0) ok = bi_fail(I, a, ValueError, "axes must be non-negative, not %lld", (long long)k);
        else if (k > x->ndim || k > y->ndim)
            ok = bi_fail(I, a, ShapeError, "cannot sum over %lld axes of operands with %d and %d dimensions", (long long)k, x->ndim, y->ndim);
        for (int i = 0; ok && i < k; i++) {
            ax[i] = x->ndim - (int)k + i;
            bx[i] = i;
        }
        n = nb = (int)k;
    } else if (av->kind == V_TUPLE && av->as.tu->n == 2) {
        ok = tensordot_side(I, a, av->as.tu->items[0], x->ndim, &n, ax) &&
             tensordot_side(I, a, av->as.tu->items[1], y->ndim, &nb, bx);
        if (ok && n != nb) ok = interp_error(I, a->at, ShapeError, "shape-mismatch for sum");
    } else {
        ok = bi_fail(I, a, TypeError, "axes must be an integer or a pair of axis lists, not a %s", val_kind_name(*av));
    }
    tl_tensor *r = ok ? tl_tensordot_to(x, y, n, ax, bx, a->into) : NULL;
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* einsum(subscripts, *operands): numpy's Einstein summation. */
static bool bi_einsum(Interp *I, CallArgs *a, Value *out)
{
    const char *subs;
    if (!arg_string(I, a, 0, NULL, &subs)) return false;
    int n = a->nrest;
    tl_tensor **ts = calloc((size_t)(n > 0 ? n : 1), sizeof *ts);
    if (!ts) return interp_error(I, a->at, MemoryError, "out of memory");
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        ok = val_is_tensorlike(a->rest[i]) || bi_fail(I, a, TypeError, "operands must be tensors, not a %s", val_kind_name(a->rest[i]));
        if (ok) ok = (ts[i] = val_to_tensor(a->rest[i])) || interp_error_rt(I, a->at);
    }
    tl_tensor *r = ok ? tl_einsum_to(subs, n, (const tl_tensor *const *)ts, a->into) : NULL;
    for (int i = 0; i < n; i++)
        if (ts[i]) tl_tensor_release(ts[i]);
    free(ts);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* kron(a, b): the Kronecker product. */
static bool bi_kron(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_tensor *r = tl_kron_to(x, y, a->into);
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* matrix_power(a, n): a square matrix (stack) to an integer power. */
static bool bi_matrix_power(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    Value v = *arg_given(a, 1);
    if (v.kind != V_NUM || !tl_is_intlike((tl_dtype)v.dtype)) return bi_fail(I, a, TypeError, "exponent must be an integer");
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_matrix_power_to(t, tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype), a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* outer(a, b): a.flatten()[:, none] * b.flatten()[none, :] in the promoted dtype (bools give bool, as numpy). */
static bool bi_outer(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_dtype dt = tl_promote(x->dtype, y->dtype);
    tl_tensor *col = tl_reshape(x, 2, (int64_t[]){ -1, 1 });
    tl_tensor *row = col ? tl_reshape(y, 2, (int64_t[]){ 1, -1 }) : NULL;
    tl_tensor *r = row ? tl_binary_to(dt == TL_BOOL ? TL_AND : TL_MUL, col, row, dt, a->into) : NULL;
    tl_tensor_release(x);
    tl_tensor_release(y);
    if (col) tl_tensor_release(col);
    if (row) tl_tensor_release(row);
    return ret_tensor(I, a, r, out);
}

/* Component i of the vectors along the last axis; a 2-vector's missing z is a 0-d zero (numpy's rule). */
static tl_tensor *component(const tl_tensor *t, int i, tl_dtype dt)
{
    if (i < t->shape[t->ndim - 1]) return tl_view_index(t, t->ndim - 1, i);
    tl_scalar zero;
    memset(&zero, 0, sizeof zero);
    return tl_tensor_scalar(dt, &zero);
}

/* x_i * y_j - x_j * y_i for components i, j (into `into` when it fits). */
static tl_tensor *cross_term(const tl_tensor *x, const tl_tensor *y, int i, int j, tl_dtype dt, tl_tensor *into)
{
    tl_tensor *xi = component(x, i, dt), *yj = component(y, j, dt), *xj = component(x, j, dt), *yi = component(y, i, dt);
    tl_tensor *p = NULL, *q = NULL, *r = NULL;
    if (xi && yj && xj && yi) p = tl_binary(TL_MUL, xi, yj, dt);
    if (p) q = tl_binary(TL_MUL, xj, yi, dt);
    if (q) r = tl_binary_to(TL_SUB, p, q, dt, into);
    tl_tensor *all[6] = { xi, yj, xj, yi, p, q };
    for (int k = 0; k < 6; k++)
        if (all[k]) tl_tensor_release(all[k]);
    return r;
}

/* A view with axis `from` moved to position `to` (numpy's moveaxis for one axis). */
static tl_tensor *move_axis(const tl_tensor *t, int from, int to)
{
    int perm[TL_MAXDIM], n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (n == to) perm[n++] = from;
        if (d != from) perm[n++] = d;
    }
    if (n == to) perm[n++] = from;
    return tl_view_permute(t, perm);
}

/* The three components of the 3-d cross product, stacked along the last axis (into `into` when it fits). */
static tl_tensor *cross3(const tl_tensor *x, const tl_tensor *y, tl_dtype dt, tl_tensor *into)
{
    tl_tensor *c[3] = { cross_term(x, y, 1, 2, dt, NULL), NULL, NULL }, *st = NULL;
    if (c[0]) c[1] = cross_term(x, y, 2, 0, dt, NULL);
    if (c[1]) c[2] = cross_term(x, y, 0, 1, dt, NULL);
    if (c[2]) st = tl_stack_to(3, c, -1, into);
    for (int k = 0; k < 3; k++)
        if (c[k]) tl_tensor_release(c[k]);
    return st;
}

/* cross(a, b, axis=-1): the cross product of 3-vectors (or 2-vectors: the z component only), as numpy. */
static bool bi_cross(Interp *I, CallArgs *a, Value *out)
{
    int64_t axis;
    tl_tensor *x0, *y0;
    if (!arg_int(I, a, 2, -1, &axis) || !two_tensors(I, a, &x0, &y0)) return false;
    tl_tensor *x = NULL, *y = NULL, *r = NULL;
    int ax, ay;
    if (x0->ndim == 0 || y0->ndim == 0 || axis < -TL_MAXDIM || axis >= TL_MAXDIM) {
        tl_seterr(ShapeError, "%s(): both operands need at least one dimension (and a valid axis)", a->self->name);
    } else if (tl_normalize_axis((int)axis, x0->ndim, &ax) == 0 && tl_normalize_axis((int)axis, y0->ndim, &ay) == 0) {
        x = move_axis(x0, ax, x0->ndim - 1);
        y = x ? move_axis(y0, ay, y0->ndim - 1) : NULL;
    }
    tl_tensor_release(x0);
    tl_tensor_release(y0);
    if (y) {
        int64_t nx = x->shape[x->ndim - 1], ny = y->shape[y->ndim - 1];
        tl_dtype dt = tl_promote(x->dtype, y->dtype);
        if ((nx != 2 && nx != 3) || (ny != 2 && ny != 3)) {
            tl_seterr(ShapeError, "%s(): incompatible dimensions for cross product (dimension must be 2 or 3, got %lld and %lld)",
                      a->self->name, (long long)nx, (long long)ny);
        } else if (dt == TL_BOOL) {
            tl_seterr(TypeError, "%s(): not supported for bool", a->self->name);
        } else if (nx == 2 && ny == 2) {
            r = cross_term(x, y, 0, 1, dt, a->into);
        } else {
            tl_tensor *st = cross3(x, y, dt, a->into);
            int ac;
            /* numpy puts the result's vector axis at `axis` too */
            if (st && tl_normalize_axis((int)axis, st->ndim, &ac) == 0) r = move_axis(st, st->ndim - 1, ac);
            if (st) tl_tensor_release(st);
        }
    }
    if (x) tl_tensor_release(x);
    if (y) tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

/* trace(a, offset=0, axis1=0, axis2=1): the sum of a diagonal (integers sum in i64, as numpy). */
static bool bi_trace(Interp *I, CallArgs *a, Value *out)
{
    int64_t offset, ax1, ax2;
    tl_tensor *t;
    if (!arg_int(I, a, 1, 0, &offset) || !arg_int(I, a, 2, 0, &ax1) || !arg_int(I, a, 3, 1, &ax2) || !arg_tensor(I, a, 0, &t))
        return false;
    tl_tensor *d = NULL, *r = NULL;
    if (ax1 < -TL_MAXDIM || ax1 >= TL_MAXDIM || ax2 < -TL_MAXDIM || ax2 >= TL_MAXDIM)
        tl_seterr(IndexError, "%s(): axis out of bounds", a->self->name);
    else
        d = tl_view_diagonal(t, offset, (int)ax1, (int)ax2);
    if (d) r = tl_reduce_to(TL_RSUM, d, 1, (int[]){ d->ndim - 1 }, false, 0, a->into);
    tl_tensor_release(t);
    if (d) tl_tensor_release(d);
    return ret_tensor(I, a, r, out);
}

/* det / inv: one square (or batched) matrix in; the tag picks which. */
enum { SQUARE_DET, SQUARE_INV };

static bool bi_square(Interp *I, CallArgs *a, Value *out)
{
    bool det = a->self->tag == SQUARE_DET, exact = false;
    tl_tensor *t;
    if ((det && !arg_bool(I, a, 1, false, &exact)) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = !det ? tl_inv_to(t, a->into) : exact ? tl_det_exact_to(t, a->into) : tl_det_to(t, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_solve(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *x, *y;
    if (!two_tensors(I, a, &x, &y)) return false;
    tl_tensor *r = tl_solve_to(x, y, a->into);
    tl_tensor_release(x);
    tl_tensor_release(y);
    return ret_tensor(I, a, r, out);
}

const Builtin bi_linalg_table[] = {
    { "matmul", bi_matmul, "matmul(a, b)", "matrix product a @ b (batched over leading axes, broadcasting)", 0, BF_OTHER, BT_INTO },
    { "dot", bi_dot, "dot(a, b)", "numpy's dot: inner product of vectors, matrix product, sum over a's last and b's second-to-last axis", 0, BF_OTHER, BT_INTO },
    { "vdot", bi_vdot, "vdot(a, b)", "dot product of the flattened a (complex conjugated) and b", 0, BF_OTHER, BT_INTO },
    { "inner", bi_inner, "inner(a, b)", "sum over the last axes of a and b", 0, BF_OTHER, BT_INTO },
    { "tensordot", bi_tensordot, "tensordot(a, b, axes=2)",
      "sum over a's last `axes` axes and b's first (or over the pairs axes=(axes_a, axes_b)), by GEMM", 0, BF_OTHER, BT_INTO },
    { "einsum", bi_einsum, "einsum(subscripts, *operands)",
      "numpy's Einstein summation (\"ij,jk->ik\", implicit output, \"...\", repeated labels); contractions by GEMM", 0, BF_OTHER, BT_INTO },
    { "kron", bi_kron, "kron(a, b)", "Kronecker product", 0, BF_OTHER, BT_INTO },
    { "matrix_power", bi_matrix_power, "matrix_power(a, n)", "a square matrix (batched) to the integer power n (n < 0: of its inverse)", 0, BF_OTHER, BT_INTO },
    { "outer", bi_outer, "outer(a, b)", "outer product of the flattened a and b", 0, BF_OTHER, BT_INTO },
    { "cross", bi_cross, "cross(a, b, axis=-1)", "cross product of 3-vectors (2-vectors give the z component)", 0, BF_OTHER, BT_INTO },
    { "trace", bi_trace, "trace(a, offset=0, axis1=0, axis2=1)", "sum of the diagonal", 0, BF_OTHER, BT_INTO },
    { "det", bi_square, "det(a, exact=false)",
      "determinant of a square matrix (batched); exact=true: integers exactly, as i64", SQUARE_DET, BF_OTHER, BT_INTO },
    { "inv", bi_square, "inv(a)", "inverse of a square matrix (batched); singular matrices are an error", SQUARE_INV, BF_OTHER, BT_INTO },
    { "solve", bi_solve, "solve(a, b)", "x such that a @ x = b", 0, BF_OTHER, BT_INTO },
    { 0 },
};
