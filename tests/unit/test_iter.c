/* test_iter.c — the iteration engine: axis order, coalescing, broadcasting, chunks; tensor basics */
#include <criterion/criterion.h>
#include <string.h>

#include "iter.h"
#include "ops.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(iter);
LEAK_CHECKED_SUITE(iter_users);
LEAK_CHECKED_SUITE(tensor);

/* What an inner loop saw: one record per call. */
typedef struct {
    int calls;
    int64_t n[64];
    int64_t stride0[64];
    int64_t total;
    int64_t sum;        /* sum of operand-0 int64 values visited */
} run_log;

static void log_inner(int64_t n, char **ptrs, const int64_t *bs, void *aux)
{
    run_log *log = aux;
    if (log->calls < 64) {
        log->n[log->calls] = n;
        log->stride0[log->calls] = bs[0];
    }
    log->calls++;
    log->total += n;
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        memcpy(&v, ptrs[0] + i * bs[0], 8);
        log->sum += v;
    }
}

/* arange(n) as int64 in fresh storage. */
static tl_tensor *arange_i64(int64_t n)
{
    int64_t shape[1] = {n};
    tl_tensor *t = tl_tensor_empty(TL_I64, 1, shape);
    cr_assert_not_null(t);
    for (int64_t i = 0; i < n; i++) ((int64_t *)tl_tensor_data(t))[i] = i;
    return t;
}

static tl_tensor *view(tl_tensor *base, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
    tl_tensor *v = tl_tensor_view_of(base->storage, base->dtype, ndim, shape, strides, offset);
    cr_assert_not_null(v, "%s", tl_errmsg());
    return v;
}

static run_log run1(const tl_tensor *t)
{
    tl_iter it;
    run_log log = {0};
    cr_assert_eq(tl_iter_init(&it, 1, &t, t->ndim, t->shape), 0, "%s", tl_errmsg());
    cr_assert_eq(tl_iter_run(&it, log_inner, &log), 0);
    return log;
}

Test(iter, c_contiguous_is_one_run_of_24)
{
    tl_tensor *a = arange_i64(24);
    tl_tensor *v = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, 0);
    run_log log = run1(v);
    cr_assert_eq(log.calls, 1);
    cr_assert_eq(log.n[0], 24);
    cr_assert_eq(log.stride0[0], 8);
    cr_assert_eq(log.sum, 276);
    tl_tensor_release(v);
    tl_tensor_release(a);
}

Test(iter, transpose_201_is_reordered_to_one_run_of_24)
{
    tl_tensor *a = arange_i64(24);
    /* (2,3,4).transpose(2,0,1): shape (4,2,3), strides (1,12,4) */
    tl_tensor *v = view(a, 3, (int64_t[]){4, 2, 3}, (int64_t[]){1, 12, 4}, 0);
    run_log log = run1(v);
    cr_assert_eq(log.calls, 1);
    cr_assert_eq(log.n[0], 24);
    cr_assert_eq(log.stride0[0], 8);
    tl_tensor_release(v);
    tl_tensor_release(a);
}

Test(iter, reversed_last_axis_is_flipped_to_one_run)
{
    tl_tensor *a = arange_i64(24);
    /* [:, :, ::-1]: offset 3, strides (12, 4, -1) */
    tl_tensor *v = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, -1}, 3);
    run_log log = run1(v);
    cr_assert_eq(log.calls, 1);
    cr_assert_eq(log.n[0], 24);
    cr_assert_eq(log.stride0[0], 8);
    cr_assert_eq(log.sum, 276);
    tl_tensor_release(v);
    tl_tensor_release(a);
}

Test(iter, sliced_last_axis_gives_six_runs_of_3)
{
    tl_tensor *a = arange_i64(24);
    tl_tensor *v = view(a, 3, (int64_t[]){2, 3, 3}, (int64_t[]){12, 4, 1}, 0);
    run_log log = run1(v);
    cr_assert_eq(log.calls, 6);
    for (int i = 0; i < 6; i++) cr_assert_eq(log.n[i], 3);
    /* sum of a[:, :, :3] = 276 - sum of a[:, :, 3] (3+7+11+15+19+23 = 78) */
    cr_assert_eq(log.sum, 198);
    tl_tensor_release(v);
    tl_tensor_release(a);
}

Test(iter, broadcasting_4_against_234_gives_six_runs_of_4)
{
    tl_tensor *a = arange_i64(24);
    tl_tensor *b = arange_i64(4);
    const tl_tensor *ops[2] = {a, b};
    tl_tensor *out = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, 0);
    ops[0] = out;
    tl_iter it;
    run_log log = {0};
    cr_assert_eq(tl_iter_init(&it, 2, ops, 3, out->shape), 0, "%s", tl_errmsg());
    cr_assert_eq(it.ndim, 2);
    cr_assert_eq(it.shape[0], 6);
    cr_assert_eq(it.shape[1], 4);
    cr_assert_eq(it.bstrides[1][0], 0);
    cr_assert_eq(it.bstrides[1][1], 8);
    cr_assert_eq(tl_iter_run(&it, log_inner, &log), 0);
    cr_assert_eq(log.calls, 6);
    for (int i = 0; i < 6; i++) cr_assert_eq(log.n[i], 4);
    tl_tensor_release(out);
    tl_tensor_release(b);
    tl_tensor_release(a);
}

Test(iter, broadcasting_31_against_234_gives_six_runs_of_4)
{
    tl_tensor *a = arange_i64(24);
    tl_tensor *b = arange_i64(3);
    tl_tensor *col = view(b, 2, (int64_t[]){3, 1}, (int64_t[]){1, 1}, 0);
    tl_tensor *out = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, 0);
    const tl_tensor *ops[2] = {out, col};
    tl_iter it;
    run_log log = {0};
    cr_assert_eq(tl_iter_init(&it, 2, ops, 3, out->shape), 0, "%s", tl_errmsg());
    cr_assert_eq(tl_iter_run(&it, log_inner, &log), 0);
    cr_assert_eq(log.calls, 6);
    for (int i = 0; i < 6; i++) cr_assert_eq(log.n[i], 4);
    tl_tensor_release(out);
    tl_tensor_release(col);
    tl_tensor_release(b);
    tl_tensor_release(a);
}

Test(iter, incompatible_operand_is_an_error)
{
    tl_tensor *a = arange_i64(12);
    tl_tensor *b = arange_i64(5);
    tl_tensor *out = view(a, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 0);
    const tl_tensor *ops[2] = {out, b};
    tl_iter it;
    cr_assert_eq(tl_iter_init(&it, 2, ops, 2, out->shape), -1);
    cr_assert_str_eq(tl_errmsg(), "cannot broadcast shape (5,) to (3, 4)\n   (5,)\n(3, 4)\n    ^ axis -1: 5 vs 4 (sizes must be equal, or one of them 1)");
    tl_tensor_release(out);
    tl_tensor_release(b);
    tl_tensor_release(a);
}

Test(iter, empty_shape_runs_nothing)
{
    tl_tensor *t = tl_tensor_empty(TL_I64, 2, (int64_t[]){3, 0});
    cr_assert_not_null(t);
    run_log log = run1(t);
    cr_assert_eq(log.calls, 0);
    tl_tensor_release(t);
}

Test(iter, zero_d_runs_one_element)
{
    int64_t v = 42;
    tl_tensor *t = tl_tensor_scalar(TL_I64, &v);
    run_log log = run1(t);
    cr_assert_eq(log.calls, 1);
    cr_assert_eq(log.n[0], 1);
    cr_assert_eq(log.sum, 42);
    tl_tensor_release(t);
}

Test(iter, long_runs_are_split_into_chunks)
{
    tl_tensor *a = arange_i64(100000);
    run_log log = run1(a);
    cr_assert_gt(log.calls, 1);
    cr_assert_eq(log.total, 100000);
    for (int i = 0; i < log.calls - 1 && i < 64; i++) cr_assert_geq(log.n[i], 8192);
    cr_assert_eq(log.sum, (int64_t)100000 * 99999 / 2);
    tl_tensor_release(a);
}

Test(iter, interrupt_stops_between_chunks)
{
    tl_tensor *a = arange_i64(100000);
    tl_iter it;
    const tl_tensor *ops[1] = {a};
    run_log log = {0};
    cr_assert_eq(tl_iter_init(&it, 1, ops, 1, a->shape), 0);
    tl_interrupt_flag = 1;
    int rc = tl_iter_run(&it, log_inner, &log);
    tl_interrupt_flag = 0;
    cr_assert_eq(rc, -1);
    cr_assert_str_eq(tl_errmsg(), "interrupted");
    cr_assert_eq(log.calls, 1);       /* the first chunk ran, the second did not */
    tl_tensor_release(a);
}

/* ---- the shared planner: raw strides, positions, batch walks, runs ------ */

/* Every element pointer of operands 0 and 1 in the order tl_iter_run visits them. */
typedef struct {
    int64_t count;
    char *at[2][4096];
} visit_log;

static void visit_inner(int64_t n, char **ptrs, const int64_t *bs, void *aux)
{
    visit_log *v = aux;
    for (int64_t i = 0; i < n; i++, v->count++) {
        cr_assert_lt(v->count, 4096);
        v->at[0][v->count] = ptrs[0] + i * bs[0];
        v->at[1][v->count] = ptrs[1] + i * bs[1];
    }
}

/* tl_iter_at(i) must name the i-th element tl_iter_run visits. */
static void assert_at_follows_run(const tl_iter *it)
{
    static visit_log v;
    v.count = 0;
    cr_assert_eq(tl_iter_run(it, visit_inner, &v), 0);
    cr_assert_eq(v.count, it->size);
    for (int64_t i = 0; i < it->size; i++) {
        char *p[TL_ITER_MAXOPS];
        tl_iter_at(it, i, p);
        cr_assert_eq(p[0], v.at[0][i], "operand 0 at %lld", (long long)i);
        cr_assert_eq(p[1], v.at[1][i], "operand 1 at %lld", (long long)i);
    }
}

Test(iter, plan_from_raw_strides_flips_negative_axes_and_merges)
{
    int64_t data[12];
    char *base[2] = { (char *)&data[11], (char *)data };
    const int64_t strides[2][TL_MAXDIM] = { { -32, -8 }, { 0, 8 } };
    tl_iter it;
    /* axis 0 flips (operand 1 broadcasts over it); axis 1 does not (operand 1
       walks it upward); nothing merges across the stride-0 axis */
    cr_assert_eq(tl_iter_plan(&it, 2, 2, (int64_t[]){3, 4}, base, strides), 0);
    cr_assert_eq(it.ndim, 2);
    cr_assert_eq(it.size, 12);
    cr_assert_eq(it.bstrides[0][0], 32);
    cr_assert_eq(it.base[0], (char *)&data[3]);
    cr_assert_eq(it.bstrides[0][1], -8);
    cr_assert_eq(it.bstrides[1][0], 0);
    assert_at_follows_run(&it);
    /* alone, the reversed operand is flipped to one upward run of 12 */
    cr_assert_eq(tl_iter_plan(&it, 1, 2, (int64_t[]){3, 4}, base, strides), 0);
    cr_assert_eq(it.ndim, 1);
    cr_assert_eq(it.shape[0], 12);
    cr_assert_eq(it.bstrides[0][0], 8);
    cr_assert_eq(it.base[0], (char *)data);
}

Test(iter, at_follows_the_run_order_on_odd_plans)
{
    tl_tensor *a = arange_i64(1024);
    /* reversed last axis against a sliced, transposed operand */
    tl_tensor *rev = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, -1}, 3);
    tl_tensor *tr = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){1, 40, 200}, 0);
    const tl_tensor *ops[2] = { rev, tr };
    tl_iter it;
    cr_assert_eq(tl_iter_init(&it, 2, ops, 3, rev->shape), 0, "%s", tl_errmsg());
    assert_at_follows_run(&it);
    /* broadcast stride 0 (a (4,) row against (2, 3, 4)) and size-1 axes */
    tl_tensor *row = view(a, 2, (int64_t[]){1, 4}, (int64_t[]){7, 2}, 5);
    ops[1] = row;
    cr_assert_eq(tl_iter_init(&it, 2, ops, 3, rev->shape), 0, "%s", tl_errmsg());
    assert_at_follows_run(&it);
    /* ten axes of 2, one reversed and two swapped: more axes than any fixed unroll */
    int64_t shape[10], st[10], st2[10];
    for (int d = 0; d < 10; d++) { shape[d] = 2; st[d] = (int64_t)1 << (9 - d); st2[d] = st[d]; }
    st[3] = -st[3];
    st2[0] = 1;
    st2[9] = 512;
    tl_tensor *ten = view(a, 10, shape, st, 64), *ten2 = view(a, 10, shape, st2, 0);
    ops[0] = ten;
    ops[1] = ten2;
    cr_assert_eq(tl_iter_init(&it, 2, ops, 10, shape), 0, "%s", tl_errmsg());
    cr_assert_eq(it.size, 1024);
    assert_at_follows_run(&it);
    tl_tensor *all[5] = { rev, tr, row, ten, ten2 };
    for (int i = 0; i < 5; i++) tl_tensor_release(all[i]);
    tl_tensor_release(a);
}

Test(iter, batch_walk_broadcasts_leading_axes_and_skips_core_axes)
{
    tl_tensor *buf = arange_i64(256);
    char *d = tl_tensor_data(buf);
    /* matmul's layout: a (3,1,2,2), b (4,2,2) reversed along its batch axis, out (3,4,2,2) */
    tl_tensor *a = view(buf, 4, (int64_t[]){3, 1, 2, 2}, (int64_t[]){4, 4, 2, 1}, 0);
    tl_tensor *b = view(buf, 3, (int64_t[]){4, 2, 2}, (int64_t[]){-4, 2, 1}, 12);
    tl_tensor *out = view(buf, 4, (int64_t[]){3, 4, 2, 2}, (int64_t[]){16, 4, 2, 1}, 64);
    const tl_tensor *ops[3] = { out, a, b };
    tl_iter it;
    cr_assert_eq(tl_iter_batch_init(&it, 3, ops, (int[]){2, 2, 2}, 2, (int64_t[]){3, 4}), 0, "%s", tl_errmsg());
    cr_assert_eq(it.size, 12);
    for (int64_t i = 0; i < 12; i++) {
        char *p[3];
        tl_iter_at(&it, i, p);
        cr_assert_eq(p[0], d + 8 * (64 + 4 * i), "out of entry %lld", (long long)i);
        cr_assert_eq(p[1], d + 8 * (4 * (i / 4)));
        cr_assert_eq(p[2], d + 8 * (12 - 4 * (i % 4)));
    }
    /* no batch axes: one entry at the operands' first elements */
    cr_assert_eq(tl_iter_batch_init(&it, 3, ops, (int[]){4, 4, 3}, 0, NULL), 0, "%s", tl_errmsg());
    cr_assert_eq(it.size, 1);
    char *p[3];
    tl_iter_at(&it, 0, p);
    cr_assert_eq(p[0], d + 8 * 64);
    cr_assert_eq(p[2], d + 8 * 12);
    /* an empty batch axis walks nothing; too few axes and mismatches are errors */
    tl_tensor *e = view(buf, 3, (int64_t[]){0, 2, 2}, (int64_t[]){4, 2, 1}, 0);
    const tl_tensor *eops[1] = { e };
    cr_assert_eq(tl_iter_batch_init(&it, 1, eops, (int[]){2}, 1, (int64_t[]){0}), 0);
    cr_assert_eq(it.size, 0);
    cr_assert_eq(tl_iter_batch_init(&it, 1, eops, (int[]){4}, 0, NULL), -1);
    cr_assert_eq(tl_iter_batch_init(&it, 3, ops, (int[]){2, 2, 2}, 2, (int64_t[]){3, 5}), -1);
    cr_assert_str_eq(tl_errmsg(), "cannot broadcast shape (3, 4) to (3, 5)\n(3, 4)\n(3, 5)\n    ^ axis -1: 4 vs 5 (sizes must be equal, or one of them 1)");
    tl_tensor *all[4] = { a, b, out, e };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
    tl_tensor_release(buf);
}

Test(iter, batch_walk_over_nine_axes_merges_to_one)
{
    tl_tensor *buf = arange_i64(1024);
    int64_t shape[10], st[10];
    for (int k = 0; k < 10; k++) { shape[k] = 2; st[k] = (int64_t)1 << (9 - k); }
    tl_tensor *t = view(buf, 10, shape, st, 0);
    const tl_tensor *ops[1] = { t };
    tl_iter it;
    cr_assert_eq(tl_iter_batch_init(&it, 1, ops, (int[]){1}, 9, shape), 0, "%s", tl_errmsg());
    cr_assert_eq(it.ndim, 1);
    cr_assert_eq(it.size, 512);
    char *p[1];
    tl_iter_at(&it, 300, p);
    cr_assert_eq(p[0], (char *)tl_tensor_data(buf) + 8 * 600);
    tl_tensor_release(t);
    tl_tensor_release(buf);
}

/* runs over (out, x) for a reduction of x's axes in mask into a fresh out */
static int reduce_runs(tl_iter_runs *r, const tl_tensor *x, const bool *mask, bool c_order, tl_tensor **out)
{
    int64_t oshape[TL_MAXDIM];
    for (int d = 0; d < x->ndim; d++) oshape[d] = mask[d] ? 1 : x->shape[d];
    *out = tl_tensor_empty(TL_I64, x->ndim, oshape);
    cr_assert_not_null(*out);
    const tl_tensor *ops[2] = { *out, x };
    return tl_iter_runs_init(r, 2, ops, x->ndim, x->shape, mask, c_order);
}

Test(iter, runs_merge_the_reduced_axes_into_one_run)
{
    tl_tensor *a = arange_i64(1024), *out;
    tl_iter_runs r;
    /* axis 0 of (4, 5): runs of 4 at 40 bytes; the output does not move */
    tl_tensor *m = view(a, 2, (int64_t[]){4, 5}, (int64_t[]){5, 1}, 0);
    cr_assert_eq(reduce_runs(&r, m, (bool[]){true, false}, false, &out), 0, "%s", tl_errmsg());
    cr_assert_eq(r.len, 4);
    cr_assert_eq(r.stride[0], 0);
    cr_assert_eq(r.stride[1], 40);
    cr_assert_eq(r.outer.size, 5);
    cr_assert_eq(r.outer.bstrides[1][r.outer.ndim - 1], 8);
    tl_tensor_release(out);
    /* every axis of transpose(2,0,1) of (2,3,4): memory order makes one run of 24;
       argmin's C order cannot merge them and asks for a copy in C order */
    tl_tensor *t = view(a, 3, (int64_t[]){4, 2, 3}, (int64_t[]){1, 12, 4}, 0);
    cr_assert_eq(reduce_runs(&r, t, (bool[]){true, true, true}, false, &out), 0);
    cr_assert_eq(r.len, 24);
    cr_assert_eq(r.stride[1], 8);
    cr_assert_eq(r.outer.size, 1);
    tl_tensor_release(out);
    cr_assert_eq(reduce_runs(&r, t, (bool[]){true, true, true}, true, &out), 1);
    cr_assert_eq(r.perm[0], 0);
    cr_assert_eq(r.perm[2], 2);
    tl_tensor_release(out);
    /* axes 0 and 2 of a contiguous (2, 3, 4) are not adjacent: kept axis 1 first */
    tl_tensor *c = view(a, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, 0);
    cr_assert_eq(reduce_runs(&r, c, (bool[]){true, false, true}, false, &out), 1);
    cr_assert_eq(r.perm[0], 1);
    cr_assert_eq(r.perm[1], 0);
    cr_assert_eq(r.perm[2], 2);
    tl_tensor_release(out);
    /* size-1 reduced axes vanish; (3, 1, 4) over axes 1, 2 is runs of 4 */
    tl_tensor *s1 = view(a, 3, (int64_t[]){3, 1, 4}, (int64_t[]){4, 99, 1}, 0);
    cr_assert_eq(reduce_runs(&r, s1, (bool[]){false, true, true}, false, &out), 0);
    cr_assert_eq(r.len, 4);
    cr_assert_eq(r.stride[1], 8);
    cr_assert_eq(r.outer.size, 3);
    tl_tensor_release(out);
    tl_tensor *all[4] = { m, t, c, s1 };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
    tl_tensor_release(a);
}

Test(iter, runs_keep_a_reversed_run_reversed_and_handle_empty_and_deep_shapes)
{
    tl_tensor *a = arange_i64(1024), *out;
    char *d = tl_tensor_data(a);
    tl_iter_runs r;
    /* x[::-1]: the summation order is the view's order, so the run is not flipped */
    tl_tensor *rev = view(a, 1, (int64_t[]){5}, (int64_t[]){-1}, 4);
    cr_assert_eq(reduce_runs(&r, rev, (bool[]){true}, false, &out), 0);
    cr_assert_eq(r.len, 5);
    cr_assert_eq(r.stride[1], -8);
    cr_assert_eq(r.outer.base[1], d + 32);
    tl_tensor_release(out);
    /* an empty kept axis: nothing to walk */
    tl_tensor *e = view(a, 2, (int64_t[]){0, 3}, (int64_t[]){3, 1}, 0);
    cr_assert_eq(reduce_runs(&r, e, (bool[]){false, true}, false, &out), 0);
    cr_assert_eq(r.outer.size, 0);
    cr_assert_eq(r.len, 3);
    tl_tensor_release(out);
    /* ten axes of 2, the last five reduced: runs of 32 at 8 bytes, 32 of them 256 apart */
    int64_t shape[10], st[10];
    bool mask[10];
    for (int k = 0; k < 10; k++) { shape[k] = 2; st[k] = (int64_t)1 << (9 - k); mask[k] = k >= 5; }
    tl_tensor *deep = view(a, 10, shape, st, 0);
    cr_assert_eq(reduce_runs(&r, deep, mask, false, &out), 0);
    cr_assert_eq(r.len, 32);
    cr_assert_eq(r.stride[1], 8);
    cr_assert_eq(r.outer.ndim, 1);
    cr_assert_eq(r.outer.size, 32);
    cr_assert_eq(r.outer.bstrides[0][0], 8);
    cr_assert_eq(r.outer.bstrides[1][0], 256);
    tl_tensor_release(out);
    tl_tensor *all[3] = { rev, e, deep };
    for (int i = 0; i < 3; i++) tl_tensor_release(all[i]);
    tl_tensor_release(a);
}

/* ---- the planner's users: nn rows and matmul batches on strided views ---- */

/* n f32 values i * 0.37 - 5 (no two alike, some negative) in fresh storage. */
static tl_tensor *ramp_f32(int64_t n)
{
    tl_tensor *t = tl_tensor_empty(TL_F32, 1, &n);
    cr_assert_not_null(t);
    for (int64_t i = 0; i < n; i++) ((float *)tl_tensor_data(t))[i] = (float)i * 0.37f - 5.0f;
    return t;
}

/* Both results exist, have one shape and the same bytes; releases them. */
static void assert_same_bits(tl_tensor *x, tl_tensor *y, const char *what)
{
    cr_assert(x && y, "%s: %s", what, tl_errmsg());
    cr_assert_eq(x->ndim, y->ndim, "%s", what);
    int64_t n = tl_tensor_size(x);
    cr_assert_eq(n, tl_tensor_size(y), "%s", what);
    tl_tensor *cx = tl_copy(x), *cy = tl_copy(y);
    cr_assert(memcmp(tl_tensor_data(cx), tl_tensor_data(cy), (size_t)n * tl_dtype_size(x->dtype)) == 0, "%s", what);
    tl_tensor *all[4] = { x, y, cx, cy };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
}

Test(iter_users, nn_rows_of_a_strided_view_match_its_contiguous_copy)
{
    tl_tensor *buf = ramp_f32(60);
    /* (3, 4, 5)[::-1, 1:, 1:4]: unit-stride rows of 3 read in place, outer strides -20 and 5 */
    tl_tensor *v = view(buf, 3, (int64_t[]){3, 3, 3}, (int64_t[]){-20, 5, 1}, 46);
    tl_tensor *c = tl_copy(v);
    tl_tensor *w = view(buf, 1, (int64_t[]){3}, (int64_t[]){7}, 2);   /* a strided weight */
    assert_same_bits(tl_softmax(v, -1, false), tl_softmax(c, -1, false), "softmax");
    assert_same_bits(tl_softmax(v, 0, true), tl_softmax(c, 0, true), "log_softmax over axis 0");
    assert_same_bits(tl_layer_norm(v, w, w, 1e-5), tl_layer_norm(c, w, w, 1e-5), "layer_norm");
    assert_same_bits(tl_rms_norm(v, NULL, 1e-6), tl_rms_norm(c, NULL, 1e-6), "rms_norm");
    tl_tensor *all[4] = { v, c, w, buf };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
}

Test(iter_users, matmul_walks_broadcast_and_reversed_batches)
{
    tl_tensor *buf = ramp_f32(512);
    /* a (3, 1, 2, 4) and b (4, 4, 2) reversed along its batch axis: out (3, 4, 2, 2) */
    tl_tensor *a = view(buf, 4, (int64_t[]){3, 1, 2, 4}, (int64_t[]){8, 8, 4, 1}, 0);
    tl_tensor *b = view(buf, 3, (int64_t[]){4, 4, 2}, (int64_t[]){-8, 2, 1}, 100);
    tl_tensor *out = tl_matmul(a, b);
    cr_assert_not_null(out, "%s", tl_errmsg());
    cr_assert_eq(out->ndim, 4);
    cr_assert_eq(out->shape[0], 3);
    cr_assert_eq(out->shape[1], 4);
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++) {
            tl_tensor *ai = view(buf, 2, (int64_t[]){2, 4}, (int64_t[]){4, 1}, 8 * i);
            tl_tensor *bj = view(buf, 2, (int64_t[]){4, 2}, (int64_t[]){2, 1}, 100 - 8 * j);
            tl_tensor *oij = tl_tensor_view_of(out->storage, TL_F32, 2, (int64_t[]){2, 2}, (int64_t[]){2, 1},
                                               out->offset + 16 * i + 4 * j);
            assert_same_bits(tl_matmul(ai, bj), oij, "one batch entry");    /* releases both */
            tl_tensor_release(ai);
            tl_tensor_release(bj);
        }
    tl_tensor *all[4] = { a, b, out, buf };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
}

/* ---- tensor.c ------------------------------------------------------------ */

Test(tensor, contiguity_follows_numpy_relaxed_rules)
{
    tl_tensor *a = arange_i64(24);
    struct { int nd; int64_t shape[3], strides[3]; bool contiguous; } cases[] = {
        {3, {2, 3, 4}, {12, 4, 1}, true},
        {3, {4, 2, 3}, {1, 12, 4}, false},      /* transposed */
        {3, {2, 3, 3}, {12, 4, 1}, false},      /* [:, :, :3] */
        {3, {3, 1, 4}, {4, 999, 1}, true},      /* size-1 axis with any stride */
        {1, {1, 0, 0}, {16, 0, 0}, true},
        {2, {3, 0, 0}, {5, 7, 0}, true},        /* empty */
        {2, {2, 4}, {12, 1}, false},
        {1, {4, 0, 0}, {2, 0, 0}, false},
        {0, {0}, {0}, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tl_tensor t = *a;
        t.ndim = cases[i].nd;
        memcpy(t.shape, cases[i].shape, sizeof cases[i].shape);
        memcpy(t.strides, cases[i].strides, sizeof cases[i].strides);
        cr_assert_eq(tl_is_contiguous(&t), cases[i].contiguous, "case %zu", i);
    }
    tl_tensor_release(a);
}

Test(tensor, fresh_tensor_strides_match_numpy)
{
    int64_t s[3];
    tl_contiguous_strides(3, (int64_t[]){2, 1, 3}, s);
    cr_assert(s[0] == 3 && s[1] == 3 && s[2] == 1);
    /* zero dims count as 1: np.empty(0).reshape(2, 0, 3).strides == (24, 24, 8) (a fresh np.zeros
       has (0, 0, 0) since numpy 1.23; tl keeps 0 for broadcast axes, docs/language.md) */
    tl_contiguous_strides(3, (int64_t[]){2, 0, 3}, s);
    cr_assert(s[0] == 3 && s[1] == 3 && s[2] == 1);
}

Test(tensor, llama_embedding_bf16_strides)
{
    /* a (128256, 4096) bf16 tensor: element strides (4096, 1), byte strides (8192, 2) */
    tl_storage *s = tl_storage_new(2, true);
    int64_t shape[2] = {128256, 4096}, strides[2] = {0, 0};
    tl_contiguous_strides(2, shape, strides);
    cr_assert_eq(strides[0], 4096);
    cr_assert_eq(strides[1], 1);
    cr_assert_eq(strides[0] * (int64_t)tl_dtype_size(TL_BF16), 8192);
    /* the arithmetic, over one element of storage with stride 0 (a broadcast view) */
    tl_tensor *t = tl_tensor_view_of(s, TL_BF16, 2, shape, (int64_t[]){0, 0}, 0);
    cr_assert_not_null(t, "%s", tl_errmsg());
    cr_assert(t->readonly);
    cr_assert_eq(tl_tensor_size(t), (int64_t)128256 * 4096);
    tl_tensor_release(t);
    /* the real strides address past a 2-byte storage: refused */
    cr_assert_null(tl_tensor_view_of(s, TL_BF16, 2, shape, strides, 0));
    tl_storage_release(s);
}

Test(tensor, shape_product_overflow_is_an_error)
{
    int64_t n;
    int64_t big[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 0};
    cr_assert_eq(tl_shape_size(3, big, &n), -1);
    cr_assert_eq(tl_shape_size(2, (int64_t[]){-1, 3}, &n), -1);
    cr_assert_str_eq(tl_errmsg(), "negative dimensions are not allowed");
    cr_assert_eq(tl_shape_size(2, (int64_t[]){7, 3}, &n), 0);
    cr_assert_eq(n, 21);
    cr_assert_null(tl_tensor_empty(TL_F64, 2, (int64_t[]){INT64_C(1) << 31, INT64_C(1) << 31}));
    cr_assert_null(tl_tensor_empty(TL_U8, 2, (int64_t[]){INT64_C(1) << 62, 4}));
}

Test(tensor, view_bounds_are_checked_with_negative_strides)
{
    tl_tensor *a = arange_i64(10);
    tl_tensor *v = tl_tensor_view_of(a->storage, TL_I64, 1, (int64_t[]){10}, (int64_t[]){-1}, 9);
    cr_assert_not_null(v);
    cr_assert_eq(*(int64_t *)tl_tensor_at(v, (int64_t[]){0}), 9);
    cr_assert_eq(*(int64_t *)tl_tensor_at(v, (int64_t[]){9}), 0);
    tl_tensor_release(v);
    cr_assert_null(tl_tensor_view_of(a->storage, TL_I64, 1, (int64_t[]){10}, (int64_t[]){-1}, 8));
    cr_assert_null(tl_tensor_view_of(a->storage, TL_I64, 1, (int64_t[]){6}, (int64_t[]){2}, 0));
    cr_assert_null(tl_tensor_view_of(a->storage, TL_I64, 1, (int64_t[]){2}, (int64_t[]){INT64_MAX}, 0));
    tl_tensor_release(a);
}

Test(tensor, shape_str_axis_and_broadcast_messages)
{
    char buf[64];
    cr_assert_str_eq(tl_shape_str(2, (int64_t[]){3, 4}, buf, sizeof buf), "(3, 4)");
    cr_assert_str_eq(tl_shape_str(1, (int64_t[]){5}, buf, sizeof buf), "(5,)");
    cr_assert_str_eq(tl_shape_str(0, NULL, buf, sizeof buf), "()");
    int ax;
    cr_assert_eq(tl_normalize_axis(-1, 2, &ax), 0);
    cr_assert_eq(ax, 1);
    cr_assert_eq(tl_normalize_axis(3, 2, &ax), -1);
    cr_assert_str_eq(tl_errmsg(), "axis 3 is out of bounds for array of dimension 2");
    int n;
    int64_t out[TL_MAXDIM];
    cr_assert_eq(tl_broadcast_shapes(2, (int64_t[]){3, 4}, 1, (int64_t[]){5}, &n, out), -1);
    cr_assert_str_eq(tl_errmsg(), "cannot broadcast shapes (3, 4) and (5,)\n(3, 4)\n   (5,)\n    ^ axis -1: 4 vs 5 (sizes must be equal, or one of them 1)");
    cr_assert_eq(tl_broadcast_shapes(2, (int64_t[]){3, 1}, 3, (int64_t[]){2, 1, 4}, &n, out), 0);
    cr_assert(n == 3 && out[0] == 2 && out[1] == 3 && out[2] == 4);
}

Test(tensor, storage_is_aligned_and_named)
{
    tl_storage *s = tl_storage_new(100, true);
    cr_assert_eq((uintptr_t)s->data % 64, 0);
    char name[80];
    cr_assert_eq(strncmp(tl_storage_name(s, name, sizeof name), "heap#", 5), 0);
    for (int i = 0; i < 100; i++) cr_assert_eq(((unsigned char *)s->data)[i], 0);
    tl_storage_release(s);
}
