/* golden_directives.c — the `# tl-test:` lines of a golden test: tolerance, ulp, skip, xfail, requires */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "golden_int.h"

/* Most units in the last place `ulp=N` may allow. */
#define ULP_MAX 1000000

/* The features `requires` can name, and whether this build has each. */
static const struct { const char *name; bool (*present)(void); } features[] = {
    { "cairo", draw_have_images },   /* pictures written as PNG/SVG files */
};

/* Whether the build has feature name[0..n); -1 when no feature has that name. */
static int feature_present(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (strlen(features[i].name) == n && memcmp(features[i].name, name, n) == 0) return features[i].present();
    return -1;
}

/* One directive line's words, read from s[*j] to the end of its line. */
typedef struct Cursor { const char *s; size_t len, j; } Cursor;

static void skip_blanks(Cursor *c)
{
    while (c->j < c->len && (c->s[c->j] == ' ' || c->s[c->j] == '\t')) c->j++;
}

static bool at_line_end(const Cursor *c)
{
    return c->j >= c->len || c->s[c->j] == '\n' || c->s[c->j] == '\r';
}

/* Reads the next word (up to a blank or the line's end) into word. */
static void read_word(Cursor *c, char *word, size_t cap)
{
    size_t n = 0;
    while (!at_line_end(c) && !isspace((unsigned char)c->s[c->j])) {
        if (n < cap - 1) word[n++] = c->s[c->j];
        c->j++;
    }
    word[n] = 0;
}

/* Reads an optional "reason" after skip or xfail into d->reason; false when its quote is not closed. */
static bool read_reason(Cursor *c, Directives *d)
{
    skip_blanks(c);
    d->reason[0] = 0;
    if (at_line_end(c) || c->s[c->j] != '"') return true;
    size_t start = ++c->j;
    while (!at_line_end(c) && c->s[c->j] != '"') c->j++;
    if (at_line_end(c)) return false;
    snprintf(d->reason, sizeof d->reason, "%.*s", (int)(c->j - start), c->s + start);
    c->j++;
    return true;
}

/* Reads `requires FEATURE...`: a feature this build lacks makes the test a skip. */
static bool read_requires(Cursor *c, Directives *d, char *err, size_t errlen)
{
    bool any = false;
    for (skip_blanks(c); !at_line_end(c); skip_blanks(c)) {
        char word[64];
        read_word(c, word, sizeof word);
        int have = feature_present(word, strlen(word));
        if (have < 0) {
            snprintf(err, errlen, "tl-test: requires names no feature '%s' (known: cairo)", word);
            return false;
        }
        if (!have && !d->skip) {
            d->skip = true;
            snprintf(d->reason, sizeof d->reason, "requires %s, which this build of tl lacks", word);
        }
        any = true;
    }
    if (!any) snprintf(err, errlen, "tl-test: requires needs a feature (known: cairo)");
    return any;
}

/* Reads NAME=NUMBER: rtol, atol (>= 0, finite) or ulp (an integer 1 to ULP_MAX). */
static bool read_setting(const char *word, Tolerance *tol, char *err, size_t errlen)
{
    const char *eq = strchr(word, '=');
    char *end = NULL;
    double v = eq ? strtod(eq + 1, &end) : -1;
    bool number = eq && end != eq + 1 && !*end && v >= 0 && !isinf(v);
    size_t n = eq ? (size_t)(eq - word) : 0;
    if (number && n == 4 && memcmp(word, "rtol", 4) == 0) tol->rtol = v;
    else if (number && n == 4 && memcmp(word, "atol", 4) == 0) tol->atol = v;
    else if (number && n == 3 && memcmp(word, "ulp", 3) == 0 && v >= 1 && v <= ULP_MAX && v == floor(v)) tol->ulp = (int)v;
    else {
        snprintf(err, errlen, "bad tl-test directive at '%s' (want rtol=R atol=A ulp=N, skip \"why\", xfail \"why\", "
                 "requires FEATURE, shell)", word);
        return false;
    }
    tol->on = true;
    return true;
}

/* Reads the words of one `# tl-test:` line. */
static bool read_line(Cursor *c, Directives *d, char *err, size_t errlen)
{
    for (skip_blanks(c); !at_line_end(c); skip_blanks(c)) {
        char word[64];
        read_word(c, word, sizeof word);
        bool ok = true;
        if (strcmp(word, "skip") == 0) {
            ok = read_reason(c, d);
            d->skip = true;
        } else if (strcmp(word, "xfail") == 0) {
            ok = d->xfail = read_reason(c, d);
        } else if (strcmp(word, "shell") == 0) {
            d->shell = true;
        } else if (strcmp(word, "requires") == 0) {
            if (!read_requires(c, d, err, errlen)) return false;
        } else if (!read_setting(word, &d->tol, err, errlen)) {
            return false;
        }
        if (!ok) {
            snprintf(err, errlen, "tl-test: the reason after %s needs its closing \"", word);
            return false;
        }
    }
    return true;
}

bool golden_runs_as_shell(const char *src, size_t len)
{
    Directives d;
    char err[160];
    return directives_parse(src, len, &d, err, sizeof err) && d.shell;
}

bool directives_parse(const char *src, size_t len, Directives *d, char *err, size_t errlen)
{
    static const char key[] = "tl-test:";
    *d = (Directives){ 0 };
    for (size_t i = 0; i < len; i++) {
        if (src[i] != '#') continue;
        size_t b = i;   /* a directive is a comment on a line of its own: not after code, nor inside a #> line */
        while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) b--;
        if (b > 0 && src[b - 1] != '\n') continue;
        Cursor c = { src, len, i + 1 };
        skip_blanks(&c);
        if (len - c.j < sizeof key - 1 || memcmp(src + c.j, key, sizeof key - 1) != 0) continue;
        c.j += sizeof key - 1;
        if (!read_line(&c, d, err, errlen)) return false;
        i = c.j;
    }
    return true;
}
