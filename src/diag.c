/* diag.c — errors with source positions: "FILE:LINE:COL: error[KIND]: MESSAGE", the line, a caret */
#include <stdarg.h>
#include <string.h>

#include "diag.h"
#include "utf8.h"

/* Widest part of a source line shown; longer lines are cut around the caret. */
#define LINE_WINDOW 120

void diag_vset(Diag *d, Span at, tl_errkind kind, const char *fmt, va_list ap)
{
    d->at = at;
    d->kind = kind;
    d->ntrace = 0;
    d->trace_omitted = 0;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

void diag_set(Diag *d, Span at, tl_errkind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(d, at, kind, fmt, ap);
    va_end(ap);
}

/* Finds the start and length of 1-based line `line` in src. */
static bool find_line(const Source *src, int line, const char **start, size_t *len)
{
    if (!src || !src->text || line < 1) return false;
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return false;
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *start = p;
    *len = (size_t)((nl ? nl : end) - p);
    if (*len && p[*len - 1] == '\r') (*len)--;
    return true;
}

/* Prints the source line (windowed when long; control bytes and invalid UTF-8 shown as '?')
   and a caret under byte column col, counting one column per character. */
static void print_caret(FILE *out, const Span *at)
{
    const char *line;
    size_t len;
    if (!find_line(at->src, at->line, &line, &len)) return;
    size_t col = at->col > 0 ? (size_t)at->col - 1 : 0;
    if (col > len) col = len;
    size_t from = 0, to = len;
    if (len > LINE_WINDOW) {
        from = col > LINE_WINDOW / 2 ? col - LINE_WINDOW / 2 : 0;
        to = from + LINE_WINDOW < len ? from + LINE_WINDOW : len;
    }
    const unsigned char *u = (const unsigned char *)line;
    while (from > 0 && (u[from] & 0xC0) == 0x80) from--;   /* start on a character boundary */
    fputs("  ", out);
    if (from > 0) fputs("...", out);
    for (size_t i = from; i < to;) {
        size_t n = tl_utf8_len(u + i, to - i);
        if (n > 1) fwrite(u + i, 1, n, out);
        else fputc(u[i] == '\t' || (u[i] >= 0x20 && u[i] < 0x7F) ? u[i] : '?', out);
        i += n > 1 ? n : 1;
    }
    if (to < len) fputs("...", out);
    fputs("\n  ", out);
    if (from > 0) fputs("   ", out);
    for (size_t i = from; i < col;) {   /* one column per character, tabs kept for alignment */
        size_t n = tl_utf8_len(u + i, len - i);
        fputc(u[i] == '\t' ? '\t' : ' ', out);
        i += n > 1 ? n : 1;
    }
    fputs("^\n", out);
}

void diag_add_trace(Diag *d, Span at)
{
    if (d->ntrace > 0) {
        const Span *last = &d->trace[d->ntrace - 1];
        if (last->src == at.src && last->line == at.line && last->col == at.col) {
            d->trace_repeat[d->ntrace - 1]++;
            return;
        }
    }
    if (d->ntrace < DIAG_MAX_TRACE) {
        d->trace_repeat[d->ntrace] = 0;
        d->trace[d->ntrace++] = at;
    } else {
        d->trace_omitted++;
    }
}

const char *span_name(const Span *s) { return s->src && s->src->name ? s->src->name : "<input>"; }

int diag_headline(char *buf, size_t n, const char *file, int line, int col, tl_errkind kind)
{
    return snprintf(buf, n, "%s:%d:%d: error[%s]: ", file, line, col, tl_errkind_name(kind));
}

/* Prints the lines of a message after its first (a shape error's aligned shapes), indented. */
static void print_detail(FILE *out, const char *detail)
{
    while (*detail) {
        const char *nl = strchr(detail, '\n');
        int n = nl ? (int)(nl - detail) : (int)strlen(detail);
        fprintf(out, "  %.*s\n", n, detail);
        detail += n + (nl != NULL);
    }
}

void diag_print(FILE *out, const Diag *d)
{
    char head[DIAG_HEAD_MAX];
    diag_headline(head, sizeof head, span_name(&d->at), d->at.line, d->at.col, d->kind);
    const char *nl = strchr(d->msg, '\n');
    fprintf(out, "%s%.*s\n", head, nl ? (int)(nl - d->msg) : (int)strlen(d->msg), d->msg);
    print_caret(out, &d->at);
    if (nl) print_detail(out, nl + 1);
    for (int i = 0; i < d->ntrace; i++) {
        const Span *s = &d->trace[i];
        if (d->trace_repeat[i] > 0)
            fprintf(out, "%s:%d:%d: note: called from here (%d times)\n", span_name(s), s->line, s->col, d->trace_repeat[i] + 1);
        else
            fprintf(out, "%s:%d:%d: note: called from here\n", span_name(s), s->line, s->col);
        print_caret(out, s);
    }
    if (d->trace_omitted > 0) fprintf(out, "  (%d more calls not shown)\n", d->trace_omitted);
}
