/* expect.c — expect_close: a tensor against an array stored beside the test (tl --test --update writes it) */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "builtins.h"
#include "io.h"

/* Whether a stored array's name is a plain file-name part: letters, digits, '_', '-', '.', not
   starting with '.' (no folder, no hidden file). */
static bool plain_name(const char *s)
{
    if (!*s || *s == '.' || strlen(s) > 200) return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.')) return false;
    return true;
}

/* A c128 element: its real and imaginary parts. */
typedef struct Parts { double re, im; } Parts;

/* The magnitude of a - b. */
static double distance(Parts a, Parts b) { return hypot(a.re - b.re, a.im - b.im); }

/* Whether actual is within the tolerance of expected (numpy's assert_allclose: the magnitude of
   the complex difference, nan equal to nan, an infinity only to itself). */
static bool close_to(Parts actual, Parts expected, double rtol, double atol)
{
    bool na = isnan(actual.re) || isnan(actual.im), ne = isnan(expected.re) || isnan(expected.im);
    if (na || ne) return na && ne;
    if (!isfinite(actual.re) || !isfinite(actual.im) || !isfinite(expected.re) || !isfinite(expected.im))
        return actual.re == expected.re && actual.im == expected.im;
    return distance(actual, expected) <= atol + rtol * hypot(expected.re, expected.im);
}

/* Writes a number (complex when its imaginary part is not 0) for a message. */
static void number_text(char *buf, size_t cap, Parts z)
{
    if (z.im == 0) snprintf(buf, cap, "%.17g", z.re);
    else snprintf(buf, cap, "(%.17g%+.17gj)", z.re, z.im);
}

/* The multi-index of flat (row-major) element i of shape, as "[1, 2]". */
static void index_text(char *buf, size_t cap, int ndim, const int64_t *shape, int64_t i)
{
    int64_t idx[TL_MAXDIM];
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d] = shape[d] ? i % shape[d] : 0;
        i = shape[d] ? i / shape[d] : 0;
    }
    size_t w = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < ndim && w < cap; d++) w += (size_t)snprintf(buf + w, cap - w, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (w < cap) snprintf(buf + w, cap - w, "]");
}

/* Compares x with the stored array element by element; false (the message in why) when they differ. */
static bool compare(const tl_tensor *x, const tl_tensor *stored, const char *path, double rtol, double atol,
                    char *why, size_t cap)
{
    char sx[TL_MAXDIM * 22 + 8], ss[TL_MAXDIM * 22 + 8];
    if (x->ndim != stored->ndim || memcmp(x->shape, stored->shape, sizeof(int64_t) * (size_t)x->ndim) != 0) {
        snprintf(why, cap, "x has shape %s, %.300s holds %s", tl_shape_str(x->ndim, x->shape, sx, sizeof sx), path,
                 tl_shape_str(stored->ndim, stored->shape, ss, sizeof ss));
        return false;
    }
    tl_tensor *a = tl_cast(x, TL_C128), *e = a ? tl_cast(stored, TL_C128) : NULL;
    if (!a || !e) {
        if (a) tl_tensor_release(a);
        snprintf(why, cap, "%s", tl_errmsg());
        return false;
    }
    const Parts *av = tl_tensor_data(a), *ev = tl_tensor_data(e);   /* c128: two doubles an element, contiguous */
    int64_t n = tl_tensor_size(a), bad = 0, worst = -1;
    double worst_diff = -1;
    for (int64_t i = 0; i < n; i++) {
        if (close_to(av[i], ev[i], rtol, atol)) continue;
        bad++;
        double diff = distance(av[i], ev[i]);
        if (worst < 0 || diff > worst_diff || isnan(diff)) worst = i, worst_diff = isnan(diff) ? INFINITY : diff;
    }
    if (bad) {
        char at[TL_MAXDIM * 22 + 8], act[96], exp[96];
        index_text(at, sizeof at, x->ndim, x->shape, worst);
        number_text(act, sizeof act, av[worst]);
        number_text(exp, sizeof exp, ev[worst]);
        snprintf(why, cap, "x differs from %.300s: %lld of %lld elements are outside rtol=%g, atol=%g; the largest difference "
                 "is %.6g at %s (actual %s, expected %s)", path, (long long)bad, (long long)n, rtol, atol,
                 distance(av[worst], ev[worst]), at, act, exp);
    }
    tl_tensor_release(a);
    tl_tensor_release(e);
    return bad == 0;
}

/* expect_close(x, name, *, rtol=1e-7, atol=0): x against X.name.npy beside the running script X.tl;
   under tl --test --update, a missing or different file is written instead. */
static bool bi_expect_close(Interp *I, CallArgs *a, Value *out)
{
    const char *name, *script = interp_script_path(I);
    double rtol, atol;
    tl_tensor *x;
    if (!arg_string(I, a, 1, NULL, &name) || !arg_double(I, a, 2, 1e-7, &rtol) || !arg_double(I, a, 3, 0, &atol)) return false;
    if (!plain_name(name))
        return bi_fail(I, a, ValueError, "name must be letters, digits, '_', '-' or '.' (not first), not \"%.60s\"", name);
    if (!(rtol >= 0) || !(atol >= 0)) return bi_fail(I, a, ValueError, "rtol and atol must be >= 0");
    if (!script) return bi_fail(I, a, ValueError, "compares with an array stored beside the running script, and there is none");
    char path[4096];
    size_t n = strlen(script);
    n = n >= 3 && strcmp(script + n - 3, ".tl") == 0 ? n - 3 : n;
    if (snprintf(path, sizeof path, "%.*s.%s.npy", (int)n, script, name) >= (int)sizeof path)
        return bi_fail(I, a, ValueError, "the stored array's path is too long");
    if (!arg_tensor(I, a, 0, &x)) return false;
    struct stat st;
    bool have = stat(path, &st) == 0;
    tl_tensor *stored = have ? tl_npy_load(path) : NULL;
    if (have && !stored && !interp_test_updating(I)) {
        tl_tensor_release(x);
        return interp_error_rt(I, a->at);
    }
    char why[2048];
    bool same = stored && compare(x, stored, path, rtol, atol, why, sizeof why);
    if (stored) tl_tensor_release(stored);
    if (!same && interp_test_updating(I)) {   /* written (atomically) and said, so tl --test counts it */
        int rc = tl_npy_save(path, x);
        tl_tensor_release(x);
        if (rc != 0) return interp_error_rt(I, a->at);
        interp_note_written(I, path);
        *out = val_none();
        return true;
    }
    tl_tensor_release(x);
    if (!have) return bi_fail(I, a, AssertionError, "there is no %.300s to compare x with (tl --test --update writes it)", path);
    if (!same) return bi_fail(I, a, AssertionError, "%s", why);
    *out = val_none();
    return true;
}

const Builtin bi_expect_table[] = {
    { "expect_close", bi_expect_close, "expect_close(x, name, *, rtol=1e-7, atol=0)",
      "checks x against the array X.name.npy stored beside the test X.tl (tl --test --update writes it)", 0, BF_OTHER, BT_NO },
    { 0 },
};
