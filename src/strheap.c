/* strheap.c — where strings live: small ones in per-size free lists carved from 64 KiB slabs, big ones from malloc */
#include <stdlib.h>

#include "value.h"

/* Splitting a 10 MB text makes a million strings of a few bytes: a fresh malloc costs about a
   hundred instructions each, a slab's bump pointer or free list a handful (as CPython's
   pymalloc). Blocks are never handed back to the system: a freed block waits in its size's free
   list, per thread (a string may be freed by another thread than made it: it joins that
   thread's list). Sanitizer builds use malloc for every string, so each one is checked. */

#if defined(__SANITIZE_ADDRESS__)
#define STRHEAP_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define STRHEAP_POOL 0
#endif
#endif
#ifndef STRHEAP_POOL
#define STRHEAP_POOL 1
#endif

#define GRAIN 16                      /* block sizes are multiples of this */
#define NCLASSES 16                   /* blocks of 16 .. 256 bytes come from the pool */
#define SLAB_BYTES ((size_t)64 << 10)

typedef union Block { union Block *next; max_align_t align; } Block;

typedef struct Heap {
    Block *free[NCLASSES];
    char *bump, *bump_end;            /* the rest of the newest slab */
} Heap;

static _Thread_local Heap heap;

/* The size class of a block of n bytes, or -1 when it is too big for the pool. */
static int size_class(size_t n)
{
    size_t c = (n + GRAIN - 1) / GRAIN;
    return STRHEAP_POOL && c <= NCLASSES ? (int)c - 1 : -1;
}

/* A block of class c from the bump pointer, after a new slab when the last one is used up. */
static void *carve(int c)
{
    size_t n = (size_t)(c + 1) * GRAIN;
    if ((size_t)(heap.bump_end - heap.bump) < n) {
        char *slab = malloc(SLAB_BYTES);
        if (!slab) return NULL;
        heap.bump = slab;   /* the old slab's tail (under 256 bytes) stays unused */
        heap.bump_end = slab + SLAB_BYTES;
    }
    void *p = heap.bump;
    heap.bump += n;
    return p;
}

Str *str_alloc(size_t len)
{
    size_t n = sizeof(Str) + len + 1;
    int c = size_class(n);
    if (c < 0) return malloc(n);
    Block *b = heap.free[c];
    if (b) {
        heap.free[c] = b->next;
        return (Str *)b;
    }
    return carve(c);
}

void str_free(Str *s)
{
    int c = size_class(sizeof(Str) + s->len + 1);
    if (c < 0) {
        free(s);
        return;
    }
    Block *b = (Block *)s;
    b->next = heap.free[c];
    heap.free[c] = b;
}
