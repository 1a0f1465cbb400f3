/* kernels/transpose.c — blocked copies of transposed views (contiguous(X.T), f32(X.T)) */
#include <stdint.h>

#include "kern.h"

/* Copying a transposed view element by element reads (or writes) one cache
   line per element. When the copy's plan is 2-d with the source strided along
   the inner axis and dense along the outer one, it goes tile by tile, so the
   lines each tile touches are used whole while they are in cache; bands of
   rows run on the pool. Same-dtype 4-byte tiles go through an in-register
   16x16 transpose on AVX-512 (8x8 on AVX2), writing around the caches when the
   output is larger than they are. */

/* Tile shapes, measured on a 4096² copy. A same-dtype copy walks strips 16
   columns wide down bands of up to 512 rows, so each source run read is 2 KiB
   long (f32) and the prefetchers keep up: 3.7 ms for f32 against 12.7 ms with
   32x32 tiles. Casting copies keep 32x32 tiles, which measured best for them. */
#define TRANSPOSE_TILE 32
#define SAME_DTYPE_BAND 512
#define SAME_DTYPE_STRIP 16
#define MICRO 16   /* the in-register transpose's side (AVX2's: 8) */

typedef struct transpose_job {
    char *dst;
    const char *src;
    int64_t rows, cols;          /* outer, inner extent of the plan */
    int64_t d_row, d_col;        /* byte strides of dst along outer, inner */
    int64_t s_row, s_col;        /* byte strides of src along outer, inner */
    tl_dtype dst_dt, src_dt;
    int64_t band_rows, strip;    /* outer rows per task, inner columns per tile */
    int micro;                   /* 16 (AVX-512) or 8 (AVX2): in-register tiles of that side apply; 0 not */
    bool stream;                 /* write around the caches */
} transpose_job;

/* A same-dtype tile: the destination walked densely, the source within a few cache lines. */
#define DEF_TILE(N, T)                                                                             \
    static void tile_##N(const transpose_job *j, int64_t r0, int64_t r1, int64_t c0, int64_t c1) \
    {                                                                                              \
        for (int64_t r = r0; r < r1; r++) {                                                        \
            T *d = (T *)(j->dst + r * j->d_row);                                                   \
            const char *srow = j->src + r * j->s_row;                                              \
            for (int64_t c = c0; c < c1; c++) d[c] = *(const T *)(srow + c * j->s_col);            \
        }                                                                                          \
    }
DEF_TILE(2, uint16_t)
DEF_TILE(4, uint32_t)
DEF_TILE(8, uint64_t)
#undef DEF_TILE

#if defined(__x86_64__) && defined(__GNUC__)
#include "intrinsics.h"   /* unit_transpose_emulated_512 runs the 16x16 blocks on AVX2 */

#include "simd_x86.h"

/* Transposes 16 vectors of 16 lanes in place: afterwards v[k] holds lane k of
   every input, in input order. Four rounds of shuffles (32-bit, 64-bit, then
   two of 128-bit lanes), 64 in all. */
__attribute__((target(TL_TARGET_512("avx512f"))))
static inline void transpose_16x16(__m512 v[MICRO])
{
    __m512 t[MICRO];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 1]);
        __m512d c = _mm512_castps_pd(t[4 * i + 2]), d = _mm512_castps_pd(t[4 * i + 3]);
        v[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        v[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        v[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
        v[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
    }
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 4; k++) {
            t[8 * i + k] = _mm512_shuffle_f32x4(v[8 * i + k], v[8 * i + 4 + k], 0x88);
            t[8 * i + 4 + k] = _mm512_shuffle_f32x4(v[8 * i + k], v[8 * i + 4 + k], 0xdd);
        }
    for (int k = 0; k < 8; k++) {
        v[k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0x88);
        v[8 + k] = _mm512_shuffle_f32x4(t[k], t[8 + k], 0xdd);
    }
}

/* One 16x16 block of 4-byte elements at outer row r, inner column c: loads
   16 source runs (dense along the outer axis), stores 16 destination rows. */
__attribute__((target(TL_TARGET_512("avx512f"))))
static void micro_4(const transpose_job *j, int64_t r, int64_t c)
{
    __m512 v[MICRO];
    const char *s = j->src + r * j->s_row + c * j->s_col;
    for (int k = 0; k < MICRO; k++) v[k] = _mm512_loadu_ps((const float *)(s + k * j->s_col));
    transpose_16x16(v);
    char *d = j->dst + r * j->d_row + c * j->d_col;
    if (j->stream)
        for (int k = 0; k < MICRO; k++) _mm512_stream_ps((float *)(d + k * j->d_row), v[k]);
    else
        for (int k = 0; k < MICRO; k++) _mm512_storeu_ps((float *)(d + k * j->d_row), v[k]);
}

/* micro_4 in eight-lane vectors (AVX2): one 8x8 block. On a Zen 3 contiguous(X.T) of a 4096²
   f32 matrix took 33 ms element by element in 16-column strips, 4.6x numpy's speed. */
__attribute__((target("avx2")))
static void micro8_4(const transpose_job *j, int64_t r, int64_t c)
{
    __m256 v[8];
    const char *s = j->src + r * j->s_row + c * j->s_col;
    for (int k = 0; k < 8; k++) v[k] = _mm256_loadu_ps((const float *)(s + k * j->s_col));
    tl_transpose8x8_ps(v);
    char *d = j->dst + r * j->d_row + c * j->d_col;
    if (j->stream)
        for (int k = 0; k < 8; k++) _mm256_stream_ps((float *)(d + k * j->d_row), v[k]);
    else
        for (int k = 0; k < 8; k++) _mm256_storeu_ps((float *)(d + k * j->d_row), v[k]);
}

/* A tile of 4-byte elements in blocks of j->micro squared; the ragged edges element by element. */
static void tile_4_micro(const transpose_job *j, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
    int64_t side = j->micro, rm = r0 + (r1 - r0) / side * side, cm = c0 + (c1 - c0) / side * side;
    for (int64_t r = r0; r < rm; r += side)
        for (int64_t c = c0; c < cm; c += side) {
            if (side == MICRO) micro_4(j, r, c);
            else micro8_4(j, r, c);
        }
    if (cm < c1) tile_4(j, r0, r1, cm, c1);
    if (rm < r1) tile_4(j, rm, r1, c0, cm);
}

__attribute__((target("avx2")))
static void stream_fence(void) { _mm_sfence(); }

/* The in-register blocks: same-dtype 4-byte elements, dense destination rows, and AVX-512
   (AVX-512F is all they use; tl's SIMD check also asks for DQ) or AVX2: their side, or 0. */
static int micro_ok(const transpose_job *j)
{
    if (j->src_dt != j->dst_dt || tl_dtype_size(j->src_dt) != 4 || j->d_col != 4) return 0;
    return TL_RUNS_512(tl_cpu_has_avx512()) ? MICRO : tl_simd_avx2() ? 8 : 0;
}
/* Streaming stores need 64-byte aligned destination rows, and pay off only
   when the output would not stay in cache anyway. */
static bool stream_ok(const transpose_job *j)
{
    return (uintptr_t)j->dst % 64 == 0 && j->d_row % 64 == 0 &&
           j->rows * j->cols * 4 >= TL_STREAM_BYTES;
}
#else
static int micro_ok(const transpose_job *j) { (void)j; return 0; }
static bool stream_ok(const transpose_job *j) { (void)j; return false; }
static void tile_4_micro(const transpose_job *j, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
    tile_4(j, r0, r1, c0, c1);
}
static void stream_fence(void) {}
#endif

/* One band of band_rows outer rows, tile by tile. */
static int transpose_band(void *ctx, int64_t band)
{
    const transpose_job *j = ctx;
    int64_t r0 = band * j->band_rows, r1 = r0 + j->band_rows < j->rows ? r0 + j->band_rows : j->rows;
    size_t item = tl_dtype_size(j->src_dt);
    bool same = j->src_dt == j->dst_dt && j->d_col == (int64_t)item;
    for (int64_t c0 = 0; c0 < j->cols; c0 += j->strip) {
        int64_t c1 = c0 + j->strip < j->cols ? c0 + j->strip : j->cols;
        if (j->micro) tile_4_micro(j, r0, r1, c0, c1);
        else if (same && item == 4) tile_4(j, r0, r1, c0, c1);
        else if (same && item == 8) tile_8(j, r0, r1, c0, c1);
        else if (same && item == 2) tile_2(j, r0, r1, c0, c1);
        else
            for (int64_t c = c0; c < c1; c++)   /* along the outer axis the source is dense */
                tl_convert_run(r1 - r0, j->src + r0 * j->s_row + c * j->s_col, j->src_dt, j->s_row,
                               j->dst + r0 * j->d_row + c * j->d_col, j->dst_dt, j->d_row);
    }
    if (j->stream) stream_fence();   /* this band's streaming stores are visible before the pool joins */
    return tl_check_interrupt();
}

bool tl_try_blocked_transpose(const tl_iter *it, tl_dtype dd, tl_dtype sd, int *rc)
{
    int64_t si = (int64_t)tl_dtype_size(sd);
    if (it->ndim != 2 || it->size < TRANSPOSE_TILE * TRANSPOSE_TILE) return false;
    if (it->bstrides[1][0] != si || it->bstrides[1][1] == si) return false;   /* src dense along outer only */
    transpose_job j = { it->base[0], it->base[1], it->shape[0], it->shape[1], it->bstrides[0][0],
                        it->bstrides[0][1], it->bstrides[1][0], it->bstrides[1][1], dd, sd, 0, 0, 0, false };
    j.micro = micro_ok(&j);
    j.stream = j.micro > 0 && stream_ok(&j);
    if (dd == sd) {
        /* tall bands, but at least 8 of them when the rows allow, for the pool */
        int64_t band = (j.rows / 8 + 15) / 16 * 16;
        j.band_rows = band < 16 ? 16 : band > SAME_DTYPE_BAND ? SAME_DTYPE_BAND : band;
        j.strip = SAME_DTYPE_STRIP;
    } else {
        j.band_rows = j.strip = TRANSPOSE_TILE;
    }
    *rc = tl_parallel_for((j.rows + j.band_rows - 1) / j.band_rows, transpose_band, &j);
    return true;
}
