/* parse.h — the Pratt parser: source text to a syntax tree */
#ifndef TL_PARSE_H
#define TL_PARSE_H

#include "ast.h"
#include "diag.h"

/* How many of the innermost open brackets an incomplete parse names. */
#define PARSE_OPEN_MAX 8

typedef struct ParseResult {
    Node *root;          /* N_BLOCK of top-level statements; NULL on error */
    bool incomplete;     /* error was only "input ended early" (unclosed bracket, block or string):
                            the shell reads another line instead of reporting it */
    char open[PARSE_OPEN_MAX + 1];   /* when incomplete: what is still open, outermost first ("([", "{'") */
} ParseResult;

/* Parses a whole source. Nodes live in `arena`. On error returns root NULL and fills err. */
ParseResult parse_program(const Source *src, Arena *arena, Diag *err);
/* Where an expression or statement's text begins (its `at` may be an operator inside it). */
Span node_start(const Node *n);

#endif
