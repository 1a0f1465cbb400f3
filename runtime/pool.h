/* pool.h — the pool of freed large heap blocks, as tensor.c's storage allocation sees it (not public API) */
#ifndef TL_POOL_H
#define TL_POOL_H

/* Private to the runtime (tensor.c and pool.c); runtime/meson.build defines TL_RUNTIME_INTERNAL for its files. */
#ifndef TL_RUNTIME_INTERNAL
#error "pool.h is private to tl's runtime library: include tensor.h instead"
#endif

#include <stdbool.h>
#include <stddef.h>

/* Blocks of at least this many bytes are mapped whole and pass through the pool. */
#define TL_POOL_MIN_BYTES ((size_t)1 << 20)

/* A page-aligned block of at least need bytes (need >= TL_POOL_MIN_BYTES):
   a pooled block of need's size class when there is one and zero is false,
   else a fresh mapping (zeroed by the system). Sets *len to what
   tl_pool_give_back needs; NULL (error set) when out of memory. */
void *tl_pool_take(size_t need, bool zero, size_t *len);
/* Keeps a block from tl_pool_take for reuse, or unmaps it when the pool would
   outgrow its bound. */
void tl_pool_give_back(void *block, size_t len);

#endif
