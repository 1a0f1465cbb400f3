/* kernels/threads.c — a small pthread pool for kernels: parallel_for over fixed tasks */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "kern.h"

#define MAX_THREADS TL_MAX_THREADS

/* One parallel loop in flight. Workers and the caller claim task numbers
   from `next`; the first failure is recorded and stops further claims. */
typedef struct job {
    tl_task_fn fn;
    void *ctx;
    int64_t ntasks;
    int helpers;            /* workers with a smaller id take part */
    int joined;             /* workers running its tasks now (under state_lock) */
    atomic_llong next;
    atomic_int failed;
    char errmsg[512];
    tl_errkind errkind;     /* the kind of errmsg */
} job;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;   /* one job at a time */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
/* The job workers may still join: NULL once its caller has run out of tasks. A worker
   the system wakes late (a loaded machine) then finds nothing to do, and the caller
   never waits for a worker that had not started: it waits only for tasks under way. */
static job *current;
static uint64_t generation;
static int sleepers;                  /* workers waiting on work_cond */
static int last_helpers;              /* the latest job's helpers (under state_lock) */
static int nworkers;
static int nthreads_wanted;     /* 0: not yet read from TL_THREADS / the CPU count */
static _Thread_local bool in_parallel;

/* Claims and runs tasks of j until none are left or one failed. */
static void run_tasks(job *j)
{
    for (;;) {
        if (atomic_load(&j->failed)) return;
        int64_t t = atomic_fetch_add(&j->next, 1);
        if (t >= j->ntasks) return;
        if (j->fn(j->ctx, t) != 0) {
            if (atomic_exchange(&j->failed, 1) == 0) {
                snprintf(j->errmsg, sizeof j->errmsg, "%s", tl_errmsg());
                j->errkind = tl_errkind_last();
            }
            return;
        }
    }
}

static uint64_t start_generation[MAX_THREADS];  /* generation when worker i was made */

/* After a job, a worker polls for the next one for SPIN_US (TL_SPIN_US; 0: sleep at
   once) before it sleeps, and a caller polls that long for its workers to finish before
   it sleeps: waking a sleeping thread costs the waker a system call (about 6 us here)
   and the woken thread as much again, more than a 288 x 768 product shared in two. Each
   64 polls the poller yields its core, so on a loaded machine a thread that waits for
   the core (the caller itself, often) runs first. A llama decode's attention between two
   shared products outlasts 30 us: at 30, a 200-token Q8_0 decode woke its worker 433
   times in 3,000 jobs, at 100 200 times, and decoded 5-8% faster (medians of ten
   interleaved runs, three times; f32 -3% to +6%, bf16 the same). Where only the
   classifier is shared, once a token (llama.tl's Q4_K file, whose layers' products are too
   small to share: matvec.c), a token outlasts 100 us and the classifier found its worker
   asleep: at 500 it decoded 2,828 tokens/s against 2,572 (medians of eight interleaved
   runs, the main thread pinned to each core in turn; the Q8_0, f32 and bf16 files, whose
   workers have more jobs, the same either way). */
#define SPIN_US 500

/* The polling time in nanoseconds, read once. */
static int64_t spin_ns(void)
{
    static int64_t cached = -1;   /* every thread computes the same value */
    int64_t ns = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (ns < 0) {
        ns = (int64_t)SPIN_US * 1000;
        const char *e = getenv("TL_SPIN_US");
        if (e && *e) {
            char *end;
            long us = strtol(e, &end, 10);
            if (*end == 0 && us >= 0 && us <= 1000000) ns = (int64_t)us * 1000;
        }
        __atomic_store_n(&cached, ns, __ATOMIC_RELAXED);
    }
    return ns;
}

/* The monotonic clock in nanoseconds. */
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Tells the core this is a polling loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Polls done(arg) (without the lock) for up to spin_ns(), yielding the core every 64
   polls; true once it holds. */
static bool spin_until(bool (*done)(const void *), const void *arg)
{
    int64_t limit = spin_ns();
    if (limit <= 0) return false;
    int64_t end = now_ns() + limit;
    for (;;) {
        for (int i = 0; i < 64; i++) {
            if (done(arg)) return true;
            cpu_relax();
        }
        if (now_ns() >= end) return false;
        sched_yield();
    }
}

/* A new job was announced: the generation moved past the one a worker saw (arg). */
static bool generation_moved(const void *seen)
{
    return __atomic_load_n(&generation, __ATOMIC_ACQUIRE) != *(const uint64_t *)seen;
}

/* A job's workers have all left it (arg: its joined count). */
static bool workers_left(const void *joined)
{
    return __atomic_load_n((const int *)joined, __ATOMIC_ACQUIRE) <= 0;
}

/* A worker waits for a job to be announced: it polls briefly, then sleeps. */
static void *worker_main(void *arg)
{
    int id = (int)(intptr_t)arg;
    in_parallel = true;
    pthread_mutex_lock(&state_lock);
    uint64_t seen = start_generation[id];   /* only jobs announced after its birth */
    bool spin = false;   /* only right after a job it may help with: a worker idle since sleeps */
    for (;;) {
        if (spin && generation == seen) {
            pthread_mutex_unlock(&state_lock);
            spin_until(generation_moved, &seen);
            pthread_mutex_lock(&state_lock);
        }
        while (generation == seen) {
            sleepers++;
            pthread_cond_wait(&work_cond, &state_lock);
            sleepers--;
        }
        seen = generation;
        job *j = current;
        bool take = j && id < j->helpers;
        if (take) __atomic_fetch_add(&j->joined, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&state_lock);
        if (take) run_tasks(j);
        pthread_mutex_lock(&state_lock);
        if (take && __atomic_sub_fetch(&j->joined, 1, __ATOMIC_RELEASE) == 0 && current != j) pthread_cond_signal(&done_cond);
        spin = id < last_helpers;   /* the next job may follow soon (even if this one closed early) */
    }
    return NULL;
}

static int default_threads(void)
{
    const char *env = getenv("TL_THREADS");
    if (env && *env) {
        int n = atoi(env);
        if (n >= 1) return n < MAX_THREADS ? n : MAX_THREADS;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n < MAX_THREADS ? (int)n : MAX_THREADS;
}

void tl_set_threads(int n)
{
    if (n < 1) n = 0;
    if (n > MAX_THREADS) n = MAX_THREADS;
    __atomic_store_n(&nthreads_wanted, n, __ATOMIC_RELAXED);
}

int tl_get_threads(void)
{
    int n = __atomic_load_n(&nthreads_wanted, __ATOMIC_RELAXED);
    if (n == 0) {
        n = default_threads();
        __atomic_store_n(&nthreads_wanted, n, __ATOMIC_RELAXED);
    }
    return n;
}

int tl_threads_for(int64_t work)
{
    if (in_parallel || work < 2 * TL_PAR_GRAIN) return 1;
    int n = tl_get_threads();
    int64_t by_size = work / TL_PAR_GRAIN;
    return by_size < n ? (int)by_size : n;
}

/* Starts workers until there are `want` of them; returns how many exist.
   Called with state_lock held, so a new worker counts from this generation. */
static int ensure_workers(int want)
{
    while (nworkers < want) {
        start_generation[nworkers] = generation;
        pthread_t th;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&th, &attr, worker_main, (void *)(intptr_t)nworkers);
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        nworkers++;
    }
    return nworkers;
}

static int run_serial(int64_t ntasks, tl_task_fn fn, void *ctx)
{
    for (int64_t t = 0; t < ntasks; t++)
        if (fn(ctx, t) != 0) return -1;
    return 0;
}

int tl_parallel_for(int64_t ntasks, tl_task_fn fn, void *ctx)
{
    int nth = tl_get_threads();
    if (ntasks <= 1 || nth <= 1 || in_parallel) return run_serial(ntasks, fn, ctx);
    if (pthread_mutex_trylock(&pool_lock) != 0) return run_serial(ntasks, fn, ctx);
    pthread_mutex_lock(&state_lock);
    if (ensure_workers(nth - 1) <= 0) {
        pthread_mutex_unlock(&state_lock);
        pthread_mutex_unlock(&pool_lock);
        return run_serial(ntasks, fn, ctx);
    }
    job j = { .fn = fn, .ctx = ctx, .ntasks = ntasks, .helpers = nth - 1 };
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, 0);
    current = &j;
    last_helpers = j.helpers;
    __atomic_store_n(&generation, generation + 1, __ATOMIC_RELEASE);   /* spinning workers read it unlocked */
    if (sleepers > 0) pthread_cond_broadcast(&work_cond);
    pthread_mutex_unlock(&state_lock);

    in_parallel = true;
    run_tasks(&j);
    in_parallel = false;

    pthread_mutex_lock(&state_lock);
    current = NULL;                                 /* no more joiners */
    if (j.joined > 0) {   /* poll briefly for the workers under way before sleeping */
        pthread_mutex_unlock(&state_lock);
        spin_until(workers_left, &j.joined);
        pthread_mutex_lock(&state_lock);
    }
    while (j.joined > 0) pthread_cond_wait(&done_cond, &state_lock);
    pthread_mutex_unlock(&state_lock);
    pthread_mutex_unlock(&pool_lock);
    if (atomic_load(&j.failed)) {
        tl_seterr_kind(j.errkind, "%s", j.errmsg);   /* a worker's error, passed on to the caller's thread */
        return -1;
    }
    return 0;
}

/* ---- splitting an iteration plan into independent pieces -------------- */

typedef struct split_ctx {
    tl_iter *pieces;
    int64_t npieces, cap;
    tl_inner_fn fn;
    void *aux;
} split_ctx;

/* A new piece holding a copy of `it`; NULL (error set) when out of memory. */
static tl_iter *new_piece(split_ctx *sc, const tl_iter *it)
{
    if (sc->npieces == sc->cap) {
        int64_t cap = sc->cap ? sc->cap * 2 : 16;
        tl_iter *p = realloc(sc->pieces, (size_t)cap * sizeof *p);
        if (!p) { tl_seterr(MemoryError, "out of memory"); return NULL; }
        sc->pieces = p;
        sc->cap = cap;
    }
    tl_iter *s = &sc->pieces[sc->npieces++];
    *s = *it;
    return s;
}

/* Appends the sub-plan of `it` covering [lo, hi) of its outermost axis. */
static int add_piece(split_ctx *sc, const tl_iter *it, int64_t lo, int64_t hi, bool drop_axis)
{
    tl_iter *s = new_piece(sc, it);
    if (!s) return -1;
    for (int k = 0; k < it->nops; k++) s->base[k] = it->base[k] + lo * it->bstrides[k][0];
    if (drop_axis) {
        s->ndim = it->ndim - 1;
        memmove(s->shape, it->shape + 1, (size_t)s->ndim * sizeof s->shape[0]);
        for (int k = 0; k < it->nops; k++)
            memmove(s->bstrides[k], it->bstrides[k] + 1, (size_t)s->ndim * sizeof(int64_t));
        s->size = it->shape[0] ? it->size / it->shape[0] : 0;
    } else {
        s->shape[0] = hi - lo;
        s->size = it->shape[0] ? it->size / it->shape[0] * (hi - lo) : 0;
    }
    return 0;
}

static int add_piece_whole(split_ctx *sc, const tl_iter *it) { return new_piece(sc, it) ? 0 : -1; }

/* Cuts `it` into about `want` pieces along its outer axes. */
static int split_plan(split_ctx *sc, const tl_iter *it, int64_t want)
{
    if (it->ndim == 0 || want <= 1) return add_piece_whole(sc, it);
    int64_t n0 = it->shape[0];
    if (n0 >= want || it->ndim == 1) {
        int64_t parts = n0 < want ? n0 : want;
        for (int64_t p = 0; p < parts; p++)
            if (add_piece(sc, it, n0 * p / parts, n0 * (p + 1) / parts, false)) return -1;
        return 0;
    }
    int64_t sub_want = (want + n0 - 1) / n0;
    for (int64_t i = 0; i < n0; i++) {
        split_ctx one = { 0 };
        if (add_piece(&one, it, i, i + 1, true)) return -1;
        int rc = split_plan(sc, &one.pieces[0], sub_want);
        free(one.pieces);
        if (rc) return -1;
    }
    return 0;
}

static int run_piece(void *ctx, int64_t t)
{
    split_ctx *sc = ctx;
    return tl_iter_run(&sc->pieces[t], sc->fn, sc->aux);
}

int tl_kern_run(const tl_iter *it, tl_inner_fn fn, void *aux)
{
    return tl_kern_run_cost(it, fn, aux, 1);
}

int tl_kern_run_cost(const tl_iter *it, tl_inner_fn fn, void *aux, int64_t cost)
{
    if (cost < 1) cost = 1;
    int64_t work = it->size > INT64_MAX / cost ? INT64_MAX : it->size * cost;
    int nth = tl_threads_for(work);
    if (nth <= 1 || it->size < 2) return tl_iter_run(it, fn, aux);
    int64_t want = work / TL_PAR_GRAIN;
    if (want > 8 * (int64_t)nth) want = 8 * (int64_t)nth;
    if (want > it->size) want = it->size;
    split_ctx sc = { .fn = fn, .aux = aux };
    int rc = split_plan(&sc, it, want);
    if (rc == 0) rc = tl_parallel_for(sc.npieces, run_piece, &sc);
    free(sc.pieces);
    return rc;
}
