/* kernels/small_gemm.c — f32 products too small for BLAS: an attention's per-head products, small mat-vecs */
#include <immintrin.h>
#include <stdlib.h>

#include "kern.h"

/* Every product here computes each element of c as one chain of fused multiply-adds over
   p in order, the order BLAS's gemm kernels sum in, so a product has the same bits
   whichever of the two forms below runs it, and whether it is batched or not. A vector's
   sixteen lanes hold sixteen elements of c: along a row (small_cols, up to eight vectors
   in flight, as a chain waits four cycles per step) or, when c has only a few columns,
   down a column (small_rows, a's rows transposed into the lanes sixteen at a time). */

bool tl_small_sgemm_ok(void) { return tl_simd_avx2() && tl_cpu_has_avx512(); }

/* Columns j .. j + 16 C of row ai's product into ci (C chunks of sixteen, the last ones
   masked to m). */
__attribute__((target("avx512f,avx2,fma"), always_inline)) static inline void
small_cols(int C, const float *ai, int64_t acs, const float *b, int64_t brs, int64_t k, float *ci, int64_t j, int64_t m)
{
    __m512 acc[8];
    __mmask16 mk[8];
    for (int c = 0; c < C; c++) {
        int64_t left = m - j - 16 * c;
        mk[c] = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        acc[c] = _mm512_setzero_ps();
    }
    for (int64_t p = 0; p < k; p++) {
        __m512 av = _mm512_set1_ps(ai[p * acs]);
        const float *bp = b + p * brs + j;
        for (int c = 0; c < C; c++) acc[c] = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(mk[c], bp + 16 * c), acc[c]);
    }
    for (int c = 0; c < C; c++) _mm512_mask_storeu_ps(ci + j + 16 * c, mk[c], acc[c]);
}

/* The 16 x 16 block v (row r in v[r]) transposed in place: v[q] lane r = old v[r] lane q. */
__attribute__((target("avx512f,avx2,fma"), always_inline)) static inline void transpose16(__m512 v[16])
{
    __m512 t[16];
    for (int r = 0; r < 16; r += 2) {   /* pairs of rows interleaved by element */
        t[r] = _mm512_unpacklo_ps(v[r], v[r + 1]);
        t[r + 1] = _mm512_unpackhi_ps(v[r], v[r + 1]);
    }
    for (int r = 0; r < 16; r += 4) {   /* then by pairs of elements: v[r + c] lane 4 L + g = row r + g, column 4 L + c */
        for (int h = 0; h < 2; h++) {
            __m512d lo = _mm512_castps_pd(t[r + h]), hi = _mm512_castps_pd(t[r + 2 + h]);
            v[r + 2 * h] = _mm512_castpd_ps(_mm512_unpacklo_pd(lo, hi));
            v[r + 2 * h + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(lo, hi));
        }
    }
    for (int r = 0; r < 16; r += 8) {   /* then by 128-bit lanes: rows r..r+3 with r+4..r+7 */
        for (int h = 0; h < 4; h++) {
            t[r + h] = _mm512_shuffle_f32x4(v[r + h], v[r + 4 + h], 0x88);
            t[r + 4 + h] = _mm512_shuffle_f32x4(v[r + h], v[r + 4 + h], 0xDD);
        }
    }
    for (int h = 0; h < 8; h++) {       /* and by 256-bit halves: rows 0..7 with 8..15 */
        v[h] = _mm512_shuffle_f32x4(t[h], t[8 + h], 0x88);
        v[8 + h] = _mm512_shuffle_f32x4(t[h], t[8 + h], 0xDD);
    }
}

/* Rows i .. i + 16 of column j into c (the last ones masked to n), with a's rows
   contiguous (acs 1): a's block of 16 rows x 16 p is loaded row by row and transposed,
   so that vector q holds column p + q of the sixteen rows; b's element is broadcast. */
__attribute__((target("avx512f,avx2,fma"))) static void small_rows(const float *a, int64_t ars, const float *b,
                                                                   int64_t brs, int64_t k, float *c, int64_t m,
                                                                   int64_t i, int64_t j, int64_t n)
{
    int rows = n - i < 16 ? (int)(n - i) : 16;
    __m512 acc = _mm512_setzero_ps();
    for (int64_t p = 0; p < k; p += 16) {
        int w = k - p < 16 ? (int)(k - p) : 16;
        __mmask16 mk = (__mmask16)(w == 16 ? 0xFFFF : (1u << w) - 1);
        __m512 v[16];
        for (int r = 0; r < 16; r++)
            v[r] = r < rows ? _mm512_maskz_loadu_ps(mk, a + (i + r) * ars + p) : _mm512_setzero_ps();
        transpose16(v);
        for (int q = 0; q < w; q++) acc = _mm512_fmadd_ps(v[q], _mm512_set1_ps(b[(p + q) * brs + j]), acc);
    }
    float *cr = c + i * m + j;
    __mmask16 rk = (__mmask16)(rows == 16 ? 0xFFFF : (1u << rows) - 1);
    if (m == 1) {
        _mm512_mask_storeu_ps(cr, rk, acc);
        return;
    }
    float v[16];
    _mm512_storeu_ps(v, acc);
    for (int l = 0; l < rows; l++) cr[l * m] = v[l];
}

/* Columns of c at most this many take small_rows when c has sixteen rows or more, or
   fewer columns than rows: a chain along a row would fill only m of a vector's lanes, one
   row after another, where down a column the rows' chains run side by side. Along rows,
   down columns: (16, 288) @ (288,) 5.1 and 0.5 us, (6, 101, 48) @ (6, 48, 1) 21 and 2.4
   us, (16, 200) @ (200, 8) 3.9 and 2.2 us; through tl, (4, 288) @ (288,) 1.47 and 0.60
   us, (8, 288) @ (288,) 2.77 and 0.58. */
#define ROWS_FORM_MAX_COLS 8

__attribute__((target("avx512f,avx2,fma"))) void tl_small_sgemm(int64_t n, int64_t m, int64_t k, const float *a,
                                                                 int64_t ars, int64_t acs, const float *b, int64_t brs,
                                                                 float *c)
{
    if (m <= ROWS_FORM_MAX_COLS && (n >= 16 || m < n) && acs == 1) {
        for (int64_t j = 0; j < m; j++)
            for (int64_t i = 0; i < n; i += 16) small_rows(a, ars, b, brs, k, c, m, i, j, n);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        const float *ai = a + i * ars;
        float *ci = c + i * m;
        for (int64_t j = 0; j < m;) {
            int64_t chunks = (m - j + 15) / 16;
            int C = chunks < 8 ? (int)chunks : 8;
            switch (C) {   /* a constant C per call, so small_cols keeps its accumulators in registers */
            case 1: small_cols(1, ai, acs, b, brs, k, ci, j, m); break;
            case 2: small_cols(2, ai, acs, b, brs, k, ci, j, m); break;
            case 3: small_cols(3, ai, acs, b, brs, k, ci, j, m); break;
            case 4: small_cols(4, ai, acs, b, brs, k, ci, j, m); break;
            case 5: small_cols(5, ai, acs, b, brs, k, ci, j, m); break;
            case 6: small_cols(6, ai, acs, b, brs, k, ci, j, m); break;
            case 7: small_cols(7, ai, acs, b, brs, k, ci, j, m); break;
            default: small_cols(8, ai, acs, b, brs, k, ci, j, m); break;
            }
            j += 16 * C;
        }
    }
}
