/* golden_tolerance.c — tl --test's numbers: words of output compared within rtol/atol or N ulps, and why not */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_int.h"

/* Bytes that end a word: whitespace and the punctuation that surrounds printed numbers. */
static bool is_delim(char c) { return isspace((unsigned char)c) || (c && strchr("()[]{}<>,;:=|'\"", c)); }

/* Length of a real number spelled at s (sign, digits with an optional point, exponent; or nan/inf); 0 if none. */
static size_t real_len(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    static const char *const words[] = { "infinity", "inf", "nan" };
    for (int w = 0; w < 3; w++) {
        size_t k = strlen(words[w]);
        if (n - i >= k && strncasecmp(s + i, words[w], k) == 0) return i + k;
    }
    size_t digits = 0;
    while (i < n && isdigit((unsigned char)s[i])) i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && isdigit((unsigned char)s[i])) i++, digits++;
    }
    if (!digits) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        size_t ed = 0;
        while (j < n && isdigit((unsigned char)s[j])) j++, ed++;
        if (ed) i = j;
    }
    return i;
}

/* The value of the real number spelled in s[0..n). */
static double real_value(const char *s, size_t n)
{
    char buf[64];
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    return strtod(buf, NULL);
}

/* Parses a whole word as a number: a real, or a complex `RE+IMj` / `IMj`. 0: not a number, 1: real, 2: complex. */
static int parse_number(const char *s, size_t n, double *re, double *im)
{
    if (n == 0 || n > 60) return 0;
    size_t a = real_len(s, n);
    if (a == n) {
        *re = real_value(s, a);
        *im = 0;
        return 1;
    }
    if (a && a + 1 == n && (s[a] == 'j' || s[a] == 'J')) {
        *re = 0;
        *im = real_value(s, a);
        return 2;
    }
    if (!a || (s[a] != '+' && s[a] != '-')) return 0;
    size_t b = real_len(s + a, n - a);
    if (!b || a + b + 1 != n || (s[a + b] != 'j' && s[a + b] != 'J')) return 0;
    *re = real_value(s, a);
    *im = real_value(s + a, b);
    return 2;
}

/* Each dtype's significand bits (the leading one counted), smallest normal exponent and name;
   a number printed outside a float tensor (DT_NONE) compares as f64. */
static const struct { int digits, emin; const char *name; } float_formats[] = {
    [DT_NONE] = { 53, -1022, "f64" }, [DT_F16] = { 11, -14, "f16" }, [DT_BF16] = { 8, -126, "bf16" },
    [DT_F32] = { 24, -126, "f32" }, [DT_F64] = { 53, -1022, "f64" },
};

/* The spacing of dtype dt's numbers at x (its unit in the last place; subnormals share the smallest). */
static double ulp_of(double x, int dt)
{
    int e = 0;
    frexp(x, &e);   /* |x| = m * 2^e, m in [0.5, 1): the leading bit is 2^(e-1) */
    int lead = x == 0 || e - 1 < float_formats[dt].emin ? float_formats[dt].emin : e - 1;
    return ldexp(1.0, lead - (float_formats[dt].digits - 1));
}

/* x rounded to the nearest number of dtype dt (printing may show more or fewer digits than it holds). */
static double round_to(double x, int dt)
{
    if (!isfinite(x)) return x;
    double u = ulp_of(x, dt);
    return nearbyint(x / u) * u;
}

/* The dtype code of the byte at offset `at` of the actual output. */
static int dtype_at(const char *dtypes, size_t at)
{
    int dt = dtypes ? dtypes[at] : DT_NONE;
    return dt >= DT_NONE && dt <= DT_F64 ? dt : DT_NONE;
}

/* How far actual is from expected in ulps of dt, both rounded to dt first. */
static double ulps_apart(double actual, double expected, int dt)
{
    double e = round_to(expected, dt);
    return fabs(round_to(actual, dt) - e) / ulp_of(e, dt);
}

/* numpy's isclose for one part (or within tol->ulp ulps of dt), nan equal to nan, inf only to the same inf. */
static bool close_enough(double actual, double expected, int dt, const Tolerance *tol)
{
    if (isnan(actual) || isnan(expected)) return isnan(actual) && isnan(expected);
    if (isinf(actual) || isinf(expected)) return actual == expected;
    if (fabs(actual - expected) <= tol->atol + tol->rtol * fabs(expected)) return true;
    return tol->ulp > 0 && ulps_apart(actual, expected, dt) <= tol->ulp;
}

/* A number as the output spelled it. */
typedef struct Word { const char *s; size_t n; } Word;

/* Appends why one part of two numbers is outside the tolerance: the numbers as printed, the
   difference, the tolerance. */
static void explain_part(StrBuf *r, double actual, double expected, Word aw, Word ew, int dt, const Tolerance *tol,
                         const char *what)
{
    double diff = fabs(actual - expected);
    sb_printf(r, "# %sexpected %.*s, actual %.*s: they differ by %.6g", what, (int)ew.n, ew.s, (int)aw.n, aw.s, diff);
    if (isfinite(diff) && expected != 0) sb_printf(r, " (%.3g relative)", diff / fabs(expected));
    if (isfinite(diff) && tol->ulp) sb_printf(r, ", %.6g ulp of %s", ulps_apart(actual, expected, dt), float_formats[dt].name);
    if (tol->rtol > 0 || tol->atol > 0 || !tol->ulp)
        sb_printf(r, "; tolerance %.6g (atol=%g + rtol=%g * |expected|)", tol->atol + tol->rtol * fabs(expected), tol->atol,
                  tol->rtol);
    if (tol->ulp)
        sb_printf(r, "%s %d ulp of %s (%.6g)", tol->rtol > 0 || tol->atol > 0 ? " or" : "; tolerance", tol->ulp,
                  float_formats[dt].name, tol->ulp * ulp_of(round_to(expected, dt), dt));
    sb_append(r, "\n", 1);
}

/* Compares the two texts word by word under tol; with explain, goes on past numbers outside the
   tolerance, appending a line for each (and stops at the first difference that is not one). */
static bool compare_words(const char *expected, size_t elen, const char *actual, size_t alen, const char *dtypes,
                          const Tolerance *tol, StrBuf *explain)
{
    bool same_all = true;
    size_t i = 0, j = 0;
    while (i < elen && j < alen) {
        bool de = is_delim(expected[i]), da = is_delim(actual[j]);
        if (de || da) {
            if (expected[i] != actual[j]) return false;
            i++, j++;
            continue;
        }
        size_t wi = i, wj = j;
        while (wi < elen && !is_delim(expected[wi])) wi++;
        while (wj < alen && !is_delim(actual[wj])) wj++;
        double er, ei, ar, ai;
        int ke = parse_number(expected + i, wi - i, &er, &ei), ka = parse_number(actual + j, wj - j, &ar, &ai);
        int dt = dtype_at(dtypes, j);
        if (ke && ke == ka) {
            bool re_ok = close_enough(ar, er, dt, tol), im_ok = close_enough(ai, ei, dt, tol);
            Word aw = { actual + j, wj - j }, ew = { expected + i, wi - i };
            if (explain && !re_ok) explain_part(explain, ar, er, aw, ew, dt, tol, ke == 2 ? "real part: " : "");
            if (explain && !im_ok) explain_part(explain, ai, ei, aw, ew, dt, tol, "imaginary part: ");
            same_all = same_all && re_ok && im_ok;
            if (!same_all && !explain) return false;
        } else if (wi - i != wj - j || memcmp(expected + i, actual + j, wi - i) != 0) {
            return false;
        }
        i = wi, j = wj;
    }
    return same_all && i == elen && j == alen;
}

bool tolerant_equal(const char *expected, size_t elen, const char *actual, size_t alen, const char *dtypes,
                    const Tolerance *tol)
{
    if (!tol || !tol->on) return elen == alen && memcmp(expected, actual, elen) == 0;
    return compare_words(expected, elen, actual, alen, dtypes, tol, NULL);
}

void tolerance_explain(StrBuf *r, const char *expected, size_t elen, const char *actual, size_t alen,
                       const char *dtypes, const Tolerance *tol)
{
    if (tol && tol->on) compare_words(expected, elen, actual, alen, dtypes, tol, r);
}
