/* kernels/outcache.c — reuse of large dead kernel outputs, so results do not pay page faults */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kern.h"

/* A fresh 40 MB result costs the kernel zeroing 10,000 pages before the op
   writes a byte, often more time than the op itself. So the kernels keep one
   extra reference to the storage of their last few large outputs; once the
   program has dropped every tensor on one (our reference is the only one
   left), the next output of about that size reuses it, already mapped.
   Bounded by entries and bytes; TL_KERNEL_CACHE=0 turns it off. */

#define CACHE_ENTRIES 6
#define CACHE_MIN_BYTES ((size_t)1 << 20)
#define CACHE_MAX_BYTES ((size_t)512 << 20)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static tl_storage *cache[CACHE_ENTRIES];
static size_t cached_bytes;
static int cache_enabled = -1;

static bool enabled(void)
{
    if (cache_enabled < 0) {
        const char *e = getenv("TL_KERNEL_CACHE");
        cache_enabled = !(e && e[0] == '0');
    }
    return cache_enabled;
}

static bool only_ours(tl_storage *s)
{
    return s->refcount == 1;
}

/* Drops our reference to entry i. */
static void drop(int i)
{
    cached_bytes -= cache[i]->nbytes;
    tl_storage_release(cache[i]);
    cache[i] = NULL;
}

/* Remembers s (retained), making room by dropping idle entries first. */
static void remember(tl_storage *s)
{
    if (s->nbytes > CACHE_MAX_BYTES) return;
    for (int i = 0; i < CACHE_ENTRIES && cached_bytes + s->nbytes > CACHE_MAX_BYTES; i++)
        if (cache[i] && only_ours(cache[i])) drop(i);
    if (cached_bytes + s->nbytes > CACHE_MAX_BYTES) return;
    int slot = -1;
    for (int i = 0; i < CACHE_ENTRIES && slot < 0; i++)
        if (!cache[i]) slot = i;
    for (int i = 0; i < CACHE_ENTRIES && slot < 0; i++)
        if (only_ours(cache[i])) { drop(i); slot = i; }
    if (slot < 0) slot = CACHE_ENTRIES - 1; /* all busy: forget the oldest */
    if (cache[slot]) drop(slot);
    memmove(cache + 1, cache, sizeof cache[0] * (size_t)slot);   /* newest first */
    tl_storage_retain(s);
    cache[0] = s;
    cached_bytes += s->nbytes;
}

tl_tensor *tl_kern_empty(tl_dtype dtype, int ndim, const int64_t *shape)
{
    int64_t n;
    if (tl_shape_size(ndim, shape, &n) < 0) return NULL;
    size_t need = (size_t)n * tl_dtype_size(dtype);
    if (need < CACHE_MIN_BYTES || !enabled()) return tl_tensor_empty(dtype, ndim, shape);
    int64_t strides[TL_MAXDIM];
    tl_contiguous_strides(ndim, shape, strides);
    pthread_mutex_lock(&cache_lock);
    tl_tensor *t = NULL;
    for (int i = 0; i < CACHE_ENTRIES && !t; i++) {
        tl_storage *s = cache[i];
        if (s && only_ours(s) && s->nbytes >= need && s->nbytes - need <= need / 4)
            t = tl_tensor_view_of(s, dtype, ndim, shape, strides, 0);
    }
    if (!t) {
        t = tl_tensor_empty(dtype, ndim, shape);
        if (t && t->storage->kind == TL_STORAGE_HEAP) remember(t->storage);
    }
    pthread_mutex_unlock(&cache_lock);
    return t;
}

void tl_kernel_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_ENTRIES; i++)
        if (cache[i]) drop(i);
    pthread_mutex_unlock(&cache_lock);
}
