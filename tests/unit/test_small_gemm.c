/* test_small_gemm.c — tl_small_sgemm against one fused multiply-add chain per element, bit for bit */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* This test calls the kernel itself (both its forms, chosen by shape), so it claims the
   runtime's side of kern.h's guard. */
#define TL_RUNTIME_INTERNAL
#include "kernels/kern.h"
#include "leak_check.h"
#include "test_rng.h"

LEAK_CHECKED_SUITE(small_gemm);

static uint64_t rng_state = 2463534242ull;

static uint64_t rnd(void) { return xorshift64(&rng_state); }

/* A float of varied magnitude and sign, so that the order of the additions shows in the bits. */
static float value(void) { return ldexpf((float)((int64_t)(rnd() % 2000001) - 1000000), (int)(rnd() % 24) - 30); }

/* c[i, j] = a[i, 0] b[0, j] + a[i, 1] b[1, j] + ..., one fmaf after another: BLAS's order. */
static void reference(int64_t n, int64_t m, int64_t k, const float *a, int64_t ars, int64_t acs, const float *b,
                      int64_t brs, float *c)
{
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            float s = 0;
            for (int64_t p = 0; p < k; p++) s = fmaf(a[i * ars + p * acs], b[p * brs + j], s);
            c[i * m + j] = s;
        }
}

/* Runs one shape with a's rows `pad` floats longer than k (a view of a wider matrix) and
   b's rows `bpad` longer than m; true when every element has the reference's bits. */
static bool same_bits(int64_t n, int64_t m, int64_t k, int64_t pad, int64_t bpad, bool a_transposed)
{
    int64_t ars = a_transposed ? 1 : k + pad, acs = a_transposed ? n + pad : 1;
    int64_t alen = a_transposed ? k * (n + pad) : n * (k + pad), brs = m + bpad;
    float *a = malloc((size_t)alen * sizeof *a), *b = malloc((size_t)(k * brs + 1) * sizeof *b);
    float *c = malloc((size_t)(n * m) * sizeof *c), *r = malloc((size_t)(n * m) * sizeof *r);
    for (int64_t i = 0; i < alen; i++) a[i] = value();
    for (int64_t i = 0; i < k * brs + 1; i++) b[i] = value();
    tl_sgemm_entry e = { a, b, c };
    tl_small_sgemm(1, &e, n, m, k, ars, acs, brs);
    reference(n, m, k, a, ars, acs, b, brs, r);
    bool ok = memcmp(c, r, (size_t)(n * m) * sizeof *c) == 0;
    free(a);
    free(b);
    free(c);
    free(r);
    return ok;
}

/* Column counts 1..4 with 16 rows or more, or fewer columns than rows, take the column
   form (a's rows transposed in blocks of 16 x 16): row counts around the blocks' edges
   and under one block, row lengths around 16. */
Test(small_gemm, column_form_matches_fma_chains)
{
    if (!tl_small_sgemm_ok()) cr_skip_test("no AVX2 and FMA here");
    static const int64_t ns[] = { 5, 9, 15, 16, 17, 31, 32, 33, 47, 101 };
    static const int64_t ks[] = { 1, 2, 15, 16, 17, 31, 48, 288 };
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++)
            for (int64_t m = 1; m <= 4; m++)
                for (int64_t pad = 0; pad <= 5; pad += 5)
                    cr_expect(same_bits(ns[a], m, ks[b], pad, m == 1 ? 0 : 3, false), "n %lld m %lld k %lld pad %lld",
                              (long long)ns[a], (long long)m, (long long)ks[b], (long long)pad);
}

/* Everything else takes the row form: as many columns as rows or more (under 16 rows),
   more than eight columns, or a's columns strided. */
Test(small_gemm, row_form_matches_fma_chains)
{
    if (!tl_small_sgemm_ok()) cr_skip_test("no AVX2 and FMA here");
    static const int64_t shapes[][3] = { { 1, 1, 48 }, { 3, 3, 288 }, { 6, 48, 48 }, { 1, 101, 48 }, { 3, 129, 7 },
                                         { 40, 5, 33 }, { 2, 200, 1 }, { 16, 17, 16 }, { 15, 9, 20 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 2; t++)
            cr_expect(same_bits(shapes[s][0], shapes[s][1], shapes[s][2], 2, 1, t == 1), "n %lld m %lld k %lld %s",
                      (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2], t ? "a transposed" : "");
    /* a column form's shape with a transposed a (acs != 1) takes the row form */
    cr_expect(same_bits(40, 1, 48, 3, 0, true));
    cr_expect(same_bits(15, 1, 288, 3, 0, true));
}

/* `count` entries of one shape through tl_small_sgemm, each with its own a, b and c
   (b's rows `bpad` floats longer than m); true when every entry has the reference's bits. */
static bool batch_same_bits(int64_t count, int64_t n, int64_t m, int64_t k, int64_t bpad)
{
    int64_t ars = k + 1, brs = m + bpad, alen = n * ars, blen = k * brs, clen = n * m;
    float *a = malloc((size_t)(count * alen) * sizeof *a), *b = malloc((size_t)(count * blen) * sizeof *b);
    float *c = malloc((size_t)(count * clen) * sizeof *c), *r = malloc((size_t)clen * sizeof *r);
    tl_sgemm_entry *e = malloc((size_t)count * sizeof *e);
    for (int64_t i = 0; i < count * alen; i++) a[i] = value();
    for (int64_t i = 0; i < count * blen; i++) b[i] = value();
    for (int64_t t = 0; t < count; t++) e[t] = (tl_sgemm_entry){ a + t * alen, b + t * blen, c + t * clen };
    tl_small_sgemm(count, e, n, m, k, ars, 1, brs);
    bool ok = true;
    for (int64_t t = 0; t < count && ok; t++) {
        reference(n, m, k, a + t * alen, ars, 1, b + t * blen, brs, r);
        ok = memcmp(c + t * clen, r, (size_t)clen * sizeof *r) == 0;
    }
    free(a);
    free(b);
    free(c);
    free(r);
    free(e);
    return ok;
}

/* A batch's rows are computed a few side by side, rows of different entries together (an
   attention's heads: one row each, against each head's own b): every entry keeps its own
   bits, whichever rows share a step, across the 64-row gatherings and every chunk count. */
Test(small_gemm, batch_rows_side_by_side_match_fma_chains)
{
    if (!tl_small_sgemm_ok()) cr_skip_test("no AVX2 and FMA here");
    static const int64_t shapes[][4] = { { 6, 1, 48, 129 }, { 6, 1, 129, 48 }, { 12, 1, 64, 200 }, { 1, 6, 48, 48 },
                                         { 3, 5, 100, 17 }, { 40, 2, 33, 9 }, { 7, 3, 128, 5 }, { 5, 1, 16, 1 },
                                         { 70, 1, 24, 12 }, { 2, 9, 250, 3 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int64_t bpad = 0; bpad <= 7; bpad += 7)
            cr_expect(batch_same_bits(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], bpad),
                      "count %lld n %lld m %lld k %lld bpad %lld", (long long)shapes[s][0], (long long)shapes[s][1],
                      (long long)shapes[s][2], (long long)shapes[s][3], (long long)bpad);
}
