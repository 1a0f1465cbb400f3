/* dict.c — dicts: string keys in insertion order, found through a hash index once there are more than a few */
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "value.h"

/* Up to this many keys a scan is as quick as hashing, and no index is kept. */
#define DICT_SCAN_MAX 8

static uint64_t key_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Enters entry i into the index (it has a free slot). */
static void index_put(Dict *d, int i)
{
    uint64_t mask = (uint64_t)d->index_cap - 1;
    uint64_t h = key_hash(d->keys[i]->data, d->keys[i]->len) & mask;
    while (d->index[h] >= 0) h = (h + 1) & mask;
    d->index[h] = i;
}

/* Builds the index anew for the entries there are, at most half full. Without memory the dict
   goes on without one (scanning: slower, never wrong). */
static void index_rebuild(Dict *d)
{
    free(d->index);
    d->index = NULL;
    d->index_cap = 0;
    if (d->n <= DICT_SCAN_MAX) return;
    int cap = 32;
    while (cap < 4 * d->n && cap < (1 << 30)) cap *= 2;
    d->index = malloc((size_t)cap * sizeof *d->index);
    if (!d->index) return;
    memset(d->index, 0xff, (size_t)cap * sizeof *d->index);
    d->index_cap = cap;
    for (int i = 0; i < d->n; i++) index_put(d, i);
}

/* The entry holding key, or -1. */
static int find(const Dict *d, const char *key, size_t klen)
{
    if (!d->index) {
        for (int i = 0; i < d->n; i++)
            if (d->keys[i]->len == klen && memcmp(d->keys[i]->data, key, klen) == 0) return i;
        return -1;
    }
    uint64_t mask = (uint64_t)d->index_cap - 1;
    for (uint64_t h = key_hash(key, klen) & mask;; h = (h + 1) & mask) {
        int i = d->index[h];
        if (i < 0) return -1;
        if (d->keys[i]->len == klen && memcmp(d->keys[i]->data, key, klen) == 0) return i;
    }
}

Value *dict_get(Dict *d, const char *key, size_t klen)
{
    int i = find(d, key, klen);
    return i >= 0 ? &d->vals[i] : NULL;
}

bool dict_set(Dict *d, const char *key, size_t klen, Value v)
{
    Value *slot = dict_get(d, key, klen);
    if (slot) {
        val_release(*slot);
        *slot = v;
        return true;
    }
    if (d->n == d->cap) {
        if (d->cap > (1 << 29)) goto oom;
        int ncap = d->cap ? d->cap * 2 : 8;
        Str **nk = realloc(d->keys, (size_t)ncap * sizeof *nk);
        if (!nk) goto oom;
        d->keys = nk;
        Value *nv = realloc(d->vals, (size_t)ncap * sizeof *nv);
        if (!nv) goto oom;
        d->vals = nv;
        d->cap = ncap;
    }
    Value ks = val_str(key, klen);
    if (ks.kind != V_STR) goto oom;
    d->keys[d->n] = ks.as.s;
    d->vals[d->n] = v;
    d->n++;
    if (d->index && 2 * d->n <= d->index_cap) index_put(d, d->n - 1);
    else if (d->n > DICT_SCAN_MAX) index_rebuild(d);
    return true;
oom:
    val_release(v);
    tl_seterr(MemoryError, "out of memory");
    return false;
}

bool dict_update(Dict *d, const Dict *from)
{
    for (int i = 0; i < from->n; i++)
        if (!dict_set(d, from->keys[i]->data, from->keys[i]->len, val_retain(from->vals[i]))) return false;
    return true;
}

void dict_clear(Dict *d)
{
    int n = d->n;
    d->n = 0;
    index_rebuild(d);
    for (int i = 0; i < n; i++) {
        if (--d->keys[i]->refcount == 0) str_free(d->keys[i]);
        val_release(d->vals[i]);
    }
}

bool dict_remove(Dict *d, const char *key, size_t klen)
{
    int i = find(d, key, klen);
    if (i < 0) return false;
    Str *k = d->keys[i];
    Value v = d->vals[i];
    memmove(d->keys + i, d->keys + i + 1, (size_t)(d->n - i - 1) * sizeof *d->keys);
    memmove(d->vals + i, d->vals + i + 1, (size_t)(d->n - i - 1) * sizeof *d->vals);
    d->n--;
    if (d->index) index_rebuild(d);   /* the entries after i moved down one */
    if (--k->refcount == 0) str_free(k);
    val_release(v);
    return true;
}

const char *dict_key_hint(const Dict *d, const char *key, char *buf, size_t cap)
{
    tl_suggest s;
    tl_suggest_init(&s, key);
    for (int i = 0; i < d->n; i++) tl_suggest_add(&s, d->keys[i]->data);
    return tl_suggest_text(&s, '"', buf, cap);
}
