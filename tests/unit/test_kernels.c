/* test_kernels.c — elementwise ops, reductions, linalg, nn, sort, random and threads against numpy */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check.h"
#include "ops.h"
#include "tensor.h"

/* ---- tables generated from numpy ---------------------------------------------
   `/usr/bin/python3 tests/tools/gen_kernel_cases.py > tests/unit/kernel_cases.inc`
   rdt == -1 means numpy (or tl's documented rule) rejects the dtype. */
typedef struct { tl_binop op; tl_dtype dt; int rdt; int n; const char *a, *b, *r; int ulps; } bin_case;
typedef struct { tl_unop op; tl_dtype dt; int rdt; int n; const char *a, *r; int ulps; } un_case;
typedef struct { tl_dtype dt; const char *a; } red_input;
typedef struct {
    tl_redop op; int input; int naxes; int axes[3]; bool keepdims; int ddof;
    tl_dtype rdt; int rnd; int64_t rshape[4]; const char *r;
} red_case;
#include "kernel_cases.inc"

LEAK_CHECKED_SUITE(binary);
LEAK_CHECKED_SUITE(convert);
LEAK_CHECKED_SUITE(unary);
LEAK_CHECKED_SUITE(elementwise);
LEAK_CHECKED_SUITE(reduce);
LEAK_CHECKED_SUITE(threads);
LEAK_CHECKED_SUITE(linalg);
LEAK_CHECKED_SUITE(nn);
LEAK_CHECKED_SUITE(sort);
LEAK_CHECKED_SUITE(random);
LEAK_CHECKED_SUITE(accuracy);

/* ---- helpers ------------------------------------------------------------------ */

static void hex_to_bytes(const char *hex, unsigned char *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
}

static tl_tensor *from_hex(tl_dtype dt, int ndim, const int64_t *shape, const char *hex)
{
    tl_tensor *t = tl_tensor_empty(dt, ndim, shape);
    cr_assert_not_null(t, "%s", tl_errmsg());
    size_t n = (size_t)tl_tensor_size(t) * tl_dtype_size(dt);
    cr_assert_eq(strlen(hex), 2 * n);
    hex_to_bytes(hex, tl_tensor_data(t), n);
    return t;
}

static tl_tensor *vec_f64(int64_t n, const double *v, tl_dtype dt)
{
    tl_tensor *t = tl_tensor_empty(TL_F64, 1, &n);
    memcpy(tl_tensor_data(t), v, sizeof(double) * (size_t)n);
    if (dt == TL_F64) return t;
    tl_tensor *c = tl_cast(t, dt);
    tl_tensor_release(t);
    return c;
}

static tl_tensor *reshaped(tl_tensor *t, int nd, const int64_t *shape)
{
    tl_tensor *r = tl_reshape(t, nd, shape);
    cr_assert_not_null(r, "%s", tl_errmsg());
    tl_tensor_release(t);
    return r;
}

/* Element i of t as f64 (real part); t contiguous. */
static double at(const tl_tensor *t, int64_t i)
{
    return tl_scalar_to_f64((const char *)tl_tensor_data(t) + i * (int64_t)tl_dtype_size(t->dtype), t->dtype);
}

/* Distance in units in the last place between two floats of one dtype
   (NaNs equal each other; -0 and +0 are 0 apart). */
static int64_t ulp_distance(double a, double b, tl_dtype dt)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INT64_MAX;
    if (a == b) return 0;
    if (isinf(a) || isinf(b)) return INT64_MAX;
    int mant = dt == TL_F64 ? 52 : dt == TL_F32 ? 23 : dt == TL_F16 ? 10 : 7;
    int e;
    frexp(fmax(fabs(a), fabs(b)), &e);
    int emin = dt == TL_F64 ? -1021 : dt == TL_F32 ? -125 : dt == TL_F16 ? -13 : -125;
    if (e < emin) e = emin;
    double ulp = ldexp(1.0, e - 1 - mant);
    return (int64_t)llround(fabs(a - b) / ulp);
}

/* Compares n elements of got (contiguous) with expected bytes of the same dtype. */
static int compare_elements(const tl_tensor *got, const unsigned char *want, int64_t n, int ulps, double rtol,
                            const char *what)
{
    tl_dtype dt = got->dtype;
    size_t es = tl_dtype_size(dt);
    tl_tensor *c = tl_contiguous(got);
    const unsigned char *g = tl_tensor_data(c);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        const unsigned char *gp = g + (size_t)i * es, *wp = want + (size_t)i * es;
        bool ok;
        if (tl_is_int(dt) || dt == TL_BOOL) {
            ok = memcmp(gp, wp, es) == 0;
        } else {
            double gz[2], wz[2];
            tl_scalar_to_c128(gp, dt, gz);
            tl_scalar_to_c128(wp, dt, wz);
            tl_dtype part = dt == TL_C64 ? TL_F32 : dt == TL_C128 ? TL_F64 : dt;
            ok = true;
            for (int k = 0; k < (tl_is_complex(dt) ? 2 : 1); k++) {
                bool close = ulp_distance(gz[k], wz[k], part) <= ulps ||
                             (rtol > 0 && fabs(gz[k] - wz[k]) <= rtol * (1 + fabs(wz[k])));
                ok = ok && close;
            }
            if (!ok) cr_log_error("%s: element %lld got (%.17g, %.17g) want (%.17g, %.17g)", what, (long long)i,
                                  gz[0], gz[1], wz[0], wz[1]);
        }
        if (!ok) bad++;
    }
    tl_tensor_release(c);
    return bad;
}

/* 1 (logged) unless r has numpy's dtype rdt and its n elements match the hex
   bytes want_hex within ulps; 0 otherwise. */
static int differs_from_numpy(const tl_tensor *r, int rdt, const char *want_hex, int64_t n, int ulps, const char *what)
{
    cr_expect_eq(r->dtype, (tl_dtype)rdt, "%s: dtype %s, numpy %s", what, tl_dtype_name(r->dtype),
                 rdt < 0 ? "an error" : tl_dtype_name((tl_dtype)rdt));
    if (r->dtype != (tl_dtype)rdt) return 1;
    unsigned char want[512];
    hex_to_bytes(want_hex, want, (size_t)n * tl_dtype_size(r->dtype));
    int bad = compare_elements(r, want, n, ulps, 0, what);
    cr_expect_eq(bad, 0, "%s: %d elements differ from numpy", what, bad);
    return bad != 0;
}

static const char *bin_names[] = { "add", "sub", "mul", "div", "floordiv", "mod", "pow", "eq", "ne", "lt", "le",
                                   "gt", "ge", "and", "or", "xor", "minimum", "maximum", "atan2" };

/* ---- elementwise against numpy ------------------------------------------------------ */

Test(binary, every_op_and_dtype_matches_numpy)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof bin_cases / sizeof *bin_cases; i++) {
        const bin_case *c = &bin_cases[i];
        int64_t n = c->n;
        tl_tensor *a = from_hex(c->dt, 1, &n, c->a), *b = from_hex(c->dt, 1, &n, c->b);
        tl_tensor *r = tl_binary(c->op, a, b, c->dt);
        char what[64];
        snprintf(what, sizeof what, "%s %s", bin_names[c->op], tl_dtype_name(c->dt));
        if (c->rdt < 0) {
            cr_expect_null(r, "%s should be rejected", what);
            failures += r != NULL;
        } else if (!r) {
            cr_expect_not_null(r, "%s failed: %s", what, tl_errmsg());
            failures++;
        } else {
            failures += differs_from_numpy(r, c->rdt, c->r, n, c->ulps, what);
        }
        if (r) tl_tensor_release(r);
        tl_tensor_release(a);
        tl_tensor_release(b);
    }
    cr_assert_eq(failures, 0);
}

/* Writing over an exclusively held operand (temporary elision) gives numpy's
   bytes wherever the result keeps the operand's dtype, and declines otherwise. */
Test(binary, over_exclusive_operand_matches_numpy)
{
    int failures = 0, reused = 0;
    for (size_t i = 0; i < sizeof bin_cases / sizeof *bin_cases; i++) {
        const bin_case *c = &bin_cases[i];
        int64_t n = c->n;
        tl_tensor *a = from_hex(c->dt, 1, &n, c->a), *b = from_hex(c->dt, 1, &n, c->b);
        void *before = tl_tensor_data(a);
        int rc = tl_binary_over(c->op, a, b, c->dt, 1);
        char what[64];
        snprintf(what, sizeof what, "over %s %s", bin_names[c->op], tl_dtype_name(c->dt));
        cr_expect_geq(rc, 0, "%s failed: %s", what, tl_errmsg());
        if (rc > 0) {
            reused++;
            cr_expect_eq(tl_tensor_data(a), before);
            failures += differs_from_numpy(a, c->rdt, c->r, n, c->ulps, what);
        }
        tl_tensor_release(a);
        tl_tensor_release(b);
    }
    cr_expect_gt(reused, 100, "only %d cases were written over their operand", reused);
    cr_assert_eq(failures, 0);
}

/* An operand something else can see is never written over. */
Test(binary, over_declines_shared_operands)
{
    double v[4] = { 1, 2, 3, 4 };
    tl_tensor *a = vec_f64(4, v, TL_F32), *b = vec_f64(4, v, TL_F32);
    tl_tensor_retain(a);   /* a second holder */
    cr_expect_eq(tl_binary_over(TL_ADD, a, b, TL_F32, 1), 0);
    cr_expect_eq(tl_binary_over(TL_ADD, a, b, TL_F32, 2), 1, "both references are the caller's: %s", tl_errmsg());
    tl_tensor_release(a);
    tl_tensor *view = tl_view_slice(a, 0, 0, 2, 1, true, true);   /* shares a's storage */
    cr_expect_eq(tl_binary_over(TL_ADD, a, b, TL_F32, 1), 0);
    cr_expect_eq(tl_binary_over(TL_ADD, view, b, TL_F32, 1), 0);
    cr_expect_eq(at(view, 1), 4.0, "the shared elements are unchanged");
    tl_tensor_release(view);
    cr_expect_eq(tl_binary_over(TL_ADD, a, a, TL_F32, 1), 0, "an operand aliasing the output");
    cr_expect_eq(tl_binary_over(TL_LT, a, b, TL_F32, 1), 0, "the result (bool) is not a's dtype");
    cr_expect_eq(at(a, 3), 8.0);
    int64_t row = 4, shape2[2] = { 3, 4 };
    tl_tensor *m = tl_tensor_zeros(TL_F32, 2, shape2);
    cr_expect_eq(tl_binary_over(TL_ADD, m, b, TL_F32, 1), 1, "b broadcasts to m's shape");
    cr_expect_eq(at(m, 11), 4.0);
    int64_t big_shape[2] = { 2000, 4 };   /* more than one iteration chunk: Ctrl-C could cut it short */
    tl_tensor *big = tl_tensor_zeros(TL_F32, 2, big_shape);
    cr_expect_eq(tl_binary_over(TL_ADD, big, b, TL_F32, 1), 1, "8000 elements: one chunk");
    tl_tensor_release(big);
    big_shape[0] = 5000;
    big = tl_tensor_zeros(TL_F32, 2, big_shape);
    cr_expect_eq(tl_binary_over(TL_ADD, big, b, TL_F32, 1), 0, "20000 elements: declined");
    cr_expect_eq(at(big, 19999), 0.0);
    tl_tensor_release(big);
    tl_tensor *col = tl_tensor_zeros(TL_F32, 1, &row);
    cr_expect_eq(tl_binary_over(TL_ADD, col, m, TL_F32, 1), 0, "the result would be bigger than the operand");
    tl_tensor_release(col);
    tl_tensor_release(m);
    tl_tensor_release(a);
    tl_tensor_release(b);
}

/* Headers and small storages come back from the per-thread lists clean. */
Test(binary, recycled_small_tensors_start_fresh)
{
    int64_t n = 5;
    for (int round = 0; round < 200; round++) {
        tl_tensor *z = tl_tensor_zeros(TL_F64, 1, &n);
        for (int64_t i = 0; i < n; i++) cr_assert_eq(at(z, i), 0.0, "round %d element %lld", round, (long long)i);
        cr_assert_eq(z->refcount, 1);
        cr_assert_eq(z->storage->refcount, 1);
        cr_assert_eq(z->offset, 0);
        cr_assert(!z->readonly);
        cr_assert_eq((uintptr_t)tl_tensor_data(z) % 64, 0, "data stays 64-byte aligned");
        ((double *)tl_tensor_data(z))[2] = 7;   /* dirty it for the next round */
        tl_tensor_release(z);
    }
}

/* contiguous(X.T) of 4-byte elements, checked element by element: the
   in-register 16x16 (AVX-512) or 8x8 (AVX2) tiles, their ragged edges, and the streaming-store path
   (an output of 16 MiB or more with 64-byte aligned rows). */
Test(convert, blocked_transpose_copies_every_element)
{
    const int64_t shapes[][2] = { { 2048, 2048 }, { 1037, 4099 }, { 33, 47 } };
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        tl_tensor *x = tl_tensor_empty(TL_I32, 2, shapes[k]);
        int32_t *xv = tl_tensor_data(x);
        int64_t rows = shapes[k][0], cols = shapes[k][1];
        for (int64_t i = 0; i < rows * cols; i++) xv[i] = (int32_t)(i * 2654435761u);
        tl_tensor *xt = tl_view_transpose(x);
        tl_tensor *y = tl_contiguous(xt);
        cr_assert_not_null(y, "%s", tl_errmsg());
        cr_assert(tl_is_contiguous(y));
        const int32_t *yv = tl_tensor_data(y);
        int64_t bad = 0;
        for (int64_t c = 0; c < cols; c++)
            for (int64_t r = 0; r < rows; r++) bad += yv[c * rows + r] != xv[r * cols + c];
        cr_expect_eq(bad, 0, "(%lld, %lld): %lld elements misplaced", (long long)rows, (long long)cols, (long long)bad);
        tl_tensor_release(y);
        tl_tensor_release(xt);
        tl_tensor_release(x);
    }
}

Test(unary, every_op_and_dtype_matches_numpy)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof un_cases / sizeof *un_cases; i++) {
        const un_case *c = &un_cases[i];
        int64_t n = c->n;
        tl_tensor *a = from_hex(c->dt, 1, &n, c->a);
        tl_tensor *r = tl_unary(c->op, a);
        char what[64];
        snprintf(what, sizeof what, "unary op %d on %s", (int)c->op, tl_dtype_name(c->dt));
        if (c->rdt < 0) {
            cr_expect_null(r, "%s should be rejected", what);
            failures += r != NULL;
        } else if (!r) {
            cr_expect_not_null(r, "%s failed: %s", what, tl_errmsg());
            failures++;
        } else {
            cr_expect_eq(tl_unop_result_dtype(c->op, c->dt), r->dtype);
            failures += differs_from_numpy(r, c->rdt, c->r, n, c->ulps, what);
        }
        if (r) tl_tensor_release(r);
        tl_tensor_release(a);
    }
    cr_assert_eq(failures, 0);
}

Test(binary, integer_division_by_zero_is_an_error)
{
    int64_t n = 3;
    double av[] = { 7, -7, 1 }, bv[] = { 2, 0, 1 };
    tl_tensor *a = vec_f64(n, av, TL_I32), *b = vec_f64(n, bv, TL_I32);
    cr_expect_null(tl_binary(TL_FLOORDIV, a, b, TL_I32));
    cr_expect_str_eq(tl_errmsg(), "integer division by zero");
    cr_expect_null(tl_binary(TL_MOD, a, b, TL_I32));
    cr_expect_str_eq(tl_errmsg(), "integer division by zero");
    /* and the output of a failed in-place op is untouched */
    cr_expect_eq(tl_binary_into(TL_FLOORDIV, a, a, b, TL_I32), -1);
    cr_expect_eq(at(a, 0), 7);
    tl_tensor *f = tl_binary(TL_DIV, a, b, TL_I32);     /* true division: f64 with inf */
    cr_assert_not_null(f);
    cr_expect_eq(f->dtype, TL_F64);
    cr_expect(isinf(at(f, 1)) && at(f, 1) < 0);
    tl_tensor *neg = vec_f64(n, (double[]){ 2, -1, 0 }, TL_I64);
    cr_expect_null(tl_binary(TL_POW, a, neg, TL_I64));
    cr_expect_str_eq(tl_errmsg(), "integers to negative integer powers are not allowed");
    tl_tensor *all[] = { a, b, f, neg };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
}

Test(binary, integer_overflow_wraps_and_floor_semantics)
{
    /* np.int8(127) + np.int8(1) == -128; np.uint8(0) - np.uint8(1) == 255;
       np.int32(65536) * np.int32(65536) == 0; -7 // 2 == -4; -7 % 2 == 1; 7 % -2 == -1 */
    int64_t one = 1;
    tl_tensor *x = vec_f64(1, (double[]){ 127 }, TL_I8), *y = vec_f64(1, (double[]){ 1 }, TL_I8);
    tl_tensor *r = tl_binary(TL_ADD, x, y, TL_I8);
    cr_expect_eq(at(r, 0), -128);
    tl_tensor *u0 = tl_tensor_zeros(TL_U8, 1, &one), *u1 = tl_cast(y, TL_U8);
    tl_tensor *r2 = tl_binary(TL_SUB, u0, u1, TL_U8);
    cr_expect_eq(at(r2, 0), 255);
    tl_tensor *big = vec_f64(1, (double[]){ 65536 }, TL_I32), *r3 = tl_binary(TL_MUL, big, big, TL_I32);
    cr_expect_eq(at(r3, 0), 0);
    tl_tensor *p = vec_f64(2, (double[]){ -7, 7 }, TL_I64), *q = vec_f64(2, (double[]){ 2, -2 }, TL_I64);
    tl_tensor *fd = tl_binary(TL_FLOORDIV, p, q, TL_I64), *md = tl_binary(TL_MOD, p, q, TL_I64);
    cr_expect_eq(at(fd, 0), -4);
    cr_expect_eq(at(fd, 1), -4);
    cr_expect_eq(at(md, 0), 1);
    cr_expect_eq(at(md, 1), -1);
    tl_tensor *all[] = { x, y, r, u0, u1, r2, big, r3, p, q, fd, md };
    for (int i = 0; i < 12; i++) tl_tensor_release(all[i]);
}

Test(binary, scalar_powers_follow_numpy_fast_paths)
{
    /* x = np.array([-0., 2, -inf, 9], np.float32): x ** np.array(0.5) -> [-0. 1.4142135 nan 3.]
       (sqrt, not pow: pow would give +0 and inf); x ** -1 -> [-inf 0.5 -0. 0.11111111];
       x ** np.array([0.5]), an exponent of shape (1,), is pow: [0. 1.4142135 inf 3.] */
    tl_tensor *x = vec_f64(4, (double[]){ -0.0, 2, -INFINITY, 9 }, TL_F32);
    tl_tensor *h = tl_tensor_from_f64(TL_F64, 0.5), *m1 = tl_tensor_from_f64(TL_F64, -1);
    tl_tensor *h1 = vec_f64(1, (double[]){ 0.5 }, TL_F64);
    tl_tensor *r = tl_binary(TL_POW, x, h, TL_F32), *q = tl_binary(TL_POW, x, m1, TL_F32);
    tl_tensor *g = tl_binary(TL_POW, x, h1, TL_F32);
    cr_assert(r && q && g);
    cr_expect(at(r, 0) == 0 && signbit(at(r, 0)));
    cr_expect_eq((float)at(r, 1), 1.4142135f);
    cr_expect(isnan(at(r, 2)));
    cr_expect_eq(at(r, 3), 3);
    cr_expect(isinf(at(q, 0)) && at(q, 0) < 0);
    cr_expect(at(q, 2) == 0 && signbit(at(q, 2)));
    cr_expect(at(g, 0) == 0 && !signbit(at(g, 0)));
    cr_expect(isinf(at(g, 2)) && at(g, 2) > 0);
    cr_expect_eq(r->dtype, TL_F32);
    tl_tensor *all[] = { x, h, m1, h1, r, q, g };
    for (int i = 0; i < 7; i++) tl_tensor_release(all[i]);
}

Test(binary, broadcasting_and_shape_errors)
{
    int64_t s31[] = { 3, 1 }, s4 = 4;
    tl_tensor *a = reshaped(vec_f64(3, (double[]){ 0, 10, 20 }, TL_F64), 2, s31);
    tl_tensor *b = vec_f64(4, (double[]){ 1, 2, 3, 4 }, TL_F64);
    tl_tensor *r = tl_binary(TL_ADD, a, b, TL_F64);
    cr_assert_not_null(r);
    cr_expect_eq(r->ndim, 2);
    cr_expect_eq(r->shape[0], 3);
    cr_expect_eq(r->shape[1], 4);
    cr_expect_eq(at(r, 11), 24);
    tl_tensor *c = vec_f64(5, (double[]){ 1, 2, 3, 4, 5 }, TL_F64);
    cr_expect_null(tl_binary(TL_ADD, r, c, TL_F64));
    cr_expect_str_eq(tl_errmsg(), "cannot broadcast shapes (3, 4) and (5,)\n(3, 4)\n   (5,)\n    ^ axis -1: 4 vs 5 (sizes must be equal, or one of them 1)");
    (void)s4;
    tl_tensor *all[] = { a, b, r, c };
    for (int i = 0; i < 4; i++) tl_tensor_release(all[i]);
}

Test(binary, into_overlapping_output_gives_the_no_alias_result)
{
    /* a = np.arange(6); a[1:] += a[:-1]  -> [0 1 3 5 7 9] */
    tl_tensor *a = vec_f64(6, (double[]){ 0, 1, 2, 3, 4, 5 }, TL_I64);
    tl_tensor *hi = tl_view_slice(a, 0, 1, 0, 1, true, false), *lo = tl_view_slice(a, 0, 0, -1, 1, true, true);
    cr_assert_eq(tl_binary_into(TL_ADD, hi, hi, lo, TL_I64), 0, "%s", tl_errmsg());
    double want[] = { 0, 1, 3, 5, 7, 9 };
    for (int i = 0; i < 6; i++) cr_expect_eq(at(a, i), want[i]);
    /* b = np.arange(9).reshape(3, 3); b += b.T -> [0 4 8 4 8 12 8 12 16] */
    int64_t s33[] = { 3, 3 };
    tl_tensor *b = reshaped(vec_f64(9, (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8 }, TL_I64), 2, s33);
    tl_tensor *bt = tl_view_transpose(b);
    cr_assert_eq(tl_binary_into(TL_ADD, b, b, bt, TL_I64), 0);
    double wb[] = { 0, 4, 8, 4, 8, 12, 8, 12, 16 };
    for (int i = 0; i < 9; i++) cr_expect_eq(at(b, i), wb[i]);
    /* x += y with exact aliasing, and a result cast into an f32 output */
    tl_tensor *x = vec_f64(3, (double[]){ 1, 2, 3 }, TL_F32);
    cr_assert_eq(tl_binary_into(TL_MUL, x, x, x, TL_F64), 0);
    cr_expect_eq(at(x, 2), 9);
    cr_expect_eq(x->dtype, TL_F32);
    tl_tensor *all[] = { a, hi, lo, b, bt, x };
    for (int i = 0; i < 6; i++) tl_tensor_release(all[i]);
}

Test(elementwise, where_and_clip)
{
    /* np.where([T,F,T], [1,2,3], 9) -> [1 9 3]; np.clip([-1, nan, 5, 2], 0, 3) -> [0 nan 3 2] */
    tl_tensor *c = vec_f64(3, (double[]){ 1, 0, 1 }, TL_BOOL);
    tl_tensor *a = vec_f64(3, (double[]){ 1, 2, 3 }, TL_I32), *nine = vec_f64(1, (double[]){ 9 }, TL_I32);
    tl_tensor *w = tl_where(c, a, nine, TL_I32);
    cr_assert_not_null(w, "%s", tl_errmsg());
    cr_expect_eq(at(w, 0), 1);
    cr_expect_eq(at(w, 1), 9);
    cr_expect_eq(at(w, 2), 3);
    tl_tensor *x = vec_f64(4, (double[]){ -1, NAN, 5, 2 }, TL_F32);
    tl_tensor *lo = vec_f64(1, (double[]){ 0 }, TL_F32), *hi = vec_f64(1, (double[]){ 3 }, TL_F32);
    tl_tensor *cl = tl_clip(x, lo, hi, TL_F32);
    cr_expect_eq(at(cl, 0), 0);
    cr_expect(isnan(at(cl, 1)));
    cr_expect_eq(at(cl, 2), 3);
    cr_expect_eq(at(cl, 3), 2);
    tl_tensor *all[] = { c, a, nine, w, x, lo, hi, cl };
    for (int i = 0; i < 8; i++) tl_tensor_release(all[i]);
}

/* ---- reductions -------------------------------------------------------------------------- */

Test(reduce, every_op_dtype_and_axes_matches_numpy)
{
    int failures = 0;
    int64_t shape[3] = { 3, 4, 5 };
    for (size_t i = 0; i < sizeof red_cases / sizeof *red_cases; i++) {
        const red_case *c = &red_cases[i];
        const red_input *in = &red_inputs[c->input];
        tl_tensor *a = from_hex(in->dt, 3, shape, in->a);
        tl_tensor *r = tl_reduce(c->op, a, c->naxes, c->axes, c->keepdims, c->ddof);
        char what[96];
        snprintf(what, sizeof what, "reduce op %d of %s over %d axes (%d %d) keepdims %d", (int)c->op,
                 tl_dtype_name(in->dt), c->naxes, c->axes[0], c->axes[1], c->keepdims);
        if (!r) {
            cr_expect_not_null(r, "%s failed: %s", what, tl_errmsg());
            failures++;
            tl_tensor_release(a);
            continue;
        }
        bool shape_ok = r->ndim == c->rnd && r->dtype == c->rdt;
        for (int d = 0; shape_ok && d < c->rnd; d++) shape_ok = r->shape[d] == c->rshape[d];
        cr_expect(shape_ok, "%s: got dtype %s ndim %d, numpy %s ndim %d", what, tl_dtype_name(r->dtype), r->ndim,
                  tl_dtype_name(c->rdt), c->rnd);
        if (shape_ok) {
            int64_t n = tl_tensor_size(r);
            unsigned char want[1024];
            hex_to_bytes(c->r, want, (size_t)n * tl_dtype_size(r->dtype));
            double rtol = r->dtype == TL_F16 || r->dtype == TL_BF16 ? 1e-2 : r->dtype == TL_F32 || r->dtype == TL_C64 ? 2e-6 : 1e-13;
            int bad = compare_elements(r, want, n, 2, rtol, what);
            cr_expect_eq(bad, 0, "%s: %d elements differ", what, bad);
            failures += bad != 0;
        } else {
            failures++;
        }
        tl_tensor_release(r);
        tl_tensor_release(a);
    }
    cr_assert_eq(failures, 0);
}

Test(reduce, pairwise_sum_of_ten_million_f32_matches_numpy_bits)
{
    /* np.sum(np.full(10**7, 0.1, np.float32)) == 999989.44 (bits 0x49742357):
       numpy sums 8192-element blocks pairwise and adds the blocks in order */
    int64_t n = 10000000;
    float tenth = 0.1f;
    tl_tensor *a = tl_full(TL_F32, 1, &n, &tenth);
    for (int threads = 1; threads <= 2; threads++) {
        tl_set_threads(threads);
        tl_tensor *s = tl_reduce(TL_RSUM, a, 0, NULL, false, 0);
        float v = *(float *)tl_tensor_data(s);
        uint32_t bits;
        memcpy(&bits, &v, 4);
        cr_expect_eq(bits, 0x49742357u, "threads=%d: got %.9g", threads, v);
        tl_tensor_release(s);
    }
    tl_tensor_release(a);
}

Test(reduce, empty_reductions)
{
    int64_t z = 0, s03[] = { 0, 3 };
    tl_tensor *e = tl_tensor_empty(TL_F32, 1, &z);
    tl_tensor *s = tl_reduce(TL_RSUM, e, 0, NULL, false, 0), *p = tl_reduce(TL_RPROD, e, 0, NULL, false, 0);
    cr_expect_eq(at(s, 0), 0);
    cr_expect_eq(at(p, 0), 1);
    cr_expect_null(tl_reduce(TL_RMIN, e, 0, NULL, false, 0));
    cr_expect_str_eq(tl_errmsg(), "zero-size array to reduction operation minimum which has no identity");
    cr_expect_null(tl_reduce(TL_RARGMAX, e, 0, NULL, false, 0));
    cr_expect_str_eq(tl_errmsg(), "attempt to get argmax of an empty sequence");
    /* np.zeros((0, 3)).max(axis=1) is an empty array, not an error */
    tl_tensor *e2 = tl_tensor_empty(TL_F64, 2, s03);
    int ax1 = 1;
    tl_tensor *m = tl_reduce(TL_RMAX, e2, 1, &ax1, false, 0);
    cr_assert_not_null(m);
    cr_expect_eq(m->shape[0], 0);
    tl_tensor *all[] = { e, s, p, e2, m };
    for (int i = 0; i < 5; i++) tl_tensor_release(all[i]);
}

Test(reduce, nan_handling)
{
    /* np.min([1, nan, 0]) is nan; np.argmax([1, nan, 5, nan]) == 1 */
    tl_tensor *a = vec_f64(4, (double[]){ 1, NAN, 5, NAN }, TL_F32);
    tl_tensor *mn = tl_reduce(TL_RMIN, a, 0, NULL, false, 0), *am = tl_reduce(TL_RARGMAX, a, 0, NULL, false, 0);
    cr_expect(isnan(at(mn, 0)));
    cr_expect_eq(at(am, 0), 1);
    /* long rows take the SIMD path: a NaN in the middle still wins, and
       without one the extreme is found (np.arange(1000.)[::-1].min() == 0) */
    double v[1000];
    for (int i = 0; i < 1000; i++) v[i] = 999 - i;
    tl_tensor *big = vec_f64(1000, v, TL_F32);
    tl_tensor *bmin = tl_reduce(TL_RMIN, big, 0, NULL, false, 0), *bmax = tl_reduce(TL_RMAX, big, 0, NULL, false, 0);
    cr_expect_eq(at(bmin, 0), 0);
    cr_expect_eq(at(bmax, 0), 999);
    v[517] = NAN;
    tl_tensor *bn = vec_f64(1000, v, TL_F64);
    tl_tensor *nmin = tl_reduce(TL_RMIN, bn, 0, NULL, false, 0), *nmax = tl_reduce(TL_RMAX, bn, 0, NULL, false, 0);
    cr_expect(isnan(at(nmin, 0)) && isnan(at(nmax, 0)));
    tl_tensor *all[] = { a, mn, am, big, bmin, bmax, bn, nmin, nmax };
    for (int i = 0; i < 9; i++) tl_tensor_release(all[i]);
}

/* Fills an f32 tensor with a fixed pseudo-random sequence. */
static tl_tensor *noise_f32(int nd, const int64_t *shape)
{
    tl_tensor *t = tl_tensor_empty(TL_F32, nd, shape);
    float *p = tl_tensor_data(t);
    uint64_t s = 88172645463325252ull;
    for (int64_t i = 0; i < tl_tensor_size(t); i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        p[i] = (float)((double)(s >> 11) * 0x1p-53 - 0.5);
    }
    return t;
}

static bool same_bits(const tl_tensor *a, const tl_tensor *b)
{
    return a->dtype == b->dtype && tl_tensor_size(a) == tl_tensor_size(b) &&
           memcmp(tl_tensor_data(a), tl_tensor_data(b), (size_t)tl_tensor_size(a) * tl_dtype_size(a->dtype)) == 0;
}

Test(reduce, leading_axis_sums_add_rows_in_order_like_numpy)
{
    /* numpy's sum(axis=0) adds row after row from 0; tl does the same within
       chunks of 512 rows (eight rows per pass over the accumulator when rows
       are long, one at a time when short), then adds the chunks' sums in
       order: identical bits to this loop. Short rows, long rows with a
       ragged count, and more than one chunk. */
    const int64_t shapes[][2] = { { 37, 50 }, { 37, 1100 }, { 1003, 1030 } };
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        int64_t rows = shapes[k][0], cols = shapes[k][1];
        tl_tensor *m = noise_f32(2, shapes[k]);
        int ax0 = 0;
        tl_tensor *s = tl_reduce(TL_RSUM, m, 1, &ax0, false, 0), *mx = tl_reduce(TL_RMAX, m, 1, &ax0, false, 0);
        const float *p = tl_tensor_data(m);
        int bad = 0;
        for (int64_t j = 0; j < cols; j++) {
            float total = 0, best = p[j];
            for (int64_t c0 = 0; c0 < rows; c0 += 512) {
                float acc = 0;
                for (int64_t i = c0; i < rows && i < c0 + 512; i++) {
                    acc += p[i * cols + j];
                    best = p[i * cols + j] > best ? p[i * cols + j] : best;
                }
                total = c0 == 0 ? acc : total + acc;
            }
            bad += ((const float *)tl_tensor_data(s))[j] != total || ((const float *)tl_tensor_data(mx))[j] != best;
        }
        cr_expect_eq(bad, 0, "(%lld, %lld): %d columns differ", (long long)rows, (long long)cols, bad);
        tl_tensor_release(m);
        tl_tensor_release(s);
        tl_tensor_release(mx);
    }
}

Test(reduce, narrow_integer_and_bool_sums_widen_while_reading)
{
    /* bool and i8/i16/i32/u8.. sums read the input directly into 64-bit totals
       (np.sum of int8 is int64: no wrap at 127), on one long run and per row */
    int64_t n = 1000003, s2[2] = { 1000, 1000 };
    tl_tensor *x = noise_f32(1, &n);
    tl_tensor *hundred = vec_f64(1, (double[]){ 100 }, TL_F32), *zero = vec_f64(1, (double[]){ 0 }, TL_F32);
    tl_tensor *scaled = tl_binary(TL_MUL, x, hundred, TL_F32);
    tl_tensor *i8 = tl_cast(scaled, TL_I8), *mask = tl_binary(TL_GT, x, zero, TL_F32);
    int64_t want_i8 = 0, want_mask = 0;
    const int8_t *pi = tl_tensor_data(i8);
    const bool *pm = tl_tensor_data(mask);
    for (int64_t i = 0; i < n; i++) {
        want_i8 += pi[i];
        want_mask += pm[i];
    }
    tl_tensor *si = tl_reduce(TL_RSUM, i8, 0, NULL, false, 0), *sm = tl_reduce(TL_RSUM, mask, 0, NULL, false, 0);
    cr_assert(si && sm);
    cr_expect_eq(si->dtype, TL_I64);
    cr_expect_eq(*(int64_t *)tl_tensor_data(si), want_i8);
    cr_expect_eq(*(int64_t *)tl_tensor_data(sm), want_mask);
    /* per row (contiguous runs) and per column (widened first) agree on the total */
    tl_tensor *m = tl_view_slice(i8, 0, 0, 1000000, 1, true, true), *m2 = tl_reshape(m, 2, s2);
    int ax0 = 0, ax1 = 1;
    tl_tensor *rows = tl_reduce(TL_RSUM, m2, 1, &ax1, false, 0), *cols = tl_reduce(TL_RSUM, m2, 1, &ax0, false, 0);
    tl_tensor *t1 = tl_reduce(TL_RSUM, rows, 0, NULL, false, 0), *t2 = tl_reduce(TL_RSUM, cols, 0, NULL, false, 0);
    cr_expect_eq(*(int64_t *)tl_tensor_data(t1), *(int64_t *)tl_tensor_data(t2));
    cr_expect_eq(*(int64_t *)tl_tensor_data(t1), want_i8 - pi[1000000] - pi[1000001] - pi[1000002]);
    tl_tensor *all[] = { x, hundred, zero, scaled, i8, mask, si, sm, m, m2, rows, cols, t1, t2 };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) tl_tensor_release(all[i]);
}

Test(threads, results_do_not_depend_on_thread_count)
{
    int64_t shape[2] = { 700, 1500 }, n = 2000003;
    tl_tensor *m = noise_f32(2, shape), *v = noise_f32(1, &n);
    int ax0 = 0, ax1 = 1;
    tl_tensor *r[2][6];
    for (int t = 0; t < 2; t++) {
        tl_set_threads(t + 1);
        tl_seed(42);
        r[t][0] = tl_reduce(TL_RSUM, v, 0, NULL, false, 0);
        r[t][1] = tl_reduce(TL_RSUM, m, 1, &ax0, false, 0);
        r[t][2] = tl_reduce(TL_RSUM, m, 1, &ax1, false, 0);
        r[t][3] = tl_unary(TL_EXP, v);
        r[t][4] = tl_randn(TL_F64, 1, &n);
        r[t][5] = tl_softmax(m, -1, false);
    }
    tl_set_threads(2);
    for (int k = 0; k < 6; k++) {
        cr_assert(r[0][k] && r[1][k], "%s", tl_errmsg());
        cr_expect(same_bits(r[0][k], r[1][k]), "result %d differs between 1 and 2 threads", k);
        tl_tensor_release(r[0][k]);
        tl_tensor_release(r[1][k]);
    }
    tl_tensor_release(m);
    tl_tensor_release(v);
}

Test(elementwise, streaming_stores_match_cached_stores)
{
    /* outputs above 16 MB are written with streaming stores: compare them, at an
       unaligned start too, with results small enough to take the cached path */
    int64_t n = 5000011;
    tl_tensor *x = noise_f32(1, &n), *y = noise_f32(1, &n);
    tl_tensor *big_exp = tl_unary(TL_EXP, x), *big_add = tl_binary(TL_ADD, x, y, TL_F32);
    tl_tensor *xs = tl_view_slice(x, 0, 3, 300003, 1, true, true), *ys = tl_view_slice(y, 0, 3, 300003, 1, true, true);
    tl_tensor *small_exp = tl_unary(TL_EXP, xs), *small_add = tl_binary(TL_ADD, xs, ys, TL_F32);
    cr_assert(big_exp && big_add && small_exp && small_add);
    cr_expect(memcmp((float *)tl_tensor_data(big_exp) + 3, tl_tensor_data(small_exp), 300000 * 4) == 0);
    cr_expect(memcmp((float *)tl_tensor_data(big_add) + 3, tl_tensor_data(small_add), 300000 * 4) == 0);
    const float *px = tl_tensor_data(x), *py = tl_tensor_data(y), *pa = tl_tensor_data(big_add);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += pa[i] != px[i] + py[i];
    cr_expect_eq(bad, 0);
    tl_tensor *all[] = { x, y, big_exp, big_add, xs, ys, small_exp, small_add };
    for (int i = 0; i < 8; i++) tl_tensor_release(all[i]);
}

Test(elementwise, reused_outputs_never_alias_live_tensors)
{
    /* large results reuse the pooled block of dead ones: a live result's is
       never handed out again, and a reused one holds the right values */
    int64_t n = 1 << 20;
    tl_tensor *x = noise_f32(1, &n);
    tl_tensor *r1 = tl_unary(TL_NEG, x), *r2 = tl_unary(TL_NEG, x);
    cr_assert(r1 && r2);
    cr_expect(!tl_shares_memory(r1, r2) && !tl_shares_memory(r1, x) && !tl_shares_memory(r2, x));
    void *old = r1->storage->data;
    tl_tensor_release(r1);
    tl_tensor *r3 = tl_binary(TL_ADD, x, x, TL_F32);
    if (!getenv("TL_POOL_MB")) cr_expect_eq(r3->storage->data, old, "the dead result's block is reused");
    cr_expect(!tl_shares_memory(r3, r2));
    const float *px = tl_tensor_data(x), *p3 = tl_tensor_data(r3);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) bad += p3[i] != px[i] + px[i];
    cr_expect_eq(bad, 0);
    tl_tensor_release(r2);
    tl_tensor_release(r3);
    tl_pool_trim();
    tl_tensor_release(x);
}

Test(elementwise, large_half_tensors_match_the_per_element_loops)
{
    /* f16/bf16 tensors above 4096 elements are widened to f32 in bulk: the
       binary results must keep the per-element loops' bits, unary ones within 1 ulp */
    int64_t n = 12000;
    tl_tensor *x32 = noise_f32(1, &n), *y32 = noise_f32(1, &n);
    tl_binop ops[] = { TL_ADD, TL_SUB, TL_MUL, TL_DIV, TL_POW, TL_LT, TL_MAXIMUM, TL_FLOORDIV };
    for (int h = 0; h < 2; h++) {
        tl_dtype dt = h ? TL_BF16 : TL_F16;
        tl_tensor *x = tl_cast(x32, dt), *y = tl_cast(y32, dt);
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
            tl_tensor *big = tl_binary(ops[k], x, y, dt);
            cr_assert_not_null(big, "%s", tl_errmsg());
            size_t es = tl_dtype_size(big->dtype);
            int bad = 0;
            for (int64_t i = 0; i < n; i += 997) {          /* spot elements, one at a time */
                tl_tensor *xi = tl_view_slice(x, 0, i, i + 1, 1, true, true), *yi = tl_view_slice(y, 0, i, i + 1, 1, true, true);
                tl_tensor *r = tl_binary(ops[k], xi, yi, dt);
                bad += memcmp((char *)tl_tensor_data(big) + (size_t)i * es, tl_tensor_data(r), es) != 0;
                tl_tensor_release(xi);
                tl_tensor_release(yi);
                tl_tensor_release(r);
            }
            cr_expect_eq(bad, 0, "%s op %d: %d spot checks differ", tl_dtype_name(dt), (int)ops[k], bad);
            tl_tensor_release(big);
        }
        tl_tensor *e = tl_unary(TL_EXP, x);
        for (int64_t i = 0; i < n; i += 997) {
            tl_tensor *xi = tl_view_slice(x, 0, i, i + 1, 1, true, true), *r = tl_unary(TL_EXP, xi);
            cr_expect(ulp_distance(at(e, i), at(r, 0), dt) <= 1, "%s exp differs at %lld", tl_dtype_name(dt), (long long)i);
            tl_tensor_release(xi);
            tl_tensor_release(r);
        }
        cr_expect_eq(e->dtype, dt);
        tl_tensor_release(e);
        tl_tensor_release(x);
        tl_tensor_release(y);
    }
    tl_tensor_release(x32);
    tl_tensor_release(y32);
}

Test(reduce, cumsum_dtypes_and_axes)
{
    /* np.cumsum(np.array([[1, 2], [3, 4]], np.int8), axis=0) -> int64 [[1 2] [4 6]];
       np.cumsum(...) flattened -> [1 3 6 10] */
    int64_t s22[] = { 2, 2 };
    tl_tensor *a = reshaped(vec_f64(4, (double[]){ 1, 2, 3, 4 }, TL_I8), 2, s22);
    tl_tensor *c0 = tl_cumsum(a, 0), *cf = tl_cumsum(a, TL_AXIS_NONE);
    cr_assert(c0 && cf);
    cr_expect_eq(c0->dtype, TL_I64);
    double w0[] = { 1, 2, 4, 6 }, wf[] = { 1, 3, 6, 10 };
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(at(c0, i), w0[i]);
        cr_expect_eq(at(cf, i), wf[i]);
    }
    cr_expect_eq(cf->ndim, 1);
    tl_tensor *all[] = { a, c0, cf };
    for (int i = 0; i < 3; i++) tl_tensor_release(all[i]);
}

/* ---- linalg ------------------------------------------------------------------------------- */

Test(linalg, matmul_shapes_values_and_batching)
{
    /* A = arange(6).reshape(2,3); B = arange(12).reshape(3,4) - 5; A @ B */
    int64_t s23[] = { 2, 3 }, s34[] = { 3, 4 };
    double av[6], bv[12];
    for (int i = 0; i < 6; i++) av[i] = i;
    for (int i = 0; i < 12; i++) bv[i] = i - 5;
    tl_tensor *A = reshaped(vec_f64(6, av, TL_F64), 2, s23), *B = reshaped(vec_f64(12, bv, TL_F64), 2, s34);
    tl_tensor *C = tl_matmul(A, B);
    cr_assert_not_null(C, "%s", tl_errmsg());
    double want[] = { 5, 8, 11, 14, -4, 8, 20, 32 };
    for (int i = 0; i < 8; i++) cr_expect_eq(at(C, i), want[i]);
    /* the same through transposed views (BLAS reads them with the transpose flag) */
    tl_tensor *AT = tl_view_transpose(A), *At = tl_copy(AT), *Att = tl_view_transpose(At);
    tl_tensor *C2 = tl_matmul(Att, B);
    for (int i = 0; i < 8; i++) cr_expect_eq(at(C2, i), want[i]);
    /* A @ [1, 2, 3] -> [8, 26] (a vector operand loses its axis) */
    tl_tensor *v = vec_f64(3, (double[]){ 1, 2, 3 }, TL_F64), *Av = tl_matmul(A, v);
    cr_expect_eq(Av->ndim, 1);
    cr_expect_eq(at(Av, 0), 8);
    cr_expect_eq(at(Av, 1), 26);
    /* batch broadcast: (2,1,3,4) @ (5,4,2) -> (2,5,3,2) */
    int64_t sc[] = { 2, 1, 3, 4 }, sd[] = { 5, 4, 2 };
    double cv[24], dv[40];
    for (int i = 0; i < 24; i++) cv[i] = i % 7 - 3;
    for (int i = 0; i < 40; i++) dv[i] = i % 5 - 2;
    tl_tensor *Cb = reshaped(vec_f64(24, cv, TL_F32), 4, sc), *Db = reshaped(vec_f64(40, dv, TL_F32), 3, sd);
    tl_tensor *R = tl_matmul(Cb, Db);
    cr_assert_not_null(R, "%s", tl_errmsg());
    cr_expect_eq(R->ndim, 4);
    cr_expect_eq(R->shape[1], 5);
    double rh[] = { 4, 3, 7, -5, 3, 1, 1, -5 }, rt[] = { 1, 3, -5, 7 };
    for (int i = 0; i < 8; i++) cr_expect_eq(at(R, i), rh[i]);
    for (int i = 0; i < 4; i++) cr_expect_eq(at(R, 56 + i), rt[i]);
    /* f16 and integer operands keep their dtype */
    tl_tensor *Ah = tl_cast(A, TL_F16), *Bi = tl_cast(B, TL_I32), *Ai = tl_cast(A, TL_I32);
    tl_tensor *Ch = tl_matmul(Ah, Ah), *Ci = tl_matmul(Ai, Bi);
    cr_expect_null(Ch);     /* (2,3) @ (2,3) mismatch */
    cr_expect_str_eq(tl_errmsg(), "matmul: (2, 3) @ (2, 3): 3 (dim 1 of the left) != 2 (dim 0 of the right)\n"
                                  "the right operand transposed would fit: (2, 3) @ (3, 2) (.T swaps the last two axes)");
    tl_tensor *Bh = tl_cast(B, TL_F16), *Chb = tl_matmul(Ah, Bh);
    cr_expect_eq(Chb->dtype, TL_F16);
    cr_expect_eq(at(Chb, 7), 32);
    cr_expect_eq(Ci->dtype, TL_I32);
    for (int i = 0; i < 8; i++) cr_expect_eq(at(Ci, i), want[i]);
    tl_tensor *all[] = { A, B, C, AT, At, Att, C2, v, Av, Cb, Db, R, Ah, Bi, Ai, Ci, Bh, Chb };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) tl_tensor_release(all[i]);
}

Test(linalg, det_inv_solve_and_singular_error)
{
    /* M = [[4,3,2],[1,3,1],[2,1,5]]: det 37; solve(M, [1,2,3]) = [-0.56756757 0.62162162 0.7027027] */
    int64_t s33[] = { 3, 3 };
    tl_tensor *M = reshaped(vec_f64(9, (double[]){ 4, 3, 2, 1, 3, 1, 2, 1, 5 }, TL_F64), 2, s33);
    tl_tensor *d = tl_det(M), *inv = tl_inv(M), *b = vec_f64(3, (double[]){ 1, 2, 3 }, TL_F64);
    tl_tensor *x = tl_solve(M, b);
    cr_assert(d && inv && x, "%s", tl_errmsg());
    cr_expect_float_eq(at(d, 0), 37.0, 1e-12);
    double winv[] = { 0.37837838, -0.35135135, -0.08108108, -0.08108108, 0.43243243, -0.05405405,
                      -0.13513514, 0.05405405, 0.24324324 };
    for (int i = 0; i < 9; i++) cr_expect_float_eq(at(inv, i), winv[i], 1e-8);
    double wx[] = { -0.56756757, 0.62162162, 0.7027027 };
    for (int i = 0; i < 3; i++) cr_expect_float_eq(at(x, i), wx[i], 1e-8);
    tl_tensor *S = reshaped(vec_f64(4, (double[]){ 1, 2, 2, 4 }, TL_F64), 2, (int64_t[]){ 2, 2 });
    cr_expect_null(tl_inv(S));
    cr_expect_str_eq(tl_errmsg(), "singular matrix");
    tl_tensor *dS = tl_det(S);
    cr_expect_eq(at(dS, 0), 0);
    tl_tensor *all[] = { M, d, inv, b, x, S, dS };
    for (int i = 0; i < 7; i++) tl_tensor_release(all[i]);
}

/* ---- nn, sort, random ---------------------------------------------------------------------------- */

Test(nn, softmax_log_softmax_layer_norm_rms_norm)
{
    /* x = [[1,2,3,4],[-1,0,1,1000]] f32; values from numpy (see the comment in each want[]) */
    int64_t s24[] = { 2, 4 };
    tl_tensor *x = reshaped(vec_f64(8, (double[]){ 1, 2, 3, 4, -1, 0, 1, 1000 }, TL_F32), 2, s24);
    tl_tensor *sm = tl_softmax(x, -1, false), *ls = tl_softmax(x, 1, true);
    double wsm[] = { 0.0320586, 0.08714432, 0.2368828, 0.6439143, 0, 0, 0, 1 };
    double wls[] = { -3.4401896, -2.4401896, -1.4401896, -0.44018966, -1001, -1000, -999, 0 };
    for (int i = 0; i < 8; i++) {
        cr_expect_float_eq(at(sm, i), wsm[i], 1e-6);
        cr_expect_float_eq(at(ls, i), wls[i], 1e-4);
    }
    cr_expect_eq(sm->dtype, TL_F32);
    /* softmax over axis 0 sums to one down each column */
    tl_tensor *s0 = tl_softmax(x, 0, false);
    cr_expect_float_eq(at(s0, 0) + at(s0, 4), 1.0, 1e-6);
    tl_tensor *w = vec_f64(4, (double[]){ 1, 2, 0.5, -1 }, TL_F32), *bb = vec_f64(4, (double[]){ 0, 1, 0, 0.5 }, TL_F32);
    tl_tensor *ln = tl_layer_norm(x, w, bb, 1e-5), *rn = tl_rms_norm(x, w, 1e-6);
    double wln[] = { -1.3416355, 0.10557634, 0.22360592, -0.84163547, -0.5796589, -0.15469897, -0.28752005, -1.2320485 };
    double wrn[] = { 0.36514837, 1.4605935, 0.54772252, -1.4605935, -1.999998e-03, 0, 9.99999e-04, -1.9999981 };
    for (int i = 0; i < 8; i++) {
        cr_expect_float_eq(at(ln, i), wln[i], 1e-5);
        cr_expect_float_eq(at(rn, i), wrn[i], 1e-5);
    }
    tl_tensor *all[] = { x, sm, ls, s0, w, bb, ln, rn };
    for (int i = 0; i < 8; i++) tl_tensor_release(all[i]);
}

Test(sort, stable_with_nan_last_and_descending)
{
    /* np.sort([3,nan,1,2,1,-inf,nan,0]) -> [-inf 0 1 1 2 3 nan nan]; argsort(kind='stable') -> [5 7 2 4 3 0 1 6] */
    tl_tensor *a = vec_f64(8, (double[]){ 3, NAN, 1, 2, 1, -INFINITY, NAN, 0 }, TL_F64);
    tl_tensor *s = tl_sort(a, 0, false), *i = tl_argsort(a, -1, false), *d = tl_argsort(a, 0, true);
    double ws[] = { -INFINITY, 0, 1, 1, 2, 3 }, wi[] = { 5, 7, 2, 4, 3, 0, 1, 6 }, wd[] = { 1, 6, 0, 3, 2, 4, 7, 5 };
    for (int k = 0; k < 6; k++) cr_expect_eq(at(s, k), ws[k]);
    cr_expect(isnan(at(s, 6)) && isnan(at(s, 7)));
    for (int k = 0; k < 8; k++) {
        cr_expect_eq(at(i, k), wi[k]);
        cr_expect_eq(at(d, k), wd[k]);
    }
    /* along axis 0 of a 2-d tensor */
    tl_tensor *m = reshaped(vec_f64(6, (double[]){ 5, 1, 2, 0, 9, 1 }, TL_I16), 2, (int64_t[]){ 2, 3 });
    tl_tensor *ms = tl_sort(m, 0, false);
    double wm[] = { 0, 1, 1, 5, 9, 2 };
    for (int k = 0; k < 6; k++) cr_expect_eq(at(ms, k), wm[k]);
    cr_expect_eq(ms->dtype, TL_I16);
    /* descending values: NaN first; complex: lexicographic, NaN last
       (np.sort([1+2j, 1+1j, 5j, nan]) -> [5j, 1+1j, 1+2j, nan]) */
    tl_tensor *sd = tl_sort(a, 0, true);
    double wsd[] = { 3, 2, 1, 1, 0, -INFINITY };
    cr_expect(isnan(at(sd, 0)) && isnan(at(sd, 1)));
    for (int k = 0; k < 6; k++) cr_expect_eq(at(sd, k + 2), wsd[k]);
    int64_t four = 4;
    tl_tensor *z = tl_tensor_empty(TL_C64, 1, &four);
    float zv[8] = { 1, 2, 1, 1, 0, 5, NAN, 0 };
    memcpy(tl_tensor_data(z), zv, sizeof zv);
    tl_tensor *zs = tl_sort(z, 0, false);
    const float *zp = tl_tensor_data(zs);
    cr_expect(zp[0] == 0 && zp[1] == 5 && zp[2] == 1 && zp[3] == 1 && zp[4] == 1 && zp[5] == 2 && isnan(zp[6]));
    cr_expect_eq(zs->dtype, TL_C64);
    tl_tensor *all[] = { a, s, i, d, m, ms, sd, z, zs };
    for (int k = 0; k < 9; k++) tl_tensor_release(all[k]);
}

Test(random, seeded_ranges_and_moments)
{
    int64_t n = 200000;
    tl_seed(7);
    tl_tensor *u = tl_rand(TL_F32, 1, &n), *g = tl_randn(TL_F64, 1, &n), *k = tl_randint(-3, 4, TL_I8, 1, &n);
    tl_seed(7);
    tl_tensor *u2 = tl_rand(TL_F32, 1, &n);
    cr_expect(same_bits(u, u2), "same seed, same numbers");
    double lo = 1, hi = 0, mean = 0, sq = 0;
    int64_t kmin = 100, kmax = -100;
    for (int64_t i = 0; i < n; i++) {
        double x = at(u, i);
        lo = fmin(lo, x);
        hi = fmax(hi, x);
        mean += at(g, i);
        sq += at(g, i) * at(g, i);
        kmin = (int64_t)fmin((double)kmin, at(k, i));
        kmax = (int64_t)fmax((double)kmax, at(k, i));
    }
    mean /= (double)n;
    cr_expect(lo >= 0 && hi < 1);
    cr_expect(fabs(mean) < 0.01 && fabs(sq / (double)n - 1) < 0.02, "mean %g var %g", mean, sq / (double)n);
    cr_expect(kmin == -3 && kmax == 3);
    cr_expect_null(tl_randint(0, 300, TL_U8, 1, &n));
    tl_tensor *h = tl_rand(TL_F16, 1, &n);
    tl_tensor *mx = tl_reduce(TL_RMAX, h, 0, NULL, false, 0);
    cr_expect(at(mx, 0) < 1.0, "f16 rand stays below 1");
    tl_tensor *all[] = { u, g, k, u2, h, mx };
    for (int i = 0; i < 6; i++) tl_tensor_release(all[i]);
}

/* ---- accuracy on numpy's validation tables ------------------------------------------------ */

#define UMATH_DIR "/usr/lib/python3/dist-packages/numpy/core/tests/data/"

/* Checks op on every float32/float64 row of numpy's umath-validation-set-NAME.csv
   (input and output as hex bits, with the ULP tolerance listed per row). */
static void check_validation_table(const char *name, tl_unop op)
{
    char path[256];
    snprintf(path, sizeof path, UMATH_DIR "umath-validation-set-%s.csv", name);
    FILE *f = fopen(path, "r");
    if (!f) cr_skip_test("no %s", path);
    enum { CAP = 8192 };
    for (int pass = 0; pass < 2; pass++) {
        tl_dtype dt = pass ? TL_F64 : TL_F32;
        const char *tag = pass ? "np.float64" : "np.float32";
        double *in = malloc(CAP * sizeof *in), *out = malloc(CAP * sizeof *out);
        int *tol = malloc(CAP * sizeof *tol);
        int64_t n = 0;
        char line[256];
        rewind(f);
        while (fgets(line, sizeof line, f) && n < CAP) {
            if (strncmp(line, tag, strlen(tag)) != 0 || line[strlen(tag)] != ',') continue;
            unsigned long long xi, yi;
            int t;
            if (sscanf(line + strlen(tag) + 1, "%llx,%llx,%d", &xi, &yi, &t) != 3) continue;
            if (pass) {
                memcpy(&in[n], &xi, 8);
                memcpy(&out[n], &yi, 8);
            } else {
                uint32_t a = (uint32_t)xi, b = (uint32_t)yi;
                float fa, fb;
                memcpy(&fa, &a, 4);
                memcpy(&fb, &b, 4);
                in[n] = fa;
                out[n] = fb;
            }
            tol[n++] = t;
        }
        if (n > 0) {
            tl_tensor *x = vec_f64(n, in, dt), *y = tl_unary(op, x);
            cr_assert_not_null(y);
            int bad = 0;
            for (int64_t i = 0; i < n; i++) {
                int64_t d = ulp_distance(at(y, i), out[i], dt);
                if (d > tol[i]) {
                    if (bad < 5) cr_log_error("%s %s(%.9g) = %.17g, want %.17g (%lld ulp > %d)", tag, name, in[i],
                                              at(y, i), out[i], (long long)d, tol[i]);
                    bad++;
                }
            }
            cr_expect_eq(bad, 0, "%s %s: %d of %lld outside numpy's tolerance", tag, name, bad, (long long)n);
            tl_tensor_release(x);
            tl_tensor_release(y);
        }
        free(in);
        free(out);
        free(tol);
    }
    fclose(f);
}

Test(accuracy, exp) { check_validation_table("exp", TL_EXP); }
Test(accuracy, log) { check_validation_table("log", TL_LOG); }
Test(accuracy, sin) { check_validation_table("sin", TL_SIN); }
Test(accuracy, cos) { check_validation_table("cos", TL_COS); }
Test(accuracy, tanh) { check_validation_table("tanh", TL_TANH); }
Test(accuracy, expm1) { check_validation_table("expm1", TL_EXPM1); }
Test(accuracy, log1p) { check_validation_table("log1p", TL_LOG1P); }
Test(accuracy, log2) { check_validation_table("log2", TL_LOG2); }
Test(accuracy, arcsin) { check_validation_table("arcsin", TL_ASIN); }
Test(accuracy, arctan) { check_validation_table("arctan", TL_ATAN); }
Test(accuracy, sinh) { check_validation_table("sinh", TL_SINH); }
Test(accuracy, cosh) { check_validation_table("cosh", TL_COSH); }
