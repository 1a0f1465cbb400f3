/* golden_units.c — tl --test's reading of output: statement markers into units, and the numeric tolerance */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_int.h"

/* ---- tolerance ----------------------------------------------------------- */

/* Reads `# tl-test: rtol=R atol=A` (either key may be left out, meaning 0). */
bool tolerance_parse(const char *src, size_t len, Tolerance *tol, char *err, size_t errlen)
{
    static const char key[] = "tl-test:";
    *tol = (Tolerance){ 0 };
    for (size_t i = 0; i < len; i++) {
        if (src[i] != '#') continue;
        size_t j = i + 1;
        while (j < len && (src[j] == ' ' || src[j] == '\t')) j++;
        if (len - j < sizeof key - 1 || memcmp(src + j, key, sizeof key - 1) != 0) continue;
        j += sizeof key - 1;
        tol->on = true;
        for (;;) {   /* NAME=NUMBER pairs up to the end of the line */
            while (j < len && (src[j] == ' ' || src[j] == '\t')) j++;
            if (j >= len || src[j] == '\n' || src[j] == '\r') break;
            char word[64];
            size_t n = 0;
            while (j < len && !isspace((unsigned char)src[j]) && n < sizeof word - 1) word[n++] = src[j++];
            word[n] = 0;
            char *end = NULL;
            double v = -1;
            bool is_rtol = strncmp(word, "rtol=", 5) == 0, is_atol = strncmp(word, "atol=", 5) == 0;
            if (is_rtol || is_atol) v = strtod(word + 5, &end);
            if ((!is_rtol && !is_atol) || end == word + 5 || *end || !(v >= 0) || isinf(v)) {
                snprintf(err, errlen, "bad tl-test directive at '%s' (want rtol=R atol=A, each >= 0)", word);
                return false;
            }
            if (is_rtol) tol->rtol = v;
            else tol->atol = v;
        }
    }
    return true;
}

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

/* numpy's isclose for one part, with nan equal to nan and inf only to the same inf. */
static bool close_enough(double actual, double expected, const Tolerance *tol)
{
    if (isnan(actual) || isnan(expected)) return isnan(actual) && isnan(expected);
    if (isinf(actual) || isinf(expected)) return actual == expected;
    return fabs(actual - expected) <= tol->atol + tol->rtol * fabs(expected);
}

bool tolerant_equal(const char *expected, size_t elen, const char *actual, size_t alen, const Tolerance *tol)
{
    if (!tol || !tol->on) return elen == alen && memcmp(expected, actual, elen) == 0;
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
        bool same = ke && ke == ka ? close_enough(ar, er, tol) && close_enough(ai, ei, tol)
                                   : wi - i == wj - j && memcmp(expected + i, actual + j, wi - i) == 0;
        if (!same) return false;
        i = wi, j = wj;
    }
    return i == elen && j == alen;
}

/* ---- units --------------------------------------------------------------- */

void units_free(Units *u)
{
    for (int k = 0; k < u->n; k++) {
        sb_free(&u->out[k]);
        sb_free(&u->err[k]);
    }
    free(u->line);
    free(u->out);
    free(u->err);
    free(u->out_at);
    free(u->err_at);
    sb_free(&u->all_out);
    sb_free(&u->all_err);
    *u = (Units){ 0 };
}

/* Reads a marker "\x1eWORD ...\x1f" at s; returns its length (0 if s holds none) and where its numbers start. */
static size_t marker_at(const char *s, size_t n, const char *word, const char **args, size_t *nargs)
{
    size_t w = strlen(word);
    if (n < w + 2 || s[0] != MARK_OPEN || memcmp(s + 1, word, w) != 0) return 0;
    const char *close = memchr(s + 1 + w, MARK_CLOSE, n - 1 - w);
    if (!close) return 0;
    *args = s + 1 + w;
    *nargs = (size_t)(close - *args);
    return (size_t)(close - s) + 1;
}

/* The line number spelled by s[0..n): digits only, 1 to INT_MAX - 1 (so line + 1 is an int);
   0 when s spells none (markers are also bytes a test may print). */
static int line_number(const char *s, size_t n)
{
    if (n == 0 || n > 10) return 0;
    long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v < INT_MAX ? (int)v : 0;
}

/* Adds the distinct lines listed in a plan marker as units. */
static bool add_plan(Units *u, const char *args, size_t n)
{
    int cap = 1;
    for (size_t i = 0; i < n; i++) cap += args[i] == ' ';
    int *line = realloc(u->line, sizeof(int) * (size_t)cap);
    if (!line) return false;
    u->line = line;
    for (size_t i = 0; i < n;) {
        while (i < n && args[i] == ' ') i++;
        size_t start = i;
        while (i < n && args[i] != ' ') i++;
        int v = line_number(args + start, i - start);
        if (v > u->line[u->n - 1] && u->n < cap) u->line[u->n++] = v;
    }
    u->planned = true;
    return true;
}

int units_owner(const Units *u, int line)
{
    int k = 0;
    while (k + 1 < u->n && u->line[k + 1] < line) k++;
    return k;
}

int units_at(const Units *u, bool is_err, size_t at)
{
    const size_t *start = is_err ? u->err_at : u->out_at;
    int best = 0;
    for (int k = 0; k < u->n; k++)
        if (start[k] != SIZE_MAX && start[k] <= at) best = k;
    return best;
}

/* Splits one stream at its statement markers into the units' buffers. */
static bool split_stream(Units *u, bool is_err, const char *s, size_t n)
{
    StrBuf *all = is_err ? &u->all_err : &u->all_out, *parts = is_err ? u->err : u->out;
    size_t *start = is_err ? u->err_at : u->out_at;
    int cur = 0;
    start[0] = 0;
    size_t i = 0;
    while (i < n) {
        const char *open = memchr(s + i, MARK_OPEN, n - i);
        size_t stop = open ? (size_t)(open - s) : n;
        if (!sb_append(&parts[cur], s + i, stop - i) || !sb_append(all, s + i, stop - i)) return false;
        i = stop;
        if (i >= n) break;
        const char *args;
        size_t nargs, m;
        int line = 0;
        if (!is_err && (m = marker_at(s + i, n - i, MARK_PLAN, &args, &nargs))) {
            i += m;   /* read before the split (units_split) */
        } else if ((m = marker_at(s + i, n - i, MARK_STMT, &args, &nargs)) && nargs && args[0] == ' ' &&
                   (line = line_number(args + 1, nargs - 1)) > 0) {
            cur = units_owner(u, line + 1);
            if (start[cur] == SIZE_MAX) start[cur] = all->len;
            i += m;
        } else {   /* a stray separator byte (or a marker with no line number) is output like any other */
            if (!sb_append(&parts[cur], s + i, 1) || !sb_append(all, s + i, 1)) return false;
            i++;
        }
    }
    return true;
}

bool units_split(Units *u, const char *out, size_t outlen, const char *err, size_t errlen)
{
    *u = (Units){ 0 };
    if (!out) out = "";   /* a stream that stayed empty has no buffer */
    if (!err) err = "";
    u->line = calloc(1, sizeof(int));
    if (!u->line) return false;
    u->n = 1;
    const char *plan = memchr(out, MARK_OPEN, outlen);
    const char *args;
    size_t nargs;
    if (plan && marker_at(plan, outlen - (size_t)(plan - out), MARK_PLAN, &args, &nargs) && !add_plan(u, args, nargs))
        return false;
    u->out = calloc((size_t)u->n, sizeof(StrBuf));
    u->err = calloc((size_t)u->n, sizeof(StrBuf));
    u->out_at = malloc(sizeof(size_t) * (size_t)u->n);
    u->err_at = malloc(sizeof(size_t) * (size_t)u->n);
    if (!u->out || !u->err || !u->out_at || !u->err_at) return false;
    for (int k = 0; k < u->n; k++) {
        u->out_at[k] = u->err_at[k] = SIZE_MAX;
        if (!sb_append(&u->out[k], "", 0) || !sb_append(&u->err[k], "", 0)) return false;
    }
    if (!split_stream(u, false, out, outlen) || !split_stream(u, true, err, errlen)) return false;
    return sb_append(&u->all_out, "", 0) && sb_append(&u->all_err, "", 0);
}
