/* convert.c — casts and copies: the dtype conversion kernels, tl_cast, tl_copy, tl_contiguous, tl_assign */
#include <cpuid.h>
#include <string.h>

#include "intrinsics.h"   /* unit_convert_emulated_512 runs the AVX-512 loops on AVX2 */

#include "../cast.h"
#include "iter.h"
#include "ops.h"
#include "kern.h"

typedef void (*convert_loop)(int64_t n, const char *src, int64_t ss, char *dst, int64_t ds);

/* ---- the dtype x dtype table of generic per-element loops -------------
   loop_S_D converts n elements of dtype S to D. The contiguous branch has
   constant strides so the compiler can vectorize the simple pairs. */
/* compiled at -O3 in every build (runtime/meson.build): -O2's very-cheap cost model
   leaves most of these scalar; -O3's dynamic one vectorizes simple pairs like
   f64->f32 (2x on a dense run) */
#define DEF_LOOP(S, ED, D, ...)                                                                 \
    static void loop_##S##_##D(int64_t n, const char *s, int64_t ss, char *d, int64_t ds) \
    {                                                                                      \
        if (ss == CAST_SIZE_##S && ds == CAST_SIZE_##D) {                                  \
            for (int64_t i = 0; i < n; i++)                                                \
                CAST_ELEM(S, D, d + i * CAST_SIZE_##D, s + i * CAST_SIZE_##S);             \
            return;                                                                        \
        }                                                                                  \
        for (int64_t i = 0; i < n; i++, s += ss, d += ds) CAST_ELEM(S, D, d, s);           \
    }
#define DEF_ROW(unused, ES, S, ...) TL_DTYPE_LIST_NESTED(DEF_LOOP, S)
TL_DTYPE_EXPAND(TL_DTYPE_LIST(DEF_ROW, ))
#undef DEF_ROW
#undef DEF_LOOP

#define TABLE_CELL(S, ED, D, ...) [ED] = loop_##S##_##D,
#define TABLE_ROW(unused, ES, S, ...) [ES] = {TL_DTYPE_LIST_NESTED(TABLE_CELL, S)},
static const convert_loop convert_table[TL_NDTYPES][TL_NDTYPES] = {
    TL_DTYPE_EXPAND(TL_DTYPE_LIST(TABLE_ROW, ))
};
#undef TABLE_ROW
#undef TABLE_CELL

/* ---- same-dtype copies ---------------------------------------------------- */

#define DEF_COPY(N)                                                                         \
    static void copy_##N(int64_t n, const char *s, int64_t ss, char *d, int64_t ds)        \
    {                                                                                       \
        for (int64_t i = 0; i < n; i++, s += ss, d += ds) memcpy(d, s, N);                  \
    }
DEF_COPY(1)
DEF_COPY(2)
DEF_COPY(4)
DEF_COPY(8)
DEF_COPY(16)
#undef DEF_COPY

/* Copies n items of size item with byte strides: memcpy when both are dense. */
static void copy_run(int64_t n, size_t item, const char *s, int64_t ss, char *d, int64_t ds)
{
    if (ss == (int64_t)item && ds == (int64_t)item) {
        memmove(d, s, (size_t)n * item);
        return;
    }
    switch (item) {
    case 1: copy_1(n, s, ss, d, ds); break;
    case 2: copy_2(n, s, ss, d, ds); break;
    case 4: copy_4(n, s, ss, d, ds); break;
    case 8: copy_8(n, s, ss, d, ds); break;
    default: copy_16(n, s, ss, d, ds); break;
    }
}

/* ---- vectorized f32 <-> f16/bf16 for dense runs -----------------------------
   Bit-identical to the scalar converters in cast.h: hardware F16C rounds the
   same (nearest even), but NaNs are redone in scalar code because F16C
   quiets signalling NaNs where numpy keeps the payload. */

static bool have_avx512(void)
{
    static int cached = -1;   /* racing first calls compute the same value */
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        __builtin_cpu_init();
        unsigned a, b, c, d;   /* clang's __builtin_cpu_supports does not know "f16c": ask cpuid */
        v = tl_cpu_has_avx512() && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);   /* TL_SIMD=avx2: false */
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

__attribute__((target(TL_TARGET_512("avx512f,f16c"))))
static void f32_to_f16_avx512(int64_t n, const float *s, uint16_t *d)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_loadu_ps(s + i);
        _mm256_storeu_si256((__m256i *)(d + i), _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
        for (; nan; nan &= (__mmask16)(nan - 1)) {
            int k = __builtin_ctz(nan);
            d[i + k] = cast_f32_to_f16(s[i + k]);
        }
    }
    for (; i < n; i++) d[i] = cast_f32_to_f16(s[i]);
}

__attribute__((target(TL_TARGET_512("avx512f,f16c"))))
static void f16_to_f32_avx512(int64_t n, const uint16_t *s, float *d)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(s + i)));
        _mm512_storeu_ps(d + i, x);
        __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
        for (; nan; nan &= (__mmask16)(nan - 1)) {
            int k = __builtin_ctz(nan);
            d[i + k] = cast_f16_to_f32(s[i + k]);
        }
    }
    for (; i < n; i++) d[i] = cast_f16_to_f32(s[i]);
}

/* bf16 RNE in integer lanes: (u + 0x7fff + lsb) >> 16, NaN -> (u >> 16) | 0x40. */
__attribute__((target(TL_TARGET_512("avx512f"))))
static void f32_to_bf16_avx512(int64_t n, const float *s, uint16_t *d)
{
    const __m512i bias = _mm512_set1_epi32(0x7fff), one = _mm512_set1_epi32(1), quiet = _mm512_set1_epi32(0x40);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_loadu_ps(s + i);
        __m512i u = _mm512_castps_si512(x);
        __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
        __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, bias), lsb), 16);
        __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
        r = _mm512_mask_blend_epi32(nan, r, _mm512_or_si512(_mm512_srli_epi32(u, 16), quiet));
        _mm256_storeu_si256((__m256i *)(d + i), _mm512_cvtepi32_epi16(r));
    }
    for (; i < n; i++) d[i] = cast_f32_to_bf16(s[i]);
}

__attribute__((target(TL_TARGET_512("avx512f"))))
static void bf16_to_f32_avx512(int64_t n, const uint16_t *s, float *d)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i h = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(s + i)));
        _mm512_storeu_si512(d + i, _mm512_slli_epi32(h, 16));
    }
    for (; i < n; i++) d[i] = cast_bf16_to_f32(s[i]);
}

/* The same four on AVX2 with F16C, eight lanes a step (without them f32 -> f16 took 2.7x
   numpy's time on a Zen 3, each value through cast.h's integer code). */
__attribute__((target("avx2,f16c")))
static void f32_to_f16_avx2(int64_t n, const float *s, uint16_t *d)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(s + i);
        _mm_storeu_si128((__m128i *)(d + i), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
        for (int nan = _mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)); nan; nan &= nan - 1) {
            int k = __builtin_ctz((unsigned)nan);
            d[i + k] = cast_f32_to_f16(s[i + k]);
        }
    }
    for (; i < n; i++) d[i] = cast_f32_to_f16(s[i]);
}

__attribute__((target("avx2,f16c")))
static void f16_to_f32_avx2(int64_t n, const uint16_t *s, float *d)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + i)));
        _mm256_storeu_ps(d + i, x);
        for (int nan = _mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)); nan; nan &= nan - 1) {
            int k = __builtin_ctz((unsigned)nan);
            d[i + k] = cast_f16_to_f32(s[i + k]);
        }
    }
    for (; i < n; i++) d[i] = cast_f16_to_f32(s[i]);
}

__attribute__((target("avx2")))
static void f32_to_bf16_avx2(int64_t n, const float *s, uint16_t *d)
{
    const __m256i bias = _mm256_set1_epi32(0x7fff), one = _mm256_set1_epi32(1), quiet = _mm256_set1_epi32(0x40);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(s + i);
        __m256i u = _mm256_castps_si256(x);
        __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
        __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, bias), lsb), 16);
        __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        r = _mm256_blendv_epi8(r, _mm256_or_si256(_mm256_srli_epi32(u, 16), quiet), nan);
        /* eight 16-bit values (at most 0xffff: no saturation) from the two lanes' packs */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08);
        _mm_storeu_si128((__m128i *)(d + i), _mm256_castsi256_si128(p));
    }
    for (; i < n; i++) d[i] = cast_f32_to_bf16(s[i]);
}

__attribute__((target("avx2")))
static void bf16_to_f32_avx2(int64_t n, const uint16_t *s, float *d)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(s + i)));
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_slli_epi32(h, 16));
    }
    for (; i < n; i++) d[i] = cast_bf16_to_f32(s[i]);
}

/* Dense f32<->f16/bf16 runs on AVX-512 or AVX2 with F16C; returns false when not applicable. */
static bool convert_dense_half(int64_t n, const char *src, tl_dtype sd, char *dst, tl_dtype dd)
{
    if (have_avx512()) {
        if (sd == TL_F32 && dd == TL_F16) f32_to_f16_avx512(n, (const float *)src, (uint16_t *)dst);
        else if (sd == TL_F16 && dd == TL_F32) f16_to_f32_avx512(n, (const uint16_t *)src, (float *)dst);
        else if (sd == TL_F32 && dd == TL_BF16) f32_to_bf16_avx512(n, (const float *)src, (uint16_t *)dst);
        else if (sd == TL_BF16 && dd == TL_F32) bf16_to_f32_avx512(n, (const uint16_t *)src, (float *)dst);
        else return false;
        return true;
    }
    if (!tl_simd_avx2()) return false;
    if (sd == TL_F32 && dd == TL_F16) f32_to_f16_avx2(n, (const float *)src, (uint16_t *)dst);
    else if (sd == TL_F16 && dd == TL_F32) f16_to_f32_avx2(n, (const uint16_t *)src, (float *)dst);
    else if (sd == TL_F32 && dd == TL_BF16) f32_to_bf16_avx2(n, (const float *)src, (uint16_t *)dst);
    else if (sd == TL_BF16 && dd == TL_F32) bf16_to_f32_avx2(n, (const uint16_t *)src, (float *)dst);
    else return false;
    return true;
}

void tl_convert_run(int64_t n, const void *src, tl_dtype sd, int64_t sstride, void *dst, tl_dtype dd, int64_t dstride)
{
    if (sd == dd) {
        copy_run(n, tl_dtype_size(sd), src, sstride, dst, dstride);
        return;
    }
    /* the vector paths assume natural alignment of the element type */
    if (sstride == (int64_t)tl_dtype_size(sd) && dstride == (int64_t)tl_dtype_size(dd) &&
        ((uintptr_t)src % tl_dtype_size(sd)) == 0 && ((uintptr_t)dst % tl_dtype_size(dd)) == 0 &&
        convert_dense_half(n, src, sd, dst, dd))
        return;
    convert_table[sd][dd](n, src, sstride, dst, dstride);
}

/* ---- tensor-level operations --------------------------------------------- */

typedef struct { tl_dtype dst, src; } convert_aux;

/* Inner loop for the iterator: operand 0 is the destination, 1 the source. */
static void convert_inner(int64_t n, char **ptrs, const int64_t *bs, void *aux)
{
    const convert_aux *c = aux;
    tl_convert_run(n, ptrs[1], c->src, bs[1], ptrs[0], c->dst, bs[0]);
}

/* dst = src (broadcast), with no overlap handling. */
static int convert_into(tl_tensor *dst, const tl_tensor *src)
{
    tl_iter it;
    const tl_tensor *ops[2] = {dst, src};
    if (tl_iter_init(&it, 2, ops, dst->ndim, dst->shape) < 0) return -1;
    int rc;
    if (tl_try_blocked_transpose(&it, dst->dtype, src->dtype, &rc)) return rc;
    convert_aux aux = {dst->dtype, src->dtype};
    return tl_iter_run(&it, convert_inner, &aux);
}

tl_tensor *tl_cast(const tl_tensor *a, tl_dtype dt) { return tl_cast_to(a, dt, NULL); }

tl_tensor *tl_cast_to(const tl_tensor *a, tl_dtype dt, tl_tensor *into)
{
    tl_tensor *out = tl_tensor_result(into, dt, a->ndim, a->shape);
    if (!out) return NULL;
    if (convert_into(out, a) < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

tl_tensor *tl_as_dtype(const tl_tensor *a, tl_dtype dt)
{
    if (a->dtype != dt) return tl_cast(a, dt);
    tl_tensor_retain((tl_tensor *)a);
    return (tl_tensor *)a;
}

tl_tensor *tl_copy(const tl_tensor *t) { return tl_cast(t, t->dtype); }

tl_tensor *tl_copy_to(const tl_tensor *t, tl_tensor *into) { return tl_cast_to(t, t->dtype, into); }

tl_tensor *tl_contiguous(const tl_tensor *t)
{
    if (!tl_is_contiguous(t)) return tl_copy(t);
    tl_tensor *same = (tl_tensor *)t;
    tl_tensor_retain(same);
    return same;
}

/* Cheap bounds test: could some byte of a and of b coincide? */
static bool may_overlap(const tl_tensor *a, const tl_tensor *b)
{
    int64_t alo, ahi, blo, bhi;
    if (a->storage != b->storage) return false;
    if (!tl_byte_range(a, &alo, &ahi) || !tl_byte_range(b, &blo, &bhi)) return false;
    return alo < bhi && blo < ahi;
}

/* True when src read element-by-element in dst's order is dst itself. */
static bool same_view(const tl_tensor *dst, const tl_tensor *src)
{
    if (dst->storage != src->storage || dst->dtype != src->dtype || dst->offset != src->offset ||
        dst->ndim != src->ndim)
        return false;
    for (int i = 0; i < dst->ndim; i++)
        if (dst->shape[i] != src->shape[i] || (dst->shape[i] > 1 && dst->strides[i] != src->strides[i]))
            return false;
    return true;
}

int tl_assign(tl_tensor *dst, const tl_tensor *src)
{
    if (dst->readonly) {
        tl_seterr(ValueError, "cannot write to a broadcast (read-only) view");
        return -1;
    }
    if (same_view(dst, src)) return 0;   /* a[...] = a */
    /* overlapping: read all of src before writing any of dst, as numpy */
    tl_tensor *tmp = NULL;
    if (may_overlap(dst, src) && !(tmp = tl_copy(src))) return -1;
    tl_interrupts_hold();   /* the write finishes whole once it starts */
    int rc = convert_into(dst, tmp ? tmp : src);
    tl_interrupts_release();
    if (tmp) tl_tensor_release(tmp);
    return rc;
}
