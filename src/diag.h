/* diag.h — errors with source positions: "FILE:LINE:COL: error: MESSAGE", the line, a caret */
#ifndef TL_DIAG_H
#define TL_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "error.h"

#define DIAG_MSG_MAX 512
#define DIAG_MAX_TRACE 8

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
/* Prints the error, the source line and a caret; then "called from" lines. */
void diag_print(FILE *out, const Diag *d);
/* Records one more call site around the error (consecutive repeats are counted, not listed). */
void diag_add_trace(Diag *d, Span at);

#endif
