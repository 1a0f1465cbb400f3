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

/* Arguments of one call, as a builtin sees them. */
typedef struct CallArgs {
    int npos;
    Value *pos;
    int nkw;
    const char *const *kwnames;
    Value *kw;
    Span at;                 /* the call site, for errors */
    const Builtin *self;     /* the builtin being called (its tag selects a variant) */
    tl_tensor *into;         /* NULL, or where the caller wants the result (a graph's arena buffer): a
                                builtin whose row in graph.c's traceable table says so passes it to its
                                kernel's _into form (tl_tensor_result), which may still decline it */
} CallArgs;

/* A builtin: reads a, sets *out (owned by the caller) and returns true, or reports an
   error (interp_error) and returns false. */
typedef bool (*BuiltinFn)(Interp *I, CallArgs *a, Value *out);

/* One row of a builtin table: help(), :help, completion and docs come from here. */
struct Builtin {
    const char *name;
    BuiltinFn fn;
    const char *signature;   /* "sum(x, axis=none, keepdims=false)" */
    const char *help;        /* one line */
    int tag;                 /* lets one C function serve a family (casts, unary math): an op, a dtype
                                or a variant named by an enum beside the function; 0 when unused */
};

/* ---- errors: set the pending error and return false, so `return interp_error(...)` ---- */

/* Reports an error of a kind (runtime/error.h) at the span. */
bool interp_error_kind(Interp *I, Span at, tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* interp_error(I, at, TypeError, "len() of a %s is not defined", ...): the kind is a bare
   name from TL_ERRKIND_LIST, so a call without one does not compile. */
#define interp_error(I, at, kind, ...) interp_error_kind(I, at, TL_E_##kind, __VA_ARGS__)
/* Reports the runtime's last message (tl_errmsg) and its kind at the span. */
bool interp_error_rt(Interp *I, Span at);
/* Python's binding rule, for user functions and builtins alike: a keyword naming a parameter that
   a positional argument already filled is "got multiple values". params: the parameter names in
   positional order. */
bool interp_check_repeated(Interp *I, CallArgs *a, const char *fname, int nparams, const char *const *params);

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
