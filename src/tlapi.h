/* tlapi.h — the interpreter as builtins see it: values, call arguments, errors, calls, files, output */
#ifndef TL_API_H
#define TL_API_H

/* Builtins (stdlib/) include this header, the runtime's headers and stdlib's own, and
   nothing else of src/ (tests/check_includes.sh checks it). The interpreter's state
   stays behind the opaque Interp, so its fields can change without touching a builtin;
   values are not opaque: builtins read and build them through value.h directly, as the
   evaluator does, because wrapping every field access would cost the hot paths. */

#include <stdio.h>

#include "ops.h"
#include "span.h"
#include "value.h"

/* The interpreter: opaque here; its fields belong to src/ (interp.h). */
typedef struct Interp Interp;

/* A builtin's parameters, parsed once from its signature by the registry (stdlib/registry.c):
   binding arguments, messages, help and keyword completion all read them. */
#define BUILTIN_MAX_PARAMS 16
typedef struct BuiltinParams {
    int n;                   /* parameters, in the signature's order */
    const char *name[BUILTIN_MAX_PARAMS];
    bool required[BUILTIN_MAX_PARAMS];   /* no default: must be given */
    int npositional;         /* the first npositional may come by position */
    int rest;                /* the *rest parameter's index (it takes the remaining positional values), or -1 */
    int nleading;            /* leading parameters in brackets, "[start,] stop": given only when more
                                positional values come than the required ones after them */
    int nrequired_pos;       /* required positional parameters, bracketed ones excluded */
    int nposonly;            /* parameters before a bare "/": never bound by keyword */
    int kwrest;              /* the **names parameter's index (it takes the keywords no other parameter
                                takes: the builtin reads them with arg_kw_extra), or -1 */
} BuiltinParams;

/* Arguments of one call, as a builtin sees them. The call site gives pos and kw; before the
   builtin runs, builtin_call binds them to the parameters its row's signature names, so a
   builtin reads parameter i of its signature as slot[i] (stdlib/builtins.h: arg_tensor,
   arg_int, ...), whether it came by position or by keyword. */
typedef struct CallArgs {
    int npos;
    Value *pos;
    int nkw;
    const char *const *kwnames;
    Value *kw;
    Span at;                 /* the call site, for errors */
    const Builtin *self;     /* the builtin being called (its tag selects a variant) */
    tl_tensor *into;         /* NULL, or where the caller wants the result (a graph's arena buffer): a
                                builtin whose row traces BT_INTO passes it to its kernel's _into form
                                (tl_tensor_result), which may still decline it */
    const BuiltinParams *params;   /* bound: self's parameters */
    Value **slot;            /* bound: per parameter of the signature, its value or NULL when not given */
    Value *rest;             /* bound: the values of the *rest parameter (nrest of them, in pos) */
    int nrest;
} CallArgs;

/* A builtin: reads a, sets *out (owned by the caller) and returns true, or reports an
   error (interp_error) and returns false. */
typedef bool (*BuiltinFn)(Interp *I, CallArgs *a, Value *out);

/* Which family a builtin belongs to. A family's rows share one C function keyed by the row's
   tag; the fusers (src/fuse.c, graph_fuse.c) and the graph tracer read the family from the row. */
typedef enum BuiltinFamily {
    BF_OTHER,          /* none of the below */
    BF_UNARY,          /* the element-wise function tl_unop tag: abs, exp, gelu, ... */
    BF_BINARY,         /* the element-wise operator tl_binop tag: add, pow, minimum, ... */
    BF_CAST,           /* a cast to the tl_dtype tag: f32(x), ... */
    BF_WHERE,          /* where(cond, x, y) */
    BF_ELEMENTWISE,    /* another element-wise function: its result has its operands' broadcast shape */
    BF_REDUCE,         /* the reduction tl_redop tag: sum, mean, ... */
} BuiltinFamily;

/* How graph() traces a call of a builtin whose arguments hold traced values. */
typedef enum BuiltinTrace {
    BT_NO,             /* it cannot be traced (an error names it) */
    BT_STATIC,         /* it reads only shapes and dtypes: its result is a constant of the graph */
    BT_INTO,           /* a node whose kernel writes its result into CallArgs.into when given */
    BT_VIEW,           /* a node whose result is a view of an operand (no buffer of its own) */
} BuiltinTrace;

/* One row of a builtin table: help(), :help, completion, argument binding and docs/builtins.md
   come from here (the registry parses each signature once: builtin_params in registry.h). */
struct Builtin {
    const char *name;
    BuiltinFn fn;
    const char *signature;   /* "sum(x, axis=none, dtype=none, keepdims=false)": name=default is optional,
                                "*rest" takes the remaining positional values, a bare "*" makes the
                                parameters after it keyword-only, "[p,] q" makes a leading p optional,
                                a bare "/" makes the parameters before it positional-only, "**names"
                                (last) takes the keywords no parameter names */
    const char *help;        /* one line */
    int tag;                 /* lets one C function serve a family (casts, unary math): an op, a dtype
                                or a variant named by an enum beside the function; 0 when unused */
    uint8_t family;          /* BuiltinFamily */
    uint8_t trace;           /* BuiltinTrace */
};

/* ---- errors: set the pending error and return false, so `return interp_error(...)` ---- */

/* Reports an error of a kind (runtime/error.h) at the span. */
bool interp_error_kind(Interp *I, Span at, tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* interp_error(I, at, TypeError, "len() of a %s is not defined", ...): the kind is a bare
   name from TL_ERRKIND_LIST, so a call without one does not compile. */
#define interp_error(I, at, kind, ...) interp_error_kind(I, at, TL_E_##kind, __VA_ARGS__)
/* Reports the runtime's last message (tl_errmsg) and its kind at the span. */
bool interp_error_rt(Interp *I, Span at);

/* ---- calling and running ---------------------------------------------- */

/* Calls any callable value with positional arguments (for builtins taking functions). */
bool interp_call(Interp *I, Value fn, int npos, Value *pos, Span at, Value *out);
/* Runs a .tl file in the global scope with the current echo setting (include()). A
   relative path is taken from the folder of the source at `at`; an error inside the
   file gets `at` as a call site; files nested more than 64 deep are an error. */
bool interp_run_file(Interp *I, const char *path, Span at);

/* ---- output ------------------------------------------------------------- */

/* The stream print(), help() and info() write to. */
FILE *interp_out(Interp *I);
/* Whether pictures drawn without to= are shown as images (in a notebook) rather than as text. */
bool interp_shows_images(Interp *I);
/* Shows a PNG image of width x height pixels there; false with the runtime's error set when it cannot. */
bool interp_show_png(Interp *I, const void *png, size_t n, int width, int height);
/* The script being run (its path as given: tl X.tl, tl --test's X.tl), or NULL (the shell, -e, stdin). */
const char *interp_script_path(Interp *I);
/* Whether the script runs under tl --test --update (expect_close then writes its stored array). */
bool interp_test_updating(Interp *I);
/* Tells tl --test that the script wrote the expectation file at path (a marker on stdout). */
void interp_note_written(Interp *I, const char *path);
/* Writes v to interp_out(I) as print() does (under tl --test, with its dtype markers). 0, or -1
   with the tl error set. */
int interp_print(Interp *I, Value v);
/* Appends "name(p, q=...): a function defined in FILE:LINE" for a function value (V_FUNC). */
bool interp_describe_function(Value fn, StrBuf *b);

/* ---- graphs (src/graph.c, docs/graphs.md) ------------------------------ */

/* graph(f, examples...): traces f into a graph value. */
bool interp_graph_build(Interp *I, CallArgs *a, Value *out);
/* Writes a graph value (V_GRAPH) as a Graphviz digraph: 0, or -1 with the tl error set. */
int interp_graph_dot(Value g, tl_write_fn w, void *ctx);

/* ---- operators ---------------------------------------------------------- */

/* The dtype a OP b computes in (numpy promotion, NEP 50 weak literals); an error for a
   literal out of range of the other operand's dtype. */
bool interp_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt);

#endif
