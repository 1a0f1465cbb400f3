/* random.c — counter-based random numbers (Philox4x32-10): element i depends only on (seed, call, i) */
#include <math.h>
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

/* Philox on BATCH consecutive counter blocks at once, lanes side by side so
   the compiler can vectorize the rounds (the same numbers as philox()). */
TL_CLONES static void philox_batch(uint64_t key64, uint64_t call, uint64_t blk0, uint32_t out[BATCH][4])
{
    uint32_t c0[BATCH], c1[BATCH], c2[BATCH], c3[BATCH];
    for (int l = 0; l < BATCH; l++) {
        uint64_t blk = blk0 + (uint64_t)l;
        c0[l] = (uint32_t)blk;
        c1[l] = (uint32_t)(blk >> 32);
        c2[l] = (uint32_t)call;
        c3[l] = (uint32_t)(call >> 32);
    }
    uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
    for (int round = 0; round < 10; round++) {
        for (int l = 0; l < BATCH; l++) {
            uint64_t p0 = (uint64_t)0xD2511F53u * c0[l], p1 = (uint64_t)0xCD9E8D57u * c2[l];
            uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1[l] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3[l] ^ k1;
            c1[l] = (uint32_t)p1;
            c3[l] = (uint32_t)p0;
            c0[l] = n0;
            c2[l] = n2;
        }
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    for (int l = 0; l < BATCH; l++) {
        out[l][0] = c0[l];
        out[l][1] = c1[l];
        out[l][2] = c2[l];
        out[l][3] = c3[l];
    }
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

/* Elements [i0, i1): element i takes words of block i / 4 (f32 uniforms:
   one word each) or i / 2 (everything else: two words each), so every value
   depends only on (seed, call, i), never on how the work is split. */
static int gen_task(void *vctx, int64_t t)
{
    gen_ctx *c = vctx;
    int64_t i0 = t * c->per_task, i1 = i0 + c->per_task;
    if (i1 > c->n) i1 = c->n;
    int per_block = (c->kind == GEN_UNIFORM && c->dt == TL_F32) ? 4 : 2;
    uint32_t words[BATCH][4];
    for (int64_t blk = i0 / per_block; blk * per_block < i1; blk++) {
        int64_t lane = (blk - i0 / per_block) % BATCH;
        if (lane == 0) philox_batch(c->seed, c->call, (uint64_t)blk, words);
        const uint32_t *w = words[lane];
        int64_t base = blk * per_block;
        if (per_block == 4) {
            for (int k = 0; k < 4 && base + k < i1; k++) ((float *)c->out)[base + k] = (float)(w[k] >> 8) * 0x1p-24f;
            continue;
        }
        uint64_t r0 = (uint64_t)w[0] << 32 | w[1], r1 = (uint64_t)w[2] << 32 | w[3];
        double v[2];
        if (c->kind == GEN_UNIFORM) {
            v[0] = uniform_for(c->dt, r0);
            v[1] = uniform_for(c->dt, r1);
        } else if (c->kind == GEN_NORMAL) {       /* Box–Muller: both of the pair */
            double u1 = ((double)(r0 >> 11) + 1.0) * 0x1p-53, u2 = (double)(r1 >> 11) * 0x1p-53;
            double rad = sqrt(-2.0 * log(u1));
            v[0] = rad * cos(2.0 * M_PI * u2);
            v[1] = rad * sin(2.0 * M_PI * u2);
        } else {                                   /* lo + floor(r * range / 2^64) */
            for (int k = 0; k < 2 && base + k < i1; k++) {
                uint64_t off = (uint64_t)(((unsigned __int128)(k ? r1 : r0) * c->range) >> 64);
                int64_t x = (int64_t)((uint64_t)c->lo + off);
                tl_scalar_convert(c->out + (size_t)(base + k) * tl_dtype_size(c->dt), c->dt, &x, TL_I64);
            }
            continue;
        }
        for (int k = 0; k < 2 && base + k < i1; k++) store(c, base + k, v[k]);
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
    gen_ctx c = { .kind = GEN_NORMAL, .dt = dtype };
    return generate(&c, ndim, shape);
}

/* Largest and smallest value of an integer dtype, as i128. */
static void int_limits(tl_dtype dt, __int128 *lo, __int128 *hi)
{
    int bits = 8 * (int)tl_dtype_size(dt);
    if (dt == TL_BOOL) { *lo = 0; *hi = 1; }
    else if (tl_dtype_kind(dt) == TL_KIND_UINT) { *lo = 0; *hi = ((__int128)1 << bits) - 1; }
    else { *lo = -((__int128)1 << (bits - 1)); *hi = ((__int128)1 << (bits - 1)) - 1; }
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
    __int128 dlo, dhi;
    int_limits(dtype, &dlo, &dhi);
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
