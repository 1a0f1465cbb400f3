/* bench_dispatch.c — the thread pool's round trip: median time of tl_parallel_for over
   tiny tasks, back to back and with the caller busy between jobs (as the interpreter is
   between a decode's products). Each job is two tasks of TASK_US of arithmetic, so with two
   threads the ideal round trip is TASK_US and its excess is the hand-off's cost.
   Usage: bench_dispatch REPS TASK_US [GAP_US...] */
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <time.h>

#define TL_RUNTIME_INTERNAL   /* times the pool itself, as the unit tests do */
#include "ops.h"
#include "kernels/kern.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;
static pthread_t caller;
static long helped;   /* tasks a worker ran */

/* A task of about `ns` nanoseconds of arithmetic. */
static int tiny(void *ctx, int64_t t)
{
    int n = *(int *)ctx;
    double s = (double)t;
    for (int i = 0; i < n; i++) s = s * 1.0000001 + 1e-9;
    sink = s;
    if (!pthread_equal(pthread_self(), caller)) __atomic_fetch_add(&helped, 1, __ATOMIC_RELAXED);
    return 0;
}

/* The caller's own work between jobs: a busy wait of `us` microseconds. */
static void busy(double us)
{
    double end = now() + us * 1e-6;
    while (now() < end) { }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 20000;
    if (reps < 1) reps = 1;
    double *t = malloc(sizeof *t * (size_t)reps);
    if (!t) return 1;
    caller = pthread_self();
    double task_us = argc > 2 ? atof(argv[2]) : 0;
    int work = 1000;   /* calibrated below to about task_us */
    double t0 = now();
    for (int r = 0; r < 1000; r++) tiny(&work, 0);
    double per_iter = (now() - t0) / 1e6;
    work = (int)(task_us * 1e-6 / per_iter);
    double *u = malloc(sizeof *u * (size_t)reps);
    if (!u) return 1;
    for (int a = 3; a < argc || a == 3; a++) {
        double gap = a < argc ? atof(argv[a]) : 0;
        helped = 0;
        for (int r = 0; r < reps; r++) {   /* one thread and two in turn, so load hits both */
            for (int nth = 1; nth <= 2; nth++) {
                tl_set_threads(nth);
                if (gap > 0) busy(gap);
                double t1 = now();
                tl_parallel_for(2, tiny, &work);
                (nth == 1 ? u : t)[r] = now() - t1;
            }
        }
        qsort(t, (size_t)reps, sizeof *t, cmp);
        qsort(u, (size_t)reps, sizeof *u, cmp);
        printf("task %5.1f us, gap %5.1f us: one thread median %6.2f us; two: median %6.2f us, p90 %6.2f us, %.0f%% of tasks on the worker\n",
               task_us, gap, u[reps / 2] * 1e6, t[reps / 2] * 1e6, t[reps * 9 / 10] * 1e6, 100.0 * (double)helped / (2.0 * reps));
    }
    free(u);
    free(t);
    return 0;
}
