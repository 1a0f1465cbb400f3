/* jupyter_html.c — a tensor as HTML for a notebook: a table of the values as the printer writes them, shape and dtype as its caption */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "jupyter_int.h"

/* A tensor with more shown rows or columns than this is shown as the printed text, not as a table. */
#define TABLE_MAX_SIDE 100

/* Appends text with HTML's special characters escaped. */
static bool put_escaped(StrBuf *b, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *esc = s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" : s[i] == '&' ? "&amp;" : NULL;
        if (!esc) {
            run++;
            continue;
        }
        if (!sb_append(b, s + i - run, run) || !sb_append(b, esc, strlen(esc))) return false;
        run = 0;
    }
    return sb_append(b, s + n - run, run);
}

/* The shown indices along an axis of n: all, or (summarized as the printer does) the first and
   last `edge` with -1 for the "..." between. Returns how many (at most 2 * edge + 1). */
static int64_t shown_indices(int64_t n, bool summarize, int64_t edge, int64_t *out, int64_t cap)
{
    bool summary = summarize && 2 * edge < n;
    int64_t count = 0;
    int64_t lead = summary ? edge : n, tail_from = summary ? n - (edge > 0 ? edge : 1) : n;
    for (int64_t i = 0; i < lead && count < cap; i++) out[count++] = i;
    if (summary && count < cap) out[count++] = -1;
    for (int64_t i = tail_from; summary && i < n && count < cap; i++) out[count++] = i;
    return count;
}

/* The values of a 1-d or 2-d tensor's printed text (written without line wraps), row by row:
   the words between brackets (a complex value's parts, which padding may separate, joined),
   copied NUL-terminated into store (as large as text) and pointed to by words, each with its
   row in row_of (the "..." standing for rows left out is a row of its own). Returns the number
   of words, -1 when there are more than cap. */
static int64_t split_values(const char *text, bool complex, int ndim, char *store, char **words, int64_t *row_of, int64_t cap)
{
    int64_t n = 0, row = -1;
    int depth = 0;
    for (const char *p = text; *p;) {
        if (*p == '[' || *p == ']') {
            depth += *p == '[' ? 1 : -1;
            row += *p == '[' && depth == ndim;
            p++;
            continue;
        }
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        if (n == cap) return -1;
        row += depth < ndim;
        words[n] = store;
        row_of[n++] = row;
        for (;;) {
            while (*p && *p != ' ' && *p != ']' && *p != '\n') *store++ = *p++;
            bool part = complex && store[-1] != 'j' && !(store - words[n - 1] == 3 && memcmp(words[n - 1], "...", 3) == 0);
            if (!part || *p != ' ') break;
            while (*p == ' ') p++;   /* "1. +0.j" is one value */
        }
        *store++ = 0;
    }
    return n;
}

/* A header cell: an index, or the ellipsis of the values left out. */
static bool put_index(StrBuf *b, int64_t i, const char *ellipsis)
{
    return i < 0 ? sb_printf(b, "<th>%s</th>", ellipsis) : sb_printf(b, "<th>%lld</th>", (long long)i);
}

/* The table of a 1-d or 2-d tensor's printed values; false (nothing appended) when they do not
   lay out as expected. */
static bool put_table(StrBuf *b, const tl_tensor *t, const tl_printopts *o, const char *text)
{
    int64_t rows_n = t->ndim == 2 ? t->shape[0] : 1, cols_n = t->shape[t->ndim - 1];
    bool summarize = tl_tensor_size(t) > o->threshold;
    int64_t rows[TABLE_MAX_SIDE + 1], cols[TABLE_MAX_SIDE + 1];
    int64_t nr = t->ndim == 2 ? shown_indices(rows_n, summarize, o->edgeitems, rows, TABLE_MAX_SIDE + 1) : (rows[0] = 0, 1);
    int64_t nc = shown_indices(cols_n, summarize, o->edgeitems, cols, TABLE_MAX_SIDE + 1);
    if (nr > TABLE_MAX_SIDE || nc > TABLE_MAX_SIDE) return false;
    bool gap_row = false;   /* the row of "..." standing for the rows left out */
    for (int64_t r = 0; r < nr; r++) gap_row |= rows[r] < 0;
    int64_t want = (nr - gap_row) * nc + gap_row;
    char **words = malloc((size_t)want * sizeof *words), *store = malloc(strlen(text) + 1);
    int64_t *row_of = malloc((size_t)want * sizeof *row_of);
    int64_t n = words && row_of && store ? split_values(text, tl_is_complex(t->dtype), t->ndim, store, words, row_of, want) : -1;
    bool ok = n == want;
    size_t mark = b->len;
    ok = ok && jj_lit(b, "<thead><tr><th></th>");
    for (int64_t j = 0; ok && j < nc; j++) ok = put_index(b, cols[j], "&hellip;");
    ok = ok && jj_lit(b, "</tr></thead><tbody>");
    for (int64_t r = 0, k = 0; ok && r < nr; r++) {
        ok = jj_lit(b, "<tr>") && (t->ndim == 2 ? put_index(b, rows[r], "&vellip;") : jj_lit(b, "<th></th>"));
        if (rows[r] < 0) {
            ok = ok && row_of[k] == r && strcmp(words[k++], "...") == 0;
            for (int64_t j = 0; ok && j < nc; j++) ok = jj_lit(b, "<td>&vellip;</td>");
        }
        for (int64_t j = 0; ok && rows[r] >= 0 && j < nc; j++, k++) {
            bool gap = strcmp(words[k], "...") == 0;
            ok = row_of[k] == r && jj_lit(b, "<td>") &&
                 (gap ? jj_lit(b, "&hellip;") : put_escaped(b, words[k], strlen(words[k]))) && jj_lit(b, "</td>");
        }
        ok = ok && jj_lit(b, "</tr>");
    }
    ok = ok && jj_lit(b, "</tbody>");
    if (!ok) b->len = mark;
    free(words);
    free(store);
    free(row_of);
    return ok;
}

bool jhtml_tensor(StrBuf *b, const tl_tensor *t)
{
    char shape[256];
    tl_shape_str(t->ndim, t->shape, shape, sizeof shape);
    /* the caption on one line: a narrow table would otherwise wrap it under its first columns */
    if (!jj_lit(b, "<table class=\"tl-tensor\"><caption style=\"white-space: nowrap\">shape ") || !sb_append(b, shape, strlen(shape)) ||
        !sb_printf(b, ", dtype %s</caption>", tl_dtype_name(t->dtype)))
        return false;
    tl_printopts o = tl_print_options;
    bool tabled = false;
    if ((t->ndim == 1 || t->ndim == 2) && tl_tensor_size(t) > 0) {
        o.linewidth = INT_MAX / 2;   /* one line per row: the table lays the values out */
        char *text = tl_fmt_tensor_string(t, &o);
        if (!text) return false;
        tabled = put_table(b, t, &tl_print_options, text);
        free(text);
    }
    if (!tabled) {
        char *text = tl_fmt_tensor_string(t, &tl_print_options);
        bool ok = text && jj_lit(b, "<tbody><tr><td><pre>") && put_escaped(b, text, strlen(text)) &&
                  jj_lit(b, "</pre></td></tr></tbody>");
        free(text);
        if (!ok) return false;
    }
    return jj_lit(b, "</table>");
}
