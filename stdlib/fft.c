/* fft.c — numpy.fft: fft ifft rfft irfft fft2 ifft2 fftfreq rfftfreq */
#include <string.h>

#include "builtins.h"
#include "linalg.h"

/* Parameter i as numpy's norm= ("backward" when none). */
static bool arg_norm(Interp *I, CallArgs *a, int i, tl_fft_norm *out)
{
    const char *s;
    if (!arg_string(I, a, i, "backward", &s)) return false;
    static const char *const names[] = { "backward", "ortho", "forward" };
    for (int k = 0; k < 3; k++)
        if (strcmp(s, names[k]) == 0) {
            *out = (tl_fft_norm)k;
            return true;
        }
    return interp_error(I, a->at, ValueError, "Invalid norm value %s; should be \"backward\",\"ortho\" or \"forward\".", s);
}

/* fft(a, n=none, axis=-1, norm=none) and its three kin, picked by the tag (a tl_fft_kind). */
static bool bi_fft1(Interp *I, CallArgs *a, Value *out)
{
    int64_t n, axis;
    tl_fft_norm norm;
    tl_tensor *t;
    if (!arg_int(I, a, 1, -1, &n) || !arg_int(I, a, 2, -1, &axis) || !arg_norm(I, a, 3, &norm)) return false;
    if (arg_at(a, 1) && n < 1) return interp_error(I, a->at, ValueError, "Invalid number of FFT data points (%lld) specified.", (long long)n);
    if (axis < -TL_MAXDIM || axis >= TL_MAXDIM) return bi_fail(I, a, IndexError, "axis %lld is out of bounds", (long long)axis);
    if (!arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_fft(t, n, (int)axis, (tl_fft_kind)a->self->tag, norm);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* fft2(a, s=none, axes=(-2, -1), norm=none) and ifft2: one 1-d transform per axis, the last axis first. */
static bool bi_fft2(Interp *I, CallArgs *a, Value *out)
{
    int nax = 2, ns = 0;
    int64_t axes[TL_MAXDIM] = { -2, -1 }, s[TL_MAXDIM];
    tl_fft_norm norm;
    tl_tensor *t;
    if (!arg_norm(I, a, 3, &norm)) return false;
    Value *sv = arg_at(a, 1), *av = arg_at(a, 2);
    if ((sv && !value_to_shape(I, a->at, *sv, &ns, s)) || (av && !value_to_shape(I, a->at, *av, &nax, axes))) return false;
    if (sv && ns != nax) return interp_error(I, a->at, ValueError, "Shape and axes have different lengths.");
    for (int i = 0; i < nax; i++)
        if (axes[i] < -TL_MAXDIM || axes[i] >= TL_MAXDIM)
            return bi_fail(I, a, IndexError, "axis %lld is out of bounds", (long long)axes[i]);
    for (int i = 0; sv && i < ns; i++)
        if (s[i] < 1) return interp_error(I, a->at, ValueError, "Invalid number of FFT data points (%lld) specified.", (long long)s[i]);
    if (!arg_tensor(I, a, 0, &t)) return false;
    for (int i = nax - 1; t && i >= 0; i--) {
        tl_tensor *r = tl_fft(t, sv ? s[i] : -1, (int)axes[i], (tl_fft_kind)a->self->tag, norm);
        tl_tensor_release(t);
        t = r;
    }
    return ret_tensor(I, a, t, out);
}

/* fftfreq(n, d=1.0) and rfftfreq: the sample frequencies (the tag: 1 for rfftfreq). */
static bool bi_fftfreq(Interp *I, CallArgs *a, Value *out)
{
    double d;
    if (!arg_double(I, a, 1, 1.0, &d)) return false;
    Value *nv = arg_at(a, 0);
    if (!nv || nv->kind != V_NUM || !tl_is_intlike((tl_dtype)nv->dtype))
        return interp_error(I, a->at, ValueError, "n should be an integer");
    return ret_tensor(I, a, tl_fftfreq(tl_scalar_to_i64(nv->as.num.bytes, (tl_dtype)nv->dtype), d, a->self->tag == 1), out);
}

const Builtin bi_fft_table[] = {
    { "fft", bi_fft1, "fft(a, n=none, axis=-1, norm=none)",
      "discrete Fourier transform along an axis (c128; c64 for f32/c64), cropped or zero-padded to n", TL_FFT_FFT, BF_OTHER, BT_NO },
    { "ifft", bi_fft1, "ifft(a, n=none, axis=-1, norm=none)", "inverse discrete Fourier transform along an axis", TL_FFT_IFFT, BF_OTHER, BT_NO },
    { "rfft", bi_fft1, "rfft(a, n=none, axis=-1, norm=none)",
      "transform of real input: the n // 2 + 1 non-negative frequencies", TL_FFT_RFFT, BF_OTHER, BT_NO },
    { "irfft", bi_fft1, "irfft(a, n=none, axis=-1, norm=none)",
      "inverse of rfft: n (default 2 * (m - 1)) real values (f64; f32 for c64)", TL_FFT_IRFFT, BF_OTHER, BT_NO },
    { "fft2", bi_fft2, "fft2(a, s=none, axes=(-2, -1), norm=none)", "2-d discrete Fourier transform (over axes)", TL_FFT_FFT, BF_OTHER, BT_NO },
    { "ifft2", bi_fft2, "ifft2(a, s=none, axes=(-2, -1), norm=none)", "inverse 2-d discrete Fourier transform", TL_FFT_IFFT, BF_OTHER, BT_NO },
    { "fftfreq", bi_fftfreq, "fftfreq(n, d=1.0)", "sample frequencies of an n-point fft (cycles per unit of d)", 0, BF_OTHER, BT_NO },
    { "rfftfreq", bi_fftfreq, "rfftfreq(n, d=1.0)", "sample frequencies of an n-point rfft", 1, BF_OTHER, BT_NO },
    { 0 },
};
