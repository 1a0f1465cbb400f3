/* interp.h — the interpreter state (private to src/: builtins see tlapi.h) */
#ifndef TL_INTERP_H
#define TL_INTERP_H

#include <stdio.h>

#include "ast.h"
#include "diag.h"
#include "frame.h"
#include "parse.h"
#include "registry.h"
#include "tlapi.h"
#include "value.h"

/* A name-to-slot table for the global scope (grows as the shell runs). */
typedef struct Symtab {
    char **names;
    int n, cap;
    int *buckets;            /* open addressing: index+1, 0 = empty */
    int nbuckets;
} Symtab;
int symtab_find(const Symtab *s, const char *name);      /* -1 if absent */
int symtab_intern(Symtab *s, const char *name);          /* -1 on OOM */

/* Where a notebook shows what the shell prints: the values of expression statements and the
   pictures drawn without to= (jupyter_cell.c sets it; NULL: values echo to I->out, pictures are
   text). Each returns false with the runtime's error set when it cannot show. */
typedef struct InterpDisplay {
    void *ctx;
    bool (*value)(void *ctx, Interp *I, Value v);
    bool (*png)(void *ctx, const void *png, size_t n, int width, int height);
} InterpDisplay;

struct Interp {
    Frame *globals;
    Symtab gsyms;
    Diag err;                /* the pending error when an eval function returns false */
    int call_depth;
    char *stack_base;        /* address of a local in the outermost eval (NULL outside): stack use is measured from it */
    size_t stack_limit;
    uintptr_t stack_floor;   /* stack_base - stack_limit while evaluating, 0 outside: a call whose locals lie below it nests too deep */
    Value last;              /* `_` in the shell */
    bool interactive;
    bool echo_enabled;       /* expression statements print their value */
    FILE *out;
    Source **sources;        /* sources of failed runs, kept until their error is reported */
    int run_depth;           /* interp_run_source calls in progress (include() nests them) */
    int nsources, capsources;
    int include_depth;       /* interp_run_file calls in progress (bounded: a file may include itself) */
    bool mark_statements;    /* tl --mark-statements: markers between top-level statements (docs/testing.md) */
    const char *script_path; /* the script run (tl X.tl), NULL for the shell, -e and stdin: expect_close's files are beside it */
    bool test_update;        /* under tl --test --update: expect_close writes its files */
    bool as_shell;           /* with mark_statements, `# tl-test: shell`: a failing statement's error is printed and the
                                next one runs, and `_` is bound, as in the shell */
    int failed_statements;   /* statements that failed so (the exit status is then 1) */
    int64_t steps_left;      /* > 0: evaluation stops with "step limit reached" after this many
                                loop iterations and calls (embedders such as the fuzzers set it) */
    const InterpDisplay *display;   /* a notebook's display, or NULL */
    ValOwner owner;          /* the dicts and lists its runs made (value.h): interp_free empties those still alive */
};

Interp *interp_new(void);
void interp_free(Interp *I);
/* Parses and resolves src (if not yet done). On failure, res (when given) says whether the input
   only ended inside a bracket, block or string, and which are open. */
bool interp_parse(Interp *I, Source *src, ParseResult *res);
/* Runs a whole source at the top level; prints nothing on error (caller prints I->err). */
bool interp_run_source(Interp *I, Source *src, bool echo);
/* True when v is the predefined constant `name` (pi, e, inf, nan) still bound to its first value. */
bool interp_is_constant(const char *name, Value v);
/* Binds a global by name (takes ownership of v). */
bool interp_set_global(Interp *I, const char *name, Value v);

/* Sources: refcounted loaded texts. */
Source *source_new(const char *name, const char *text, size_t len);
Source *source_from_file(const char *path, char *errbuf, size_t errlen);
void source_release(Source *s);

/* Python's binding rule for a user function's call: a keyword naming a parameter that a positional
   argument already filled is "got multiple values". params: the parameter names in positional order. */
bool interp_check_repeated(Interp *I, CallArgs *a, const char *fname, int nparams, const char *const *params);

/* Writes the echo form of v: a string raw, anything else as repr() gives it (val_write_repr). */
bool interp_echo(Interp *I, Value v, FILE *out);
/* Shows an expression statement's value: on the display when there is one, else echoed to I->out. */
bool interp_show_value(Interp *I, Value v);

#endif
