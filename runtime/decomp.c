/* decomp.c — numpy.linalg's decompositions over stacks of matrices (svd eig eigh qr cholesky lstsq pinv slogdet matrix_rank) and exact integer det */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmplx.h"
#include "lapack.h"
#include "linalg.h"
#include "ops.h"

/* One stack of matrices in its LAPACK dtype: a contiguous copy LAPACK may overwrite. */
typedef struct mstack {
    tl_tensor *t;
    tl_dtype dt;
    int64_t m, n, count;    /* rows, columns, matrices */
} mstack;

/* Fills s's dtype and sizes for a (at least 2-d); -1 with the error set. */
static int stack_init(const tl_tensor *a, tl_dtype dt, mstack *s)
{
    if (lp_check_matrix(a) < 0) return -1;
    s->dt = dt;
    s->m = a->shape[a->ndim - 2];
    s->n = a->shape[a->ndim - 1];
    return tl_shape_size(a->ndim - 2, a->shape, &s->count);
}

/* Copies a (at least 2-d) into a contiguous stack in dtype dt; -1 with the error set. */
static int stack_copy(const tl_tensor *a, tl_dtype dt, mstack *s)
{
    if (stack_init(a, dt, s) < 0) return -1;
    s->t = a->dtype == dt ? tl_copy(a) : tl_cast(a, dt);
    return s->t ? 0 : -1;
}

/* Like stack_copy, for a driver that only reads the stack: a itself when it is contiguous in dt. */
static int stack_read(const tl_tensor *a, tl_dtype dt, mstack *s)
{
    if (stack_init(a, dt, s) < 0) return -1;
    s->t = a->dtype == dt ? tl_contiguous(a) : tl_cast(a, dt);
    return s->t ? 0 : -1;
}

/* Matrix i of a contiguous stack whose matrices hold `elems` elements each. */
static char *mat_at(const tl_tensor *t, int64_t i, int64_t elems)
{
    return (char *)tl_tensor_data(t) + (size_t)(i * elems) * tl_dtype_size(t->dtype);
}

/* A new tensor of a's batch shape followed by ncore core axes. */
static tl_tensor *batch_new(tl_dtype dt, const tl_tensor *a, int ncore, int64_t c0, int64_t c1, bool zero)
{
    int64_t shape[TL_MAXDIM + 2];
    int nb = a->ndim - 2;
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)nb);
    shape[nb] = c0;
    shape[nb + 1] = c1;
    return zero ? tl_tensor_zeros(dt, nb + ncore, shape) : tl_tensor_empty(dt, nb + ncore, shape);
}

/* Sets the error for a LAPACK failure: numpy's message for the driver's failure (LAPACK
   also refuses a NaN input with a negative code, which numpy reports the same way), or
   LAPACKE's out-of-memory codes (-1010, -1011, and -1000 from lapack.c). */
static int lapack_failed(int info, const char *what)
{
    if (info <= -1000) tl_seterr(MemoryError, "out of memory");
    else tl_seterr(ValueError, "%s", what);
    return -1;
}

/* Releases each non-NULL tensor of ts[0..n). */
static void release_all(tl_tensor **ts, int n)
{
    for (int i = 0; i < n; i++)
        if (ts[i]) {
            tl_tensor_release(ts[i]);
            ts[i] = NULL;
        }
}

/* Ones on the diagonal of every (zeroed) square matrix of a contiguous stack. */
static void set_identity(tl_tensor *t, int64_t count, int64_t n)
{
    size_t es = tl_dtype_size(t->dtype);
    tl_scalar one;
    memset(&one, 0, sizeof one);
    tl_convert_run(1, &(double){ 1.0 }, TL_F64, 0, &one, t->dtype, 0);
    for (int64_t i = 0; i < count; i++)
        for (int64_t j = 0; j < n; j++) memcpy(mat_at(t, i, n * n) + (size_t)(j * n + j) * es, &one, es);
}

tl_tensor *tl_svd(const tl_tensor *a, bool full, bool uv, tl_tensor **u, tl_tensor **vh)
{
    mstack s;
    if (stack_read(a, lp_dtype(a->dtype), &s) < 0) return NULL;
    int64_t m = s.m, n = s.n, k = m < n ? m : n;
    int64_t ucols = full ? m : k, vrows = full ? n : k;
    tl_tensor *out[3] = { batch_new(tl_dtype_real(s.dt), a, 1, k, 0, false), NULL, NULL };
    if (uv) {     /* gesdd writes every element, unless there are none to compute */
        out[1] = batch_new(s.dt, a, 2, m, ucols, k == 0);
        out[2] = batch_new(s.dt, a, 2, vrows, n, k == 0);
    }
    int rc = out[0] && (!uv || (out[1] && out[2])) ? 0 : -1;
    char job = uv ? (full ? 'A' : 'S') : 'N';
    lp_work w = { 0 };
    if (rc == 0 && k > 0 && s.count > 0) {
        int info = lp_gesdd_prepare(s.dt, job, (lp_int)m, (lp_int)n, &w);
        if (info != 0) rc = lapack_failed(info, "SVD did not converge");
    }
    for (int64_t i = 0; rc == 0 && k > 0 && i < s.count; i++) {
        if (tl_check_interrupt() < 0) rc = -1;
        int info = rc ? 0 : lp_gesdd(s.dt, job, (lp_int)m, (lp_int)n, mat_at(s.t, i, m * n), mat_at(out[0], i, k),
                                     uv ? mat_at(out[1], i, m * ucols) : NULL, uv ? mat_at(out[2], i, vrows * n) : NULL, &w);
        if (info != 0) rc = lapack_failed(info, "SVD did not converge");
    }
    lp_work_free(&w);
    if (rc == 0 && uv && k == 0) {          /* no singular values: full u and vh are identities (numpy) */
        if (ucols == m) set_identity(out[1], s.count, m);
        if (vrows == n) set_identity(out[2], s.count, n);
    }
    tl_tensor_release(s.t);
    if (rc < 0) {
        release_all(out, 3);
        return NULL;
    }
    if (uv) {
        *u = out[1];
        *vh = out[2];
    }
    return out[0];
}

/* True when every imaginary part of the complex tensor w is zero. */
static bool all_real(const tl_tensor *w)
{
    int64_t n = tl_tensor_size(w);
    if (w->dtype == TL_C64) {
        const float *p = tl_tensor_data(w);
        for (int64_t i = 0; i < n; i++)
            if (p[2 * i + 1] != 0) return false;
    } else {
        const double *p = tl_tensor_data(w);
        for (int64_t i = 0; i < n; i++)
            if (p[2 * i + 1] != 0) return false;
    }
    return true;
}

/* The real part of complex t as a new tensor (t released). */
static tl_tensor *take_real(tl_tensor *t)
{
    tl_tensor *r = tl_view_real(t), *c = r ? tl_copy(r) : NULL;
    if (r) tl_tensor_release(r);
    tl_tensor_release(t);
    return c;
}

int tl_eig(const tl_tensor *a, tl_tensor **w, tl_tensor **v)
{
    mstack s;
    if (lp_check_square(a) < 0 || stack_copy(a, lp_dtype(a->dtype), &s) < 0) return -1;
    int64_t n = s.n;
    tl_dtype cdt = tl_dtype_complex(s.dt);
    tl_tensor *out[2] = { batch_new(cdt, a, 1, n, 0, false), v ? batch_new(cdt, a, 2, n, n, false) : NULL };
    int rc = out[0] && (!v || out[1]) ? 0 : -1;
    for (int64_t i = 0; rc == 0 && n > 0 && i < s.count; i++) {
        if (tl_check_interrupt() < 0) rc = -1;
        int info = rc ? 0 : lp_geev(s.dt, (lp_int)n, mat_at(s.t, i, n * n), mat_at(out[0], i, n), v ? mat_at(out[1], i, n * n) : NULL);
        if (info != 0) rc = lapack_failed(info, "Eigenvalues did not converge");
    }
    tl_tensor_release(s.t);
    if (rc == 0 && !tl_is_complex(s.dt) && all_real(out[0])) {   /* numpy: a real input with real eigenvalues stays real */
        out[0] = take_real(out[0]);
        if (v && out[0]) out[1] = take_real(out[1]);
        if (!out[0] || (v && !out[1])) rc = -1;
    }
    if (rc < 0) {
        release_all(out, 2);
        return -1;
    }
    *w = out[0];
    if (v) *v = out[1];
    return 0;
}

int tl_eigh(const tl_tensor *a, char uplo, tl_tensor **w, tl_tensor **v)
{
    mstack s;
    if (lp_check_square(a) < 0 || stack_copy(a, lp_dtype(a->dtype), &s) < 0) return -1;
    int64_t n = s.n;
    tl_tensor *ev = batch_new(tl_dtype_real(s.dt), a, 1, n, 0, false);
    int rc = ev ? 0 : -1;
    for (int64_t i = 0; rc == 0 && n > 0 && i < s.count; i++) {
        if (tl_check_interrupt() < 0) rc = -1;
        int info = rc ? 0 : lp_syevd(s.dt, v ? 'V' : 'N', uplo, (lp_int)n, mat_at(s.t, i, n * n), mat_at(ev, i, n));
        if (info != 0) rc = lapack_failed(info, "Eigenvalues did not converge");
    }
    if (rc < 0 || !v) tl_tensor_release(s.t);
    if (rc < 0) {
        if (ev) tl_tensor_release(ev);
        return -1;
    }
    *w = ev;
    if (v) *v = s.t;     /* syevd left the eigenvectors in the columns */
    return 0;
}

/* Copies the first `cols` columns of the m x n row-major matrix src into the m x ld matrix dst. */
static void copy_columns(char *dst, int64_t ld, const char *src, int64_t m, int64_t n, int64_t cols, size_t es)
{
    for (int64_t r = 0; r < m; r++) memcpy(dst + (size_t)(r * ld) * es, src + (size_t)(r * n) * es, (size_t)cols * es);
}

int tl_qr(const tl_tensor *a, tl_qr_mode mode, tl_tensor **q, tl_tensor **r)
{
    mstack s;
    if (stack_copy(a, lp_dtype(a->dtype), &s) < 0) return -1;
    int64_t m = s.m, n = s.n, k = m < n ? m : n;
    int64_t rrows = mode == TL_QR_COMPLETE ? m : k, qcols = mode == TL_QR_COMPLETE ? m : k;
    size_t es = tl_dtype_size(s.dt);
    tl_tensor *out[2] = { batch_new(s.dt, a, 2, rrows, n, true), mode != TL_QR_R ? batch_new(s.dt, a, 2, m, qcols, true) : NULL };
    char *tau = malloc(es * (size_t)(k > 0 ? k : 1));
    int rc = out[0] && (mode == TL_QR_R || out[1]) && tau ? 0 : -1;
    if (out[0] && !tau) tl_seterr(MemoryError, "out of memory");
    for (int64_t i = 0; rc == 0 && k > 0 && i < s.count; i++) {
        char *x = mat_at(s.t, i, m * n), *ri = mat_at(out[0], i, rrows * n);
        int info = tl_check_interrupt() < 0 ? -1000 : lp_geqrf(s.dt, (lp_int)m, (lp_int)n, x, tau);
        if (info != 0) {
            rc = info == -1000 ? -1 : lapack_failed(info, "QR failed");
            break;
        }
        for (int64_t row = 0; row < k; row++)         /* R: the upper triangle */
            memcpy(ri + (size_t)(row * n + row) * es, x + (size_t)(row * n + row) * es, (size_t)(n - row) * es);
        if (mode == TL_QR_R) continue;
        char *qi = mat_at(out[1], i, m * qcols);
        copy_columns(qi, qcols, x, m, n, k, es);
        info = lp_orgqr(s.dt, (lp_int)m, (lp_int)qcols, (lp_int)k, qi, tau);
        if (info != 0) rc = lapack_failed(info, "QR failed");
    }
    if (rc == 0 && k == 0 && mode == TL_QR_COMPLETE) set_identity(out[1], s.count, m);
    free(tau);
    tl_tensor_release(s.t);
    if (rc < 0) {
        release_all(out, 2);
        return -1;
    }
    *r = out[0];
    if (q) *q = out[1];
    else if (out[1]) tl_tensor_release(out[1]);
    return 0;
}

tl_tensor *tl_cholesky(const tl_tensor *a)
{
    mstack s;
    if (lp_check_square(a) < 0 || stack_copy(a, lp_dtype(a->dtype), &s) < 0) return NULL;
    int64_t n = s.n;
    size_t es = tl_dtype_size(s.dt);
    for (int64_t i = 0; i < s.count && n > 0; i++) {
        char *x = mat_at(s.t, i, n * n);
        int info = tl_check_interrupt() < 0 ? -1000 : lp_potrf(s.dt, 'L', (lp_int)n, x);
        if (info != 0) {
            if (info != -1000) lapack_failed(info, "Matrix is not positive definite");
            tl_tensor_release(s.t);
            return NULL;
        }
        for (int64_t r = 0; r + 1 < n; r++)             /* numpy zeroes the upper triangle */
            memset(x + (size_t)(r * n + r + 1) * es, 0, (size_t)(n - r - 1) * es);
    }
    return s.t;
}

/* |b[r][c]|^2 summed over rows r0..m of the row-major m x k matrix b, into res[c] (real dtype of dt). */
static void residual_sums(tl_dtype dt, const char *b, int64_t r0, int64_t m, int64_t k, void *res)
{
    for (int64_t c = 0; c < k; c++) {
        double acc = 0;
        for (int64_t r = r0; r < m; r++) {
            double re, im = 0;
            int64_t i = r * k + c;
            if (dt == TL_F32) re = ((const float *)b)[i];
            else if (dt == TL_F64) re = ((const double *)b)[i];
            else if (dt == TL_C64) re = ((const float *)b)[2 * i], im = ((const float *)b)[2 * i + 1];
            else re = ((const double *)b)[2 * i], im = ((const double *)b)[2 * i + 1];
            acc += re * re + im * im;
        }
        if (tl_dtype_real(dt) == TL_F32) ((float *)res)[c] = (float)acc;
        else ((double *)res)[c] = acc;
    }
}

int tl_lstsq(const tl_tensor *a, const tl_tensor *b, double rcond, tl_tensor *out[4])
{
    if (a->ndim != 2 || (b->ndim != 1 && b->ndim != 2)) {
        tl_seterr(ShapeError, "%d-dimensional array given. Array must be two-dimensional", a->ndim != 2 ? a->ndim : b->ndim);
        return -1;
    }
    if (lp_check_matrix(a) < 0) return -1;
    int64_t m = a->shape[0], n = a->shape[1], k = b->ndim == 2 ? b->shape[1] : 1, mn = m > n ? m : n;
    if (b->shape[0] != m) {
        tl_seterr(ShapeError, "Incompatible dimensions");
        return -1;
    }
    if (k > INT32_MAX) { tl_seterr(ShapeError, "matrix too large"); return -1; }
    tl_dtype dt = lp_dtype(tl_promote(a->dtype, b->dtype)), rdt = tl_dtype_real(dt);
    if (rcond < 0) rcond = (rdt == TL_F32 ? FLT_EPSILON : DBL_EPSILON) * (double)mn;
    mstack s;
    tl_tensor *bb = NULL, *bc = NULL;
    memset(out, 0, 4 * sizeof *out);
    if (stack_copy(a, dt, &s) < 0) return -1;
    bb = tl_tensor_zeros(dt, 2, (int64_t[]){ mn, k });          /* b, then x in its first n rows */
    bc = bb ? tl_cast(b, dt) : NULL;
    out[3] = bc ? tl_tensor_empty(rdt, 1, (int64_t[]){ m < n ? m : n }) : NULL;
    size_t es = tl_dtype_size(dt);
    lp_int rank = 0;
    int rc = out[3] ? 0 : -1;
    if (rc == 0) {
        memcpy(tl_tensor_data(bb), tl_tensor_data(bc), (size_t)(m * k) * es);
        int info = lp_gelsd(dt, (lp_int)m, (lp_int)n, (lp_int)k, tl_tensor_data(s.t), tl_tensor_data(bb), tl_tensor_data(out[3]), rcond, &rank);
        if (info != 0) rc = lapack_failed(info, "SVD did not converge in Linear Least Squares");
    }
    if (rc == 0) {
        bool resid = rank == n && m > n;
        int64_t xshape[2] = { n, k };
        tl_tensor *top = tl_view_slice(bb, 0, 0, n, 1, true, true);
        out[0] = top ? tl_reshape(top, b->ndim, xshape) : NULL;
        if (top) tl_tensor_release(top);
        out[1] = tl_tensor_empty(rdt, 1, (int64_t[]){ resid ? k : 0 });
        if (out[1] && resid) residual_sums(dt, tl_tensor_data(bb), n, m, k, tl_tensor_data(out[1]));
        int32_t r32 = rank;                      /* numpy's lstsq gives the rank as int32 */
        out[2] = tl_tensor_scalar(TL_I32, &r32);
        if (!out[0] || !out[1] || !out[2]) rc = -1;
    }
    tl_tensor_release(s.t);
    if (bb) tl_tensor_release(bb);
    if (bc) tl_tensor_release(bc);
    if (rc < 0) release_all(out, 4);
    return rc;
}

/* Element e of a contiguous matrix of dt as a complex double. */
static double complex elem_at(tl_dtype dt, const char *x, size_t e)
{
    if (dt == TL_F32) return ((const float *)x)[e];
    if (dt == TL_F64) return ((const double *)x)[e];
    if (dt == TL_C64) return CMPLX(((const float *)x)[2 * e], ((const float *)x)[2 * e + 1]);
    return CMPLX(((const double *)x)[2 * e], ((const double *)x)[2 * e + 1]);
}

/* The sign (complex phase) and log|det| of an LU factorization's n x n matrix x and pivots: per
   pivot d, a real d's own sign (so an infinite pivot still has one, as in numpy) or d / |d| (the
   direction of an infinite complex d), and log |d|. */
static void factored_diagonal(tl_dtype dt, const char *x, const lp_int *ipiv, int64_t n, double complex *ph, double *lg)
{
    *ph = 1;
    *lg = 0;
    for (int64_t j = 0; j < n; j++) {
        double complex d = elem_at(dt, x, (size_t)(j * n + j));
        double ad = cabs(d);
        if (!tl_is_complex(dt)) *ph *= creal(d) < 0 ? -1 : 1;
        else *ph *= isinf(ad) ? cexp(I * carg(d)) : d / ad;
        if (ipiv[j] != j + 1) *ph = -*ph;
        *lg += log(ad);
    }
}

/* Multiplies each row of the n x n matrix x whose largest magnitude is below 1/2 by the power
   of two that brings it into [1/2, 1) (exactly), adding the exponents to *shift; false when x
   holds a nan or an infinity. */
static bool scale_rows_up(tl_dtype dt, char *x, int64_t n, int64_t *shift)
{
    bool cplx = tl_is_complex(dt), single = dt == TL_F32 || dt == TL_C64;
    int64_t per_row = n * (cplx ? 2 : 1);
    for (int64_t r = 0; r < n; r++) {
        double big = 0;
        for (int64_t c = 0; c < per_row; c++) {
            double v = single ? ((float *)x)[r * per_row + c] : ((double *)x)[r * per_row + c];
            if (!isfinite(v)) return false;
            big = fabs(v) > big ? fabs(v) : big;
        }
        int e;
        frexp(big, &e);
        if (big == 0 || e >= 0) continue;
        for (int64_t c = 0; c < per_row; c++) {
            if (single) ((float *)x)[r * per_row + c] = ldexpf(((float *)x)[r * per_row + c], -e);
            else ((double *)x)[r * per_row + c] = ldexp(((double *)x)[r * per_row + c], -e);
        }
        *shift -= e;
    }
    return true;
}

int tl_slogdet(const tl_tensor *a, tl_tensor **sign, tl_tensor **logdet)
{
    mstack s;
    if (lp_check_square(a) < 0 || stack_copy(a, lp_dtype(a->dtype), &s) < 0) return -1;
    int64_t n = s.n;
    tl_dtype dt = s.dt, rdt = tl_dtype_real(dt);
    size_t bytes = (size_t)(n * n) * tl_dtype_size(dt);
    tl_tensor *out[2] = { batch_new(dt, a, 0, 0, 0, false), batch_new(rdt, a, 0, 0, 0, false) };
    lp_int *ipiv = malloc(sizeof *ipiv * (size_t)(n > 0 ? n : 1));
    char *keep = malloc(bytes > 0 ? bytes : 1);   /* the matrix before LAPACK overwrites it */
    int rc = out[0] && out[1] && ipiv && keep ? 0 : -1;
    if (out[1] && (!ipiv || !keep)) tl_seterr(MemoryError, "out of memory");
    for (int64_t i = 0; rc == 0 && i < s.count; i++) {
        char *x = mat_at(s.t, i, n * n);
        memcpy(keep, x, bytes);
        int info = n > 0 ? lp_getrf(dt, (lp_int)n, x, ipiv) : 0;
        if (info < 0) {
            rc = lapack_failed(info, "LU factorization failed");
            break;
        }
        double complex ph;           /* sign (complex phase) and log|det| from U's diagonal and the pivots */
        double lg;
        factored_diagonal(dt, x, ipiv, n, &ph, &lg);
        int64_t shift = 0;
        /* A pivot below 1 / the largest float: OpenBLAS scales the column under it by 1 / pivot,
           which overflows, and a nan reaches U. The same matrix with its small rows scaled up by
           powers of two has the same sign, and its log|det| is larger by shift log 2. */
        if (info == 0 && isnan(lg)) {
            memcpy(x, keep, bytes);
            if (scale_rows_up(dt, x, n, &shift) && shift > 0) {
                info = lp_getrf(dt, (lp_int)n, x, ipiv);
                factored_diagonal(dt, x, ipiv, n, &ph, &lg);
                lg -= (double)shift * M_LN2;
            }
        }
        if (info > 0) {              /* an exact zero pivot: singular */
            ph = 0;
            lg = -INFINITY;
        }
        char *so = mat_at(out[0], i, 1), *lo = mat_at(out[1], i, 1);
        if (dt == TL_F32) *(float *)so = (float)creal(ph);
        else if (dt == TL_F64) *(double *)so = creal(ph);
        else if (dt == TL_C64) ((float *)so)[0] = (float)creal(ph), ((float *)so)[1] = (float)cimag(ph);
        else ((double *)so)[0] = creal(ph), ((double *)so)[1] = cimag(ph);
        if (rdt == TL_F32) *(float *)lo = (float)lg;
        else *(double *)lo = lg;
    }
    free(keep);
    free(ipiv);
    tl_tensor_release(s.t);
    if (rc < 0) {
        release_all(out, 2);
        return -1;
    }
    *sign = out[0];
    *logdet = out[1];
    return 0;
}

/* The conjugate transpose of the last two axes (a view for real dtypes). */
static tl_tensor *adjoint(const tl_tensor *t)
{
    tl_tensor *v = tl_view_swapaxes(t, t->ndim - 2, t->ndim - 1);
    if (!v || !tl_is_complex(t->dtype)) return v;
    tl_tensor *c = tl_unary(TL_CONJ, v);
    tl_tensor_release(v);
    return c;
}

/* The largest value along the last axis of s, keeping that axis (s has at least one value there). */
static tl_tensor *max_last(const tl_tensor *s)
{
    return tl_reduce(TL_RMAX, s, 1, (int[]){ s->ndim - 1 }, true, 0);
}

tl_tensor *tl_pinv(const tl_tensor *a, double rcond)
{
    tl_tensor *u = NULL, *vh = NULL, *t[9] = { 0 };
    tl_tensor *s = tl_svd(a, false, true, &u, &vh), *r = NULL;
    if (!s) return NULL;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    tl_tensor *vt = adjoint(vh), *ut = vt ? adjoint(u) : NULL;
    if (ut && (m == 0 || n == 0)) {
        r = batch_new(u->dtype, a, 2, n, m, true);      /* no singular values: zeros, as numpy */
    } else if (ut) {
        /* singular values above rcond * the largest are inverted, the rest dropped */
        tl_dtype rdt = s->dtype;
        t[0] = max_last(s);
        t[1] = t[0] ? tl_tensor_from_f64(rdt, rcond) : NULL;
        t[2] = t[1] ? tl_binary(TL_MUL, t[0], t[1], rdt) : NULL;
        t[3] = t[2] ? tl_binary(TL_GT, s, t[2], rdt) : NULL;
        t[4] = t[3] ? tl_tensor_from_f64(rdt, 1.0) : NULL;
        t[5] = t[4] ? tl_binary(TL_DIV, t[4], s, rdt) : NULL;
        t[6] = t[5] ? tl_tensor_from_f64(rdt, 0.0) : NULL;
        t[7] = t[6] ? tl_where(t[3], t[5], t[6], rdt) : NULL;
        t[8] = t[7] ? tl_view_unsqueeze(t[7], t[7]->ndim - 1) : NULL;     /* (..., 1, k): scales vt's columns */
        tl_tensor *scaled = t[8] ? tl_binary(TL_MUL, vt, t[8], vt->dtype) : NULL;
        r = scaled ? tl_matmul(scaled, ut) : NULL;
        if (scaled) tl_tensor_release(scaled);
    }
    release_all(t, 9);
    tl_tensor *all[5] = { s, u, vh, vt, ut };
    release_all(all, 5);
    return r;
}

tl_tensor *tl_matrix_rank(const tl_tensor *a, const tl_tensor *tol)
{
    tl_tensor *s = tl_svd(a, false, false, NULL, NULL), *t[5] = { 0 }, *r = NULL;
    if (!s) return NULL;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    tl_dtype rdt = s->dtype;
    if (tol) {
        t[0] = tl_view_unsqueeze(tol, tol->ndim);    /* numpy: tol[..., newaxis] */
    } else if (s->shape[s->ndim - 1] == 0) {
        tl_seterr(ValueError, "zero-size array to reduction operation maximum which has no identity");
    } else {
        double eps = (rdt == TL_F32 ? FLT_EPSILON : DBL_EPSILON) * (double)(m > n ? m : n);
        t[1] = max_last(s);
        t[2] = t[1] ? tl_tensor_from_f64(rdt, eps) : NULL;
        t[0] = t[2] ? tl_binary(TL_MUL, t[1], t[2], rdt) : NULL;
    }
    t[3] = t[0] ? tl_binary(TL_GT, s, t[0], rdt) : NULL;
    r = t[3] ? tl_reduce(TL_RSUM, t[3], 1, (int[]){ t[3]->ndim - 1 }, false, 0) : NULL;
    release_all(t, 5);
    tl_tensor_release(s);
    return r;
}

/* The exact determinant of the n x n i64 matrix x (overwritten) by Bareiss's fraction-free
   elimination: every entry after step k is a k+1 minor of the input, so each division is
   exact; products are formed in 128 bits and a minor outside i64 is an overflow. */
static int bareiss(int64_t *x, int64_t n, int64_t *det)
{
    int64_t prev = 1, sign = 1;
    for (int64_t k = 0; k + 1 < n; k++) {
        if (x[k * n + k] == 0) {          /* swap in a row with a nonzero pivot */
            int64_t r = k + 1;
            while (r < n && x[r * n + k] == 0) r++;
            if (r == n) {
                *det = 0;
                return 0;
            }
            for (int64_t c = 0; c < n; c++) {
                int64_t tmp = x[k * n + c];
                x[k * n + c] = x[r * n + c];
                x[r * n + c] = tmp;
            }
            sign = -sign;
        }
        for (int64_t i = k + 1; i < n; i++)
            for (int64_t j = k + 1; j < n; j++) {
                __int128 p, q, v;
                bool over = __builtin_mul_overflow((__int128)x[i * n + j], (__int128)x[k * n + k], &p) ||
                            __builtin_mul_overflow((__int128)x[i * n + k], (__int128)x[k * n + j], &q) ||
                            __builtin_sub_overflow(p, q, &v);
                if (!over) v /= prev;
                if (over || v > INT64_MAX || v < INT64_MIN) {
                    tl_seterr(ValueError, "det(exact=true): the determinant (or a minor on the way to it) overflows i64");
                    return -1;
                }
                x[i * n + j] = (int64_t)v;
            }
        prev = x[k * n + k];
    }
    int64_t d = n > 0 ? x[n * n - 1] : 1;
    if (sign < 0 && d == INT64_MIN) {
        tl_seterr(ValueError, "det(exact=true): the determinant (or a minor on the way to it) overflows i64");
        return -1;
    }
    *det = sign * d;
    return 0;
}

tl_tensor *tl_det_exact(const tl_tensor *a) { return tl_det_exact_to(a, NULL); }

tl_tensor *tl_det_exact_to(const tl_tensor *a, tl_tensor *into)
{
    if (!tl_is_intlike(a->dtype)) {
        tl_seterr(TypeError, "det(exact=true) needs an integer or bool tensor, not %s", tl_dtype_name(a->dtype));
        return NULL;
    }
    if (a->dtype == TL_U64) {      /* values above i64's range cannot enter the elimination */
        tl_tensor *big = NULL, *lim = tl_tensor_from_f64(TL_U64, 0);
        if (lim) {
            *(uint64_t *)tl_tensor_data(lim) = (uint64_t)INT64_MAX;
            big = tl_binary(TL_GT, a, lim, TL_U64);
            tl_tensor_release(lim);
        }
        tl_tensor *any = big ? tl_reduce(TL_RANY, big, 0, NULL, false, 0) : NULL;
        bool over = any && *(bool *)tl_tensor_data(any);
        if (big) tl_tensor_release(big);
        if (any) tl_tensor_release(any);
        if (!any) return NULL;
        if (over) {
            tl_seterr(ValueError, "det(exact=true): an entry overflows i64");
            return NULL;
        }
    }
    mstack s;
    if (lp_check_square(a) < 0 || stack_copy(a, TL_I64, &s) < 0) return NULL;
    tl_tensor *out = tl_tensor_result(into, TL_I64, a->ndim - 2, a->shape);
    for (int64_t i = 0; out && i < s.count; i++)
        if (tl_check_interrupt() < 0 || bareiss((int64_t *)(void *)mat_at(s.t, i, s.n * s.n), s.n, (int64_t *)(void *)mat_at(out, i, 1)) < 0) {
            tl_tensor_release(out);
            out = NULL;
        }
    tl_tensor_release(s.t);
    return out;
}
