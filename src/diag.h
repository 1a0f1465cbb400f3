/* diag.h — errors with source positions: "FILE:LINE:COL: error[KIND]: MESSAGE", the line, a caret */
#ifndef TL_DIAG_H
#define TL_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "error.h"

#define DIAG_MSG_MAX 1024
#define DIAG_MAX_TRACE 8
#define DIAG_HEAD_MAX 4400   /* "FILE:LINE:COL: error[KIND]: " with a path of up to 4096 bytes */

/* One error: where, what, and (for errors inside functions) the call sites. */
typedef struct Diag {
    Span at;
    tl_errkind kind;              /* what went wrong (error.h); try/catch reads it */
    char msg[DIAG_MSG_MAX];
    int ntrace;
    Span trace[DIAG_MAX_TRACE];   /* innermost call site first */
    int trace_repeat[DIAG_MAX_TRACE]; /* how many more times the same site repeated */
    int trace_omitted;
} Diag;

#include <stdarg.h>

/* Sets the error: its place, its kind and its message (dropping any call sites). */
void diag_set(Diag *d, Span at, tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_vset(Diag *d, Span at, tl_errkind kind, const char *fmt, va_list ap);
/* The file name a span is in ("<input>" when it has none). */
const char *span_name(const Span *s);
/* Writes "FILE:LINE:COL: error[KIND]: " (what every printed error and str(e) start with) into buf;
   returns snprintf's count. */
int diag_headline(char *buf, size_t n, const char *file, int line, int col, tl_errkind kind);
/* Prints the error, the source line and a caret, then the message's further lines (a shape
   error's shapes, aligned), then "called from" lines. */
void diag_print(FILE *out, const Diag *d);
/* Records one more call site around the error (consecutive repeats are counted, not listed). */
void diag_add_trace(Diag *d, Span at);

#endif
