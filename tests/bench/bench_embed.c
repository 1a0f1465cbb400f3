/* bench_embed.c — the embedding API's costs (issue 33's targets): tl_eval of a one-line expression
   after the first, opening and closing a state, and a call on a 1,000 x 1,000 f32 tensor over the
   caller's memory (storages allocated, time). Medians of many runs; prints one line per target
   and "N passed, N failed" against the targets. Usage: bench_embed [ROUNDS] */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tl/tl.h"

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort's order of doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of t[0, n) (sorts t). */
static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

/* Seconds per tl_eval of code, the median of rounds batches of `batch` calls each, after a first call. */
static double eval_cost(tl_state *S, const char *code, int rounds, int batch)
{
    double *t = malloc(sizeof(double) * (size_t)rounds);
    if (!t || tl_eval(S, code) != TL_OK) {
        fprintf(stderr, "bench_embed: %s failed\n", code);
        exit(1);
    }
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (int i = 0; i < batch; i++) tl_eval(S, code);
        t[r] = (now() - t0) / batch;
    }
    double m = median(t, rounds);
    free(t);
    return m;
}

/* Seconds per tl_open + tl_close, the median of rounds pairs. */
static double open_close_cost(int rounds)
{
    double *t = malloc(sizeof(double) * (size_t)rounds);
    if (!t) exit(1);
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        tl_state *S = tl_open();
        tl_close(S);
        t[r] = now() - t0;
    }
    double m = median(t, rounds);
    free(t);
    return m;
}

/* One check against its target: prints it and counts it. */
static void judge(int *passed, int *failed, const char *what, double value, double target, const char *unit)
{
    bool ok = value < target;
    printf("%-58s %10.3f %s  (target < %g %s) %s\n", what, value, unit, target, unit, ok ? "ok" : "MISSED");
    *(ok ? passed : failed) += 1;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    if (rounds < 5) rounds = 5;
    int passed = 0, failed = 0;
    double first0 = now();
    tl_state *S = tl_open();
    double first = now() - first0;
    if (!S || tl_eval(S, "x = 3; y = [1.0, 2.0, 3.0]") != TL_OK) return 1;
    printf("first tl_open in the process (builds the builtin registry): %.3f ms\n", first * 1e3);
    judge(&passed, &failed, "tl_eval(\"x + 1\") after the first", eval_cost(S, "x + 1", rounds, 1000) * 1e6, 2, "us");
    printf("%-58s %10.3f us\n", "tl_eval(\"y * 2 + x\") (3 f64 elements)", eval_cost(S, "y * 2 + x", rounds, 1000) * 1e6);
    printf("%-58s %10.3f us\n", "tl_eval(\"z = sum(y) / len(y)\")", eval_cost(S, "z = sum(y) / len(y)", rounds, 1000) * 1e6);
    judge(&passed, &failed, "tl_open + tl_close", open_close_cost(rounds) * 1e3, 1, "ms");

    /* a call on a 1,000 x 1,000 f32 tensor over this program's memory */
    enum { N = 1000 };
    float *x = malloc(sizeof(float) * N * N);
    if (!x || tl_eval(S, "fn scale(x, s) = x * s + 1") != TL_OK) return 1;
    for (int64_t i = 0; i < (int64_t)N * N; i++) x[i] = (float)(i % 13);
    float s = 0.5f;
    tl_array args[2] = { tl_array_of(x, TL_TYPE_F32, 2, (int64_t[]){ N, N }), tl_array_of(&s, TL_TYPE_F32, 0, NULL) };
    uint64_t before = tl_storage_count();
    tl_array y;
    if (tl_call(S, "scale", 2, args, &y) != TL_OK) return 1;
    uint64_t made = tl_storage_count() - before;
    judge(&passed, &failed, "storages a scale(x, s) call on 1000x1000 f32 allocates", (double)made, 2, "(1: its result)");
    double *t = malloc(sizeof(double) * (size_t)rounds);
    if (!t) return 1;
    for (int r = 0; r < rounds / 4 + 1; r++) {
        double t0 = now();
        tl_call(S, "scale", 2, args, &y);
        t[r] = now() - t0;
    }
    printf("%-58s %10.3f ms\n", "tl_call(\"scale\", x 1000x1000 f32, s)", median(t, rounds / 4 + 1) * 1e3);
    free(t);
    free(x);
    tl_close(S);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
