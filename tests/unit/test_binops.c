/* test_binops.c — every binary operator over every dtype pair on edge values: the evaluator's scalar path and the tensor path give identical bits and identical errors */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "interp.h"
#include "ops.h"
#include "leak_check.h"

/* The scalar path is arith_binary on two numbers, as the evaluator runs
   `a OP b` (its quick path for f64/i64, else tl_binary_scalar); the tensor
   path is tl_binary on one-element tensors and on tensors of many elements
   (the strided, contiguous and threaded loops). Operands are strong (typed)
   numbers, so both paths compute in tl_binop_dtype's dtype. */

#define MAXV 16

/* The edge values of dtype d: 0, -0.0, ±1, min, max, NaN, ±inf where the
   dtype has them, and a few ordinary ones so // % ** have work to do. */
static int edge_values(tl_dtype d, tl_scalar *v)
{
    int n = 0;
    memset(v, 0, sizeof(tl_scalar) * MAXV);
    if (d == TL_BOOL) {
        v[0].b = false;
        v[1].b = true;
        return 2;
    }
    if (tl_is_int(d)) {
        static const int64_t ordinary[] = { 0, 1, -1, 2, 7, -3 };
        for (size_t i = 0; i < sizeof ordinary / sizeof ordinary[0]; i++)
            tl_scalar_convert(&v[n++], d, &ordinary[i], TL_I64);   /* -1 wraps to max for unsigned */
        int bits = 8 * (int)tl_dtype_size(d);
        bool is_signed = tl_dtype_kind(d) == TL_KIND_INT;
        uint64_t ones = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        uint64_t max = is_signed ? ones >> 1 : ones, min = is_signed ? ~(ones >> 1) : 0;
        memcpy(&v[n++], &max, tl_dtype_size(d));   /* little-endian: the low bytes */
        memcpy(&v[n++], &min, tl_dtype_size(d));
        return n;
    }
    double big = d == TL_F16 ? 65504.0 : d == TL_BF16 ? 3.3895313892515355e38 : d == TL_F32 || d == TL_C64 ? FLT_MAX : DBL_MAX;
    static const double reals[][2] = {
        { 0, 0 }, { -0.0, 0 }, { 1, 0 }, { -1, 0 }, { 2, 0 }, { 0.5, 0 }, { -7.5, 0 }, { 3, 0 },
        { NAN, 0 }, { INFINITY, 0 }, { -INFINITY, 0 },
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) tl_scalar_convert(&v[n++], d, reals[i], TL_C128);
    double extremes[2][2] = { { big, 0 }, { -big, 0 } };
    for (int i = 0; i < 2; i++) tl_scalar_convert(&v[n++], d, extremes[i], TL_C128);
    if (tl_is_complex(d)) {
        static const double cplx[][2] = { { 0, 1 }, { 0.5, -2 }, { -INFINITY, 1 } };
        for (size_t i = 0; i < sizeof cplx / sizeof cplx[0]; i++) tl_scalar_convert(&v[n++], d, cplx[i], TL_C128);
    }
    return n;
}

/* One operator's outcome: a value of some dtype, or an error message. */
typedef struct outcome {
    bool ok;
    tl_dtype dtype;
    tl_scalar bits;
    char err[DIAG_MSG_MAX];
} outcome;

static Interp *interp;

static void setup(void) { interp = interp_new(); }
static void teardown(void)
{
    interp_free(interp);
    leak_check();
}

/* a OP b through the evaluator's scalar path. */
static outcome scalar_path(tl_binop op, tl_dtype da, const tl_scalar *a, tl_dtype db, const tl_scalar *b)
{
    outcome o = { 0 };
    Value va = val_num(da, a), vb = val_num(db, b), r;
    Span at = { 0 };
    o.ok = arith_binary(interp, op, va, vb, at, &r);
    if (!o.ok) {
        snprintf(o.err, sizeof o.err, "%s", interp->err.msg);
        return o;
    }
    cr_assert_eq(r.kind, V_NUM, "a number OP a number is a number");
    o.dtype = (tl_dtype)r.dtype;
    memcpy(&o.bits, r.as.num.bytes, tl_dtype_size(o.dtype));
    return o;
}

/* A tensor of n elements of dtype d, element i holding v[pick ? pick[i] : i]. */
static tl_tensor *tensor_of(tl_dtype d, int64_t n, const tl_scalar *v, const int *pick)
{
    tl_tensor *t = tl_tensor_empty(d, 1, &n);
    cr_assert_not_null(t);
    size_t item = tl_dtype_size(d);
    for (int64_t i = 0; i < n; i++) memcpy((char *)tl_tensor_data(t) + i * item, &v[pick ? pick[i] : i], item);
    return t;
}

/* Element i of tl_binary's result (or its error) as an outcome. */
static outcome tensor_element(const tl_tensor *r, int64_t i)
{
    outcome o = { .ok = r != NULL };
    if (!r) {
        snprintf(o.err, sizeof o.err, "%s", tl_errmsg());
        return o;
    }
    o.dtype = r->dtype;
    memcpy(&o.bits, (const char *)tl_tensor_data(r) + i * (int64_t)tl_dtype_size(r->dtype), tl_dtype_size(r->dtype));
    return o;
}

/* numpy's complex reciprocal of z (a tl_cf or tl_cd; T its part type), written out here from
   its loop (not tl's), into w. */
#define NUMPY_RECIPROCAL(T, z, w)                                   \
    do {                                                            \
        if ((T)fabs(z.im) <= (T)fabs(z.re)) {                       \
            T r_ = z.im / z.re, d_ = z.re + z.im * r_;              \
            w.re = 1 / d_, w.im = -r_ / d_;                         \
        } else {                                                    \
            T r_ = z.re / z.im, d_ = z.re * r_ + z.im;              \
            w.re = r_ / d_, w.im = -1 / d_;                         \
        }                                                           \
    } while (0)

/* numpy's complex reciprocal of element 0 of x (c64 or c128). */
static outcome complex_reciprocal(const tl_tensor *x)
{
    outcome o = { .ok = true, .dtype = x->dtype };
    if (x->dtype == TL_C64) {
        tl_cf z = *(const tl_cf *)tl_tensor_data(x), w;
        NUMPY_RECIPROCAL(float, z, w);
        memcpy(&o.bits, &w, sizeof w);
    } else {
        tl_cd z = *(const tl_cd *)tl_tensor_data(x), w;
        NUMPY_RECIPROCAL(double, z, w);
        memcpy(&o.bits, &w, sizeof w);
    }
    return o;
}

/* numpy's rule for an array raised to a 0-d float power of 2, 0.5, 1 or -1 (x*x, sqrt(x), x,
   1/x; so (-0.) ** 0.5 is -0.), and a complex array to a real 0.5 or -1 (sqrt, its complex
   reciprocal): the one place where a 0-d exponent and a number differ, as they do in numpy (an
   exponent of shape (1,) takes the general power, as a number does). True when it applies, with
   *want computed by those operators. */
static bool array_power_rule(tl_dtype cdt, tl_tensor *ta, const tl_scalar *b, tl_dtype db, outcome *want)
{
    bool complex = tl_is_complex(cdt);   /* complex: only a real 0.5 (sqrt) or -1 */
    if (!tl_is_float(cdt) && !(complex && !tl_is_complex(db))) return false;
    tl_dtype edt = complex ? tl_dtype_real(cdt) : cdt;
    tl_scalar e;
    tl_scalar_convert(&e, edt, b, db);
    double x = tl_scalar_to_f64(&e, edt);
    if (complex ? x != 0.5 && x != -1 : (x != 2 && x != 0.5 && x != 1 && x != -1)) return false;
    tl_tensor *xa = tl_cast(ta, cdt), *r;
    if (complex && x == -1) {
        *want = complex_reciprocal(xa);
        tl_tensor_release(xa);
        return true;
    }
    if (x == 2) {
        r = tl_binary(TL_MUL, xa, xa, cdt);
    } else if (x == 0.5) {
        r = tl_unary(TL_SQRT, xa);
    } else if (x == 1) {
        r = tl_cast(xa, cdt);
    } else {
        double one = 1;
        tl_scalar os;
        tl_scalar_convert(&os, cdt, &one, TL_F64);
        tl_tensor *o = tensor_of(cdt, 1, &os, NULL);
        r = tl_binary(TL_DIV, o, xa, cdt);
        tl_tensor_release(o);
    }
    *want = tensor_element(r, 0);
    tl_tensor_release(r);
    tl_tensor_release(xa);
    return true;
}

/* Requires two outcomes to agree bit for bit (or in their error message). */
static void expect_same(const outcome *s, const outcome *t, tl_binop op, tl_dtype da, const tl_scalar *a,
                        tl_dtype db, const tl_scalar *b, const char *path)
{
    char as[64], bs[64];
    snprintf(as, sizeof as, "%s 0x%016llx%016llx", tl_dtype_name(da), (unsigned long long)a->u64,
             (unsigned long long)((const uint64_t *)a->bytes)[1]);
    snprintf(bs, sizeof bs, "%s 0x%016llx%016llx", tl_dtype_name(db), (unsigned long long)b->u64,
             (unsigned long long)((const uint64_t *)b->bytes)[1]);
    cr_assert_eq(s->ok, t->ok, "%s %s %s (%s): scalar %s, tensor %s", as, tl_binop_name(op), bs, path,
                 s->ok ? "ok" : s->err, t->ok ? "ok" : t->err);
    if (!s->ok) {
        cr_assert_str_eq(s->err, t->err, "%s %s %s (%s): different errors", as, tl_binop_name(op), bs, path);
        return;
    }
    cr_assert_eq(s->dtype, t->dtype, "%s %s %s (%s): dtype %s vs %s", as, tl_binop_name(op), bs, path,
                 tl_dtype_name(s->dtype), tl_dtype_name(t->dtype));
    cr_assert(memcmp(&s->bits, &t->bits, tl_dtype_size(s->dtype)) == 0,
              "%s %s %s (%s): scalar bits 0x%016llx, tensor bits 0x%016llx", as, tl_binop_name(op), bs, path,
              (unsigned long long)s->bits.u64, (unsigned long long)t->bits.u64);
}

static long cases;

/* Every value pair of (da, db) under op: scalar against a one-element tensor
   each, and against one many-element tensor per right-hand value. */
static void check_pair(tl_binop op, tl_dtype da, tl_dtype db)
{
    tl_scalar va[MAXV], vb[MAXV];
    int na = edge_values(da, va), nb = edge_values(db, vb);
    tl_dtype cdt;
    bool typed = tl_binop_dtype(op, da, false, db, false, NULL, &cdt) == 0;
    cr_assert(typed, "strong operands always have a computation dtype");
    outcome s[MAXV];
    int pick_b[MAXV];
    tl_tensor *many_a = tensor_of(da, na, va, NULL);
    for (int j = 0; j < nb; j++) {
        for (int i = 0; i < na; i++) {
            s[i] = scalar_path(op, da, &va[i], db, &vb[j]);
            tl_tensor *ta = tensor_of(da, 1, &va[i], NULL), *tb = tensor_of(db, 1, &vb[j], NULL);
            outcome t, want;
            tl_tensor *r = tl_binary(op, ta, tb, cdt);
            t = tensor_element(r, 0);
            if (r) tl_tensor_release(r);
            expect_same(&s[i], &t, op, da, &va[i], db, &vb[j], "one element");
            if (op == TL_POW && s[i].ok && array_power_rule(cdt, ta, &vb[j], db, &want)) {
                tl_tensor *tb0 = tl_tensor_empty(db, 0, NULL);
                cr_assert_not_null(tb0);
                memcpy(tl_tensor_data(tb0), &vb[j], tl_dtype_size(db));
                r = tl_binary(op, ta, tb0, cdt);
                t = tensor_element(r, 0);
                if (r) tl_tensor_release(r);
                tl_tensor_release(tb0);
                expect_same(&want, &t, op, da, &va[i], db, &vb[j], "a 0-d exponent, numpy's array power rule");
            }
            tl_tensor_release(ta);
            tl_tensor_release(tb);
            cases++;
        }
        /* many elements: every left value against this right value repeated
           (a whole operand, not one element: no array power rule) */
        for (int i = 0; i < na; i++) pick_b[i] = j;
        tl_tensor *many_b = tensor_of(db, na, vb, pick_b);
        tl_tensor *r = tl_binary(op, many_a, many_b, cdt);
        const outcome *failed = NULL;   /* an error on one element fails the whole operation, with that error */
        for (int i = 0; i < na && !failed; i++)
            if (!s[i].ok) failed = &s[i];
        for (int i = 0; i < na; i++) {
            outcome t = tensor_element(r, i);
            expect_same(failed ? failed : &s[i], &t, op, da, &va[i], db, &vb[j], "many elements");
            cases++;
        }
        if (r) tl_tensor_release(r);
        tl_tensor_release(many_b);
    }
    tl_tensor_release(many_a);
}

/* Every dtype with itself and with every other (mixed pairs promote). */
static void check_op(tl_binop op)
{
    for (int da = 0; da < TL_NDTYPES; da++)
        for (int db = 0; db < TL_NDTYPES; db++) check_pair(op, (tl_dtype)da, (tl_dtype)db);
}

TestSuite(binops, .init = setup, .fini = teardown);

Test(binops, arithmetic_scalar_and_tensor_paths_agree)
{
    static const tl_binop ops[] = { TL_ADD, TL_SUB, TL_MUL, TL_DIV, TL_FLOORDIV, TL_MOD, TL_POW };
    cases = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) check_op(ops[k]);
    cr_log_info("arithmetic: %ld cases", cases);
    cr_assert_gt(cases, 100000);
}

Test(binops, comparison_logic_and_extrema_paths_agree)
{
    static const tl_binop ops[] = { TL_EQ, TL_NE, TL_LT, TL_LE, TL_GT, TL_GE, TL_AND, TL_OR, TL_XOR,
                                    TL_MINIMUM, TL_MAXIMUM, TL_ATAN2 };
    cases = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) check_op(ops[k]);
    cr_log_info("comparisons, logic, extrema: %ld cases", cases);
    cr_assert_gt(cases, 100000);
}

/* Component c (0: real, 1: imaginary) of a float or complex value, as a double. */
static double component(tl_dtype d, const tl_scalar *v, int c)
{
    if (!tl_is_complex(d)) return tl_scalar_to_f64(v, d);
    tl_dtype r = tl_dtype_real(d);
    return tl_scalar_to_f64((const char *)v + c * (int64_t)tl_dtype_size(r), r);
}

/* Do two values of dtype d have the same bits, a nan matching any nan? (Loops reading an
   operand with stride 0 may give a nan another sign than the scalar arithmetic.) */
static bool same_bits_or_nans(tl_dtype d, const tl_scalar *a, const tl_scalar *b)
{
    if (memcmp(a, b, tl_dtype_size(d)) == 0) return true;
    if (!tl_is_float(d) && !tl_is_complex(d)) return false;
    for (int c = 0; c < (tl_is_complex(d) ? 2 : 1); c++) {
        double x = component(d, a, c), y = component(d, b, c);
        if (isnan(x) != isnan(y) || (!isnan(x) && memcmp(&x, &y, sizeof x) != 0)) return false;
    }
    return true;
}

/* r (op's result over n elements, or its failure) against the scalar arithmetic's s[i % ns]:
   an error on any element fails the whole operation with the first one's message. */
static void expect_elements(const tl_tensor *r, int64_t n, const outcome *s, int ns, tl_binop op, tl_dtype da,
                            tl_dtype db, const char *path)
{
    const outcome *failed = NULL;
    for (int i = 0; i < ns && !failed; i++)
        if (!s[i].ok) failed = &s[i];
    cr_assert_eq(r != NULL, failed == NULL, "%s %s %s (%s): %s", tl_dtype_name(da), tl_binop_name(op), tl_dtype_name(db),
                 path, r ? "no error" : tl_errmsg());
    if (failed) {
        cr_assert_str_eq(tl_errmsg(), failed->err, "%s %s %s (%s): different errors", tl_dtype_name(da),
                         tl_binop_name(op), tl_dtype_name(db), path);
        return;
    }
    cr_assert_eq(r->dtype, s[0].dtype, "%s %s %s (%s): dtype", tl_dtype_name(da), tl_binop_name(op), tl_dtype_name(db), path);
    for (int64_t i = 0; i < n; i++) {
        outcome t = tensor_element(r, i);
        cr_assert(same_bits_or_nans(r->dtype, &s[i % ns].bits, &t.bits), "%s %s %s (%s): element %lld of %lld: 0x%llx, scalar 0x%llx", tl_dtype_name(da),
                  tl_binop_name(op), tl_dtype_name(db), path, (long long)i, (long long)n, (unsigned long long)t.bits.u64, (unsigned long long)s[i % ns].bits.u64);
        cases++;
    }
}

/* Many elements of da against a one-element (0-d) db operand, on either side, as x * 2 and
   2 * x broadcast it: dense runs of up to 4,096 elements read it with stride 0 directly
   (elementwise.c), longer ones through the planner; `reps` copies of da's values. */
static void check_broadcast_pair(tl_binop op, tl_dtype da, tl_dtype db, int64_t reps)
{
    tl_scalar va[MAXV], vb[MAXV];
    int na = edge_values(da, va), nb = edge_values(db, vb);
    int64_t n = na * reps;
    int *pick = malloc((size_t)n * sizeof *pick);
    for (int64_t i = 0; i < n; i++) pick[i] = (int)(i % na);
    tl_tensor *many = tensor_of(da, n, va, pick);
    free(pick);
    tl_dtype cl, cr;
    cr_assert(tl_binop_dtype(op, da, false, db, false, NULL, &cl) == 0 && tl_binop_dtype(op, db, false, da, false, NULL, &cr) == 0);
    for (int j = 0; j < nb; j++) {
        tl_tensor *one = tl_tensor_empty(db, 0, NULL);
        cr_assert_not_null(one);
        memcpy(tl_tensor_data(one), &vb[j], tl_dtype_size(db));
        outcome sl[MAXV], sr[MAXV];
        for (int i = 0; i < na; i++) {
            sl[i] = scalar_path(op, da, &va[i], db, &vb[j]);
            sr[i] = scalar_path(op, db, &vb[j], da, &va[i]);
        }
        tl_tensor *r = tl_binary(op, many, one, cl);
        expect_elements(r, n, sl, na, op, da, db, "many OP one");
        if (r) tl_tensor_release(r);
        if (cl == da && tl_binop_result_dtype(op, cl) == da) {   /* x OP= one, in place */
            tl_tensor *x = tl_cast(many, da);
            cr_assert_not_null(x);
            bool ok = tl_binary_into(op, x, x, one, cl) == 0;
            expect_elements(ok ? x : NULL, n, sl, na, op, da, db, "many OP= one");
            tl_tensor_release(x);
        }
        r = tl_binary(op, one, many, cr);
        expect_elements(r, n, sr, na, op, db, da, "one OP many");
        if (r) tl_tensor_release(r);
        tl_tensor_release(one);
    }
    tl_tensor_release(many);
}

/* (** is left out: a one-element exponent takes numpy's array power rule, tested above.) */
Test(binops, one_element_operand_broadcast_agrees)
{
    static const tl_binop ops[] = { TL_ADD, TL_SUB, TL_MUL, TL_DIV, TL_FLOORDIV, TL_MOD, TL_EQ, TL_LT, TL_GE,
                                    TL_AND, TL_XOR, TL_MINIMUM, TL_MAXIMUM, TL_ATAN2 };
    cases = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (int da = 0; da < TL_NDTYPES; da++) {
            for (int db = 0; db < TL_NDTYPES; db++) check_broadcast_pair(ops[k], (tl_dtype)da, (tl_dtype)db, 3);
            check_broadcast_pair(ops[k], (tl_dtype)da, (tl_dtype)da, 400);   /* past the direct runs' 4,096 */
        }
    cr_log_info("one-element operands: %ld cases", cases);
    cr_assert_gt(cases, 100000);
}

/* The errors are numpy's, spelled once (elem.h), on both paths. */
Test(binops, integer_operand_errors_are_one_message)
{
    tl_scalar a = { .i64 = 7 }, zero = { .i64 = 0 }, neg = { .i64 = -2 };
    outcome s = scalar_path(TL_FLOORDIV, TL_I32, &a, TL_I32, &zero);
    cr_assert(!s.ok);
    cr_assert_str_eq(s.err, "integer division by zero");
    s = scalar_path(TL_MOD, TL_U8, &a, TL_U8, &zero);
    cr_assert_str_eq(s.err, "integer division by zero");
    s = scalar_path(TL_POW, TL_I64, &a, TL_I64, &neg);
    cr_assert_str_eq(s.err, "integers to negative integer powers are not allowed");
    s = scalar_path(TL_POW, TL_U16, &a, TL_U16, &neg);   /* u16 65534: no negative powers for unsigned */
    cr_assert(s.ok);
}
