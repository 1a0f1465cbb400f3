/* rearrange.c — builtins that make a new tensor by moving another's elements: roll pad tril triu diag */
#include <string.h>

#include "builtins.h"

/* roll(a, shift, axis=none): elements shifted along the axes, wrapping around (a copy); without an axis
   the flattened elements roll and the shape is kept. shift and axis are ints or tuples that broadcast. */
static bool bi_roll(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int ns, na = 1, axes[TL_MAXDIM];
    int64_t shifts[TL_MAXDIM], raw_axes[TL_MAXDIM] = { 0 };
    Value *sv = arg_at(a, 1), *av = arg_at(a, 2);
    if (!sv) return interp_error(I, a->at, TypeError, "%s() missing argument 'shift'", a->self->name);
    if (!value_to_shape(I, a->at, *sv, &ns, shifts) || (av && !value_to_shape(I, a->at, *av, &na, raw_axes)) || !arg_tensor(I, a, 0, &t))
        return false;
    tl_tensor *src = t;
    if (!av) {   /* roll the flattened elements along their one axis */
        src = tl_reshape(t, 1, (int64_t[]){ -1 });
        if (!src) {
            tl_tensor_release(t);
            return interp_error_rt(I, a->at);
        }
    }
    bool ok = true;
    if (ns != na && ns != 1 && na != 1)
        ok = bi_fail(I, a, ShapeError, "%d shifts and %d axes cannot be paired", ns, na);
    int n = ns > na ? ns : na;
    for (int k = 0; ok && k < n; k++) {
        int64_t ax = raw_axes[na == 1 ? 0 : k];
        if (ax < -src->ndim || ax >= src->ndim)
            ok = bi_fail(I, a, IndexError, "axis %lld is out of bounds for a tensor of dimension %d", (long long)ax, src->ndim);
        axes[k] = (int)(ax < 0 ? ax + src->ndim : ax);
        shifts[k] = shifts[ns == 1 ? 0 : k];
    }
    tl_tensor *r = ok ? tl_roll_to(src, n, shifts, axes, a->into) : NULL;
    if (r && !av) {
        tl_tensor *shaped = tl_reshape(r, t->ndim, t->shape);
        tl_tensor_release(r);
        r = shaped;
    }
    if (src != t) tl_tensor_release(src);
    tl_tensor_release(t);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* The number at (axis k, side) of a pad argument broadcast to (ndim, 2) as numpy does: a number, a pair
   (before, after), or one pair (or one number) per axis, as tuples or a tensor of at most 2 dims. */
static bool pair_entry(Interp *I, CallArgs *a, const char *what, Value v, int ndim, int k, int side, Value *out)
{
    int rows = 1, cols = 1;
    if (v.kind == V_TUPLE) {
        Value first = v.as.tu->n > 0 ? v.as.tu->items[0] : val_none();
        bool nested = first.kind == V_TUPLE;
        rows = nested ? v.as.tu->n : 1;
        cols = nested ? first.as.tu->n : v.as.tu->n;
        for (int r = 0; nested && r < rows; r++)
            if (v.as.tu->items[r].kind != V_TUPLE || v.as.tu->items[r].as.tu->n != cols) cols = -1;
    } else if (v.kind == V_TENSOR && v.as.t->ndim <= 2) {
        rows = v.as.t->ndim == 2 ? (int)v.as.t->shape[0] : 1;
        cols = (int)v.as.t->shape[v.as.t->ndim - 1];
    } else if (v.kind != V_NUM) {
        rows = -1;
    }
    if (!(rows == 1 || rows == ndim) || !(cols == 1 || cols == 2))
        return bi_fail(I, a, ValueError, "%s must be a number, a pair (before, after), or one pair per axis (%d axes)", what, ndim);
    int r = rows == 1 ? 0 : k, c = cols == 1 ? 0 : side;
    if (v.kind == V_NUM) {
        *out = v;
    } else if (v.kind == V_TENSOR) {
        int64_t idx[2] = { r, c };
        const tl_tensor *t = v.as.t;
        *out = (Value){ .kind = V_NUM, .dtype = (uint8_t)t->dtype };
        memcpy(out->as.num.bytes, tl_tensor_at(t, t->ndim == 2 ? idx : idx + 1), tl_dtype_size(t->dtype));
    } else {
        Value row = v.as.tu->items[0].kind == V_TUPLE ? v.as.tu->items[r] : v;
        *out = row.as.tu->items[c];
    }
    if (out->kind != V_NUM) return bi_fail(I, a, TypeError, "%s must hold numbers", what);
    return true;
}

/* pad(a, pad_width, mode="constant", constant_values=0): numpy's pad with modes constant, edge, reflect,
   symmetric and wrap. */
static bool bi_pad(Interp *I, CallArgs *a, Value *out)
{
    static const char *const modes[] = { "constant", "edge", "reflect", "symmetric", "wrap" };
    const char *mode_name;
    tl_tensor *t;
    if (!arg_string(I, a, 2, "constant", &mode_name)) return false;
    Value *wv = arg_at(a, 1), *cv = arg_at(a, 3);
    if (!wv) return interp_error(I, a->at, TypeError, "%s() missing argument 'pad_width'", a->self->name);
    int mode = -1;
    for (int m = 0; m < 5; m++)
        if (strcmp(modes[m], mode_name) == 0) mode = m;
    if (mode < 0)
        return bi_fail(I, a, ValueError, "mode \"%s\" is not supported (tl has constant, edge, reflect, symmetric and wrap)", mode_name);
    if (cv && mode != TL_PAD_CONSTANT) return bi_fail(I, a, ValueError, "constant_values is only for mode \"constant\"");
    if (!arg_tensor(I, a, 0, &t)) return false;
    int64_t widths[TL_MAXDIM][2];
    tl_tensor *values[2 * TL_MAXDIM] = { 0 };
    bool ok = true;
    for (int k = 0; ok && k < t->ndim; k++)
        for (int side = 0; ok && side < 2; side++) {
            Value w;
            ok = pair_entry(I, a, "pad_width", *wv, t->ndim, k, side, &w);
            if (ok && !tl_is_int((tl_dtype)w.dtype)) ok = bi_fail(I, a, TypeError, "pad_width must be integers");
            if (ok) widths[k][side] = tl_scalar_to_i64(w.as.num.bytes, (tl_dtype)w.dtype);
            if (ok && mode == TL_PAD_CONSTANT) {
                Value c = val_i64(0);
                ok = (!cv || pair_entry(I, a, "constant_values", *cv, t->ndim, k, side, &c)) &&
                     ((values[2 * k + side] = val_to_tensor(c)) || interp_error_rt(I, a->at));
            }
        }
    tl_tensor *r = ok ? tl_pad_to(t, (const int64_t(*)[2])widths, (tl_pad_mode)mode, (const tl_tensor *const *)values, a->into) : NULL;
    for (int k = 0; k < 2 * t->ndim; k++)
        if (values[k]) tl_tensor_release(values[k]);
    tl_tensor_release(t);
    return ok ? ret_tensor(I, a, r, out) : false;
}

/* tril(m, k=0) / triu(m, k=0): zeros above (tril) or below (triu) diagonal k of the last two axes. */
enum { TRI_LOWER, TRI_UPPER };

static bool bi_tri(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int64_t k;
    if (!arg_int(I, a, 1, 0, &k) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_tri_to(t, k, a->self->tag == TRI_UPPER, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

static bool bi_diag(Interp *I, CallArgs *a, Value *out)
{
    tl_tensor *t;
    int64_t k;
    if (!arg_int(I, a, 1, 0, &k) || !arg_tensor(I, a, 0, &t)) return false;
    tl_tensor *r = tl_diag_to(t, k, a->into);
    tl_tensor_release(t);
    return ret_tensor(I, a, r, out);
}

const Builtin bi_rearrange_table[] = {
    { "roll", bi_roll, "roll(a, shift, axis=none)", "elements shifted along axes, wrapping around (flattened when axis is none): a copy", 0, BF_OTHER, BT_INTO },
    { "pad", bi_pad, "pad(a, pad_width, mode=\"constant\", constant_values=0)",
      "a padded copy; modes constant, edge, reflect, symmetric, wrap", 0, BF_OTHER, BT_INTO },
    { "tril", bi_tri, "tril(m, k=0)", "a copy with the elements above diagonal k of the last two axes zeroed", TRI_LOWER, BF_OTHER, BT_INTO },
    { "triu", bi_tri, "triu(m, k=0)", "a copy with the elements below diagonal k of the last two axes zeroed", TRI_UPPER, BF_OTHER, BT_INTO },
    { "diag", bi_diag, "diag(v, k=0)", "a 2-d v's diagonal k (a view), or a 1-d v placed on diagonal k of a square matrix", 0, BF_OTHER, BT_INTO },
    { NULL, NULL, NULL, NULL, 0, BF_OTHER, BT_INTO },
};
