/* lapack.c — every LAPACK call of the runtime, each behind a wrapper keyed by dtype (LAPACKE, row-major) */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "kernels/kern.h"
#include "lapack.h"

#define ROW LAPACK_ROW_MAJOR


int lp_check_matrix(const tl_tensor *a)
{
    if (a->ndim < 2) {
        tl_seterr(ShapeError, "%d-dimensional array given. Array must be at least two-dimensional", a->ndim);
        return -1;
    }
    if (a->shape[a->ndim - 1] > INT32_MAX || a->shape[a->ndim - 2] > INT32_MAX) {
        tl_seterr(ShapeError, "matrix too large");
        return -1;
    }
    if (tl_lapack_load() < 0) return -1;   /* every decomposition asks here first: LAPACKE is opened on first use */
    tl_blas_threads(tl_get_threads());    /* LAPACK's parallelism is its BLAS calls' */
    return 0;
}

int lp_check_square(const tl_tensor *a)
{
    if (lp_check_matrix(a) < 0) return -1;
    if (a->shape[a->ndim - 1] != a->shape[a->ndim - 2]) {
        tl_seterr(ShapeError, "Last 2 dimensions of the array must be square");
        return -1;
    }
    return 0;
}

int lp_getrf(tl_dtype dt, lp_int n, void *a, lp_int *ipiv)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgetrf(ROW, n, n, a, n, ipiv);
    case TL_F64: return tl_blas.LAPACKE_dgetrf(ROW, n, n, a, n, ipiv);
    case TL_C64: return tl_blas.LAPACKE_cgetrf(ROW, n, n, a, n, ipiv);
    default: return tl_blas.LAPACKE_zgetrf(ROW, n, n, a, n, ipiv);
    }
}

int lp_getri(tl_dtype dt, lp_int n, void *a, const lp_int *ipiv)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgetri(ROW, n, a, n, ipiv);
    case TL_F64: return tl_blas.LAPACKE_dgetri(ROW, n, a, n, ipiv);
    case TL_C64: return tl_blas.LAPACKE_cgetri(ROW, n, a, n, ipiv);
    default: return tl_blas.LAPACKE_zgetri(ROW, n, a, n, ipiv);
    }
}

int lp_gesv(tl_dtype dt, lp_int n, lp_int nrhs, void *a, lp_int *ipiv, void *b)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgesv(ROW, n, nrhs, a, n, ipiv, b, nrhs);
    case TL_F64: return tl_blas.LAPACKE_dgesv(ROW, n, nrhs, a, n, ipiv, b, nrhs);
    case TL_C64: return tl_blas.LAPACKE_cgesv(ROW, n, nrhs, a, n, ipiv, b, nrhs);
    default: return tl_blas.LAPACKE_zgesv(ROW, n, nrhs, a, n, ipiv, b, nrhs);
    }
}

int lp_gesdd(tl_dtype dt, char job, lp_int m, lp_int n, void *a, void *s, void *u, void *vt)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int k = m < n ? m : n;
    lp_int ucols = job == 'A' ? m : k;
    lp_int ldu = ucols > 0 ? ucols : 1, ldvt = n > 0 ? n : 1, lda = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgesdd(ROW, job, m, n, a, lda, s, u, ldu, vt, ldvt);
    case TL_F64: return tl_blas.LAPACKE_dgesdd(ROW, job, m, n, a, lda, s, u, ldu, vt, ldvt);
    case TL_C64: return tl_blas.LAPACKE_cgesdd(ROW, job, m, n, a, lda, s, u, ldu, vt, ldvt);
    default: return tl_blas.LAPACKE_zgesdd(ROW, job, m, n, a, lda, s, u, ldu, vt, ldvt);
    }
}

/* Real geev's (wr, wi, vr) as complex values and vectors: a complex pair's vectors are
   vr[:, j] ± i vr[:, j+1] (LAPACK's packing). T is float or double. */
#define UNPACK_REAL_EIG(T, n, wr, wi, vr, w, v)                                                   \
    do {                                                                                          \
        T *w_ = (T *)(w), *v_ = (T *)(v);                                                         \
        for (lp_int j = 0; j < (n); j++) {                                                        \
            w_[2 * j] = (wr)[j];                                                                  \
            w_[2 * j + 1] = (wi)[j];                                                              \
        }                                                                                         \
        for (lp_int j = 0; v_ && j < (n); j++) {                                                  \
            bool pair = (wi)[j] != 0 && j + 1 < (n);                                              \
            for (lp_int r = 0; r < (n); r++) {                                                    \
                T re = (vr)[r * (n) + j], im = pair ? (vr)[r * (n) + j + 1] : 0;                  \
                v_[2 * (r * (n) + j)] = re;                                                       \
                v_[2 * (r * (n) + j) + 1] = im;                                                   \
                if (pair) {                                                                       \
                    v_[2 * (r * (n) + j + 1)] = re;                                               \
                    v_[2 * (r * (n) + j + 1) + 1] = -im;                                          \
                }                                                                                 \
            }                                                                                     \
            if (pair) j++;                                                                        \
        }                                                                                         \
    } while (0)

int lp_geev(tl_dtype dt, lp_int n, void *a, void *w, void *vr)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    char jv = vr ? 'V' : 'N';
    lp_int ld = n > 0 ? n : 1;
    if (dt == TL_C64) return tl_blas.LAPACKE_cgeev(ROW, 'N', jv, n, a, ld, w, NULL, 1, vr, ld);
    if (dt == TL_C128) return tl_blas.LAPACKE_zgeev(ROW, 'N', jv, n, a, ld, w, NULL, 1, vr, ld);
    size_t es = dt == TL_F32 ? sizeof(float) : sizeof(double), nn = (size_t)n;
    char *buf = malloc(es * (2 * nn + (vr ? nn * nn : 0)) + 1);   /* wr, wi, real vr */
    if (!buf) return -1000;
    char *wr = buf, *wi = buf + es * nn, *rv = vr ? buf + 2 * es * nn : NULL;
    int info;
    if (dt == TL_F32) {
        info = tl_blas.LAPACKE_sgeev(ROW, 'N', jv, n, a, ld, (float *)wr, (float *)wi, NULL, 1, (float *)rv, ld);
        if (info == 0) UNPACK_REAL_EIG(float, n, (float *)wr, (float *)wi, (float *)rv, w, vr);
    } else {
        info = tl_blas.LAPACKE_dgeev(ROW, 'N', jv, n, a, ld, (double *)wr, (double *)wi, NULL, 1, (double *)rv, ld);
        if (info == 0) UNPACK_REAL_EIG(double, n, (double *)wr, (double *)wi, (double *)rv, w, vr);
    }
    free(buf);
    return info;
}

int lp_syevd(tl_dtype dt, char job, char uplo, lp_int n, void *a, void *w)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_ssyevd(ROW, job, uplo, n, a, ld, w);
    case TL_F64: return tl_blas.LAPACKE_dsyevd(ROW, job, uplo, n, a, ld, w);
    case TL_C64: return tl_blas.LAPACKE_cheevd(ROW, job, uplo, n, a, ld, w);
    default: return tl_blas.LAPACKE_zheevd(ROW, job, uplo, n, a, ld, w);
    }
}

int lp_geqrf(tl_dtype dt, lp_int m, lp_int n, void *a, void *tau)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgeqrf(ROW, m, n, a, ld, tau);
    case TL_F64: return tl_blas.LAPACKE_dgeqrf(ROW, m, n, a, ld, tau);
    case TL_C64: return tl_blas.LAPACKE_cgeqrf(ROW, m, n, a, ld, tau);
    default: return tl_blas.LAPACKE_zgeqrf(ROW, m, n, a, ld, tau);
    }
}

int lp_orgqr(tl_dtype dt, lp_int m, lp_int n, lp_int k, void *a, const void *tau)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sorgqr(ROW, m, n, k, a, ld, tau);
    case TL_F64: return tl_blas.LAPACKE_dorgqr(ROW, m, n, k, a, ld, tau);
    case TL_C64: return tl_blas.LAPACKE_cungqr(ROW, m, n, k, a, ld, tau);
    default: return tl_blas.LAPACKE_zungqr(ROW, m, n, k, a, ld, tau);
    }
}

int lp_potrf(tl_dtype dt, char uplo, lp_int n, void *a)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_spotrf(ROW, uplo, n, a, ld);
    case TL_F64: return tl_blas.LAPACKE_dpotrf(ROW, uplo, n, a, ld);
    case TL_C64: return tl_blas.LAPACKE_cpotrf(ROW, uplo, n, a, ld);
    default: return tl_blas.LAPACKE_zpotrf(ROW, uplo, n, a, ld);
    }
}

int lp_gelsd(tl_dtype dt, lp_int m, lp_int n, lp_int nrhs, void *a, void *b, void *s, double rcond, lp_int *rank)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_int lda = n > 0 ? n : 1, ldb = nrhs > 0 ? nrhs : 1;
    switch (dt) {
    case TL_F32: return tl_blas.LAPACKE_sgelsd(ROW, m, n, nrhs, a, lda, b, ldb, s, (float)rcond, rank);
    case TL_F64: return tl_blas.LAPACKE_dgelsd(ROW, m, n, nrhs, a, lda, b, ldb, s, rcond, rank);
    case TL_C64: return tl_blas.LAPACKE_cgelsd(ROW, m, n, nrhs, a, lda, b, ldb, s, (float)rcond, rank);
    default: return tl_blas.LAPACKE_zgelsd(ROW, m, n, nrhs, a, lda, b, ldb, s, rcond, rank);
    }
}
