/* tests/unit/test_convert_emulated_512.c — the AVX-512 f16 and bf16 conversions (kernels/convert.c)
   against cast.h's scalar ones, bit for bit, on emulated intrinsics (avx512_simde.h): convert.c
   is compiled into this test. */
#include <criterion/criterion.h>

#define TL_RUNTIME_INTERNAL
#include "../../runtime/kernels/convert.c"

/* Every 16-bit pattern, then a tail of 5 (the scalar loop's part). */
enum { ALL16 = 65536 + 5 };

Test(convert512, halves_to_f32_give_the_scalar_bits)
{
    if (!__builtin_cpu_supports("avx2")) cr_skip_test("the emulation runs on AVX2");
    static uint16_t h[ALL16];
    static float got[ALL16];
    for (int i = 0; i < ALL16; i++) h[i] = (uint16_t)(i * 40503u);   /* a permutation of the patterns, odd multiplier */
    f16_to_f32_avx512(ALL16, h, got);
    for (int i = 0; i < ALL16; i++) {
        float want = cast_f16_to_f32(h[i]);
        cr_assert(!memcmp(&got[i], &want, 4), "f16 %04x: %a, want %a", h[i], got[i], want);
    }
    bf16_to_f32_avx512(ALL16, h, got);
    for (int i = 0; i < ALL16; i++) {
        float want = cast_bf16_to_f32(h[i]);
        cr_assert(!memcmp(&got[i], &want, 4), "bf16 %04x: %a, want %a", h[i], got[i], want);
    }
}

Test(convert512, f32_to_halves_give_the_scalar_bits)
{
    if (!__builtin_cpu_supports("avx2")) cr_skip_test("the emulation runs on AVX2");
    /* every top 16 bits with low bits at the roundings' edges: f16's tie at bit 12, bf16's at
       bit 15, one above and below, all ones; NaNs with payloads among them */
    static const uint16_t lows[] = { 0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x3000, 0x7FFF,
                                     0x8000, 0x8001, 0x9000, 0xC000, 0xE001, 0xFFFF, 0x5A5A };
    enum { NL = sizeof lows / sizeof *lows, N = 65536 * NL + 7 };
    float *x = malloc(N * sizeof *x);
    uint16_t *got = malloc(N * sizeof *got);
    cr_assert(x && got);
    for (int i = 0; i < N; i++) {
        uint32_t u = (uint32_t)(i / NL) << 16 | lows[i % NL];
        memcpy(&x[i], &u, 4);
    }
    f32_to_f16_avx512(N, x, got);
    for (int i = 0; i < N; i++)
        cr_assert_eq(got[i], cast_f32_to_f16(x[i]), "f32 %a -> f16 %04x, want %04x", x[i], got[i], cast_f32_to_f16(x[i]));
    f32_to_bf16_avx512(N, x, got);
    for (int i = 0; i < N; i++)
        cr_assert_eq(got[i], cast_f32_to_bf16(x[i]), "f32 %a -> bf16 %04x, want %04x", x[i], got[i], cast_f32_to_bf16(x[i]));
    free(x);
    free(got);
}
