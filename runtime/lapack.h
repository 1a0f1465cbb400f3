/* lapack.h — the runtime's only door to LAPACK: one small wrapper per driver, keyed by dtype (not public API) */
#ifndef TL_LAPACK_H
#define TL_LAPACK_H

/* Private to the runtime; runtime/meson.build defines TL_RUNTIME_INTERNAL for its files. */
#ifndef TL_RUNTIME_INTERNAL
#error "lapack.h is private to tl's runtime library"
#endif

#include <stdint.h>

#include "dtype.h"
#include "tensor.h"

/* Every wrapper takes row-major matrices of dtype dt (f32, f64, c64 or c128; real
   outputs such as singular values are in dt's real dtype) and returns LAPACK's info:
   0 done, < 0 a bad argument (or no memory for the workspace), > 0 the driver's own
   failure (singular, not converged, not positive definite). Keeping every LAPACK call
   here means a change of how LAPACK is loaded touches this file (and blas.c) only. */
typedef int32_t lp_int;
/* What a wrapper returns when LAPACKE cannot be loaded (the error is set). Callers call
   tl_lapack_load (blas.h) before their first wrapper, so they never see it in practice. */
#define LP_UNAVAILABLE (-2000)

/* The dtype LAPACK computes a dtype in: bool and integers in f64, f16/bf16 in f32. */
static inline tl_dtype lp_dtype(tl_dtype d) { return tl_is_intlike(d) ? TL_F64 : tl_dtype_wide(d); }
/* 0 when a is a stack of square matrices LAPACK can index, else -1 with numpy's message set. */
int lp_check_square(const tl_tensor *a);
/* 0 when a has at least two axes and matrices LAPACK can index, else -1 with numpy's message set;
   also opens LAPACKE on first use (-1 with a FileError when it cannot be loaded). */
int lp_check_matrix(const tl_tensor *a);

/* LU with partial pivoting of the n x n matrix a (getrf); ipiv gets n 1-based pivots. */
int lp_getrf(tl_dtype dt, lp_int n, void *a, lp_int *ipiv);
/* The inverse from getrf's factors, in place (getri). */
int lp_getri(tl_dtype dt, lp_int n, void *a, const lp_int *ipiv);
/* Solves a x = b for nrhs columns of b (n x nrhs), overwriting b with x; a is only read (gesv). */
int lp_gesv(tl_dtype dt, lp_int n, lp_int nrhs, const void *a, lp_int *ipiv, void *b);
/* Scratch memory of a driver called straight in LAPACK (column-major): the column-major
   copies of the matrices and LAPACK's workspace, sized once for every matrix of a stack. */
typedef struct lp_work {
    char *mem;                  /* the one allocation everything below points into */
    void *a, *u, *vt;           /* column-major input and outputs */
    void *work, *rwork;         /* LAPACK's work (lwork elements of dt) and rwork (dt's reals) */
    lp_int *iwork;
    lp_int lwork;
} lp_work;
/* Frees w's memory (a zeroed w too). */
void lp_work_free(lp_work *w);

/* Sizes and allocates w for lp_gesdd on m x n matrices (k = min(m, n) > 0) of dt with job:
   LAPACK's workspace query, once per stack as numpy does. */
int lp_gesdd_prepare(tl_dtype dt, char job, lp_int m, lp_int n, lp_work *w);
/* SVD by divide and conquer (gesdd) of the row-major m x n matrix a, which is not modified:
   s gets k singular values; job 'A' (u m x m, vt n x n), 'S' (m x k, k x n) or 'N' (neither).
   LAPACK runs on a's column-major copy, as numpy's, so the bits are numpy's. */
int lp_gesdd(tl_dtype dt, char job, lp_int m, lp_int n, const void *a, void *s, void *u, void *vt, lp_work *w);
/* Eigenvalues w (n complex values of dt's complex dtype) and, when vr is not NULL,
   right eigenvectors (n x n complex, columns normalized) of a general matrix (geev). */
int lp_geev(tl_dtype dt, lp_int n, void *a, void *w, void *vr);
/* Eigenvalues (ascending, real) and, for job 'V', eigenvectors in a's columns of a
   symmetric/Hermitian matrix read from triangle uplo (syevd/heevd). */
int lp_syevd(tl_dtype dt, char job, char uplo, lp_int n, void *a, void *w);
/* QR (geqrf): R in a's upper triangle, the reflectors below it and in tau (min(m, n)). */
int lp_geqrf(tl_dtype dt, lp_int m, lp_int n, void *a, void *tau);
/* The m x n matrix Q of k reflectors (orgqr/ungqr); a holds them in an m x n array. */
int lp_orgqr(tl_dtype dt, lp_int m, lp_int n, lp_int k, void *a, const void *tau);
/* Cholesky factor of a Hermitian positive-definite matrix, in triangle uplo (potrf). */
int lp_potrf(tl_dtype dt, char uplo, lp_int n, void *a);
/* Least squares min |a x - b| by SVD (gelsd); b is max(m, n) x nrhs, x in its first n rows;
   s gets min(m, n) singular values, rank the effective rank for cutoff rcond. */
int lp_gelsd(tl_dtype dt, lp_int m, lp_int n, lp_int nrhs, void *a, void *b, void *s, double rcond, lp_int *rank);

#endif
