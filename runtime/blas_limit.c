/* blas_limit.c — OpenBLAS under a memory limit: room for its buffers is checked before it asks, since it retries a failed allocation forever */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "blas.h"
#include "error.h"

/* What OpenBLAS maps for one thread's buffer: BUFFER_SIZE (128 MiB on x86-64,
   common_x86_64.h) plus its alignment page, and some slack for malloc's own mapping when it
   falls back to malloc. */
#define BUFFER_BYTES (((size_t)128 << 20) + ((size_t)1 << 20))
/* A worker thread's stack when RLIMIT_STACK does not say (glibc's default without a limit). */
#define DEFAULT_STACK_BYTES ((size_t)8 << 20)

static pthread_mutex_t room_lock = PTHREAD_MUTEX_INITIALIZER;
/* Callers at once whose buffers OpenBLAS has (or had room for when they were reserved). */
static atomic_int callers_ready;
/* OpenBLAS's threads (the caller and its workers) known to have their buffers: 1 when BLAS
   was opened under a limit with OPENBLAS_NUM_THREADS=1, 0 when it was opened without one
   (its workers then got their buffers at start, however many it started). */
static atomic_int threads_started;
/* The bytes granted so far, to callers and to workers (under room_lock). A grant is not an
   allocation: a pool thread counted as a caller maps its buffer only when it first calls BLAS,
   perhaps much later, and a worker as it starts, a moment later; so a room check made between
   a grant and its mapping saw that grant's room as free, and two grants could both count the
   same room. Each check asks for room for everything granted before as well as for its own
   bytes. Those granted and already mapped are counted twice, so under a limit tl may run BLAS
   on fewer threads than would fit; without it, a limit of 480 MB hung at times (two callers
   granted, one of them not yet mapped, then a worker granted their room). */
static size_t granted_bytes;

/* Whether an address-space or data limit (ulimit -v, ulimit -d) can make mmap fail. */
static bool memory_limited(void)
{
    struct rlimit r;
    return (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) ||
           (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY);
}

/* Whether n bytes of private writable memory can be mapped now (mapped untouched, then unmapped). */
static bool room_for(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    munmap(p, n);
    return true;
}

/* Whether n more bytes can be granted, with room for all granted before (granted_bytes);
   if so, grants them. Called under room_lock. */
static bool room_granted(size_t n)
{
    if (n > SIZE_MAX - granted_bytes || !room_for(granted_bytes + n)) return false;
    granted_bytes += n;
    return true;
}

/* What one more OpenBLAS worker maps: its buffer, which it allocates as it starts, and its stack. */
static size_t worker_bytes(void)
{
    struct rlimit r;
    size_t stack = getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur != RLIM_INFINITY ? (size_t)r.rlim_cur : DEFAULT_STACK_BYTES;
    return BUFFER_BYTES + stack;
}

bool tl_blas_env_one_thread(char **saved)
{
    *saved = NULL;
    if (!memory_limited()) return false;
    const char *old = getenv("OPENBLAS_NUM_THREADS");
    if (old && !(*saved = strdup(old))) return false;
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    return true;
}

void tl_blas_env_restore(bool set, char *saved, bool loaded)
{
    if (!set) return;
    if (saved) setenv("OPENBLAS_NUM_THREADS", saved, 1);
    else unsetenv("OPENBLAS_NUM_THREADS");
    free(saved);
    if (loaded) threads_started = 1;
}

int tl_blas_threads_fit(int n)
{
    if (threads_started == 0 || n <= threads_started || !memory_limited()) return n;
    pthread_mutex_lock(&room_lock);
    for (int m = n; m > threads_started; m--)
        if (room_granted((size_t)(m - threads_started) * worker_bytes())) {
            threads_started = m;
            break;
        }
    int fit = n < threads_started ? n : threads_started;
    pthread_mutex_unlock(&room_lock);
    return fit;
}

int tl_blas_reserve(int callers)
{
    if (callers < 1) callers = 1;
    if (callers <= callers_ready || !memory_limited()) return callers;
    pthread_mutex_lock(&room_lock);
    for (int m = callers; m > callers_ready; m--)
        if (room_granted((size_t)(m - callers_ready) * BUFFER_BYTES)) {
            callers_ready = m;
            break;
        }
    int fit = callers < callers_ready ? callers : callers_ready;
    pthread_mutex_unlock(&room_lock);
    if (fit == 0) {
        tl_seterr(MemoryError, "out of memory: BLAS needs %zu MiB of address space for its buffer, and the memory limit leaves less",
                  BUFFER_BYTES >> 20);
        return -1;
    }
    return fit;
}
