/* interp.h — the interpreter state, and the interface builtins see */
#ifndef TL_INTERP_H
#define TL_INTERP_H

#include <stdio.h>

#include "ast.h"
#include "diag.h"
#include "value.h"

typedef struct Interp Interp;

/* Arguments of one call, as a builtin sees them. */
typedef struct CallArgs {
    int npos;
    Value *pos;
    int nkw;
    const char *const *kwnames;
    Value *kw;
    Span at;                 /* the call site, for errors */
    const Builtin *self;     /* the builtin being called (its tag selects a variant) */
} CallArgs;

typedef bool (*BuiltinFn)(Interp *I, CallArgs *a, Value *out);

/* One row of the builtin table: help(), :help, completion and docs come from here. */
struct Builtin {
    const char *name;
    BuiltinFn fn;
    const char *signature;   /* "sum(x, axis=none, keepdims=false)" */
    const char *help;        /* one line */
    int tag;                 /* lets one C function serve a family (casts, unary math): an op or dtype id */
};

/* A name-to-slot table for the global scope (grows as the shell runs). */
typedef struct Symtab {
    char **names;
    int n, cap;
    int *buckets;            /* open addressing: index+1, 0 = empty */
    int nbuckets;
} Symtab;
int symtab_find(const Symtab *s, const char *name);      /* -1 if absent */
int symtab_intern(Symtab *s, const char *name);          /* -1 on OOM */

struct Interp {
    Frame *globals;
    Symtab gsyms;
    Diag err;                /* the pending error when an eval function returns false */
    int call_depth;
    char *stack_base;        /* address of a local in the outermost eval: stack use is measured from it */
    size_t stack_limit;
    Value last;              /* `_` in the shell */
    bool interactive;
    bool echo_enabled;       /* expression statements print their value */
    FILE *out;
    Source **sources;        /* sources of failed runs, kept until their error is reported */
    int run_depth;           /* interp_run_source calls in progress (include() nests them) */
    int nsources, capsources;
    int include_depth;
};

Interp *interp_new(void);
void interp_free(Interp *I);
/* Parses and resolves src (if not yet done). incomplete: the input ended inside a bracket/block/string. */
bool interp_parse(Interp *I, Source *src, bool *incomplete);
/* Runs a whole source at the top level; prints nothing on error (caller prints I->err). */
bool interp_run_source(Interp *I, Source *src, bool echo);
/* Binds a global by name (takes ownership of v). */
bool interp_set_global(Interp *I, const char *name, Value v);

/* Sets I->err at the span; returns false so callers can `return interp_error(...)`. */
bool interp_error(Interp *I, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Sets I->err from the runtime's last message. */
bool interp_error_rt(Interp *I, Span at);

/* Calls any callable value with positional arguments (for builtins taking functions). */
bool interp_call(Interp *I, Value fn, int npos, Value *pos, Span at, Value *out);

/* Sources: refcounted loaded texts. */
Source *source_new(const char *name, const char *text, size_t len);
Source *source_from_file(const char *path, char *errbuf, size_t errlen);
void source_release(Source *s);

/* The builtin tables (stdlib/registry.c): a NULL-terminated list of {NULL}-terminated tables. */
extern const Builtin *const stdlib_tables[];
const Builtin *builtin_find(const char *name);

/* Writes the echo form of v (print form, plus ", dtype=NAME" when not a default dtype). */
bool interp_echo(Interp *I, Value v, FILE *out);

#endif
