/* random.c — counter-based random numbers (Philox4x32-10): element i depends only on (seed, call, i) */
#include <math.h>
#include <stdatomic.h>

#include "kernels/kern.h"

static atomic_uint_fast64_t rng_seed = 0;
static atomic_uint_fast64_t rng_calls = 0;   /* each call draws from its own stream */

void tl_seed(uint64_t seed)
{
    atomic_store(&rng_seed, seed);
    atomic_store(&rng_calls, 0);
}

/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"). */
static void philox(uint32_t ctr[4], uint64_t key64)
{
    uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * ctr[0], p1 = (uint64_t)0xCD9E8D57u * ctr[2];
        uint32_t c0 = (uint32_t)(p1 >> 32) ^ ctr[1] ^ k0, c2 = (uint32_t)(p0 >> 32) ^ ctr[3] ^ k1;
        ctr[1] = (uint32_t)p1;
        ctr[3] = (uint32_t)p0;
        ctr[0] = c0;
        ctr[2] = c2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* Two 64-bit random words for element i of stream `call`. */
static void draw(uint64_t seed, uint64_t call, uint64_t i, uint64_t out[2])
{
    uint32_t c[4] = { (uint32_t)i, (uint32_t)(i >> 32), (uint32_t)call, (uint32_t)(call >> 32) };
    philox(c, seed);
    out[0] = (uint64_t)c[0] << 32 | c[1];
    out[1] = (uint64_t)c[2] << 32 | c[3];
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
    switch (dt) {
    case TL_F16: return (double)(r >> 53) * 0x1p-11;
    case TL_BF16: return (double)(r >> 56) * 0x1p-8;
    case TL_F32: case TL_C64: return (double)(r >> 40) * 0x1p-24;
    default: return (double)(r >> 11) * 0x1p-53;
    }
}

static int gen_task(void *vctx, int64_t t)
{
    gen_ctx *c = vctx;
    int64_t i0 = t * c->per_task, i1 = i0 + c->per_task;
    if (i1 > c->n) i1 = c->n;
    size_t es = tl_dtype_size(c->dt);
    for (int64_t i = i0; i < i1; i++) {
        uint64_t r[2];
        draw(c->seed, c->call, (uint64_t)i, r);
        double v;
        if (c->kind == GEN_UNIFORM) {
            v = uniform_for(c->dt, r[0]);
        } else if (c->kind == GEN_NORMAL) {       /* Box–Muller, one of the pair */
            double u1 = ((double)(r[0] >> 11) + 1.0) * 0x1p-53, u2 = (double)(r[1] >> 11) * 0x1p-53;
            v = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
        } else {                                   /* lo + floor(r * range / 2^64) */
            uint64_t off = (uint64_t)(((unsigned __int128)r[0] * c->range) >> 64);
            int64_t x = (int64_t)((uint64_t)c->lo + off);
            tl_scalar_convert(c->out + (size_t)i * es, c->dt, &x, TL_I64);
            continue;
        }
        tl_scalar_convert(c->out + (size_t)i * es, c->dt, &v, TL_F64);
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
    c->per_task = 65536;                      /* fixed: results never depend on threads */
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
    tl_seterr("%s: dtype must be a float dtype, not %s", fn, tl_dtype_name(dt));
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
        tl_seterr("randint: dtype must be an integer dtype, not %s", tl_dtype_name(dtype));
        return NULL;
    }
    if (lo >= hi) {
        tl_seterr("randint: low >= high");
        return NULL;
    }
    __int128 dlo, dhi;
    int_limits(dtype, &dlo, &dhi);
    if (lo < dlo) {
        tl_seterr("randint: low is out of bounds for %s", tl_dtype_name(dtype));
        return NULL;
    }
    if ((__int128)hi - 1 > dhi) {
        tl_seterr("randint: high is out of bounds for %s", tl_dtype_name(dtype));
        return NULL;
    }
    gen_ctx c = { .kind = GEN_INT, .dt = dtype, .lo = lo, .range = (uint64_t)hi - (uint64_t)lo };
    return generate(&c, ndim, shape);
}
