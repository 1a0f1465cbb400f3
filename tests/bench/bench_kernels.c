/* bench_kernels.c — times runtime kernels on fixed sizes; bench_kernels.py compares with numpy */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Uniform [0, 1) data from the runtime's own generator (any values do). */
static tl_tensor *data(tl_dtype dt, int nd, const int64_t *shape)
{
    tl_tensor *t = tl_rand(dt, nd, shape);
    if (!t) { fprintf(stderr, "rand: %s\n", tl_errmsg()); exit(1); }
    return t;
}

typedef struct { const char *name; int reps; } bench;

/* Runs one named case `reps` times and prints the best time in seconds. */
static void run(const char *name, int reps, tl_tensor *(*fn)(void *), void *ctx)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        tl_tensor *out = fn(ctx);
        double t = now() - t0;
        if (!out) { fprintf(stderr, "%s: %s\n", name, tl_errmsg()); exit(1); }
        tl_tensor_release(out);
        if (t < best) best = t;
    }
    printf("%s %.6f\n", name, best);
    fflush(stdout);
}

typedef struct { tl_tensor *a, *b; int axis; } args;

static tl_tensor *do_add(void *c) { args *x = c; return tl_binary(TL_ADD, x->a, x->b, TL_F32); }
static tl_tensor *do_mul(void *c) { args *x = c; return tl_binary(TL_MUL, x->a, x->b, x->a->dtype); }
static tl_tensor *do_exp(void *c) { args *x = c; return tl_unary(TL_EXP, x->a); }
static tl_tensor *do_tanh(void *c) { args *x = c; return tl_unary(TL_TANH, x->a); }
static tl_tensor *do_sum(void *c) { args *x = c; return tl_reduce(TL_RSUM, x->a, 0, NULL, false, 0); }
static tl_tensor *do_sum_axis(void *c) { args *x = c; return tl_reduce(TL_RSUM, x->a, 1, &x->axis, false, 0); }
static tl_tensor *do_matmul(void *c) { args *x = c; return tl_matmul(x->a, x->b); }
static tl_tensor *do_softmax(void *c) { args *x = c; return tl_softmax(x->a, -1, false); }
static tl_tensor *do_max_axis(void *c) { args *x = c; return tl_reduce(TL_RMAX, x->a, 1, &x->axis, false, 0); }

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int64_t n = 10000000, sq[2] = { 4096, 4096 }, mm[2] = { 2048, 2048 };
#define WANT(s) (!only || strstr(s, only))
    if (WANT("add_f32_1e7") || WANT("mul_f32_1e7") || WANT("exp_f32_1e7") || WANT("tanh_f32_1e7") ||
        WANT("sum_f32_1e7")) {
        args x = { data(TL_F32, 1, &n), data(TL_F32, 1, &n), 0 };
        if (WANT("add_f32_1e7")) run("add_f32_1e7", 10, do_add, &x);
        if (WANT("mul_f32_1e7")) run("mul_f32_1e7", 10, do_mul, &x);
        if (WANT("exp_f32_1e7")) run("exp_f32_1e7", 10, do_exp, &x);
        if (WANT("tanh_f32_1e7")) run("tanh_f32_1e7", 10, do_tanh, &x);
        if (WANT("sum_f32_1e7")) run("sum_f32_1e7", 20, do_sum, &x);
        tl_tensor_release(x.a);
        tl_tensor_release(x.b);
    }
    if (WANT("sum0_f32_4096") || WANT("sum1_f32_4096") || WANT("max1_f32_4096") || WANT("softmax_f32_4096")) {
        args x = { data(TL_F32, 2, sq), NULL, 0 };
        if (WANT("sum0_f32_4096")) { x.axis = 0; run("sum0_f32_4096", 20, do_sum_axis, &x); }
        if (WANT("sum1_f32_4096")) { x.axis = 1; run("sum1_f32_4096", 20, do_sum_axis, &x); }
        if (WANT("max1_f32_4096")) { x.axis = 1; run("max1_f32_4096", 20, do_max_axis, &x); }
        if (WANT("softmax_f32_4096")) run("softmax_f32_4096", 10, do_softmax, &x);
        tl_tensor_release(x.a);
    }
    if (WANT("matmul_f32_2048")) {
        args x = { data(TL_F32, 2, mm), data(TL_F32, 2, mm), 0 };
        run("matmul_f32_2048", 5, do_matmul, &x);
        tl_tensor_release(x.a);
        tl_tensor_release(x.b);
    }
    if (WANT("matmul_f64_2048")) {
        args x = { data(TL_F64, 2, mm), data(TL_F64, 2, mm), 0 };
        run("matmul_f64_2048", 5, do_matmul, &x);
        tl_tensor_release(x.a);
        tl_tensor_release(x.b);
    }
    return 0;
}
