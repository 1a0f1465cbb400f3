/* ast.h — syntax tree shared by the parser, the resolver and the evaluator */
#ifndef TL_AST_H
#define TL_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops.h"
#include "span.h"

typedef struct Arena Arena;
typedef struct Node Node;
struct Ctx;     /* the evaluator's state (src/eval_int.h) */
struct Value;   /* a value (src/value.h) */

/* A loaded program text: lines are found on demand for error carets.
   It owns the arena its syntax tree lives in. */
typedef struct Source {
    char *name;        /* file name as given, "<stdin>", "<-e>", "<shell>" */
    char *dir;         /* folder for include() */
    char *text;        /* NUL-terminated (embedded NULs possible: use len) */
    size_t len;
    int refcount;
    Arena *arena;      /* the parsed tree (NULL until parsed) */
    Node *root;
} Source;

/* Operators are chosen once, by the parser (as Lua's getbinopr): N_BINARY and
   N_OPASSIGN hold a binary operator, N_UNARY a unary one. A binary operator is
   one of the runtime's elementwise operators (tl_binop, whose list in ops.h
   also gives its spelling) or the matrix product. */
enum { OP_MATMUL = TL_NBINOPS };   /* @ */
typedef enum UnaryOp { UOP_NEG, UOP_PLUS, UOP_INVERT /* ~ */, UOP_NOT } UnaryOp;

/* Spelling of a binary operator (tl_binop or OP_MATMUL) for messages: "+", "@". */
static inline const char *op_binary_symbol(int op) { return op == OP_MATMUL ? "@" : tl_binop_name((tl_binop)op); }
/* Spelling of a unary operator for messages: "-", "not". */
static inline const char *op_unary_symbol(UnaryOp op)
{
    static const char *const symbols[] = { [UOP_NEG] = "-", [UOP_PLUS] = "+", [UOP_INVERT] = "~", [UOP_NOT] = "not" };
    return (unsigned)op <= UOP_NOT ? symbols[op] : "?";
}

/* The runtime function of - and ~ (+ and not have none). */
static inline tl_unop op_unary_function(UnaryOp op) { return op == UOP_INVERT ? TL_NOT : TL_NEG; }

typedef enum NodeKind {
    /* expressions */
    N_INT,        /* ival: integer literal (i64, weak); too large for i64 is a parse error */
    N_FLOAT,      /* fval: float literal (f64, weak) */
    N_IMAG,       /* fval: imaginary literal 2j (c128 with real 0, weak) */
    N_STR,        /* str, slen: string literal, escapes already decoded */
    N_TRUE, N_FALSE, N_NONE,
    N_NAME,       /* name; resolver fills depth/slot */
    N_UNARY,      /* op: a UnaryOp; a */
    N_BINARY,     /* op: a tl_binop or OP_MATMUL; a, b. Includes comparisons, & |, ** and @ */
    N_AND, N_OR,  /* a, b (short-circuit) */
    N_COND,       /* a if b else c: a = then-value, b = condition, c = else-value */
    N_CALL,       /* a = callee; list[0..n) = positional args then keyword args;
                     names[i] is NULL for a positional arg, else the keyword */
    N_METHOD,     /* a.name(args): a = receiver, name, list/names as N_CALL (receiver not in list) */
    N_ATTR,       /* a.name with no call */
    N_INDEX,      /* a[list...]: a = target; list = index items (expressions, N_SLICE, N_ELLIPSIS) */
    N_SLICE,      /* a:b:c inside an index; any of a, b, c may be NULL */
    N_ELLIPSIS,   /* ... inside an index */
    N_LIST,       /* [list...] tensor literal */
    N_TUPLE,      /* (list...) with n != 1, or (x,) */
    N_DICT,       /* {k: v, ...}: list[2i] is a key, list[2i+1] its value; n = 2 * pairs */
    N_LAMBDA,     /* fn(params) = expr: fn points at the FnDef */

    /* statements */
    N_EXPR_STMT,  /* a; echo is true unless the statement ended with ';' */
    N_ASSIGN,     /* a = target (N_NAME, N_INDEX, N_ATTR or N_TUPLE of targets), b = value */
    N_OPASSIGN,   /* a = target (N_NAME or N_INDEX), op = the binary operator (TL_ADD... or OP_MATMUL), b = value */
    N_FNDEF,      /* fn name(...) ...: name, fn */
    N_IF,         /* a = condition, b = then-block, c = else (N_BLOCK, N_IF, or NULL) */
    N_WHILE,      /* a = condition, b = body block */
    N_FOR,        /* name = loop variable (resolved like N_NAME via depth/slot), a = iterable, b = body;
                     for a tuple of variables (for i, x in ...) name is NULL and c is the target (N_TUPLE) */
    N_BREAK, N_CONTINUE,
    N_RETURN,     /* a = value or NULL */
    N_TRY,        /* try a catch name b: a = body block, name = the error's variable (resolved like N_FOR), b = handler */
    N_BLOCK,      /* list[0..n) statements */

    /* f-strings (src/fstring.c) */
    N_FSTRING,    /* f"...": list[0..n) = its parts, N_STR (text) and N_FIELD; also a spec holding fields */
    N_FIELD,      /* {a!c:spec} in an f-string: a = the expression, op = the conversion ('r' 's' 'a' or 0),
                     b = NULL, the spec as N_STR (parsed once into fspec) or as N_FSTRING (built each time) */
    /* lists, comprehensions and scope (SPEC section 13) */
    N_IN,         /* a in b (op 0), a not in b (op 1): a comparison-level expression */
    N_LISTCOMP,   /* [a for ... if ...]: a = the item, list = the clauses (N_COMPFOR, N_COMPIF) in order,
                     fn = the comprehension's own scope (its loop variables; no params, no body) */
    N_DICTCOMP,   /* {a: b for ...}: a = key, b = value; list and fn as N_LISTCOMP */
    N_COMPFOR,    /* `for c in b` of a comprehension: c = target (N_NAME or N_TUPLE of targets), b = iterable */
    N_COMPIF,     /* `if a` of a comprehension */
    N_STARARG,    /* *a in a call's arguments: the items of iterable a as positional arguments */
    N_STARSTAR,   /* **a in a call's arguments: the keys and values of dict a as keyword arguments */
    N_GLOBAL,     /* global x, y (op 0) or nonlocal x, y (op 1): list = the N_NAME nodes (statement) */
    N_DEL,        /* del t, ...: list = the targets, names or index expressions (statement) */
    N_NODE_COUNT
} NodeKind;

typedef struct FnDef FnDef;

/* What the resolver found a node to be, so the evaluator takes its path without
   re-examining the node's shape on every run (the node kind stays the meaning). */
typedef enum NodeSpec {
    SPEC_NONE,
    SPEC_CALL_POSITIONAL,   /* N_CALL with positional arguments only: a closure taking exactly
                               them binds them straight into its frame's slots */
    SPEC_ASSIGN_ARITH,      /* N_ASSIGN `name = x OP y`, x and y names or number literals, OP not @ */
} NodeSpec;

typedef struct Node {
    NodeKind kind;
    int op;                 /* N_UNARY: a UnaryOp; N_BINARY, N_OPASSIGN: a tl_binop or OP_MATMUL */
    bool echo;              /* N_EXPR_STMT */
    bool splat;             /* N_CALL, N_METHOD: an argument is *a or **a (N_STARARG, N_STARSTAR);
                               N_TUPLE, N_LIST, N_DICT: an item is *a or **a, whose items it splices */
    bool outer_local;       /* N_NAME bound to a local: an enclosing function has a local of that
                               name too (filled by the resolver, for the "nonlocal" advice) */
    uint8_t spec;           /* a NodeSpec, filled by the resolver */
    Span at;                /* where to point the caret: the operator for binary/unary,
                               the '(' for calls, the '[' for indexing, the first token otherwise */
    struct Node *a, *b, *c;
    struct Node **list;     /* N_CALL, N_METHOD, N_INDEX, N_LIST, N_TUPLE, N_DICT, N_BLOCK */
    char **names;           /* N_CALL/N_METHOD keyword names (parallel to list) */
    int n;
    char *name;             /* N_NAME, N_ATTR, N_METHOD, N_FNDEF, N_FOR */
    char *str; size_t slen; /* N_STR */
    int64_t ival;           /* N_INT */
    double fval;            /* N_FLOAT, N_IMAG */
    FnDef *fn;              /* N_FNDEF, N_LAMBDA, N_LISTCOMP, N_DICTCOMP; for an N_NAME bound to a
                               local, the function that owns it (filled by the resolver, for messages) */
    /* filled by the resolver */
    int depth;              /* frames to walk out (0 = current); -1 = global */
    int slot;
    struct FusePlan *fuse;  /* N_BINARY or N_CALL rooting an elementwise tree (fuse.h) */
    const struct tl_fmtspec *fspec;   /* N_FIELD with a constant spec: it parsed (by the parser, in the arena) */
    /* the evaluator's handler for this expression, chosen once by the resolver
       (eval_choose, from the kind, the slot and the spec); NULL: the general dispatcher */
    bool (*eval)(struct Ctx *C, struct Node *n, struct Value *out);
} Node;

/* FnDef.expr_direct: whether a C-stack frame's body is one expression over exactly the
   parameters (nslots == nparams), and whether that expression can call a function (only
   code a call runs can rebind a name, e.g. through include()). */
typedef enum ExprDirect { EXPR_NOT_DIRECT, EXPR_DIRECT_CALLS, EXPR_DIRECT_NO_CALLS } ExprDirect;

struct FnDef {
    char *name;             /* "<lambda>" for fn(x) = ... */
    int nparams;
    char **params;
    Node **defaults;        /* defaults[i] or NULL; evaluated at definition time */
    Node *body;             /* an expression (for `= expr` forms) or an N_BLOCK */
    bool body_is_expr;
    bool has_rest, has_names;   /* the last parameters are *rest (a tuple of the extra positional
                                   arguments) and/or **names (a dict of the extra keywords), in that order */
    int nkwonly;            /* of the fixed parameters, the last nkwonly are keyword-only (written
                               after *rest or a bare *, as Python's): params holds the positional
                               ones, then these, then *rest and **names, whatever order they were
                               written in (fndef_written_param gives that order back) */
    Span at;
    /* filled by the resolver */
    int nslots;             /* locals including params */
    bool makes_closures;    /* its body defines a function (fn or lambda): its frame may outlive the call */
    bool stack_frame;       /* no closures and at most FRAME_STACK_SLOTS locals: its frame lives on the C stack */
    int direct_arity;       /* nparams when the frame lives on the C stack (stack_frame), else -1 */
    uint8_t expr_direct;    /* an ExprDirect: is the body one expression over just the parameters, calling anything? */
    char **slot_names;
};

/* The expression after * or ** in s (N_STARARG, N_STARSTAR) as messages name it: its name, or "x". */
static inline const char *starred_name(const Node *s) { return s->a->kind == N_NAME ? s->a->name : "x"; }

/* The parameters a call fills by position or name: all but *rest and **names. */
static inline int fndef_fixed_params(const FnDef *d) { return d->nparams - d->has_rest - d->has_names; }

/* The parameters a call may fill by position: the fixed ones before any keyword-only one. */
static inline int fndef_positional_params(const FnDef *d) { return fndef_fixed_params(d) - d->nkwonly; }

/* How many entries d's signature writes: its parameters, and a bare "*" when keyword-only
   parameters follow no *rest. */
static inline int fndef_written_count(const FnDef *d) { return d->nparams + (d->nkwonly > 0 && !d->has_rest); }

/* The parameter written k-th in d's signature (0 <= k < fndef_written_count), in the order
   positional, *rest (or a bare *), keyword-only, **names; *stars is what precedes its name
   ("*", "**" or ""). Returns -1 for the bare "*", which has no name. */
static inline int fndef_written_param(const FnDef *d, int k, const char **stars)
{
    int npos = fndef_positional_params(d), nfixed = fndef_fixed_params(d);
    bool star = d->has_rest || d->nkwonly > 0;
    *stars = "";
    if (k < npos) return k;
    if (star && k == npos) {
        *stars = "*";
        return d->has_rest ? nfixed : -1;
    }
    k -= star;
    if (k < nfixed) return k;
    *stars = "**";
    return d->nparams - 1;
}

/* Node allocation lives in an arena owned by the Source. */
Arena *arena_new(void);
void *arena_alloc(Arena *a, size_t n);   /* zeroed, 16-byte aligned; NULL on OOM */
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);

#endif
