/* nn.c — neural-network helpers: softmax log_softmax layer_norm rms_norm */
#include "builtins.h"

/* softmax(x, axis=-1) / log_softmax (the tag says which). */
enum { SOFTMAX_PLAIN, SOFTMAX_LOG };

static bool bi_softmax(Interp *I, CallArgs *a, Value *out)
{
    int64_t axis;
    int ax;
    tl_tensor *t;
    if (!arg_int(I, a, 1, -1, &axis) || !arg_tensor(I, a, 0, &t)) return false;
    /* a 0-d input behaves as one element (torch allows axis -1 there) */
    tl_tensor *x = t->ndim > 0 ? (tl_tensor_retain(t), t) : tl_reshape(t, 1, (int64_t[]){ 1 });
    tl_tensor *r = NULL;
    if (x && (axis < -x->ndim || axis >= x->ndim))
        tl_seterr(IndexError, "%s(): axis %lld is out of bounds for tensor of dimension %d", a->self->name, (long long)axis, t->ndim);
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

/* Optional tensor parameter i (weight=, bias=); *t stays NULL when absent. */
static bool optional_tensor(Interp *I, CallArgs *a, int i, tl_tensor **t)
{
    *t = NULL;
    return !arg_at(a, i) || arg_tensor(I, a, i, t);
}

/* layer_norm(x, weight=none, bias=none, eps=1e-5): normalizes over the last axis, as PyTorch's
   layer_norm(x, x.shape[-1:]); rms_norm(x, weight=none, eps=1e-6) divides by the root mean square. */
enum { NORM_LAYER, NORM_RMS };

static bool bi_norm_layer(Interp *I, CallArgs *a, Value *out)
{
    bool rms = a->self->tag == NORM_RMS;
    double eps;
    tl_tensor *t = NULL, *w = NULL, *b = NULL, *r = NULL;
    if (!arg_double(I, a, rms ? 2 : 3, rms ? 1e-6 : 1e-5, &eps)) return false;
    bool ok = arg_tensor(I, a, 0, &t) && optional_tensor(I, a, 1, &w) && (rms || optional_tensor(I, a, 2, &b));
    if (ok && t->ndim == 0) {
        tl_seterr(ShapeError, "%s(): the input needs at least one dimension", a->self->name);
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
    { "softmax", bi_softmax, "softmax(x, axis=-1)", "exp(x) / sum(exp(x)) along axis, computed stably", SOFTMAX_PLAIN, BF_OTHER, BT_INTO },
    { "log_softmax", bi_softmax, "log_softmax(x, axis=-1)", "log(softmax(x)) along axis, computed stably", SOFTMAX_LOG, BF_OTHER, BT_INTO },
    { "layer_norm", bi_norm_layer, "layer_norm(x, weight=none, bias=none, eps=1e-5)",
      "(x - mean) / sqrt(var + eps) over the last axis, then * weight + bias (as PyTorch)", NORM_LAYER, BF_OTHER, BT_INTO },
    { "rms_norm", bi_norm_layer, "rms_norm(x, weight=none, eps=1e-6)",
      "x / sqrt(mean(x**2) + eps) over the last axis, then * weight (as PyTorch)", NORM_RMS, BF_OTHER, BT_INTO },
    { 0 },
};
