/* io_lazy.c — tensors whose bytes are computed on first touch: page-fault-driven, chunk-wise dequantization */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io_internal.h"

/* How it works. A quantized GGUF tensor becomes an f32 tensor over a memfd
   mapped twice inside one reserved address range:
     [ user view: PROT_NONE | fill view: read-write | token page | quantized bytes of the file ]
   plus one private page holding a token that proves the range is still ours.
   The tensor's data pointer is the user view. The first touch of a chunk
   faults (SEGV_ACCERR); the handler dequantizes that chunk into the fill view
   (same pages) and only then opens the user view's chunk read-write, so no
   thread ever sees a half-filled chunk. The storage owns the whole range:
   releasing the tensor unmaps all three parts at once.
   Caveats: a system call handed a pointer into an untouched chunk gets EFAULT
   rather than a fault (tl's writers copy through user space first), and a
   debugger stops at these SIGSEGVs ("handle SIGSEGV nostop noprint"). */

#define CHUNK ((size_t)1 << 20)          /* bytes of f32 produced per fault */
#define MAX_REGIONS 16384                /* live lazy tensors; past that, new ones fill eagerly */

enum { EMPTY, FILLING, READY };

typedef struct region {
    uintptr_t user;
    size_t len;                          /* user view bytes (page-rounded) */
    uint8_t *fill_view;
    const uint8_t *src;
    int type;
    io_fill_fn fill;
    int64_t count;                       /* f32 elements */
    int64_t nchunks;
    _Atomic uint8_t *state;              /* per chunk */
    const volatile uint64_t *token_at;   /* the token page */
    uint64_t token;
} region;

/* Published regions. A region is freed only once its range is known to be gone
   (unmapped, or reserved again for a newer region): then no correct access can
   fault there, so no handler is reading it. */
static region *_Atomic slots[MAX_REGIONS];
static atomic_int slots_used;
static struct sigaction previous;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static bool installed;
static atomic_uint_fast64_t token_counter;

static void write_err(const char *msg) { ssize_t r = write(2, msg, strlen(msg)); (void)r; }

/* Produces one chunk and opens it; false if it cannot (the fault is then fatal). */
static bool serve(region *r, int64_t c)
{
    _Atomic uint8_t *st = &r->state[c];
    uint8_t expect = EMPTY;
    if (atomic_compare_exchange_strong(st, &expect, FILLING)) {
        int64_t per = (int64_t)(CHUNK / sizeof(float)), first = c * per;
        int64_t n = r->count - first < per ? r->count - first : per;
        if (n > 0) r->fill(r->src, r->type, first, n, (float *)(r->fill_view + (size_t)c * CHUNK));
        size_t off = (size_t)c * CHUNK, len = r->len - off < CHUNK ? r->len - off : CHUNK;
        if (mprotect((void *)(r->user + off), len, PROT_READ | PROT_WRITE) != 0) {
            write_err("tl: cannot open a dequantized chunk (mprotect failed: too many mappings?)\n");
            return false;
        }
        /* the pages live on in the memfd; dropping the fill view's mapping of them
           keeps RSS from counting each page twice */
        madvise(r->fill_view + off, len, MADV_DONTNEED);
        atomic_store(st, READY);
        return true;
    }
    while (atomic_load(st) != READY) sched_yield();   /* another thread is filling it */
    return true;
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    if (si->si_code == SEGV_ACCERR) {
        uintptr_t a = (uintptr_t)si->si_addr;
        int n = atomic_load(&slots_used);
        for (int i = 0; i < n; i++) {
            region *r = atomic_load(&slots[i]);
            /* a stale entry whose range now belongs to someone else fails the token check
               (or faults reading it, which is as fatal as the original fault) */
            if (r && a - r->user < r->len && *r->token_at == r->token) {
                if (serve(r, (int64_t)((a - r->user) / CHUNK))) {
                    errno = saved;
                    return;
                }
                break;
            }
        }
    }
    /* not ours: hand over to whoever handled SIGSEGV before, else die as usual */
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(sig, si, uc);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else {
        signal(sig, SIG_DFL);   /* the faulting instruction runs again and the default action follows */
    }
    errno = saved;
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    installed = sigaction(SIGSEGV, &sa, &previous) == 0;
}

static bool install(void)
{
    pthread_once(&install_once, install_handler);
    return installed;
}

static void region_free(region *r)
{
    free((void *)r->state);
    free(r);
}

/* Empties slot i if it still holds o; frees o when this call did it. */
static void retire(int i, region *o)
{
    if (atomic_compare_exchange_strong(&slots[i], &o, NULL)) region_free(o);
}

/* Registration is serialized (the handler never takes this lock): two threads
   loading at once must not retire and read the same old region. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* A slot for r: a free one, else one whose range is no longer mapped (msync says ENOMEM). */
static bool publish_locked(region *r)
{
    int n = atomic_load(&slots_used);
    for (int i = 0; i < n; i++) {   /* a new reservation overlapping an old region proves it is gone */
        region *o = atomic_load(&slots[i]);
        if (o && o->user < r->user + r->len && r->user < o->user + o->len) retire(i, o);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < MAX_REGIONS; i++) {
            region *o = atomic_load(&slots[i]);
            if (o && pass == 1 && msync((void *)o->user, o->len, MS_ASYNC) != 0 && errno == ENOMEM) {
                retire(i, o);
                o = NULL;
            }
            region *none = NULL;
            if (!o && atomic_compare_exchange_strong(&slots[i], &none, r)) {
                int used = atomic_load(&slots_used);
                while (used < i + 1 && !atomic_compare_exchange_weak(&slots_used, &used, i + 1)) {}
                return true;
            }
        }
    }
    return false;
}

static bool publish(region *r)
{
    pthread_mutex_lock(&registry_lock);
    bool ok = publish_locked(r);
    pthread_mutex_unlock(&registry_lock);
    return ok;
}

/* Everything now, into heap storage: when lazy mapping is unavailable. */
static tl_tensor *eager(io_src *s, uint64_t off, int type, io_fill_fn fill, int ndim, const int64_t *shape, int64_t count)
{
    tl_tensor *t = tl_tensor_empty(TL_F32, ndim, shape);
    if (t && count > 0) fill(s->base + off, type, 0, count, tl_tensor_data(t));
    return t;
}

static void unpublish(region *r)
{
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_REGIONS; i++) {
        region *o = r;
        if (atomic_compare_exchange_strong(&slots[i], &o, NULL)) break;
    }
    pthread_mutex_unlock(&registry_lock);
    region_free(r);
}

static size_t round_page(uint64_t n, size_t page) { return (size_t)((n + page - 1) / page * page); }

tl_tensor *io_lazy_tensor(io_src *s, uint64_t off, uint64_t qbytes, int type, io_fill_fn fill,
                          int ndim, const int64_t *shape, const char *sname)
{
    int64_t count;
    if (tl_shape_size(ndim, shape, &count)) return NULL;
    const char *env = getenv("TL_GGUF_EAGER");
    if (count == 0 || (env && *env && *env != '0') || !install()) return eager(s, off, type, fill, ndim, shape, count);

    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t L = round_page((uint64_t)count * 4, page), delta = (size_t)(off % page), Q = round_page(delta + qbytes, page);
    int mfd = memfd_create("tl-dequant", MFD_CLOEXEC);
    if (mfd < 0) return eager(s, off, type, fill, ndim, shape, count);
    uint8_t *res = MAP_FAILED;
    size_t total = 0;
    region *r = calloc(1, sizeof *r);
    int64_t nchunks = (int64_t)((L + CHUNK - 1) / CHUNK);
    _Atomic uint8_t *state = calloc((size_t)nchunks, 1);
    if (!r || !state || ftruncate(mfd, (off_t)L) != 0) goto fallback;
    total = 2 * L + page + Q;
    res = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (res == MAP_FAILED ||
        mmap(res, L, PROT_NONE, MAP_SHARED | MAP_FIXED, mfd, 0) == MAP_FAILED ||
        mmap(res + L, L, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mfd, 0) == MAP_FAILED ||
        mprotect(res + 2 * L, page, PROT_READ | PROT_WRITE) != 0 ||
        mmap(res + 2 * L + page, Q, PROT_READ, MAP_PRIVATE | MAP_FIXED, s->fd, (off_t)(off - delta)) == MAP_FAILED)
        goto fallback;
    close(mfd);
    mfd = -1;
    uint64_t token = ((uint64_t)(uintptr_t)res * 0x9E3779B97F4A7C15u) ^ (atomic_fetch_add(&token_counter, 1) + 1);
    *(uint64_t *)(res + 2 * L) = token;
    *r = (region){ (uintptr_t)res, L, res + L, res + 2 * L + page + delta, type, fill, count, nchunks, state,
                   (const volatile uint64_t *)(res + 2 * L), token };
    if (!publish(r)) goto fallback;
    tl_storage *st = tl_storage_mapped(res, total, res, (size_t)count * 4, sname);
    if (!st) { unpublish(r); return NULL; }   /* tl_storage_mapped unmapped the range */
    int64_t strides[TL_MAXDIM];
    tl_contiguous_strides(ndim, shape, strides);
    tl_tensor *t = tl_tensor_view_of(st, TL_F32, ndim, shape, strides, 0);
    tl_storage_release(st);
    return t;
fallback:
    if (res != MAP_FAILED) munmap(res, total);
    if (mfd >= 0) close(mfd);
    free(r);
    free((void *)state);
    return eager(s, off, type, fill, ndim, shape, count);
}
