/* lapack.c — every LAPACK call of the runtime, each behind a wrapper keyed by dtype (LAPACKE row-major, or LAPACK itself) */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "kernels/kern.h"
#include "lapack.h"

#define ROW LAPACK_ROW_MAJOR

/* A 16-byte element (a c128 value) for the tile loops. */
typedef struct lp_pair64 { double re, im; } lp_pair64;

/* dst = src transposed: src rows x cols row-major, dst cols x rows row-major (so dst is src
   column-major, LAPACK's layout, and back). T is the element type. */
#define DEF_TRANSPOSE(N, T)                                                                          \
    static void transpose_##N(T *restrict dst, const T *restrict src, int64_t rows, int64_t cols)   \
    {                                                                                                \
        for (int64_t r0 = 0; r0 < rows; r0 += LP_TILE)                                              \
            for (int64_t c0 = 0; c0 < cols; c0 += LP_TILE) {                                        \
                int64_t r1 = r0 + LP_TILE < rows ? r0 + LP_TILE : rows;                              \
                int64_t c1 = c0 + LP_TILE < cols ? c0 + LP_TILE : cols;                              \
                for (int64_t c = c0; c < c1; c++)                                                   \
                    for (int64_t r = r0; r < r1; r++) dst[c * rows + r] = src[r * cols + c];         \
            }                                                                                        \
    }
/* Square tiles whose lines (read and written) all stay in L1 while a tile is copied. */
#define LP_TILE 32
DEF_TRANSPOSE(4, uint32_t)
DEF_TRANSPOSE(8, uint64_t)
DEF_TRANSPOSE(16, lp_pair64)
#undef DEF_TRANSPOSE

/* Transposes a rows x cols matrix of es-byte elements (4, 8 or 16) from src into dst. */
static void lp_transpose(void *dst, const void *src, int64_t rows, int64_t cols, size_t es)
{
    if (es == 4) transpose_4(dst, src, rows, cols);
    else if (es == 8) transpose_8(dst, src, rows, cols);
    else transpose_16(dst, src, rows, cols);
}

void lp_work_free(lp_work *w)
{
    free(w->mem);
    memset(w, 0, sizeof *w);
}

/* Adds a region of count elements of es bytes to *total (64-byte aligned); false on overflow. */
static bool add_region(size_t *total, size_t *at, int64_t count, size_t es)
{
    size_t bytes;
    if (count < 0 || __builtin_mul_overflow((size_t)count, es, &bytes) ||
        __builtin_add_overflow(*total, (bytes + 63) / 64 * 64, total))
        return false;
    *at = *total - (bytes + 63) / 64 * 64;
    return true;
}

/* Allocates w's regions: the column-major a, u, vt, and LAPACK's work, rwork (reals) and iwork. */
static int lp_work_alloc(lp_work *w, size_t es, size_t res, int64_t na, int64_t nu, int64_t nvt, int64_t lrwork,
                         int64_t liwork)
{
    size_t total = 0, at[6];
    if (!add_region(&total, &at[0], na, es) || !add_region(&total, &at[1], nu, es) ||
        !add_region(&total, &at[2], nvt, es) || !add_region(&total, &at[3], w->lwork, es) ||
        !add_region(&total, &at[4], lrwork, res) || !add_region(&total, &at[5], liwork, sizeof(lp_int)))
        return -1000;
    w->mem = malloc(total ? total : 1);
    if (!w->mem) return -1000;
    w->a = w->mem + at[0];
    w->u = w->mem + at[1];
    w->vt = w->mem + at[2];
    w->work = w->mem + at[3];
    w->rwork = w->mem + at[4];
    w->iwork = (lp_int *)(w->mem + at[5]);
    return 0;
}

/* The workspace size a query left in work[0] (a complex one's real part), or -1 when it is
   not a size LAPACK can take. */
static lp_int queried_size(tl_dtype dt, const double *query)
{
    double best = dt == TL_F32 || dt == TL_C64 ? (double)*(const float *)query : query[0];
    return best < 1 ? 1 : best <= INT32_MAX ? (lp_int)best : -1;
}

/* Allocates w with w->lwork elements of work and the n x n matrix a copied column-major
   into w->a; 0, or -1000 out of memory. */
static int square_in(lp_work *w, tl_dtype dt, lp_int n, const void *a, int64_t lrwork, int64_t liwork)
{
    size_t es = tl_dtype_size(dt);
    if (w->lwork < 0 || lrwork < 0 || liwork < 0 ||
        lp_work_alloc(w, es, tl_is_complex(dt) ? es / 2 : es, (int64_t)n * n, 0, 0, lrwork, liwork) != 0)
        return -1000;
    lp_transpose(w->a, a, n, n, es);
    return 0;
}

/* Copies w->a back into the row-major a and frees w; returns info. */
static int square_out(lp_work *w, tl_dtype dt, lp_int n, void *a, int info)
{
    lp_transpose(a, w->a, n, n, tl_dtype_size(dt));
    lp_work_free(w);
    return info;
}



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
    if (tl_blas_reserve(1) < 0) return -1; /* under a memory limit: room for this thread's BLAS buffer */
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
    lp_work w = { 0 };
    if (square_in(&w, dt, n, a, 0, 0) != 0) return -1000;
    lp_int info = 0, ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: tl_blas.sgetrf_(&n, &n, w.a, &ld, ipiv, &info); break;
    case TL_F64: tl_blas.dgetrf_(&n, &n, w.a, &ld, ipiv, &info); break;
    case TL_C64: tl_blas.cgetrf_(&n, &n, w.a, &ld, ipiv, &info); break;
    default: tl_blas.zgetrf_(&n, &n, w.a, &ld, ipiv, &info);
    }
    return square_out(&w, dt, n, a, info);
}

/* Calls dt's getri on the column-major a (lwork -1: the query). */
static lp_int call_getri(tl_dtype dt, lp_int n, void *a, const lp_int *ipiv, void *work, lp_int lwork)
{
    lp_int info = 0, ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: tl_blas.sgetri_(&n, a, &ld, ipiv, work, &lwork, &info); break;
    case TL_F64: tl_blas.dgetri_(&n, a, &ld, ipiv, work, &lwork, &info); break;
    case TL_C64: tl_blas.cgetri_(&n, a, &ld, ipiv, work, &lwork, &info); break;
    default: tl_blas.zgetri_(&n, a, &ld, ipiv, work, &lwork, &info);
    }
    return info;
}

int lp_getri(tl_dtype dt, lp_int n, void *a, const lp_int *ipiv)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    double query[2] = { 0, 0 };
    lp_int info = call_getri(dt, n, query, ipiv, query, -1);
    if (info != 0) return info;
    lp_work w = { .lwork = queried_size(dt, query) };
    if (square_in(&w, dt, n, a, 0, 0) != 0) return -1000;
    return square_out(&w, dt, n, a, call_getri(dt, n, w.a, ipiv, w.work, w.lwork));
}

int lp_gesv(tl_dtype dt, lp_int n, lp_int nrhs, const void *a, lp_int *ipiv, void *b)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    lp_work w = { 0 };
    size_t es = tl_dtype_size(dt);
    if (lp_work_alloc(&w, es, es, (int64_t)n * n, (int64_t)n * nrhs, 0, 0, 0) != 0) return -1000;
    lp_int info = 0, ld = n > 0 ? n : 1;
    lp_transpose(w.a, a, n, n, es);
    lp_transpose(w.u, b, n, nrhs, es);
    switch (dt) {
    case TL_F32: tl_blas.sgesv_(&n, &nrhs, w.a, &ld, ipiv, w.u, &ld, &info); break;
    case TL_F64: tl_blas.dgesv_(&n, &nrhs, w.a, &ld, ipiv, w.u, &ld, &info); break;
    case TL_C64: tl_blas.cgesv_(&n, &nrhs, w.a, &ld, ipiv, w.u, &ld, &info); break;
    default: tl_blas.zgesv_(&n, &nrhs, w.a, &ld, ipiv, w.u, &ld, &info);
    }
    lp_transpose(b, w.u, nrhs, n, es);     /* the factors stay in w: a is only read */
    lp_work_free(&w);
    return info;
}

/* Calls dt's gesdd (column-major, leading dimensions m for a and u, vtrows for vt). */
static int call_gesdd(tl_dtype dt, char job, lp_int m, lp_int n, void *a, void *s, void *u, void *vt, lp_int vtrows,
                      void *work, lp_int lwork, void *rwork, lp_int *iwork)
{
    lp_int info = 0, lda = m > 0 ? m : 1, ldvt = vtrows > 0 ? vtrows : 1;
    switch (dt) {
    case TL_F32: tl_blas.sgesdd_(&job, &m, &n, a, &lda, s, u, &lda, vt, &ldvt, work, &lwork, iwork, &info, 1); break;
    case TL_F64: tl_blas.dgesdd_(&job, &m, &n, a, &lda, s, u, &lda, vt, &ldvt, work, &lwork, iwork, &info, 1); break;
    case TL_C64:
        tl_blas.cgesdd_(&job, &m, &n, a, &lda, s, u, &lda, vt, &ldvt, work, &lwork, rwork, iwork, &info, 1);
        break;
    default: tl_blas.zgesdd_(&job, &m, &n, a, &lda, s, u, &lda, vt, &ldvt, work, &lwork, rwork, iwork, &info, 1);
    }
    return info;
}

/* The rows of gesdd's vt and the columns of its u for job. */
static lp_int vt_rows(char job, lp_int m, lp_int n) { return job == 'A' ? n : job == 'S' ? (m < n ? m : n) : 1; }
static lp_int u_cols(char job, lp_int m, lp_int n) { return job == 'A' ? m : job == 'S' ? (m < n ? m : n) : 1; }

int lp_gesdd_prepare(tl_dtype dt, char job, lp_int m, lp_int n, lp_work *w)
{
    memset(w, 0, sizeof *w);
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    int64_t k = m < n ? m : n, mx = m < n ? n : m;
    double query[2] = { 0, 0 };     /* gesdd's best lwork, in work[0] (a complex one's real part) */
    lp_int iw = 0;
    int info = call_gesdd(dt, job, m, n, query, query, query, query, vt_rows(job, m, n), query, -1, query, &iw);
    if (info != 0) return info;
    w->lwork = queried_size(dt, query);
    if (w->lwork < 0) return -1000;
    /* rwork: LAPACKE's sizes for cgesdd/zgesdd (LAPACK's documented minimum). */
    int64_t lrwork = !tl_is_complex(dt) ? 0 : job == 'N' ? 7 * k : 5 * k * k + 5 * k > 2 * mx * k + 2 * k * k + k
                                                                     ? 5 * k * k + 5 * k : 2 * mx * k + 2 * k * k + k;
    int64_t nu = job == 'N' ? 0 : (int64_t)m * u_cols(job, m, n), nvt = job == 'N' ? 0 : (int64_t)vt_rows(job, m, n) * n;
    size_t es = tl_dtype_size(dt);
    return lp_work_alloc(w, es, tl_is_complex(dt) ? es / 2 : es, (int64_t)m * n, nu, nvt, lrwork, 8 * k);
}

int lp_gesdd(tl_dtype dt, char job, lp_int m, lp_int n, const void *a, void *s, void *u, void *vt, lp_work *w)
{
    size_t es = tl_dtype_size(dt);
    lp_int ucols = u_cols(job, m, n), vrows = vt_rows(job, m, n);
    lp_transpose(w->a, a, m, n, es);
    int info = call_gesdd(dt, job, m, n, w->a, s, w->u, w->vt, vrows, w->work, w->lwork, w->rwork, w->iwork);
    if (info != 0 || job == 'N') return info;
    lp_transpose(u, w->u, ucols, m, es);     /* u column-major is ucols x m row-major */
    lp_transpose(vt, w->vt, n, vrows, es);
    return 0;
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

/* Calls dt's syevd/heevd on the column-major a (lwork -1: the query, sizes in work[0],
   rwork[0] and iwork[0]). */
static lp_int call_syevd(tl_dtype dt, char job, char uplo, lp_int n, void *a, void *w, void *work, lp_int lwork,
                         void *rwork, lp_int lrwork, lp_int *iwork, lp_int liwork)
{
    lp_int info = 0, ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: tl_blas.ssyevd_(&job, &uplo, &n, a, &ld, w, work, &lwork, iwork, &liwork, &info, 1, 1); break;
    case TL_F64: tl_blas.dsyevd_(&job, &uplo, &n, a, &ld, w, work, &lwork, iwork, &liwork, &info, 1, 1); break;
    case TL_C64:
        tl_blas.cheevd_(&job, &uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
        break;
    default: tl_blas.zheevd_(&job, &uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
    }
    return info;
}

int lp_syevd(tl_dtype dt, char job, char uplo, lp_int n, void *a, void *w)
{
    if (tl_lapack_load() < 0) return LP_UNAVAILABLE;
    double query[2] = { 0, 0 }, rquery[2] = { 0, 0 };
    lp_int iquery = 0;
    lp_int info = call_syevd(dt, job, uplo, n, query, query, query, -1, rquery, -1, &iquery, -1);
    if (info != 0) return info;
    bool cplx = tl_is_complex(dt);
    lp_int lrwork = cplx ? queried_size(dt == TL_C64 ? TL_F32 : TL_F64, rquery) : 0;
    lp_int liwork = iquery > 0 ? iquery : 1;
    lp_work wk = { .lwork = queried_size(dt, query) };
    if (square_in(&wk, dt, n, a, lrwork, iquery < 0 ? -1 : liwork) != 0) return -1000;
    info = call_syevd(dt, job, uplo, n, wk.a, w, wk.work, wk.lwork, wk.rwork, cplx ? lrwork : 1, wk.iwork, liwork);
    return square_out(&wk, dt, n, a, info);
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
    lp_work w = { 0 };
    if (square_in(&w, dt, n, a, 0, 0) != 0) return -1000;
    lp_int info = 0, ld = n > 0 ? n : 1;
    switch (dt) {
    case TL_F32: tl_blas.spotrf_(&uplo, &n, w.a, &ld, &info, 1); break;
    case TL_F64: tl_blas.dpotrf_(&uplo, &n, w.a, &ld, &info, 1); break;
    case TL_C64: tl_blas.cpotrf_(&uplo, &n, w.a, &ld, &info, 1); break;
    default: tl_blas.zpotrf_(&uplo, &n, w.a, &ld, &info, 1);
    }
    return square_out(&w, dt, n, a, info);
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
