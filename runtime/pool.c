/* pool.c — a bounded pool of freed large heap blocks, bucketed by size class, so big results reuse mapped pages */
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pool.h"
#include "tensor.h"

/* A fresh 40 MB result costs the system zeroing 10,000 pages before the op
   writes a byte, often more time than the op itself. So a released block of
   1 MiB or more is kept here (only once nothing refers to it any more) and
   the next storage of its size class takes it, already mapped. Sizes are
   rounded up to four classes per octave (at most 25% more address space,
   never touched unless used), so a block fits every request of its class.
   The pool holds at most `limit` bytes (TL_POOL_MB, default 256; 0 turns it
   off) and at most POOL_SLOTS blocks; the oldest go back to the system first. */

#define POOL_SLOTS 64
#define DEFAULT_LIMIT_MB 256
/* Large fresh blocks ask for transparent huge pages (as numpy does for >= 4 MiB):
   first-touch page faults otherwise dominate copying a fresh 64 MiB tensor. */
#define HUGEPAGE_MIN ((size_t)4 << 20)

/* Under AddressSanitizer a pooled block is poisoned, so a use after release is
   still reported although the memory stays mapped. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POOL_POISON(p, n) ((void)(p), (void)(n))
#define POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct pooled { void *block; size_t len; } pooled;

/* Storages may be released on any thread, so the pool takes a lock; it is
   paid once per allocation of a megabyte or more. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pooled slots[POOL_SLOTS];   /* oldest first */
static int nslots;
static size_t pooled_bytes, limit;
static bool limit_known;
static uint64_t hits, misses;

/* The bound from TL_POOL_MB (megabytes), read once; caller holds the lock. */
static void know_limit(void)
{
    if (limit_known) return;
    limit_known = true;
    limit = (size_t)DEFAULT_LIMIT_MB << 20;
    const char *e = getenv("TL_POOL_MB");
    if (e && *e) {
        char *end;
        unsigned long long mb = strtoull(e, &end, 10);
        if (*end == 0 && mb <= (SIZE_MAX >> 21)) limit = (size_t)mb << 20;
    }
}

/* need rounded up to its class: 4 classes per power of two (need >= 1 MiB). */
static size_t size_class(size_t need)
{
    int top = 63 - __builtin_clzll((unsigned long long)need);
    size_t step = (size_t)1 << (top - 2);
    return (need + step - 1) / step * step;
}

static size_t round_page(size_t n) { return (n + 4095) & ~(size_t)4095; }

/* Unmaps a block that left the pool. */
static void unmap(void *block, size_t len)
{
    POOL_UNPOISON(block, len);   /* the addresses may be mapped again for anything */
    munmap(block, len);
}

/* Removes slot i and returns its block; caller holds the lock. */
static pooled remove_slot(int i)
{
    pooled p = slots[i];
    memmove(slots + i, slots + i + 1, sizeof slots[0] * (size_t)(nslots - i - 1));
    nslots--;
    pooled_bytes -= p.len;
    return p;
}

/* Gives back the oldest blocks until `room` more bytes (and one more slot) fit
   under the bound; caller holds the lock. */
static void evict_for(size_t room)
{
    while (nslots > 0 && (pooled_bytes + room > limit || nslots == POOL_SLOTS)) {
        pooled p = remove_slot(0);
        unmap(p.block, p.len);
    }
}

void *tl_pool_take(size_t need, bool zero, size_t *len)
{
    pthread_mutex_lock(&pool_lock);
    know_limit();
    size_t want = limit ? size_class(need) : round_page(need);
    for (int i = nslots - 1; i >= 0 && !zero; i--) {   /* newest first: its pages are the warmest */
        if (slots[i].len != want) continue;
        pooled p = remove_slot(i);
        hits++;
        pthread_mutex_unlock(&pool_lock);
        POOL_UNPOISON(p.block, p.len);
        *len = p.len;
        return p.block;
    }
    misses++;
    pthread_mutex_unlock(&pool_lock);
    /* a fresh anonymous mapping reads as zero, and its pages cost nothing until touched */
    void *b = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED) {
        tl_seterr(MemoryError, "cannot allocate %zu bytes: out of memory", need);
        return NULL;
    }
    if (want >= HUGEPAGE_MIN) madvise(b, want, MADV_HUGEPAGE);   /* a hint: failure is harmless */
    *len = want;
    return b;
}

void tl_pool_give_back(void *block, size_t len)
{
    pthread_mutex_lock(&pool_lock);
    know_limit();
    if (len <= limit) {
        evict_for(len);
        POOL_POISON(block, len);
        slots[nslots++] = (pooled){ block, len };
        pooled_bytes += len;
        pthread_mutex_unlock(&pool_lock);
        return;
    }
    pthread_mutex_unlock(&pool_lock);
    munmap(block, len);   /* never poisoned: nothing to undo */
}

/* glibc gives the heap's top back to the system once 128 KiB there are free (a bound it
   raises as it sees big blocks freed), and a loop that frees a result of that size and
   allocates the next one pays the page faults of the pages it got back every step:
   llama.tl's 128 KB logits cost 11% of a Q8_0 decode that way. Setting the bound turns
   glibc's raising off, so the mapping threshold is set too, to the top of the range glibc
   would raise it to: storages of 1 MiB or more come from the pool anyway, and other
   blocks up to 32 MiB (kernels' scratch) from the heap, not a fresh mapping each time. */
#define HEAP_MAP_FROM ((int)32 << 20)

void tl_heap_keep_freed(size_t keep)
{
#ifdef M_TRIM_THRESHOLD
    mallopt(M_MMAP_THRESHOLD, HEAP_MAP_FROM);
    mallopt(M_TRIM_THRESHOLD, keep < INT_MAX ? (int)keep : INT_MAX);
#else
    (void)keep;
#endif
}

void tl_pool_set_limit(size_t bytes)
{
    pthread_mutex_lock(&pool_lock);
    limit_known = true;
    limit = bytes;
    evict_for(0);
    pthread_mutex_unlock(&pool_lock);
}

void tl_pool_trim(void)
{
    pthread_mutex_lock(&pool_lock);
    while (nslots > 0) {
        pooled p = remove_slot(nslots - 1);
        unmap(p.block, p.len);
    }
    pthread_mutex_unlock(&pool_lock);
}

tl_pool_stats tl_pool_get_stats(void)
{
    pthread_mutex_lock(&pool_lock);
    know_limit();
    tl_pool_stats s = { pooled_bytes, limit, hits, misses, nslots };
    pthread_mutex_unlock(&pool_lock);
    return s;
}
