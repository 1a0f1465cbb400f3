/* eval_int.h — what the evaluator's files share (eval.c expressions, call.c calls, exec.c statements): private */
#ifndef TL_EVAL_INT_H
#define TL_EVAL_INT_H

#include "eval.h"

/* Calls deeper than this are "recursion too deep" even if stack remains. */
#define MAX_CALL_DEPTH 10000
/* Arguments kept on the C stack; more go to the heap. */
#define SMALL_ARGS 8

/* Keeps rarely-hot code out of the dispatchers, so their frames stay small and calls cheap. */
#define COLD __attribute__((noinline))
/* For the few helpers on the path of every scalar operation. */
#define HOT_INLINE inline __attribute__((always_inline))

typedef enum Exec { X_NORMAL, X_BREAK, X_CONTINUE, X_RETURN, X_ERROR } Exec;

/* Where names live while evaluating: the current function frame (NULL at top level). */
typedef struct Ctx {
    Interp *I;
    Frame *globals;     /* I->globals, cached: read on every global name */
    Frame *frame;
    Value ret;
} Ctx;

/* The general expression dispatcher (a node with no handler of its own). */
bool eval_any(Ctx *C, Node *n, Value *out);
/* Evaluates expression n into *out (a new reference); false: the error is in C->I->err.
   Each node's handler was chosen by the resolver (eval_choose). */
static inline bool eval_expr(Ctx *C, Node *n, Value *out)
{
    return __builtin_expect(n->eval != NULL, 1) ? n->eval(C, n, out) : eval_any(C, n, out);
}
/* Runs statement n. */
Exec exec_stmt(Ctx *C, Node *n);
/* eval_expr with the callback signature subscript.c and fuse.c use to evaluate items. */
bool eval_cb(void *ctx, Node *n, Value *out);
/* The out-of-line half of interrupted(): Ctrl-C or the step budget. */
bool interrupt_pending(Ctx *C, Span at);
/* A name's value (a new reference), or the "not defined" error. */
bool load_name(Ctx *C, Node *n, Value *out);
/* The error for a name that holds nothing: "name 'x' is not defined" for a global, "local 'x'
   is read before it is assigned in f()" for a local (naming `global x` when a global x exists). */
bool name_error(Ctx *C, Node *n);
/* Assigns v (owned) to a target: a name, an index expression, or a tuple of targets (unpacking). */
bool assign_target(Ctx *C, Node *t, Value v);
/* When `it` is a call of the builtin range: 1 with its values (start, step, how many), 0 when it
   is not one (nothing but the callee's name read), -1 on error. */
int range_call(Ctx *C, Node *it, int64_t *start, int64_t *step, uint64_t *count);
/* [e for ...] and {k: v for ...} (comprehension.c). */
bool eval_comprehension(Ctx *C, Node *n, Value *out);
/* Evaluates n to a truth value (an ambiguous tensor is an error). */
bool eval_truthy(Ctx *C, Node *n, bool *t);
/* a OP b, releasing both; a's tensor may take the result when the only
   references to it are our `spare` ones (see arith_binary_reusing). */
bool eval_binary_general(Ctx *C, Node *n, Value a, Value b, Value *out, int64_t spare);
/* An elementwise expression tree in one pass (fuse.h). 1: done; 0: evaluate as usual; -1: error. */
int eval_fused(Ctx *C, Node *n, Value *out);
/* A function value for def closing over the current frame (its defaults evaluated now). */
bool make_closure(Ctx *C, FnDef *def, Value *out);
/* f(args...) for an N_CALL node. */
bool eval_call_node(Ctx *C, Node *n, Value *out);
/* f(args...) for an N_CALL node with positional arguments only, f a name and no fuse plan. */
bool eval_call_positional(Ctx *C, Node *n, Value *out);
/* f(a), f(a, b), f(a, b, c) for a global name f, positional arguments only and no fuse plan. */
bool eval_call_global1(Ctx *C, Node *n, Value *out);
bool eval_call_global2(Ctx *C, Node *n, Value *out);
bool eval_call_global3(Ctx *C, Node *n, Value *out);
/* The same when every argument is a name or a number literal (evaluating them runs nothing). */
bool eval_call_global1_simple(Ctx *C, Node *n, Value *out);
bool eval_call_global2_simple(Ctx *C, Node *n, Value *out);
bool eval_call_global3_simple(Ctx *C, Node *n, Value *out);
/* a.f(args) and a.name. */
bool eval_method(Ctx *C, Node *n, Value *out);
/* xs.append(x) for names xs and x (or a number literal x): in place when xs holds a list. */
bool eval_method_append(Ctx *C, Node *n, Value *out);

/* The check at every loop back-edge and call: two loads inline, the rest out of line. */
static HOT_INLINE bool interrupted(Ctx *C, Span at)
{
    if (__builtin_expect(!tl_interrupt_flag && C->I->steps_left <= 0, 1)) return false;
    return interrupt_pending(C, at);
}

/* The slot a resolved name refers to. */
static HOT_INLINE Value *slot_of(Ctx *C, const Node *n)
{
    if (n->depth < 0) return &C->globals->slots[n->slot];
    Frame *f = C->frame;
    for (int d = n->depth; d > 0; d--) f = f->parent;
    return &f->slots[n->slot];
}

/* Releases the value slot s holds (the slot is about to go): numbers cost one test. */
static HOT_INLINE void slot_release(const Value *s)
{
    if (__builtin_expect(s->kind <= V_NUM, 1)) return;
    if (s->kind == V_TENSOR && s->as.t->refcount > 1) s->as.t->refcount--;
    else val_release_obj(*s);
}

/* Stores v (owned) into slot s, releasing what it held. */
static HOT_INLINE void store_slot(Value *s, Value v)
{
    if (__builtin_expect(s->kind <= V_NUM, 1)) {   /* a number or none: nothing to release */
        *s = v;
        return;
    }
    Value old = *s;   /* the slot holds v before old goes: releasing may look at this frame's slots */
    *s = v;
    val_release(old);
}

/* eval, with names and number literals (most operands) handled without a recursive call. */
static HOT_INLINE bool eval_operand(Ctx *C, Node *n, Value *out)
{
    if (n->kind == N_NAME) {
        Value *s = slot_of(C, n);
        if (s->kind != V_UNDEF) {
            *out = *s;
            if (s->kind == V_TENSOR) s->as.t->refcount++;
            else if (s->kind > V_NUM) val_retain_obj(*s);
            return true;
        }
    } else if (n->kind == N_INT) {
        *out = val_i64(n->ival);
        out->weak = true;
        return true;
    } else if (n->kind == N_FLOAT) {
        *out = val_f64(n->fval);
        out->weak = true;
        return true;
    } else {
        return eval_expr(C, n, out);
    }
    return load_name(C, n, out);   /* an undefined name: the error */
}

/* A number operand read without a reference (numbers are not refcounted): a name
   holding a number, or a number literal. False for anything else, having run nothing. */
static HOT_INLINE bool operand_number(Ctx *C, const Node *n, Value *out)
{
    if (n->kind == N_NAME) {
        const Value *s = slot_of(C, n);
        if (s->kind != V_NUM) return false;
        *out = *s;
        return true;
    }
    if (n->kind == N_INT) *out = val_i64(n->ival);
    else if (n->kind == N_FLOAT) *out = val_f64(n->fval);
    else return false;
    out->weak = true;
    return true;
}

#endif
