/* tests/unit/test_matvec_emulated_512.c — the AVX-512 f32 and bf16 rows (kernels/matvec.c)
   against the AVX2 ones, bit for bit, on emulated intrinsics (avx512_simde.h): matvec.c is
   compiled into this test. A 512-bit accumulator is two of the AVX2 loop's 256-bit ones, so
   each lane sums the same products in the same order. */
#include <criterion/criterion.h>

#define TL_RUNTIME_INTERNAL
#include "../../runtime/kernels/matvec.c"

#include "test_rng.h"

/* A float in [-1, 1) from 24 random bits. */
static float uniform(uint64_t *rng) { return (float)(xorshift64(rng) >> 40) / 8388608.0f - 1.0f; }

/* Row lengths on both sides of every step (8, 16, 32 elements) and of ROWS4_MIN_BYTES, and
   row counts that leave every remainder of the four runs (with 4096-element f32 rows, 16
   rows make a run: 70 rows are four runs of 16 and six left). */
Test(matvec512, rows_give_the_avx2_bits)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) cr_skip_test("the emulation runs on AVX2");
    static const int64_t ks[] = { 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 288, 1000, 2053, 4096 };
    static const int64_t ns[] = { 1, 3, 4, 5, 9, 70 };
    uint64_t rng = 11;
    int compared = 0;
    for (size_t a = 0; a < sizeof ks / sizeof *ks; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b++) {
            int64_t k = ks[a], n = ns[b];
            float *wf = malloc((size_t)(n * k) * sizeof *wf), *x = malloc((size_t)k * sizeof *x);
            uint16_t *wb = malloc((size_t)(n * k) * sizeof *wb);
            float *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
            cr_assert(wf && x && wb && want && got);
            for (int64_t i = 0; i < n * k; i++) wf[i] = uniform(&rng), wb[i] = cast_f32_to_bf16(wf[i]);
            for (int64_t i = 0; i < k; i++) x[i] = uniform(&rng);
            rows_bf16_avx2(wb, k, n, x, k, want, 1);
            rows_bf16_avx512(wb, k, n, x, k, got, 1);
            cr_assert(!memcmp(got, want, (size_t)n * sizeof *got), "bf16 one at a time, %lld x %lld", (long long)n, (long long)k);
            memset(got, 0, (size_t)n * sizeof *got);
            rows4_bf16_avx512(wb, k, n, x, k, got, 1);
            cr_assert(!memcmp(got, want, (size_t)n * sizeof *got), "bf16 four runs, %lld x %lld", (long long)n, (long long)k);
            rows_f32_avx2(wf, k, n, x, k, want, 1);
            memset(got, 0, (size_t)n * sizeof *got);
            rows4_f32_avx512(wf, k, n, x, k, got, 1);
            cr_assert(!memcmp(got, want, (size_t)n * sizeof *got), "f32 four runs, %lld x %lld", (long long)n, (long long)k);
            free(wf), free(x), free(wb), free(want), free(got);
            compared++;
        }
    cr_assert_eq(compared, 15 * 6);
}
