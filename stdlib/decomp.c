/* decomp.c — numpy.linalg's decompositions: svd eig eigvals eigh eigvalsh qr cholesky lstsq pinv slogdet matrix_rank */
#include <string.h>

#include "builtins.h"
#include "linalg.h"

/* The one tensor argument of fname. */
static bool one_tensor(Interp *I, CallArgs *a, const char *fname, int maxpos, const char *const *kws, tl_tensor **t)
{
    return args_check(I, a, fname, 1, maxpos, kws) && arg_tensor(I, a, fname, 0, NULL, t);
}

/* svd(a, full_matrices=true, compute_uv=true, hermitian=false): (u, s, vh), or s alone. */
static bool bi_svd(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "full_matrices", "compute_uv", "hermitian", NULL };
    bool full, uv, herm;
    tl_tensor *t;
    if (!args_check(I, a, "svd", 1, 4, kws) || !arg_bool(I, a, "svd", 1, "full_matrices", true, &full) ||
        !arg_bool(I, a, "svd", 2, "compute_uv", true, &uv) || !arg_bool(I, a, "svd", 3, "hermitian", false, &herm) ||
        !arg_tensor(I, a, "svd", 0, NULL, &t))
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
    const char *fname = a->self->name;
    bool vec = a->self->tag == EIG_VECTORS;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!one_tensor(I, a, fname, 1, NULL, &t)) return false;
    int rc = tl_eig(t, &r[0], vec ? &r[1] : NULL);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return vec ? ret_tuple(I, a, 2, r, out) : ret_tensor(I, a, r[0], out);
}

/* eigh(a, UPLO="L") -> (w, v) and eigvalsh(a, UPLO="L") -> w. */
static bool bi_eigh(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "UPLO", NULL };
    const char *fname = a->self->name, *uplo;
    bool vec = a->self->tag == EIG_VECTORS;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!args_check(I, a, fname, 1, 2, kws) || !arg_string(I, a, fname, 1, "UPLO", "L", &uplo)) return false;
    if (strcmp(uplo, "L") != 0 && strcmp(uplo, "U") != 0)
        return interp_error(I, a->at, "%s(): UPLO argument must be 'L' or 'U'", fname);
    if (!arg_tensor(I, a, fname, 0, NULL, &t)) return false;
    int rc = tl_eigh(t, uplo[0], &r[0], vec ? &r[1] : NULL);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return vec ? ret_tuple(I, a, 2, r, out) : ret_tensor(I, a, r[0], out);
}

/* qr(a, mode="reduced"): (q, r) for "reduced" and "complete", r alone for "r". */
static bool bi_qr(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "mode", NULL };
    const char *mode;
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!args_check(I, a, "qr", 1, 2, kws) || !arg_string(I, a, "qr", 1, "mode", "reduced", &mode)) return false;
    tl_qr_mode m;
    if (strcmp(mode, "reduced") == 0) m = TL_QR_REDUCED;
    else if (strcmp(mode, "complete") == 0) m = TL_QR_COMPLETE;
    else if (strcmp(mode, "r") == 0) m = TL_QR_R;
    else return interp_error(I, a->at, "qr(): Unrecognized mode '%s' (\"reduced\", \"complete\" or \"r\")", mode);
    if (!arg_tensor(I, a, "qr", 0, NULL, &t)) return false;
    int rc = tl_qr(t, m, m == TL_QR_R ? NULL : &r[0], &r[1]);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return m == TL_QR_R ? ret_tensor(I, a, r[1], out) : ret_tuple(I, a, 2, r, out);
}

static bool bi_cholesky(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    if (!one_tensor(I, a, "cholesky", 1, NULL, &t)) return false;
    tl_tensor *r = tl_cholesky(t);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* lstsq(a, b, rcond=none): (x, residuals, rank, s); none is numpy 2's eps * max(m, n). */
static bool bi_lstsq(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "rcond", NULL };
    double rcond;
    tl_tensor *x, *y, *r[4];
    if (!args_check(I, a, "lstsq", 2, 3, kws) || !arg_double(I, a, "lstsq", 2, "rcond", -1, &rcond) ||
        !arg_tensor(I, a, "lstsq", 0, NULL, &x))
        return false;
    if (!arg_tensor(I, a, "lstsq", 1, NULL, &y)) {
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
    static const char *const kws[] = { "rcond", "hermitian", NULL };
    double rcond;
    bool herm;
    tl_tensor *t;
    if (!args_check(I, a, "pinv", 1, 3, kws) || !arg_double(I, a, "pinv", 1, "rcond", 1e-15, &rcond) ||
        !arg_bool(I, a, "pinv", 2, "hermitian", false, &herm) || !arg_tensor(I, a, "pinv", 0, NULL, &t))
        return false;
    tl_tensor *r = tl_pinv(t, rcond);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* slogdet(a): (sign, logabsdet). */
static bool bi_slogdet(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t, *r[2] = { NULL, NULL };
    if (!one_tensor(I, a, "slogdet", 1, NULL, &t)) return false;
    int rc = tl_slogdet(t, &r[0], &r[1]);
    tl_tensor_release(t);
    if (rc < 0) return interp_error_rt(I, a->at);
    return ret_tuple(I, a, 2, r, out);
}

/* matrix_rank(A, tol=none, hermitian=false): below two axes, 1 unless every value is 0 (numpy). */
static bool bi_matrix_rank(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "tol", "hermitian", NULL };
    bool herm;
    tl_tensor *t, *tol = NULL, *r = NULL;
    if (!args_check(I, a, "matrix_rank", 1, 3, kws) || !arg_bool(I, a, "matrix_rank", 2, "hermitian", false, &herm) ||
        !arg_tensor(I, a, "matrix_rank", 0, NULL, &t))
        return false;
    if (arg_find(a, 1, "tol") && !arg_tensor(I, a, "matrix_rank", 1, "tol", &tol)) {
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

const Builtin bi_decomp_table[] = {
    { "svd", bi_svd, "svd(a, full_matrices=true, compute_uv=true, hermitian=false)",
      "singular value decomposition (u, s, vh) with a = u @ diag(s) @ vh; s alone if compute_uv=false", 0 },
    { "eig", bi_eig, "eig(a)", "eigenvalues and right eigenvectors (w, v) of a square matrix (complex unless all real)", EIG_VECTORS },
    { "eigvals", bi_eig, "eigvals(a)", "eigenvalues of a square matrix (complex unless all real)", EIG_VALUES },
    { "eigh", bi_eigh, "eigh(a, UPLO=\"L\")", "eigenvalues (ascending) and eigenvectors (w, v) of a Hermitian matrix", EIG_VECTORS },
    { "eigvalsh", bi_eigh, "eigvalsh(a, UPLO=\"L\")", "eigenvalues (ascending) of a Hermitian matrix", EIG_VALUES },
    { "qr", bi_qr, "qr(a, mode=\"reduced\")", "QR decomposition (q, r); mode \"complete\" for square q, \"r\" for r alone", 0 },
    { "cholesky", bi_cholesky, "cholesky(a)", "lower-triangular L with a = L @ conj(L).T (positive definite a)", 0 },
    { "lstsq", bi_lstsq, "lstsq(a, b, rcond=none)", "least-squares solution (x, residuals, rank, s) of a @ x = b", 0 },
    { "pinv", bi_pinv, "pinv(a, rcond=1e-15, hermitian=false)", "Moore-Penrose pseudo-inverse (batched)", 0 },
    { "slogdet", bi_slogdet, "slogdet(a)", "(sign, log|det|) of a square matrix, without overflow", 0 },
    { "matrix_rank", bi_matrix_rank, "matrix_rank(A, tol=none, hermitian=false)", "number of singular values above tol", 0 },
    { NULL, NULL, NULL, NULL, 0 },
};
