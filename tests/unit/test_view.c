/* test_view.c — zero-copy views: geometry, composition, reshape rules, overlap */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(view);

/* An i64 tensor whose every element holds its own flat index. */
static tl_tensor *iota(int ndim, const int64_t *shape)
{
    tl_tensor *t = tl_tensor_empty(TL_I64, ndim, shape);
    cr_assert(t, "%s", tl_errmsg());
    int64_t n = tl_tensor_size(t);
    for (int64_t i = 0; i < n; i++) ((int64_t *)tl_tensor_data(t))[i] = i;
    return t;
}

/* All elements of an i64 tensor in C order. */
static int64_t values(const tl_tensor *t, int64_t *out, int64_t cap)
{
    int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(t);
    cr_assert(n <= cap);
    for (int64_t i = 0; i < n; i++) {
        out[i] = *(int64_t *)tl_tensor_at(t, idx);
        for (int k = t->ndim - 1; k >= 0; k--) {
            if (++idx[k] < t->shape[k]) break;
            idx[k] = 0;
        }
    }
    return n;
}

static void expect_geometry(const tl_tensor *t, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_eq(t->ndim, ndim);
    for (int k = 0; k < ndim; k++) {
        cr_assert_eq(t->shape[k], shape[k], "shape[%d] = %lld, want %lld", k, (long long)t->shape[k], (long long)shape[k]);
        cr_assert_eq(t->strides[k], strides[k], "strides[%d] = %lld, want %lld", k, (long long)t->strides[k], (long long)strides[k]);
    }
    cr_assert_eq(t->offset, offset, "offset %lld, want %lld", (long long)t->offset, (long long)offset);
}

/* The first n elements in C order. */
static void expect_values(const tl_tensor *t, int n, const int64_t *want)
{
    int64_t got[4096];
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_geq(values(t, got, 4096), n);
    for (int i = 0; i < n; i++) cr_assert_eq(got[i], want[i], "element %d: %lld, want %lld", i, (long long)got[i], (long long)want[i]);
}

static tl_tensor *slice(tl_tensor *t, int axis, int64_t start, int64_t stop, int64_t step)
{
    tl_tensor *v = tl_view_slice(t, axis, start, stop, step, true, true);
    cr_assert(v, "%s", tl_errmsg());
    return v;
}

#define SLICE_ALL(t, axis, step) tl_view_slice((t), (axis), 0, 0, (step), false, false)
#define I64S(...) ((const int64_t[]){ __VA_ARGS__ })

Test(view, contiguous_strides_and_flat_index)
{
    tl_tensor *a = iota(3, I64S(2, 3, 4));
    expect_geometry(a, 3, I64S(2, 3, 4), I64S(12, 4, 1), 0);
    cr_assert_eq(*(int64_t *)tl_tensor_at(a, I64S(1, 2, 3)), 23);
    tl_tensor *b = iota(3, I64S(3, 5, 4));
    cr_assert_eq(*(int64_t *)tl_tensor_at(b, I64S(2, 0, 0)), 40);
    tl_tensor_release(a);
    tl_tensor_release(b);
}

Test(view, index_middle_axis_of_2_5_6)
{
    tl_tensor *a = iota(3, I64S(2, 5, 6));
    tl_tensor *v = tl_view_index(a, 1, 4);   /* a[:, 4, :] */
    expect_geometry(v, 2, I64S(2, 6), I64S(30, 1), 24);
    cr_assert_eq(v->storage, a->storage);
    cr_assert_eq(*(int64_t *)tl_tensor_at(v, I64S(1, 5)), 59);
    tl_tensor_release(v);
    v = tl_view_index(a, 1, -1);
    expect_geometry(v, 2, I64S(2, 6), I64S(30, 1), 24);
    tl_tensor_release(v);
    tl_tensor_release(a);
}

Test(view, index_out_of_range_names_index_axis_size)
{
    tl_tensor *a = iota(2, I64S(3, 4));
    cr_assert_null(tl_view_index(a, 1, 7));
    cr_assert_str_eq(tl_errmsg(), "index 7 is out of bounds for axis 1 with size 4");
    cr_assert_null(tl_view_index(a, 0, -4));
    cr_assert_str_eq(tl_errmsg(), "index -4 is out of bounds for axis 0 with size 3");
    tl_tensor_release(a);
}

/* numpy: a = arange(120).reshape(4,5,6); chains of slices with negative steps. */
Test(view, slice_chain_matches_numpy)
{
    tl_tensor *a = iota(3, I64S(4, 5, 6));
    tl_tensor *v1 = slice(a, 0, 1, 4, 1);             /* a[1:4, ::-2, 2:] */
    tl_tensor *v2 = SLICE_ALL(v1, 1, -2);
    tl_tensor *v3 = tl_view_slice(v2, 2, 2, 0, 1, true, false);
    expect_geometry(v3, 3, I64S(3, 3, 4), I64S(30, -12, 1), 56);
    expect_values(v3, 8, I64S(56, 57, 58, 59, 44, 45, 46, 47));
    tl_tensor *v4 = SLICE_ALL(v3, 0, -1);             /* [::-1, :, ::2] */
    tl_tensor *v5 = SLICE_ALL(v4, 2, 2);
    expect_geometry(v5, 3, I64S(3, 3, 2), I64S(-30, -12, 2), 116);
    expect_values(v5, 8, I64S(116, 118, 104, 106, 92, 94, 86, 88));
    tl_tensor *v6 = tl_view_slice(v5, 0, 1, 0, 1, true, false);   /* [1:, 0] */
    tl_tensor *v7 = tl_view_index(v6, 1, 0);
    expect_geometry(v7, 2, I64S(2, 2), I64S(-30, 2), 86);
    expect_values(v7, 4, I64S(86, 88, 56, 58));
    tl_tensor *ts[] = { v1, v2, v3, v4, v5, v6, v7 };
    for (int i = 0; i < 7; i++) tl_tensor_release(ts[i]);

    /* a[:, ::-1, ::-1][::2, 1:4][:, ::-2, 3] */
    tl_tensor *w1 = SLICE_ALL(a, 1, -1), *w2 = SLICE_ALL(w1, 2, -1);
    tl_tensor *w3 = SLICE_ALL(w2, 0, 2), *w4 = slice(w3, 1, 1, 4, 1);
    tl_tensor *w5 = SLICE_ALL(w4, 1, -2), *w6 = tl_view_index(w5, 2, 3);
    expect_geometry(w6, 2, I64S(2, 2), I64S(60, 12), 8);
    expect_values(w6, 4, I64S(8, 20, 68, 80));
    tl_tensor *ws[] = { w1, w2, w3, w4, w5, w6 };
    for (int i = 0; i < 6; i++) tl_tensor_release(ws[i]);
    tl_tensor_release(a);
}

/* b = arange(12).reshape(3,4).swapaxes(0,1): strides (1,4); b[1:3, 1:]. */
Test(view, swapped_strides_then_subtensor)
{
    tl_tensor *a = iota(2, I64S(3, 4));
    tl_tensor *s = tl_view_swapaxes(a, 0, 1);
    expect_geometry(s, 2, I64S(4, 3), I64S(1, 4), 0);
    tl_tensor *r = slice(s, 0, 1, 3, 1), *c = slice(r, 1, 1, 3, 1);
    expect_geometry(c, 2, I64S(2, 2), I64S(1, 4), 5);
    expect_values(c, 4, I64S(5, 9, 6, 10));
    tl_tensor_release(c);
    tl_tensor_release(r);
    tl_tensor_release(s);
    tl_tensor_release(a);
}

/* Rows from tests/tools/gen_view_cases.py: {n, has_start, start, has_stop, stop, step, len, first}. */
static const int64_t slice_cases[][8] = {
    {0,0,0,0,0,-2,0,-1}, {0,0,0,0,0,-1,0,-1}, {0,0,0,0,0,1,0,-1}, {0,0,0,0,0,3,0,-1}, {0,0,0,1,-7,-2,0,-1}, {0,0,0,1,-7,-1,0,-1},
    {0,0,0,1,-7,1,0,-1}, {0,0,0,1,-7,3,0,-1}, {0,0,0,1,-1,-2,0,-1}, {0,0,0,1,-1,-1,0,-1}, {0,0,0,1,-1,1,0,-1}, {0,0,0,1,-1,3,0,-1},
    {0,0,0,1,0,-2,0,-1}, {0,0,0,1,0,-1,0,-1}, {0,0,0,1,0,1,0,-1}, {0,0,0,1,0,3,0,-1}, {0,0,0,1,2,-2,0,-1}, {0,0,0,1,2,-1,0,-1},
    {0,0,0,1,2,1,0,-1}, {0,0,0,1,2,3,0,-1}, {0,0,0,1,5,-2,0,-1}, {0,0,0,1,5,-1,0,-1}, {0,0,0,1,5,1,0,-1}, {0,0,0,1,5,3,0,-1},
    {0,0,0,1,7,-2,0,-1}, {0,0,0,1,7,-1,0,-1}, {0,0,0,1,7,1,0,-1}, {0,0,0,1,7,3,0,-1}, {0,1,-7,0,0,-2,0,-1}, {0,1,-7,0,0,-1,0,-1},
    {0,1,-7,0,0,1,0,-1}, {0,1,-7,0,0,3,0,-1}, {0,1,-7,1,-7,-2,0,-1}, {0,1,-7,1,-7,-1,0,-1}, {0,1,-7,1,-7,1,0,-1}, {0,1,-7,1,-7,3,0,-1},
    {0,1,-7,1,-1,-2,0,-1}, {0,1,-7,1,-1,-1,0,-1}, {0,1,-7,1,-1,1,0,-1}, {0,1,-7,1,-1,3,0,-1}, {0,1,-7,1,0,-2,0,-1}, {0,1,-7,1,0,-1,0,-1},
    {0,1,-7,1,0,1,0,-1}, {0,1,-7,1,0,3,0,-1}, {0,1,-7,1,2,-2,0,-1}, {0,1,-7,1,2,-1,0,-1}, {0,1,-7,1,2,1,0,-1}, {0,1,-7,1,2,3,0,-1},
    {0,1,-7,1,5,-2,0,-1}, {0,1,-7,1,5,-1,0,-1}, {0,1,-7,1,5,1,0,-1}, {0,1,-7,1,5,3,0,-1}, {0,1,-7,1,7,-2,0,-1}, {0,1,-7,1,7,-1,0,-1},
    {0,1,-7,1,7,1,0,-1}, {0,1,-7,1,7,3,0,-1}, {0,1,-1,0,0,-2,0,-1}, {0,1,-1,0,0,-1,0,-1}, {0,1,-1,0,0,1,0,-1}, {0,1,-1,0,0,3,0,-1},
    {0,1,-1,1,-7,-2,0,-1}, {0,1,-1,1,-7,-1,0,-1}, {0,1,-1,1,-7,1,0,-1}, {0,1,-1,1,-7,3,0,-1}, {0,1,-1,1,-1,-2,0,-1}, {0,1,-1,1,-1,-1,0,-1},
    {0,1,-1,1,-1,1,0,-1}, {0,1,-1,1,-1,3,0,-1}, {0,1,-1,1,0,-2,0,-1}, {0,1,-1,1,0,-1,0,-1}, {0,1,-1,1,0,1,0,-1}, {0,1,-1,1,0,3,0,-1},
    {0,1,-1,1,2,-2,0,-1}, {0,1,-1,1,2,-1,0,-1}, {0,1,-1,1,2,1,0,-1}, {0,1,-1,1,2,3,0,-1}, {0,1,-1,1,5,-2,0,-1}, {0,1,-1,1,5,-1,0,-1},
    {0,1,-1,1,5,1,0,-1}, {0,1,-1,1,5,3,0,-1}, {0,1,-1,1,7,-2,0,-1}, {0,1,-1,1,7,-1,0,-1}, {0,1,-1,1,7,1,0,-1}, {0,1,-1,1,7,3,0,-1},
    {0,1,0,0,0,-2,0,-1}, {0,1,0,0,0,-1,0,-1}, {0,1,0,0,0,1,0,-1}, {0,1,0,0,0,3,0,-1}, {0,1,0,1,-7,-2,0,-1}, {0,1,0,1,-7,-1,0,-1},
    {0,1,0,1,-7,1,0,-1}, {0,1,0,1,-7,3,0,-1}, {0,1,0,1,-1,-2,0,-1}, {0,1,0,1,-1,-1,0,-1}, {0,1,0,1,-1,1,0,-1}, {0,1,0,1,-1,3,0,-1},
    {0,1,0,1,0,-2,0,-1}, {0,1,0,1,0,-1,0,-1}, {0,1,0,1,0,1,0,-1}, {0,1,0,1,0,3,0,-1}, {0,1,0,1,2,-2,0,-1}, {0,1,0,1,2,-1,0,-1},
    {0,1,0,1,2,1,0,-1}, {0,1,0,1,2,3,0,-1}, {0,1,0,1,5,-2,0,-1}, {0,1,0,1,5,-1,0,-1}, {0,1,0,1,5,1,0,-1}, {0,1,0,1,5,3,0,-1},
    {0,1,0,1,7,-2,0,-1}, {0,1,0,1,7,-1,0,-1}, {0,1,0,1,7,1,0,-1}, {0,1,0,1,7,3,0,-1}, {0,1,2,0,0,-2,0,-1}, {0,1,2,0,0,-1,0,-1},
    {0,1,2,0,0,1,0,-1}, {0,1,2,0,0,3,0,-1}, {0,1,2,1,-7,-2,0,-1}, {0,1,2,1,-7,-1,0,-1}, {0,1,2,1,-7,1,0,-1}, {0,1,2,1,-7,3,0,-1},
    {0,1,2,1,-1,-2,0,-1}, {0,1,2,1,-1,-1,0,-1}, {0,1,2,1,-1,1,0,-1}, {0,1,2,1,-1,3,0,-1}, {0,1,2,1,0,-2,0,-1}, {0,1,2,1,0,-1,0,-1},
    {0,1,2,1,0,1,0,-1}, {0,1,2,1,0,3,0,-1}, {0,1,2,1,2,-2,0,-1}, {0,1,2,1,2,-1,0,-1}, {0,1,2,1,2,1,0,-1}, {0,1,2,1,2,3,0,-1},
    {0,1,2,1,5,-2,0,-1}, {0,1,2,1,5,-1,0,-1}, {0,1,2,1,5,1,0,-1}, {0,1,2,1,5,3,0,-1}, {0,1,2,1,7,-2,0,-1}, {0,1,2,1,7,-1,0,-1},
    {0,1,2,1,7,1,0,-1}, {0,1,2,1,7,3,0,-1}, {0,1,5,0,0,-2,0,-1}, {0,1,5,0,0,-1,0,-1}, {0,1,5,0,0,1,0,-1}, {0,1,5,0,0,3,0,-1},
    {0,1,5,1,-7,-2,0,-1}, {0,1,5,1,-7,-1,0,-1}, {0,1,5,1,-7,1,0,-1}, {0,1,5,1,-7,3,0,-1}, {0,1,5,1,-1,-2,0,-1}, {0,1,5,1,-1,-1,0,-1},
    {0,1,5,1,-1,1,0,-1}, {0,1,5,1,-1,3,0,-1}, {0,1,5,1,0,-2,0,-1}, {0,1,5,1,0,-1,0,-1}, {0,1,5,1,0,1,0,-1}, {0,1,5,1,0,3,0,-1},
    {0,1,5,1,2,-2,0,-1}, {0,1,5,1,2,-1,0,-1}, {0,1,5,1,2,1,0,-1}, {0,1,5,1,2,3,0,-1}, {0,1,5,1,5,-2,0,-1}, {0,1,5,1,5,-1,0,-1},
    {0,1,5,1,5,1,0,-1}, {0,1,5,1,5,3,0,-1}, {0,1,5,1,7,-2,0,-1}, {0,1,5,1,7,-1,0,-1}, {0,1,5,1,7,1,0,-1}, {0,1,5,1,7,3,0,-1},
    {0,1,7,0,0,-2,0,-1}, {0,1,7,0,0,-1,0,-1}, {0,1,7,0,0,1,0,-1}, {0,1,7,0,0,3,0,-1}, {0,1,7,1,-7,-2,0,-1}, {0,1,7,1,-7,-1,0,-1},
    {0,1,7,1,-7,1,0,-1}, {0,1,7,1,-7,3,0,-1}, {0,1,7,1,-1,-2,0,-1}, {0,1,7,1,-1,-1,0,-1}, {0,1,7,1,-1,1,0,-1}, {0,1,7,1,-1,3,0,-1},
    {0,1,7,1,0,-2,0,-1}, {0,1,7,1,0,-1,0,-1}, {0,1,7,1,0,1,0,-1}, {0,1,7,1,0,3,0,-1}, {0,1,7,1,2,-2,0,-1}, {0,1,7,1,2,-1,0,-1},
    {0,1,7,1,2,1,0,-1}, {0,1,7,1,2,3,0,-1}, {0,1,7,1,5,-2,0,-1}, {0,1,7,1,5,-1,0,-1}, {0,1,7,1,5,1,0,-1}, {0,1,7,1,5,3,0,-1},
    {0,1,7,1,7,-2,0,-1}, {0,1,7,1,7,-1,0,-1}, {0,1,7,1,7,1,0,-1}, {0,1,7,1,7,3,0,-1}, {5,0,0,0,0,-2,3,4}, {5,0,0,0,0,-1,5,4},
    {5,0,0,0,0,1,5,0}, {5,0,0,0,0,3,2,0}, {5,0,0,1,-7,-2,3,4}, {5,0,0,1,-7,-1,5,4}, {5,0,0,1,-7,1,0,-1}, {5,0,0,1,-7,3,0,-1},
    {5,0,0,1,-1,-2,0,-1}, {5,0,0,1,-1,-1,0,-1}, {5,0,0,1,-1,1,4,0}, {5,0,0,1,-1,3,2,0}, {5,0,0,1,0,-2,2,4}, {5,0,0,1,0,-1,4,4},
    {5,0,0,1,0,1,0,-1}, {5,0,0,1,0,3,0,-1}, {5,0,0,1,2,-2,1,4}, {5,0,0,1,2,-1,2,4}, {5,0,0,1,2,1,2,0}, {5,0,0,1,2,3,1,0},
    {5,0,0,1,5,-2,0,-1}, {5,0,0,1,5,-1,0,-1}, {5,0,0,1,5,1,5,0}, {5,0,0,1,5,3,2,0}, {5,0,0,1,7,-2,0,-1}, {5,0,0,1,7,-1,0,-1},
    {5,0,0,1,7,1,5,0}, {5,0,0,1,7,3,2,0}, {5,1,-7,0,0,-2,0,-1}, {5,1,-7,0,0,-1,0,-1}, {5,1,-7,0,0,1,5,0}, {5,1,-7,0,0,3,2,0},
    {5,1,-7,1,-7,-2,0,-1}, {5,1,-7,1,-7,-1,0,-1}, {5,1,-7,1,-7,1,0,-1}, {5,1,-7,1,-7,3,0,-1}, {5,1,-7,1,-1,-2,0,-1}, {5,1,-7,1,-1,-1,0,-1},
    {5,1,-7,1,-1,1,4,0}, {5,1,-7,1,-1,3,2,0}, {5,1,-7,1,0,-2,0,-1}, {5,1,-7,1,0,-1,0,-1}, {5,1,-7,1,0,1,0,-1}, {5,1,-7,1,0,3,0,-1},
    {5,1,-7,1,2,-2,0,-1}, {5,1,-7,1,2,-1,0,-1}, {5,1,-7,1,2,1,2,0}, {5,1,-7,1,2,3,1,0}, {5,1,-7,1,5,-2,0,-1}, {5,1,-7,1,5,-1,0,-1},
    {5,1,-7,1,5,1,5,0}, {5,1,-7,1,5,3,2,0}, {5,1,-7,1,7,-2,0,-1}, {5,1,-7,1,7,-1,0,-1}, {5,1,-7,1,7,1,5,0}, {5,1,-7,1,7,3,2,0},
    {5,1,-1,0,0,-2,3,4}, {5,1,-1,0,0,-1,5,4}, {5,1,-1,0,0,1,1,4}, {5,1,-1,0,0,3,1,4}, {5,1,-1,1,-7,-2,3,4}, {5,1,-1,1,-7,-1,5,4},
    {5,1,-1,1,-7,1,0,-1}, {5,1,-1,1,-7,3,0,-1}, {5,1,-1,1,-1,-2,0,-1}, {5,1,-1,1,-1,-1,0,-1}, {5,1,-1,1,-1,1,0,-1}, {5,1,-1,1,-1,3,0,-1},
    {5,1,-1,1,0,-2,2,4}, {5,1,-1,1,0,-1,4,4}, {5,1,-1,1,0,1,0,-1}, {5,1,-1,1,0,3,0,-1}, {5,1,-1,1,2,-2,1,4}, {5,1,-1,1,2,-1,2,4},
    {5,1,-1,1,2,1,0,-1}, {5,1,-1,1,2,3,0,-1}, {5,1,-1,1,5,-2,0,-1}, {5,1,-1,1,5,-1,0,-1}, {5,1,-1,1,5,1,1,4}, {5,1,-1,1,5,3,1,4},
    {5,1,-1,1,7,-2,0,-1}, {5,1,-1,1,7,-1,0,-1}, {5,1,-1,1,7,1,1,4}, {5,1,-1,1,7,3,1,4}, {5,1,0,0,0,-2,1,0}, {5,1,0,0,0,-1,1,0},
    {5,1,0,0,0,1,5,0}, {5,1,0,0,0,3,2,0}, {5,1,0,1,-7,-2,1,0}, {5,1,0,1,-7,-1,1,0}, {5,1,0,1,-7,1,0,-1}, {5,1,0,1,-7,3,0,-1},
    {5,1,0,1,-1,-2,0,-1}, {5,1,0,1,-1,-1,0,-1}, {5,1,0,1,-1,1,4,0}, {5,1,0,1,-1,3,2,0}, {5,1,0,1,0,-2,0,-1}, {5,1,0,1,0,-1,0,-1},
    {5,1,0,1,0,1,0,-1}, {5,1,0,1,0,3,0,-1}, {5,1,0,1,2,-2,0,-1}, {5,1,0,1,2,-1,0,-1}, {5,1,0,1,2,1,2,0}, {5,1,0,1,2,3,1,0},
    {5,1,0,1,5,-2,0,-1}, {5,1,0,1,5,-1,0,-1}, {5,1,0,1,5,1,5,0}, {5,1,0,1,5,3,2,0}, {5,1,0,1,7,-2,0,-1}, {5,1,0,1,7,-1,0,-1},
    {5,1,0,1,7,1,5,0}, {5,1,0,1,7,3,2,0}, {5,1,2,0,0,-2,2,2}, {5,1,2,0,0,-1,3,2}, {5,1,2,0,0,1,3,2}, {5,1,2,0,0,3,1,2},
    {5,1,2,1,-7,-2,2,2}, {5,1,2,1,-7,-1,3,2}, {5,1,2,1,-7,1,0,-1}, {5,1,2,1,-7,3,0,-1}, {5,1,2,1,-1,-2,0,-1}, {5,1,2,1,-1,-1,0,-1},
    {5,1,2,1,-1,1,2,2}, {5,1,2,1,-1,3,1,2}, {5,1,2,1,0,-2,1,2}, {5,1,2,1,0,-1,2,2}, {5,1,2,1,0,1,0,-1}, {5,1,2,1,0,3,0,-1},
    {5,1,2,1,2,-2,0,-1}, {5,1,2,1,2,-1,0,-1}, {5,1,2,1,2,1,0,-1}, {5,1,2,1,2,3,0,-1}, {5,1,2,1,5,-2,0,-1}, {5,1,2,1,5,-1,0,-1},
    {5,1,2,1,5,1,3,2}, {5,1,2,1,5,3,1,2}, {5,1,2,1,7,-2,0,-1}, {5,1,2,1,7,-1,0,-1}, {5,1,2,1,7,1,3,2}, {5,1,2,1,7,3,1,2},
    {5,1,5,0,0,-2,3,4}, {5,1,5,0,0,-1,5,4}, {5,1,5,0,0,1,0,-1}, {5,1,5,0,0,3,0,-1}, {5,1,5,1,-7,-2,3,4}, {5,1,5,1,-7,-1,5,4},
    {5,1,5,1,-7,1,0,-1}, {5,1,5,1,-7,3,0,-1}, {5,1,5,1,-1,-2,0,-1}, {5,1,5,1,-1,-1,0,-1}, {5,1,5,1,-1,1,0,-1}, {5,1,5,1,-1,3,0,-1},
    {5,1,5,1,0,-2,2,4}, {5,1,5,1,0,-1,4,4}, {5,1,5,1,0,1,0,-1}, {5,1,5,1,0,3,0,-1}, {5,1,5,1,2,-2,1,4}, {5,1,5,1,2,-1,2,4},
    {5,1,5,1,2,1,0,-1}, {5,1,5,1,2,3,0,-1}, {5,1,5,1,5,-2,0,-1}, {5,1,5,1,5,-1,0,-1}, {5,1,5,1,5,1,0,-1}, {5,1,5,1,5,3,0,-1},
    {5,1,5,1,7,-2,0,-1}, {5,1,5,1,7,-1,0,-1}, {5,1,5,1,7,1,0,-1}, {5,1,5,1,7,3,0,-1}, {5,1,7,0,0,-2,3,4}, {5,1,7,0,0,-1,5,4},
    {5,1,7,0,0,1,0,-1}, {5,1,7,0,0,3,0,-1}, {5,1,7,1,-7,-2,3,4}, {5,1,7,1,-7,-1,5,4}, {5,1,7,1,-7,1,0,-1}, {5,1,7,1,-7,3,0,-1},
    {5,1,7,1,-1,-2,0,-1}, {5,1,7,1,-1,-1,0,-1}, {5,1,7,1,-1,1,0,-1}, {5,1,7,1,-1,3,0,-1}, {5,1,7,1,0,-2,2,4}, {5,1,7,1,0,-1,4,4},
    {5,1,7,1,0,1,0,-1}, {5,1,7,1,0,3,0,-1}, {5,1,7,1,2,-2,1,4}, {5,1,7,1,2,-1,2,4}, {5,1,7,1,2,1,0,-1}, {5,1,7,1,2,3,0,-1},
    {5,1,7,1,5,-2,0,-1}, {5,1,7,1,5,-1,0,-1}, {5,1,7,1,5,1,0,-1}, {5,1,7,1,5,3,0,-1}, {5,1,7,1,7,-2,0,-1}, {5,1,7,1,7,-1,0,-1},
    {5,1,7,1,7,1,0,-1}, {5,1,7,1,7,3,0,-1},
};

Test(view, slice_clamping_matches_python)
{
    for (size_t r = 0; r < sizeof slice_cases / sizeof *slice_cases; r++) {
        const int64_t *c = slice_cases[r];
        tl_tensor *a = iota(1, I64S(c[0]));
        tl_tensor *v = tl_view_slice(a, 0, c[2], c[4], c[5], c[1], c[3]);
        cr_assert(v, "%s", tl_errmsg());
        cr_assert_eq(v->shape[0], c[6], "row %zu: length %lld, want %lld", r, (long long)v->shape[0], (long long)c[6]);
        /* an empty slice has step 1, as numpy's (the step Python's slice.indices() returns is unused) */
        int64_t stride = c[6] > 0 ? c[5] : 1;
        if (c[0] > 0) cr_assert_eq(v->strides[0], stride, "row %zu: stride %lld", r, (long long)v->strides[0]);
        if (c[6] > 0) cr_assert_eq(*(int64_t *)tl_tensor_data(v), c[7], "row %zu: first element", r);
        tl_tensor_release(v);
        tl_tensor_release(a);
    }
}

Test(view, slice_step_zero_is_an_error)
{
    tl_tensor *a = iota(1, I64S(5));
    cr_assert_null(tl_view_slice(a, 0, 0, 5, 0, true, true));
    cr_assert_str_eq(tl_errmsg(), "slice step cannot be zero");
    tl_tensor *v = tl_view_slice(a, 0, 0, 0, INT64_MIN, false, false);   /* clamps like Python */
    cr_assert(v, "%s", tl_errmsg());
    expect_values(v, 1, I64S(4));
    tl_tensor_release(v);
    tl_tensor_release(a);
}

/* ---- random view chains against a per-axis address model ---------------- */

typedef struct model {
    int ndim;
    int64_t base;                 /* flat offset from axes removed by integer indexing */
    int64_t shape[8];
    int64_t contrib[8][16];       /* flat offset contributed by index i along axis k */
} model;

static void model_drop(model *m, int axis)
{
    for (int k = axis; k < m->ndim - 1; k++) {
        m->shape[k] = m->shape[k + 1];
        memcpy(m->contrib[k], m->contrib[k + 1], sizeof m->contrib[k]);
    }
    m->ndim--;
}

static void check_model(const tl_tensor *t, const model *m)
{
    cr_assert_eq(t->ndim, m->ndim);
    for (int k = 0; k < m->ndim; k++) cr_assert_eq(t->shape[k], m->shape[k]);
    int64_t idx[8] = { 0 }, n = tl_tensor_size(t);
    for (int64_t i = 0; i < n; i++) {
        int64_t want = m->base;
        for (int k = 0; k < m->ndim; k++) want += m->contrib[k][idx[k]];
        cr_assert_eq(*(int64_t *)tl_tensor_at(t, idx), want);
        for (int k = m->ndim - 1; k >= 0; k--) {
            if (++idx[k] < t->shape[k]) break;
            idx[k] = 0;
        }
    }
}

static int64_t rnd(int64_t lo, int64_t hi) { return lo + rand() % (hi - lo + 1); }

/* Applies one random view to t and m; returns the new view. */
static tl_tensor *random_step(tl_tensor *t, model *m)
{
    int op = (int)rnd(0, 5);
    if (m->ndim == 0) op = 5;
    int axis = m->ndim ? (int)rnd(0, m->ndim - 1) : 0;
    int64_t n = m->ndim ? m->shape[axis] : 0;
    if (op <= 1) {   /* slice, any bounds, any nonzero step */
        int64_t start = rnd(-9, 9), stop = rnd(-9, 9), step = rnd(-3, 3);
        if (step == 0) step = 1;
        bool hs = rand() % 3, he = rand() % 3;
        tl_tensor *v = tl_view_slice(t, axis, start, stop, step, hs, he);
        cr_assert(v, "%s", tl_errmsg());
        int64_t len = tl_slice_indices(n, &start, &stop, &step, hs, he);
        int64_t old[16];
        memcpy(old, m->contrib[axis], sizeof old);
        for (int64_t j = 0; j < len; j++) m->contrib[axis][j] = old[start + j * step];
        m->shape[axis] = len;
        return v;
    }
    if (op == 2 && n > 0) {   /* integer index */
        int64_t i = rnd(-n, n - 1);
        tl_tensor *v = tl_view_index(t, axis, i);
        cr_assert(v, "%s", tl_errmsg());
        m->base += m->contrib[axis][i < 0 ? i + n : i];
        model_drop(m, axis);
        return v;
    }
    if (op == 3) {   /* flip */
        tl_tensor *v = tl_view_flip(t, axis);
        cr_assert(v, "%s", tl_errmsg());
        for (int64_t j = 0; j < n / 2; j++) {
            int64_t x = m->contrib[axis][j];
            m->contrib[axis][j] = m->contrib[axis][n - 1 - j];
            m->contrib[axis][n - 1 - j] = x;
        }
        return v;
    }
    if (op == 4) {   /* swap two axes */
        int b = (int)rnd(0, m->ndim - 1);
        tl_tensor *v = tl_view_swapaxes(t, axis, b);
        cr_assert(v, "%s", tl_errmsg());
        int64_t tmp[16], s = m->shape[axis];
        memcpy(tmp, m->contrib[axis], sizeof tmp);
        memcpy(m->contrib[axis], m->contrib[b], sizeof tmp);
        memcpy(m->contrib[b], tmp, sizeof tmp);
        m->shape[axis] = m->shape[b];
        m->shape[b] = s;
        return v;
    }
    if (m->ndim < 6) {   /* new axis */
        int at = (int)rnd(0, m->ndim);
        tl_tensor *v = tl_view_newaxis(t, at);
        cr_assert(v, "%s", tl_errmsg());
        for (int k = m->ndim; k > at; k--) {
            m->shape[k] = m->shape[k - 1];
            memcpy(m->contrib[k], m->contrib[k - 1], sizeof m->contrib[k]);
        }
        m->shape[at] = 1;
        m->contrib[at][0] = 0;
        m->ndim++;
        return v;
    }
    tl_tensor_retain(t);
    return t;
}

Test(view, random_chains_compose_offsets_and_strides)
{
    srand(12345);
    const int64_t shape[4] = { 5, 6, 7, 8 };
    tl_tensor *a = iota(4, shape);
    for (int trial = 0; trial < 400; trial++) {
        model m = { .ndim = 4, .base = 0 };
        int64_t stride = 1;
        for (int k = 3; k >= 0; k--) {
            m.shape[k] = shape[k];
            for (int64_t i = 0; i < shape[k]; i++) m.contrib[k][i] = i * stride;
            stride *= shape[k];
        }
        tl_tensor *t = a;
        tl_tensor_retain(t);
        int steps = (int)rnd(3, 8);
        for (int s = 0; s < steps; s++) {
            tl_tensor *v = random_step(t, &m);
            tl_tensor_release(t);
            t = v;
            check_model(t, &m);
        }
        tl_tensor_release(t);
    }
    tl_tensor_release(a);
}

/* ---- reshape: numpy's no-copy cases and copy cases (strides in elements) -- */

static void expect_reshape_view(const tl_tensor *src, int ndim, const int64_t *shape, const int64_t *strides)
{
    bool needs_copy = true;
    tl_tensor *v = tl_view_reshape(src, ndim, shape, &needs_copy);
    cr_assert(v, "%s", tl_errmsg());
    cr_assert_not(needs_copy);
    expect_geometry(v, ndim, shape, strides, src->offset);
    cr_assert_eq(v->storage, src->storage);
    tl_tensor_release(v);
}

static void expect_reshape_copy(const tl_tensor *src, int ndim, const int64_t *shape, int nwant, const int64_t *want)
{
    bool needs_copy = false;
    cr_assert_null(tl_view_reshape(src, ndim, shape, &needs_copy));
    cr_assert(needs_copy);
    tl_tensor *c = tl_reshape(src, ndim, shape);
    cr_assert(c, "%s", tl_errmsg());
    cr_assert_neq(c->storage, src->storage);
    cr_assert(tl_is_contiguous(c));
    int64_t got[64];
    values(c, got, 64);
    for (int i = 0; i < nwant; i++) cr_assert_eq(got[i], want[i]);
    tl_tensor_release(c);
}

Test(view, reshape_numpy_nocopy_and_copy_cases)
{
    tl_tensor *a = iota(2, I64S(4, 6));
    tl_tensor *cols = slice(a, 1, 0, 4, 1);                       /* a[:, :4]: (4,4), (6,1) */
    expect_reshape_view(cols, 3, I64S(4, 2, 2), I64S(6, 2, 1));
    expect_reshape_copy(cols, 1, I64S(16), 8, I64S(0, 1, 2, 3, 6, 7, 8, 9));
    expect_reshape_view(cols, 3, I64S(2, 2, 4), I64S(12, 6, 1));

    tl_tensor *rows = SLICE_ALL(a, 0, 2);                          /* a[::2]: (2,6), (12,1) */
    expect_reshape_copy(rows, 1, I64S(12), 8, I64S(0, 1, 2, 3, 4, 5, 12, 13));
    expect_reshape_view(rows, 3, I64S(2, 3, 2), I64S(12, 2, 1));

    tl_tensor *tr = tl_view_transpose(a);                          /* a.T: (6,4), (1,6) */
    expect_geometry(tr, 2, I64S(6, 4), I64S(1, 6), 0);
    expect_reshape_copy(tr, 1, I64S(24), 8, I64S(0, 6, 12, 18, 1, 7, 13, 19));
    expect_reshape_view(tr, 3, I64S(3, 2, 4), I64S(2, 1, 6));

    tl_tensor *rev = SLICE_ALL(a, 1, -1);                          /* a[:, ::-1]: (4,6), (6,-1) */
    expect_reshape_view(rev, 3, I64S(4, 3, 2), I64S(6, -2, -1));
    expect_reshape_copy(rev, 1, I64S(24), 8, I64S(5, 4, 3, 2, 1, 0, 11, 10));

    tl_tensor *r3 = iota(1, I64S(3));
    tl_tensor *bc = tl_view_broadcast_to(r3, 2, I64S(4, 3));       /* (4,3), (0,1) */
    expect_geometry(bc, 2, I64S(4, 3), I64S(0, 1), 0);
    expect_reshape_copy(bc, 1, I64S(12), 8, I64S(0, 1, 2, 0, 1, 2, 0, 1));
    expect_reshape_view(bc, 3, I64S(2, 2, 3), I64S(0, 0, 1));

    tl_tensor *ts[] = { a, cols, rows, tr, rev, r3, bc };
    for (int i = 0; i < 7; i++) tl_tensor_release(ts[i]);
}

Test(view, reshape_contiguous_minus_one_and_errors)
{
    tl_tensor *a = iota(1, I64S(12));
    tl_tensor *v = tl_reshape(a, 3, I64S(2, -1, 3));
    expect_geometry(v, 3, I64S(2, 2, 3), I64S(6, 3, 1), 0);
    cr_assert_eq(v->storage, a->storage);
    tl_tensor_release(v);
    cr_assert_null(tl_reshape(a, 1, I64S(5)));
    cr_assert_str_eq(tl_errmsg(), "cannot reshape tensor of shape (12,) (size 12) into shape (5,) (size 5)");
    cr_assert_null(tl_reshape(a, 2, I64S(5, -1)));
    cr_assert_str_eq(tl_errmsg(), "cannot reshape tensor of shape (12,) (size 12) into shape (5, -1): 12 is not a multiple of 5");
    cr_assert_null(tl_reshape(a, 2, I64S(-1, -1)));
    cr_assert_str_eq(tl_errmsg(), "can only specify one unknown dimension");
    cr_assert_null(tl_reshape(a, 2, I64S(-2, -6)));
    cr_assert_null(tl_reshape(a, 2, I64S(INT64_MAX, 4)));
    tl_tensor *e = iota(1, I64S(0));
    cr_assert_null(tl_reshape(e, 2, I64S(0, -1)));   /* numpy: size 0 into (0, -1) is ambiguous */
    v = tl_reshape(e, 2, I64S(3, 0));
    cr_assert(v, "%s", tl_errmsg());
    tl_tensor_release(v);
    tl_tensor_release(e);
    tl_tensor_release(a);
}

Test(view, squeeze_unsqueeze_newaxis_strides_as_numpy)
{
    tl_tensor *a = iota(2, I64S(4, 6));
    tl_tensor *x = slice(a, 1, 0, 4, 1);                 /* (4,4), (6,1) */
    tl_tensor *u0 = tl_view_unsqueeze(x, 0), *u1 = tl_view_unsqueeze(x, 1), *um = tl_view_unsqueeze(x, -1);
    expect_geometry(u0, 3, I64S(1, 4, 4), I64S(24, 6, 1), 0);   /* numpy expand_dims: (192,48,8)/8 */
    expect_geometry(u1, 3, I64S(4, 1, 4), I64S(6, 4, 1), 0);   /* (48,32,8)/8 */
    expect_geometry(um, 3, I64S(4, 4, 1), I64S(6, 1, 1), 0);
    tl_tensor *n0 = tl_view_newaxis(x, 0);               /* x[None]: (0, 48, 8)/8 */
    expect_geometry(n0, 3, I64S(1, 4, 4), I64S(0, 6, 1), 0);
    tl_tensor *sq = tl_view_squeeze(u1, 1), *all = tl_view_squeeze(n0, TL_AXIS_NONE);
    expect_geometry(sq, 2, I64S(4, 4), I64S(6, 1), 0);
    expect_geometry(all, 2, I64S(4, 4), I64S(6, 1), 0);
    cr_assert_null(tl_view_squeeze(x, 0));
    cr_assert_str_eq(tl_errmsg(), "cannot select an axis to squeeze out which has size not equal to one");
    cr_assert_null(tl_view_unsqueeze(x, 3));
    tl_tensor *ts[] = { a, x, u0, u1, um, n0, sq, all };
    for (int i = 0; i < 8; i++) tl_tensor_release(ts[i]);
}

Test(view, permute_checks_axes)
{
    tl_tensor *a = iota(3, I64S(2, 3, 4));
    tl_tensor *p = tl_view_permute(a, (const int[]){ 2, 0, 1 });
    expect_geometry(p, 3, I64S(4, 2, 3), I64S(1, 12, 4), 0);
    tl_tensor *q = tl_view_permute(a, (const int[]){ -1, 0, 1 });
    expect_geometry(q, 3, I64S(4, 2, 3), I64S(1, 12, 4), 0);
    cr_assert_null(tl_view_permute(a, (const int[]){ 0, 0, 1 }));
    cr_assert_null(tl_view_permute(a, (const int[]){ 0, 3, 1 }));
    tl_tensor_release(p);
    tl_tensor_release(q);
    tl_tensor_release(a);
}

Test(view, broadcast_to_is_readonly_with_zero_strides)
{
    tl_tensor *a = iota(2, I64S(3, 1));
    tl_tensor *b = tl_view_broadcast_to(a, 3, I64S(2, 3, 4));
    expect_geometry(b, 3, I64S(2, 3, 4), I64S(0, 1, 0), 0);
    cr_assert(b->readonly);
    cr_assert_not(a->readonly);
    tl_tensor *s = slice(b, 1, 1, 3, 1), *r = tl_view_reshape(a, 1, I64S(3), NULL);
    cr_assert(s->readonly, "views of read-only tensors stay read-only");
    cr_assert_not(r->readonly);
    cr_assert_null(tl_view_broadcast_to(a, 2, I64S(5, 4)));
    cr_assert_str_eq(tl_errmsg(), "cannot broadcast tensor of shape (3, 1) to shape (5, 4)");
    cr_assert_null(tl_view_broadcast_to(a, 1, I64S(3)));
    tl_tensor *ts[] = { a, b, s, r };
    for (int i = 0; i < 4; i++) tl_tensor_release(ts[i]);
}

Test(view, flip_both_axes)
{
    tl_tensor *a = iota(2, I64S(2, 3));
    tl_tensor *f = tl_view_flip(a, 1), *g = tl_view_flip(f, -2);
    expect_geometry(g, 2, I64S(2, 3), I64S(-3, -1), 5);
    expect_values(g, 6, I64S(5, 4, 3, 2, 1, 0));
    tl_tensor_release(g);
    tl_tensor_release(f);
    tl_tensor_release(a);
}

/* numpy: a = arange(120).reshape(4,5,6); np.diagonal(a, offset, axis1, axis2). */
Test(view, diagonal_as_numpy)
{
    tl_tensor *a = iota(3, I64S(4, 5, 6));
    tl_tensor *d = tl_view_diagonal(a, 1, 0, 2);
    expect_geometry(d, 2, I64S(5, 4), I64S(6, 31), 1);
    expect_values(d, 8, I64S(1, 32, 63, 94, 7, 38, 69, 100));
    tl_tensor_release(d);
    d = tl_view_diagonal(a, -1, 2, 1);
    expect_geometry(d, 2, I64S(4, 5), I64S(30, 7), 1);
    expect_values(d, 8, I64S(1, 8, 15, 22, 29, 31, 38, 45));
    tl_tensor_release(d);
    d = tl_view_diagonal(a, -2, 1, 2);
    expect_geometry(d, 2, I64S(4, 3), I64S(30, 7), 12);
    expect_values(d, 8, I64S(12, 19, 26, 42, 49, 56, 72, 79));
    tl_tensor_release(d);
    d = tl_view_diagonal(a, 7, 0, 1);
    cr_assert(d, "%s", tl_errmsg());
    cr_assert_eq(d->shape[0], 6);
    cr_assert_eq(d->shape[1], 0);
    tl_tensor_release(d);
    cr_assert_null(tl_view_diagonal(a, 0, 1, -2));
    tl_tensor_release(a);
}

Test(view, real_imag_of_complex)
{
    tl_tensor *z = tl_tensor_zeros(TL_C128, 2, I64S(2, 3));
    double *p = tl_tensor_data(z);
    for (int i = 0; i < 6; i++) {
        p[2 * i] = i;
        p[2 * i + 1] = 10 + i;
    }
    tl_tensor *s = slice(z, 1, 1, 3, 1);
    tl_tensor *re = tl_view_real(s), *im = tl_view_imag(s);
    cr_assert_eq(re->dtype, TL_F64);
    expect_geometry(re, 2, I64S(2, 2), I64S(6, 2), 2);
    expect_geometry(im, 2, I64S(2, 2), I64S(6, 2), 3);
    cr_assert_eq(*(double *)tl_tensor_at(re, I64S(1, 1)), 5.0);
    cr_assert_eq(*(double *)tl_tensor_at(im, I64S(1, 0)), 14.0);
    tl_tensor *r = tl_tensor_zeros(TL_F32, 1, I64S(3));
    tl_tensor *same = tl_view_real(r);
    cr_assert_eq(same, r);
    cr_assert_null(tl_view_imag(r));
    tl_tensor *ts[] = { z, s, re, im, r, same };
    for (int i = 0; i < 6; i++) tl_tensor_release(ts[i]);
}

Test(view, bitcast_rules)
{
    tl_tensor *a = tl_tensor_zeros(TL_U8, 2, I64S(3, 8));
    ((uint8_t *)tl_tensor_data(a))[9] = 1;   /* row 1, byte 1 */
    tl_tensor *f = tl_view_bitcast(a, TL_F32);
    expect_geometry(f, 2, I64S(3, 2), I64S(2, 1), 0);
    tl_tensor *u = tl_view_bitcast(f, TL_U16);
    expect_geometry(u, 2, I64S(3, 4), I64S(4, 1), 0);
    cr_assert_eq(*(uint16_t *)tl_tensor_at(u, I64S(1, 0)), 256);
    tl_tensor *i = tl_view_bitcast(f, TL_I32);
    expect_geometry(i, 2, I64S(3, 2), I64S(2, 1), 0);
    tl_tensor *row = tl_view_index(a, 0, 1);
    tl_tensor *d = tl_view_bitcast(row, TL_F64);
    expect_geometry(d, 1, I64S(1), I64S(1), 1);
    tl_tensor *odd = slice(a, 1, 1, 5, 1);       /* bytes 1..4: offset not a multiple of 4 */
    cr_assert_null(tl_view_bitcast(odd, TL_F32));
    tl_tensor *three = slice(a, 1, 0, 3, 1);     /* 3 bytes per row */
    cr_assert_null(tl_view_bitcast(three, TL_U16));
    tl_tensor *cols = tl_view_transpose(a);      /* last axis not contiguous */
    cr_assert_null(tl_view_bitcast(cols, TL_U16));
    tl_tensor *b = tl_view_broadcast_to(f, 2, I64S(3, 2));
    tl_tensor *bb = tl_view_bitcast(b, TL_U32);
    cr_assert(bb->readonly);
    tl_tensor *ts[] = { a, f, u, i, row, d, odd, three, cols, b, bb };
    for (int k = 0; k < 11; k++) tl_tensor_release(ts[k]);
}

/* ---- shares_memory ------------------------------------------------------- */

Test(view, shares_memory_exact_cases)
{
    tl_tensor *a = iota(1, I64S(100));
    tl_tensor *even = SLICE_ALL(a, 0, 2), *odd = tl_view_slice(a, 0, 1, 0, 2, true, false);
    tl_tensor *by4 = tl_view_slice(a, 0, 2, 0, 4, true, false);
    cr_assert_not(tl_shares_memory(even, odd), "a[::2] and a[1::2] interleave without sharing");
    cr_assert(tl_shares_memory(even, by4), "a[::2] and a[2::4] share");
    cr_assert_not(tl_shares_memory(odd, by4));
    cr_assert(tl_shares_memory(a, a));
    tl_tensor *other = iota(1, I64S(100));
    cr_assert_not(tl_shares_memory(a, other));

    tl_tensor *m = iota(2, I64S(10, 10));
    tl_tensor *left = slice(m, 1, 0, 5, 1), *right = slice(m, 1, 5, 10, 1);
    cr_assert_not(tl_shares_memory(left, right), "column blocks with overlapping bounds");
    tl_tensor *t = tl_view_transpose(m), *col = tl_view_index(t, 0, 9), *row = tl_view_index(m, 0, 9);
    cr_assert(tl_shares_memory(col, row), "m.T[9] (column 9) meets row 9 at m[9,9]");
    tl_tensor *row8 = tl_view_index(m, 0, 8);
    tl_tensor *col9 = tl_view_index(t, 0, 9), *c9r = tl_view_slice(col9, 0, 0, 9, 1, true, true);
    cr_assert_not(tl_shares_memory(c9r, row), "column 9 without its last element misses row 9");
    cr_assert(tl_shares_memory(c9r, row8));
    tl_tensor *ts[] = { a, even, odd, by4, other, m, left, right, t, col, row, row8, col9, c9r };
    for (int i = 0; i < 14; i++) tl_tensor_release(ts[i]);
}

Test(view, shares_memory_different_item_sizes)
{
    tl_tensor *x = tl_tensor_zeros(TL_U8, 1, I64S(16));
    tl_tensor *f = tl_view_bitcast(x, TL_F32);                 /* bytes [4k, 4k+4) */
    tl_tensor *f1 = tl_view_index(f, 0, 1);
    tl_tensor *b3 = tl_view_index(x, 0, 3), *b4 = tl_view_index(x, 0, 4), *b7 = tl_view_index(x, 0, 7);
    cr_assert_not(tl_shares_memory(f1, b3));
    cr_assert(tl_shares_memory(f1, b4));
    cr_assert(tl_shares_memory(b7, f1));
    tl_tensor *s = tl_view_slice(x, 0, 3, 0, 8, true, false);   /* bytes 3, 11 */
    tl_tensor *fe = SLICE_ALL(f, 0, 2);                         /* bytes 0-3, 8-11 */
    tl_tensor *fo = tl_view_slice(f, 0, 1, 0, 2, true, false);  /* bytes 4-7, 12-15 */
    cr_assert(tl_shares_memory(s, fe));
    cr_assert_not(tl_shares_memory(s, fo));
    tl_tensor *ts[] = { x, f, f1, b3, b4, b7, s, fe, fo };
    for (int i = 0; i < 9; i++) tl_tensor_release(ts[i]);
}

/* Brute force: mark every byte of a, look for a marked byte of b. */
static bool bytes_overlap(const tl_tensor *a, const tl_tensor *b, unsigned char *mark, size_t nbytes)
{
    const tl_tensor *ts[2] = { a, b };
    memset(mark, 0, nbytes);
    for (int w = 0; w < 2; w++) {
        const tl_tensor *t = ts[w];
        int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(t), isz = (int64_t)tl_dtype_size(t->dtype);
        for (int64_t i = 0; i < n; i++) {
            size_t at = (size_t)((char *)tl_tensor_at(t, idx) - (char *)t->storage->data);
            for (int64_t j = 0; j < isz; j++) {
                if (w == 0) mark[at + j] = 1;
                else if (mark[at + j]) return true;
            }
            for (int k = t->ndim - 1; k >= 0; k--) {
                if (++idx[k] < t->shape[k]) break;
                idx[k] = 0;
            }
        }
    }
    return false;
}

/* Random strided (often self-overlapping) headers of several dtypes over one storage. */
static tl_tensor *random_header(tl_storage *s)
{
    static const tl_dtype dts[] = { TL_U8, TL_I16, TL_F32, TL_F64, TL_C128 };
    for (;;) {
        tl_dtype dt = dts[rand() % 5];
        int ndim = (int)rnd(0, 3);
        int64_t shape[3], strides[3];
        for (int k = 0; k < ndim; k++) {
            shape[k] = rnd(1, 6);
            strides[k] = rnd(-12, 12);
        }
        int64_t cap = (int64_t)s->nbytes / (int64_t)tl_dtype_size(dt);
        tl_tensor *t = tl_tensor_view_of(s, dt, ndim, shape, strides, rnd(0, cap - 1));
        if (t) return t;
    }
}

Test(view, shares_memory_matches_brute_force)
{
    srand(777);
    tl_storage *s = tl_storage_new(256, true);
    unsigned char mark[256];
    int agree_true = 0;
    for (int trial = 0; trial < 20000; trial++) {
        tl_tensor *a = random_header(s), *b = random_header(s);
        bool want = bytes_overlap(a, b, mark, sizeof mark);
        cr_assert_eq(tl_shares_memory(a, b), want, "trial %d", trial);
        cr_assert_eq(tl_shares_memory(b, a), want, "trial %d (swapped)", trial);
        agree_true += want;
        tl_tensor_release(a);
        tl_tensor_release(b);
    }
    cr_assert(agree_true > 1000 && agree_true < 19000, "both answers exercised (%d true)", agree_true);
    tl_storage_release(s);
}

Test(view, shares_memory_is_fast_on_big_interleaved_views, .timeout = 10)
{
    tl_tensor *a = tl_tensor_zeros(TL_U8, 2, I64S(2000, 5000));
    tl_tensor *even = SLICE_ALL(a, 0, 2), *odd = tl_view_slice(a, 0, 1, 0, 2, true, false);
    tl_tensor *ce = SLICE_ALL(a, 1, 2), *co = tl_view_slice(a, 1, 1, 0, 2, true, false);
    tl_tensor *l = slice(a, 1, 0, 2500, 1), *r = slice(a, 1, 2500, 5000, 1);
    tl_tensor *ts[] = { a, even, odd, ce, co, l, r };
    for (int rep = 0; rep < 20; rep++) {
        cr_assert_not(tl_shares_memory(even, odd));
        cr_assert_not(tl_shares_memory(ce, co));
        cr_assert_not(tl_shares_memory(l, r));
        cr_assert(tl_shares_memory(even, ce));
    }
    for (int i = 0; i < 7; i++) tl_tensor_release(ts[i]);
}

/* Counts the release calls of an external storage. */
static void count_release(void *ctx) { (*(int *)ctx)++; }

Test(view, external_storage_is_used_in_place_and_released_once)
{
    int64_t mem[6] = { 0, 1, 2, 3, 4, 5 };
    int released = 0;
    tl_storage *s = tl_storage_external(mem, sizeof mem, count_release, &released, "caller");
    cr_assert(s, "%s", tl_errmsg());
    tl_tensor *t = tl_tensor_view_of(s, TL_I64, 2, (int64_t[]){ 2, 3 }, (int64_t[]){ 3, 1 }, 0);
    tl_storage_release(s);   /* t holds it */
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_eq(tl_tensor_data(t), (void *)mem);
    *(int64_t *)tl_tensor_at(t, (int64_t[]){ 1, 2 }) = 50;   /* writes land in the caller's array */
    cr_assert_eq(mem[5], 50);
    char name[80];
    cr_assert_str_eq(tl_storage_name(t->storage, name, sizeof name), "caller");
    tl_tensor *v = tl_tensor_view_of(t->storage, TL_I64, 2, (int64_t[]){ 3, 2 }, (int64_t[]){ 1, 3 }, 0);   /* t.T */
    cr_assert(v, "%s", tl_errmsg());
    tl_tensor_release(t);
    cr_assert_eq(released, 0);   /* the view still holds it */
    tl_tensor_release(v);
    cr_assert_eq(released, 1);
}

Test(view, detached_external_storage_keeps_its_values_in_its_own_memory)
{
    int64_t mem[64];
    for (int i = 0; i < 64; i++) mem[i] = i;
    int released = 0;
    tl_storage *s = tl_storage_external(mem, sizeof mem, count_release, &released, NULL);
    tl_tensor *t = tl_tensor_view_of(s, TL_I64, 1, (int64_t[]){ 32 }, (int64_t[]){ 2 }, 1);   /* odd elements */
    cr_assert(t, "%s", tl_errmsg());
    uint64_t before = tl_storage_count();
    cr_assert_eq(tl_storage_detach(s), 0);
    cr_assert_eq(tl_storage_count() - before, 1);   /* one copy, counted */
    cr_assert_eq(released, 1);                      /* the caller's memory is let go at once */
    cr_assert_eq(s->kind, TL_STORAGE_HEAP);
    cr_assert_neq(tl_tensor_data(t), (void *)(mem + 1));
    for (int i = 0; i < 64; i++) mem[i] = -1;
    cr_assert_eq(*(int64_t *)tl_tensor_at(t, (int64_t[]){ 31 }), 63);
    cr_assert_eq(tl_storage_detach(s), 0);   /* heap storage: nothing to do */
    tl_storage_release(s);
    tl_tensor_release(t);
    cr_assert_eq(released, 1);
}
