/* golden_check.c — tl --test's judgement of one finished test: X.out/X.err files or inline #> / #! lines, diffs, --update */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "golden_int.h"

/* The suffix an inline expectation carries when its output line has no final newline (as cram writes it). */
#define NO_EOL " (no-eol)"
/* The suffix that keeps a line whose own text ends in NO_EOL or EOL_MARK a whole line (it is read
   off first, and NO_EOL itself does not end in it), so that whatever --update writes reads back. */
#define EOL_MARK " (eol)"
/* Longest statement text quoted in a diff. */
#define QUOTE_MAX 72
/* Most of a crashed test's stderr shown in its report. */
#define CRASH_TAIL 2000

/* Reads a whole file; NULL when absent. */
static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    StrBuf b = { 0 };
    char buf[65536];
    size_t got;
    bool ok = sb_append(&b, "", 0);
    while (ok && (got = fread(buf, 1, sizeof buf, f)) > 0) ok = sb_append(&b, buf, got);
    fclose(f);
    if (!ok) { sb_free(&b); return NULL; }
    *len = b.len;
    return b.data;
}

static bool write_whole(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static bool exists(const char *path) { struct stat st; return stat(path, &st) == 0; }

/* Swaps the .tl suffix for another. */
static char *sibling(const char *script, const char *suffix)
{
    size_t n = strlen(script);
    n = n >= 3 && strcmp(script + n - 3, ".tl") == 0 ? n - 3 : n;
    char *p = malloc(n + strlen(suffix) + 1);
    if (!p) return NULL;
    memcpy(p, script, n);
    strcpy(p + n, suffix);
    return p;
}

/* The line starting at *pos (its length without the newline); advances *pos past it. False at the end. */
static bool next_line(const char *s, size_t len, size_t *pos, const char **line, size_t *llen)
{
    if (*pos >= len) return false;
    const char *nl = memchr(s + *pos, '\n', len - *pos);
    *line = s + *pos;
    *llen = nl ? (size_t)(nl - *line) : len - *pos;
    *pos += *llen + (nl ? 1 : 0);
    return true;
}

/* A line's length without the '\r' of its line end in a CRLF file. */
static size_t content_len(const char *line, size_t llen, bool crlf)
{
    return crlf && llen && line[llen - 1] == '\r' ? llen - 1 : llen;
}

/* Whether s[0..n) ends in mark. */
static bool ends_with_mark(const char *s, size_t n, const char *mark)
{
    size_t m = strlen(mark);
    return n >= m && memcmp(s + n - m, mark, m) == 0;
}

/* 1 for `#> text` (stdout), 2 for `#! text` (stderr), 0 otherwise; *text is the text after "#> ". */
static int expectation_kind(const char *line, size_t len, size_t *text)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (len - i < 2 || line[i] != '#' || (line[i + 1] != '>' && line[i + 1] != '!')) return 0;
    if (len - i > 2 && line[i + 2] != ' ') return 0;   /* "#!/usr/bin/env tl" is a shebang, "#>>" a comment */
    *text = len - i > 2 ? i + 3 : len;
    return line[i + 1] == '>' ? 1 : 2;
}

/* Whether a test file's lines end in CRLF: its first line that is no expectation in either
   reading (with or without a final '\r') does. --update removes only expectations and writes
   only expectations, so the answer is the same before and after it. */
static bool crlf_lines(const char *src, size_t len)
{
    size_t pos = 0, llen, at;
    const char *line;
    while (next_line(src, len, &pos, &line, &llen))
        if (!expectation_kind(line, content_len(line, llen, true), &at))
            return line + llen < src + len && llen && line[llen - 1] == '\r';
    return false;
}

/* Whether a line holds code (not blank, not only a comment). */
static bool is_code(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
    return i < len && line[i] != '#';
}

/* Quotes source line `line` (trimmed, shortened) for a diff's label. */
static void quote_line(char *buf, size_t cap, const char *src, size_t len, int line)
{
    size_t pos = 0, llen = 0;
    const char *l = "";
    for (int k = 1; k <= line && next_line(src, len, &pos, &l, &llen); k++) {}
    while (llen && (*l == ' ' || *l == '\t')) l++, llen--;
    while (llen && (l[llen - 1] == ' ' || l[llen - 1] == '\r')) llen--;
    if (llen > QUOTE_MAX) snprintf(buf, cap, "%.*s...", QUOTE_MAX, l);
    else snprintf(buf, cap, "%.*s", (int)llen, l);
}

/* What a diff hunk's label needs: the test, its units and its source. */
typedef struct Where { const Test *t; const Units *u; const char *src; size_t len; bool is_err; char buf[4200]; } Where;

/* Names a unit: "x.tl:12: print(a)", or where output came from when no statement made it. */
static const char *unit_name(Where *w, int k)
{
    if (k == 0) {
        snprintf(w->buf, sizeof w->buf, "%s: %s", w->t->path,
                 w->u->planned ? "before the first statement" : "the program did not parse");
        return w->buf;
    }
    char q[QUOTE_MAX + 8];
    quote_line(q, sizeof q, w->src, w->len, w->u->line[k]);
    snprintf(w->buf, sizeof w->buf, "%s:%d: %s", w->t->path, w->u->line[k], q);
    return w->buf;
}

/* Hunk label for a whole-file diff: the statement that printed the first changed line. */
static const char *label_by_offset(void *ctx, size_t at)
{
    Where *w = ctx;
    return unit_name(w, units_at(w->u, w->is_err, at));
}

/* Compares the marker-free streams with X.out and X.err (absent: empty). */
static bool check_files(Test *t, const Units *u, const char *src, size_t len, const Tolerance *tol, const char *paths[2])
{
    bool ok = true;
    for (int s = 0; s < 2; s++) {
        size_t elen = 0;
        char *exp = read_whole(paths[s], &elen);
        const StrBuf *act = s ? &u->all_err : &u->all_out;
        if (!exp) elen = 0;
        if (tolerant_equal(exp ? exp : "", elen, act->data, act->len, tol)) { free(exp); continue; }
        if (ok) {
            sb_printf(&t->report, "FAIL %s\n", t->path);
            snprintf(t->message, sizeof t->message, "output differs from %.130s", paths[s]);
        }
        ok = false;
        Where w = { .t = t, .u = u, .src = src, .len = len, .is_err = s == 1 };
        char name_b[32];
        snprintf(name_b, sizeof name_b, "actual %s", s ? "stderr" : "stdout");
        diff_write(&t->report, paths[s], exp ? exp : "", elen, name_b, act->data, act->len, tol, label_by_offset, &w);
        free(exp);
    }
    return ok;
}

/* Collects the inline expectations of each unit; returns how many lines there were (-1: out of memory). */
static int read_inline(const Units *u, const char *src, size_t len, StrBuf *exp_out, StrBuf *exp_err)
{
    int count = 0, lineno = 0;
    size_t pos = 0, llen, at;
    const char *line;
    bool crlf = crlf_lines(src, len);
    while (next_line(src, len, &pos, &line, &llen)) {
        lineno++;
        llen = content_len(line, llen, crlf);
        int kind = expectation_kind(line, llen, &at);
        if (!kind) continue;
        count++;
        StrBuf *dst = &(kind == 1 ? exp_out : exp_err)[units_owner(u, lineno)];
        size_t tl = llen - at;
        bool eol_mark = ends_with_mark(line + at, tl, EOL_MARK), no_eol = !eol_mark && ends_with_mark(line + at, tl, NO_EOL);
        if (eol_mark) tl -= strlen(EOL_MARK);
        if (no_eol) tl -= strlen(NO_EOL);
        if (!sb_append(dst, line + at, tl) || (!no_eol && !sb_append(dst, "\n", 1))) return -1;
    }
    return count;
}

/* Compares each unit's output with its #> and #! lines; a failing unit's diff names its statement. */
static bool check_inline(Test *t, const Units *u, const char *src, size_t len, const Tolerance *tol, StrBuf *exp_out,
                         StrBuf *exp_err)
{
    bool ok = true;
    for (int k = 0; k < u->n; k++)
        for (int s = 0; s < 2; s++) {
            const StrBuf *exp = s ? &exp_err[k] : &exp_out[k], *act = s ? &u->err[k] : &u->out[k];
            if (tolerant_equal(exp->data ? exp->data : "", exp->len, act->data, act->len, tol)) continue;
            if (ok) {
                sb_printf(&t->report, "FAIL %s\n", t->path);
                Where w0 = { .t = t, .u = u, .src = src, .len = len };
                snprintf(t->message, sizeof t->message, "output of %.140s differs", unit_name(&w0, k));
            }
            ok = false;
            Where w = { .t = t, .u = u, .src = src, .len = len };
            char name_a[4300], name_b[4300];
            const char *name = unit_name(&w, k);
            snprintf(name_a, sizeof name_a, "%s  expected (%s)", name, s ? "#!" : "#>");
            snprintf(name_b, sizeof name_b, "%s  actual %s", name, s ? "stderr" : "stdout");
            diff_write(&t->report, name_a, exp->data ? exp->data : "", exp->len, name_b, act->data, act->len, tol, NULL,
                       NULL);
        }
    return ok;
}

/* Appends text as expectation lines with the given prefix ("#>" or "#!"), each ended by eol. */
static bool emit_expectations(StrBuf *b, const char *prefix, const StrBuf *text, const char *eol)
{
    size_t pos = 0, llen;
    const char *line;
    bool ok = true;
    while (ok && next_line(text->data, text->len, &pos, &line, &llen)) {
        bool last_open = pos == text->len && text->data[text->len - 1] != '\n';
        const char *mark = last_open ? NO_EOL
                         : ends_with_mark(line, llen, NO_EOL) || ends_with_mark(line, llen, EOL_MARK) ? EOL_MARK : "";
        ok = sb_append(b, prefix, 2) && (!llen && !*mark ? true : sb_append(b, " ", 1) && sb_append(b, line, llen)) &&
             sb_append(b, mark, strlen(mark)) && sb_append(b, eol, strlen(eol));
    }
    return ok;
}

/* Appends unit k's actual output as #> and #! lines. */
static bool emit_unit(StrBuf *b, const Units *u, int k, const char *eol)
{
    return emit_expectations(b, "#>", &u->out[k], eol) && emit_expectations(b, "#!", &u->err[k], eol);
}

/* Rewrites the source's #> and #! lines from the actual output, keeping every other byte. */
static bool rewrite_inline(const char *path, const Units *u, const char *src, size_t len)
{
    int *last_code = calloc((size_t)u->n, sizeof(int));   /* unit k's output goes after line last_code[k] */
    if (!last_code) return false;
    size_t pos = 0, llen, at;
    const char *line;
    bool crlf = crlf_lines(src, len);
    const char *eol = crlf ? "\r\n" : "\n";
    for (int lineno = 1; next_line(src, len, &pos, &line, &llen); lineno++) {
        int k = units_owner(u, lineno + 1);
        if (k > 0 && is_code(line, llen) && !expectation_kind(line, content_len(line, llen, crlf), &at)) last_code[k] = lineno;
    }
    StrBuf b = { 0 };
    bool ok = sb_append(&b, "", 0);
    pos = 0;
    for (int lineno = 1; ok && next_line(src, len, &pos, &line, &llen); lineno++) {
        if (u->n > 1 && lineno == u->line[1]) ok = emit_unit(&b, u, 0, eol);   /* output before the first statement */
        if (expectation_kind(line, content_len(line, llen, crlf), &at)) continue;
        ok = ok && sb_append(&b, line, llen + (line + llen < src + len ? 1 : 0));   /* with its newline */
        int k = units_owner(u, lineno + 1);
        if (ok && k > 0 && last_code[k] == lineno) {
            if (line + llen == src + len && !sb_append(&b, eol, strlen(eol))) ok = false;   /* the file had no final newline */
            ok = ok && emit_unit(&b, u, k, eol);
        }
    }
    if (ok && u->n == 1) {   /* nothing ran (no statement, or a syntax error): the output goes at the end */
        if (b.len && b.data[b.len - 1] != '\n') ok = sb_append(&b, eol, strlen(eol));
        ok = ok && emit_unit(&b, u, 0, eol);
    }
    ok = ok && write_whole(path, b.data, b.len);
    sb_free(&b);
    free(last_code);
    return ok;
}

/* Rewrites X.out (always) and X.err (only when there is stderr output). */
static bool rewrite_files(const Units *u, const char *paths[2])
{
    bool ok = write_whole(paths[0], u->all_out.data, u->all_out.len);
    if (u->all_err.len) ok = ok && write_whole(paths[1], u->all_err.data, u->all_err.len);
    else unlink(paths[1]);
    return ok;
}

/* Sets an error verdict with its one-line message. */
static void set_error(Test *t, const char *fmt, const char *detail)
{
    t->verdict = VERDICT_ERROR;
    snprintf(t->message, sizeof t->message, fmt, detail);
    sb_printf(&t->report, "FAIL %s: %s\n", t->path, t->message);
}

/* Judges a test whose child ran to the end. */
static void check_output(Test *t, bool update, const char *src, size_t len)
{
    char msg[160];
    Tolerance tol;
    if (!tolerance_parse(src, len, &tol, msg, sizeof msg)) return set_error(t, "%s", msg);
    Units u;
    char *out_path = sibling(t->path, ".out"), *err_path = sibling(t->path, ".err");
    StrBuf *exp = NULL;
    if (!out_path || !err_path || !units_split(&u, t->raw_out.data, t->raw_out.len, t->raw_err.data, t->raw_err.len) ||
        !(exp = calloc(2 * (size_t)u.n, sizeof(StrBuf)))) {
        if (out_path && err_path) units_free(&u);
        free(out_path);
        free(err_path);
        return set_error(t, "%s", "out of memory");
    }
    const char *paths[2] = { out_path, err_path };
    bool file_form = exists(out_path) || exists(err_path);
    int ninline = read_inline(&u, src, len, exp, exp + u.n);
    bool ok;
    if (ninline < 0) {
        set_error(t, "%s", "out of memory");
    } else if (file_form && ninline > 0) {
        set_error(t, "%s", "has both inline #> / #! lines and a .out/.err file: keep one form");
    } else {
        ok = file_form ? check_files(t, &u, src, len, &tol, paths) : check_inline(t, &u, src, len, &tol, exp, exp + u.n);
        t->verdict = ok ? VERDICT_PASS : VERDICT_FAIL;
        if (!ok && update) {
            t->report.len = 0;
            if (file_form ? rewrite_files(&u, paths) : rewrite_inline(t->path, &u, src, len)) {
                t->verdict = VERDICT_PASS;
                t->updated = true;
                t->run_again = !file_form;
            } else {
                set_error(t, "%s", "cannot rewrite its expectations");
            }
        }
    }
    for (int k = 0; k < 2 * u.n; k++) sb_free(&exp[k]);
    free(exp);
    units_free(&u);
    free(out_path);
    free(err_path);
}

/* Judges a test (golden_check without the bookkeeping of --update's rounds). */
static void golden_judge(Test *t, bool update)
{
    char detail[64];
    if (t->status < 0) return set_error(t, "%s", "could not start tl");
    if (t->timed_out) {
        snprintf(detail, sizeof detail, "%.3g s", t->seconds);
        return set_error(t, "timed out after %s (killed)", detail);
    }
    if (WIFSIGNALED(t->status)) {
        snprintf(detail, sizeof detail, "%d", WTERMSIG(t->status));
        set_error(t, "crashed (signal %s)", detail);
        size_t n = t->raw_err.len, from = n > CRASH_TAIL ? n - CRASH_TAIL : 0;
        if (n) sb_printf(&t->report, "stderr:\n%.*s\n", (int)(n - from), t->raw_err.data + from);
        return;
    }
    size_t len = 0;
    char *src = read_whole(t->path, &len);
    if (!src) return set_error(t, "%s", "cannot read the test");
    check_output(t, update, src, len);
    free(src);
}

void golden_check(Test *t, bool update)
{
    t->report.len = 0;
    t->run_again = false;
    golden_judge(t, update);
    if (t->updated && t->verdict == VERDICT_PASS) sb_printf(&t->report, "updated %s\n", t->path);
}
