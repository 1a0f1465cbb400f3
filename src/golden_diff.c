/* golden_diff.c — expected output against actual, line by line: patterns (#~ regex, #> ...), tolerance, unified diffs */
#include <limits.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_int.h"

/* Lines of context around each change in a diff. */
#define DIFF_CONTEXT 3
/* Largest LCS table (cells) before the diff falls back to one whole-file hunk. */
#define DIFF_MAX_CELLS 4000000

/* Splits text at newlines into (pointer, length) pairs; -1 when out of memory. */
static int split_lines(const char *text, size_t len, const char ***lines, size_t **lens)
{
    int n = 0, cap = 64;
    *lines = malloc(sizeof(char *) * (size_t)cap);
    *lens = malloc(sizeof(size_t) * (size_t)cap);
    size_t i = 0;
    while (*lines && *lens && i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t l = nl ? (size_t)(nl - (text + i)) : len - i;
        if (n == cap) {
            if (cap > INT_MAX / 2) break;
            cap *= 2;
            const char **nlines = realloc(*lines, sizeof(char *) * (size_t)cap);
            if (nlines) *lines = nlines;
            size_t *nlens = nlines ? realloc(*lens, sizeof(size_t) * (size_t)cap) : NULL;
            if (nlens) *lens = nlens;
            if (!nlines || !nlens) break;
        }
        (*lines)[n] = text + i;
        (*lens)[n] = l;
        n++;
        i += l + 1;
    }
    if (*lines && *lens && i >= len) return n;
    free(*lines);
    free(*lens);
    *lines = NULL;
    *lens = NULL;
    return -1;
}

/* Both sides of a comparison as lines, and what decides whether two lines are the same. */
typedef struct Sides {
    const Expected *e;
    const char **la, **lb;     /* expected and actual lines (without their newlines) */
    size_t *na, *nb;
    int n, m;
    const char *b;             /* the actual text (lb[j] - b is a line's offset) */
    size_t alen, blen;
    regex_t *re;               /* the compiled regex of each EXP_REGEX line (by expected line) */
    bool *compiled;
} Sides;

static ExpKind kind_of(const Sides *s, int i) { return s->e->kinds ? (ExpKind)s->e->kinds[i] : EXP_TEXT; }

/* Whether line i of a (or j of b) is followed by a newline. */
static bool has_newline(const char *text, size_t len, const char *line, size_t llen)
{
    return line + llen < text + len;
}

/* Whether expected line i (not EXP_ANY) matches actual line j. */
static bool line_same(const Sides *s, int i, int j)
{
    if (kind_of(s, i) == EXP_REGEX) {
        char buf[4096], *line = s->nb[j] < sizeof buf ? buf : malloc(s->nb[j] + 1);
        if (!line) return false;
        memcpy(line, s->lb[j], s->nb[j]);
        line[s->nb[j]] = 0;
        bool ok = strlen(line) == s->nb[j] && regexec(&s->re[i], line, 0, NULL, 0) == 0;   /* (a NUL in the line: no match) */
        if (line != buf) free(line);
        return ok;
    }
    if (has_newline(s->e->text, s->alen, s->la[i], s->na[i]) != has_newline(s->b, s->blen, s->lb[j], s->nb[j])) return false;
    const char *dt = s->e->dtypes ? s->e->dtypes + (s->lb[j] - s->b) : NULL;
    return tolerant_equal(s->la[i], s->na[i], s->lb[j], s->nb[j], dt, s->e->tol);
}

static void sides_free(Sides *s)
{
    for (int i = 0; s->re && s->compiled && i < s->n; i++)
        if (s->compiled[i]) regfree(&s->re[i]);
    free(s->re);
    free(s->compiled);
    free(s->la); free(s->lb); free(s->na); free(s->nb);
}

/* Splits both sides and compiles the regexes (POSIX extended, matching the whole line); false
   when out of memory or a regex is bad (then err says which). */
static bool sides_open(Sides *s, const Expected *e, const char *b, size_t blen, char *err, size_t errlen)
{
    *s = (Sides){ .e = e, .b = b, .alen = e->len, .blen = blen };
    s->n = split_lines(e->text, e->len, &s->la, &s->na);
    s->m = split_lines(b, blen, &s->lb, &s->nb);
    snprintf(err, errlen, "out of memory");
    if (s->n < 0 || s->m < 0) return false;
    s->re = calloc((size_t)s->n + 1, sizeof(regex_t));
    s->compiled = calloc((size_t)s->n + 1, sizeof(bool));
    if (!s->re || !s->compiled) return false;
    for (int i = 0; i < s->n; i++) {
        if (kind_of(s, i) != EXP_REGEX) continue;
        StrBuf pat = { 0 };
        double copies;
        char why[200];
        bool read = golden_regex_read(s->la[i], s->na[i], &pat, &copies, why, sizeof why);
        int rc = read ? regcomp(&s->re[i], pat.data, REG_EXTENDED | REG_NOSUB) : -1;
        sb_free(&pat);
        if (rc != 0) {
            if (rc > 0) regerror(rc, &s->re[i], why, sizeof why);
            snprintf(err, errlen, "bad regular expression in '#~ %.*s': %s", s->na[i] > 60 ? 60 : (int)s->na[i], s->la[i], why);
            return false;
        }
        s->compiled[i] = true;
    }
    return true;
}

/* Matches the lines as a glob matches characters: EXP_ANY lines take any run of actual lines
   (backtracking to the last one), every other line exactly one. */
static bool lines_match(const Sides *s)
{
    int i = 0, j = 0, star = -1, star_j = 0;
    while (j < s->m) {
        if (i < s->n && kind_of(s, i) == EXP_ANY) { star = i++; star_j = j; continue; }
        if (i < s->n && line_same(s, i, j)) { i++, j++; continue; }
        if (star < 0) return false;
        i = star + 1;
        j = ++star_j;
    }
    while (i < s->n && kind_of(s, i) == EXP_ANY) i++;
    return i == s->n;
}

int expected_match(const Expected *e, const char *actual, size_t alen, char *err, size_t errlen)
{
    if (!e->kinds) return tolerant_equal(e->text, e->len, actual, alen, e->dtypes, e->tol);
    Sides s;
    int r = sides_open(&s, e, actual, alen, err, errlen) ? lines_match(&s) : -1;
    sides_free(&s);
    return r;
}

/* The edit script: ops[k] is OP_SAME, OP_DEL (line ia[k] of a), OP_INS (line ib[k] of b) or
   OP_ANY (line ib[k] of b, taken by the `#> ...` line ia[k]). */
enum { OP_SAME, OP_DEL, OP_INS, OP_ANY };
typedef struct Script { int *ops, *ia, *ib, n; } Script;

static void script_add(Script *sc, int op, int i, int j)
{
    sc->ops[sc->n] = op;
    sc->ia[sc->n] = i;
    sc->ib[sc->n++] = j;
}

/* Fills the script from the least-edits table (a `#> ...` line takes or leaves actual lines at no
   cost), or as one delete-all/insert-all hunk when the table is too big. */
static void edit_script(Script *sc, const Sides *s)
{
    int n = s->n, m = s->m;
    int *C = (int64_t)(n + 1) * (m + 1) <= DIFF_MAX_CELLS ? malloc(sizeof(int) * (size_t)(n + 1) * (size_t)(m + 1)) : NULL;
#define CELL(i, j) C[(i) * (m + 1) + (j)]
    if (!C) {
        for (int i = 0; i < n; i++) if (kind_of(s, i) != EXP_ANY) script_add(sc, OP_DEL, i, 0);
        for (int j = 0; j < m; j++) script_add(sc, OP_INS, n, j);
        return;
    }
    for (int i = n; i >= 0; i--)
        for (int j = m; j >= 0; j--) {
            int best = i == n && j == m ? 0 : INT_MAX;
            bool any = i < n && kind_of(s, i) == EXP_ANY;
            if (i < n) best = CELL(i + 1, j) + !any;
            if (j < m && CELL(i, j + 1) + !any < best) best = CELL(i, j + 1) + !any;
            if (i < n && j < m && !any && CELL(i + 1, j + 1) < best && line_same(s, i, j)) best = CELL(i + 1, j + 1);
            CELL(i, j) = best;
        }
    int i = 0, j = 0;
    while (i < n || j < m) {
        bool any = i < n && kind_of(s, i) == EXP_ANY;
        if (i < n && j < m && !any && CELL(i, j) == CELL(i + 1, j + 1) && line_same(s, i, j)) script_add(sc, OP_SAME, i++, j++);
        else if (any && (j == m || CELL(i, j) == CELL(i + 1, j))) i++;   /* lazily: later lines match what they can */
        else if (any) script_add(sc, OP_ANY, i, j++);
        else if (i < n && CELL(i, j) == CELL(i + 1, j) + 1) script_add(sc, OP_DEL, i++, j);
        else script_add(sc, OP_INS, i, j++);
    }
#undef CELL
    free(C);
}

/* Under each hunk, why its changed lines that differ only in numbers differ: the k-th deleted
   line of each run of changes paired with its k-th inserted line. */
static void explain_numbers(StrBuf *r, const Sides *s, const Script *sc, int from, int to)
{
    if (!s->e->tol || !s->e->tol->on) return;
    for (int q = from; q < to;) {
        if (sc->ops[q] != OP_DEL && sc->ops[q] != OP_INS) { q++; continue; }
        int run = q, dels[64], ins[64], nd = 0, ni = 0;
        for (; run < to && (sc->ops[run] == OP_DEL || sc->ops[run] == OP_INS); run++) {
            if (sc->ops[run] == OP_DEL && nd < 64) dels[nd++] = sc->ia[run];
            if (sc->ops[run] == OP_INS && ni < 64) ins[ni++] = sc->ib[run];
        }
        for (int k = 0; k < nd && k < ni; k++) {
            if (kind_of(s, dels[k]) != EXP_TEXT) continue;
            const char *dt = s->e->dtypes ? s->e->dtypes + (s->lb[ins[k]] - s->b) : NULL;
            tolerance_explain(r, s->la[dels[k]], s->na[dels[k]], s->lb[ins[k]], s->nb[ins[k]], dt, s->e->tol);
        }
        q = run;
    }
}

void diff_write(StrBuf *r, const char *name_a, const Expected *e, const char *name_b, const char *b, size_t blen,
                HunkLabel label, void *label_ctx)
{
    Sides s;
    char err[200];
    sb_printf(r, "--- %s\n+++ %s\n", name_a, name_b);
    bool ok = sides_open(&s, e, b, blen, err, sizeof err);
    size_t nmax = ok ? (size_t)s.n + (size_t)s.m + 1 : 0;
    Script sc = { malloc(sizeof(int) * nmax), malloc(sizeof(int) * nmax), malloc(sizeof(int) * nmax), 0 };
    if (!ok) sb_printf(r, "(%s: no diff)\n", err);
    else if (!sc.ops || !sc.ia || !sc.ib) sb_printf(r, "(out of memory: no diff)\n");
    else edit_script(&sc, &s);
    for (int k = 0; k < sc.n;) {
        if (sc.ops[k] == OP_SAME || sc.ops[k] == OP_ANY) { k++; continue; }
        int first_change = k;
        int st = k - DIFF_CONTEXT < 0 ? 0 : k - DIFF_CONTEXT;
        while (st < k && (sc.ops[st] == OP_DEL || sc.ops[st] == OP_INS)) st++;
        int end = k;
        for (;;) {   /* extend the hunk while changes are within 2*context of each other */
            while (end < sc.n && (sc.ops[end] == OP_DEL || sc.ops[end] == OP_INS)) end++;
            int gap = end;
            while (gap < sc.n && (sc.ops[gap] == OP_SAME || sc.ops[gap] == OP_ANY) && gap - end < 2 * DIFF_CONTEXT) gap++;
            if (gap < sc.n && (sc.ops[gap] == OP_DEL || sc.ops[gap] == OP_INS)) end = gap;
            else break;
        }
        int stop = end + DIFF_CONTEXT < sc.n ? end + DIFF_CONTEXT : sc.n;
        int acount = 0, bcount = 0;
        for (int q = st; q < stop; q++) {
            acount += sc.ops[q] == OP_SAME || sc.ops[q] == OP_DEL;
            bcount += sc.ops[q] != OP_DEL;
        }
        int a0 = st < sc.n ? sc.ia[st] : s.n, b0 = st < sc.n ? sc.ib[st] : s.m;
        sb_printf(r, "@@ -%d,%d +%d,%d @@", a0 + (acount ? 1 : 0), acount, b0 + (bcount ? 1 : 0), bcount);
        int jb = sc.ib[first_change];
        const char *where = label ? label(label_ctx, jb < s.m ? (size_t)(s.lb[jb] - b) : blen) : NULL;
        if (where) sb_printf(r, " %s", where);
        sb_append(r, "\n", 1);
        for (int q = st; q < stop; q++) {
            int op = sc.ops[q];
            bool from_b = op == OP_INS || op == OP_ANY || (op == OP_SAME && kind_of(&s, sc.ia[q]) == EXP_REGEX);
            sb_append(r, op == OP_DEL ? "-" : op == OP_INS ? "+" : " ", 1);
            sb_append(r, from_b ? s.lb[sc.ib[q]] : s.la[sc.ia[q]], from_b ? s.nb[sc.ib[q]] : s.na[sc.ia[q]]);
            sb_append(r, "\n", 1);
        }
        explain_numbers(r, &s, &sc, st, stop);
        k = stop;
    }
    bool a_nl = e->len == 0 || e->text[e->len - 1] == '\n', b_nl = blen == 0 || b[blen - 1] == '\n';
    if (ok && a_nl != b_nl) sb_printf(r, "\\ (the two differ in their final newline)\n");
    free(sc.ops); free(sc.ia); free(sc.ib);
    sides_free(&s);
}
