/* span.h — a place in a source text, as errors point at it (what the builtin API needs of sources) */
#ifndef TL_SPAN_H
#define TL_SPAN_H

#include <stdint.h>

typedef struct Source Source;   /* a loaded program text (ast.h) */

/* A place in a source, for errors: 1-based line and column (columns count bytes). */
typedef struct Span {
    const Source *src;
    int32_t line, col;
} Span;

#endif
