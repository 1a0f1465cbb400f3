/* subscript_seq.c — s[i], s[a:b:c] on strings (by character), tuples and lists; list item and slice assignment and del */
#include <stdlib.h>
#include <string.h>

#include "subscript.h"

/* One index item of a sequence of length len: an integer (Python's negative indices, bounds
   checked) or a slice (clamped as Python's slice.indices). */
typedef struct SeqIndex {
    bool is_slice;
    int64_t i;                     /* the integer, normalized */
    int64_t start, step, count;    /* a slice: count items from start by step */
    bool extended;                 /* a slice whose step was not 1 (its assignment keeps the length) */
} SeqIndex;

/* Reads idx (one item) against a sequence of length len; what names the sequence in messages. */
static bool seq_index(Interp *I, SubscriptEval ev, void *ctx, Node *idx, int64_t len, const char *what, SeqIndex *out)
{
    if (idx->n != 1 || idx->list[0]->kind == N_ELLIPSIS)
        return interp_error(I, idx->at, TypeError, "%ss take one integer index or one slice", what);
    Node *e = idx->list[0];
    *out = (SeqIndex){ 0 };
    if (e->kind == N_SLICE) {
        int64_t start = 0, stop = 0, step = 1;
        bool has_start, has_stop, has_step;
        if (!subscript_slice_bound(I, ev, ctx, e->a, &start, &has_start) || !subscript_slice_bound(I, ev, ctx, e->b, &stop, &has_stop) ||
            !subscript_slice_bound(I, ev, ctx, e->c, &step, &has_step))
            return false;
        if (!has_step) step = 1;
        if (step == 0) return interp_error(I, e->at, ValueError, "slice step cannot be zero");
        out->is_slice = true;
        out->extended = step != 1;
        out->count = tl_slice_indices(len, &start, &stop, &step, has_start, has_stop);
        out->start = start;
        out->step = step;
        return true;
    }
    Value v;
    if (!ev(ctx, e, &v)) return false;
    bool ok = v.kind == V_NUM && (tl_is_int((tl_dtype)v.dtype) || v.dtype == TL_BOOL);
    int64_t i = ok ? tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype) : 0;
    val_release(v);
    if (!ok) return interp_error(I, e->at, TypeError, "%s indices must be integers or slices", what);
    if (i < 0) i += len;
    if (i < 0 || i >= len)
        return interp_error(I, e->at, IndexError, "index %lld is out of range for length %lld",
                            (long long)(i < 0 ? i - len : i), (long long)len);
    out->i = i;
    return true;
}

/* count items of xs from start by step, retained, into dst. */
static void gather(const Value *xs, int64_t start, int64_t step, int64_t count, Value *dst)
{
    for (int64_t k = 0; k < count; k++) dst[k] = val_retain(xs[start + k * step]);
}

bool subscript_seq_get(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value *out)
{
    SeqIndex ix;
    if (base.kind == V_STR) {
        Str *s = base.as.s;
        if (!seq_index(I, ev, ctx, idx, str_chars(s), "string", &ix)) return false;
        *out = ix.is_slice ? str_slice(s, ix.start, ix.step, ix.count) : str_char_at(s, ix.i);
        return out->kind == V_STR || interp_error_rt(I, idx->at);
    }
    bool tuple = base.kind == V_TUPLE;
    int64_t len = tuple ? base.as.tu->n : base.as.l->n;
    const Value *items = tuple ? base.as.tu->items : base.as.l->items;
    if (!seq_index(I, ev, ctx, idx, len, val_kind_name(base), &ix)) return false;
    if (!ix.is_slice) {
        *out = val_retain(items[ix.i]);
        return true;
    }
    Value r = tuple ? val_tuple_new((int)ix.count) : val_list_new(ix.count);
    if (r.kind == V_UNDEF) return interp_error_rt(I, idx->at);
    if (tuple) {
        gather(items, ix.start, ix.step, ix.count, r.as.tu->items);
    } else {
        gather(items, ix.start, ix.step, ix.count, r.as.l->items);
        r.as.l->n = ix.count;
    }
    *out = r;
    return true;
}

/* xs[slice] = v for a list xs: v's items (any iterable) replace the slice's; an extended slice
   (step not 1) keeps its length, as Python's. */
static bool list_set_slice(Interp *I, List *l, const SeqIndex *ix, Value v, Span at)
{
    Value items;
    if (!val_iter_list(v, &items)) return interp_error_rt(I, at);
    const List *src = items.as.l;
    bool ok = true;
    if (!ix->extended) {
        int64_t lo = ix->start, hi = lo + (ix->count > 0 ? ix->count : 0);
        ok = list_splice(l, lo, hi, src->items, src->n) || interp_error_rt(I, at);
    } else if (src->n != ix->count) {
        ok = interp_error(I, at, ValueError, "cannot assign %lld items to an extended slice of %lld", (long long)src->n,
                          (long long)ix->count);
    } else {
        for (int64_t k = 0; k < ix->count; k++) {
            Value *slot = &l->items[ix->start + k * ix->step];
            Value old = *slot;
            *slot = val_retain(src->items[k]);
            val_release(old);
        }
    }
    val_release(items);
    return ok;
}

bool subscript_seq_set(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value v)
{
    if (base.kind != V_LIST)
        return interp_error(I, idx->at, TypeError, "a %s cannot be changed (make a list or build a new %s)", val_kind_name(base),
                            val_kind_name(base));
    List *l = base.as.l;
    SeqIndex ix;
    if (!seq_index(I, ev, ctx, idx, l->n, "list", &ix)) return false;
    if (ix.is_slice) return list_set_slice(I, l, &ix, v, idx->at);
    Value old = l->items[ix.i];
    l->items[ix.i] = val_retain(v);
    val_release(old);
    return true;
}

bool subscript_seq_del(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx)
{
    if (base.kind != V_LIST) return interp_error(I, idx->at, TypeError, "cannot delete items of a %s", val_kind_name(base));
    List *l = base.as.l;
    SeqIndex ix;
    if (!seq_index(I, ev, ctx, idx, l->n, "list", &ix)) return false;
    if (!ix.is_slice) {
        val_release(list_take(l, ix.i));
        return true;
    }
    if (ix.count <= 0) return true;
    if (ix.step < 0) {   /* the same items, walked upward */
        ix.start += (ix.count - 1) * ix.step;
        ix.step = -ix.step;
    }
    Value *gone = malloc((size_t)ix.count * sizeof *gone);
    if (!gone) return interp_error(I, idx->at, MemoryError, "out of memory");
    int64_t w = ix.start, k = 0;
    for (int64_t r = ix.start; r < l->n; r++) {   /* compact the kept items over the deleted ones */
        bool deleted = k < ix.count && r == ix.start + k * ix.step;
        if (deleted) gone[k++] = l->items[r];
        else l->items[w++] = l->items[r];
    }
    l->n = w;
    for (int64_t j = 0; j < ix.count; j++) val_release(gone[j]);
    free(gone);
    return true;
}
