/* test_q8dot.c — the Q8_0 dot's CPU paths against the portable loop, bit for bit, over block counts and row counts */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* This test checks the kernels' private entry points themselves (each path of the dot, not
   only the best one a product would take), so it claims the runtime's side of kern.h's guard. */
#define TL_RUNTIME_INTERNAL
#include "kernels/kern.h"
#include "leak_check.h"
#include "test_rng.h"

LEAK_CHECKED_SUITE(q8dot);

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void) { return xorshift64(&rng_state); }

/* rows * nb random Q8_0 blocks (scales 2^-8..2^-4, a few negative) and an x of nb * 32 floats. */
static void fill(uint8_t *w, int64_t rows, int64_t nb, float *x)
{
    for (int64_t b = 0; b < rows * nb; b++) {
        uint8_t *p = w + 34 * b;
        uint16_t h = (uint16_t)(0x1c00 + rnd() % 0x1000);
        if (rnd() % 31 == 0) h |= 0x8000;
        p[0] = (uint8_t)(h & 255);
        p[1] = (uint8_t)(h >> 8);
        for (int j = 0; j < 32; j++) p[2 + j] = (uint8_t)rnd();
    }
    for (int64_t i = 0; i < nb * 32; i++) x[i] = (float)((int64_t)(rnd() % 2000001) - 1000000) * 1e-6f * (float)(1 + i % 7);
}

/* Every block count 1..40 (pairs of blocks with and without a last odd one, each accumulator
   last) and row counts 1..13 and 37 (each remainder after groups of four and two): every
   path this CPU has gives the portable loop's bits, written with a stride. */
Test(q8dot, every_path_gives_the_portable_bits)
{
    int best = tl_q8_best_path();
    cr_log_info("best Q8_0 path here: %d", best);
    static const int64_t row_counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 37 };
    for (int64_t nb = 1; nb <= 40; nb++)
        for (size_t rc = 0; rc < sizeof row_counts / sizeof *row_counts; rc++) {
            int64_t rows = row_counts[rc];
            uint8_t *w = malloc((size_t)(34 * nb * rows));
            float *x = malloc((size_t)nb * 32 * sizeof *x);
            float *want = malloc((size_t)rows * 2 * sizeof *want), *got = malloc((size_t)rows * 2 * sizeof *got);
            cr_assert(w && x && want && got);
            fill(w, rows, nb, x);
            if (nb == 3) x[5] = 0, x[40] = -0.0f, x[64] = 1e-30f;   /* zeros and a tiny value among the blocks */
            tl_q8_act a;
            cr_assert_eq(tl_q8_quantize(x, 1, nb * 32, &a), 0);
            tl_q8_rows_on(TL_Q8_PORTABLE, w, (size_t)(34 * nb), rows, &a, 0, want, 2);
            for (int path = TL_Q8_AVX2; path <= best; path++) {
                memset(got, 0, (size_t)rows * 2 * sizeof *got);
                tl_q8_rows_on(path, w, (size_t)(34 * nb), rows, &a, 0, got, 2);
                for (int64_t j = 0; j < rows; j++)
                    cr_assert(memcmp(&got[2 * j], &want[2 * j], sizeof *got) == 0,
                              "path %d, %ld blocks, %ld rows: row %ld %a, portable %a", path, (long)nb, (long)rows,
                              (long)j, (double)got[2 * j], (double)want[2 * j]);
            }
            tl_q8_act_free(&a);
            free(w), free(x), free(want), free(got);
        }
}
