/* nn.c — neural-network helpers: softmax log_softmax layer_norm rms_norm */
#include "builtins.h"

/* softmax(x, axis=-1) / log_softmax (the tag says which). */
enum { SOFTMAX_PLAIN, SOFTMAX_LOG };

static bool bi_softmax(Interp *I, CallArgs *a, Value *out)
{
    static const char *const kws[] = { "axis", NULL };
    const char *fname = a->self->name;
    int64_t axis;
    int ax;
    tl_tensor *t;
    if (!args_check(I, a, fname, 1, 2, kws) || !arg_int(I, a, fname, 1, "axis", -1, &axis) ||
        !arg_tensor(I, a, fname, 0, NULL, &t))
        return false;
    /* a 0-d input behaves as one element (torch allows axis -1 there) */
    tl_tensor *x = t->ndim > 0 ? (tl_tensor_retain(t), t) : tl_reshape(t, 1, (int64_t[]){ 1 });
    tl_tensor *r = NULL;
    if (x && (axis < -x->ndim || axis >= x->ndim))
        tl_seterr(IndexError, "%s(): axis %lld is out of bounds for tensor of dimension %d", fname, (long long)axis, t->ndim);
    else if (x && tl_normalize_axis((int)axis, x->ndim, &ax) == 0)
        r = tl_softmax_to(x, ax, a->self->tag == SOFTMAX_LOG, t->ndim ? a->into : NULL);
    if (r && t->ndim == 0) {
        tl_tensor *s = tl_reshape(r, 0, NULL);
        tl_tensor_release(r);
        r = s;
    }
    if (x) tl_tensor_release(x);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

/* An optional tensor argument (weight=, bias=); *t stays NULL when absent. */
static bool optional_tensor(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, tl_tensor **t)
{
    *t = NULL;
    return !arg_find(a, i, kw) || arg_tensor(I, a, fname, i, kw, t);
}

/* layer_norm(x, weight=none, bias=none, eps=1e-5): normalizes over the last axis, as PyTorch's
   layer_norm(x, x.shape[-1:]); rms_norm(x, weight=none, eps=1e-6) divides by the root mean square. */
enum { NORM_LAYER, NORM_RMS };

static bool bi_norm_layer(Interp *I, CallArgs *a, Value *out)
{
    static const char *const ln_kws[] = { "weight", "bias", "eps", NULL };
    static const char *const rms_kws[] = { "weight", "eps", NULL };
    bool rms = a->self->tag == NORM_RMS;
    const char *fname = a->self->name;
    double eps;
    tl_tensor *t = NULL, *w = NULL, *b = NULL, *r = NULL;
    if (!args_check(I, a, fname, 1, rms ? 3 : 4, rms ? rms_kws : ln_kws) ||
        !arg_double(I, a, fname, rms ? 2 : 3, "eps", rms ? 1e-6 : 1e-5, &eps))
        return false;
    bool ok = arg_tensor(I, a, fname, 0, NULL, &t) && optional_tensor(I, a, fname, 1, "weight", &w) &&
              (rms || optional_tensor(I, a, fname, 2, "bias", &b));
    if (ok && t->ndim == 0) {
        tl_seterr(ShapeError, "%s(): the input needs at least one dimension", fname);
    } else if (ok) {
        r = tl_norm_layer_to(t, w, b, eps, rms, a->into);
    }
    if (t) tl_tensor_release(t);
    if (w) tl_tensor_release(w);
    if (b) tl_tensor_release(b);
    if (!ok) return false;
    return ret_tensor(I, a, r, out);
}

const Builtin bi_nn_table[] = {
    { "softmax", bi_softmax, "softmax(x, axis=-1)", "exp(x) / sum(exp(x)) along axis, computed stably", SOFTMAX_PLAIN },
    { "log_softmax", bi_softmax, "log_softmax(x, axis=-1)", "log(softmax(x)) along axis, computed stably", SOFTMAX_LOG },
    { "layer_norm", bi_norm_layer, "layer_norm(x, weight=none, bias=none, eps=1e-5)",
      "(x - mean) / sqrt(var + eps) over the last axis, then * weight + bias (as PyTorch)", NORM_LAYER },
    { "rms_norm", bi_norm_layer, "rms_norm(x, weight=none, eps=1e-6)",
      "x / sqrt(mean(x**2) + eps) over the last axis, then * weight (as PyTorch)", NORM_RMS },
    { NULL, NULL, NULL, NULL, 0 },
};
