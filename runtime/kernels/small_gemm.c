/* kernels/small_gemm.c — f32 products too small for BLAS: an attention's per-head products, small mat-vecs */
#include <stdlib.h>

#include "intrinsics.h"   /* unit_small_gemm_emulated_512 runs the AVX-512 forms on AVX2 */
#include "kern.h"
#include "simd_x86.h"

/* Every product here computes each element of c as one chain of fused multiply-adds over
   p in order, the order BLAS's gemm kernels sum in, so a product has the same bits
   whichever of the two forms below runs it, and whether it is batched or not. A vector's
   sixteen lanes hold sixteen elements of c: along a row (small_cols, up to sixteen vectors
   in flight, of up to four rows, as a chain waits four cycles per step; the rows may be of
   different batch entries) or, when c has only a few columns, down a column (small_rows,
   a's rows transposed into the lanes sixteen at a time). */

bool tl_small_sgemm_ok(void) { return tl_simd_avx2(); }

/* ---- AVX-512: sixteen lanes a vector -------------------------------------------------- */

/* The target of the AVX-512 forms (intrinsics.h: AVX2's where a test emulates AVX-512). */
#define GEMM_512 TL_TARGET_512("avx512f,avx2,fma")

/* Columns j .. j + 16 C of R rows' products, row r being ar[r] @ br[r] into cr[r] (the
   last chunks masked to m). The R x C chains are independent, so several are in flight
   while each waits for its previous multiply-add: taken one row at a time, an attention's
   per-head products (one row each) had three chains (48 columns) or one (the last columns
   of the scores). Four heads side by side, stories15M's att @ v at 129 positions took 1.1
   us against 1.2, q @ K 1.4 against 1.8 (one thread, best of seven). */
__attribute__((target(GEMM_512), always_inline)) static inline void
small_cols(int R, int C, const float *const ar[], int64_t acs, const float *const br[], int64_t brs, int64_t k,
           float *const cr[], int64_t j, int64_t m)
{
    __m512 acc[4][8];
    __mmask16 mk[8];
    _Pragma("GCC unroll 8") for (int c = 0; c < C; c++) {
        int64_t left = m - j - 16 * c;
        mk[c] = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) acc[r][c] = _mm512_setzero_ps();
    }
    for (int64_t p = 0; p < k; p++)
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) {
            __m512 av = _mm512_set1_ps(ar[r][p * acs]);
            const float *bp = br[r] + p * brs + j;
            _Pragma("GCC unroll 8") for (int c = 0; c < C; c++)
                acc[r][c] = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(mk[c], bp + 16 * c), acc[r][c]);
        }
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
        _Pragma("GCC unroll 8") for (int c = 0; c < C; c++) _mm512_mask_storeu_ps(cr[r] + j + 16 * c, mk[c], acc[r][c]);
}

/* The 16 x 16 block v (row r in v[r]) transposed in place: v[q] lane r = old v[r] lane q. */
__attribute__((target(GEMM_512), always_inline)) static inline void transpose16(__m512 v[16])
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
__attribute__((target(GEMM_512))) static void small_rows(const float *a, int64_t ars, const float *b, int64_t brs,
                                                         int64_t k, float *c, int64_t m, int64_t i, int64_t j,
                                                         int64_t n)
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

/* FN (small_cols or small_cols8) for a constant C (1..8) and R (1, 2 or 4), so its accumulators
   stay in registers, over rows A, B, CR. */
#define SMALL_COLS_R(FN, R, A, B, CR)                                                                           \
    switch (C) {                                                                                                \
    case 1: FN(R, 1, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 2: FN(R, 2, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 3: FN(R, 3, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 4: FN(R, 4, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 5: FN(R, 5, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 6: FN(R, 6, A, acs, B, brs, k, CR, j, m); break;                                                       \
    case 7: FN(R, 7, A, acs, B, brs, k, CR, j, m); break;                                                       \
    default: FN(R, 8, A, acs, B, brs, k, CR, j, m); break;                                                      \
    }

/* Columns j .. j + 16 C (C = 1..8) of R rows (1, 2 or 4) at ar, br, cr. */
__attribute__((target(GEMM_512))) static void small_cols_of(int R, int C, const float *const ar[], int64_t acs,
                                                            const float *const br[], int64_t brs, int64_t k,
                                                            float *const cr[], int64_t j, int64_t m)
{
    if (R == 4) { SMALL_COLS_R(small_cols, 4, ar, br, cr) }
    else if (R == 2) { SMALL_COLS_R(small_cols, 2, ar, br, cr) }
    else { SMALL_COLS_R(small_cols, 1, ar, br, cr) }
}

/* Rows taken side by side at most: with C chunks of a row, R x C accumulators (at most 16
   of the 32 vector registers; AVX2's at most 12 of 16). */
static int rows_together(int C, int64_t left, bool avx512)
{
    int R = avx512 ? (C <= 4 ? 4 : 2) : (C <= 3 ? 4 : C <= 6 ? 2 : 1);
    while (R > left) R /= 2;
    return R;
}

/* The row form over `nrows` rows of c, row r being the product of a row at ar[r] with b at
   br[r] into cr[r]: column chunks of 16 x (up to 8), rows taken a few at a time. */
__attribute__((target(GEMM_512))) static void row_form_512(int64_t nrows, const float *const ar[], int64_t acs,
                                                           const float *const br[], int64_t brs, float *const cr[],
                                                           int64_t m, int64_t k)
{
    for (int64_t j = 0; j < m;) {
        int64_t chunks = (m - j + 15) / 16;
        int C = chunks < 8 ? (int)chunks : 8;
        for (int64_t r = 0; r < nrows;) {
            int R = rows_together(C, nrows - r, true);
            small_cols_of(R, C, ar + r, acs, br + r, brs, k, cr + r, j, m);
            r += R;
        }
        j += 16 * C;
    }
}

/* ---- AVX2: eight lanes a vector, the same chains ---------------------------------------- */

/* small_cols in eight-lane vectors: columns j .. j + 8 C of R rows, the last chunk masked to m. */
__attribute__((target("avx2,fma"), always_inline)) static inline void
small_cols8(int R, int C, const float *const ar[], int64_t acs, const float *const br[], int64_t brs, int64_t k,
            float *const cr[], int64_t j, int64_t m)
{
    __m256 acc[4][8];
    bool part = m - j < 8 * C;   /* the last chunk reaches past m */
    __m256i mk = tl_lanes8(m - j - 8 * (C - 1));
    _Pragma("GCC unroll 8") for (int c = 0; c < C; c++)
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) acc[r][c] = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; p++)
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) {
            __m256 av = _mm256_set1_ps(ar[r][p * acs]);
            const float *bp = br[r] + p * brs + j;
            _Pragma("GCC unroll 8") for (int c = 0; c < C; c++) {
                __m256 bv = c == C - 1 && part ? _mm256_maskload_ps(bp + 8 * c, mk) : _mm256_loadu_ps(bp + 8 * c);
                acc[r][c] = _mm256_fmadd_ps(av, bv, acc[r][c]);
            }
        }
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
        _Pragma("GCC unroll 8") for (int c = 0; c < C; c++) {
            if (c == C - 1 && part) _mm256_maskstore_ps(cr[r] + j + 8 * c, mk, acc[r][c]);
            else _mm256_storeu_ps(cr[r] + j + 8 * c, acc[r][c]);
        }
}

/* small_rows in eight-lane vectors: rows i .. i + 8 of column j, a's blocks of 8 rows x 8 p
   transposed. */
__attribute__((target("avx2,fma"))) static void small_rows8(const float *a, int64_t ars, const float *b, int64_t brs,
                                                            int64_t k, float *c, int64_t m, int64_t i, int64_t j,
                                                            int64_t n)
{
    int rows = n - i < 8 ? (int)(n - i) : 8;
    __m256 acc = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; p += 8) {
        int w = k - p < 8 ? (int)(k - p) : 8;
        __m256i mk = tl_lanes8(w);
        __m256 v[8];
        for (int r = 0; r < 8; r++)
            v[r] = r >= rows ? _mm256_setzero_ps()
                   : w == 8  ? _mm256_loadu_ps(a + (i + r) * ars + p)
                             : _mm256_maskload_ps(a + (i + r) * ars + p, mk);
        tl_transpose8x8_ps(v);
        for (int q = 0; q < w; q++) acc = _mm256_fmadd_ps(v[q], _mm256_set1_ps(b[(p + q) * brs + j]), acc);
    }
    float *cr = c + i * m + j;
    if (m == 1) {
        _mm256_maskstore_ps(cr, tl_lanes8(rows), acc);
        return;
    }
    float v[8];
    _mm256_storeu_ps(v, acc);
    for (int l = 0; l < rows; l++) cr[l * m] = v[l];
}

/* The row form in eight-lane vectors (row_form_512's loop: chunks of 8 x up to 8 columns). */
__attribute__((target("avx2,fma"))) static void row_form_avx2(int64_t nrows, const float *const ar[], int64_t acs,
                                                              const float *const br[], int64_t brs, float *const cr[],
                                                              int64_t m, int64_t k)
{
    for (int64_t j = 0; j < m;) {
        int64_t chunks = (m - j + 7) / 8;
        int C = chunks < 8 ? (int)chunks : 8;
        for (int64_t r = 0; r < nrows;) {
            int R = rows_together(C, nrows - r, false);
            if (R == 4) { SMALL_COLS_R(small_cols8, 4, ar + r, br + r, cr + r) }
            else if (R == 2) { SMALL_COLS_R(small_cols8, 2, ar + r, br + r, cr + r) }
            else { SMALL_COLS_R(small_cols8, 1, ar + r, br + r, cr + r) }
            r += R;
        }
        j += 8 * C;
    }
}

/* ---- both paths ---------------------------------------------------------------------------- */

/* Rows of c gathered for a row form per call: its pointer tables live on the stack. */
#define ROWS_PER_CALL 64

void tl_small_sgemm(int64_t count, const tl_sgemm_entry *e, int64_t n, int64_t m, int64_t k, int64_t ars, int64_t acs,
                    int64_t brs)
{
    bool w512 = TL_RUNS_512(tl_cpu_has_avx512());
    if (m <= ROWS_FORM_MAX_COLS && (n >= 16 || m < n) && acs == 1) {
        for (int64_t t = 0; t < count; t++)
            for (int64_t j = 0; j < m; j++)
                for (int64_t i = 0; i < n; i += w512 ? 16 : 8) {
                    if (w512) small_rows(e[t].a, ars, e[t].b, brs, k, e[t].c, m, i, j, n);
                    else small_rows8(e[t].a, ars, e[t].b, brs, k, e[t].c, m, i, j, n);
                }
        return;
    }
    const float *ar[ROWS_PER_CALL], *br[ROWS_PER_CALL];
    float *cr[ROWS_PER_CALL];
    int64_t have = 0;
    for (int64_t t = 0; t < count; t++)
        for (int64_t i = 0; i < n; i++) {
            ar[have] = e[t].a + i * ars, br[have] = e[t].b, cr[have] = e[t].c + i * m;
            if (++have == ROWS_PER_CALL) {
                (w512 ? row_form_512 : row_form_avx2)(have, ar, acs, br, brs, cr, m, k);
                have = 0;
            }
        }
    if (have > 0) (w512 ? row_form_512 : row_form_avx2)(have, ar, acs, br, brs, cr, m, k);
}
