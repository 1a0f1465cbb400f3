/* tests/unit/test_summary_emulated_512.c — the AVX-512 steps of summary() and compare()
   (summary.c) against the AVX2 and portable ones, bit for bit, on emulated intrinsics
   (avx512_simde.h): summary.c is compiled into this test. Each path adds the same values in
   the same order in each lane, and the fused multiply-adds of x x, y y and x y round as the
   portable multiply and add do (a product of two floats is exact in double), so every figure
   must be the same double. */
#include <criterion/criterion.h>

#define TL_RUNTIME_INTERNAL
#include "../../runtime/summary.c"

#include "test_rng.h"

/* A float in [-1, 1) from 24 random bits. */
static float uniform(uint64_t *rng) { return (float)(xorshift64(rng) >> 40) / 8388608.0f - 1.0f; }

/* Value kinds: uniform; magnitudes spread over 2^-60 .. 2^60 (the products' low bits matter);
   all equal; uniform with one value near float's largest; whole numbers, so that differences
   tie for the largest (the first place must be found). */
enum { UNIFORM, SPREAD, CONSTANT, ONE_HUGE, TIES, KINDS };

static float value(int kind, uint64_t *rng, int64_t i, int64_t n)
{
    switch (kind) {
    case SPREAD: return ldexpf(uniform(rng), (int)(xorshift64(rng) % 121) - 60);
    case CONSTANT: return 0.3f;
    case ONE_HUGE: return i == n / 2 ? 3.0e38f : uniform(rng);
    case TIES: return (float)(int)(xorshift64(rng) % 7) - 3.0f;
    default: return uniform(rng);
    }
}

/* Lengths on both sides of a step (16), of DIFF_BLOCK's blocks, and a whole chunk. */
static const int64_t lengths[] = { 1, 2, 15, 16, 17, 31, 33, 100, 1023, 1024, 1025, 1040, 2047, 2048, 2061, 5000,
                                   TL_STREAM_CHUNK };
enum { NLENGTHS = sizeof lengths / sizeof *lengths };

/* Fills x and y with n values of a kind: y x plus a small change, or for SPREAD and TIES
   values of its own (far-apart magnitudes make x - y inexact in double, so a fused e e would
   round differently from the portable multiply and add). */
static void fill(int kind, uint64_t *rng, float *x, float *y, int64_t n)
{
    bool own = kind == SPREAD || kind == TIES;
    for (int64_t i = 0; i < n; i++) x[i] = value(kind, rng, i, n);
    for (int64_t i = 0; i < n; i++) y[i] = own ? value(kind, rng, i, n) : x[i] + 0.01f * value(kind, rng, i, n);
}

/* Fails naming the case unless a and b are the same bytes. */
#define SAME(a, b, what, kind, n)                                                                                  \
    cr_assert(!memcmp(&(a), &(b), sizeof(a)), "%s: kind %d, %lld values", what, kind, (long long)(n))

Test(summary512, stats_give_the_avx2_and_portable_bits)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) cr_skip_test("the emulation runs on AVX2");
    uint64_t rng = 5;
    float *x = malloc(TL_STREAM_CHUNK * sizeof *x), *y = malloc(TL_STREAM_CHUNK * sizeof *y);
    cr_assert(x && y);
    int compared = 0;
    for (int kind = 0; kind < KINDS; kind++)
        for (int l = 0; l < NLENGTHS; l++) {
            int64_t n = lengths[l];
            fill(kind, &rng, x, y, n);
            /* into empty figures, and into figures that already hold y's (the merge) */
            for (int merged = 0; merged < 2; merged++) {
                tl_stats want, avx2, got;
                tl_stats_clear(&want);
                if (merged) stats_run_base(&want, y, n);
                avx2 = got = want;
                stats_run_base(&want, x, n);
                stats_run_avx2(&avx2, x, n);
                stats_run_avx512(&got, x, n);
                SAME(avx2, want, "AVX2 stats", kind, n);
                SAME(got, want, "AVX-512 stats", kind, n);
                compared++;
            }
        }
    /* a nan sends every path to the one-by-one loop */
    x[7] = NAN;
    tl_stats want, got;
    tl_stats_clear(&want), tl_stats_clear(&got);
    stats_run_base(&want, x, 100);
    stats_run_avx512(&got, x, 100);
    SAME(got, want, "AVX-512 stats with a nan", 0, 100);
    cr_assert_eq(got.nan, 1);
    cr_assert_eq(compared, 2 * KINDS * NLENGTHS);
    free(x), free(y);
}

Test(summary512, differences_give_the_avx2_and_portable_bits)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) cr_skip_test("the emulation runs on AVX2");
    uint64_t rng = 17;
    float *a = malloc(TL_STREAM_CHUNK * sizeof *a), *b = malloc(TL_STREAM_CHUNK * sizeof *b);
    cr_assert(a && b);
    int compared = 0;
    for (int kind = 0; kind < KINDS; kind++)
        for (int l = 0; l < NLENGTHS; l++) {
            int64_t n = lengths[l], first = 3 * TL_STREAM_CHUNK;
            fill(kind, &rng, a, b, n);
            tl_diff want = { .max_abs = -1, .argmax = -1 }, avx2 = want, got = want;
            diff_run_base(&want, a, b, first, n);
            diff_run_avx2(&avx2, a, b, first, n);
            diff_run_avx512(&got, a, b, first, n);
            SAME(avx2, want, "AVX2 differences", kind, n);
            SAME(got, want, "AVX-512 differences", kind, n);
            cr_assert_geq(got.argmax, first, "a place was found: kind %d, %lld values", kind, (long long)n);
            compared++;
        }
    b[9] = INFINITY;
    tl_diff want = { .max_abs = -1, .argmax = -1 }, got = want;
    diff_run_base(&want, a, b, 0, 100);
    diff_run_avx512(&got, a, b, 0, 100);
    SAME(got, want, "AVX-512 differences with an inf", 0, 100);
    cr_assert_eq(got.skipped, 1);
    cr_assert_eq(compared, KINDS * NLENGTHS);
    free(a), free(b);
}
