/* kernels/qdot.c — quantized products' shared parts: x rounded to 8-bit blocks, the CPU path, the row loop, the kernel of each type */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "qdot.h"

/* A product with quantized weights W reads W's ggml blocks as they are and never dequantizes
   them: x is rounded once per product to 8-bit blocks (as ggml rounds it to Q8_0 for the
   32-element types and to Q8_K for the K types), each weight block's integer dot with x's
   block is exact, and the scales are applied per block or sub-block in float. The files
   qdot32.c (Q4_0 ... Q5_1), q8dot.c (Q8_0) and qdotk.c (the K types) hold the kernels. */

/* ---- x rounded to 8-bit blocks --------------------------------------------------------- */

/* Block x[0, bl) as q = x / d rounded, d = max|x| / 127 (NaN, and q 0, when x holds a NaN or
   an infinity: the integer dots cannot carry them, the scale can). */
static void round_block_c(const float *x, int64_t bl, int8_t *q, float *d)
{
    float amax = 0;
    bool finite = true;
    for (int64_t j = 0; j < bl; j++) {
        float a = fabsf(x[j]);
        finite &= a <= FLT_MAX;
        amax = fmaxf(amax, a);
    }
    if (!finite) {
        *d = NAN;
        memset(q, 0, (size_t)bl);
        return;
    }
    float db = amax / 127, id = db ? 1 / db : 0;
    *d = db;
    for (int64_t j = 0; j < bl; j++) {
        long r = lrintf(x[j] * id);   /* as the vector path saturates (1 / db may overflow) */
        q[j] = (int8_t)(r > 127 ? 127 : r < -128 ? -128 : r);
    }
}

/* The largest of v's eight lanes. */
__attribute__((target(QDOT_AVX2))) static float max256(__m256 v)
{
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/* round_block_c eight lanes at a time: the same maximum, products and rounding (to nearest
   even, as lrintf in the default mode), so the same blocks. */
__attribute__((target(QDOT_AVX2))) static void round_block_avx2(const float *x, int64_t bl, int8_t *q, float *d)
{
    const __m256 sign = _mm256_set1_ps(-0.0f), big = _mm256_set1_ps(FLT_MAX);
    __m256 m = _mm256_setzero_ps(), bad = m;
    for (int64_t j = 0; j < bl; j += 8) {
        __m256 a = _mm256_andnot_ps(sign, _mm256_loadu_ps(x + j));
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(a, big, _CMP_NLE_UQ));   /* NaN or infinity */
        m = _mm256_max_ps(a, m);
    }
    if (_mm256_movemask_ps(bad)) {
        *d = NAN;
        memset(q, 0, (size_t)bl);
        return;
    }
    float db = max256(m) / 127, id = db ? 1 / db : 0;
    *d = db;
    __m256 vid = _mm256_set1_ps(id);
    for (int64_t j = 0; j < bl; j += 32) {
        __m256i i32[4];
        for (int t = 0; t < 4; t++) i32[t] = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(x + j + 8 * t), vid));
        /* pack to bytes: packs works within 128-bit halves, the permute puts them back in order */
        __m256i i16a = _mm256_packs_epi32(i32[0], i32[1]), i16b = _mm256_packs_epi32(i32[2], i32[3]);
        __m256i i8 = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(i16a, i16b), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *)(q + j), i8);
    }
}

/* The sum of q's n bytes. */
static int32_t byte_sum(const int8_t *q, int n)
{
    int32_t s = 0;
    for (int t = 0; t < n; t++) s += q[t];
    return s;
}

int tl_qact_make(const float *x, int64_t m, int64_t k, int64_t bl, tl_qact *a)
{
    int64_t nb = k / bl, n = m * k;
    size_t sums = bl == 32 ? (size_t)(n / 4) * (sizeof(int32_t) + sizeof(float))
                           : (size_t)(n / 16 + n / 32) * sizeof(int16_t);
    char *mem = malloc((size_t)(m * nb) * sizeof(float) + sums + (size_t)n);
    if (!mem) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    *a = (tl_qact){ .k = k, .nb = nb, .bl = bl, .d = (float *)mem };
    if (bl == 32) {
        a->nsum4 = (int32_t *)(a->d + m * nb);
        a->dsum4 = (float *)(a->nsum4 + n / 4);
        a->q = (int8_t *)(a->dsum4 + n / 4);
    } else {
        a->sum16 = (int16_t *)(a->d + m * nb);
        a->sum32 = a->sum16 + n / 16;
        a->q = (int8_t *)(a->sum32 + n / 32);
    }
    for (int64_t b = 0; b < m * nb; b++) {
        if (tl_simd_avx2()) round_block_avx2(x + b * bl, bl, a->q + b * bl, a->d + b);
        else round_block_c(x + b * bl, bl, a->q + b * bl, a->d + b);
    }
    if (bl == 32)
        for (int64_t l = 0; l < n / 4; l++) {
            int32_t s = byte_sum(a->q + 4 * l, 4);
            a->nsum4[l] = -s;
            a->dsum4[l] = a->d[l / 8] * (float)s;
        }
    else {
        for (int64_t l = 0; l < n / 16; l++) a->sum16[l] = (int16_t)byte_sum(a->q + 16 * l, 16);
        for (int64_t l = 0; l < n / 32; l++) a->sum32[l] = (int16_t)(a->sum16[2 * l] + a->sum16[2 * l + 1]);
    }
    return 0;
}

void tl_qact_free(tl_qact *a)
{
    free(a->d);
    a->d = NULL;
}

/* ---- the kernels, the path, the rows ------------------------------------------------------- */

typedef void (*qdot_rows_fn)(int path, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x, int64_t i,
                             float *out, int64_t os);

/* The row kernel of ggml type `type` and the block length its x is rounded to (NULL: none). */
static qdot_rows_fn kernel_of(int type, int64_t *bl)
{
    *bl = type >= 10 ? 256 : 32;
    switch (type) {
    case 2: return tl_qdot_q4_0;
    case 3: return tl_qdot_q4_1;
    case 6: return tl_qdot_q5_0;
    case 7: return tl_qdot_q5_1;
    case 8: return tl_qdot_q8_0;
    case 10: return tl_qdot_q2_k;
    case 11: return tl_qdot_q3_k;
    case 12: return tl_qdot_q4_k;
    case 13: return tl_qdot_q5_k;
    case 14: return tl_qdot_q6_k;
    case 15: return tl_qdot_q8_k;
    default: return NULL;
    }
}

bool tl_qdot_supports(int ggml_type, int64_t *bl) { return kernel_of(ggml_type, bl) != NULL; }

int tl_qdot_best_path(void)
{
    static int cached = -1;
    if (cached < 0) {
        /* (intrinsics.h: under a test's emulation, every path runs where AVX2 does) */
        bool vnni = TL_RUNS_512(tl_simd_avx2() && tl_cpu_has_avx512() && __builtin_cpu_supports("avx512vl") &&
                                __builtin_cpu_supports("avx512vnni"));
        bool wide = vnni && TL_RUNS_512(__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
                                        __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("gfni"));
        cached = wide ? TL_QDOT_AVX512 : vnni ? TL_QDOT_VNNI256 : tl_simd_avx2() ? TL_QDOT_AVX2 : TL_QDOT_PORTABLE;
    }
    return cached;
}

void tl_qdot_rows_on(int path, int ggml_type, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x,
                     int64_t i, float *out, int64_t os)
{
    int64_t bl;
    qdot_rows_fn fn = kernel_of(ggml_type, &bl);
    if (path > tl_qdot_best_path()) path = tl_qdot_best_path();
    fn(path, w, row_bytes, rows, x, i, out, os);
}

void tl_qdot_rows(int ggml_type, const uint8_t *w, size_t row_bytes, int64_t rows, const tl_qact *x, int64_t i,
                  float *out, int64_t os)
{
    int64_t bl;
    kernel_of(ggml_type, &bl)(tl_qdot_best_path(), w, row_bytes, rows, x, i, out, os);
}

void qdot_row_loop(const qdot_group_fn group[5], int long_n, const uint8_t *w, size_t row_bytes, int64_t rows,
                   const tl_qact *x, int64_t i, float *out, int64_t os)
{
    if (long_n > 0 && row_bytes >= TL_QDOT_LONG_ROW_BYTES) {
        int g = long_n;
        while (!group[g]) g--;
        int64_t run = rows / g, j = 0;
        if (g > 1)   /* row j of each of the g runs, the runs' streams read side by side */
            for (; j < run; j++) group[g](w + j * row_bytes, (size_t)run * row_bytes, x, i, out + j * os, run * os);
        for (j = g > 1 ? run * g : 0; j < rows; j++) group[1](w + j * row_bytes, row_bytes, x, i, out + j * os, os);
        return;
    }
    int g = row_bytes >= TL_QDOT_LONG_ROW_BYTES ? 1 : 4;   /* long rows: one at a time, the rows ahead asked */
    while (!group[g]) g--;
    int64_t j = 0;
    for (; j + g <= rows; j += g, w += g * row_bytes) {
        if (j + PREFETCH_ROWS + g <= rows) prefetch_bytes(w + PREFETCH_ROWS * row_bytes, g * row_bytes);
        group[g](w, row_bytes, x, i, out + j * os, os);
    }
    while (j < rows) {
        int n = (int)(rows - j);
        while (!group[n]) n--;
        group[n](w, row_bytes, x, i, out + j * os, os);
        j += n, w += n * row_bytes;
    }
}
