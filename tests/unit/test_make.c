/* test_make.c — making and shaping tensors: full, arange, linspace, eye, concat, stack, split, tile, repeat, flatten */
#include <criterion/criterion.h>
#include <string.h>

#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(make);
LEAK_CHECKED_SUITE(shape);

#define I64S(...) ((const int64_t[]){ __VA_ARGS__ })

/* Element i (C order) of any tensor, as i64 or as raw bits. */
static int64_t at_i64(const tl_tensor *t, int64_t flat)
{
    int64_t idx[TL_MAXDIM];
    for (int k = t->ndim - 1; k >= 0; k--) {
        idx[k] = t->shape[k] ? flat % t->shape[k] : 0;
        flat = t->shape[k] ? flat / t->shape[k] : 0;
    }
    return tl_scalar_to_i64(tl_tensor_at(t, idx), t->dtype);
}

static uint64_t bits_at(const tl_tensor *t, int64_t i)
{
    uint64_t b = 0;
    memcpy(&b, (char *)tl_tensor_data(t) + i * (int64_t)tl_dtype_size(t->dtype), tl_dtype_size(t->dtype));
    return b;
}

static void expect_i64(const tl_tensor *t, int ndim, const int64_t *shape, const int64_t *want)
{
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_eq(t->ndim, ndim, "ndim %d, want %d", t->ndim, ndim);
    for (int k = 0; k < ndim; k++) cr_assert_eq(t->shape[k], shape[k], "shape[%d] = %lld", k, (long long)t->shape[k]);
    for (int64_t i = 0; i < tl_tensor_size(t); i++)
        cr_assert_eq(at_i64(t, i), want[i], "element %lld: %lld, want %lld", (long long)i, (long long)at_i64(t, i), (long long)want[i]);
}

static tl_tensor *iota(tl_dtype dt, int ndim, const int64_t *shape, int64_t scale)
{
    tl_tensor *t = tl_tensor_empty(dt, ndim, shape);
    cr_assert(t, "%s", tl_errmsg());
    for (int64_t i = 0; i < tl_tensor_size(t); i++) {
        int64_t v = i * scale;
        tl_scalar_convert((char *)tl_tensor_data(t) + i * (int64_t)tl_dtype_size(dt), dt, &v, TL_I64);
    }
    return t;
}

Test(make, full_fills_every_element)
{
    double v = -2.5;
    tl_tensor *t = tl_full(TL_F64, 2, I64S(3, 7), &v);
    cr_assert(t);
    for (int i = 0; i < 21; i++) cr_assert_eq(((double *)tl_tensor_data(t))[i], -2.5);
    tl_tensor_release(t);
    uint16_t h = 0x3c00;
    t = tl_full(TL_F16, 1, I64S(0), &h);
    cr_assert(t);
    cr_assert_eq(tl_tensor_size(t), 0);
    tl_tensor_release(t);
    cr_assert_null(tl_full(TL_F64, 2, I64S(-1, 2), &v));
}

/* Bits from numpy: np.arange(0.1, 2.0, 0.1, dtype=...)[-3:].view(uint). */
Test(make, arange_matches_numpy_bits)
{
    tl_tensor *t = tl_arange(0.1, 2.0, 0.1, TL_F64);
    cr_assert_eq(t->shape[0], 19);
    cr_assert_eq(bits_at(t, 16), 0x3ffb333333333334ull);
    cr_assert_eq(bits_at(t, 17), 0x3ffcccccccccccceull);
    cr_assert_eq(bits_at(t, 18), 0x3ffe666666666667ull);
    tl_tensor_release(t);
    t = tl_arange(0.1, 2.0, 0.1, TL_F32);
    cr_assert_eq(t->shape[0], 19);
    cr_assert_eq(bits_at(t, 16), 0x3fd9999a);
    cr_assert_eq(bits_at(t, 17), 0x3fe66667);
    cr_assert_eq(bits_at(t, 18), 0x3ff33334);
    tl_tensor_release(t);
    t = tl_arange(0.3, 100.0, 0.7, TL_F16);
    cr_assert_eq(t->shape[0], 143);
    cr_assert_eq(bits_at(t, 140), 0x5625);
    cr_assert_eq(bits_at(t, 141), 0x5630);
    cr_assert_eq(bits_at(t, 142), 0x563b);
    tl_tensor_release(t);
}

Test(make, arange_integers_and_lengths)
{
    tl_tensor *t = tl_arange(250, 270, 7, TL_U8);
    expect_i64(t, 1, I64S(3), I64S(250, 1, 8));
    tl_tensor_release(t);
    t = tl_arange(120, 140, 9, TL_I8);
    expect_i64(t, 1, I64S(3), I64S(120, -127, -118));
    tl_tensor_release(t);
    t = tl_arange(-3, 3, 1.5, TL_I64);
    expect_i64(t, 1, I64S(4), I64S(-3, -1, 1, 3));
    tl_tensor_release(t);
    t = tl_arange(1.5, 10, 2.5, TL_I32);
    expect_i64(t, 1, I64S(4), I64S(1, 4, 7, 10));
    tl_tensor_release(t);
    t = tl_arange(10, 0, -3, TL_I64);
    expect_i64(t, 1, I64S(4), I64S(10, 7, 4, 1));
    tl_tensor_release(t);
    t = tl_arange(1, 0, 1, TL_I64);
    expect_i64(t, 1, I64S(0), NULL);
    tl_tensor_release(t);
    t = tl_arange(0, 1, 0.1, TL_F64);
    cr_assert_eq(t->shape[0], 10);
    tl_tensor_release(t);
    t = tl_arange(0, 2, 1, TL_BOOL);
    expect_i64(t, 1, I64S(2), I64S(0, 1));
    tl_tensor_release(t);
    cr_assert_null(tl_arange(0, 3, 1, TL_BOOL));
    cr_assert_null(tl_arange(0, 3, 0, TL_I64));
    cr_assert_str_eq(tl_errmsg(), "arange step cannot be zero");
    cr_assert_null(tl_arange(0, 1.0 / 0.0, 1, TL_I64));
}

Test(make, linspace_matches_numpy_bits)
{
    static const uint64_t f64[] = { 0x3fb999999999999a, 0x3fc999999999999a, 0x3fd3333333333333, 0x3fd999999999999a,
                                    0x3fe0000000000000, 0x3fe3333333333333, 0x3fe6666666666666 };
    tl_tensor *t = tl_linspace(0.1, 0.7, 7, true, TL_F64);
    for (int i = 0; i < 7; i++) cr_assert_eq(bits_at(t, i), f64[i], "element %d", i);
    tl_tensor_release(t);
    static const uint64_t f32[] = { 0xbf800000, 0xbf2aaaab, 0xbeaaaaab, 0x0, 0x3eaaaaab, 0x3f2aaaab };
    t = tl_linspace(-1, 1, 6, false, TL_F32);
    for (int i = 0; i < 6; i++) cr_assert_eq(bits_at(t, i), f32[i], "element %d", i);
    tl_tensor_release(t);
    t = tl_linspace(-1, 10, 7, true, TL_I32);
    expect_i64(t, 1, I64S(7), I64S(-1, 0, 2, 4, 6, 8, 10));
    tl_tensor_release(t);
    t = tl_linspace(-2.5, 2.5, 5, true, TL_I8);   /* floor, then cast */
    expect_i64(t, 1, I64S(5), I64S(-3, -2, 0, 1, 2));
    tl_tensor_release(t);
    t = tl_linspace(0, 1e-320, 3, true, TL_F64);
    cr_assert_eq(((double *)tl_tensor_data(t))[1], 5e-321);
    tl_tensor_release(t);
    t = tl_linspace(2, 3, 1, true, TL_F64);
    cr_assert_eq(((double *)tl_tensor_data(t))[0], 2.0);
    tl_tensor_release(t);
    cr_assert_null(tl_linspace(0, 1, -1, true, TL_F64));
}

Test(make, eye_offsets)
{
    tl_tensor *t = tl_eye(3, 4, 1, TL_I32);
    expect_i64(t, 2, I64S(3, 4), I64S(0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    tl_tensor_release(t);
    t = tl_eye(4, 3, -2, TL_F64);
    expect_i64(t, 2, I64S(4, 3), I64S(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0));
    tl_tensor_release(t);
    t = tl_eye(2, 2, 5, TL_F64);
    expect_i64(t, 2, I64S(2, 2), I64S(0, 0, 0, 0));
    tl_tensor_release(t);
    t = tl_eye(2, 2, INT64_MIN, TL_F64);
    expect_i64(t, 2, I64S(2, 2), I64S(0, 0, 0, 0));
    tl_tensor_release(t);
}

Test(shape, concat_promotes_and_checks)
{
    tl_tensor *a = iota(TL_I64, 2, I64S(2, 3), 1), *b = iota(TL_I32, 2, I64S(2, 2), 1);
    tl_tensor *ab[] = { a, b };
    tl_tensor *c = tl_concat(2, ab, 1);
    cr_assert_eq(c->dtype, TL_I64);
    expect_i64(c, 2, I64S(2, 5), I64S(0, 1, 2, 0, 1, 3, 4, 5, 2, 3));
    tl_tensor_release(c);
    cr_assert_null(tl_concat(2, ab, 0));
    cr_assert_str_eq(tl_errmsg(), "cannot concatenate (2, 3) (tensor 0) and (2, 2) (tensor 1) along axis 0: dim 1 differs (3 vs 2); "
                                  "every dim but the axis's must match");
    tl_tensor *v = iota(TL_F32, 1, I64S(3), 1);
    tl_tensor *av[] = { a, v };
    cr_assert_null(tl_concat(2, av, 0));
    cr_assert_str_eq(tl_errmsg(), "cannot concatenate (2, 3) (tensor 0) and (3,) (tensor 1): 2 and 1 dimensions; all must have as many");
    tl_tensor *row = iota(TL_F32, 2, I64S(1, 3), 2);
    tl_tensor *ar[] = { a, row, a };
    c = tl_concat(3, ar, -2);
    cr_assert_eq(c->dtype, TL_F64);
    expect_i64(c, 2, I64S(5, 3), I64S(0, 1, 2, 3, 4, 5, 0, 2, 4, 0, 1, 2, 3, 4, 5));
    tl_tensor_release(c);
    tl_tensor *s = tl_tensor_zeros(TL_I64, 0, NULL);
    tl_tensor *ss[] = { s, s };
    cr_assert_null(tl_concat(2, ss, 0));
    cr_assert_str_eq(tl_errmsg(), "zero-dimensional tensors cannot be concatenated");
    tl_tensor *ts[] = { a, b, v, row, s };
    for (int i = 0; i < 5; i++) tl_tensor_release(ts[i]);
}

Test(shape, stack_inserts_axis)
{
    tl_tensor *a = iota(TL_I64, 2, I64S(2, 3), 1), *b = iota(TL_I64, 2, I64S(2, 3), 10);
    tl_tensor *ab[] = { a, b };
    tl_tensor *s = tl_stack(2, ab, 1);
    expect_i64(s, 3, I64S(2, 2, 3), I64S(0, 1, 2, 0, 10, 20, 3, 4, 5, 30, 40, 50));
    tl_tensor_release(s);
    s = tl_stack(2, ab, -1);
    expect_i64(s, 3, I64S(2, 3, 2), I64S(0, 0, 1, 10, 2, 20, 3, 30, 4, 40, 5, 50));
    tl_tensor_release(s);
    tl_tensor *c = iota(TL_I64, 2, I64S(2, 2), 1);
    tl_tensor *ac[] = { a, c };
    cr_assert_null(tl_stack(2, ac, 0));
    cr_assert_str_eq(tl_errmsg(), "cannot stack (2, 3) (tensor 0) and (2, 2) (tensor 1): all must have the same shape");
    cr_assert_null(tl_stack(2, ab, 3));
    tl_tensor_release(a);
    tl_tensor_release(b);
    tl_tensor_release(c);
}

Test(shape, split_gives_views_with_slice_clamping)
{
    tl_tensor *a = iota(TL_I64, 1, I64S(10), 1), *out[4];
    cr_assert_eq(tl_split(a, 3, I64S(3, -2, 20), 0, out), 0, "%s", tl_errmsg());
    expect_i64(out[0], 1, I64S(3), I64S(0, 1, 2));
    expect_i64(out[1], 1, I64S(5), I64S(3, 4, 5, 6, 7));
    expect_i64(out[2], 1, I64S(2), I64S(8, 9));
    expect_i64(out[3], 1, I64S(0), NULL);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(out[i]->storage, a->storage);
        tl_tensor_release(out[i]);
    }
    tl_tensor *b = iota(TL_I64, 1, I64S(5), 1);
    cr_assert_eq(tl_split(b, 2, I64S(4, 2), 0, out), 0);
    expect_i64(out[0], 1, I64S(4), I64S(0, 1, 2, 3));
    expect_i64(out[1], 1, I64S(0), NULL);
    expect_i64(out[2], 1, I64S(3), I64S(2, 3, 4));
    for (int i = 0; i < 3; i++) tl_tensor_release(out[i]);
    tl_tensor *m = iota(TL_I64, 2, I64S(2, 3), 1);
    cr_assert_eq(tl_split(m, 2, I64S(1, 1), -1, out), 0);
    cr_assert_eq(out[0]->shape[1], 1);
    cr_assert_eq(out[1]->shape[1], 0);
    expect_i64(out[2], 2, I64S(2, 2), I64S(1, 2, 4, 5));
    for (int i = 0; i < 3; i++) tl_tensor_release(out[i]);
    tl_tensor_release(a);
    tl_tensor_release(b);
    tl_tensor_release(m);
}

Test(shape, tile_as_numpy)
{
    tl_tensor *a = iota(TL_I64, 2, I64S(2, 3), 1);
    tl_tensor *t = tl_tile(a, 3, I64S(2, 1, 2));
    expect_i64(t, 3, I64S(2, 2, 6), I64S(0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5));
    tl_tensor_release(t);
    tl_tensor *r = iota(TL_I64, 1, I64S(3), 1);
    t = tl_tile(r, 1, I64S(2));
    expect_i64(t, 1, I64S(6), I64S(0, 1, 2, 0, 1, 2));
    tl_tensor_release(t);
    t = tl_tile(a, 2, I64S(0, 2));
    expect_i64(t, 2, I64S(0, 6), NULL);
    tl_tensor_release(t);
    tl_tensor *at = tl_view_transpose(a);
    t = tl_tile(at, 1, I64S(3));
    expect_i64(t, 2, I64S(3, 6), I64S(0, 3, 0, 3, 0, 3, 1, 4, 1, 4, 1, 4, 2, 5, 2, 5, 2, 5));
    tl_tensor_release(t);
    t = tl_tile(r, 1, I64S(1000));   /* doubling: many repeats */
    cr_assert_eq(t->shape[0], 3000);
    for (int64_t i = 0; i < 3000; i++) cr_assert_eq(at_i64(t, i), i % 3);
    tl_tensor_release(t);
    t = tl_tile(a, 1, I64S(1));
    cr_assert_neq(t->storage, a->storage, "tile always copies");
    tl_tensor_release(t);
    cr_assert_null(tl_tile(a, 1, I64S(-1)));
    tl_tensor_release(at);
    tl_tensor_release(r);
    tl_tensor_release(a);
}

Test(shape, repeat_as_numpy)
{
    tl_tensor *a = iota(TL_I64, 2, I64S(2, 3), 1);
    tl_tensor *t = tl_repeat(a, I64S(2), 1, TL_AXIS_NONE);
    expect_i64(t, 1, I64S(12), I64S(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5));
    tl_tensor_release(t);
    t = tl_repeat(a, I64S(1, 0, 2), 3, 1);
    expect_i64(t, 2, I64S(2, 3), I64S(0, 2, 2, 3, 5, 5));
    tl_tensor_release(t);
    t = tl_repeat(a, I64S(3), 1, 0);
    expect_i64(t, 2, I64S(6, 3), I64S(0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5));
    tl_tensor_release(t);
    tl_tensor *at = tl_view_transpose(a);   /* non-contiguous input */
    t = tl_repeat(at, I64S(2, 1), 2, -1);
    expect_i64(t, 2, I64S(3, 3), I64S(0, 0, 3, 1, 1, 4, 2, 2, 5));
    tl_tensor_release(t);
    int64_t five = 5;
    tl_tensor *s = tl_tensor_scalar(TL_I64, &five);
    t = tl_repeat(s, I64S(3), 1, TL_AXIS_NONE);
    expect_i64(t, 1, I64S(3), I64S(5, 5, 5));
    tl_tensor_release(t);
    cr_assert_null(tl_repeat(a, I64S(1, 2), 2, 1));
    cr_assert_null(tl_repeat(a, I64S(-1), 1, 1));
    cr_assert_str_eq(tl_errmsg(), "repeats may not contain negative values");
    tl_tensor_release(s);
    tl_tensor_release(at);
    tl_tensor_release(a);
}

Test(shape, flatten_always_copies)
{
    tl_tensor *a = iota(TL_I64, 2, I64S(2, 3), 1);
    tl_tensor *f = tl_flatten(a);
    expect_i64(f, 1, I64S(6), I64S(0, 1, 2, 3, 4, 5));
    cr_assert_neq(f->storage, a->storage);
    tl_tensor *at = tl_view_transpose(a), *g = tl_flatten(at);
    expect_i64(g, 1, I64S(6), I64S(0, 3, 1, 4, 2, 5));
    tl_tensor_release(g);
    tl_tensor_release(at);
    tl_tensor_release(f);
    tl_tensor_release(a);
}
