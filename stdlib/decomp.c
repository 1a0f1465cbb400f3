/* decomp.c — numpy.linalg's decompositions (svd eig eigvals eigh eigvalsh qr cholesky lstsq pinv slogdet matrix_rank) and norm */
#include <math.h>
#include <string.h>

#include "builtins.h"
#include "linalg.h"

/* svd(a, full_matrices=true, compute_uv=true, hermitian=false): (u, s, vh), or s alone. */
static bool bi_svd(Interp *I, CallArgs *a, Value *out)
{
    bool full, uv, herm;
    tl_tensor *t;
    if (!arg_bool(I, a, 1, true, &full) || !arg_bool(I, a, 2, true, &uv) || !arg_bool(I, a, 3, false, &herm) || !arg_tensor(I, a, 0, &t))
        return false;
    tl_tensor *r[3] = { NULL, NULL, NULL };
    r[1] = tl_svd(t, full, uv, &r[0], &r[2]);
    tl_tensor_release(t);
    if (!uv) return ret_tensor(I, a, r[1], out);
    return ret_tuple(I, a, 3, r, out);
}

/* eig(a) -> (w, v) and eigvals(a) -> w; the tag says whether vectors are wanted. */
enum { EIG_VALUES, EIG_VECTORS };

static bool bi_eig(Interp *I, CallArgs *a, Value *out)
{
    bool vec = a->self->tag == EIG_VECTORS;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!arg_tensor(I, a, 0, &t)) return false;
    int rc = tl_eig(t, &r[0], vec ? &r[1] : NULL);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return vec ? ret_tuple(I, a, 2, r, out) : ret_tensor(I, a, r[0], out);
}

/* eigh(a, UPLO="L") -> (w, v) and eigvalsh(a, UPLO="L") -> w. */
static bool bi_eigh(Interp *I, CallArgs *a, Value *out)
{
    const char *uplo;
    bool vec = a->self->tag == EIG_VECTORS;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!arg_string(I, a, 1, "L", &uplo)) return false;
    if (strcmp(uplo, "L") != 0 && strcmp(uplo, "U") != 0) return bi_fail(I, a, ValueError, "UPLO argument must be 'L' or 'U'");
    if (!arg_tensor(I, a, 0, &t)) return false;
    int rc = tl_eigh(t, uplo[0], &r[0], vec ? &r[1] : NULL);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return vec ? ret_tuple(I, a, 2, r, out) : ret_tensor(I, a, r[0], out);
}

/* qr(a, mode="reduced"): (q, r) for "reduced" and "complete", r alone for "r". */
static bool bi_qr(Interp *I, CallArgs *a, Value *out)
{
    const char *mode;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!arg_string(I, a, 1, "reduced", &mode)) return false;
    tl_qr_mode m;
    if (strcmp(mode, "reduced") == 0) m = TL_QR_REDUCED;
    else if (strcmp(mode, "complete") == 0) m = TL_QR_COMPLETE;
    else if (strcmp(mode, "r") == 0) m = TL_QR_R;
    else return bi_fail(I, a, ValueError, "Unrecognized mode '%s' (\"reduced\", \"complete\" or \"r\")", mode);
    if (!arg_tensor(I, a, 0, &t)) return false;
    int rc = tl_qr(t, m, m == TL_QR_R ? NULL : &r[0], &r[1]);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return m == TL_QR_R ? ret_tensor(I, a, r[1], out) : ret_tuple(I, a, 2, r, out);
}

static bool bi_cholesky(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_cholesky(t);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* lstsq(a, b, rcond=none): (x, residuals, rank, s); none is numpy 2's eps * max(m, n). */
static bool bi_lstsq(Interp *I, CallArgs *a, Value *out)
{
    double rcond;
    tl_tensor *x, *y, *r[4];
    if (!arg_double(I, a, 2, -1, &rcond) || !arg_tensor(I, a, 0, &x)) return false;
    if (!arg_tensor(I, a, 1, &y)) {
        tl_tensor_release(x);
        return false;
    }
    int rc = tl_lstsq(x, y, rcond, r);
    tl_tensor_release(x);
    tl_tensor_release(y);
    if (rc < 0) return interp_error_rt(I, a->at);
    return ret_tuple(I, a, 4, r, out);
}

/* pinv(a, rcond=1e-15, hermitian=false). */
static bool bi_pinv(Interp *I, CallArgs *a, Value *out)
{
    double rcond;
    bool herm;
    tl_tensor *t;
    if (!arg_double(I, a, 1, 1e-15, &rcond) || !arg_bool(I, a, 2, false, &herm) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_pinv(t, rcond);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* slogdet(a): (sign, logabsdet). */
static bool bi_slogdet(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!arg_tensor(I, a, 0, &t)) return false;
    int rc = tl_slogdet(t, &r[0], &r[1]);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return ret_tuple(I, a, 2, r, out);
}

/* matrix_rank(A, tol=none, hermitian=false): below two axes, 1 unless every value is 0 (numpy). */
static bool bi_matrix_rank(Interp *I, CallArgs *a, Value *out)
{
    bool herm;
    tl_tensor *t, *tol = NULL, *r = NULL;
    if (!arg_bool(I, a, 2, false, &herm) || !arg_tensor(I, a, 0, &t)) return false;
    if (arg_at(a, 1) && !arg_tensor(I, a, 1, &tol)) {
        tl_tensor_release(t);
        return false;
    }
    if (t->ndim < 2) {
        tl_tensor *any = tl_reduce(TL_RANY, t, 0, NULL, false, 0);
        if (any) {
            int64_t rank = *(bool *)tl_tensor_data(any);
            r = tl_tensor_scalar(TL_I64, &rank);
            tl_tensor_release(any);
        }
    } else {
        r = tl_matrix_rank(t, tol);
    }
    tl_tensor_release(t);
    if (tol) tl_tensor_release(tol);
    return ret_tensor(I, a, r, out);
}

/* Releases t (when not NULL) and returns r: each step of a chain replaces a tensor by a function of it. */
static tl_tensor *then(tl_tensor *t, tl_tensor *r)
{
    if (t) tl_tensor_release(t);
    return r;
}

/* x OP y for a scalar y, in dtype dt (t released). */
static tl_tensor *with_scalar(tl_binop op, tl_tensor *t, double y, tl_dtype dt)
{
    tl_tensor *s = t ? tl_tensor_from_f64(dt, y) : NULL, *r = s ? tl_binary(op, t, s, dt) : NULL;
    if (s) tl_tensor_release(s);
    return then(t, r);
}

/* numpy's vector norm of order p (HUGE_VAL for inf) along one axis of x (released). */
static tl_tensor *vector_norm(tl_tensor *x, double p, int axis, bool keepdims)
{
    int ax[1] = { axis };
    tl_dtype rdt = tl_dtype_real(x->dtype);
    if (p == 2) return then(x, tl_reduce(TL_RNORM, x, 1, ax, keepdims, 0));
    if (p == 0) {                        /* the count of nonzero values, in the real dtype */
        x = with_scalar(TL_NE, x, 0, x->dtype);
        x = x ? then(x, tl_cast(x, rdt)) : NULL;
        return x ? then(x, tl_reduce(TL_RSUM, x, 1, ax, keepdims, 0)) : NULL;
    }
    x = then(x, tl_unary(TL_ABS, x));
    if (!x) return NULL;
    if (isinf(p)) return then(x, tl_reduce(p > 0 ? TL_RMAX : TL_RMIN, x, 1, ax, keepdims, 0));
    if (p != 1) x = with_scalar(TL_POW, x, p, rdt);
    x = x ? then(x, tl_reduce(TL_RSUM, x, 1, ax, keepdims, 0)) : NULL;
    return p != 1 && x ? with_scalar(TL_POW, x, 1 / p, rdt) : x;
}

/* numpy's matrix norms of x (released) over axes (r, c); ord: a number or 'f' (Frobenius), 'n' (nuclear). */
static tl_tensor *matrix_norm(tl_tensor *x, double p, char kind, int r, int c)
{
    if (kind == 'f') return then(x, tl_reduce(TL_RNORM, x, 2, (int[]){ r < c ? r : c, r < c ? c : r }, false, 0));
    if (kind == 'n' || fabs(p) == 2) {   /* from the singular values of the (r, c) matrices */
        int perm[TL_MAXDIM], n = 0;
        for (int d = 0; d < x->ndim; d++)
            if (d != r && d != c) perm[n++] = d;
        perm[n++] = r;
        perm[n++] = c;
        tl_tensor *v = tl_view_permute(x, perm);
        tl_tensor *s = v ? tl_svd(v, false, false, NULL, NULL) : NULL;
        if (v) tl_tensor_release(v);
        tl_tensor_release(x);
        int last[1] = { s ? s->ndim - 1 : 0 };
        tl_redop op = kind == 'n' ? TL_RSUM : p > 0 ? TL_RMAX : TL_RMIN;
        return s ? then(s, tl_reduce(op, s, 1, last, false, 0)) : NULL;
    }
    /* 1: the largest column sum (sum over rows r, then the extreme over c); inf: the largest row sum */
    int sum_ax = isinf(p) ? c : r, ext_ax = isinf(p) ? r : c;
    if (ext_ax > sum_ax) ext_ax--;
    x = then(x, tl_unary(TL_ABS, x));
    x = x ? then(x, tl_reduce(TL_RSUM, x, 1, &sum_ax, false, 0)) : NULL;
    return x ? then(x, tl_reduce(p > 0 ? TL_RMAX : TL_RMIN, x, 1, &ext_ax, false, 0)) : NULL;
}

/* The order argument: none (*given false), a number, or "fro", "nuc" ("inf"/"-inf" too, since
   tl has no inf name); kind is 'p' for a number, 'f' or 'n'. */
static bool norm_order(Interp *I, CallArgs *a, bool *given, double *p, char *kind)
{
    Value *v = arg_at(a, 1);
    *given = v != NULL;
    *kind = 'p';
    *p = 2;
    if (!v) return true;
    if (v->kind != V_STR) return arg_double(I, a, 1, 2, p);
    const char *s = v->as.s->data;
    if (strcmp(s, "fro") == 0 || strcmp(s, "f") == 0) *kind = 'f';
    else if (strcmp(s, "nuc") == 0) *kind = 'n';
    else if (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0) *p = s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    else return bi_fail(I, a, ValueError, "Invalid norm order '%s'", s);
    return true;
}

/* norm(x, ord=none, axis=none, keepdims=false): numpy.linalg.norm, vector or matrix by the axes. */
bool bi_norm(Interp *I, CallArgs *a, Value *out)
{
    bool keepdims, all, given;
    int naxes, axes[TL_MAXDIM];
    double p;
    char kind;
    tl_tensor *x;
    if (!arg_bool(I, a, 3, false, &keepdims) || !norm_order(I, a, &given, &p, &kind) || !arg_tensor(I, a, 0, &x)) return false;
    if (tl_is_intlike(x->dtype)) x = then(x, tl_cast(x, TL_F64));     /* numpy: x.astype(float) */
    if (!x) return interp_error_rt(I, a->at);
    int nd = x->ndim;
    if (!arg_axes(I, a, 2, nd, &naxes, axes, &all)) return then(x, NULL), false;
    if (all && !given) return ret_tensor(I, a, then(x, tl_reduce(TL_RNORM, x, 0, NULL, keepdims, 0)), out);
    if (all && (nd == 1 || nd == 2)) {
        naxes = nd;
        axes[0] = 0;
        axes[1] = 1;
    }
    tl_tensor *r = NULL;
    if (naxes == 1) {
        if (kind != 'p') {
            tl_tensor_release(x);
            return bi_fail(I, a, ValueError, "Invalid norm order '%s' for vectors", kind == 'f' ? "fro" : "nuc");
        }
        r = vector_norm(x, p, axes[0], keepdims);
    } else if (naxes == 2) {
        if (kind == 'p' && !given) kind = 'f';
        if (kind == 'p' && fabs(p) != 1 && fabs(p) != 2 && !isinf(p)) {
            tl_tensor_release(x);
            return bi_fail(I, a, ValueError, "Invalid norm order for matrices.");
        }
        int64_t kshape[TL_MAXDIM];
        memcpy(kshape, x->shape, sizeof(int64_t) * (size_t)nd);
        kshape[axes[0]] = kshape[axes[1]] = 1;
        r = matrix_norm(x, p, kind, axes[0], axes[1]);
        if (r && keepdims) r = then(r, tl_reshape(r, nd, kshape));
    } else {
        tl_tensor_release(x);
        return bi_fail(I, a, ValueError, "Improper number of dimensions to norm.");
    }
    return ret_tensor(I, a, r, out);
}

const Builtin bi_decomp_table[] = {
    { "svd", bi_svd, "svd(a, full_matrices=true, compute_uv=true, hermitian=false)",
      "singular value decomposition (u, s, vh) with a = u @ diag(s) @ vh; s alone if compute_uv=false", 0, BF_OTHER, BT_NO },
    { "eig", bi_eig, "eig(a)", "eigenvalues and right eigenvectors (w, v) of a square matrix (complex unless all real)", EIG_VECTORS, BF_OTHER, BT_NO },
    { "eigvals", bi_eig, "eigvals(a)", "eigenvalues of a square matrix (complex unless all real)", EIG_VALUES, BF_OTHER, BT_NO },
    { "eigh", bi_eigh, "eigh(a, UPLO=\"L\")", "eigenvalues (ascending) and eigenvectors (w, v) of a Hermitian matrix", EIG_VECTORS, BF_OTHER, BT_NO },
    { "eigvalsh", bi_eigh, "eigvalsh(a, UPLO=\"L\")", "eigenvalues (ascending) of a Hermitian matrix", EIG_VALUES, BF_OTHER, BT_NO },
    { "qr", bi_qr, "qr(a, mode=\"reduced\")", "QR decomposition (q, r); mode \"complete\" for square q, \"r\" for r alone", 0, BF_OTHER, BT_NO },
    { "cholesky", bi_cholesky, "cholesky(a)", "lower-triangular L with a = L @ conj(L).T (positive definite a)", 0, BF_OTHER, BT_NO },
    { "lstsq", bi_lstsq, "lstsq(a, b, rcond=none)", "least-squares solution (x, residuals, rank, s) of a @ x = b", 0, BF_OTHER, BT_NO },
    { "pinv", bi_pinv, "pinv(a, rcond=1e-15, hermitian=false)", "Moore-Penrose pseudo-inverse (batched)", 0, BF_OTHER, BT_NO },
    { "slogdet", bi_slogdet, "slogdet(a)", "(sign, log|det|) of a square matrix, without overflow", 0, BF_OTHER, BT_NO },
    { "matrix_rank", bi_matrix_rank, "matrix_rank(A, tol=none, hermitian=false)", "number of singular values above tol", 0, BF_OTHER, BT_NO },
    { 0 },
};
