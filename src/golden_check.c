/* golden_check.c — tl --test's judgement of one test: directives, X.out/X.err or inline #> / #! / #~ lines, diffs, --update */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "golden.h"
#include "golden_int.h"

/* The suffix an inline expectation carries when its output line has no final newline (as cram writes it). */
#define NO_EOL " (no-eol)"
/* The suffix that keeps a line whose own text ends in NO_EOL or EOL_MARK a whole line (it is read
   off first, and NO_EOL itself does not end in it), so that whatever --update writes reads back. */
#define EOL_MARK " (eol)"
/* The text of a `#> ...` line that matches any number of lines. */
#define ANY_LINES "..."
/* Longest statement text quoted in a diff. */
#define QUOTE_MAX 72
/* Most of a crashed test's stderr shown in its report. */
#define CRASH_TAIL 2000

/* Reads a whole file; NULL when absent. */
/* The largest test or expectation file read: each is held in memory whole. */
#define READ_MAX_BYTES ((off_t)1 << 30)

/* Why the latest read_whole gave NULL: "" when the file does not exist (an absent X.out is an
   empty expectation), else what is wrong with it. */
static _Thread_local char read_failure[96];

/* The whole regular file at path (NUL-terminated, *len bytes), or NULL (read_failure says
   why): a FIFO would block the run, /dev/zero never end, and a 20 GB file fill the memory. */
static char *read_whole(const char *path, size_t *len)
{
    struct stat st;
    read_failure[0] = '\0';
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) snprintf(read_failure, sizeof read_failure, "%s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(read_failure, sizeof read_failure, "%s", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        return NULL;
    }
    if (st.st_size > READ_MAX_BYTES) {
        snprintf(read_failure, sizeof read_failure, "larger than %lld bytes", (long long)READ_MAX_BYTES);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(read_failure, sizeof read_failure, "%s", strerror(errno));
        return NULL;
    }
    StrBuf b = { 0 };
    char buf[65536];
    size_t got;
    bool ok = sb_append(&b, "", 0);
    while (ok && (got = fread(buf, 1, sizeof buf, f)) > 0) ok = sb_append(&b, buf, got) && b.len <= (size_t)READ_MAX_BYTES;
    ok = ok && !ferror(f);
    fclose(f);
    if (!ok) {
        snprintf(read_failure, sizeof read_failure, "%s", b.len > (size_t)READ_MAX_BYTES ? "it grew while read" : "cannot read it");
        sb_free(&b);
        return NULL;
    }
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

/* Whether something is at path: a link that leads nowhere too (reading it then says why). */
static bool exists(const char *path) { struct stat st; return lstat(path, &st) == 0; }

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

/* The kinds of expectation line: `#> text` (stdout), `#! text` (stderr), `#~ regex` (a stdout line). */
enum { NOT_EXPECTATION, EXPECT_OUT, EXPECT_ERR, EXPECT_REGEX };

/* The kind of an expectation line (NOT_EXPECTATION for any other); *text is where its text starts. */
static int expectation_kind(const char *line, size_t len, size_t *text)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (len - i < 2 || line[i] != '#' || !strchr(">!~", line[i + 1]) || !line[i + 1]) return NOT_EXPECTATION;
    if (len - i > 2 && line[i + 2] != ' ') return NOT_EXPECTATION;   /* "#!/usr/bin/env tl" is a shebang, "#>>" a comment */
    *text = len - i > 2 ? i + 3 : len;
    return line[i + 1] == '>' ? EXPECT_OUT : line[i + 1] == '!' ? EXPECT_ERR : EXPECT_REGEX;
}

/* Whether a test file's lines end in CRLF: its first line that is no expectation in either
   reading (with or without a final '\r') does, whether or not a newline follows it. --update
   removes only expectations and writes only expectations, so the answer is the same before and
   after it (a last line "x\r" gains a newline after it when expectations are appended: asking
   for the newline made such a file CRLF only after --update, which then read a '\r' that ended
   an expected line as the line end). */
static bool crlf_lines(const char *src, size_t len)
{
    size_t pos = 0, llen, at;
    const char *line;
    while (next_line(src, len, &pos, &line, &llen))
        if (!expectation_kind(line, content_len(line, llen, true), &at)) return llen && line[llen - 1] == '\r';
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

/* Compares the marker-free streams with X.out and X.err (absent: empty): 1 they hold, 0 not,
   -1 one cannot be read (err says why: a file that is there but unreadable is no empty one). */
static int check_files(Test *t, const Units *u, const char *src, size_t len, const Tolerance *tol, const char *paths[2],
                       char *err, size_t errlen)
{
    bool ok = true;
    for (int s = 0; s < 2; s++) {
        size_t elen = 0;
        char *exp = read_whole(paths[s], &elen);
        if (!exp && read_failure[0]) {
            snprintf(err, errlen, "cannot read the expected output %.200s: %s", paths[s], read_failure);
            return -1;
        }
        const StrBuf *act = s ? &u->all_err : &u->all_out;
        if (!exp) elen = 0;
        Expected e = { exp ? exp : "", elen, NULL, s ? NULL : u->all_out_dt.data, tol };
        if (tolerant_equal(e.text, e.len, act->data, act->len, e.dtypes, tol)) { free(exp); continue; }
        if (ok) {
            sb_printf(&t->report, "FAIL %s\n", t->path);
            snprintf(t->message, sizeof t->message, "output differs from %.130s", paths[s]);
        }
        ok = false;
        Where w = { .t = t, .u = u, .src = src, .len = len, .is_err = s == 1 };
        char name_b[32];
        snprintf(name_b, sizeof name_b, "actual %s", s ? "stderr" : "stdout");
        diff_write(&t->report, paths[s], &e, name_b, act->data, act->len, label_by_offset, &w);
        free(exp);
    }
    return ok;
}

/* Each unit's inline expectations: per stream (0 stdout, 1 stderr) the expected text, each line's
   kind (ExpKind), and the lines themselves as the file spells them (kept by --update when they hold). */
typedef struct Inline { StrBuf text[2], kinds[2]; bool patterns[2]; StrBuf lines; } Inline;

/* Adds one expectation line's text to its unit's expectations: a regex as it is; a `#>`/`#!`
   line without its (eol)/(no-eol) suffix, and a bare "..." (no suffix) as any lines. */
static bool add_expectation(Inline *x, int kind, const char *text, size_t tl)
{
    int s = kind == EXPECT_ERR;
    char k = kind == EXPECT_REGEX ? EXP_REGEX : EXP_TEXT;
    bool newline = true;
    if (kind != EXPECT_REGEX) {
        bool eol_mark = ends_with_mark(text, tl, EOL_MARK), no_eol = !eol_mark && ends_with_mark(text, tl, NO_EOL);
        if (eol_mark) tl -= strlen(EOL_MARK);
        if (no_eol) tl -= strlen(NO_EOL);
        newline = !no_eol;
        if (!eol_mark && !no_eol && tl == strlen(ANY_LINES) && memcmp(text, ANY_LINES, tl) == 0) k = EXP_ANY;
    }
    x->patterns[s] |= k != EXP_TEXT;
    return sb_append(&x->text[s], text, tl) && (!newline || sb_append(&x->text[s], "\n", 1)) &&
           sb_append(&x->kinds[s], &k, 1);
}

/* Checks the `#~` pattern on line lineno (golden_regex_read) and adds its copies to the test's. */
static bool pattern_allowed(const char *text, size_t n, int lineno, double *copies, char *err, size_t errlen)
{
    char why[200];
    double mine;
    bool ok = golden_regex_read(text, n, NULL, &mine, why, sizeof why);
    if (ok && (*copies += mine) > REGEX_MAX_COPIES_TEST) {
        ok = false;
        snprintf(why, sizeof why, "the counted repetitions of its patterns make %.0f copies up to here (at most %d a test)",
                 *copies, REGEX_MAX_COPIES_TEST);
    }
    if (!ok) snprintf(err, errlen, "line %d: bad regular expression '#~ %.*s': %s", lineno, n > 60 ? 60 : (int)n, text, why);
    return ok;
}

/* Collects the inline expectations of each unit; returns how many lines there were (-1: out of
   memory or a refused pattern, with the message in err). */
static int read_inline(const Units *u, const char *src, size_t len, Inline *units, char *err, size_t errlen)
{
    int count = 0, lineno = 0;
    double copies = 0;
    size_t pos = 0, llen, at;
    const char *line;
    bool crlf = crlf_lines(src, len);
    while (next_line(src, len, &pos, &line, &llen)) {
        lineno++;
        llen = content_len(line, llen, crlf);
        size_t whole = pos - (size_t)(line - src);   /* the line with its line end */
        int kind = expectation_kind(line, llen, &at);
        if (!kind) continue;
        count++;
        if (kind == EXPECT_REGEX && !pattern_allowed(line + at, llen - at, lineno, &copies, err, errlen)) return -1;
        Inline *x = &units[units_owner(u, lineno)];
        if (!add_expectation(x, kind, line + at, llen - at) || !sb_append(&x->lines, line, whole)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return count;
}

/* Compares each unit's output with its expectation lines (holds[k]: unit k's hold); a failing
   unit's diff names its statement. -1 (with the message in err) when a regex is bad. */
static int check_inline(Test *t, const Units *u, const char *src, size_t len, const Tolerance *tol, const Inline *units,
                        bool *holds, char *err, size_t errlen)
{
    int ok = 1;
    for (int k = 0; k < u->n; k++) {
        holds[k] = true;
        for (int s = 0; s < 2; s++) {
            const Inline *x = &units[k];
            const StrBuf *act = s ? &u->err[k] : &u->out[k];
            Expected e = { x->text[s].data ? x->text[s].data : "", x->text[s].len, x->patterns[s] ? x->kinds[s].data : NULL,
                           s ? NULL : u->out_dt[k].data, tol };
            int r = expected_match(&e, act->data, act->len, err, errlen);
            if (r < 0) return -1;
            if (r) continue;
            holds[k] = false;
            if (ok) {
                sb_printf(&t->report, "FAIL %s\n", t->path);
                Where w0 = { .t = t, .u = u, .src = src, .len = len };
                snprintf(t->message, sizeof t->message, "output of %.140s differs", unit_name(&w0, k));
            }
            ok = 0;
            Where w = { .t = t, .u = u, .src = src, .len = len };
            char name_a[4300], name_b[4300];
            const char *name = unit_name(&w, k);
            snprintf(name_a, sizeof name_a, "%s  expected (%s)", name, s ? "#!" : x->patterns[s] ? "#> #~" : "#>");
            snprintf(name_b, sizeof name_b, "%s  actual %s", name, s ? "stderr" : "stdout");
            diff_write(&t->report, name_a, &e, name_b, act->data, act->len, NULL, NULL);
        }
    }
    return ok;
}

bool golden_emit_expectations(StrBuf *b, const char *prefix, const char *text, size_t len, const char *eol)
{
    size_t pos = 0, llen;
    const char *line;
    bool ok = true;
    while (ok && next_line(text, len, &pos, &line, &llen)) {
        bool last_open = pos == len && text[len - 1] != '\n';
        bool any_lines = llen == strlen(ANY_LINES) && memcmp(line, ANY_LINES, llen) == 0;   /* not the pattern */
        const char *mark = last_open ? NO_EOL
                         : ends_with_mark(line, llen, NO_EOL) || ends_with_mark(line, llen, EOL_MARK) || any_lines ? EOL_MARK
                                                                                                                   : "";
        ok = sb_append(b, prefix, 2) && (!llen && !*mark ? true : sb_append(b, " ", 1) && sb_append(b, line, llen)) &&
             sb_append(b, mark, strlen(mark)) && sb_append(b, eol, strlen(eol));
    }
    return ok;
}

/* Appends unit k's expectation lines: as they were when they hold, else its actual output as #> and #! lines. */
static bool emit_unit(StrBuf *b, const Units *u, const Inline *units, const bool *holds, int k, const char *eol)
{
    const StrBuf *kept = &units[k].lines;
    if (holds[k]) {
        bool open = kept->len && kept->data[kept->len - 1] != '\n';   /* it was the file's last line */
        return sb_append(b, kept->data ? kept->data : "", kept->len) && (!open || sb_append(b, eol, strlen(eol)));
    }
    return golden_emit_expectations(b, "#>", u->out[k].data, u->out[k].len, eol) &&
           golden_emit_expectations(b, "#!", u->err[k].data, u->err[k].len, eol);
}

/* Rewrites the source's expectation lines: a statement whose lines hold keeps them (patterns
   too), the others get their actual output; every other byte stays. */
static bool rewrite_inline(const char *path, const Units *u, const Inline *units, const bool *holds, const char *src,
                           size_t len)
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
        if (u->n > 1 && lineno == u->line[1]) ok = emit_unit(&b, u, units, holds, 0, eol);   /* output before the first statement */
        if (expectation_kind(line, content_len(line, llen, crlf), &at)) continue;
        ok = ok && sb_append(&b, line, llen + (line + llen < src + len ? 1 : 0));   /* with its newline */
        int k = units_owner(u, lineno + 1);
        if (ok && k > 0 && last_code[k] == lineno) {
            if (line + llen == src + len && !sb_append(&b, eol, strlen(eol))) ok = false;   /* the file had no final newline */
            ok = ok && emit_unit(&b, u, units, holds, k, eol);
        }
    }
    if (ok && u->n == 1) {   /* nothing ran (no statement, or a syntax error): the output goes at the end */
        if (b.len && b.data[b.len - 1] != '\n') ok = sb_append(&b, eol, strlen(eol));
        ok = ok && emit_unit(&b, u, units, holds, 0, eol);
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
    sb_printf(&t->report, "FAIL %s: ", t->path);
    size_t at = t->report.len;
    bool ok = sb_printf(&t->report, fmt, detail);
    const char *text = ok ? t->report.data + at : "out of memory";   /* the report has it whole; JUnit's one line, its start */
    size_t n = ok ? t->report.len - at : strlen(text);
    snprintf(t->message, sizeof t->message, "%.*s", (int)(n < sizeof t->message ? n : sizeof t->message - 1), text);
    sb_append(&t->report, "\n", 1);
}

/* An xfail test's verdict: a failure of its output is what it expects; a pass is a failure. */
static void apply_xfail(Test *t, const Directives *d)
{
    if (t->verdict == VERDICT_FAIL) {
        t->verdict = VERDICT_XFAIL;
        t->report.len = 0;
        snprintf(t->message, sizeof t->message, "%s", d->reason[0] ? d->reason : "expected to fail");
        sb_printf(&t->report, "XFAIL %s: %s\n", t->path, t->message);
    } else if (t->verdict == VERDICT_PASS) {
        t->verdict = VERDICT_FAIL;
        snprintf(t->message, sizeof t->message, "unexpectedly passed (xfail: %.120s)",
                 d->reason[0] ? d->reason : "no reason given");
        sb_printf(&t->report, "FAIL %s: %s\n", t->path, t->message);
    }
}

/* Compares the output in its form and, under update, rewrites what fails (not an xfail test's). */
static void compare_output(Test *t, bool update, const Directives *d, const Units *u, const char *src, size_t len,
                           const char *paths[2], Inline *units)
{
    bool file_form = exists(paths[0]) || exists(paths[1]);
    char err[360];
    int ninline = read_inline(u, src, len, units, err, sizeof err);
    bool *holds = calloc((size_t)u->n, sizeof(bool));
    int ok;
    if (ninline < 0 || !holds) {
        set_error(t, "%s", ninline < 0 ? err : "out of memory");
    } else if (file_form && ninline > 0) {
        set_error(t, "%s", "has both inline #> / #! / #~ lines and a .out/.err file: keep one form");
    } else if ((ok = file_form ? check_files(t, u, src, len, &d->tol, paths, err, sizeof err)
                               : check_inline(t, u, src, len, &d->tol, units, holds, err, sizeof err)) < 0) {
        t->report.len = 0;
        set_error(t, "%s", err);
    } else {
        t->verdict = ok ? VERDICT_PASS : VERDICT_FAIL;
        t->differs = !ok && !d->xfail;
        if (!ok && update && !d->xfail) {
            t->report.len = 0;
            if (file_form ? rewrite_files(u, paths) : rewrite_inline(t->path, u, units, holds, src, len)) {
                t->verdict = VERDICT_PASS;
                t->updated = true;
                t->run_again = !file_form;
            } else {
                set_error(t, "%s", "cannot rewrite its expectations");
            }
        }
        if (update && u->wrote) t->updated = true;   /* expect_close wrote its files */
        if (d->xfail) apply_xfail(t, d);
    }
    free(holds);
}

/* Judges a test whose child ran to the end. */
static void check_output(Test *t, bool update, const char *src, size_t len)
{
    char msg[160];
    Directives d;
    if (!directives_parse(src, len, &d, msg, sizeof msg)) return set_error(t, "%s", msg);
    Units u;
    char *out_path = sibling(t->path, ".out"), *err_path = sibling(t->path, ".err");
    Inline *units = NULL;
    if (!out_path || !err_path || !units_split(&u, t->raw_out.data, t->raw_out.len, t->raw_err.data, t->raw_err.len) ||
        !(units = calloc((size_t)u.n, sizeof(Inline)))) {
        if (out_path && err_path) units_free(&u);
        free(out_path);
        free(err_path);
        return set_error(t, "%s", "out of memory");
    }
    const char *paths[2] = { out_path, err_path };
    compare_output(t, update, &d, &u, src, len, paths, units);
    for (int k = 0; k < u.n; k++) {
        for (int s = 0; s < 2; s++) {
            sb_free(&units[k].text[s]);
            sb_free(&units[k].kinds[s]);
        }
        sb_free(&units[k].lines);
    }
    free(units);
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
    if (!src) return set_error(t, "cannot read the test: %s", read_failure[0] ? read_failure : "it is gone");
    check_output(t, update, src, len);
    free(src);
}

void golden_prepare(Test *t)
{
    t->pending = !t->orphan;
    size_t len = 0;
    char *src = t->orphan ? NULL : read_whole(t->path, &len);
    Directives d;
    char msg[160];
    if (src && directives_parse(src, len, &d, msg, sizeof msg) && d.skip) {   /* (a bad one: judged after the run) */
        t->pending = false;
        t->verdict = VERDICT_SKIP;
        snprintf(t->message, sizeof t->message, "%s", d.reason[0] ? d.reason : "skipped");
        sb_printf(&t->report, "SKIP %s: %s\n", t->path, t->message);
    }
    free(src);
}

void golden_check(Test *t, bool update)
{
    t->report.len = 0;
    t->run_again = t->differs = false;
    golden_judge(t, update);
    if (t->updated && t->verdict == VERDICT_PASS) sb_printf(&t->report, "updated %s\n", t->path);
}
