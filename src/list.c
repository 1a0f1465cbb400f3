/* list.c — lists: a growable array of values (amortized O(1) append), splicing, printing */
#include <stdlib.h>
#include <string.h>

#include "value.h"

/* A list's header with its items array (V_UNDEF with the tl error set when out of memory). */
Value val_list_new(int64_t cap)
{
    List *l = calloc(1, sizeof *l);
    if (!l) goto oom;
    l->refcount = 1;
    if (!list_reserve(l, cap > 0 ? cap : 1)) {   /* items is never NULL: memcpy and memmove may take it */
        free(l);
        return (Value){ .kind = V_UNDEF };
    }
    val_link_new(&l->link, true);
    Value v = { .kind = V_LIST };
    v.as.l = l;
    return v;
oom:
    tl_seterr(MemoryError, "out of memory");
    return (Value){ .kind = V_UNDEF };
}

bool list_reserve(List *l, int64_t n)
{
    if (n <= l->cap) return true;
    if (n > LIST_MAX_ITEMS) {
        tl_seterr(MemoryError, "a list of %lld items is too large", (long long)n);
        return false;
    }
    int64_t cap = l->cap ? l->cap : 4;
    while (cap < n) cap = cap + cap / 2 + 4;   /* geometric: appends cost O(1) amortized */
    if (cap > LIST_MAX_ITEMS) cap = LIST_MAX_ITEMS;
    Value *items = realloc(l->items, (size_t)cap * sizeof *items);
    if (!items) {
        tl_seterr(MemoryError, "cannot allocate a list of %lld items: out of memory", (long long)n);
        return false;
    }
    l->items = items;
    l->cap = cap;
    return true;
}

bool list_push_slow(List *l, Value v)
{
    if (!list_reserve(l, l->n + 1)) {
        val_release(v);
        return false;
    }
    l->items[l->n++] = v;
    return true;
}

bool list_insert(List *l, int64_t i, Value v)
{
    if (!list_reserve(l, l->n + 1)) {
        val_release(v);
        return false;
    }
    memmove(l->items + i + 1, l->items + i, (size_t)(l->n - i) * sizeof *l->items);
    l->items[i] = v;
    l->n++;
    return true;
}

Value list_take(List *l, int64_t i)
{
    Value v = l->items[i];
    memmove(l->items + i, l->items + i + 1, (size_t)(l->n - i - 1) * sizeof *l->items);
    l->n--;
    return v;
}

bool list_splice(List *l, int64_t lo, int64_t hi, const Value *vs, int64_t n)
{
    int64_t removed = hi - lo, len = l->n - removed + n;
    Value *copy = NULL, *old = NULL;
    if (n > 0 && vs >= l->items && vs < l->items + l->n) {   /* xs[a:b] = xs: the source moves below */
        if (!(copy = malloc((size_t)n * sizeof *copy))) goto oom;
        memcpy(copy, vs, (size_t)n * sizeof *copy);
        vs = copy;
    }
    if (removed > 0) {   /* the replaced items are released once the list is whole again */
        if (!(old = malloc((size_t)removed * sizeof *old))) goto oom;
        memcpy(old, l->items + lo, (size_t)removed * sizeof *old);
    }
    if (!list_reserve(l, len)) {
        free(copy);
        free(old);
        return false;
    }
    for (int64_t k = 0; k < n; k++) val_retain(vs[k]);
    memmove(l->items + lo + n, l->items + hi, (size_t)(l->n - hi) * sizeof *l->items);
    if (n > 0) memcpy(l->items + lo, vs, (size_t)n * sizeof *l->items);
    l->n = len;
    for (int64_t k = 0; k < removed; k++) val_release(old[k]);
    free(old);
    free(copy);
    return true;
oom:
    free(copy);
    tl_seterr(MemoryError, "out of memory");
    return false;
}

Value val_list_of(const Value *vs, int64_t n)
{
    Value v = val_list_new(n);
    if (v.kind != V_LIST) return v;
    for (int64_t k = 0; k < n; k++) v.as.l->items[k] = val_retain(vs[k]);
    v.as.l->n = n;
    return v;
}

void list_reverse(List *l)
{
    for (int64_t i = 0, j = l->n - 1; i < j; i++, j--) {
        Value t = l->items[i];
        l->items[i] = l->items[j];
        l->items[j] = t;
    }
}

