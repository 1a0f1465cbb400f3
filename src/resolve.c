/* resolve.c — binds every name to a slot once: locals by index, outer functions by depth, globals by table */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "eval.h"
#include "fuse.h"
#include "interp.h"
#include "resolve.h"

/* One function's (or comprehension's) scope while resolving: its locals, in slot order, and
   the names its `global` and `nonlocal` statements declare. */
typedef struct Scope {
    struct Scope *parent;
    FnDef *fn;
    char **names;
    int n, cap;
    char **globals;
    int nglobals, capglobals;
    char **nonlocals;
    int nnonlocals, capnonlocals;
} Scope;

typedef struct Resolver {
    Interp *I;
    bool ok;
    bool reported;   /* !ok with the error already in I->err (else: out of memory) */
    bool in_chain;   /* inside an elementwise tree whose root has a fuse plan (fuse.h) */
} Resolver;

static int scope_find(const Scope *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) return i;
    return -1;
}

/* True when name is one of names[0, n). */
static bool names_hold(char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

/* True when s's `global` statements declare name. */
static bool scope_declares_global(const Scope *s, const char *name) { return names_hold(s->globals, s->nglobals, name); }

/* True when s's `nonlocal` statements declare name. */
static bool scope_declares_nonlocal(const Scope *s, const char *name) { return names_hold(s->nonlocals, s->nnonlocals, name); }

/* Appends name to a growing array of names; false when out of memory. */
static bool names_push(char ***names, int *n, int *cap, char *name)
{
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        char **nn = realloc(*names, (size_t)ncap * sizeof *nn);
        if (!nn) return false;
        *names = nn;
        *cap = ncap;
    }
    (*names)[(*n)++] = name;
    return true;
}

/* Makes name a local of s, unless it is one already or s declares it global or nonlocal. */
static void scope_add(Resolver *R, Scope *s, char *name)
{
    if (scope_find(s, name) >= 0 || scope_declares_global(s, name) || scope_declares_nonlocal(s, name)) return;
    if (!names_push(&s->names, &s->n, &s->cap, name)) R->ok = false;
}

/* Records the names of the `global` statements in a function body (not entering nested functions). */
static void collect_globals(Resolver *R, Scope *s, Node *n)
{
    if (!n || !R->ok) return;
    switch (n->kind) {
    case N_GLOBAL:   /* global x (op 0), nonlocal x (op 1) */
        for (int i = 0; i < n->n; i++) {
            char *name = n->list[i]->name;
            bool param = scope_find(s, name) >= 0;   /* only the parameters are in the scope yet */
            if (param || (n->op ? scope_declares_global(s, name) : scope_declares_nonlocal(s, name))) {
                if (param)
                    interp_error(R->I, n->list[i]->at, SyntaxError, "name '%s' is a parameter of %s() and cannot be declared %s",
                                 name, s->fn->name, n->op ? "nonlocal" : "global");
                else
                    interp_error(R->I, n->list[i]->at, SyntaxError, "name '%s' is declared both global and nonlocal in %s()", name,
                                 s->fn->name);
                R->ok = false;
                R->reported = true;
                return;
            }
            bool ok = n->op ? scope_declares_nonlocal(s, name) || names_push(&s->nonlocals, &s->nnonlocals, &s->capnonlocals, name)
                            : scope_declares_global(s, name) || names_push(&s->globals, &s->nglobals, &s->capglobals, name);
            if (!ok) R->ok = false;
        }
        break;
    case N_IF: collect_globals(R, s, n->b); collect_globals(R, s, n->c); break;
    case N_WHILE: case N_FOR: collect_globals(R, s, n->b); break;
    case N_TRY: collect_globals(R, s, n->a); collect_globals(R, s, n->b); break;
    case N_BLOCK:
        for (int i = 0; i < n->n; i++) collect_globals(R, s, n->list[i]);
        break;
    default: break;
    }
}

/* Adds the names a statement list assigns to (without entering nested functions). */
static void collect_target(Resolver *R, Scope *s, Node *t)
{
    if (!t) return;
    if (t->kind == N_NAME) scope_add(R, s, t->name);
    else if (t->kind == N_STARARG) collect_target(R, s, t->a);   /* a, *rest = t */
    else if (t->kind == N_TUPLE)
        for (int i = 0; i < t->n; i++) collect_target(R, s, t->list[i]);
}

static void collect_locals(Resolver *R, Scope *s, Node *n)
{
    if (!n) return;
    switch (n->kind) {
    case N_ASSIGN: case N_OPASSIGN: collect_target(R, s, n->a); break;
    case N_FNDEF: scope_add(R, s, n->name); break;
    case N_FOR:
        if (n->name) scope_add(R, s, n->name);
        else collect_target(R, s, n->c);
        collect_locals(R, s, n->b);
        break;
    case N_DEL:   /* del x makes x local, as assigning it does */
        for (int i = 0; i < n->n; i++) collect_target(R, s, n->list[i]);
        break;
    case N_IF: collect_locals(R, s, n->b); collect_locals(R, s, n->c); break;
    case N_WHILE: collect_locals(R, s, n->b); break;
    case N_TRY: scope_add(R, s, n->name); collect_locals(R, s, n->a); collect_locals(R, s, n->b); break;
    case N_BLOCK:
        for (int i = 0; i < n->n; i++) collect_locals(R, s, n->list[i]);
        break;
    default: break;
    }
}

/* Fills depth/slot for a name used in scope s (NULL = top level). */
static void bind_name(Resolver *R, Scope *s, Node *n, const char *name)
{
    int depth = 0;
    for (Scope *sc = s; sc; sc = sc->parent, depth++) {
        if (scope_declares_global(sc, name)) break;
        if (scope_declares_nonlocal(sc, name)) continue;   /* an enclosing function's (checked by resolve_nonlocal) */
        int i = scope_find(sc, name);
        if (i >= 0) {
            n->depth = depth;
            n->slot = i;
            if (n->kind == N_NAME) {
                n->fn = sc->fn;   /* whose local it is, for "read before it is assigned" */
                for (Scope *up = sc->parent; up && !n->outer_local; up = up->parent) n->outer_local = scope_find(up, name) >= 0;
            }
            return;
        }
    }
    n->depth = -1;
    if (n->kind == N_NAME) n->fn = s ? s->fn : NULL;   /* whose locals "did you mean" offers, should it be undefined */
    n->slot = symtab_intern(&R->I->gsyms, name);
    if (n->slot < 0) R->ok = false;
}

static void resolve_node(Resolver *R, Scope *s, Node *n);

/* nonlocal x, ... in scope s: each name must be a local of an enclosing function (or declared
   nonlocal there in turn), as Python checks before anything runs. */
static void resolve_nonlocal(Resolver *R, Scope *s, Node *n)
{
    for (int i = 0; i < n->n && R->ok; i++) {
        const char *name = n->list[i]->name;
        Scope *sc = s ? s->parent : NULL;
        while (sc && scope_find(sc, name) < 0 && !scope_declares_global(sc, name)) sc = sc->parent;
        if (sc && scope_find(sc, name) >= 0) continue;
        interp_error(R->I, n->list[i]->at, SyntaxError, "no binding for nonlocal '%s': no enclosing function assigns it%s", name,
                     sc ? " (the one that declares it global binds the global)" : "");
        R->ok = false;
        R->reported = true;
    }
}

static bool is_number_literal(const Node *n) { return n && (n->kind == N_INT || n->kind == N_FLOAT); }

/* Turns n into the number literal v (an i64 or f64, weak as literals are). */
static void become_literal(Node *n, Value v)
{
    n->kind = v.dtype == TL_I64 ? N_INT : N_FLOAT;
    if (v.dtype == TL_I64) n->ival = v.as.num.i64;
    else n->fval = v.as.num.f64;
    n->a = n->b = NULL;
}

/* Folds number literals under operators into one literal: -1, 2 * 3.5. Only what
   the evaluator would compute with the same element functions and no error
   (arith_scalar_quick; arith_unary's - and +), so the value, its dtype and its
   weakness are the ones a run would give; comparisons (not weak) and anything that
   would report an error stay for the run. */
static void fold_literals(Node *n)
{
    if (!n) return;
    fold_literals(n->a);
    fold_literals(n->b);
    fold_literals(n->c);
    for (int i = 0; i < n->n; i++) fold_literals(n->list[i]);
    if ((n->kind == N_FNDEF || n->kind == N_LAMBDA) && n->fn) {
        for (int i = 0; i < n->fn->nparams; i++) fold_literals(n->fn->defaults[i]);
        fold_literals(n->fn->body);
    }
    if (n->kind == N_UNARY && (n->op == UOP_NEG || n->op == UOP_PLUS) && is_number_literal(n->a)) {
        Node *x = n->a;
        bool neg = n->op == UOP_NEG;
        if (x->kind == N_INT) become_literal(n, val_i64(neg ? (int64_t)(0 - (uint64_t)x->ival) : x->ival));
        else become_literal(n, val_f64(neg ? -x->fval : x->fval));
    } else if (n->kind == N_BINARY && n->op != OP_MATMUL && !tl_binop_is_comparison((tl_binop)n->op) &&
               is_number_literal(n->a) && is_number_literal(n->b)) {
        Value a = n->a->kind == N_INT ? val_i64(n->a->ival) : val_f64(n->a->fval);
        Value b = n->b->kind == N_INT ? val_i64(n->b->ival) : val_f64(n->b->fval);
        a.weak = b.weak = true;
        Value v;
        if (arith_scalar_quick(n->op, a, b, &v) && (v.dtype == TL_I64 || v.dtype == TL_F64)) become_literal(n, v);
    }
}

/* A name or a number literal: what `x = a OP b`'s quick path reads without a call. */
static bool is_simple_operand(const Node *n) { return n->kind == N_NAME || is_number_literal(n); }

/* Chooses n's evaluation path once (NodeSpec), its children being resolved. */
static void specialize(Node *n)
{
    if (n->kind == N_CALL) {
        bool keywords = n->splat;   /* *xs and **d go the general way, as keywords do */
        for (int i = 0; n->names && i < n->n; i++) keywords |= n->names[i] != NULL;
        if (!keywords) n->spec = SPEC_CALL_POSITIONAL;
    } else if (n->kind == N_ASSIGN && n->a->kind == N_NAME && n->b->kind == N_BINARY && n->b->op != OP_MATMUL &&
               is_simple_operand(n->b->a) && is_simple_operand(n->b->b)) {
        n->spec = SPEC_ASSIGN_ARITH;
    }
    eval_choose(n);
}

/* True when evaluating expression n may run a function: a call, a.f(...) or a.name, or a
   kind not known to run none. Names, literals and operators run no code of the program. */
static bool expr_may_call(const Node *n)
{
    if (!n) return false;
    switch (n->kind) {
    case N_INT: case N_FLOAT: case N_IMAG: case N_STR: case N_TRUE: case N_FALSE: case N_NONE: case N_NAME:
    case N_UNARY: case N_BINARY: case N_AND: case N_OR: case N_COND: case N_INDEX: case N_SLICE: case N_ELLIPSIS:
    case N_LIST: case N_TUPLE: case N_DICT:
        break;
    default:
        return true;
    }
    if (expr_may_call(n->a) || expr_may_call(n->b) || expr_may_call(n->c)) return true;
    for (int i = 0; i < n->n; i++)
        if (expr_may_call(n->list[i])) return true;
    return false;
}

static void resolve_fn(Resolver *R, Scope *outer, FnDef *fn)
{
    for (int i = 0; i < fn->nparams; i++) resolve_node(R, outer, fn->defaults[i]);
    Scope sc = { .parent = outer, .fn = fn };
    for (int i = 0; i < fn->nparams; i++) scope_add(R, &sc, fn->params[i]);
    if (!fn->body_is_expr) collect_globals(R, &sc, fn->body);
    if (!fn->body_is_expr) collect_locals(R, &sc, fn->body);
    resolve_node(R, &sc, fn->body);
    free(sc.globals);
    free(sc.nonlocals);
    fn->nslots = sc.n;
    fn->stack_frame = !fn->makes_closures && fn->nslots <= FRAME_STACK_SLOTS;
    fn->direct_arity = fn->stack_frame && !fn->has_rest && !fn->has_names && !fn->nkwonly ? fn->nparams : -1;
    fn->expr_direct = fn->direct_arity < 0 || !fn->body_is_expr || fn->nslots != fn->nparams ? EXPR_NOT_DIRECT
                      : expr_may_call(fn->body)                                           ? EXPR_DIRECT_CALLS
                                                                                          : EXPR_DIRECT_NO_CALLS;
    fn->slot_names = sc.names;   /* kept: FnDefs live as long as their source */
}

/* A comprehension: its loop variables are locals of its own scope (they do not leak, as in
   Python 3); the first iterable is evaluated in the enclosing scope, everything else in its own.
   Its frame lives on the C stack unless something in it makes a closure; then the enclosing
   frames must outlive the call too, so they stop living on the C stack. */
static void resolve_comprehension(Resolver *R, Scope *s, Node *n)
{
    FnDef *fn = n->fn;
    Scope sc = { .parent = s, .fn = fn };
    for (int i = 0; i < n->n; i++)
        if (n->list[i]->kind == N_COMPFOR) collect_target(R, &sc, n->list[i]->c);
    for (int i = 0; i < n->n; i++) {
        Node *c = n->list[i];
        if (c->kind == N_COMPFOR) {
            resolve_node(R, i == 0 ? s : &sc, c->b);
            resolve_node(R, &sc, c->c);
        } else {
            resolve_node(R, &sc, c->a);
        }
    }
    resolve_node(R, &sc, n->a);
    resolve_node(R, &sc, n->b);
    fn->nslots = sc.n;
    fn->slot_names = sc.names;
    fn->stack_frame = !fn->makes_closures && fn->nslots <= FRAME_STACK_SLOTS;
    if (fn->makes_closures && s) s->fn->makes_closures = true;   /* s, if a comprehension too, passes it on */
    eval_choose(n);
}

static void resolve_node(Resolver *R, Scope *s, Node *n)
{
    if (!n || !R->ok) return;
    if (R->in_chain && !fuse_is_interior(n)) {   /* a leaf of a fused tree may root a tree of its own */
        R->in_chain = false;
        resolve_node(R, s, n);
        R->in_chain = true;
        return;
    }
    switch (n->kind) {
    case N_NAME: bind_name(R, s, n, n->name); eval_choose(n); return;
    case N_FOR: case N_TRY: if (n->name) bind_name(R, s, n, n->name); break;
    case N_LISTCOMP: case N_DICTCOMP: resolve_comprehension(R, s, n); return;
    case N_GLOBAL:   /* its names are the scope's business, not places to bind */
        if (n->op) resolve_nonlocal(R, s, n);
        return;
    case N_FNDEF: case N_LAMBDA:   /* a closure over s's frame: that frame cannot live on the C stack */
        if (s) s->fn->makes_closures = true;
        if (n->kind == N_FNDEF) bind_name(R, s, n, n->name);
        resolve_fn(R, s, n->fn);
        eval_choose(n);
        return;
    case N_ATTR: case N_METHOD: bind_name(R, s, n, n->name); break;  /* a.f(x) is f(a, x) */
    case N_BINARY: case N_CALL:
        if (!R->in_chain && (n->fuse || (n->fuse = fuse_plan_new(n)) != NULL)) {
            R->in_chain = true;   /* only the tree's root carries the plan (leaves below may root their own) */
            resolve_node(R, s, n->a);
            resolve_node(R, s, n->b);
            for (int i = 0; i < n->n; i++) resolve_node(R, s, n->list[i]);
            R->in_chain = false;
            specialize(n);
            return;
        }
        break;
    default: break;
    }
    resolve_node(R, s, n->a);
    resolve_node(R, s, n->b);
    resolve_node(R, s, n->c);
    for (int i = 0; i < n->n; i++) resolve_node(R, s, n->list[i]);
    specialize(n);
}

bool resolve_program(Interp *I, Node *root)
{
    Resolver R = { .I = I, .ok = true };
    fold_literals(root);
    resolve_node(&R, NULL, root);
    if (!R.ok && !R.reported) interp_error(I, root->at, MemoryError, "out of memory");
    return R.ok;
}

/* Frees what the resolver attached under n: FnDefs' slot-name arrays, fuse plans. */
void resolve_free(Node *n)
{
    if (!n) return;
    free(n->fuse);
    n->fuse = NULL;
    if ((n->kind == N_LISTCOMP || n->kind == N_DICTCOMP) && n->fn) {
        free(n->fn->slot_names);
        n->fn->slot_names = NULL;
    }
    if ((n->kind == N_FNDEF || n->kind == N_LAMBDA) && n->fn) {
        free(n->fn->slot_names);
        n->fn->slot_names = NULL;
        for (int i = 0; i < n->fn->nparams; i++) resolve_free(n->fn->defaults[i]);
        resolve_free(n->fn->body);
    }
    resolve_free(n->a);
    resolve_free(n->b);
    resolve_free(n->c);
    for (int i = 0; i < n->n; i++) resolve_free(n->list[i]);
}
