/* golden_diff.c — unified diffs for tl --test, lines compared under the test's tolerance */
#include <limits.h>
#include <stdint.h>
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

/* The edit script: ops[k] is 0 (same), 1 (delete line ia[k] of a) or 2 (insert line ib[k] of b). */
typedef struct Script { int *ops, *ia, *ib, n; } Script;

/* Fills the script from an LCS table, or as one delete-all/insert-all hunk when the table is too big. */
static void edit_script(Script *s, const char **la, const size_t *na, int n, const char **lb, const size_t *nb, int m,
                        const Tolerance *tol)
{
    int *L = (int64_t)(n + 1) * (m + 1) <= DIFF_MAX_CELLS ? calloc((size_t)(n + 1) * (size_t)(m + 1), sizeof(int)) : NULL;
#define SAME(i, j) tolerant_equal(la[i], na[i], lb[j], nb[j], tol)
#define CELL(i, j) L[(i) * (m + 1) + (j)]
    if (L) {
        for (int i = n - 1; i >= 0; i--)
            for (int j = m - 1; j >= 0; j--)
                CELL(i, j) = SAME(i, j) ? CELL(i + 1, j + 1) + 1
                                        : (CELL(i + 1, j) >= CELL(i, j + 1) ? CELL(i + 1, j) : CELL(i, j + 1));
        int i = 0, j = 0;
        while (i < n || j < m) {
            int op = i < n && j < m && SAME(i, j) ? 0 : i < n && (j == m || CELL(i + 1, j) >= CELL(i, j + 1)) ? 1 : 2;
            s->ops[s->n] = op;
            s->ia[s->n] = i;
            s->ib[s->n++] = j;
            if (op != 2) i++;
            if (op != 1) j++;
        }
    } else {
        for (int i = 0; i < n; i++) { s->ops[s->n] = 1; s->ia[s->n] = i; s->ib[s->n++] = 0; }
        for (int j = 0; j < m; j++) { s->ops[s->n] = 2; s->ia[s->n] = n; s->ib[s->n++] = j; }
    }
#undef SAME
#undef CELL
    free(L);
}

void diff_write(StrBuf *r, const char *name_a, const char *a, size_t alen, const char *name_b, const char *b,
                size_t blen, const Tolerance *tol, HunkLabel label, void *label_ctx)
{
    const char **la = NULL, **lb = NULL;
    size_t *na = NULL, *nb = NULL;
    int n = split_lines(a, alen, &la, &na), m = split_lines(b, blen, &lb, &nb);
    sb_printf(r, "--- %s\n+++ %s\n", name_a, name_b);
    size_t nmax = n >= 0 && m >= 0 ? (size_t)n + (size_t)m + 1 : 0;
    Script s = { malloc(sizeof(int) * nmax), malloc(sizeof(int) * nmax), malloc(sizeof(int) * nmax), 0 };
    if (!nmax || !s.ops || !s.ia || !s.ib) sb_printf(r, "(out of memory: no diff)\n");
    else edit_script(&s, la, na, n, lb, nb, m, tol);
    for (int k = 0; k < s.n;) {
        if (s.ops[k] == 0) { k++; continue; }
        int first_change = k;
        int st = k - DIFF_CONTEXT < 0 ? 0 : k - DIFF_CONTEXT;
        while (st < k && s.ops[st] != 0) st++;
        int e = k;
        for (;;) {   /* extend the hunk while changes are within 2*context of each other */
            while (e < s.n && s.ops[e] != 0) e++;
            int gap = e;
            while (gap < s.n && s.ops[gap] == 0 && gap - e < 2 * DIFF_CONTEXT) gap++;
            if (gap < s.n && s.ops[gap] != 0) e = gap;
            else break;
        }
        int stop = e + DIFF_CONTEXT < s.n ? e + DIFF_CONTEXT : s.n;
        int acount = 0, bcount = 0;
        for (int q = st; q < stop; q++) { if (s.ops[q] != 2) acount++; if (s.ops[q] != 1) bcount++; }
        sb_printf(r, "@@ -%d,%d +%d,%d @@", s.ia[st] + (acount ? 1 : 0), acount, s.ib[st] + (bcount ? 1 : 0), bcount);
        int jb = s.ib[first_change];
        const char *where = label ? label(label_ctx, jb < m ? (size_t)(lb[jb] - b) : blen) : NULL;
        if (where) sb_printf(r, " %s", where);
        sb_append(r, "\n", 1);
        for (int q = st; q < stop; q++) {
            const char *line = s.ops[q] == 2 ? lb[s.ib[q]] : la[s.ia[q]];
            size_t len = s.ops[q] == 2 ? nb[s.ib[q]] : na[s.ia[q]];
            sb_append(r, s.ops[q] == 0 ? " " : s.ops[q] == 1 ? "-" : "+", 1);
            sb_append(r, line, len);
            sb_append(r, "\n", 1);
        }
        k = stop;
    }
    bool a_nl = alen == 0 || a[alen - 1] == '\n', b_nl = blen == 0 || b[blen - 1] == '\n';
    if (a_nl != b_nl) sb_printf(r, "\\ (the two differ in their final newline)\n");
    free(s.ops); free(s.ia); free(s.ib);
    free(la); free(lb); free(na); free(nb);
}
