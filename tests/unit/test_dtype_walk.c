/* test_dtype_walk.c — every dtype of the master list through every runtime entry point that takes any dtype */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "io.h"
#include "ops.h"
#include "plot_data.h"
#include "stats.h"
#include "tensor.h"
#include "leak_check.h"

/* Every loop below runs over tl_dtype 0 .. TL_NDTYPES, never over a list of its own, so a new
   row of runtime/dtype_list.h that some table misses fails here in one of two ways: an entry
   point refuses it where the other dtypes of its family work (the family rule: numpy treats
   bool, the integers, the floats and the complex types each alike), or its values differ
   from the reference, the same call on the family's widest dtype. Where a family is refused,
   the test checks the refusal is clean: NULL or -1, a TypeError with a message. */

static void release_kept(void);
static void walk_fini(void)
{
    release_kept();
    leak_check();
}
TestSuite(walk, .fini = walk_fini);

/* ---- helpers ------------------------------------------------------------------------- */

/* Tensors made during one dtype's checks, released together (keep returns its argument). */
static tl_tensor *kept[512];
static int nkept;

static tl_tensor *keep(tl_tensor *t)
{
    cr_assert(t, "%s", tl_errmsg());
    cr_assert_lt(nkept, 512);
    return kept[nkept++] = t;
}

static void release_kept(void)
{
    while (nkept > 0) tl_tensor_release(kept[--nkept]);
}

typedef enum { FAM_BOOL, FAM_INT, FAM_FLOAT, FAM_COMPLEX } family;

static family family_of(int d)
{
    switch (tl_dtype_kind((tl_dtype)d)) {
    case TL_KIND_BOOL: return FAM_BOOL;
    case TL_KIND_UINT:
    case TL_KIND_INT: return FAM_INT;
    case TL_KIND_FLOAT: return FAM_FLOAT;
    default: return FAM_COMPLEX;
    }
}

static const char *dn(int d) { return tl_dtype_name((tl_dtype)d); }

/* Small integers: exact in every dtype (bool: their truth). */
#define ROWS 3
#define COLS 4
#define N (ROWS * COLS)
static const double VALUES[N] = { 3, 1, 0, 2, 1, 5, 4, 2, 0, 3, 5, 1 };
static const double OTHERS[N] = { 1, 2, 3, 1, 2, 1, 3, 2, 1, 1, 2, 3 };   /* no zero: a divisor */

/* A ROWS x COLS tensor of dtype d holding vals (kept). */
static tl_tensor *make(int d, const double *vals)
{
    int64_t shape[2] = { ROWS, COLS };
    tl_tensor *f = keep(tl_tensor_empty(TL_F64, 2, shape));
    memcpy(tl_tensor_data(f), vals, N * sizeof(double));
    return keep(tl_cast(f, (tl_dtype)d));
}

/* vals spread over an integer dtype's range (times 2^(bits - 4)), so that a loop reading
   another width than its dtype's sees other numbers; vals themselves for the other families. */
static tl_tensor *make_wide(int d, const double *vals)
{
    double v[N], scale = family_of(d) == FAM_INT ? ldexp(1.0, 8 * (int)tl_dtype_size((tl_dtype)d) - 4) : 1.0;
    for (int i = 0; i < N; i++) v[i] = vals[i] * scale;
    return make(d, v);
}

/* make_wide's values, with nan, -nan and -0.0 among them for floats and complex: the values
   numpy's order treats specially (every nan last and one value, -0.0 equal to 0.0). */
static tl_tensor *make_special(int d)
{
    double v[N];
    memcpy(v, VALUES, sizeof v);
    if (family_of(d) == FAM_FLOAT || family_of(d) == FAM_COMPLEX) v[1] = NAN, v[6] = -NAN, v[2] = -0.0, v[8] = -0.0;
    return make_wide(d, v);
}

/* The dtype a family's reference results are computed in: its widest (bool counts as i64,
   as its arithmetic does). */
static tl_dtype reference_of(int d)
{
    switch (tl_dtype_kind((tl_dtype)d)) {
    case TL_KIND_UINT: return TL_U64;
    case TL_KIND_BOOL:
    case TL_KIND_INT: return TL_I64;
    case TL_KIND_FLOAT: return TL_F64;
    default: return TL_C128;
    }
}

/* a in the reference dtype of d (kept). */
static tl_tensor *as_reference(const tl_tensor *a, int d) { return keep(tl_cast(a, reference_of(d))); }

/* How far results of dtype r may stray from the reference rounded to r: a few units in the
   last place for floats (the reference rounds once from f64, r's own loops from f32), none
   for integers and bool. */
static double tolerance(tl_dtype r)
{
    if (!tl_is_float(tl_dtype_real(r))) return 0;
    return 4 * ldexp(1.0, -(int)tl_dtypes[tl_dtype_real(r)].mbits);
}

/* got equals want rounded to got's dtype, within tol (relative, absolute below 1); nan matches nan. */
static void assert_within(const tl_tensor *got, const tl_tensor *want, double tol, const char *what, int d)
{
    cr_assert(got && want, "%s of %s: %s", what, dn(d), tl_errmsg());
    cr_assert_eq(got->ndim, want->ndim, "%s of %s: rank", what, dn(d));
    for (int i = 0; i < got->ndim; i++) cr_assert_eq(got->shape[i], want->shape[i], "%s of %s: shape", what, dn(d));
    tl_tensor *w = keep(tl_cast(want, got->dtype)), *a = keep(tl_cast(got, TL_C128)), *b = keep(tl_cast(w, TL_C128));
    const double *x = tl_tensor_data(a), *y = tl_tensor_data(b);
    for (int64_t i = 0; i < 2 * tl_tensor_size(a); i++) {
        bool same = x[i] == y[i] || (isnan(x[i]) && isnan(y[i])) || fabs(x[i] - y[i]) <= tol * fmax(1.0, fabs(y[i]));
        cr_assert(same, "%s of %s: element %lld is %.17g, the reference %.17g", what, dn(d), (long long)(i / 2), x[i], y[i]);
    }
}

/* got equals want rounded to got's dtype, within tolerance(got's dtype). */
static void assert_close(const tl_tensor *got, const tl_tensor *want, const char *what, int d)
{
    assert_within(got, want, tolerance(got->dtype), what, d);
}

/* The same dtype, shape and bytes, element for element. */
static void assert_same(const tl_tensor *a, const tl_tensor *b, const char *what, int d)
{
    cr_assert(a && b, "%s of %s: %s", what, dn(d), tl_errmsg());
    cr_assert_eq(a->dtype, b->dtype, "%s of %s: dtype %s", what, dn(d), dn(b->dtype));
    cr_assert_eq(a->ndim, b->ndim, "%s of %s: rank", what, dn(d));
    for (int i = 0; i < a->ndim; i++) cr_assert_eq(a->shape[i], b->shape[i], "%s of %s: shape", what, dn(d));
    tl_tensor *x = keep(tl_contiguous(a)), *y = keep(tl_contiguous(b));
    cr_assert(memcmp(tl_tensor_data(x), tl_tensor_data(y), (size_t)tl_tensor_size(a) * tl_dtype_size(a->dtype)) == 0,
              "%s of %s: the elements differ", what, dn(d));
}

/* A refusal: -1 or NULL came back with an error of that kind and a message. */
static void assert_refused_as(tl_errkind kind, const char *what, int d)
{
    cr_assert_eq(tl_errkind_last(), kind, "%s of %s: an error of kind %d: %s", what, dn(d), (int)tl_errkind_last(), tl_errmsg());
    cr_assert(tl_errmsg()[0], "%s of %s: no message", what, dn(d));
}

/* A refusal of a dtype by a computation: a TypeError. */
static void assert_refused(const char *what, int d) { assert_refused_as(TL_E_TypeError, what, d); }

/* The family rule over one entry point: ok[d] the same for every dtype of a family. */
static void assert_family_rule(const bool *ok, const char *what)
{
    for (int d = 0; d < TL_NDTYPES; d++)
        for (int e = 0; e < TL_NDTYPES; e++)
            cr_assert(family_of(d) != family_of(e) || ok[d] == ok[e], "%s works for %s but not for %s", what,
                      dn(ok[d] ? d : e), dn(ok[d] ? e : d));
}

/* ---- printing ----------------------------------------------------------------------- */

Test(walk, printing)
{
    static const char *want[] = {
        [FAM_BOOL] = "[[ true  true false  true]\n [ true  true  true  true]\n [false  true  true  true]]",
        [FAM_INT] = "[[3 1 0 2]\n [1 5 4 2]\n [0 3 5 1]]",
        [FAM_FLOAT] = "[[3. 1. 0. 2.]\n [1. 5. 4. 2.]\n [0. 3. 5. 1.]]",
        [FAM_COMPLEX] = "[[3.+0.j 1.+0.j 0.+0.j 2.+0.j]\n [1.+0.j 5.+0.j 4.+0.j 2.+0.j]\n [0.+0.j 3.+0.j 5.+0.j 1.+0.j]]",
    };
    static const char *five[] = { [FAM_BOOL] = "true", [FAM_INT] = "5", [FAM_FLOAT] = "5.0", [FAM_COMPLEX] = "(5+0j)" };
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make(d, VALUES);
        char *s = tl_fmt_tensor_string(t, &tl_print_options);
        cr_assert(s, "%s", tl_errmsg());
        cr_assert_str_eq(s, want[family_of(d)], "%s printed as %s", dn(d), s);
        free(s);
        char buf[128];
        int64_t at[2] = { 1, 1 };
        cr_assert_gt(tl_fmt_scalar(tl_tensor_at(t, at), (tl_dtype)d, buf, sizeof buf), 0, "%s", tl_errmsg());
        cr_assert_str_eq(buf, five[family_of(d)], "%s's 5 printed as %s", dn(d), buf);
        release_kept();
    }
}

/* ---- casts both ways ------------------------------------------------------------------ */

Test(walk, casts_both_ways_and_every_path)
{
    for (int s = 0; s < TL_NDTYPES; s++) {
        for (int d = 0; d < TL_NDTYPES; d++) {
            tl_tensor *src = make(s, VALUES), *st = keep(tl_view_transpose(src));
            /* s -> d equals the values put straight into d (small integers are exact everywhere) */
            tl_tensor *direct = keep(tl_cast(keep(tl_cast(src, TL_F64)), (tl_dtype)d));
            tl_tensor *c = keep(tl_cast(src, (tl_dtype)d));
            assert_same(c, direct, "cast", s);
            /* the strided path and the scalar converter give the same bits */
            tl_tensor *ct = keep(tl_cast(st, (tl_dtype)d));
            assert_same(keep(tl_view_transpose(ct)), c, "strided cast", s);
            size_t ss = tl_dtype_size((tl_dtype)s), ds = tl_dtype_size((tl_dtype)d);
            for (int64_t i = 0; i < N; i++) {
                tl_scalar out;
                tl_scalar_convert(&out, (tl_dtype)d, (const char *)tl_tensor_data(src) + i * (int64_t)ss, (tl_dtype)s);
                cr_assert(memcmp(&out, (const char *)tl_tensor_data(c) + i * (int64_t)ds, ds) == 0, "scalar %s -> %s", dn(s), dn(d));
            }
            release_kept();
        }
    }
}

/* ---- reductions ------------------------------------------------------------------------ */

/* Whether tl refuses reduction op for family f (numpy's nanmin/nanmax and scipy's
   logsumexp take complex; tl does not yet). */
static bool reduction_refused(tl_redop op, family f)
{
    return f == FAM_COMPLEX && (op == TL_RLOGSUMEXP || op == TL_RNANMIN || op == TL_RNANMAX);
}

Test(walk, every_reduction_over_all_and_one_axis)
{
    for (int op = 0; op < TL_NREDOPS; op++) {
        const char *name = tl_redop_name((tl_redop)op);
        for (int d = 0; d < TL_NDTYPES; d++) {
            tl_tensor *t = make_wide(d, VALUES), *ref = as_reference(t, d);
            int axis = 1;
            for (int naxes = 0; naxes <= 1; naxes++) {
                tl_tensor *r = tl_reduce((tl_redop)op, t, naxes, &axis, false, 0);
                if (reduction_refused((tl_redop)op, family_of(d))) {
                    cr_assert_null(r, "%s of %s", name, dn(d));
                    assert_refused(name, d);
                    continue;
                }
                keep(r);
                cr_assert_eq(r->dtype, tl_reduce_result_dtype((tl_redop)op, (tl_dtype)d), "%s of %s", name, dn(d));
                assert_close(r, keep(tl_reduce((tl_redop)op, ref, naxes, &axis, false, 0)), name, d);
            }
            release_kept();
        }
    }
}

Test(walk, running_sums_products_and_quantiles)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_wide(d, VALUES), *ref = as_reference(t, d);
        for (int op = TL_RSUM; op <= TL_RPROD; op++) {
            tl_tensor *r = keep(tl_cumulative((tl_redop)op, t, 1));
            cr_assert_eq(r->dtype, tl_reduce_result_dtype((tl_redop)op, (tl_dtype)d), "cumulative of %s", dn(d));
            assert_close(r, keep(tl_cumulative((tl_redop)op, ref, 1)), "cumulative", d);
        }
        int axes[2] = { 0, 1 };
        double q = 0.3;
        for (int kind = TL_QUANT_MEDIAN; kind <= TL_QUANT_NEAREST; kind++) {
            tl_tensor *r = tl_quantile(t, 2, axes, false, (tl_quant_kind)kind, 1, &q, 0, NULL);
            /* complex values have no order to select by; booleans no difference to interpolate */
            bool interpolates = kind != TL_QUANT_MEDIAN && !tl_quant_discrete((tl_quant_kind)kind);
            if (family_of(d) == FAM_COMPLEX || (family_of(d) == FAM_BOOL && interpolates)) {
                cr_assert_null(r, "quantile of %s", dn(d));
                assert_refused("quantile", d);
                continue;
            }
            keep(r);
            assert_close(r, keep(tl_quantile(ref, 2, axes, false, (tl_quant_kind)kind, 1, &q, 0, NULL)), "quantile", d);
        }
        release_kept();
    }
}

/* ---- order: sort, argsort, partition, unique, isin, searchsorted ------------------------- */

Test(walk, sort_argsort_and_partition)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_special(d), *ref = as_reference(t, d);
        for (int desc = 0; desc <= 1; desc++) {
            tl_tensor *s = keep(tl_sort(t, 1, desc));
            assert_close(s, keep(tl_sort(ref, 1, desc)), "sort", d);
            /* the indices put t in that order */
            tl_tensor *i = keep(tl_argsort(t, 1, desc));
            cr_assert_eq(i->dtype, TL_I64);
            assert_same(s, keep(tl_take_along_axis(t, i, 1)), "argsort", d);
        }
        int64_t kth = 2;
        tl_tensor *p = keep(tl_partition(t, 1, &kth, 1)), *s = keep(tl_sort(t, 1, false));
        tl_tensor *ip = keep(tl_argpartition(t, 1, &kth, 1));
        assert_same(keep(tl_view_index(p, 1, 2)), keep(tl_view_index(s, 1, 2)), "partition", d);
        assert_same(keep(tl_take_along_axis(t, ip, 1)), p, "argpartition", d);
        release_kept();
    }
}

Test(walk, unique_isin_and_searchsorted)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_special(d), *o = make_wide(d, OTHERS);
        tl_tensor *ref = as_reference(t, d), *oref = as_reference(o, d);
        tl_unique_result u = { 0 }, v = { 0 };
        cr_assert_eq(tl_unique(t, TL_AXIS_NONE, true, true, true, &u), 0, "unique of %s: %s", dn(d), tl_errmsg());
        cr_assert_eq(tl_unique(ref, TL_AXIS_NONE, true, true, true, &v), 0, "%s", tl_errmsg());
        tl_tensor *got[4] = { u.values, u.index, u.inverse, u.counts }, *want[4] = { v.values, v.index, v.inverse, v.counts };
        for (int k = 0; k < 4; k++) keep(got[k]), keep(want[k]);
        assert_close(u.values, v.values, "unique", d);
        assert_same(u.index, v.index, "unique's index", d);
        assert_same(u.inverse, v.inverse, "unique's inverse", d);
        assert_same(u.counts, v.counts, "unique's counts", d);
        for (int invert = 0; invert <= 1; invert++)
            assert_same(keep(tl_isin(o, t, (tl_dtype)d, invert)), keep(tl_isin(oref, ref, reference_of(d), invert)), "isin", d);
        for (int right = 0; right <= 1; right++)
            assert_same(keep(tl_searchsorted(u.values, o, (tl_dtype)d, right, NULL)),
                        keep(tl_searchsorted(v.values, oref, reference_of(d), right, NULL)), "searchsorted", d);
        release_kept();
    }
}

/* ---- histogram, bincount, the plot passes -------------------------------------------- */

Test(walk, histogram_of_and_weighted_by_every_dtype)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_wide(d, VALUES), *ref = as_reference(t, d), *x = make(TL_F64, OTHERS);
        tl_hist_bins hb = { .count = 3 };
        for (int density = 0; density <= 1; density++) {
            tl_tensor *h = NULL, *e = NULL, *hr = NULL, *er = NULL, *hw = NULL, *ew = NULL;
            int rc = tl_histogram(t, &hb, NULL, density, &h, &e);
            if (family_of(d) == FAM_COMPLEX) {   /* complex values cannot be put into bins */
                cr_assert(rc == -1 && !h && !e, "histogram of %s", dn(d));
                assert_refused("histogram", d);
                cr_assert_eq(tl_histogram(x, &hb, t, density, &hw, &ew), -1, "histogram weighted by %s", dn(d));
                assert_refused("histogram's weights", d);
                continue;
            }
            cr_assert_eq(rc, 0, "histogram of %s: %s", dn(d), tl_errmsg());
            keep(h), keep(e);
            cr_assert_eq(tl_histogram(ref, &hb, NULL, density, &hr, &er), 0, "%s", tl_errmsg());
            keep(hr), keep(er);
            /* a float's edges are in its own dtype, so are the widths a density divides by */
            assert_within(h, hr, fmax(tolerance(h->dtype), tolerance((tl_dtype)d)), "histogram", d);
            assert_close(e, er, "histogram's edges", d);
            cr_assert_eq(tl_histogram(x, &hb, t, density, &hw, &ew), 0, "histogram weighted by %s: %s", dn(d), tl_errmsg());
            keep(hw), keep(ew);
            cr_assert_eq(hw->dtype, density ? TL_F64 : (tl_dtype)d, "histogram weighted by %s", dn(d));
            cr_assert_eq(tl_histogram(x, &hb, ref, density, &hr, &er), 0, "%s", tl_errmsg());
            keep(hr), keep(er);
            /* weighted counts are summed in the weights' dtype, and a density divides by their total */
            assert_within(hw, hr, fmax(tolerance(hw->dtype), tolerance((tl_dtype)d)), "weighted histogram", d);
        }
        release_kept();
    }
}

Test(walk, bincount_of_and_weighted_by_every_dtype)
{
    int64_t n = N;
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *flat = keep(tl_reshape(make(d, VALUES), 1, &n)), *x = keep(tl_reshape(make(TL_I64, VALUES), 1, &n));
        /* numpy's bincount takes what casts safely to int64: bool and integers but u64 */
        tl_tensor *c = tl_bincount(flat, NULL, 0);
        if (family_of(d) == FAM_FLOAT || family_of(d) == FAM_COMPLEX || tl_int_max((tl_dtype)d) > INT64_MAX) {
            cr_assert_null(c, "bincount of %s", dn(d));
            assert_refused("bincount", d);
        } else {
            assert_same(keep(c), keep(tl_bincount(keep(tl_cast(flat, TL_I64)), NULL, 0)), "bincount", d);
        }
        /* weights: any real dtype, summed in f64 */
        tl_tensor *w = tl_bincount(x, flat, 0);
        if (family_of(d) == FAM_COMPLEX) {
            cr_assert_null(w, "bincount weighted by %s", dn(d));
            assert_refused("bincount's weights", d);
        } else {
            assert_same(keep(w), keep(tl_bincount(x, keep(tl_cast(flat, TL_F64)), 0)), "bincount's weights", d);
        }
        release_kept();
    }
}

Test(walk, plot_passes)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_wide(d, VALUES), *tt = keep(tl_view_transpose(t)), *ft = NULL;
        tl_plot_stats st, sf;
        int64_t counts[4], cf[4];
        double grid[4], gf[4];
        int rc = tl_plot_stats_of(tt, &st);
        if (family_of(d) == FAM_COMPLEX) {   /* a picture needs real numbers */
            cr_assert_eq(rc, -1, "plot of %s", dn(d));
            assert_refused("plot stats", d);
            cr_assert_eq(tl_plot_hist(t, 0, 5, 4, counts), -1);
            assert_refused("plot histogram", d);
            cr_assert_eq(tl_plot_blocks(t, 2, 2, TL_PLOT_MEAN, grid, &st), -1);
            assert_refused("plot blocks", d);
            release_kept();
            continue;
        }
        /* the same passes over the values as f64 (bool as 0/1) */
        ft = keep(tl_view_transpose(keep(tl_cast(t, TL_F64))));
        cr_assert_eq(rc, 0, "%s", tl_errmsg());
        cr_assert_eq(tl_plot_stats_of(ft, &sf), 0);
        cr_assert(st.finite == sf.finite && st.sum == sf.sum && st.lo == sf.lo && st.hi == sf.hi, "plot stats of %s", dn(d));
        cr_assert_eq(tl_plot_hist(tt, sf.lo, sf.hi, 4, counts), 0, "%s", tl_errmsg());
        cr_assert_eq(tl_plot_hist(ft, sf.lo, sf.hi, 4, cf), 0);
        cr_assert(memcmp(counts, cf, sizeof counts) == 0, "plot histogram of %s", dn(d));
        for (int how = TL_PLOT_MEAN; how <= TL_PLOT_MAX; how++) {
            cr_assert_eq(tl_plot_blocks(tt, 2, 2, (tl_plot_reduce)how, grid, &st), 0, "%s", tl_errmsg());
            cr_assert_eq(tl_plot_blocks(ft, 2, 2, (tl_plot_reduce)how, gf, &sf), 0);
            cr_assert(memcmp(grid, gf, sizeof grid) == 0, "plot blocks of %s", dn(d));
        }
        release_kept();
    }
}

/* ---- the elementwise tables ------------------------------------------------------------ */

#define UNOP_NAME(arg, ENUM, STEM, NAME, ...) [ENUM] = NAME,
static const char *const unop_names[TL_NUNOPS] = { TL_UNOP_LIST(UNOP_NAME, ) };

Test(walk, every_unary_function)
{
    for (int op = 0; op < TL_NUNOPS; op++) {
        bool ok[TL_NDTYPES];
        for (int d = 0; d < TL_NDTYPES; d++) {
            tl_tensor *t = make_wide(d, VALUES), *r = tl_unary((tl_unop)op, t);
            ok[d] = r != NULL;
            if (!r) {
                assert_refused(unop_names[op], d);
                release_kept();
                continue;
            }
            keep(r);
            cr_assert_eq(r->dtype, tl_unop_result_dtype((tl_unop)op, (tl_dtype)d), "%s of %s", unop_names[op], dn(d));
            /* a strided operand takes the portable loop: within an ulp of the SIMD ones on contiguous runs */
            tl_tensor *rt = keep(tl_unary((tl_unop)op, keep(tl_view_transpose(t))));
            assert_close(keep(tl_view_transpose(rt)), r, unop_names[op], d);
            /* bool's logical not has no integer reference: the family rule is its check */
            if (family_of(d) != FAM_BOOL) assert_close(r, keep(tl_unary((tl_unop)op, as_reference(t, d))), unop_names[op], d);
            release_kept();
        }
        assert_family_rule(ok, unop_names[op]);
    }
}

Test(walk, every_binary_operator)
{
    for (int op = 0; op < TL_NBINOPS; op++) {
        bool ok[TL_NDTYPES];
        const char *name = tl_binop_name((tl_binop)op);
        for (int d = 0; d < TL_NDTYPES; d++) {
            tl_tensor *t = make_wide(d, VALUES), *o = make(d, OTHERS);
            tl_dtype dt, rdt;
            cr_assert_eq(tl_binop_dtype((tl_binop)op, (tl_dtype)d, false, (tl_dtype)d, false, NULL, &dt), 0, "%s", tl_errmsg());
            tl_tensor *r = tl_binary((tl_binop)op, t, o, dt);
            ok[d] = r != NULL;
            if (!r) {
                assert_refused(name, d);
                release_kept();
                continue;
            }
            keep(r);
            cr_assert_eq(r->dtype, tl_binop_result_dtype((tl_binop)op, dt), "%s of %s", name, dn(d));
            /* strided operands take the strided loop */
            tl_tensor *tt = keep(tl_copy(keep(tl_view_transpose(t)))), *ot = keep(tl_view_transpose(o));
            tl_tensor *rs = keep(tl_binary((tl_binop)op, keep(tl_view_transpose(tt)), keep(tl_view_transpose(keep(tl_copy(ot)))), dt));
            assert_same(rs, r, "a strided binary operator", d);
            tl_tensor *ref = as_reference(t, d), *oref = as_reference(o, d);
            cr_assert_eq(tl_binop_dtype((tl_binop)op, ref->dtype, false, ref->dtype, false, NULL, &rdt), 0);
            assert_close(r, keep(tl_binary((tl_binop)op, ref, oref, rdt)), name, d);
            release_kept();
        }
        assert_family_rule(ok, name);
    }
}

Test(walk, where_clip_take_matmul_and_comparisons)
{
    static const double INDICES[N] = { 2, 0, 1, 1, 3, 2, 0, 0, 1, 2, 3, 3 };
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make_wide(d, VALUES), *o = make(d, OTHERS), *ref = as_reference(t, d), *oref = as_reference(o, d);
        tl_tensor *gt = keep(tl_binary(TL_GT, o, t, TL_F64));
        assert_close(keep(tl_where(gt, t, o, (tl_dtype)d)), keep(tl_where(gt, ref, oref, ref->dtype)), "where", d);
        assert_close(keep(tl_clip(t, o, NULL, (tl_dtype)d)), keep(tl_clip(ref, oref, NULL, ref->dtype)), "clip", d);
        tl_tensor *idx = make(TL_I64, INDICES);
        assert_same(keep(tl_take(t, idx, 1, TL_TAKE_RAISE)), keep(tl_cast(keep(tl_take(ref, idx, 1, TL_TAKE_RAISE)), (tl_dtype)d)),
                    "take", d);
        tl_tensor *tt = keep(tl_view_transpose(t)), *rt = keep(tl_view_transpose(ref));
        assert_close(keep(tl_matmul(t, tt)), keep(tl_matmul(ref, rt)), "matmul", d);
        assert_same(keep(tl_contiguous(tt)), keep(tl_cast(rt, (tl_dtype)d)), "a transposed copy", d);
        cr_assert_eq(tl_array_equal(t, tt, false), 0, "array_equal of %s: %s", dn(d), tl_errmsg());
        cr_assert_eq(tl_array_equal(t, keep(tl_copy(t)), false), 1, "array_equal of %s: %s", dn(d), tl_errmsg());
        assert_same(keep(tl_isclose(t, o, 1e-5, 1e-8, false)), keep(tl_binary(TL_EQ, ref, oref, ref->dtype)), "isclose", d);
        release_kept();
    }
}

/* ---- save and load in each format that has the dtype ------------------------------------ */

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/tl_test_walk_XXXXXX");
    cr_assert(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
    walk_fini();
}

TestSuite(walk_files, .init = make_dir, .fini = remove_dir);

static const char *path_of(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* f's only tensor (kept), the file freed. */
static tl_tensor *only_tensor(tl_file *f, int d)
{
    cr_assert(f, "load of %s: %s", dn(d), tl_errmsg());
    cr_assert_eq(f->n, 1);
    tl_tensor *t = keep(f->tensors[0].tensor);
    f->tensors[0].tensor = NULL;
    tl_file_free(f);
    return t;
}

Test(walk_files, npy_and_npz_hold_every_dtype)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make(d, VALUES), *tt = keep(tl_view_transpose(t));
        cr_assert_eq(tl_npy_save(path_of("x.npy"), tt), 0, "npy of %s: %s", dn(d), tl_errmsg());
        assert_same(keep(tl_npy_load(path_of("x.npy"))), tt, "npy", d);
        for (int compress = 0; compress <= 1; compress++) {
            tl_named_in item = { "x", 1, t };
            const char *path = path_of("x.npz");
            cr_assert_eq(tl_format_of(path)->save(path, 1, &item, &(tl_save_opts){ .compress = compress }), 0, "npz of %s: %s", dn(d),
                         tl_errmsg());
            assert_same(only_tensor(tl_load(path_of("x.npz")), d), t, "npz", d);
        }
        release_kept();
    }
}

/* The text of a whole (small) file. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

Test(walk_files, safetensors_holds_the_dtypes_it_names)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make(d, VALUES);
        tl_named_in item = { "x", 1, t };
        const char *path = path_of("x.safetensors");
        int rc = tl_format_of(path)->save(path, 1, &item, &(tl_save_opts){ 0 });
        const char *name = tl_dtypes[d].safetensors;
        if (!name) {   /* the format has no such dtype (c128) */
            cr_assert_eq(rc, -1, "safetensors of %s", dn(d));
            assert_refused_as(TL_E_FileError, "safetensors", d);
            release_kept();
            continue;
        }
        cr_assert_eq(rc, 0, "safetensors of %s: %s", dn(d), tl_errmsg());
        char want[64];
        snprintf(want, sizeof want, "\"dtype\":\"%s\"", name);
        cr_assert(strstr(slurp(path_of("x.safetensors")) + 8, want), "safetensors header of %s lacks %s", dn(d), want);
        assert_same(only_tensor(tl_load(path_of("x.safetensors")), d), t, "safetensors", d);
        release_kept();
    }
}

static void put32(FILE *f, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    cr_assert_eq(fwrite(b, 1, 4, f), 4u);
}

static void put64(FILE *f, uint64_t v)
{
    put32(f, (uint32_t)v);
    put32(f, (uint32_t)(v >> 32));
}

/* A GGUF v3 file holding t (C-contiguous, ROWS x COLS) as ggml type `type`, and one metadata
   array of its elements as GGUF value type `meta` (none when meta < 0). */
static void write_gguf(const char *path, const tl_tensor *t, int type, int meta)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    size_t bytes = (size_t)N * tl_dtype_size(t->dtype);
    fwrite("GGUF", 1, 4, f);
    put32(f, 3);
    put64(f, type >= 0);
    put64(f, meta >= 0);
    if (meta >= 0) {
        put64(f, 1), fputc('a', f), put32(f, 9 /* array */), put32(f, (uint32_t)meta), put64(f, N);
        fwrite(tl_tensor_data(t), 1, bytes, f);
    }
    if (type >= 0) {
        put64(f, 1), fputc('x', f), put32(f, 2), put64(f, COLS), put64(f, ROWS), put32(f, (uint32_t)type), put64(f, 0);
        for (long at = ftell(f); at % 32; at++) fputc(0, f);
        fwrite(tl_tensor_data(t), 1, bytes, f);
    }
    fclose(f);
}

Test(walk_files, gguf_holds_the_dtypes_ggml_and_its_metadata_name)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make(d, VALUES);
        int type = tl_dtypes[d].ggml, meta = tl_dtypes[d].gguf;
        if (type < 0 && meta < 0) {   /* nothing in GGUF is of this dtype: no file can hold one */
            release_kept();
            continue;
        }
        write_gguf(path_of("x.gguf"), t, type, meta);
        tl_file *f = tl_load(path_of("x.gguf"));
        cr_assert(f, "gguf of %s: %s", dn(d), tl_errmsg());
        tl_meta *m = tl_meta_decode(f->meta, f->meta_len);
        cr_assert(m, "%s", tl_errmsg());
        cr_assert_eq(m->n, meta >= 0, "gguf metadata of %s", dn(d));
        if (meta >= 0) {
            cr_assert_eq(m->items[0].kind, TL_META_ARRAY);
            assert_same(m->items[0].array, keep(tl_reshape(t, 1, (int64_t[]){ N })), "gguf metadata", d);
        }
        tl_meta_free(m);
        if (type >= 0) assert_same(only_tensor(f, d), t, "gguf", d);
        else tl_file_free(f);
        release_kept();
    }
}

Test(walk_files, metadata_arrays_hold_the_dtypes_gguf_names)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = keep(tl_reshape(make(d, VALUES), 1, (int64_t[]){ N }));
        char *key = "a";
        size_t keylen = 1;
        tl_meta item = { .kind = TL_META_ARRAY, .array = t };
        tl_meta map = { .kind = TL_META_MAP, .n = 1, .items = &item, .keys = &key, .keylens = &keylen };
        uint8_t *blob = NULL;
        size_t len = 0;
        int rc = tl_meta_encode(&map, &blob, &len);
        if (tl_dtypes[d].gguf < 0) {
            cr_assert_eq(rc, -1, "metadata array of %s", dn(d));
            assert_refused("metadata array", d);
            free(blob);
            release_kept();
            continue;
        }
        cr_assert_eq(rc, 0, "metadata array of %s: %s", dn(d), tl_errmsg());
        tl_meta *m = tl_meta_decode(blob, len);
        cr_assert(m, "%s", tl_errmsg());
        assert_same(m->items[0].array, t, "metadata array", d);
        tl_meta_free(m);
        free(blob);
        release_kept();
    }
}

Test(walk_files, text_holds_every_real_dtype_as_numbers)
{
    for (int d = 0; d < TL_NDTYPES; d++) {
        tl_tensor *t = make(d, VALUES);
        int rc = tl_text_save(path_of("x.csv"), t, ',');
        if (family_of(d) == FAM_COMPLEX) {
            cr_assert_eq(rc, -1, "csv of %s", dn(d));
            assert_refused_as(TL_E_FileError, "csv", d);
            release_kept();
            continue;
        }
        cr_assert_eq(rc, 0, "csv of %s: %s", dn(d), tl_errmsg());
        assert_same(only_tensor(tl_load(path_of("x.csv")), d), keep(tl_cast(t, TL_F64)), "csv", d);
        release_kept();
    }
}
