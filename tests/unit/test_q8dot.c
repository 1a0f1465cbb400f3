/* test_q8dot.c — the quantized dots' CPU paths against the portable loop, bit for bit, for every type over block and row counts */
#include <criterion/criterion.h>
#include <math.h>
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

/* ggml type, bytes per block, and where its f16 scales sit (-1: none; Q8_K's d is an f32 at 0). */
typedef struct qtype { const char *name; int type, bytes, f16[2]; } qtype;
static const qtype TYPES[] = {
    { "Q4_0", 2, 18, { 0, -1 } },   { "Q4_1", 3, 20, { 0, 2 } },    { "Q5_0", 6, 22, { 0, -1 } },
    { "Q5_1", 7, 24, { 0, 2 } },    { "Q8_0", 8, 34, { 0, -1 } },   { "Q2_K", 10, 84, { 80, 82 } },
    { "Q3_K", 11, 110, { 108, -1 } }, { "Q4_K", 12, 144, { 0, 2 } }, { "Q5_K", 13, 176, { 0, 2 } },
    { "Q6_K", 14, 210, { 208, -1 } }, { "Q8_K", 15, 292, { -1, -1 } },
};

/* A random f16 scale 2^-8..2^-4, now and then negative. */
static uint16_t random_scale(void)
{
    uint16_t h = (uint16_t)(0x1c00 + rnd() % 0x1000);
    if (rnd() % 31 == 0) h |= 0x8000;
    return h;
}

/* n random blocks of type t (every bit pattern of the quants; finite scales). */
static void fill_blocks(const qtype *t, uint8_t *w, int64_t n)
{
    for (int64_t b = 0; b < n; b++) {
        uint8_t *p = w + (int64_t)t->bytes * b;
        for (int j = 0; j < t->bytes; j++) p[j] = (uint8_t)rnd();
        for (int s = 0; s < 2; s++)
            if (t->f16[s] >= 0) {
                uint16_t h = random_scale();
                memcpy(p + t->f16[s], &h, 2);
            }
        if (t->type == 15) {
            float d = (float)((int)(rnd() % 2001) - 1000) * 1e-5f;
            memcpy(p, &d, 4);
        }
    }
}

/* n floats of x, with zeros and a tiny value among them. */
static void fill_x(float *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++) x[i] = (float)((int64_t)(rnd() % 2000001) - 1000000) * 1e-6f * (float)(1 + i % 7);
    if (n > 64) x[5] = 0, x[40] = -0.0f, x[64] = 1e-30f;
}

/* Block counts (pairs with and without a last odd one, each accumulator last; and rows of
   TL_QDOT_LONG_ROW_BYTES or more, which some types read one at a time, each remainder of
   four blocks) and row counts (each remainder after groups of four and two): every path
   this CPU has gives the portable loop's bits, written with a stride, for every type. */
Test(q8dot, every_path_gives_the_portable_bits)
{
    int best = tl_qdot_best_path();
    cr_log_info("best quantized dot path here: %d", best);
    static const int64_t row_counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 37 };
    for (size_t ti = 0; ti < sizeof TYPES / sizeof *TYPES; ti++) {
        const qtype *t = &TYPES[ti];
        int64_t bl;
        cr_assert(tl_qdot_supports(t->type, &bl), "%s", t->name);
        int64_t max_nb = bl == 32 ? 40 : 6, long_nb = (TL_QDOT_LONG_ROW_BYTES + t->bytes - 1) / t->bytes;
        int64_t counts[64], nc = 0;
        for (int64_t nb = 1; nb <= max_nb; nb++) counts[nc++] = nb;
        for (int64_t nb = long_nb; nb < long_nb + 4; nb++) counts[nc++] = nb;
        /* short rows with more groups of x than qdot32.c's AVX-512 path keeps on the stack */
        if (bl == 32 && t->bytes * 97 < TL_QDOT_LONG_ROW_BYTES) counts[nc++] = 97;
        for (int64_t ci = 0; ci < nc; ci++)
            for (size_t rc = 0; rc < sizeof row_counts / sizeof *row_counts; rc++) {
                int64_t nb = counts[ci];
                int64_t rows = row_counts[rc], k = nb * bl;
                uint8_t *w = malloc((size_t)(t->bytes * nb * rows));
                float *x = malloc((size_t)k * sizeof *x);
                float *want = malloc((size_t)rows * 2 * sizeof *want), *got = malloc((size_t)rows * 2 * sizeof *got);
                cr_assert(w && x && want && got);
                fill_blocks(t, w, nb * rows);
                fill_x(x, k);
                tl_qact a;
                cr_assert_eq(tl_qact_make(x, 1, k, bl, &a), 0);
                size_t rb = (size_t)(t->bytes * nb);
                tl_qdot_rows_on(TL_QDOT_PORTABLE, t->type, w, rb, rows, &a, 0, want, 2);
                for (int path = TL_QDOT_AVX2; path <= best; path++) {
                    memset(got, 0, (size_t)rows * 2 * sizeof *got);
                    tl_qdot_rows_on(path, t->type, w, rb, rows, &a, 0, got, 2);
                    for (int64_t j = 0; j < rows; j++)
                        cr_assert(memcmp(&got[2 * j], &want[2 * j], sizeof *got) == 0,
                                  "%s path %d, %ld blocks, %ld rows: row %ld %a, portable %a", t->name, path, (long)nb,
                                  (long)rows, (long)j, (double)got[2 * j], (double)want[2 * j]);
                }
                tl_qact_free(&a);
                free(w), free(x), free(want), free(got);
            }
    }
}

/* x's rounding: the AVX2 path's blocks are the portable one's (tl_qact_make picks one by the
   CPU; both round to nearest even), d = max|x| / 127, and a block holding a NaN or an
   infinity gets d = NaN, so every product with it is NaN, not a number made up of the rest. */
Test(q8dot, x_rounds_to_nearest_and_keeps_nan)
{
    float x[256];
    for (int j = 0; j < 256; j++) x[j] = (float)j - 127.5f;   /* halves: ties go to even */
    tl_qact a;
    cr_assert_eq(tl_qact_make(x, 1, 256, 32, &a), 0);
    cr_expect_eq(a.d[0], 127.5f / 127);
    cr_expect_eq(a.q[0], -127);
    cr_expect_eq(a.nsum4[0], -(a.q[0] + a.q[1] + a.q[2] + a.q[3]));
    for (int j = 0; j < 256; j++)
        cr_expect_eq(a.q[j], (int8_t)lrintf(x[j] * (1 / a.d[j / 32])), "element %d", j);
    tl_qact_free(&a);
    x[77] = NAN, x[200] = INFINITY;
    cr_assert_eq(tl_qact_make(x, 1, 256, 32, &a), 0);
    cr_expect(isnan(a.d[2]) && isnan(a.d[6]) && !isnan(a.d[1]) && !isnan(a.d[7]));
    tl_qact_free(&a);
    cr_assert_eq(tl_qact_make(x, 1, 256, 256, &a), 0);
    cr_expect(isnan(a.d[0]));
    uint8_t w[292] = { 0 };
    float one = 1, y;
    memcpy(w, &one, 4);
    w[4] = 1;
    tl_qdot_rows(15, w, 292, 1, &a, 0, &y, 1);
    cr_expect(isnan(y));
    tl_qact_free(&a);
}
