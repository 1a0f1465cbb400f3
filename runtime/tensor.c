/* tensor.c — storage and tensor headers: allocation, refcounts, shapes and strides */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pool.h"
#include "tensor.h"

#define TL_ALIGN 64

/* ---- storage ------------------------------------------------------------- */

/* The last heap storage's serial number. */
static uint64_t heap_ids;

/* Serial numbers only name storages in info(); two threads racing here may
   draw the same number, which is harmless, so no locked instruction is paid. */
static uint64_t next_heap_id(void)
{
    uint64_t *counter = &heap_ids;
    uint64_t id = __atomic_load_n(counter, __ATOMIC_RELAXED) + 1;
    __atomic_store_n(counter, id, __ATOMIC_RELAXED);
    return id;
}

void tl_storage_restart_ids(void) { __atomic_store_n(&heap_ids, 0, __ATOMIC_RELAXED); }

/* ---- recycling of small blocks ---------------------------------------------
   A loop like `s = s + v` over 4-element tensors makes and drops one header and
   one storage per step; malloc and free of those cost more than the arithmetic.
   So each thread keeps a short list of freed headers and of small storages
   (the struct and its data in one block) and hands them out again. A thread's
   lists are freed when it exits. The lists are arrays of pointers, not links
   inside the blocks: a kept block is poisoned under AddressSanitizer, and
   LeakSanitizer ignores pointers stored in poisoned memory, so a link there
   would make every block after the first look leaked. */

#define RECYCLE_MAX 64
#define SMALL_DATA_MAX 256   /* bytes of data stored inline with the storage struct */
/* data of an inline storage starts here, 64-byte aligned from an aligned block */
#define SMALL_DATA_OFFSET ((sizeof(tl_storage) + TL_ALIGN - 1) & ~(size_t)(TL_ALIGN - 1))

/* Under AddressSanitizer a kept block is poisoned, so a use after release is
   still reported although the memory is not freed. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define RECYCLE_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define RECYCLE_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define RECYCLE_POISON(p, n) ((void)(p), (void)(n))
#define RECYCLE_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct recycle_list { void *blocks[RECYCLE_MAX]; int count; } recycle_list;
enum { RECYCLE_HEADER, RECYCLE_SMALL_STORAGE, RECYCLE_KINDS };

static _Thread_local recycle_list recycle_lists[RECYCLE_KINDS];
static _Thread_local bool recycle_registered;
static pthread_key_t recycle_key;
static pthread_once_t recycle_once = PTHREAD_ONCE_INIT;
static const size_t recycle_block_bytes[RECYCLE_KINDS] = {
    sizeof(tl_tensor), SMALL_DATA_OFFSET + SMALL_DATA_MAX,
};

/* Thread-exit destructor: frees the exiting thread's lists. */
static void recycle_drain(void *unused)
{
    (void)unused;
    for (int k = 0; k < RECYCLE_KINDS; k++) {
        recycle_list *l = &recycle_lists[k];
        while (l->count > 0) {
            void *b = l->blocks[--l->count];
            RECYCLE_UNPOISON(b, recycle_block_bytes[k]);
            free(b);
        }
    }
}

static void recycle_make_key(void) { (void)pthread_key_create(&recycle_key, recycle_drain); }

/* A block from kind's list, or NULL when it is empty. */
static inline void *recycle_take(int kind)
{
    recycle_list *l = &recycle_lists[kind];
    if (l->count == 0) return NULL;
    void *b = l->blocks[--l->count];
    RECYCLE_UNPOISON(b, recycle_block_bytes[kind]);
    return b;
}

/* Keeps block p for reuse; false when the list is full (the caller frees it). */
static inline bool recycle_keep(int kind, void *p)
{
    recycle_list *l = &recycle_lists[kind];
    if (l->count >= RECYCLE_MAX) return false;
    if (!recycle_registered) {
        /* the key's destructor runs only for threads that set a value */
        pthread_once(&recycle_once, recycle_make_key);
        if (pthread_setspecific(recycle_key, recycle_lists) != 0) return false;
        recycle_registered = true;
    }
    l->blocks[l->count++] = p;
    RECYCLE_POISON(p, recycle_block_bytes[kind]);
    return true;
}

/* Fills a fresh storage (refcount 1): data and its size, and what releasing
   it frees or unmaps (base, len). Heap storages get a serial number. */
static tl_storage *storage_init(tl_storage *s, tl_storage_kind kind, void *data, size_t nbytes, void *base,
                                size_t len)
{
    s->refcount = 1;
    s->data = data;
    s->nbytes = nbytes;
    s->kind = kind;
    s->map_base = base;
    s->map_len = len;
    s->lazy = NULL;
    s->work = NULL;
    s->release = NULL;
    s->release_ctx = NULL;
    s->id = kind == TL_STORAGE_HEAP ? next_heap_id() : 0;   /* named lazily: formatting here costs more than a small op */
    s->name[0] = 0;
    return s;
}

/* A storage with its data inline (map_base == the storage itself). */
static tl_storage *storage_new_small(size_t nbytes, bool zero)
{
    tl_storage *s = recycle_take(RECYCLE_SMALL_STORAGE);
    if (!s) s = aligned_alloc(TL_ALIGN, SMALL_DATA_OFFSET + SMALL_DATA_MAX);
    if (!s) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    void *data = (char *)s + SMALL_DATA_OFFSET;
    if (zero) memset(data, 0, nbytes);
    return storage_init(s, TL_STORAGE_HEAP, data, nbytes, s, 0);
}

size_t tl_storage_max_bytes = (size_t)PTRDIFF_MAX - TL_ALIGN;

/* Heap storage below TL_POOL_MIN_BYTES is malloc'd (calloc'd when zeroed)
   with room to align data to 64 bytes; map_base keeps the raw pointer for
   free(). Larger storage is a whole block from the pool (pool.c): page-aligned,
   and zeroed blocks are fresh mappings, so big zero tensors stay lazy pages.
   Small storages carry their data inline. */
/* This thread's count of storages allocated (tl_storage_count). */
static _Thread_local uint64_t storages_allocated;

uint64_t tl_storage_count(void) { return storages_allocated; }

bool tl_storage_counted(const tl_storage *s) { return s->nbytes > SMALL_DATA_MAX; }

/* Heap bytes for a storage of nbytes (more than SMALL_DATA_MAX): data 64-byte aligned, and
   what freeing them needs (base, len); false with the error set. */
static bool heap_block(size_t nbytes, bool zero, void **data, void **base, size_t *len)
{
    if (nbytes > tl_storage_max_bytes) {
        tl_seterr(MemoryError, "cannot allocate %zu bytes: too large", nbytes);
        return false;
    }
    if (nbytes >= TL_POOL_MIN_BYTES) {
        *data = *base = tl_pool_take(nbytes, zero, len);
        return *data != NULL;
    }
    size_t total = nbytes + TL_ALIGN;
    void *raw = zero ? calloc(1, total) : malloc(total);
    if (!raw) {
        tl_seterr(MemoryError, "cannot allocate %zu bytes: out of memory", nbytes);
        return false;
    }
    *data = (void *)(((uintptr_t)raw + TL_ALIGN - 1) & ~(uintptr_t)(TL_ALIGN - 1));
    *base = raw;
    *len = total;
    return true;
}

/* Copies s's bytes to a heap block of its own (an allocation tl_storage_count counts), which
   s then frees as heap storage does; false (error set, s unchanged) when out of memory. */
static bool storage_move_to_heap(tl_storage *s)
{
    void *data, *base;
    size_t len;
    if (!heap_block(s->nbytes, false, &data, &base, &len)) return false;
    if (s->nbytes) memcpy(data, s->data, s->nbytes);
    s->data = data;
    s->map_base = base;
    s->map_len = len;
    if (tl_storage_counted(s)) storages_allocated++;
    return true;
}

/* The workspace installed on this thread (tl_workspace_begin), NULL when none. */
static _Thread_local tl_workspace *cur_work;

static size_t work_round(size_t n) { return (n + TL_ALIGN - 1) & ~(size_t)(TL_ALIGN - 1); }

/* Recomputes w's top after a release: the end of its highest storage still taken. */
static void work_settle(tl_workspace *w)
{
    int k = w->n;
    while (k > 0 && !w->e[k - 1].live) k--;
    w->top = k ? w->e[k - 1].at + work_round(w->e[k - 1].len) : 0;
}

/* Takes storage s of nbytes from w: its bytes in w's buffer (s allocated by the caller,
   data set here), or, measuring, records the heap storage s. False: w is full. */
static bool work_take(tl_workspace *w, tl_storage *s, size_t nbytes, bool zero)
{
    if (w->n >= TL_WORKSPACE_MAX || (w->buf && (nbytes > w->cap || w->top > w->cap - nbytes))) return false;
    int i = w->n++;
    w->e[i].s = s;
    w->e[i].at = w->top;
    w->e[i].len = nbytes;
    w->e[i].live = true;
    w->top += work_round(nbytes);
    if (w->top > w->need) w->need = w->top;
    s->work = w;
    if (!w->buf) {
        w->ev[w->nev++] = (int16_t)(i + 1);
        return true;
    }
    char *data = (char *)w->buf->data + w->offset + w->e[i].at;
    if (zero) memset(data, 0, nbytes);
    tl_storage_retain(w->buf);
    storage_init(s, TL_STORAGE_HEAP, data, nbytes, NULL, 0);
    s->work = w;
    return true;
}

/* Gives storage s's entry back to its workspace (its last reference went). */
static void work_give_back(tl_storage *s)
{
    tl_workspace *w = s->work;
    for (int i = w->n - 1; i >= 0; i--)
        if (w->e[i].s == s && w->e[i].live) {
            w->e[i].live = false;
            if (!w->buf) w->ev[w->nev++] = (int16_t)-(i + 1);
            break;
        }
    s->work = NULL;
    work_settle(w);
}

void tl_workspace_begin(tl_workspace *w, tl_storage *buf, size_t offset, size_t cap)
{
    w->buf = buf;
    w->offset = offset;
    w->cap = buf ? cap : 0;
    w->top = w->need = 0;
    w->n = w->nev = 0;
    w->prev = cur_work;
    cur_work = w;
}

/* Measuring: the peak of the same stack of storages without those alive at the end. */
static size_t work_replay(const tl_workspace *w)
{
    size_t at[TL_WORKSPACE_MAX], top = 0, need = 0;
    bool taken[TL_WORKSPACE_MAX] = { 0 };
    int hi = -1;                       /* the highest entry taken so far */
    for (int k = 0; k < w->nev; k++) {
        int i = w->ev[k] > 0 ? w->ev[k] - 1 : -w->ev[k] - 1;
        if (w->e[i].live) continue;    /* the result: not in the buffer */
        if (w->ev[k] > 0) {
            at[i] = top;
            taken[i] = true;
            hi = i;
            top += work_round(w->e[i].len);
            if (top > need) need = top;
        } else {
            taken[i] = false;
            while (hi >= 0 && (w->e[hi].live || !taken[hi])) hi--;
            top = hi >= 0 ? at[hi] + work_round(w->e[hi].len) : 0;
        }
    }
    return need;
}

int tl_workspace_end(tl_workspace *w)
{
    int rc = 0;
    cur_work = w->prev;
    if (!w->buf) {
        for (int i = 0; i < w->n; i++)
            if (w->e[i].live) w->e[i].s->work = NULL;
        w->need = work_replay(w);
        return 0;
    }
    for (int i = 0; i < w->n; i++) {
        if (!w->e[i].live) continue;
        tl_storage *s = w->e[i].s;
        if (!storage_move_to_heap(s)) {
            rc = -1;            /* s keeps the buffer's bytes, and the buffer with them */
            continue;
        }
        s->work = NULL;
        tl_storage_release(w->buf);
    }
    return rc;
}

tl_storage *tl_storage_new(size_t nbytes, bool zero)
{
    if (nbytes <= SMALL_DATA_MAX) return storage_new_small(nbytes, zero);
    tl_storage *s = malloc(sizeof *s);
    if (!s) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    if (cur_work && cur_work->buf && work_take(cur_work, s, nbytes, zero)) return s;
    storages_allocated++;
    void *data, *base;
    size_t len;
    if (!heap_block(nbytes, zero, &data, &base, &len)) {
        free(s);
        return NULL;
    }
    storage_init(s, TL_STORAGE_HEAP, data, nbytes, base, len);
    if (cur_work && !cur_work->buf) work_take(cur_work, s, nbytes, zero);
    return s;
}

const char *tl_storage_name(const tl_storage *s, char *buf, size_t n)
{
    if (s->kind == TL_STORAGE_HEAP) snprintf(buf, n, "heap#%llu", (unsigned long long)s->id);
    else snprintf(buf, n, "%s", s->name);
    return buf;
}

tl_storage *tl_storage_mapped(void *map_base, size_t map_len, void *data, size_t nbytes, const char *name)
{
    tl_storage *s = malloc(sizeof *s);
    if (!s) {
        munmap(map_base, map_len);   /* we own the mapping even when we fail */
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    storage_init(s, TL_STORAGE_MAPPED, data, nbytes, map_base, map_len);
    snprintf(s->name, sizeof s->name, "%s", name ? name : "mapped");
    return s;
}

/* Any address will do for the data of an empty external storage: no element is ever read. */
static char no_bytes[1];

tl_storage *tl_storage_external(void *data, size_t nbytes, void (*release)(void *ctx), void *ctx, const char *name)
{
    tl_storage *s = malloc(sizeof *s);
    if (!s) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    storage_init(s, TL_STORAGE_EXTERNAL, nbytes ? data : no_bytes, nbytes, NULL, 0);
    s->release = release;
    s->release_ctx = ctx;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "external");
    return s;
}

int tl_storage_detach(tl_storage *s)
{
    if (s->kind != TL_STORAGE_EXTERNAL) return 0;
    if (!storage_move_to_heap(s)) return -1;
    void (*release)(void *) = s->release;
    s->kind = TL_STORAGE_HEAP;
    s->id = next_heap_id();
    s->name[0] = 0;
    s->release = NULL;
    if (release) release(s->release_ctx);
    s->release_ctx = NULL;
    return 0;
}

/* ---- lazy storage ----------------------------------------------------------
   The data is an anonymous mapping: untouched pages cost nothing and read as
   zero, so every path that hands out a pointer for reading or writing
   (tl_tensor_data, tl_tensor_at, and the few that compute their own) first
   materializes the bytes it covers. A chunk is filled by whichever thread
   claims it first; others wanting it wait until it is ready, so no thread ever
   reads a half-filled chunk. */

enum { CHUNK_EMPTY, CHUNK_FILLING, CHUNK_READY };

struct tl_lazy {
    tl_lazy_fill_fn fill;
    void *ctx;
    void (*ctx_free)(void *);
    size_t chunk;
    int64_t nchunks;
    const uint8_t *qblocks;         /* the ggml blocks the filler reads, when it dequantizes */
    tl_storage *qholder;            /* the storage they lie in (the filler holds it) */
    int qtype;
    _Atomic int64_t ready;          /* chunks filled: all of them means nothing is left to check */
    _Atomic uint8_t state[];        /* per chunk */
};

tl_storage *tl_storage_lazy(size_t nbytes, size_t chunk, tl_lazy_fill_fn fill, void *ctx,
                            void (*ctx_free)(void *), const char *name)
{
    int64_t nchunks = (int64_t)((nbytes + chunk - 1) / chunk);
    size_t len = (nbytes + 4095) & ~(size_t)4095;
    tl_lazy *lz = calloc(1, sizeof *lz + (size_t)nchunks);
    tl_storage *s = malloc(sizeof *s);
    void *data = len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                     : MAP_FAILED;
    if (!lz || !s || data == MAP_FAILED) {
        if (data != MAP_FAILED) munmap(data, len);
        free(lz);
        free(s);
        if (ctx_free) ctx_free(ctx);
        tl_seterr(MemoryError, "cannot reserve %zu bytes for a lazily computed tensor", nbytes);
        return NULL;
    }
    *lz = (tl_lazy){ .fill = fill, .ctx = ctx, .ctx_free = ctx_free, .chunk = chunk, .nchunks = nchunks };
    storage_init(s, TL_STORAGE_LAZY, data, nbytes, data, len);
    s->lazy = lz;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "lazy");
    return s;
}

/* Bytes in chunk c (the last one may be short). */
static size_t chunk_len(const tl_storage *s, int64_t c)
{
    size_t lo = (size_t)c * s->lazy->chunk;
    return s->nbytes - lo < s->lazy->chunk ? s->nbytes - lo : s->lazy->chunk;
}

/* Claims chunk c for filling (true), unless another thread has or is filling it. */
static bool claim_chunk(tl_lazy *lz, int64_t c)
{
    uint8_t expect = CHUNK_EMPTY;
    return atomic_load_explicit(&lz->state[c], memory_order_acquire) == CHUNK_EMPTY &&
           atomic_compare_exchange_strong(&lz->state[c], &expect, CHUNK_FILLING);
}

/* Fills the claimed chunks [c0, c1) with one call of the filler, and marks them ready. */
static void fill_run(tl_storage *s, int64_t c0, int64_t c1)
{
    tl_lazy *lz = s->lazy;
    size_t lo = (size_t)c0 * lz->chunk, hi = (size_t)(c1 - 1) * lz->chunk + chunk_len(s, c1 - 1);
    lz->fill(lz->ctx, lo, hi - lo, (char *)s->data + lo);
    for (int64_t c = c0; c < c1; c++) atomic_store_explicit(&lz->state[c], CHUNK_READY, memory_order_release);
    atomic_fetch_add(&lz->ready, c1 - c0);
}

/* Runs of chunks this thread claims are filled one call each: a filler that reads a file
   (io/lazy.c) then reads and releases its pages once per run, not once per chunk. Chunks
   another thread fills are waited for at the end. */
void tl_storage_materialize(tl_storage *s, int64_t lo, int64_t hi)
{
    if (s->kind != TL_STORAGE_LAZY) return;
    if (lo < 0) lo = 0;
    if (hi > (int64_t)s->nbytes) hi = (int64_t)s->nbytes;
    if (lo >= hi) return;
    tl_lazy *lz = s->lazy;
    if (atomic_load_explicit(&lz->ready, memory_order_acquire) == lz->nchunks) return;
    int64_t first = lo / (int64_t)lz->chunk, last = (hi - 1) / (int64_t)lz->chunk;
    if (last >= lz->nchunks) last = lz->nchunks - 1;
    int64_t run = -1;                  /* first chunk of the run claimed so far, or -1 */
    bool others = false;               /* some chunk is another thread's to fill */
    for (int64_t c = first; c <= last; c++) {
        if (claim_chunk(lz, c)) {
            if (run < 0) run = c;
            continue;
        }
        if (run >= 0) fill_run(s, run, c);
        run = -1;
        others |= atomic_load_explicit(&lz->state[c], memory_order_acquire) != CHUNK_READY;
    }
    if (run >= 0) fill_run(s, run, last + 1);
    for (int64_t c = first; others && c <= last; c++)
        while (atomic_load_explicit(&lz->state[c], memory_order_acquire) != CHUNK_READY) sched_yield();
}

void tl_storage_set_quant(tl_storage *s, tl_storage *holder, const uint8_t *blocks, int ggml_type)
{
    s->lazy->qholder = holder;
    s->lazy->qblocks = blocks;
    s->lazy->qtype = ggml_type;
}

bool tl_storage_quant(const tl_storage *s, const uint8_t **blocks, int *ggml_type)
{
    if (s->kind != TL_STORAGE_LAZY || !s->lazy->qblocks) return false;
    *blocks = s->lazy->qblocks;
    *ggml_type = s->lazy->qtype;
    return true;
}

tl_storage *tl_storage_quant_holder(const tl_storage *s)
{
    return s->kind == TL_STORAGE_LAZY ? s->lazy->qholder : NULL;
}

bool tl_storage_touched(const tl_storage *s, int64_t lo, int64_t hi)
{
    if (s->kind != TL_STORAGE_LAZY || lo >= hi) return false;
    const tl_lazy *lz = s->lazy;
    if (atomic_load_explicit(&lz->ready, memory_order_acquire) == 0) return false;
    for (int64_t c = lo / (int64_t)lz->chunk; c <= (hi - 1) / (int64_t)lz->chunk && c < lz->nchunks; c++)
        if (atomic_load_explicit(&lz->state[c], memory_order_acquire) != CHUNK_EMPTY) return true;
    return false;
}

size_t tl_storage_materialized_bytes(const tl_storage *s)
{
    if (s->kind != TL_STORAGE_LAZY) return s->nbytes;
    size_t n = 0;
    for (int64_t c = 0; c < s->lazy->nchunks; c++)
        if (atomic_load(&s->lazy->state[c]) == CHUNK_READY) n += chunk_len(s, c);
    return n;
}

void tl_tensor_materialize(const tl_tensor *t)
{
    int64_t lo, hi;
    if (t->storage->kind == TL_STORAGE_LAZY && tl_byte_range(t, &lo, &hi)) tl_storage_materialize(t->storage, lo, hi);
}

/* Unmaps a lazy storage's data and drops its filler. */
static void lazy_free(tl_storage *s)
{
    munmap(s->map_base, s->map_len);
    if (s->lazy->ctx_free) s->lazy->ctx_free(s->lazy->ctx);
    free(s->lazy);
}

void tl_storage_retain(tl_storage *s)
{
    if (s) s->refcount++;
}

/* Frees s, whose last reference went: unmaps, pools or recycles its bytes. */
static void storage_free(tl_storage *s)
{
    if (s->work) {
        tl_workspace *w = s->work;
        work_give_back(s);
        if (w->buf) {   /* bytes of the buffer: nothing to free but the struct */
            tl_storage_release(w->buf);
            free(s);
            return;
        }
    }
    if (s->kind == TL_STORAGE_MAPPED) munmap(s->map_base, s->map_len);
    else if (s->kind == TL_STORAGE_LAZY) lazy_free(s);
    else if (s->kind == TL_STORAGE_EXTERNAL) { if (s->release) s->release(s->release_ctx); }
    else if (s->nbytes >= TL_POOL_MIN_BYTES) tl_pool_give_back(s->map_base, s->map_len);
    else if (s->map_base != s) free(s->map_base);
    else if (recycle_keep(RECYCLE_SMALL_STORAGE, s)) return;
    free(s);
}

void tl_storage_release(tl_storage *s)
{
    if (s && --s->refcount == 0) storage_free(s);
}

/* ---- shapes --------------------------------------------------------------- */

int tl_shape_size(int ndim, const int64_t *shape, int64_t *out)
{
    int64_t n = 1;
    bool overflow = false, empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            tl_seterr(ShapeError, "negative dimensions are not allowed");
            return -1;
        }
        /* numpy rejects a too-big shape even when another dim is 0 */
        if (shape[i] == 0) empty = true;
        else if (!overflow) overflow = __builtin_mul_overflow(n, shape[i], &n);
    }
    if (overflow) {
        char buf[256];
        tl_seterr(ShapeError, "shape %s is too big", tl_shape_str(ndim, shape, buf, sizeof buf));
        return -1;
    }
    *out = empty ? 0 : n;
    return 0;
}

int64_t tl_tensor_size(const tl_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
    return n;
}

void *tl_tensor_at(const tl_tensor *t, const int64_t *index)
{
    int64_t off = t->offset, isz = (int64_t)tl_dtype_size(t->dtype);
    for (int i = 0; i < t->ndim; i++) off += index[i] * t->strides[i];
    if (t->storage->kind == TL_STORAGE_LAZY) tl_storage_materialize(t->storage, off * isz, (off + 1) * isz);
    return (char *)t->storage->data + off * isz;
}

/* Row-major strides, zero dims counting as 1 (numpy's reshape: np.empty(0).reshape(0, 4) has
   (4, 1)), so an empty tensor never looks like a broadcast view (a zero stride on an axis > 1). */
void tl_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t acc = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = acc;
        if (shape[i] > 0) acc *= shape[i];
    }
}

bool tl_is_contiguous(const tl_tensor *t)
{
    int64_t expect = 1;
    bool contiguous = true;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 0) return true;       /* empty tensors are contiguous */
        if (t->shape[i] == 1) continue;          /* size-1 axes never break it */
        if (t->strides[i] != expect) contiguous = false;
        expect *= t->shape[i];
    }
    return contiguous;
}

char *tl_shape_str(int ndim, const int64_t *shape, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0) return buf;
    buf[0] = '\0';
    used += (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < ndim && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (used < n) used += (size_t)snprintf(buf + used, n - used, ndim == 1 ? ",)" : ")");
    return buf;
}

int tl_normalize_axis(int axis, int ndim, int *out)
{
    if (axis < -ndim || axis >= ndim) {
        tl_seterr(IndexError, "axis %d is out of bounds for array of dimension %d", axis, ndim);
        return -1;
    }
    *out = axis < 0 ? axis + ndim : axis;
    return 0;
}

int tl_broadcast_shapes(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    int64_t res[TL_MAXDIM];
    if (n > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", n, TL_MAXDIM);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int64_t a = i < n - na ? 1 : sa[i - (n - na)];
        int64_t b = i < n - nb ? 1 : sb[i - (n - nb)];
        if (a != b && a != 1 && b != 1) {
            tl_seterr_shapes("cannot broadcast shapes %s and %s", na, sa, nb, sb);
            return -1;
        }
        res[i] = a == 1 ? b : a;
    }
    memcpy(out, res, (size_t)n * sizeof *out);
    *nout = n;
    return 0;
}

/* ---- tensors ------------------------------------------------------------- */

/* Longest stride, in bytes, kept on an axis that addresses nothing (length 0 or 1, or any axis of
   an empty tensor): the sum of two such strides, or one doubled (a complex part's), still fits. */
#define HARMLESS_STRIDE_BYTES (INT64_MAX / 4)

/* A fresh header with refcount 1 over s (retained); shape/strides copied. Strides that address
   nothing and are too long to multiply by the item size become 0 (huge slice steps leave them).
   *repeats (when asked for) tells whether a stride-0 axis of length > 1 repeats an element.
   Inline: building a view is a few dozen instructions, and a call's frame is a good part of them. */
static inline __attribute__((always_inline)) tl_tensor *header_new(tl_storage *s, tl_dtype dtype, int ndim,
                                                                   const int64_t *shape, const int64_t *strides,
                                                                   int64_t offset, bool *repeats)
{
    tl_tensor *t = recycle_take(RECYCLE_HEADER);
    if (!t) t = malloc(sizeof *t);
    if (!t) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    /* Only the fields before shape are cleared: shape and strides are read up to ndim, and
       clearing all TL_MAXDIM of each cost more than the rest of building a view. */
    memset(t, 0, offsetof(tl_tensor, shape));
    t->refcount = 1;
    t->storage = s;
    s->refcount++;
    t->dtype = dtype;
    t->ndim = ndim;
    t->offset = offset;
    /* copied in a loop, not by memcpy: a view has a few axes, and the call costs more than them */
    bool short_axis = false, repeat = false;
    for (int i = 0; i < ndim; i++) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
        short_axis |= shape[i] <= 1;
        repeat |= (shape[i] > 1) & (strides[i] == 0);
    }
    if (repeats) *repeats = repeat;
    if (short_axis) {   /* the division below is slow, and only length-0 and 1 axes need it */
        bool empty = false;
        for (int i = 0; i < ndim; i++) empty = empty || shape[i] == 0;
        int64_t longest = HARMLESS_STRIDE_BYTES / (int64_t)tl_dtype_size(dtype);
        for (int i = 0; i < ndim; i++)
            if ((empty || shape[i] == 1) && (t->strides[i] > longest || t->strides[i] < -longest)) t->strides[i] = 0;
    }
    return t;
}

static int check_ndim(int ndim)
{
    if (ndim < 0 || ndim > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", ndim, TL_MAXDIM);
        return -1;
    }
    return 0;
}

/* A contiguous tensor of fresh storage (zeroed when zero is true). */
static tl_tensor *tensor_new(tl_dtype dtype, int ndim, const int64_t *shape, bool zero)
{
    int64_t n, nbytes, extent = 1;
    if (check_ndim(ndim) < 0 || tl_shape_size(ndim, shape, &n) < 0) return NULL;
    /* the row-major strides of an empty tensor reach the nonzero dims' product (numpy refuses it
       too when its bytes overflow); tl_shape_size checked that the product itself fits */
    for (int i = 0; i < ndim; i++) extent *= shape[i] > 0 ? shape[i] : 1;
    if (__builtin_mul_overflow(extent, (int64_t)tl_dtype_size(dtype), &nbytes)) {
        char buf[256];
        tl_seterr(ShapeError, "shape %s of %s is too big", tl_shape_str(ndim, shape, buf, sizeof buf), tl_dtype_name(dtype));
        return NULL;
    }
    if (n == 0) nbytes = 0;
    tl_storage *s = tl_storage_new((size_t)nbytes, zero);
    if (!s) return NULL;
    int64_t strides[TL_MAXDIM];
    tl_contiguous_strides(ndim, shape, strides);
    tl_tensor *t = header_new(s, dtype, ndim, shape, strides, 0, NULL);
    tl_storage_release(s);
    return t;
}

tl_tensor *tl_tensor_empty(tl_dtype dtype, int ndim, const int64_t *shape)
{
    return tensor_new(dtype, ndim, shape, false);
}

tl_tensor *tl_tensor_result(tl_tensor *into, tl_dtype dtype, int ndim, const int64_t *shape)
{
    int64_t n, have, strides[TL_MAXDIM];
    if (!into || into->dtype != dtype || into->readonly || !tl_is_contiguous(into) || into->storage->kind == TL_STORAGE_LAZY ||
        check_ndim(ndim) < 0 || tl_shape_size(ndim, shape, &n) < 0 || tl_shape_size(into->ndim, into->shape, &have) < 0 ||
        n != have)
        return tl_tensor_empty(dtype, ndim, shape);   /* reports a bad shape */
    tl_contiguous_strides(ndim, shape, strides);
    return header_new(into->storage, dtype, ndim, shape, strides, into->offset, NULL);
}

tl_tensor *tl_tensor_zeros(tl_dtype dtype, int ndim, const int64_t *shape)
{
    return tensor_new(dtype, ndim, shape, true);
}

tl_tensor *tl_tensor_zeros_to(tl_dtype dtype, int ndim, const int64_t *shape, tl_tensor *into)
{
    if (!into) return tl_tensor_zeros(dtype, ndim, shape);
    tl_tensor *t = tl_tensor_result(into, dtype, ndim, shape);
    if (t) memset(tl_tensor_data(t), 0, (size_t)tl_tensor_size(t) * tl_dtype_size(dtype));
    return t;
}

tl_tensor *tl_tensor_scalar(tl_dtype dtype, const void *value)
{
    tl_tensor *t = tensor_new(dtype, 0, NULL, false);
    if (t) memcpy(tl_tensor_data(t), value, tl_dtype_size(dtype));
    return t;
}

tl_tensor *tl_tensor_from_f64(tl_dtype dtype, double x)
{
    tl_scalar v;
    tl_scalar_convert(&v, dtype, &x, TL_F64);
    return tl_tensor_scalar(dtype, &v);
}

/* Checks that the lowest and highest addressed elements lie in the storage,
   with overflow-checked arithmetic (strides may be negative). */
static int check_view_bounds(const tl_storage *s, tl_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, int64_t offset, int64_t size)
{
    int64_t item = (int64_t)tl_dtype_size(dtype), lo = offset, hi = offset, capacity = (int64_t)(s->nbytes / (size_t)item);
    bool overflow = false;
    if (size == 0) {
        if (offset < 0 || offset > capacity) goto out_of_bounds;
        return 0;
    }
    for (int i = 0; i < ndim; i++) {
        int64_t span;
        overflow |= __builtin_mul_overflow(shape[i] - 1, strides[i], &span);
        if (span < 0) overflow |= __builtin_add_overflow(lo, span, &lo);
        else overflow |= __builtin_add_overflow(hi, span, &hi);
    }
    if (overflow || lo < 0 || hi >= capacity) goto out_of_bounds;
    return 0;
out_of_bounds:
    tl_seterr(IndexError, "view out of bounds: shape, strides and offset %lld address elements outside a storage of %lld %s elements",
              (long long)offset, (long long)capacity, tl_dtype_name(dtype));
    return -1;
}

tl_tensor *tl_tensor_view_of(tl_storage *s, tl_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, int64_t offset)
{
    int64_t n;
    if (check_ndim(ndim) < 0 || tl_shape_size(ndim, shape, &n) < 0) return NULL;
    /* an empty view addresses nothing: an offset moved past the storage by a step along one of
       its axes (x[:, 1] of a (0, 4) tensor) is as good as 0 */
    if (n == 0 && (offset < 0 || offset > (int64_t)(s->nbytes / tl_dtype_size(dtype)))) offset = 0;
    if (check_view_bounds(s, dtype, ndim, shape, strides, offset, n) < 0) return NULL;
    bool repeats;
    tl_tensor *t = header_new(s, dtype, ndim, shape, strides, offset, &repeats);
    /* a stride-0 axis of length > 1 aliases elements: writes would be ambiguous (an empty view
       aliases nothing, so writing to it is a no-op) */
    if (t && n > 0 && repeats) t->readonly = true;
    return t;
}

tl_tensor *tl_tensor_subview(const tl_tensor *t, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
    bool repeats;
    tl_tensor *v = header_new(t->storage, t->dtype, ndim, shape, strides, offset, &repeats);
    if (v) v->readonly = t->readonly || repeats;
    return v;
}

void tl_tensor_retain(tl_tensor *t)
{
    if (t) t->refcount++;
}

void tl_tensor_release(tl_tensor *t)
{
    if (!t || --t->refcount != 0) return;
    if (--t->storage->refcount == 0) storage_free(t->storage);   /* a header always has a storage */
    if (!recycle_keep(RECYCLE_HEADER, t)) free(t);
}

/* Releases each of ts[0..n) and sets it to NULL: the cleanup of a chain of steps any of which may have failed. */
void tl_tensor_release_all(tl_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) {
        tl_tensor_release(ts[i]);
        ts[i] = NULL;
    }
}

/* Byte range [lo, hi) of t inside its storage (the bounds test before an exact overlap test). */
bool tl_byte_range(const tl_tensor *t, int64_t *lo, int64_t *hi)
{
    int64_t item = (int64_t)tl_dtype_size(t->dtype), a = t->offset * item, b = a;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0) return false;
        int64_t span = (t->shape[i] - 1) * t->strides[i] * item;
        if (span < 0) a += span;
        else b += span;
    }
    *lo = a;
    *hi = b + item;
    return true;
}
