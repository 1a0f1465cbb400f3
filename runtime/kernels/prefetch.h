/* kernels/prefetch.h — asking for bytes before a loop reads them: the helpers the product kernels share */
#ifndef TL_PREFETCH_H
#define TL_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

/* Asks for the n bytes at p to be brought into the cache. */
static inline void prefetch_bytes(const void *p, size_t n)
{
    for (size_t o = 0; o < n; o += 64) __builtin_prefetch((const char *)p + o, 0, 3);
}

/* Asks for the n bytes `ahead` past p (a prefetch does not fault, even past the end of a
   mapping; the address is made as an integer, not a pointer out of its object). */
static inline void prefetch_ahead(const void *p, int n, int ahead)
{
    for (int o = 0; o < n; o += 64) __builtin_prefetch((const void *)((uintptr_t)p + (uintptr_t)ahead + (uintptr_t)o), 0, 3);
}

/* prefetch_ahead into L2 only. */
static inline void prefetch_ahead_l2(const void *p, int n, int ahead)
{
    for (int o = 0; o < n; o += 64) __builtin_prefetch((const void *)((uintptr_t)p + (uintptr_t)ahead + (uintptr_t)o), 0, 2);
}

#endif
