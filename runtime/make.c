/* make.c — making tensors: full, arange, linspace, eye (numpy's formulas, bit for bit) */
#include <math.h>
#include <string.h>

#include "tensor.h"

tl_tensor *tl_full(tl_dtype dtype, int ndim, const int64_t *shape, const void *value)
{
    tl_tensor *t = tl_tensor_empty(dtype, ndim, shape);
    if (!t) return NULL;
    size_t isz = tl_dtype_size(dtype), total = (size_t)tl_tensor_size(t) * isz;
    char *p = tl_tensor_data(t);
    if (total == 0) return t;
    memcpy(p, value, isz);
    /* Doubling copies: log2(n) memcpy calls of growing size. */
    for (size_t done = isz; done < total;) {
        size_t n = done < total - done ? done : total - done;
        memcpy(p + done, p, n);
        done += n;
    }
    return t;
}

/* numpy's length rule: ceil((stop - start) / step), at least 0. */
static int arange_length(double start, double stop, double step, int64_t *out)
{
    if (step == 0) {
        tl_seterr(ValueError, "arange step cannot be zero");
        return -1;
    }
    double len = ceil((stop - start) / step);
    if (isnan(len)) {
        tl_seterr(ValueError, "arange: cannot compute length");
        return -1;
    }
    if (len >= 9.2e18) {
        tl_seterr(ValueError, "arange: maximum allowed size exceeded");
        return -1;
    }
    *out = len > 0 ? (int64_t)len : 0;
    return 0;
}

/* Stores element i of an integer arange computed in 64-bit wrapping arithmetic. */
static void put_wrapped(char *p, tl_dtype dt, uint64_t v)
{
    tl_scalar_convert(p, dt, &v, TL_U64);
}

/* With x[0] and x[1] written, fills x[i] = x0 + i*(x1 - x0) in the dtype's own arithmetic
   (f16/bf16 via f32), as numpy does. */
static void arange_continue(char *p, tl_dtype dt, int64_t n)
{
    size_t isz = tl_dtype_size(dt);
    if (n <= 2) return;
    switch (tl_dtype_kind(dt)) {
    case TL_KIND_FLOAT:
        if (dt == TL_F64) {
            double *x = (double *)p, d = x[1] - x[0];
            for (int64_t i = 2; i < n; i++) x[i] = x[0] + (double)i * d;
        } else if (dt == TL_F32) {
            float *x = (float *)p, d = x[1] - x[0];
            for (int64_t i = 2; i < n; i++) x[i] = x[0] + (float)i * d;
        } else {
            float x0 = (float)tl_scalar_to_f64(p, dt), d = (float)tl_scalar_to_f64(p + isz, dt) - x0;
            for (int64_t i = 2; i < n; i++) {
                float v = x0 + (float)i * d;
                tl_scalar_convert(p + i * (int64_t)isz, dt, &v, TL_F32);
            }
        }
        break;
    case TL_KIND_COMPLEX:   /* imaginary parts are 0: fill the real parts */
        if (dt == TL_C128) {
            double *x = (double *)p, d = x[2] - x[0];
            for (int64_t i = 2; i < n; i++) x[2 * i] = x[0] + (double)i * d, x[2 * i + 1] = 0;
        } else {
            float *x = (float *)p, d = x[2] - x[0];
            for (int64_t i = 2; i < n; i++) x[2 * i] = x[0] + (float)i * d, x[2 * i + 1] = 0;
        }
        break;
    default: {
        uint64_t x0 = tl_scalar_to_u64(p, dt), d = tl_scalar_to_u64(p + isz, dt) - x0;
        if (dt == TL_I64) {   /* the usual integer dtypes without a conversion call per element */
            uint64_t *x = (uint64_t *)p;
            for (int64_t i = 2; i < n; i++) x[i] = x0 + (uint64_t)i * d;
        } else if (dt == TL_I32) {
            uint32_t *x = (uint32_t *)p;
            for (int64_t i = 2; i < n; i++) x[i] = (uint32_t)(x0 + (uint64_t)i * d);
        } else {
            for (int64_t i = 2; i < n; i++) put_wrapped(p + i * (int64_t)isz, dt, x0 + (uint64_t)i * d);
        }
        break;
    }
    }
}

/* An empty arange of length n, or NULL (bool holds at most two steps). */
static tl_tensor *arange_empty(tl_dtype dtype, int64_t n)
{
    if (dtype == TL_BOOL && n > 2) {
        tl_seterr(ValueError, "arange() is only supported for booleans when the result has at most length 2");
        return NULL;
    }
    return tl_tensor_empty(dtype, 1, &n);
}

tl_tensor *tl_arange(double start, double stop, double step, tl_dtype dtype)
{
    int64_t n;
    if (arange_length(start, stop, step, &n) < 0) return NULL;
    tl_tensor *t = arange_empty(dtype, n);
    if (!t) return NULL;
    char *p = tl_tensor_data(t);   /* numpy writes start and start+step in the dtype first */
    double first = start, second = start + step;
    if (n >= 1) tl_scalar_convert(p, dtype, &first, TL_F64);
    if (n >= 2) tl_scalar_convert(p + tl_dtype_size(dtype), dtype, &second, TL_F64);
    arange_continue(p, dtype, n);
    return t;
}

/* Integer arguments: the length and the first two values are exact, so endpoints beyond 2**53
   are kept (numpy does the same with Python ints); a float dtype rounds them as numpy does. */
tl_tensor *tl_arange_int(int64_t start, int64_t stop, int64_t step, tl_dtype dtype)
{
    if (step == 0) {
        tl_seterr(ValueError, "arange step cannot be zero");
        return NULL;
    }
    __int128 delta = (__int128)stop - start, len = delta / step;
    if (len * step != delta && (delta > 0) == (step > 0)) len += 1;   /* the ceiling of a positive quotient */
    if (len > INT64_MAX / 2) {
        tl_seterr(ValueError, "arange: maximum allowed size exceeded");
        return NULL;
    }
    int64_t n = len > 0 ? (int64_t)len : 0;
    tl_tensor *t = arange_empty(dtype, n);
    if (!t) return NULL;
    char *p = tl_tensor_data(t);
    __int128 second = (__int128)start + step;
    if (tl_dtype_kind(dtype) == TL_KIND_FLOAT || tl_dtype_kind(dtype) == TL_KIND_COMPLEX) {
        double f0 = (double)start, f1 = (double)second;
        if (n >= 1) tl_scalar_convert(p, dtype, &f0, TL_F64);
        if (n >= 2) tl_scalar_convert(p + tl_dtype_size(dtype), dtype, &f1, TL_F64);
    } else {   /* the dtype's wrapping, as the integer fill that follows */
        if (n >= 1) put_wrapped(p, dtype, (uint64_t)start);
        if (n >= 2) put_wrapped(p + tl_dtype_size(dtype), dtype, (uint64_t)second);
    }
    arange_continue(p, dtype, n);
    return t;
}

/* numpy: y = i*step + start with step = (stop-start)/div (i/div*delta when step
   underflows to 0); the endpoint is exactly stop; integer dtypes floor first. */
tl_tensor *tl_linspace(double start, double stop, int64_t num, bool endpoint, tl_dtype dtype)
{
    if (num < 0) {
        tl_seterr(ValueError, "number of samples, %lld, must be non-negative", (long long)num);
        return NULL;
    }
    tl_tensor *t = tl_tensor_empty(dtype, 1, &num);
    if (!t) return NULL;
    int64_t div = endpoint ? num - 1 : num;
    double delta = stop - start, step = div > 0 ? delta / (double)div : NAN;
    size_t isz = tl_dtype_size(dtype);
    char *p = tl_tensor_data(t);
    for (int64_t i = 0; i < num; i++) {
        double y;
        if (div <= 0) y = (double)i * delta;
        else if (step == 0) y = (double)i / (double)div * delta;
        else y = (double)i * step;
        y += start;
        if (endpoint && num > 1 && i == num - 1) y = stop;
        if (tl_is_int(dtype)) y = floor(y);
        tl_scalar_convert(p + i * (int64_t)isz, dtype, &y, TL_F64);
    }
    return t;
}

tl_tensor *tl_eye(int64_t n, int64_t m, int64_t k, tl_dtype dtype)
{
    int64_t shape[2] = { n, m };
    if (n < 0 || m < 0) {
        tl_seterr(ShapeError, "negative dimensions are not allowed");
        return NULL;
    }
    tl_tensor *t = tl_tensor_zeros(dtype, 2, shape);
    if (!t) return NULL;
    tl_scalar one;
    double d1 = 1.0;
    tl_scalar_convert(&one, dtype, &d1, TL_F64);
    size_t isz = tl_dtype_size(dtype);
    /* Row i holds its 1 at column i + k. */
    if (k >= m || (k < 0 && k <= -n)) return t;
    int64_t i0 = k >= 0 ? 0 : -k, i1 = m - k < n ? m - k : n;
    for (int64_t i = i0; i < i1; i++) memcpy((char *)tl_tensor_data(t) + (i * m + i + k) * (int64_t)isz, &one, isz);
    return t;
}
