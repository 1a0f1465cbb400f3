/* subscript.c — a[...] on values: tensors (views and advanced indexing), tuples, strings, dicts */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "ops.h"
#include "subscript.h"

/* Evaluated index items of one N_INDEX, owning the tensors they hold. */
typedef struct IndexItems {
    int n;
    tl_index_item items[TL_MAXDIM * 2];
    Value held[TL_MAXDIM * 2];
} IndexItems;

static void items_free(IndexItems *ix)
{
    for (int i = 0; i < ix->n; i++) val_release(ix->held[i]);
    ix->n = 0;
}

bool subscript_slice_bound(Interp *I, SubscriptEval ev, void *ctx, Node *n, int64_t *out, bool *has)
{
    *has = false;
    if (!n) return true;
    Value v;
    if (!ev(ctx, n, &v)) return false;
    if (v.kind == V_NONE) return true;
    bool ok = v.kind == V_NUM && (tl_is_int((tl_dtype)v.dtype) || v.dtype == TL_BOOL);
    if (ok) *out = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
    val_release(v);
    if (!ok) return interp_error(I, n->at, TypeError, "slice bounds must be integers or none");
    *has = true;
    return true;
}

/* Turns the index expressions of idx into runtime index items. */
static bool eval_items(Interp *I, SubscriptEval ev, void *ctx, Node *idx, IndexItems *ix)
{
    ix->n = 0;
    if (idx->n > TL_MAXDIM * 2) return interp_error(I, idx->at, IndexError, "too many indices (%d)", idx->n);
    for (int i = 0; i < idx->n; i++) {
        Node *e = idx->list[i];
        tl_index_item *it = &ix->items[ix->n];
        memset(it, 0, sizeof *it);
        ix->held[ix->n] = val_none();
        if (e->kind == N_ELLIPSIS) {
            it->kind = TL_IDX_ELLIPSIS;
        } else if (e->kind == N_SLICE) {
            it->kind = TL_IDX_SLICE;
            bool has_step;
            it->step = 1;
            if (!subscript_slice_bound(I, ev, ctx, e->a, &it->start, &it->has_start) ||
                !subscript_slice_bound(I, ev, ctx, e->b, &it->stop, &it->has_stop) ||
                !subscript_slice_bound(I, ev, ctx, e->c, &it->step, &has_step)) {
                items_free(ix);
                return false;
            }
            if (!has_step) it->step = 1;
            if (it->step == 0) { items_free(ix); return interp_error(I, e->at, ValueError, "slice step cannot be zero"); }
        } else {
            Value v;
            if (!ev(ctx, e, &v)) { items_free(ix); return false; }
            if (v.kind == V_TRACE) {
                bool live = graph_trace_live(v);
                val_release(v);
                items_free(ix);
                if (!live) return interp_error(I, e->at, ValueError, GRAPH_STALE);
                return interp_error(I, e->at, TypeError, GRAPH_NEEDS_VALUES " (an index must be known when the graph is built)");
            }
            if (v.kind == V_NONE) {
                it->kind = TL_IDX_NEWAXIS;
            } else if (v.kind == V_NUM && tl_is_int((tl_dtype)v.dtype)) {
                it->kind = TL_IDX_INT;
                it->i = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
            } else if (v.kind == V_NUM || v.kind == V_TENSOR || v.kind == V_LIST) {
                bool empty_list = v.kind == V_LIST && v.as.l->n == 0;   /* numpy: a[[]] is an empty integer index */
                if (v.kind == V_LIST && !empty_list) {   /* a list indexes as the tensor it converts to */
                    tl_tensor *lt = val_to_tensor(v);
                    val_release(v);
                    if (!lt) { items_free(ix); return interp_error_rt(I, e->at); }
                    v = val_from_tensor(lt);
                }
                tl_dtype d = empty_list ? TL_F64 : val_dtype(v);
                if (!tl_is_int(d) && d != TL_BOOL && !empty_list) {
                    val_release(v);
                    items_free(ix);
                    return interp_error(I, e->at, TypeError, "indices must be integers, slices, none, ... or integer/bool tensors, not %s",
                                        tl_dtype_name(d));
                }
                tl_tensor *t = val_to_tensor(v);
                val_release(v);
                if (t && empty_list) {
                    tl_tensor *ints = tl_cast(t, TL_I64);
                    tl_tensor_release(t);
                    t = ints;
                }
                if (!t) { items_free(ix); return interp_error_rt(I, e->at); }
                v = (Value){ .kind = V_TENSOR };
                v.as.t = t;
                it->kind = TL_IDX_TENSOR;
                it->tensor = t;
                ix->held[ix->n] = v;
            } else {
                Value bad = v;
                items_free(ix);
                interp_error(I, e->at, TypeError, "a %s cannot be used as an index", val_kind_name(bad));
                val_release(bad);
                return false;
            }
        }
        ix->n++;
    }
    return true;
}

static bool dict_key(Interp *I, SubscriptEval ev, void *ctx, Node *idx, Value *key)
{
    if (idx->n != 1) return interp_error(I, idx->at, TypeError, "dicts take one string key");
    if (!ev(ctx, idx->list[0], key)) return false;
    if (key->kind != V_STR) {
        val_release(*key);
        return interp_error(I, idx->list[0]->at, TypeError, "dict keys must be strings");
    }
    return true;
}

bool subscript_is_simple(const Node *idx)
{
    if (idx->n > TL_MAXDIM) return false;
    for (int i = 0; i < idx->n; i++) {
        const Node *e = idx->list[i];
        if (e->kind == N_SLICE) {
            const Node *bounds[3] = { e->a, e->b, e->c };
            for (int k = 0; k < 3; k++)
                if (bounds[k] && bounds[k]->kind != N_INT) return false;
            if (e->c && e->c->ival == 0) return false;   /* the general path's error */
        } else if (e->kind != N_INT && e->kind != N_NAME) {
            return false;
        }
    }
    return true;
}

int subscript_tensor_simple(Interp *I, SubscriptEval ev, void *ctx, const tl_tensor *t, Node *idx, Value *out)
{
    tl_index_item items[TL_MAXDIM];
    for (int i = 0; i < idx->n; i++) {
        const Node *e = idx->list[i];
        tl_index_item *it = &items[i];
        it->tensor = NULL;
        if (e->kind == N_SLICE) {
            it->kind = TL_IDX_SLICE;
            it->has_start = e->a != NULL;
            it->start = e->a ? e->a->ival : 0;
            it->has_stop = e->b != NULL;
            it->stop = e->b ? e->b->ival : 0;
            it->step = e->c ? e->c->ival : 1;
            continue;
        }
        it->kind = TL_IDX_INT;
        if (e->kind == N_INT) {
            it->i = e->ival;
            continue;
        }
        Value v;
        if (!ev(ctx, (Node *)e, &v)) return -1;
        bool is_int = v.kind == V_NUM && tl_is_int((tl_dtype)v.dtype);
        if (is_int) it->i = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
        val_release(v);
        if (!is_int) return 0;
    }
    tl_tensor *r = tl_index_get(t, idx->n, items);
    if (!r) return interp_error_rt(I, idx->at), -1;
    *out = val_from_tensor(r);
    return 1;
}

bool subscript_get(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value *out)
{
    switch (base.kind) {
    case V_TENSOR: case V_NUM: {
        IndexItems ix;
        if (!eval_items(I, ev, ctx, idx, &ix)) return false;
        tl_tensor *t = val_to_tensor(base);
        tl_tensor *r = t ? tl_index_get(t, ix.n, ix.items) : NULL;
        if (t) tl_tensor_release(t);
        items_free(&ix);
        if (!r) return interp_error_rt(I, idx->at);
        *out = val_from_tensor(r);
        return true;
    }
    case V_TRACE: {
        IndexItems ix;
        if (!eval_items(I, ev, ctx, idx, &ix)) return false;
        bool ok = graph_trace_index(I, base, ix.n, ix.items, ix.held, idx->at, out);
        items_free(&ix);
        return ok;
    }
    case V_TUPLE: case V_STR: case V_LIST: return subscript_seq_get(I, ev, ctx, base, idx, out);
    case V_DICT: {
        Value key;
        if (!dict_key(I, ev, ctx, idx, &key)) return false;
        Value *v = dict_get(base.as.d, key.as.s->data, key.as.s->len);
        if (!v) {
            char hint[300];
            interp_error(I, idx->list[0]->at, IndexError, "no key \"%.200s\" in this dict%s", key.as.s->data,
                         dict_key_hint(base.as.d, key.as.s->data, hint, sizeof hint));
            val_release(key);
            return false;
        }
        val_release(key);
        *out = val_retain(*v);
        return true;
    }
    default:
        return interp_error(I, idx->at, TypeError, "a %s cannot be indexed", val_kind_name(base));
    }
}

bool subscript_set(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value v)
{
    if (base.kind == V_DICT) {
        Value key;
        if (!dict_key(I, ev, ctx, idx, &key)) return false;
        bool ok = dict_set(base.as.d, key.as.s->data, key.as.s->len, val_retain(v));
        val_release(key);
        return ok || interp_error_rt(I, idx->at);
    }
    if (base.kind == V_LIST || base.kind == V_TUPLE || base.kind == V_STR) return subscript_seq_set(I, ev, ctx, base, idx, v);
    if (base.kind != V_TENSOR)
        return interp_error(I, idx->at, TypeError, "cannot assign into a %s%s", val_kind_name(base),
                            base.kind == V_NUM ? " (numbers are values, not views)" : "");
    if (!val_is_numeric(v))
        return interp_error(I, idx->at, TypeError, "cannot store a %s in a tensor", val_kind_name(v));
    IndexItems ix;
    if (!eval_items(I, ev, ctx, idx, &ix)) return false;
    tl_tensor *src = val_to_tensor(v);
    int rc = src ? tl_index_set(base.as.t, ix.n, ix.items, src) : -1;
    if (src) tl_tensor_release(src);
    items_free(&ix);
    return rc == 0 || interp_error_rt(I, idx->at);
}

bool subscript_del(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx)
{
    if (base.kind != V_DICT) return subscript_seq_del(I, ev, ctx, base, idx);
    Value key;
    if (!dict_key(I, ev, ctx, idx, &key)) return false;
    bool found = dict_remove(base.as.d, key.as.s->data, key.as.s->len);
    char hint[300];
    if (!found) interp_error(I, idx->list[0]->at, IndexError, "no key \"%.200s\" in this dict%s", key.as.s->data,
                         dict_key_hint(base.as.d, key.as.s->data, hint, sizeof hint));
    val_release(key);
    return found;
}
