/* fft.c — numpy.fft's transforms: a mixed-radix FFT in double precision (radices 4, 2, 3, 5 and any small prime), Bluestein's algorithm for lengths with a large prime factor */
#include "cmplx.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "ops.h"

/* Why by hand: docs/linalg.md ("FFT"). The recursion is the classic decimation in time
   over the factors of n (as kissfft and FFTPACK do): n = p * m is p interleaved transforms
   of length m, combined by a radix-p butterfly with twiddles exp(-2 pi i j k / n). */

typedef double complex cplx;

#define FFT_MAXFACTORS 64
/* A prime factor above this makes the generic butterfly slow (O(n p)): Bluestein instead. */
#define FFT_MAX_DIRECT_PRIME 61

typedef struct fft_plan fft_plan;
struct fft_plan {
    int64_t n;
    int nfactors;
    int64_t factors[2 * FFT_MAXFACTORS];   /* (p, m) pairs: radix, then the remaining length */
    cplx *tw, *itw;                        /* exp(-2 pi i k / n), k < n, and their conjugates (the inverse's) */
    /* Bluestein: chirp w[k] = exp(-pi i k^2 / n), the transform of the padded conj chirp, and the plan of length m */
    cplx *chirp, *chirp_hat;
    fft_plan *sub;
    int refs;                              /* users, plus one while in the cache */
};

static void plan_free(fft_plan *p)
{
    if (!p) return;
    free(p->tw);
    free(p->itw);
    free(p->chirp);
    free(p->chirp_hat);
    plan_free(p->sub);
    free(p);
}

/* exp(-2 pi i k / n). */
static cplx twiddle(int64_t k, int64_t n)
{
    double a = -2.0 * M_PI * (double)k / (double)n;
    return cos(a) + I * sin(a);
}

/* Splits n into radices, 4 first (fastest), then 2, 3, 5, then other primes; false when a
   prime factor is above FFT_MAX_DIRECT_PRIME. */
static bool factorize(fft_plan *p, int64_t n)
{
    int k = 0;
    int64_t r = 4;
    while (n > 1) {
        while (n % r) {
            r = r == 4 ? 2 : r == 2 ? 3 : r + 2;
            if (r * r > n) r = n;
        }
        if (r > FFT_MAX_DIRECT_PRIME || k >= FFT_MAXFACTORS) return false;
        n /= r;
        p->factors[2 * k] = r;
        p->factors[2 * k + 1] = n;
        k++;
    }
    p->nfactors = k;
    return true;
}

static fft_plan *plan_new(int64_t n);
static int fft_run(const fft_plan *p, cplx *in, cplx *out, bool inverse);

/* Bluestein's chirp and the transform of its padded conjugate, for length n via a power-of-two m. */
static bool plan_bluestein(fft_plan *p, int64_t n)
{
    int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    p->chirp = malloc(sizeof(cplx) * (size_t)n);
    p->chirp_hat = calloc((size_t)m, sizeof(cplx));
    p->sub = p->chirp && p->chirp_hat ? plan_new(m) : NULL;
    if (!p->sub) return false;
    for (int64_t k = 0; k < n; k++) {
        /* k^2 mod 2n in integers keeps the angle exact for large k */
        int64_t k2 = (int64_t)(((unsigned __int128)k * (unsigned __int128)k) % (unsigned __int128)(2 * n));
        double a = -M_PI * (double)k2 / (double)n;
        p->chirp[k] = cos(a) + I * sin(a);
    }
    cplx *b = malloc(sizeof(cplx) * (size_t)m);
    if (!b) return false;
    memset(b, 0, sizeof(cplx) * (size_t)m);
    b[0] = conj(p->chirp[0]);
    for (int64_t k = 1; k < n; k++) b[k] = b[m - k] = conj(p->chirp[k]);
    bool ok = fft_run(p->sub, b, p->chirp_hat, false) == 0;
    free(b);
    return ok;
}

static fft_plan *plan_new(int64_t n)
{
    fft_plan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    bool ok;
    if (factorize(p, n)) {
        p->tw = malloc(sizeof(cplx) * (size_t)n);
        p->itw = malloc(sizeof(cplx) * (size_t)n);
        ok = p->tw && p->itw;
        for (int64_t k = 0; ok && k < n; k++) {
            p->tw[k] = twiddle(k, n);
            p->itw[k] = conj(p->tw[k]);
        }
    } else {
        ok = plan_bluestein(p, n);
    }
    if (!ok) {
        plan_free(p);
        return NULL;
    }
    return p;
}

/* x * w in real arithmetic (no C99 infinity recovery), and x itself for the first twiddle,
   which is 1: a NaN then stays in the component it came in, as in numpy's pocketfft. */
static inline cplx cmul(cplx x, cplx w)
{
    double xr = creal(x), xi = cimag(x), wr = creal(w), wi = cimag(w);
    return CMPLX(xr * wr - xi * wi, xr * wi + xi * wr);
}

static inline cplx twist(cplx x, const cplx *tw, int64_t idx)
{
    return idx == 0 ? x : cmul(x, tw[idx]);
}

/* The radix-2 butterfly over m interleaved pairs. */
static void bfly2(cplx *out, int64_t fstride, const cplx *tw, int64_t m)
{
    for (int64_t k = 0; k < m; k++) {
        cplx t = twist(out[m + k], tw, k * fstride);
        out[m + k] = out[k] - t;
        out[k] += t;
    }
}

/* The radix-4 butterfly; the inverse turns by +i where the forward turns by -i. */
static void bfly4(cplx *out, int64_t fstride, const cplx *tw, int64_t m, bool inverse)
{
    for (int64_t k = 0; k < m; k++) {
        cplx s0 = twist(out[k + m], tw, k * fstride), s1 = twist(out[k + 2 * m], tw, 2 * k * fstride),
             s2 = twist(out[k + 3 * m], tw, 3 * k * fstride);
        cplx s5 = out[k] - s1, a = out[k] + s1, s3 = s0 + s2, s4 = s0 - s2;
        cplx turned = inverse ? CMPLX(-cimag(s4), creal(s4)) : CMPLX(cimag(s4), -creal(s4));
        out[k + 2 * m] = a - s3;
        out[k] = a + s3;
        out[k + m] = s5 + turned;
        out[k + 3 * m] = s5 - turned;
    }
}

/* The radix-3 butterfly. */
static void bfly3(cplx *out, int64_t fstride, const cplx *tw, int64_t m, bool inverse)
{
    const double sin3 = inverse ? 0.86602540378443864676 : -0.86602540378443864676;   /* imag of exp(-+2 pi i / 3) */
    for (int64_t k = 0; k < m; k++) {
        cplx s1 = twist(out[k + m], tw, k * fstride), s2 = twist(out[k + 2 * m], tw, 2 * k * fstride);
        cplx s3 = s1 + s2, t = sin3 * (s1 - s2);
        cplx mid = out[k] - 0.5 * s3, it = CMPLX(-cimag(t), creal(t));
        out[k] += s3;
        out[k + m] = mid + it;
        out[k + 2 * m] = mid - it;
    }
}

/* Any radix p (up to FFT_MAX_DIRECT_PRIME): each output is a sum of p twiddled inputs. */
static void bfly_generic(cplx *out, int64_t fstride, const cplx *tw, int64_t m, int64_t p, int64_t n)
{
    cplx scratch[FFT_MAX_DIRECT_PRIME];
    for (int64_t u = 0; u < m; u++) {
        for (int64_t q = 0; q < p; q++) scratch[q] = out[u + q * m];
        for (int64_t q = 0; q < p; q++) {
            int64_t k = u + q * m, idx = 0;
            cplx acc = scratch[0];
            for (int64_t j = 1; j < p; j++) {
                idx += fstride * k;
                if (idx >= n) idx %= n;
                acc += twist(scratch[j], tw, idx);
            }
            out[k] = acc;
        }
    }
}

/* The transform of in[0], in[stride], ... (length f[0] * f[1]) into out, by the factors f. */
static void work(const fft_plan *p, cplx *out, const cplx *in, int64_t fstride, const int64_t *f, bool inverse)
{
    int64_t r = f[0], m = f[1];
    if (m == 1) {
        for (int64_t j = 0; j < r; j++) out[j] = in[j * fstride];
    } else {
        for (int64_t j = 0; j < r; j++) work(p, out + j * m, in + j * fstride, fstride * r, f + 2, inverse);
    }
    const cplx *tw = inverse ? p->itw : p->tw;
    switch (r) {
    case 2: bfly2(out, fstride, tw, m); break;
    case 3: bfly3(out, fstride, tw, m, inverse); break;
    case 4: bfly4(out, fstride, tw, m, inverse); break;
    default: bfly_generic(out, fstride, tw, m, r, p->n); break;
    }
}

/* Bluestein: the length-n transform as a convolution with a chirp, by power-of-two FFTs. */
static int bluestein(const fft_plan *p, const cplx *in, cplx *out)
{
    int64_t n = p->n, m = p->sub->n;
    cplx *a = malloc(sizeof(cplx) * (size_t)m), *b = malloc(sizeof(cplx) * (size_t)m);
    if (!a || !b) {
        free(a);
        free(b);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t k = 0; k < n; k++) a[k] = cmul(in[k], p->chirp[k]);
    memset(a + n, 0, sizeof(cplx) * (size_t)(m - n));
    fft_run(p->sub, a, b, false);                 /* power-of-two lengths never fail */
    for (int64_t k = 0; k < m; k++) b[k] = cmul(b[k], p->chirp_hat[k]);
    fft_run(p->sub, b, a, true);
    double scale = 1.0 / (double)m;
    for (int64_t k = 0; k < n; k++) out[k] = cmul(a[k], p->chirp[k]) * scale;
    free(a);
    free(b);
    return 0;
}

/* Unscaled transform of in (clobbered by an inverse Bluestein transform) into out (distinct).
   Bluestein's inverse is the conjugate of the forward transform of the conjugate. */
static int fft_run(const fft_plan *p, cplx *in, cplx *out, bool inverse)
{
    if (p->n == 1) {
        out[0] = in[0];
        return 0;
    }
    if (!p->sub) {
        work(p, out, in, 1, p->factors, inverse);
        return 0;
    }
    if (inverse)
        for (int64_t k = 0; k < p->n; k++) in[k] = conj(in[k]);
    int rc = bluestein(p, in, out);
    if (inverse)
        for (int64_t k = 0; k < p->n; k++) out[k] = conj(out[k]);
    return rc;
}

/* ---- plans are kept for the last few lengths (numpy's pocketfft caches them too) ---- */

#define FFT_CACHE_SIZE 4
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static fft_plan *cache[FFT_CACHE_SIZE];     /* most recently used first */

/* Drops one reference (under the lock). */
static void plan_unref_locked(fft_plan *p)
{
    if (--p->refs == 0) plan_free(p);
}

/* The plan for length n, one reference for the caller; NULL with the error set. */
static fft_plan *plan_get(int64_t n)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < FFT_CACHE_SIZE; i++)
        if (cache[i] && cache[i]->n == n) {
            fft_plan *p = cache[i];
            memmove(cache + 1, cache, sizeof(cache[0]) * (size_t)i);
            cache[0] = p;
            p->refs++;
            pthread_mutex_unlock(&cache_lock);
            return p;
        }
    pthread_mutex_unlock(&cache_lock);
    fft_plan *p = plan_new(n);
    if (!p) {
        tl_seterr(MemoryError, "out of memory (FFT plan of length %lld)", (long long)n);
        return NULL;
    }
    p->refs = 2;
    pthread_mutex_lock(&cache_lock);
    if (cache[FFT_CACHE_SIZE - 1]) plan_unref_locked(cache[FFT_CACHE_SIZE - 1]);
    memmove(cache + 1, cache, sizeof(cache[0]) * (FFT_CACHE_SIZE - 1));
    cache[0] = p;
    pthread_mutex_unlock(&cache_lock);
    return p;
}

static void plan_release(fft_plan *p)
{
    pthread_mutex_lock(&cache_lock);
    plan_unref_locked(p);
    pthread_mutex_unlock(&cache_lock);
}

/* ---- transforms of tensors ---------------------------------------------------- */

/* What the transform multiplies its result by: numpy's norm= for a forward or inverse transform. */
static double norm_factor(tl_fft_norm norm, bool inverse, int64_t n)
{
    if (norm == TL_FFT_ORTHO) return 1.0 / sqrt((double)n);
    if ((norm == TL_FFT_BACKWARD) == inverse) return 1.0 / (double)n;
    return 1.0;
}

/* Fills the length-n input of one line's transform from its len values (c128). */
static void load_line(tl_fft_kind kind, const cplx *src, int64_t len, int64_t n, cplx *buf)
{
    if (kind != TL_FFT_IRFFT) {
        int64_t c = len < n ? len : n;
        memcpy(buf, src, sizeof(cplx) * (size_t)c);
        memset(buf + c, 0, sizeof(cplx) * (size_t)(n - c));
        return;
    }
    /* irfft: the Hermitian spectrum from its first n/2 + 1 values (missing ones are 0); the
       imaginary parts of the 0 and n/2 terms are ignored, as pocketfft does */
    int64_t half = n / 2;
    buf[0] = creal(src[0]);
    for (int64_t k = 1; k <= half; k++) {
        cplx v = k < len ? src[k] : 0;
        if (2 * k == n) v = creal(v);
        buf[k] = v;
        if (2 * k != n) buf[n - k] = conj(v);
    }
}

tl_tensor *tl_fft(const tl_tensor *a, int64_t n, int axis, tl_fft_kind kind, tl_fft_norm norm)
{
    int ax;
    if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
    int64_t len = a->shape[ax];
    if (n < 0) n = kind == TL_FFT_IRFFT ? 2 * (len - 1) : len;
    if (n < 1) {
        tl_seterr(ValueError, "Invalid number of FFT data points (%lld) specified.", (long long)n);
        return NULL;
    }
    tl_dtype dt = a->dtype;
    bool single = dt == TL_F32 || dt == TL_C64 || tl_is_half(dt);
    bool real_out = kind == TL_FFT_IRFFT, inverse = kind == TL_FFT_IFFT || kind == TL_FFT_IRFFT;
    int64_t nout = kind == TL_FFT_RFFT ? n / 2 + 1 : n;
    tl_dtype odt = real_out ? (single ? TL_F32 : TL_F64) : (single ? TL_C64 : TL_C128);
    /* the lines along the axis, as contiguous c128 rows (rfft reads the real part, as numpy) */
    int perm[TL_MAXDIM], k = 0;
    for (int d = 0; d < a->ndim; d++)
        if (d != ax) perm[k++] = d;
    perm[k] = ax;
    tl_tensor *src = kind == TL_FFT_RFFT ? tl_view_real(a) : (tl_tensor_retain((tl_tensor *)a), (tl_tensor *)a);
    tl_tensor *moved = src ? tl_view_permute(src, perm) : NULL, *x = moved ? tl_cast(moved, TL_C128) : NULL;
    int64_t oshape[TL_MAXDIM];
    for (int d = 0; moved && d < a->ndim; d++) oshape[d] = moved->shape[d];
    oshape[a->ndim - 1] = nout;
    tl_tensor *y = x ? tl_tensor_empty(real_out ? TL_F64 : TL_C128, a->ndim, oshape) : NULL;
    fft_plan *p = y ? plan_get(n) : NULL;
    cplx *in = p ? malloc(sizeof(cplx) * (size_t)n) : NULL, *out = in ? malloc(sizeof(cplx) * (size_t)n) : NULL;
    tl_tensor *r = NULL;
    if (p && !out) tl_seterr(MemoryError, "out of memory");
    if (out) {
        int64_t rows = tl_tensor_size(y) / nout;
        double f = norm_factor(norm, inverse, n);
        const cplx *xs = tl_tensor_data(x);
        char *ys = tl_tensor_data(y);
        int rc = 0;
        for (int64_t i = 0; rc == 0 && i < rows; i++) {
            if ((i & 63) == 0 && tl_check_interrupt() < 0) rc = -1;
            load_line(kind, xs + i * len, len, n, in);
            if (rc == 0) rc = fft_run(p, in, out, inverse);
            if (real_out)
                for (int64_t j = 0; j < nout; j++) ((double *)ys)[i * nout + j] = creal(out[j]) * f;
            else
                for (int64_t j = 0; j < nout; j++) ((cplx *)ys)[i * nout + j] = out[j] * f;
        }
        if (rc == 0) r = tl_as_dtype(y, odt);
    }
    /* the transformed axis back in its place */
    if (r && ax != a->ndim - 1) {
        int back[TL_MAXDIM];
        for (int d = 0; d < a->ndim; d++) back[perm[d]] = d;
        tl_tensor *v = tl_view_permute(r, back);
        tl_tensor_release(r);
        r = v;
    }
    free(in);
    free(out);
    if (p) plan_release(p);
    tl_tensor *all[4] = { src, moved, x, y };
    for (int i = 0; i < 4; i++)
        if (all[i]) tl_tensor_release(all[i]);
    return r;
}

tl_tensor *tl_fftfreq(int64_t n, double d, bool real)
{
    if (n < 0) {
        tl_seterr(ValueError, "negative dimensions are not allowed");
        return NULL;
    }
    double nd = (double)n * d;
    if (nd == 0) {
        tl_seterr(ZeroDivisionError, "float division by zero");
        return NULL;
    }
    double val = 1.0 / nd;                       /* numpy multiplies the integers by it */
    int64_t count = real ? n / 2 + 1 : n, pos = real ? count : (n - 1) / 2 + 1;
    tl_tensor *t = tl_tensor_empty(TL_F64, 1, &count);
    if (!t) return NULL;
    double *v = tl_tensor_data(t);
    for (int64_t i = 0; i < count; i++) v[i] = (double)(i < pos ? i : i - n) * val;
    return t;
}
