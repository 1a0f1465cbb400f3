/* test_index.c — numpy indexing: basic views, integer and bool tensor indices, assignment */
#include <criterion/criterion.h>
#include <string.h>

#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(index);

#define I64S(...) ((const int64_t[]){ __VA_ARGS__ })
#define NITEMS(...) (int)(sizeof((tl_index_item[]){ __VA_ARGS__ }) / sizeof(tl_index_item))
#define GET(a, ...) tl_index_get((a), NITEMS(__VA_ARGS__), (tl_index_item[]){ __VA_ARGS__ })
#define SET(a, v, ...) tl_index_set((a), NITEMS(__VA_ARGS__), (tl_index_item[]){ __VA_ARGS__ }, (v))

/* Index items, as a parser would produce them. */
#define INT(x) { .kind = TL_IDX_INT, .i = (x) }
#define ALL { .kind = TL_IDX_SLICE, .step = 1 }
#define SL(a, b, s) { .kind = TL_IDX_SLICE, .start = (a), .stop = (b), .step = (s), .has_start = true, .has_stop = true }
#define FROM(a, s) { .kind = TL_IDX_SLICE, .start = (a), .step = (s), .has_start = true }
#define STEP(s) { .kind = TL_IDX_SLICE, .step = (s) }
#define NONE { .kind = TL_IDX_NEWAXIS }
#define ELL { .kind = TL_IDX_ELLIPSIS }
#define TEN(t) { .kind = TL_IDX_TENSOR, .tensor = (t) }

static tl_tensor *ints(tl_dtype dt, int ndim, const int64_t *shape, const int64_t *vals)
{
    tl_tensor *t = tl_tensor_empty(dt, ndim, shape);
    cr_assert(t, "%s", tl_errmsg());
    int64_t n = tl_tensor_size(t);
    size_t isz = tl_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        tl_scalar s;
        tl_scalar_convert(&s, dt, &vals[i], TL_I64);
        memcpy((char *)tl_tensor_data(t) + i * (int64_t)isz, &s, isz);
    }
    return t;
}

/* x = arange(24).reshape(2, 3, 4) as i64. */
static tl_tensor *x234(void)
{
    int64_t v[24];
    for (int i = 0; i < 24; i++) v[i] = i;
    return ints(TL_I64, 3, I64S(2, 3, 4), v);
}

static void expect_tensor(const tl_tensor *t, int ndim, const int64_t *shape, const int64_t *want)
{
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_eq(t->ndim, ndim, "ndim %d, want %d", t->ndim, ndim);
    for (int k = 0; k < ndim; k++)
        cr_assert_eq(t->shape[k], shape[k], "shape[%d] %lld, want %lld", k, (long long)t->shape[k], (long long)shape[k]);
    int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(t);
    for (int64_t i = 0; i < n; i++) {
        int64_t got = tl_scalar_to_i64(tl_tensor_at(t, idx), t->dtype);
        cr_assert_eq(got, want[i], "element %lld: %lld, want %lld", (long long)i, (long long)got, (long long)want[i]);
        for (int k = ndim - 1; k >= 0; k--) {
            if (++idx[k] < t->shape[k]) break;
            idx[k] = 0;
        }
    }
}

static void expect_strides(const tl_tensor *t, const int64_t *strides, int64_t offset)
{
    for (int k = 0; k < t->ndim; k++) cr_assert_eq(t->strides[k], strides[k], "strides[%d] = %lld", k, (long long)t->strides[k]);
    cr_assert_eq(t->offset, offset);
}

/* ---- basic indexing: views ---------------------------------------------- */

Test(index, basic_indices_give_views)
{
    tl_tensor *x = x234();
    tl_tensor *v = GET(x, INT(1), STEP(-1), NONE, FROM(2, 1));   /* x[1, ::-1, None, 2:] */
    expect_tensor(v, 3, I64S(3, 1, 2), I64S(22, 23, 18, 19, 14, 15));
    expect_strides(v, I64S(-4, 0, 1), 22);
    cr_assert_eq(v->storage, x->storage);
    tl_tensor_release(v);
    v = GET(x, ELL, INT(1));                                      /* x[..., 1] */
    expect_tensor(v, 2, I64S(2, 3), I64S(1, 5, 9, 13, 17, 21));
    expect_strides(v, I64S(12, 4), 1);
    tl_tensor_release(v);
    v = GET(x, SL(-1, -3, -1), SL(5, 0, -2), STEP(3));            /* x[-1:-3:-1, 5:0:-2, ::3] */
    expect_tensor(v, 3, I64S(2, 1, 2), I64S(20, 23, 8, 11));
    expect_strides(v, I64S(-12, -8, 3), 20);
    tl_tensor_release(v);
    v = GET(x);                                                   /* x[()] is x itself as a view */
    expect_strides(v, I64S(12, 4, 1), 0);
    cr_assert_eq(v->storage, x->storage);
    tl_tensor_release(v);
    tl_tensor_release(x);
}

Test(index, basic_index_errors)
{
    tl_tensor *x = x234();
    cr_assert_null(GET(x, INT(0), INT(7)));
    cr_assert_str_eq(tl_errmsg(), "index 7 is out of bounds for axis 1 with size 3");
    cr_assert_null(GET(x, ELL, INT(-5)));
    cr_assert_str_eq(tl_errmsg(), "index -5 is out of bounds for axis 2 with size 4");
    cr_assert_null(GET(x, INT(0), INT(0), INT(0), INT(0)));
    cr_assert_str_eq(tl_errmsg(), "too many indices for tensor: tensor is 3-dimensional, but 4 were indexed");
    cr_assert_null(GET(x, ELL, ELL));
    cr_assert_str_eq(tl_errmsg(), "an index can only have a single ellipsis ('...')");
    cr_assert_null(GET(x, SL(0, 1, 0)));
    cr_assert_str_eq(tl_errmsg(), "slice step cannot be zero");
    tl_tensor *f = tl_tensor_zeros(TL_F32, 1, I64S(2));
    cr_assert_null(GET(x, TEN(f)));
    cr_assert_str_eq(tl_errmsg(), "only integer or boolean tensors can be used as indices, got f32");
    tl_tensor_release(f);
    tl_tensor_release(x);
}

/* ---- advanced indexing: shapes and values from numpy --------------------- */

Test(index, integer_arrays_match_numpy)
{
    tl_tensor *x = x234();
    tl_tensor *i10 = ints(TL_I64, 1, I64S(2), I64S(1, 0));
    tl_tensor *col = ints(TL_I32, 2, I64S(2, 1), I64S(1, 0));
    tl_tensor *i02 = ints(TL_U8, 1, I64S(2), I64S(0, 2));
    tl_tensor *i13 = ints(TL_I16, 1, I64S(2), I64S(1, 3));
    tl_tensor *i01 = ints(TL_I64, 1, I64S(2), I64S(0, 1));
    tl_tensor *i12 = ints(TL_I64, 1, I64S(2), I64S(1, 2));
    tl_tensor *i0 = ints(TL_I64, 1, I64S(1), I64S(0));
    tl_tensor *neg = ints(TL_I64, 1, I64S(2), I64S(-1, 0));
    tl_tensor *m4 = ints(TL_I64, 1, I64S(1), I64S(-4));
    tl_tensor *c20 = ints(TL_I64, 2, I64S(2, 1), I64S(2, 0));
    tl_tensor *i1 = ints(TL_I64, 1, I64S(1), I64S(1));
    tl_tensor *i32 = ints(TL_I64, 1, I64S(2), I64S(3, 2));
    tl_tensor *r;

    r = GET(x, TEN(i10));
    expect_tensor(r, 3, I64S(2, 3, 4), I64S(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    cr_assert_neq(r->storage, x->storage, "advanced indexing copies");
    tl_tensor_release(r);
    r = GET(x, TEN(col), TEN(i02));                    /* x[[[1],[0]], [0,2]] */
    expect_tensor(r, 3, I64S(2, 2, 4), I64S(12, 13, 14, 15, 20, 21, 22, 23, 0, 1, 2, 3, 8, 9, 10, 11));
    tl_tensor_release(r);
    r = GET(x, ALL, TEN(i02), TEN(i13));               /* adjacent: replace in place */
    expect_tensor(r, 2, I64S(2, 2), I64S(1, 11, 13, 23));
    tl_tensor_release(r);
    r = GET(x, TEN(i01), ALL, TEN(i13));               /* separated by a slice: advanced dims first */
    expect_tensor(r, 2, I64S(2, 3), I64S(1, 5, 9, 15, 19, 23));
    tl_tensor_release(r);
    r = GET(x, INT(0), ALL, TEN(i12));                 /* an int counts as an advanced index */
    expect_tensor(r, 2, I64S(2, 3), I64S(1, 5, 9, 2, 6, 10));
    tl_tensor_release(r);
    r = GET(x, ALL, INT(0), TEN(i12));
    expect_tensor(r, 2, I64S(2, 2), I64S(1, 2, 13, 14));
    tl_tensor_release(r);
    r = GET(x, ALL, TEN(i0), NONE, TEN(i0));           /* a new axis separates them */
    expect_tensor(r, 3, I64S(1, 2, 1), I64S(0, 12));
    tl_tensor_release(r);
    r = GET(x, TEN(i0), ELL, TEN(i0));
    expect_tensor(r, 2, I64S(1, 3), I64S(0, 4, 8));
    tl_tensor_release(r);
    r = GET(x, ALL, TEN(i0), ELL, TEN(i0));            /* even an empty ellipsis separates */
    expect_tensor(r, 2, I64S(1, 2), I64S(0, 12));
    tl_tensor_release(r);
    r = GET(x, TEN(neg), FROM(1, 1), TEN(m4));         /* x[[-1, 0], 1:, [-4]] */
    expect_tensor(r, 2, I64S(2, 2), I64S(16, 20, 4, 8));
    tl_tensor_release(r);
    r = GET(x, NONE, TEN(i1), TEN(c20), STEP(2));      /* x[None, [1], [[2],[0]], ::2] */
    expect_tensor(r, 4, I64S(1, 2, 1, 2), I64S(20, 22, 12, 14));
    tl_tensor_release(r);
    r = GET(x, TEN(i10), ELL, TEN(i32));               /* x[[1,0], ..., [3,2]] */
    expect_tensor(r, 2, I64S(2, 3), I64S(15, 19, 23, 2, 6, 10));
    tl_tensor_release(r);

    tl_tensor *ts[] = { x, i10, col, i02, i13, i01, i12, i0, neg, m4, c20, i1, i32 };
    for (int k = 0; k < 13; k++) tl_tensor_release(ts[k]);
}

Test(index, integer_array_errors)
{
    tl_tensor *x = x234();
    tl_tensor *bad = ints(TL_I64, 1, I64S(2), I64S(0, 3));
    tl_tensor *neg = ints(TL_I64, 1, I64S(2), I64S(0, -5));
    tl_tensor *two = ints(TL_I64, 1, I64S(2), I64S(0, 1));
    tl_tensor *three = ints(TL_I64, 1, I64S(3), I64S(0, 1, 2));
    tl_tensor *big = ints(TL_U64, 1, I64S(1), I64S(-1));   /* 2^64-1 */
    cr_assert_null(GET(x, ALL, TEN(bad)));
    cr_assert_str_eq(tl_errmsg(), "index 3 is out of bounds for axis 1 with size 3");
    cr_assert_null(GET(x, ALL, ALL, TEN(neg)));
    cr_assert_str_eq(tl_errmsg(), "index -5 is out of bounds for axis 2 with size 4");
    cr_assert_null(GET(x, TEN(two), TEN(three)));
    cr_assert_str_eq(tl_errmsg(), "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
    cr_assert_null(GET(x, TEN(big)));
    tl_tensor *ts[] = { x, bad, neg, two, three, big };
    for (int k = 0; k < 6; k++) tl_tensor_release(ts[k]);
}

Test(index, zero_d_integer_tensor_acts_as_int_but_copies)
{
    tl_tensor *x = x234();
    tl_tensor *one = ints(TL_I32, 0, NULL, I64S(1)), *m1 = ints(TL_I64, 0, NULL, I64S(-1));
    tl_tensor *r = GET(x, TEN(one), ALL, TEN(m1));
    expect_tensor(r, 1, I64S(3), I64S(15, 19, 23));
    cr_assert_neq(r->storage, x->storage);
    tl_tensor_release(r);
    tl_tensor_release(one);
    tl_tensor_release(m1);
    tl_tensor_release(x);
}

/* ---- bool masks ---------------------------------------------------------- */

static tl_tensor *mask(int ndim, const int64_t *shape, bool (*pred)(int64_t), const tl_tensor *src)
{
    tl_tensor *m = tl_tensor_empty(TL_BOOL, ndim, shape);
    cr_assert(m);
    int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(m);
    for (int64_t i = 0; i < n; i++) {
        ((bool *)tl_tensor_data(m))[i] = pred(*(int64_t *)tl_tensor_at(src, idx));
        for (int k = ndim - 1; k >= 0; k--) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
    return m;
}

static bool gt13(int64_t v) { return v > 13; }
static bool mult3(int64_t v) { return v % 3 == 0; }
static bool gt4(int64_t v) { return v > 4; }

Test(index, bool_masks_match_numpy)
{
    tl_tensor *x = x234();
    tl_tensor *m = mask(3, I64S(2, 3, 4), gt13, x);
    tl_tensor *r = GET(x, TEN(m));                               /* x[x > 13] */
    expect_tensor(r, 1, I64S(10), I64S(14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
    tl_tensor_release(r);
    tl_tensor_release(m);

    tl_tensor *x0 = GET(x, INT(0));
    m = mask(2, I64S(3, 4), mult3, x0);
    r = GET(x, ALL, TEN(m));                                     /* x[:, x[0] % 3 == 0] */
    expect_tensor(r, 2, I64S(2, 4), I64S(0, 3, 6, 9, 12, 15, 18, 21));
    tl_tensor_release(r);
    tl_tensor_release(m);

    tl_tensor *xc = GET(x, ALL, ALL, INT(0));
    m = mask(2, I64S(2, 3), gt4, xc);
    r = GET(x, TEN(m), SL(1, 3, 1));                             /* x[x[:, :, 0] > 4, 1:3] */
    expect_tensor(r, 2, I64S(4, 2), I64S(9, 10, 13, 14, 17, 18, 21, 22));
    tl_tensor_release(r);
    tl_tensor_release(m);

    tl_tensor *tf = ints(TL_BOOL, 1, I64S(3), I64S(1, 0, 1));
    r = GET(x, INT(1), TEN(tf));                                 /* x[1, [True, False, True]] */
    expect_tensor(r, 2, I64S(2, 4), I64S(12, 13, 14, 15, 20, 21, 22, 23));
    tl_tensor_release(r);

    tl_tensor *yes = ints(TL_BOOL, 0, NULL, I64S(1)), *no = ints(TL_BOOL, 0, NULL, I64S(0));
    r = GET(x, TEN(yes));                                        /* x[True]: (1, 2, 3, 4) */
    cr_assert(r, "%s", tl_errmsg());
    cr_assert_eq(r->ndim, 4);
    cr_assert_eq(r->shape[0], 1);
    cr_assert_eq(*(int64_t *)tl_tensor_at(r, I64S(0, 1, 2, 3)), 23);
    tl_tensor_release(r);
    r = GET(x, TEN(no));                                         /* x[False]: (0, 2, 3, 4) */
    expect_tensor(r, 4, I64S(0, 2, 3, 4), NULL);
    tl_tensor_release(r);
    tl_tensor *i01 = ints(TL_I64, 1, I64S(2), I64S(0, 1));
    r = GET(x, ALL, TEN(yes), TEN(i01));                         /* x[:, True, [0,1]]: (2, 2, 4) */
    cr_assert(r, "%s", tl_errmsg());
    cr_assert_eq(r->ndim, 3);
    cr_assert_eq(r->shape[0], 2);
    cr_assert_eq(r->shape[1], 2);
    cr_assert_eq(r->shape[2], 4);
    cr_assert_eq(*(int64_t *)tl_tensor_at(r, I64S(1, 1, 3)), 19);
    tl_tensor_release(r);
    r = GET(x, INT(0), ELL, TEN(yes));                           /* x[0, ..., True]: (1, 3, 4) */
    cr_assert(r, "%s", tl_errmsg());
    cr_assert_eq(r->ndim, 3);
    cr_assert_eq(r->shape[0], 1);
    tl_tensor_release(r);

    tl_tensor *ts[] = { x, x0, xc, tf, yes, no, i01 };
    for (int k = 0; k < 7; k++) tl_tensor_release(ts[k]);
}

Test(index, bool_mask_shape_must_match)
{
    tl_tensor *a = ints(TL_I64, 1, I64S(3), I64S(1, 2, 3));
    tl_tensor *m = ints(TL_BOOL, 1, I64S(4), I64S(1, 0, 1, 0));
    cr_assert_null(GET(a, TEN(m)));
    cr_assert_str_eq(tl_errmsg(), "boolean index did not match indexed tensor along axis 0; "
                                  "size of axis is 3 but size of corresponding boolean axis is 4");
    tl_tensor *x = x234();
    tl_tensor *m2 = ints(TL_BOOL, 2, I64S(3, 3), I64S(1, 0, 1, 0, 1, 0, 1, 0, 1));
    cr_assert_null(GET(x, ALL, TEN(m2)));
    cr_assert_str_eq(tl_errmsg(), "boolean index did not match indexed tensor along axis 2; "
                                  "size of axis is 4 but size of corresponding boolean axis is 3");
    tl_tensor *ts[] = { a, m, x, m2 };
    for (int k = 0; k < 4; k++) tl_tensor_release(ts[k]);
}

/* ---- assignment ---------------------------------------------------------- */

Test(index, set_basic_broadcasts_and_casts)
{
    tl_tensor *x = x234();
    tl_tensor *v = ints(TL_I64, 2, I64S(3, 1), I64S(100, 200, 300));
    cr_assert_eq(SET(x, v, INT(1), ALL, STEP(2)), 0, "%s", tl_errmsg());   /* x[1, :, ::2] = [[100],[200],[300]] */
    expect_tensor(x, 3, I64S(2, 3, 4), I64S(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100, 13, 100, 15, 200, 17, 200, 19, 300, 21, 300, 23));
    double d = 2.7;
    tl_tensor *s = tl_tensor_scalar(TL_F64, &d);
    cr_assert_eq(SET(x, s, INT(0), ELL, INT(0)), 0, "%s", tl_errmsg());    /* x[0, ..., 0] = 2.7 */
    expect_tensor(x, 3, I64S(2, 3, 4), I64S(2, 1, 2, 3, 2, 5, 6, 7, 2, 9, 10, 11, 100, 13, 100, 15, 200, 17, 200, 19, 300, 21, 300, 23));
    tl_tensor_release(s);
    tl_tensor_release(v);
    tl_tensor_release(x);
}

Test(index, set_advanced_scatters_last_duplicate_wins)
{
    tl_tensor *x = x234();
    tl_tensor *a = ints(TL_I64, 1, I64S(3), I64S(0, 0, 1)), *b = ints(TL_I64, 1, I64S(3), I64S(1, 1, 2));
    tl_tensor *c = ints(TL_I64, 1, I64S(3), I64S(0, 0, 3)), *v = ints(TL_I64, 1, I64S(3), I64S(7, 8, 9));
    cr_assert_eq(SET(x, v, TEN(a), TEN(b), TEN(c)), 0, "%s", tl_errmsg());
    expect_tensor(x, 3, I64S(2, 3, 4), I64S(0, 1, 2, 3, 8, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 9));
    tl_tensor *ts[] = { x, a, b, c, v };
    for (int k = 0; k < 5; k++) tl_tensor_release(ts[k]);
}

Test(index, set_with_mask_and_mixed_indices)
{
    tl_tensor *x = x234();
    tl_tensor *m = mask(3, I64S(2, 3, 4), gt13, x);
    int64_t minus1 = -1;
    tl_tensor *s = tl_tensor_scalar(TL_I64, &minus1);
    cr_assert_eq(SET(x, s, TEN(m)), 0, "%s", tl_errmsg());
    expect_tensor(x, 3, I64S(2, 3, 4), I64S(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    tl_tensor *y = x234();
    tl_tensor *i02 = ints(TL_I64, 1, I64S(2), I64S(0, 2)), *v = ints(TL_I64, 2, I64S(1, 2), I64S(50, 51));
    cr_assert_eq(SET(y, v, ALL, TEN(i02), SL(1, 3, 1)), 0, "%s", tl_errmsg());   /* y[:, [0,2], 1:3] = [[50, 51]] */
    expect_tensor(y, 3, I64S(2, 3, 4), I64S(0, 50, 51, 3, 4, 5, 6, 7, 8, 50, 51, 11, 12, 50, 51, 15, 16, 17, 18, 19, 20, 50, 51, 23));
    double f = -5.9;
    tl_tensor *fs = tl_tensor_scalar(TL_F64, &f), *i1 = ints(TL_I64, 1, I64S(1), I64S(1)), *i0 = ints(TL_I64, 1, I64S(1), I64S(0));
    cr_assert_eq(SET(y, fs, TEN(i1), ALL, TEN(i0)), 0, "%s", tl_errmsg());     /* cast truncates toward zero */
    cr_assert_eq(*(int64_t *)tl_tensor_at(y, I64S(1, 2, 0)), -5);
    tl_tensor *ts[] = { x, m, s, y, i02, v, fs, i1, i0 };
    for (int k = 0; k < 9; k++) tl_tensor_release(ts[k]);
}

/* The right side behaves as if copied first (docs/language.md §8), even when it is a view of a. */
Test(index, set_from_overlapping_view_is_safe)
{
    tl_tensor *x = x234();
    tl_tensor *i10 = ints(TL_I64, 1, I64S(2), I64S(1, 0));
    tl_tensor *src = GET(x, ALL, SL(1, 2, 1));                 /* x[:, 1:2], shape (2, 1, 4) */
    cr_assert_eq(SET(x, src, TEN(i10)), 0, "%s", tl_errmsg()); /* x[[1, 0]] = x[:, 1:2] */
    expect_tensor(x, 3, I64S(2, 3, 4), I64S(16, 17, 18, 19, 16, 17, 18, 19, 16, 17, 18, 19, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7));
    tl_tensor *y = x234();
    tl_tensor *i01 = ints(TL_I64, 1, I64S(2), I64S(0, 1));
    tl_tensor *src2 = GET(y, INT(0), SL(1, 3, 1));
    cr_assert_eq(SET(y, src2, INT(0), TEN(i01)), 0, "%s", tl_errmsg());   /* y[0, [0,1]] = y[0, 1:3] */
    expect_tensor(y, 3, I64S(2, 3, 4), I64S(4, 5, 6, 7, 8, 9, 10, 11, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
    tl_tensor *ts[] = { x, i10, src, y, i01, src2 };
    for (int k = 0; k < 6; k++) tl_tensor_release(ts[k]);
}

Test(index, set_errors)
{
    tl_tensor *x = x234();
    tl_tensor *i02 = ints(TL_I64, 1, I64S(2), I64S(0, 2)), *v3 = ints(TL_I64, 1, I64S(3), I64S(1, 2, 3));
    tl_tensor *bad = ints(TL_I64, 1, I64S(5), I64S(1, 2, 3, 4, 5));
    cr_assert_eq(SET(x, v3, INT(0), TEN(i02)), -1);   /* indexing result (2, 4) */
    cr_assert_str_eq(tl_errmsg(), "cannot assign a value of shape (3,) to a selection of shape (2, 4)\n   (3,)\n(2, 4)\n    ^ axis -1: 3 vs 4 (sizes must be equal, or one of them 1)");
    cr_assert_eq(SET(x, bad, INT(0), INT(0)), -1);
    tl_tensor *b = tl_view_broadcast_to(v3, 2, I64S(2, 3));
    cr_assert_eq(SET(b, v3, INT(0)), -1);
    cr_assert_str_eq(tl_errmsg(), "assignment destination is read-only");
    cr_assert_eq(SET(b, v3, TEN(i02)), -1);
    expect_tensor(v3, 1, I64S(3), I64S(1, 2, 3));
    tl_tensor *ts[] = { x, i02, v3, bad, b };
    for (int k = 0; k < 5; k++) tl_tensor_release(ts[k]);
}
