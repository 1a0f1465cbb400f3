/* tests/unit/test_transpose_emulated_512.c — the AVX-512 16 x 16 blocks of transposed copies
   (kernels/transpose.c) on emulated intrinsics (avx512_simde.h): transpose.c is compiled into
   this test, where its blocks run on AVX2. A copy of a transposed f32 matrix must hold every
   element where the transpose puts it, through the blocks, their ragged edges and the
   streaming stores. */
#include <criterion/criterion.h>

#define TL_RUNTIME_INTERNAL
#include "../../runtime/kernels/transpose.c"

#include "test_rng.h"

/* dst (rows x cols, rows dst_row floats apart) = src.T, src being cols x rows, contiguous:
   the plan tl_convert makes for contiguous(X.T). True when it took the blocked path. */
static bool copy_transposed(float *dst, int64_t dst_row, const float *src, int64_t rows, int64_t cols)
{
    tl_iter it = { .nops = 2, .ndim = 2, .shape = { rows, cols }, .size = rows * cols };
    it.base[0] = (char *)dst, it.base[1] = (char *)src;
    it.bstrides[0][0] = dst_row * 4, it.bstrides[0][1] = 4;
    it.bstrides[1][0] = 4, it.bstrides[1][1] = rows * 4;
    int rc = 0;
    bool took = tl_try_blocked_transpose(&it, TL_F32, TL_F32, &rc);
    cr_assert_eq(rc, 0);
    return took;
}

/* Shapes around the blocks' side (16), the strips and bands, and one large enough (16 MiB out)
   for the streaming stores, with rows padded to 64 bytes so that they apply. */
Test(transpose512, blocks_put_every_element_in_place)
{
    if (!__builtin_cpu_supports("avx2")) cr_skip_test("the emulation runs on AVX2");
    static const int64_t shapes[][2] = { { 32, 32 }, { 33, 47 }, { 16, 100 }, { 100, 16 }, { 513, 31 },
                                         { 64, 1000 }, { 2048, 2048 } };
    uint64_t rng = 3;
    int copies = 0, streamed = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int padded = 0; padded < 2; padded++) {
            int64_t rows = shapes[s][0], cols = shapes[s][1];
            int64_t dst_row = padded ? (cols + 15) / 16 * 16 : cols;
            float *src = malloc((size_t)(rows * cols) * sizeof *src);
            size_t dst_bytes = ((size_t)(rows * dst_row) * sizeof(float) + 63) / 64 * 64;
            float *dst = aligned_alloc(64, dst_bytes);
            cr_assert(src && dst);
            for (int64_t i = 0; i < rows * cols; i++) src[i] = (float)(xorshift64(&rng) >> 40);
            memset(dst, 0xFF, dst_bytes);
            transpose_job probe = { .dst = (char *)dst, .rows = rows, .cols = cols, .d_row = dst_row * 4 };
            bool streams = stream_ok(&probe);
            cr_assert(copy_transposed(dst, dst_row, src, rows, cols));
            for (int64_t r = 0; r < rows; r++)
                for (int64_t c = 0; c < cols; c++)
                    cr_assert(!memcmp(&dst[r * dst_row + c], &src[c * rows + r], 4),
                              "%lld x %lld (rows %lld floats apart%s): element (%lld, %lld)", (long long)rows,
                              (long long)cols, (long long)dst_row, streams ? ", streamed" : "", (long long)r,
                              (long long)c);
            free(src), free(dst);
            copies++, streamed += streams;
        }
    cr_assert_eq(copies, 14);
    cr_assert_eq(streamed, 2, "the 2048 x 2048 copies (16 MiB, rows of 8 KiB) stream");
}
