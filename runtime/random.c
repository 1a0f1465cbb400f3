/* random.c — counter-based random numbers (Philox4x32-10): element i depends only on (seed, call, i) */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#include "kernels/loops.h"

static atomic_uint_fast64_t rng_seed = 0;
static atomic_uint_fast64_t rng_calls = 0;   /* each call draws from its own stream */

void tl_seed(uint64_t seed)
{
    atomic_store(&rng_seed, seed);
    atomic_store(&rng_calls, 0);
}

/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"). */
#define BATCH 16

/* One Philox round on counter (c0, c1, c2, c3) with key (k0, k1). */
#define PHILOX_ROUND(c0, c1, c2, c3, k0, k1)                                                     \
    do {                                                                                       \
        uint64_t p0 = (uint64_t)0xD2511F53u * (c0), p1 = (uint64_t)0xCD9E8D57u * (c2);          \
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ (c1) ^ (k0), n2 = (uint32_t)(p0 >> 32) ^ (c3) ^ (k1); \
        (c1) = (uint32_t)p1;                                                                   \
        (c3) = (uint32_t)p0;                                                                   \
        (c0) = n0;                                                                             \
        (c2) = n2;                                                                             \
    } while (0)

/* Philox on the one counter block `blk` of stream `call`. */
static void philox_block(uint64_t key64, uint64_t call, uint64_t blk, uint32_t out[4])
{
    uint32_t c0 = (uint32_t)blk, c1 = (uint32_t)(blk >> 32), c2 = (uint32_t)call, c3 = (uint32_t)(call >> 32);
    uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
    for (int round = 0; round < 10; round++) {
        PHILOX_ROUND(c0, c1, c2, c3, k0, k1);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* Philox on BATCH consecutive counter blocks at once, word k of block blk0 + l in out[k][l];
   lanes side by side so the compiler can vectorize the rounds (the same numbers as philox_block). */
static void philox_batch_portable(uint64_t key64, uint64_t call, uint64_t blk0, uint32_t out[4][BATCH])
{
    uint32_t *c0 = out[0], *c1 = out[1], *c2 = out[2], *c3 = out[3];
    for (int l = 0; l < BATCH; l++) {
        uint64_t blk = blk0 + (uint64_t)l;
        c0[l] = (uint32_t)blk;
        c1[l] = (uint32_t)(blk >> 32);
        c2[l] = (uint32_t)call;
        c3[l] = (uint32_t)(call >> 32);
    }
    uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
    for (int round = 0; round < 10; round++) {
        for (int l = 0; l < BATCH; l++) PHILOX_ROUND(c0[l], c1[l], c2[l], c3[l], k0, k1);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include "kernels/intrinsics.h"   /* unit_random_emulated_512 runs the AVX-512 path on AVX2 */

/* The 32x32-bit products of a's lanes with m: high halves in *hi, low halves in *lo. */
__attribute__((target(TL_TARGET_512("avx512f")))) static inline void mul_hilo(__m512i a, __m512i m, __m512i *hi,
                                                                          __m512i *lo)
{
    *lo = _mm512_mullo_epi32(a, m);
    __m512i even = _mm512_mul_epu32(a, m), odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
    *hi = _mm512_mask_blend_epi32((__mmask16)0xAAAA, _mm512_srli_epi64(even, 32), odd);
}

/* philox_batch_portable with the 16 blocks in the 16 lanes of AVX-512 registers (the compiler
   leaves the portable loop scalar: it does not vectorize the widening multiplies). */
__attribute__((target(TL_TARGET_512("avx512f")))) static void philox_batch_avx512(uint64_t key64, uint64_t call,
                                                                               uint64_t blk0, uint32_t out[4][BATCH])
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i c0, c1, c2 = _mm512_set1_epi32((int)(uint32_t)call), c3 = _mm512_set1_epi32((int)(uint32_t)(call >> 32));
    /* blk0 + l: the low words wrap into the high words past 2**32 */
    __m512i lo = _mm512_add_epi32(_mm512_set1_epi32((int)(uint32_t)blk0), lane);
    __mmask16 carry = _mm512_cmplt_epu32_mask(lo, lane);
    c0 = lo;
    c1 = _mm512_mask_add_epi32(_mm512_set1_epi32((int)(uint32_t)(blk0 >> 32)), carry,
                               _mm512_set1_epi32((int)(uint32_t)(blk0 >> 32)), _mm512_set1_epi32(1));
    const __m512i m0 = _mm512_set1_epi32((int)0xD2511F53u), m2 = _mm512_set1_epi32((int)0xCD9E8D57u);
    uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
    for (int round = 0; round < 10; round++) {
        __m512i hi0, lo0, hi2, lo2;
        mul_hilo(c0, m0, &hi0, &lo0);
        mul_hilo(c2, m2, &hi2, &lo2);
        c0 = _mm512_xor_si512(_mm512_xor_si512(hi2, c1), _mm512_set1_epi32((int)k0));
        c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), _mm512_set1_epi32((int)k1));
        c1 = lo2;
        c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    _mm512_storeu_si512(out[0], c0);
    _mm512_storeu_si512(out[1], c1);
    _mm512_storeu_si512(out[2], c2);
    _mm512_storeu_si512(out[3], c3);
}
#endif

/* Philox on BATCH consecutive blocks, out[k][l] as philox_batch_portable; the same bits on
   every path (integer arithmetic). */
static void philox_batch(uint64_t key64, uint64_t call, uint64_t blk0, uint32_t out[4][BATCH])
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (tl_simd_enabled() && tl_cpu_has_avx512()) {
        philox_batch_avx512(key64, call, blk0, out);
        return;
    }
#endif
    philox_batch_portable(key64, call, blk0, out);
}

typedef enum { GEN_UNIFORM, GEN_NORMAL, GEN_INT } gen_kind;

typedef struct gen_ctx {
    gen_kind kind;
    tl_dtype dt;
    uint64_t seed, call;
    char *out;
    int64_t n, per_task;
    int64_t lo;
    uint64_t range;
} gen_ctx;

/* A uniform in [0, 1) with exactly as many random bits as dt holds, so
   rounding to dt can never produce 1.0. */
static double uniform_for(tl_dtype dt, uint64_t r)
{
    int m = tl_dtypes[dt].mbits;   /* dt holds m + 1 significant bits */
    return (double)(r >> (63 - m)) * (0x1p-53 * (double)(UINT64_C(1) << (52 - m)));
}

static void store(const gen_ctx *c, int64_t i, double v)
{
    if (c->dt == TL_F64) ((double *)c->out)[i] = v;
    else if (c->dt == TL_F32) ((float *)c->out)[i] = (float)v;
    else tl_scalar_convert(c->out + (size_t)i * tl_dtype_size(c->dt), c->dt, &v, TL_F64);
}

/* ---- normals: Marsaglia and Tsang's ziggurat, 256 layers --------------------------------------
   The density exp(-x*x/2) is covered by 255 stacked rectangles and a base strip (a rectangle and
   the tail past R), each of area V. A 64-bit word picks a layer (8 bits), a sign (1 bit) and a
   position (52 bits); the position lies inside the layer's rectangle under the curve 99% of the
   time, which costs a table look-up and a multiply. Otherwise the wedge test (one exp) or the
   tail (two logs) decides, drawing more words. */
#define ZIG_LAYERS 256
#define ZIG_R 3.6541528853610088   /* where the tail starts, for 256 layers */

static struct {
    uint64_t k[ZIG_LAYERS];   /* position bound under which layer i's point is surely under the curve */
    double w[ZIG_LAYERS];     /* layer i's width / 2**52 */
    double f[ZIG_LAYERS];     /* exp(-x*x/2) at layer i's right edge */
} zig;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

/* Builds the layers from R: V is the base strip's area (rectangle plus tail), and each layer's
   edge follows from the one below it having area V. */
static void zig_build(void)
{
    const double m = 0x1p52, r = ZIG_R, fr = exp(-0.5 * r * r);
    double v = r * fr + sqrt(M_PI / 2) * erfc(r / sqrt(2.0));
    double q = v / fr, x = r, prev = r;
    zig.k[0] = (uint64_t)(r / q * m);
    zig.k[1] = 0;
    zig.w[0] = q / m;
    zig.w[ZIG_LAYERS - 1] = r / m;
    zig.f[0] = 1.0;
    zig.f[ZIG_LAYERS - 1] = fr;
    for (int i = ZIG_LAYERS - 2; i >= 1; i--) {
        x = sqrt(-2.0 * log(v / x + exp(-0.5 * x * x)));
        zig.k[i + 1] = (uint64_t)(x / prev * m);
        prev = x;
        zig.f[i] = exp(-0.5 * x * x);
        zig.w[i] = x / m;
    }
}

/* An element's further random words, past its first: Philox blocks of the element's own index
   in a stream of the call kept apart by the top bits (calls never count that high). */
typedef struct zig_stream { uint64_t key, call, element, blocks; uint32_t word[4]; int left; } zig_stream;

/* The element's next 64-bit word. */
static uint64_t zig_next(zig_stream *s)
{
    if (s->left == 0) {
        philox_block(s->key, s->call ^ (++s->blocks << 56), s->element, s->word);
        s->left = 2;
    }
    int k = 2 - s->left--;
    return (uint64_t)s->word[2 * k] << 32 | s->word[2 * k + 1];
}

/* A uniform in (0, 1] from a word (never 0: it goes under a log). */
static double zig_open01(uint64_t r) { return ((double)(r >> 11) + 1.0) * 0x1p-53; }

/* The slow path of element `element` whose first word r missed its rectangle. */
static double zig_slow(const gen_ctx *c, int64_t element, uint64_t r)
{
    zig_stream s = { .key = c->seed, .call = c->call, .element = (uint64_t)element };
    for (;;) {
        int idx = (int)(r & 0xff);
        uint64_t pos = (r >> 9) & ((UINT64_C(1) << 52) - 1);
        bool negative = (r >> 8) & 1;
        double x = (double)pos * zig.w[idx];
        if (pos < zig.k[idx]) return negative ? -x : x;
        if (idx == 0) {   /* the tail past R: Marsaglia's exponential rejection */
            for (;;) {
                double xx = -log(zig_open01(zig_next(&s))) / ZIG_R, yy = -log(zig_open01(zig_next(&s)));
                if (yy + yy > xx * xx) return negative ? -(ZIG_R + xx) : ZIG_R + xx;
            }
        }
        double u = (double)(zig_next(&s) >> 11) * 0x1p-53;
        if (zig.f[idx] + u * (zig.f[idx - 1] - zig.f[idx]) < exp(-0.5 * x * x)) return negative ? -x : x;
        r = zig_next(&s);
    }
}

/* Element `element`'s normal from its first word r: almost always the rectangle's point. */
static inline double zig_normal(const gen_ctx *c, int64_t element, uint64_t r)
{
    int idx = (int)(r & 0xff);
    uint64_t pos = (r >> 9) & ((UINT64_C(1) << 52) - 1);
    if (pos < zig.k[idx]) {
        double x = (double)pos * zig.w[idx];
        return (r >> 8) & 1 ? -x : x;
    }
    return zig_slow(c, element, r);
}

/* Normals of elements base0 .. base0 + 2 * lanes - 1 from their blocks' words, written as f64
   or f32 (the loop gen_task runs for nearly all of them). */
static void normals_typed(const gen_ctx *c, int64_t base0, int lanes, uint32_t w[4][BATCH])
{
    double v[2 * BATCH];
    for (int l = 0; l < lanes; l++) {
        v[2 * l] = zig_normal(c, base0 + 2 * l, (uint64_t)w[0][l] << 32 | w[1][l]);
        v[2 * l + 1] = zig_normal(c, base0 + 2 * l + 1, (uint64_t)w[2][l] << 32 | w[3][l]);
    }
    if (c->dt == TL_F64) memcpy((double *)c->out + base0, v, sizeof(double) * 2 * (size_t)lanes);
    else for (int i = 0; i < 2 * lanes; i++) ((float *)c->out)[base0 + i] = (float)v[i];
}

/* Elements [i0, i1): element i takes words of block i / 4 (f32 uniforms:
   one word each) or i / 2 (everything else: two words each), so every value
   depends only on (seed, call, i), never on how the work is split. */
static int gen_task(void *vctx, int64_t t)
{
    gen_ctx *c = vctx;
    int64_t i0 = t * c->per_task, i1 = i0 + c->per_task;
    if (i1 > c->n) i1 = c->n;
    int per_block = (c->kind == GEN_UNIFORM && c->dt == TL_F32) ? 4 : 2;
    uint32_t w[4][BATCH];
    for (int64_t blk0 = i0 / per_block; blk0 * per_block < i1; blk0 += BATCH) {
        philox_batch(c->seed, c->call, (uint64_t)blk0, w);
        int64_t base0 = blk0 * per_block, nb = (i1 - base0 + per_block - 1) / per_block;
        int lanes = nb < BATCH ? (int)nb : BATCH;
        if (per_block == 4) {
            float *o = (float *)c->out;
            for (int l = 0; l < lanes; l++)
                for (int k = 0; k < 4 && base0 + 4 * l + k < i1; k++) o[base0 + 4 * l + k] = (float)(w[k][l] >> 8) * 0x1p-24f;
            continue;
        }
        if (c->kind == GEN_NORMAL && (c->dt == TL_F64 || c->dt == TL_F32) && base0 + 2 * lanes <= i1) {
            normals_typed(c, base0, lanes, w);   /* whole blocks of the usual dtypes */
            continue;
        }
        for (int l = 0; l < lanes; l++) {
            int64_t base = base0 + 2 * l;
            uint64_t r[2] = { (uint64_t)w[0][l] << 32 | w[1][l], (uint64_t)w[2][l] << 32 | w[3][l] };
            for (int k = 0; k < 2 && base + k < i1; k++) {
                int64_t i = base + k;
                if (c->kind == GEN_NORMAL) {   /* the ziggurat: one word, rarely more */
                    store(c, i, zig_normal(c, i, r[k]));
                } else if (c->kind == GEN_UNIFORM) {
                    store(c, i, uniform_for(c->dt, r[k]));
                } else {                         /* lo + floor(r * range / 2^64) */
                    uint64_t off = (uint64_t)(((unsigned __int128)r[k] * c->range) >> 64);
                    int64_t x = (int64_t)((uint64_t)c->lo + off);
                    tl_scalar_convert(c->out + (size_t)i * tl_dtype_size(c->dt), c->dt, &x, TL_I64);
                }
            }
        }
    }
    return tl_check_interrupt();
}

static tl_tensor *generate(gen_ctx *c, int ndim, const int64_t *shape)
{
    tl_tensor *out = tl_tensor_empty(c->dt, ndim, shape);
    if (!out) return NULL;
    c->seed = atomic_load(&rng_seed);
    c->call = atomic_fetch_add(&rng_calls, 1);
    c->out = tl_tensor_data(out);
    c->n = tl_tensor_size(out);
    c->per_task = 65536;     /* fixed, a multiple of 4: results never depend on threads */
    int64_t ntasks = (c->n + c->per_task - 1) / c->per_task;
    if (tl_parallel_for(ntasks, gen_task, c) < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

static int check_float(const char *fn, tl_dtype dt)
{
    if (tl_is_float(dt)) return 0;
    tl_seterr(TypeError, "%s: dtype must be a float dtype, not %s", fn, tl_dtype_name(dt));
    return -1;
}

tl_tensor *tl_rand(tl_dtype dtype, int ndim, const int64_t *shape)
{
    if (check_float("rand", dtype) < 0) return NULL;
    gen_ctx c = { .kind = GEN_UNIFORM, .dt = dtype };
    return generate(&c, ndim, shape);
}

tl_tensor *tl_randn(tl_dtype dtype, int ndim, const int64_t *shape)
{
    if (check_float("randn", dtype) < 0) return NULL;
    pthread_once(&zig_once, zig_build);
    gen_ctx c = { .kind = GEN_NORMAL, .dt = dtype };
    return generate(&c, ndim, shape);
}

tl_tensor *tl_randint(int64_t lo, int64_t hi, tl_dtype dtype, int ndim, const int64_t *shape)
{
    if (!tl_is_int(dtype) && dtype != TL_BOOL) {
        tl_seterr(TypeError, "randint: dtype must be an integer dtype, not %s", tl_dtype_name(dtype));
        return NULL;
    }
    if (lo >= hi) {
        tl_seterr(ValueError, "randint: low >= high");
        return NULL;
    }
    __int128 dlo = tl_int_min(dtype), dhi = tl_int_max(dtype);
    if (lo < dlo) {
        tl_seterr(ValueError, "randint: low is out of bounds for %s", tl_dtype_name(dtype));
        return NULL;
    }
    if ((__int128)hi - 1 > dhi) {
        tl_seterr(ValueError, "randint: high is out of bounds for %s", tl_dtype_name(dtype));
        return NULL;
    }
    gen_ctx c = { .kind = GEN_INT, .dt = dtype, .lo = lo, .range = (uint64_t)hi - (uint64_t)lo };
    return generate(&c, ndim, shape);
}
