/* fstring.h — f-strings: the scanner that splits one into text and fields (for the parser), and evaluating one */
#ifndef TL_FSTRING_H
#define TL_FSTRING_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"

/* A field {expr=!c:spec} as the scanner finds it: places in the f-string's text. */
typedef struct FsField {
    const char *expr, *expr_end;     /* the expression */
    const char *debug_end;           /* {x=}: the text from expr up to here is written before the value; else NULL */
    char conversion;                 /* 'r' 's' 'a', or 0 */
    const char *spec, *spec_end;     /* the spec after ':' (it may hold fields), or NULL when there is no ':' */
    const char *err, *err_at;        /* an error after the expression: reported once the expression has parsed,
                                        as CPython reports the expression's own errors first */
} FsField;

typedef enum FsItem { FS_END, FS_TEXT, FS_FIELD, FS_ERROR } FsItem;

/* Walks the body of an f-string (level 0) or of a spec inside one (level 1, 2). */
typedef struct FsScan {
    const char *s, *end;
    int level;
    bool raw;                        /* rf"...": backslashes are text */
    const char *err, *err_at;        /* FS_ERROR: the message and where */
} FsScan;

/* The next item: FS_TEXT with raw text [*text, *text_end) (escapes not decoded; of a doubled
   brace one is kept), FS_FIELD filled into *f (its '}' consumed), FS_END at the end (in a spec:
   at the '}' that ends it), or FS_ERROR. CPython 3.11's rules and messages. */
FsItem fs_next(FsScan *sc, const char **text, const char **text_end, FsField *f);

/* What building an f-string's nodes needs from the parser (src/parse.c). */
typedef struct FsParser {
    void *p;                                               /* the parser */
    Arena *arena;                                          /* where the nodes go */
    Span (*span_at)(void *p, const char *at);              /* the place of a byte of the f-string's text */
    Node *(*expression)(void *p, const char *start, const char *end);   /* parses one field's expression */
    void (*fail)(void *p, const char *at, const char *msg);   /* a syntax error at `at` (NULL: the f-string); does not return */
} FsParser;

/* The N_FSTRING node of an f-string's body [body, end) (raw: an rf-string), placed at `at`: its
   text decoded as string literals are (N_STR parts), its fields (N_FIELD) with their expressions
   parsed and each constant spec parsed once (Node.fspec). */
Node *fs_build(const FsParser *fp, const char *body, const char *end, bool raw, const char *at);

struct Ctx;
struct Value;
/* Evaluates an N_FSTRING node into a new string (eval_int.h's handler signature). */
bool eval_fstring(struct Ctx *C, Node *n, struct Value *out);

#endif
