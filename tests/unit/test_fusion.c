/* test_fusion.c — fused programs (fusion.h) against the same operators run one at a time, bit for bit */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fusion.h"
#include "leak_check.h"
#include "ops.h"
#include "tensor.h"

LEAK_CHECKED_SUITE(fusion);

/* A small deterministic generator, so a failure names its case. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 33;
}
static int pick(int n) { return (int)(rnd() % (uint64_t)n); }

static const tl_dtype value_dtypes[] = { TL_F32, TL_F32, TL_F64, TL_F16, TL_BF16, TL_I32, TL_I64, TL_U8, TL_I8, TL_BOOL };
#define NVDT (int)(sizeof value_dtypes / sizeof value_dtypes[0])

/* A tensor of dtype dt with random values (some negative, some large, the odd nan for floats). */
static tl_tensor *random_tensor(tl_dtype dt, int ndim, const int64_t *shape)
{
    tl_tensor *t = tl_tensor_empty(TL_F64, ndim, shape);
    cr_assert_not_null(t);
    double *v = tl_tensor_data(t);
    for (int64_t i = 0; i < tl_tensor_size(t); i++) {
        int k = pick(20);
        v[i] = k == 0 ? NAN : k == 1 ? 0.0 : ((double)pick(2001) - 1000.0) / (k < 6 ? 1.0 : 250.0);
    }
    if (tl_is_int(dt) || dt == TL_BOOL)
        for (int64_t i = 0; i < tl_tensor_size(t); i++) v[i] = isnan(v[i]) ? 3 : fmod(trunc(v[i]), 100);
    tl_tensor *r = tl_cast(t, dt);
    tl_tensor_release(t);
    cr_assert_not_null(r);
    return r;
}

/* A leaf over the frame (rows, cols): full, a row, a column, one element, a transposed or a stepped view. */
static tl_tensor *random_leaf(int64_t rows, int64_t cols)
{
    tl_dtype dt = value_dtypes[pick(NVDT)];
    int64_t full[2] = { rows, cols }, row[1] = { cols }, col[2] = { rows, 1 }, one[1] = { 1 };
    switch (pick(6)) {
    case 0: return random_tensor(dt, 1, row);
    case 1: return random_tensor(dt, 2, col);
    case 2: return random_tensor(dt, 1, one);
    case 3: {
        int64_t tr[2] = { cols, rows };
        tl_tensor *b = random_tensor(dt, 2, tr), *v = tl_view_transpose(b);
        tl_tensor_release(b);
        return v;
    }
    case 4: {
        int64_t wide[2] = { rows, 2 * cols };
        tl_tensor *b = random_tensor(dt, 2, wide), *v = tl_view_slice(b, 1, 0, 2 * cols, 2, true, true);
        tl_tensor_release(b);
        return v;
    }
    default: return random_tensor(dt, 2, full);
    }
}

/* The eager value of every node, one operator at a time (refs owned). */
typedef struct eager { tl_tensor *v[TL_FUSE_MAX_NODES]; tl_dtype dt[TL_FUSE_MAX_NODES]; bool weak[TL_FUSE_MAX_NODES]; } eager;

static const tl_binop binops[] = { TL_ADD, TL_SUB, TL_MUL, TL_DIV, TL_MAXIMUM, TL_MINIMUM, TL_LT, TL_GE, TL_EQ, TL_POW,
                                   TL_ATAN2, TL_FLOORDIV, TL_MOD, TL_AND, TL_FMAX, TL_HYPOT };
static const tl_unop unops[] = { TL_EXP, TL_TANH, TL_ERF, TL_SQRT, TL_ABS, TL_NEG, TL_SIGMOID, TL_GELU, TL_SILU,
                                 TL_LOG1P, TL_SIN, TL_ISNAN, TL_RELU, TL_LOG, TL_EXPM1, TL_GELU_TANH, TL_FLOOR };

/* Adds one random node to p and its eager value to e; false when this choice is not fusable. */
static bool add_random_node(tl_fuse_prog *p, eager *e, int64_t rows, int64_t cols)
{
    int k = pick(10), a = pick(p->n), b = pick(p->n);
    int before = p->n, r = -1;
    tl_tensor *want = NULL;
    if (!e->v[a] || !e->v[b]) return false;   /* a shortcut's helper node: no eager value of its own */
    if (k < 4) {
        tl_binop op = binops[pick((int)(sizeof binops / sizeof binops[0]))];
        if (pick(4) == 0) {   /* a weak literal on the right */
            double lit[] = { 2.0, 0.5, -1.0, 3.0, 1.5, 7.0 };
            double x = lit[pick(6)];
            tl_scalar s;
            tl_dtype sdt = x == trunc(x) && pick(2) ? TL_I64 : TL_F64;
            tl_scalar_convert(&s, sdt, &x, TL_F64);
            b = tl_fuse_scalar(p, sdt, &s);
            e->v[b] = tl_tensor_scalar(sdt, &s);
            e->dt[b] = sdt;
            e->weak[b] = true;
        }
        tl_dtype dt;
        if (tl_binop_dtype(op, e->dt[a], e->weak[a], e->dt[b], e->weak[b],
                           e->weak[b] ? tl_tensor_data(e->v[b]) : NULL, &dt) < 0)
            goto refused;
        r = tl_fuse_binary(p, op, dt, a, b);
        if (r >= 0) want = tl_binary(op, e->v[a], e->v[b], dt);
    } else if (k < 7) {
        tl_unop op = unops[pick((int)(sizeof unops / sizeof unops[0]))];
        r = tl_fuse_unary(p, op, a);
        if (r >= 0) want = tl_unary(op, e->v[a]);
    } else if (k == 7) {
        tl_dtype dt = value_dtypes[pick(NVDT)];
        r = tl_fuse_cast(p, dt, a);
        if (r >= 0) want = tl_cast(e->v[a], dt);
    } else if (k == 8) {
        int c = pick(p->n);
        if (!e->v[c]) return false;
        tl_dtype dt = tl_promote(e->dt[a], e->dt[b]);
        r = tl_fuse_where(p, dt, c, a, b);
        if (r >= 0) want = tl_where(e->v[c], e->v[a], e->v[b], dt);
    } else {
        tl_redop ops[] = { TL_RSUM, TL_RMEAN, TL_RMAX, TL_RMIN };
        tl_redop op = ops[pick(4)];
        int axis = e->v[a]->ndim - 1;
        r = tl_fuse_reduce(p, op, a);
        if (r >= 0) want = tl_reduce(op, e->v[a], 1, &axis, true, 0);
    }
    if (r < 0) goto refused;
    cr_assert_not_null(want, "fused node %d built, but eager fails: %s", r, tl_errmsg());
    /* a shortcut (x ** 2 is x * x) may add helper nodes: give them eager values too */
    for (int i = before; i < r; i++) {
        if (i == b && e->v[b]) continue;   /* the literal made above */
        e->v[i] = NULL;
        e->dt[i] = p->node[i].dtype;
        e->weak[i] = false;
    }
    e->v[r] = want;
    e->dt[r] = want->dtype;
    e->weak[r] = false;
    cr_assert_eq(p->node[r].dtype, want->dtype, "node %d dtype %s, eager %s", r, tl_dtype_name(p->node[r].dtype),
                 tl_dtype_name(want->dtype));
    (void)rows; (void)cols;
    return true;
refused:
    for (int i = before; i < p->n; i++)
        if (e->v[i]) tl_tensor_release(e->v[i]);
    p->n = before;
    return false;
}

/* The bytes of t in C order (a contiguous copy's). */
static void assert_same_bits(const tl_tensor *got, const tl_tensor *want, int seed, int node)
{
    cr_assert_eq(got->dtype, want->dtype);
    cr_assert_eq(got->ndim, want->ndim, "seed %d node %d: ndim %d vs %d", seed, node, got->ndim, want->ndim);
    for (int d = 0; d < got->ndim; d++) cr_assert_eq(got->shape[d], want->shape[d]);
    tl_tensor *w = tl_contiguous(want);
    size_t n = (size_t)tl_tensor_size(got) * tl_dtype_size(got->dtype);
    const unsigned char *x = tl_tensor_data(got), *y = tl_tensor_data(w);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(x[i], y[i], "seed %d node %d (%s): byte %zu differs: %02x vs %02x (%02x%02x%02x%02x vs %02x%02x%02x%02x)", seed, node, tl_dtype_name(got->dtype), i, x[i], y[i], x[i / 4 * 4 + 3], x[i / 4 * 4 + 2], x[i / 4 * 4 + 1], x[i / 4 * 4], y[i / 4 * 4 + 3], y[i / 4 * 4 + 2], y[i / 4 * 4 + 1], y[i / 4 * 4]);
    tl_tensor_release(w);
}

Test(fusion, random_programs_match_eager_bit_for_bit, .timeout = 120)
{
    int ran = 0;
    for (int seed = 1; seed <= 400; seed++) {
        rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
        int64_t sizes[] = { 1, 3, 17, 64, 80, 129 };
        int64_t rows = sizes[pick(6)], cols = sizes[1 + pick(5)];
        if (seed % 5 == 0) rows = 96, cols = 64;   /* >= 4096 elements: the half functions widen to f32 */
        if (seed % 25 == 0) rows = 300, cols = 333;   /* many blocks on the threads; rows across blocks */
        tl_fuse_prog *p = malloc(sizeof *p);
        eager e;
        tl_fuse_init(p);
        int nleaves = 1 + pick(4);
        for (int i = 0; i < nleaves; i++) {
            tl_tensor *t = random_leaf(rows, cols);
            e.v[i] = t;
            e.dt[i] = t->dtype;
            e.weak[i] = false;
            cr_assert_eq(tl_fuse_leaf(p, t), i);
        }
        int want_nodes = 2 + pick(8);
        for (int tries = 0; tries < 60 && p->n < nleaves + want_nodes && p->n < TL_FUSE_MAX_NODES - 4; tries++)
            add_random_node(p, &e, rows, cols);
        /* the last node computed from a tensor is the output; it must cover the frame */
        int root = p->n - 1;
        while (root >= nleaves && (!e.v[root] || e.v[root]->ndim == 0)) root--;
        if (root >= nleaves) {
            tl_tensor *out = NULL;
            int rc = tl_fuse_run(p, 1, &root, &out);
            cr_assert_neq(rc, -1, "seed %d: %s", seed, tl_errmsg());
            if (rc == 1) {
                if (getenv("TL_FUSION_DUMP") && atoi(getenv("TL_FUSION_DUMP")) == seed)
                    for (int i = 0; i < p->n; i++)
                        fprintf(stderr, "%d: kind %d op %d %s cdt %s in %d %d %d portable %d via %d nd %d [%lld %lld]\n", i,
                                p->node[i].kind, p->node[i].op, tl_dtype_name(p->node[i].dtype),
                                tl_dtype_name(p->node[i].cdt), p->node[i].in[0], p->node[i].in[1], p->node[i].in[2],
                                p->node[i].portable, p->node[i].via_f32, p->node[i].ndim,
                                (long long)p->node[i].shape[0], (long long)p->node[i].shape[1]);
                assert_same_bits(out, e.v[root], seed, root);
                tl_tensor_release(out);
                ran++;
            }
        }
        for (int i = 0; i < p->n; i++)
            if (e.v[i]) tl_tensor_release(e.v[i]);
        free(p);
    }
    cr_assert_gt(ran, 150, "only %d of 400 random programs ran fused", ran);
}

/* softmax as a composition: max, exp(x - max), sum, divide, in one program with two outputs. */
Test(fusion, softmax_composition_and_two_outputs)
{
    int64_t shape[2] = { 37, 300 };
    rng_state = 7;
    tl_tensor *x = random_tensor(TL_F32, 2, shape);
    tl_fuse_prog *p = malloc(sizeof *p);
    tl_fuse_init(p);
    int lx = tl_fuse_leaf(p, x), m = tl_fuse_reduce(p, TL_RMAX, lx);
    int d = tl_fuse_binary(p, TL_SUB, TL_F32, lx, m), ex = tl_fuse_unary(p, TL_EXP, d);
    int s = tl_fuse_reduce(p, TL_RSUM, ex), y = tl_fuse_binary(p, TL_DIV, TL_F32, ex, s);
    cr_assert(y >= 0, "%s", tl_errmsg());
    int roots[2] = { y, s };
    tl_tensor *outs[2] = { NULL, NULL };
    cr_assert_eq(tl_fuse_run(p, 2, roots, outs), 1, "%s", tl_errmsg());
    int axis = 1;
    tl_tensor *em = tl_reduce(TL_RMAX, x, 1, &axis, true, 0), *ed = tl_binary(TL_SUB, x, em, TL_F32);
    tl_tensor *ee = tl_unary(TL_EXP, ed), *es = tl_reduce(TL_RSUM, ee, 1, &axis, true, 0);
    tl_tensor *ey = tl_binary(TL_DIV, ee, es, TL_F32);
    assert_same_bits(outs[0], ey, 0, y);
    assert_same_bits(outs[1], es, 0, s);
    tl_tensor *all[] = { x, em, ed, ee, es, ey, outs[0], outs[1] };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tl_tensor_release(all[i]);
    free(p);
}

/* Bad programs are refused; outputs of the wrong shape make the run decline. */
Test(fusion, refusals)
{
    int64_t shape[1] = { 10 }, other[1] = { 7 };
    tl_tensor *a = tl_tensor_zeros(TL_I32, 1, shape), *b = tl_tensor_zeros(TL_I32, 1, other);
    tl_fuse_prog *p = malloc(sizeof *p);
    tl_fuse_init(p);
    int la = tl_fuse_leaf(p, a), lb = tl_fuse_leaf(p, b);
    cr_assert_eq(tl_fuse_binary(p, TL_ADD, TL_I32, la, lb), -1);            /* shapes do not broadcast */
    cr_assert_eq(tl_fuse_binary(p, TL_FLOORDIV, TL_I32, la, la), -1);       /* a tensor divisor */
    int32_t zero = 0;
    int z = tl_fuse_scalar(p, TL_I32, &zero);
    cr_assert_eq(tl_fuse_binary(p, TL_MOD, TL_I32, la, z), -1);             /* by zero: eager reports it */
    cr_assert_eq(tl_fuse_binary(p, TL_ADD, TL_I32, z, z), -1);              /* two scalars */
    cr_assert_eq(tl_fuse_reduce(p, TL_RSUM, la), -1);                       /* not f32/f64 */
    cr_assert_eq(tl_fuse_unary(p, TL_EXP, 99), -1);
    int sum = tl_fuse_binary(p, TL_ADD, TL_I32, la, la);
    int roots[2] = { sum, sum };
    tl_tensor *outs[2] = { NULL, NULL };
    cr_assert_eq(tl_fuse_run(p, 2, roots, outs), -1);                       /* one output per node */
    int r1[2] = { sum, lb };
    cr_assert_eq(tl_fuse_run(p, 2, r1, outs), 0);                           /* outputs of two shapes */
    cr_assert_null(outs[0]);
    tl_tensor_release(a);
    tl_tensor_release(b);
    free(p);
}
