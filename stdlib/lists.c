/* lists.c — lists and their methods (append, pop, sort, ...), and the builtins that make lists: list, tuple, sorted, reversed, enumerate, zip, map, filter */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* Parameter i as a list (it must be one). */
static bool list_param(Interp *I, CallArgs *a, int i, List **out)
{
    Value *v = arg_given(a, i);
    if (v && v->kind == V_TENSOR)   /* [1, 2] of numbers is a tensor: say how to make a list */
        return bi_fail(I, a, TypeError, "%s must be a list, not a tensor ([1, 2] of numbers is a tensor; list([1, 2]) or [] makes a list)", arg_name(a, i));
    v = arg_kind(I, a, i, V_LIST);
    *out = v ? v->as.l : NULL;
    return v != NULL;
}

/* The items of parameter i (any iterable) as a new list. */
static bool items_param(Interp *I, CallArgs *a, int i, Value *out)
{
    Value v = *arg_given(a, i);
    if (val_iter_list(v, out)) return true;
    return v.kind == V_NONE || tl_errkind_last() == TL_E_TypeError
               ? bi_fail(I, a, TypeError, "%s must be iterable, not a %s", arg_name(a, i), val_kind_name(v))
               : interp_error_rt(I, a->at);
}

/* Python's index normalization for insert(): negative from the end, clamped to [0, n]. */
static int64_t clamp_index(int64_t i, int64_t n)
{
    if (i < 0) i += n;
    return i < 0 ? 0 : i > n ? n : i;
}

/* list(iterable=none): a new list of the items (an empty list without an argument). */
static bool bi_list(Interp *I, CallArgs *a, Value *out)
{
    if (!arg_given(a, 0)) {
        *out = val_list_new(0);
        return out->kind == V_LIST || interp_error_rt(I, a->at);
    }
    return items_param(I, a, 0, out);
}

/* A new tuple of the n values vs (retained). */
static Value tuple_of(const Value *vs, int n)
{
    Value t = val_tuple_new(n);
    for (int i = 0; t.kind == V_TUPLE && i < n; i++) t.as.tu->items[i] = val_retain(vs[i]);
    return t;
}

/* tuple(iterable=none): a tuple of the items of any iterable (() without one; a tuple itself). */
static bool bi_tuple(Interp *I, CallArgs *a, Value *out)
{
    Value *given = arg_given(a, 0), items;
    if (given && given->kind == V_TUPLE) {
        *out = val_retain(*given);
        return true;
    }
    if (!given) items = val_list_new(0);
    else if (!items_param(I, a, 0, &items)) return false;
    if (items.kind != V_LIST) return interp_error_rt(I, a->at);
    int64_t n = items.as.l->n;
    Value t = n <= INT32_MAX ? tuple_of(items.as.l->items, (int)n) : val_none();
    val_release(items);
    if (t.kind != V_TUPLE)
        return n <= INT32_MAX ? interp_error_rt(I, a->at) : bi_fail(I, a, MemoryError, "a tuple of %lld items is too large", (long long)n);
    *out = t;
    return true;
}

/* append(xs, x): adds x at the end of xs (amortized O(1)). */
static bool bi_append(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    if (!list_param(I, a, 0, &l)) return false;
    if (!list_append(l, val_retain(*arg_given(a, 1)))) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

/* extend(xs, items): adds the items of any iterable at the end of xs. */
static bool bi_extend(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    Value items;
    if (!list_param(I, a, 0, &l) || !items_param(I, a, 1, &items)) return false;
    bool ok = list_splice(l, l->n, l->n, items.as.l->items, items.as.l->n) || interp_error_rt(I, a->at);
    val_release(items);
    *out = val_none();
    return ok;
}

/* insert(xs, i, x): x before item i (clamped as Python's). */
static bool bi_insert(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    int64_t i;
    if (!list_param(I, a, 0, &l) || !arg_int(I, a, 1, 0, &i)) return false;
    if (!list_insert(l, clamp_index(i, l->n), val_retain(*arg_given(a, 2)))) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

/* pop(xs, i=-1): removes item i and returns it. */
static bool bi_pop(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    int64_t i;
    if (!list_param(I, a, 0, &l) || !arg_int(I, a, 1, -1, &i)) return false;
    if (l->n == 0) return bi_fail(I, a, IndexError, "pop from an empty list");
    int64_t at = i < 0 ? i + l->n : i;   /* i < 0 counts from the end; the message names i as given */
    if (at < 0 || at >= l->n) return bi_fail(I, a, IndexError, "index %lld is out of range for a list of length %lld", (long long)i, (long long)l->n);
    *out = list_take(l, at);
    return true;
}

/* The index of the first of n items equal to x, or -1; false when comparing failed. */
static bool first_equal(Interp *I, CallArgs *a, const Value *items, int64_t n, Value x, int64_t *at)
{
    *at = -1;
    for (int64_t i = 0; i < n; i++) {
        bool eq;
        if (!val_equal(items[i], x, &eq)) return interp_error_rt(I, a->at);
        if (eq) { *at = i; return true; }
    }
    return true;
}

/* remove(xs, x): removes the first item equal to x (an error when there is none). */
static bool bi_remove(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    int64_t at;
    if (!list_param(I, a, 0, &l) || !first_equal(I, a, l->items, l->n, *arg_given(a, 1), &at)) return false;
    if (at < 0) return bi_fail(I, a, ValueError, "x is not in the list");
    val_release(list_take(l, at));
    *out = val_none();
    return true;
}

/* The items of a tuple or list into *items and *n; false for any other kind. */
static bool seq_items(Value v, const Value **items, int64_t *n)
{
    if (v.kind == V_TUPLE) { *n = v.as.tu->n; *items = v.as.tu->items; return true; }
    if (v.kind == V_LIST) { *n = v.as.l->n; *items = v.as.l->items; return true; }
    return false;
}

enum { SEQ_INDEX, SEQ_COUNT };

/* index(seq, x, start=none, end=none): the first index of x in a list or tuple, or of substring
   x in a string, within seq[start:end] (an error when absent); count(seq, x, start=none,
   end=none): how many items equal x, or how many non-overlapping x in a string (start and end
   for a string only, as in Python). */
static bool bi_index_count(Interp *I, CallArgs *a, Value *out)
{
    Value seq = *arg_given(a, 0), x = *arg_given(a, 1);
    bool index = a->self->tag == SEQ_INDEX;
    if (seq.kind == V_STR) {
        int64_t lo, hi;
        if (x.kind != V_STR) return bi_fail(I, a, TypeError, "x must be a string when seq is one, not a %s", val_kind_name(x));
        if (!str_window(I, a, 2, seq.as.s, &lo, &hi)) return false;
        int64_t r = index ? str_find_sub(seq.as.s, x.as.s, lo, hi, false) : str_count_sub(seq.as.s, x.as.s, lo, hi);
        if (r < 0) return bi_fail(I, a, ValueError, "substring not found");
        *out = val_i64(r);
        return true;
    }
    int64_t n;
    const Value *items;
    if (!seq_items(seq, &items, &n)) return bi_fail(I, a, TypeError, "seq must be a list, tuple or string, not a %s", val_kind_name(seq));
    if (index) {
        int64_t at, lo, hi;
        if (!arg_int(I, a, 2, 0, &lo) || !arg_int(I, a, 3, n, &hi)) return false;
        lo = clamp_index(lo, n), hi = clamp_index(hi, n);   /* as list.index(x, start, stop) */
        if (!first_equal(I, a, items + lo, hi > lo ? hi - lo : 0, x, &at)) return false;
        if (at < 0) return bi_fail(I, a, ValueError, "x is not in the %s", val_kind_name(seq));
        *out = val_i64(lo + at);
        return true;
    }
    if (arg_at(a, 2) || arg_at(a, 3)) return bi_fail(I, a, TypeError, "start and end apply to a string's count, not a %s's", val_kind_name(seq));
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        bool eq;
        if (!val_equal(items[i], x, &eq)) return interp_error_rt(I, a->at);
        count += eq;
    }
    *out = val_i64(count);
    return true;
}

/* clear(xs): removes every item. */
static bool bi_clear(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    if (!list_param(I, a, 0, &l)) return false;
    if (!list_splice(l, 0, l->n, NULL, 0)) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

/* reverse(xs): reverses xs in place. */
static bool bi_reverse(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    if (!list_param(I, a, 0, &l)) return false;
    list_reverse(l);
    *out = val_none();
    return true;
}

/* copy(xs): a new list of the same items (a shallow copy). */
static bool bi_copy_list(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    if (!list_param(I, a, 0, &l)) return false;
    *out = val_list_of(l->items, l->n);
    return out->kind == V_LIST || interp_error_rt(I, a->at);
}

/* ---- sorting ---------------------------------------------------------------------------- */

typedef struct SortCtx {
    const Value *keys;
    bool reverse;
    bool failed;      /* two keys did not order: the tl error says why */
} SortCtx;

/* key i before key j: < 0; the sort stops comparing once one comparison has failed. */
static int key_cmp(SortCtx *c, int64_t i, int64_t j)
{
    int r = 0;
    if (!c->failed && !val_order(c->keys[i], c->keys[j], &r)) c->failed = true;
    return c->reverse ? -r : r;
}

/* Stable merge sort of the index array idx[0..n) by key_cmp (tmp: n more). */
static void merge_sort(SortCtx *c, int64_t *idx, int64_t *tmp, int64_t n)
{
    if (n < 2) return;
    int64_t h = n / 2;
    merge_sort(c, idx, tmp, h);
    merge_sort(c, idx + h, tmp, n - h);
    if (key_cmp(c, idx[h - 1], idx[h]) <= 0) return;   /* already in order */
    memcpy(tmp, idx, (size_t)h * sizeof *tmp);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) idx[k++] = key_cmp(c, idx[j], tmp[i]) < 0 ? idx[j++] : tmp[i++];
    while (i < h) idx[k++] = tmp[i++];
}

/* Sorts l in place by its items (or key(item)), stable, as Python's list.sort(key, reverse). */
static bool sort_list(Interp *I, CallArgs *a, List *l, Value *key, bool reverse)
{
    int64_t n = l->n;
    Value *items = malloc((size_t)(n ? n : 1) * sizeof *items), *keys = key ? calloc((size_t)(n ? n : 1), sizeof *keys) : items;
    int64_t *idx = malloc((size_t)(n ? n : 1) * 2 * sizeof *idx);
    bool ok = items && keys && idx;
    if (!ok) {
        free(items);
        if (key) free(keys);
        free(idx);
        return interp_error(I, a->at, MemoryError, "out of memory");
    }
    for (int64_t i = 0; i < n; i++) items[i] = val_retain(l->items[i]);   /* a key function may change the list */
    int64_t nkeys = 0;
    for (; key && ok && nkeys < n; nkeys++) {
        if (!interp_call(I, *key, 1, &items[nkeys], a->at, &keys[nkeys])) { ok = false; break; }
    }
    if (ok && l->n != n) ok = bi_fail(I, a, ValueError, "the key function changed the list being sorted (from %lld items to %lld)", (long long)n, (long long)l->n);
    SortCtx c = { .keys = keys, .reverse = reverse };
    if (ok) {
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        merge_sort(&c, idx, idx + n, n);
        if (c.failed) ok = tl_errkind_last() == TL_E_TypeError ? bi_fail(I, a, TypeError, "%s", tl_errmsg()) : interp_error_rt(I, a->at);
    }
    if (ok) {   /* the sorted items replace the list's contents */
        Value *sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
        if (!sorted) ok = interp_error(I, a->at, MemoryError, "out of memory");
        for (int64_t i = 0; ok && i < n; i++) sorted[i] = val_retain(items[idx[i]]);
        if (ok && !list_splice(l, 0, l->n, sorted, n)) ok = interp_error_rt(I, a->at);
        for (int64_t i = 0; sorted && i < n; i++) val_release(sorted[i]);
        free(sorted);
    }
    for (int64_t i = 0; i < n; i++) val_release(items[i]);
    for (int64_t i = 0; key && i < nkeys; i++) val_release(keys[i]);
    free(items);
    if (key) free(keys);
    free(idx);
    return ok;
}

/* sort(xs, key=none, reverse=false): sorts a list in place (stable); gives none. */
static bool bi_sort_list(Interp *I, CallArgs *a, Value *out)
{
    List *l;
    bool reverse;
    if (!list_param(I, a, 0, &l) || !arg_bool(I, a, 2, false, &reverse)) return false;
    if (!sort_list(I, a, l, arg_at(a, 1), reverse)) return false;
    *out = val_none();
    return true;
}

/* sorted(it, key=none, reverse=false): a new sorted list of the items of any iterable. */
static bool bi_sorted(Interp *I, CallArgs *a, Value *out)
{
    bool reverse;
    Value items;
    if (!arg_bool(I, a, 2, false, &reverse) || !items_param(I, a, 0, &items)) return false;
    if (!sort_list(I, a, items.as.l, arg_at(a, 1), reverse)) {
        val_release(items);
        return false;
    }
    *out = items;
    return true;
}

/* reversed(seq): the items of seq (any iterable) in reverse order, as a list. */
static bool bi_reversed(Interp *I, CallArgs *a, Value *out)
{
    if (!items_param(I, a, 0, out)) return false;
    list_reverse(out->as.l);
    return true;
}


/* enumerate(it, start=0): a list of (index, item) pairs. */
static bool bi_enumerate(Interp *I, CallArgs *a, Value *out)
{
    int64_t start;
    Value items;
    if (!arg_int(I, a, 1, 0, &start) || !items_param(I, a, 0, &items)) return false;
    List *l = items.as.l;
    for (int64_t i = 0; i < l->n; i++) {
        Value pair[2] = { val_i64((int64_t)((uint64_t)start + (uint64_t)i)), l->items[i] };
        Value t = tuple_of(pair, 2);
        if (t.kind != V_TUPLE) {
            val_release(items);
            return interp_error_rt(I, a->at);
        }
        val_release(l->items[i]);
        l->items[i] = t;
    }
    *out = items;
    return true;
}

/* The k iterables its (arguments first, first + 1, ... of the call) side by side: a list of
   k-tuples of their items, as long as the shortest. */
static bool zip_items(Interp *I, CallArgs *a, const Value *its, int k, int first, Value *out)
{
    Value *lists = calloc((size_t)(k ? k : 1), sizeof *lists);
    if (!lists) return interp_error(I, a->at, MemoryError, "out of memory");
    bool ok = true;
    int64_t n = INT64_MAX;
    for (int j = 0; j < k && ok; j++) {
        if (!val_iter_list(its[j], &lists[j])) {
            ok = tl_errkind_last() == TL_E_TypeError
                     ? bi_fail(I, a, TypeError, "argument %d must be iterable, not a %s", first + j, val_kind_name(its[j]))
                     : interp_error_rt(I, a->at);
            break;
        }
        if (lists[j].as.l->n < n) n = lists[j].as.l->n;
    }
    if (k == 0) n = 0;
    Value r = ok ? val_list_new(n) : val_none();
    if (ok && r.kind != V_LIST) ok = interp_error_rt(I, a->at);
    for (int64_t i = 0; ok && i < n; i++) {
        Value t = val_tuple_new(k);
        if (t.kind != V_TUPLE) { ok = interp_error_rt(I, a->at); break; }
        for (int j = 0; j < k; j++) t.as.tu->items[j] = val_retain(lists[j].as.l->items[i]);
        r.as.l->items[r.as.l->n++] = t;
    }
    for (int j = 0; j < k; j++) val_release(lists[j]);
    free(lists);
    if (!ok) {
        val_release(r);
        return false;
    }
    *out = r;
    return true;
}

/* zip(*its): a list of tuples of the iterables' items, as long as the shortest. */
static bool bi_zip(Interp *I, CallArgs *a, Value *out) { return zip_items(I, a, a->rest, a->nrest, 1, out); }

/* map(f, *its): a list of f called with the iterables' items side by side (as long as the
   shortest), as list(map(f, ...)) in Python. */
static bool bi_map(Interp *I, CallArgs *a, Value *out)
{
    Value f = *arg_given(a, 0), args;
    if (a->nrest == 0) return bi_fail(I, a, TypeError, "at least one iterable is needed after f");
    if (!zip_items(I, a, a->rest, a->nrest, 2, &args)) return false;
    List *l = args.as.l;
    bool ok = true;
    for (int64_t i = 0; ok && i < l->n; i++) {   /* each tuple of arguments replaced by f's result */
        Value r, t = l->items[i];
        ok = interp_call(I, f, t.as.tu->n, t.as.tu->items, a->at, &r);
        if (ok) l->items[i] = r, val_release(t);
    }
    if (!ok) {
        val_release(args);
        return false;
    }
    *out = args;
    return true;
}

/* filter(f, it): a list of the items of it for which f (none: the item itself) is true. */
static bool bi_filter(Interp *I, CallArgs *a, Value *out)
{
    Value f = *arg_given(a, 0), items, kept = val_list_new(0);
    if (kept.kind != V_LIST) return interp_error_rt(I, a->at);
    if (!items_param(I, a, 1, &items)) {
        val_release(kept);
        return false;
    }
    bool ok = true;
    for (int64_t i = 0; ok && i < items.as.l->n; i++) {
        Value x = items.as.l->items[i], r = x;
        bool keep = false, called = false;
        if (f.kind != V_NONE) ok = called = interp_call(I, f, 1, &x, a->at, &r);
        if (ok) ok = val_truthy(r, &keep) || interp_error_rt(I, a->at);
        if (called) val_release(r);   /* f's result, whether or not it had a truth value */
        if (ok && keep) ok = list_append(kept.as.l, val_retain(x)) || interp_error_rt(I, a->at);
    }
    val_release(items);
    if (!ok) {
        val_release(kept);
        return false;
    }
    *out = kept;
    return true;
}

const Builtin bi_lists_table[] = {
    { "list", bi_list, "list(iterable=none)", "a new list of the items of any iterable (empty without one)", 0, BF_OTHER, BT_NO },
    { "tuple", bi_tuple, "tuple(iterable=none)", "a tuple of the items of any iterable (() without one)", 0, BF_OTHER, BT_NO },
    { "append", bi_append, "append(xs, x)", "adds x at the end of the list xs", 0, BF_OTHER, BT_NO },
    { "extend", bi_extend, "extend(xs, items)", "adds the items of any iterable at the end of the list xs", 0, BF_OTHER, BT_NO },
    { "insert", bi_insert, "insert(xs, i, x)", "inserts x before item i of the list xs", 0, BF_OTHER, BT_NO },
    { "pop", bi_pop, "pop(xs, i=-1)", "removes item i of the list xs and returns it", 0, BF_OTHER, BT_NO },
    { "remove", bi_remove, "remove(xs, x)", "removes the first item of the list xs equal to x", 0, BF_OTHER, BT_NO },
    { "index", bi_index_count, "index(seq, x, start=none, end=none)", "the index of the first x in a list or tuple (of substring x in a string), in seq[start:end]", SEQ_INDEX, BF_OTHER, BT_NO },
    { "count", bi_index_count, "count(seq, x, start=none, end=none)", "how many items of a list or tuple equal x (substrings x of a string[start:end])", SEQ_COUNT, BF_OTHER, BT_NO },
    { "clear", bi_clear, "clear(xs)", "removes every item of a list", 0, BF_OTHER, BT_NO },
    { "reverse", bi_reverse, "reverse(xs)", "reverses the list xs in place", 0, BF_OTHER, BT_NO },
    { "sorted", bi_sorted, "sorted(it, key=none, reverse=false)", "a new sorted list of the items of any iterable (stable)", 0, BF_OTHER, BT_NO },
    { "reversed", bi_reversed, "reversed(seq)", "the items of any iterable in reverse order, as a list", 0, BF_OTHER, BT_NO },
    { "enumerate", bi_enumerate, "enumerate(it, start=0)", "a list of (index, item) pairs", 0, BF_OTHER, BT_NO },
    { "zip", bi_zip, "zip(*its)", "a list of tuples of the iterables' items, as long as the shortest", 0, BF_OTHER, BT_NO },
    { "map", bi_map, "map(f, *its)", "a list of f called with the iterables' items side by side", 0, BF_OTHER, BT_NO },
    { "filter", bi_filter, "filter(f, it)", "a list of the items of it for which f (none: the item itself) is true", 0, BF_OTHER, BT_NO },
    { 0 },
};

const Builtin bi_list_variants[] = {
    { "sort", bi_sort_list, "sort(xs, key=none, reverse=false)", "sorts a list in place (stable; key a function)", 0, BF_OTHER, BT_NO },
    { "copy", bi_copy_list, "copy(xs)", "a new list of the same items", 0, BF_OTHER, BT_NO },
    { 0 },
};
