/* tests/unit/test_random_emulated_512.c — Philox's AVX-512 path against its portable loop, bit
   for bit, on emulated intrinsics (avx512_simde.h): random.c is compiled into this test. */
#include <criterion/criterion.h>

#define TL_RUNTIME_INTERNAL
#include "../../runtime/random.c"

/* Keys, streams and first blocks, among them blocks whose low words wrap past 2**32 within the
   batch (the carry into the high word) and the largest counters. */
Test(philox, avx512_path_gives_the_portable_bits)
{
    if (!__builtin_cpu_supports("avx2")) cr_skip_test("the emulation runs on AVX2");
    const uint64_t keys[] = { 0, 1, 0x123456789ABCDEF0u, UINT64_MAX };
    const uint64_t calls[] = { 0, 7, 1u << 31, (uint64_t)1 << 56 | 3, UINT64_MAX };
    const uint64_t blks[] = { 0, 16, 0xFFFFFFF0u, 0xFFFFFFF8u, 0x1FFFFFFFFu, UINT64_MAX - 7, UINT64_MAX - 15 };
    int compared = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        for (size_t c = 0; c < sizeof calls / sizeof *calls; c++)
            for (size_t b = 0; b < sizeof blks / sizeof *blks; b++) {
                uint32_t want[4][BATCH], got[4][BATCH];
                philox_batch_portable(keys[k], calls[c], blks[b], want);
                philox_batch_avx512(keys[k], calls[c], blks[b], got);
                for (int w = 0; w < 4; w++)
                    for (int l = 0; l < BATCH; l++)
                        cr_assert_eq(got[w][l], want[w][l], "key %llx call %llx block %llx + %d, word %d: %08x, want %08x",
                                     (unsigned long long)keys[k], (unsigned long long)calls[c],
                                     (unsigned long long)blks[b], l, w, got[w][l], want[w][l]);
                /* and the portable batch is philox_block's numbers */
                uint32_t one[4];
                philox_block(keys[k], calls[c], blks[b] + 9, one);
                for (int w = 0; w < 4; w++) cr_assert_eq(want[w][9], one[w]);
                compared++;
            }
    cr_assert_eq(compared, 4 * 5 * 7);
}
