/* golden_regex.c — reads a `#~` pattern before the C library compiles it: refuses what glibc's
   regcomp takes exponential time or memory over, and anchors the pattern to the whole line.

   glibc's POSIX regex builds its automaton eagerly. Two shapes make that explode, found by
   fuzz_golden: a repetition of a part that can match empty text (`(a*)*`, `(a?)?`, `(a|b*)+`:
   twenty of them in a row take a second, forty would take days), and nested counts
   (`(a{1,200}){1,200}`: 40,000 copies, 6 s and 700 MB; `a{0,999}` ten times, 600 MB). Both are
   refused with a message: the first always has a plain equivalent (`(a*)*` is `a*`); counts stop
   at 255 (the least RE_DUP_MAX POSIX allows) and the copies they make at a budget. Back-references
   are refused too: POSIX extended expressions have none, and matching them is exponential. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "golden_int.h"

#define MAX_DEPTH 100          /* groups inside groups */
#define RE_DUP_MAX_POSIX 255   /* the largest count {m,n} every POSIX regex library takes */

/* A parsed part: its size as regcomp expands it (counted repetitions copy their part), its size
   as written, and whether it can match empty text. */
typedef struct Part { double size, written; bool empty; } Part;

typedef struct Scan {
    const char *p, *end;
    int depth;
    StrBuf *out;          /* the pattern to compile, or NULL */
    char *err;
    size_t errlen;
    bool failed, oom;
} Scan;

/* Refuses the pattern with the first reason found. */
static void scan_fail(Scan *s, const char *fmt, ...)
{
    if (s->failed) return;
    s->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
}

/* How much of the pattern from `at` a message quotes: up to `most` bytes. */
static int quoted(const Scan *s, const char *at, const char *to, int most)
{
    long n = (to ? to : s->end) - at;
    return n > most ? most : (int)n;
}

/* Appends to the pattern to compile. */
static void emit(Scan *s, const char *text, size_t n)
{
    if (s->out && !s->failed && !sb_append(s->out, text, n)) s->oom = s->failed = true;
}

static Part scan_alternatives(Scan *s);

/* Whether c is one of set's characters (never the NUL that ends set). */
static bool one_of(char c, const char *set)
{
    return c && strchr(set, c);
}

/* Copies a bracket expression `[...]` (s->p at its '['), with its classes [:name:], [.x.], [=x=]. */
static void scan_bracket(Scan *s)
{
    const char *q = s->p + 1;
    if (q < s->end && *q == '^') q++;
    if (q < s->end && *q == ']') q++;   /* a ']' first is a member */
    while (q < s->end && *q != ']') {
        if (*q == '[' && q + 1 < s->end && one_of(q[1], ":.=")) {
            char close = q[1];
            const char *r = q + 2;
            while (r + 1 < s->end && !(r[0] == close && r[1] == ']')) r++;
            if (r + 1 >= s->end) {   /* a class never closed: the bracket is not either */
                q = s->end;
                break;
            }
            q = r + 2;
        } else {
            q++;
        }
    }
    if (q >= s->end) return scan_fail(s, "'%.*s' has no closing ']'", quoted(s, s->p, NULL, 20), s->p);
    emit(s, s->p, (size_t)(q + 1 - s->p));
    s->p = q + 1;
}

/* One atom: a group, a bracket expression, an escape, an anchor or a character. */
static Part scan_atom(Scan *s)
{
    Part one = { 1, 1, false }, anchor = { 1, 1, true };
    const char *at = s->p;
    char c = *s->p;
    if (c == '(') {
        if (++s->depth > MAX_DEPTH) {
            scan_fail(s, "groups are nested more than %d deep", MAX_DEPTH);
            return one;
        }
        s->p++;
        emit(s, "(", 1);
        Part inner = scan_alternatives(s);
        if (s->p >= s->end) {
            scan_fail(s, "'%.*s' has no closing ')'", quoted(s, at, NULL, 20), at);
            return inner;
        }
        s->p++;
        s->depth--;
        emit(s, ")", 1);
        return inner;
    }
    if (c == ')') {   /* no '(' before it: POSIX reads it as itself (escaped so that it cannot close the anchoring group) */
        s->p++;
        emit(s, "\\)", 2);
        return one;
    }
    if (c == 0) {   /* (regcomp would read the pattern only up to it) */
        scan_fail(s, "%s", "the pattern holds a NUL byte");
        return one;
    }
    if (c == '[') {
        scan_bracket(s);
        return one;
    }
    if (c == '*' || c == '+' || c == '?' || c == '{') {
        scan_fail(s, "'%c' follows nothing it could repeat (write \\%c for the character itself)", c, c);
        return one;
    }
    if (c == '\\') {
        if (s->p + 1 >= s->end) {
            scan_fail(s, "%s", "the pattern ends in a lone backslash");
            return one;
        }
        char e = s->p[1];
        if (e >= '1' && e <= '9') {
            scan_fail(s, "'%.2s' is a back-reference, which POSIX extended expressions do not have", at);
            return one;
        }
        emit(s, s->p, 2);
        s->p += 2;
        return one_of(e, "<>bB`'") ? anchor : one;   /* glibc's word and buffer boundaries are empty */
    }
    emit(s, s->p, 1);
    s->p++;
    return c == '^' || c == '$' ? anchor : one;
}

/* Reads a count of `{m}`, `{m,}`, `{m,n}` or `{,n}` (s->p after the '{'); false when malformed. */
static bool scan_count(Scan *s, long *m, long *n)
{
    long v[2] = { -1, -1 };
    int k = 0;
    for (const char *q = s->p; q < s->end; q++) {
        if (*q >= '0' && *q <= '9') {
            v[k] = (v[k] < 0 ? 0 : v[k]) * 10 + (*q - '0');
            if (v[k] > 100000) return false;
        } else if (*q == ',' && k == 0) {
            k = 1;
        } else if (*q == '}' && (v[0] >= 0 || v[1] >= 0)) {
            *m = v[0] < 0 ? 0 : v[0];
            *n = k == 0 ? *m : v[1];   /* -1: no upper bound */
            if (*n >= 0 && *n < *m) return false;
            emit(s, s->p - 1, (size_t)(q + 1 - (s->p - 1)));
            s->p = q + 1;
            return true;
        } else {
            return false;
        }
    }
    return false;
}

/* An atom and the repetitions after it. */
static Part scan_item(Scan *s)
{
    const char *from = s->p;
    Part part = scan_atom(s);
    while (!s->failed && s->p < s->end && one_of(*s->p, "*+?{")) {
        const char *op = s->p++;
        if (part.empty) {
            scan_fail(s, "'%.*s' repeats a part that can match empty text, which the regex library takes exponential "
                         "time over: leave out the repetition",
                      quoted(s, from, s->p, 40), from);
            break;
        }
        if (*op == '{') {
            long m, n;
            if (!scan_count(s, &m, &n)) {
                const char *close = memchr(op, '}', (size_t)(s->end - op));
                scan_fail(s, "'%.*s' is not a count {m}, {m,} or {m,n} (m <= n)", quoted(s, op, close ? close + 1 : NULL, 12), op);
                break;
            }
            if (m > RE_DUP_MAX_POSIX || n > RE_DUP_MAX_POSIX) {   /* (n optional copies cost regcomp n^2) */
                scan_fail(s, "'%.*s' counts past %d, the most POSIX promises", (int)(s->p - op), op, RE_DUP_MAX_POSIX);
                break;
            }
            long copies = n >= 0 ? n : m + 1;   /* {m,} is m copies and a star */
            part.size *= copies > 1 ? (double)copies : 1;
            part.empty = m == 0;
        } else {
            emit(s, op, 1);
            if (*op == '+') part.size *= 2;   /* regcomp writes x+ as x x* */
            part.empty = *op != '+';
        }
    }
    return part;
}

/* Alternatives up to the end or the ')' closing the current group. */
static Part scan_alternatives(Scan *s)
{
    Part all = { 0, 0, false };
    for (;;) {
        Part seq = { 0, 0, true };
        while (!s->failed && s->p < s->end && *s->p != '|' && !(*s->p == ')' && s->depth > 0)) {
            Part item = scan_item(s);
            seq.size += item.size;
            seq.written += item.written;
            seq.empty = seq.empty && item.empty;
        }
        all.size += seq.size;
        all.written += seq.written;
        all.empty = all.empty || seq.empty;
        if (s->failed || s->p >= s->end || *s->p != '|') return all;
        emit(s, "|", 1);
        s->p++;
    }
}

/* Reads a whole pattern (golden_int.h says what it gives back). */
bool golden_regex_read(const char *pat, size_t n, StrBuf *out, double *copies, char *err, size_t errlen)
{
    Scan s = { .p = pat, .end = pat + n, .out = out, .err = err, .errlen = errlen };
    emit(&s, "^(", 2);
    Part all = scan_alternatives(&s);
    emit(&s, ")$", 2);
    if (s.oom) snprintf(err, errlen, "out of memory");
    *copies = all.size - all.written;
    if (!s.failed && *copies > REGEX_MAX_COPIES_LINE) {
        snprintf(err, errlen, "its counted repetitions make %.0f copies (at most %d a line, %d a test): write fewer",
                 *copies, REGEX_MAX_COPIES_LINE, REGEX_MAX_COPIES_TEST);
        return false;
    }
    return !s.failed;
}
