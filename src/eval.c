/* eval.c — the tree-walking evaluator: statements, expressions, calls */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "fuse.h"
#include "graph.h"
#include "eval.h"
#include "ops.h"
#include "literal.h"
#include "subscript.h"

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

static bool eval(Ctx *C, Node *n, Value *out);
static Exec exec(Ctx *C, Node *n);

/* eval with the callback signature subscript.c uses to evaluate index items. */
static bool eval_cb(void *ctx, Node *n, Value *out) { return eval(ctx, n, out); }

/* Ctrl-C, or the step budget running out (Interp.steps_left, counted down at loop
   back-edges and calls when positive), stops evaluation with an error. */
static COLD bool interrupt_pending(Ctx *C, Span at)
{
    if (C->I->steps_left > 0 && --C->I->steps_left == 0) {
        C->I->steps_left = 1;   /* every later check fails too */
        return interp_error(C->I, at, Interrupt, "step limit reached"), true;
    }
    if (!tl_interrupt_flag) return false;
    interp_error(C->I, at, Interrupt, "interrupted");
    return true;
}

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

static bool load_name(Ctx *C, Node *n, Value *out)
{
    Value *s = slot_of(C, n);
    if (s->kind == V_UNDEF) return interp_error(C->I, n->at, Error, "name '%s' is not defined", n->name);
    *out = val_retain(*s);
    return true;
}

static HOT_INLINE void store_slot(Value *s, Value v)
{
    Value old = *s;
    *s = v;
    val_release(old);
}

/* eval, with names and number literals (most operands) handled without a recursive call. */
static HOT_INLINE bool eval_operand(Ctx *C, Node *n, Value *out)
{
    if (n->kind == N_NAME) {
        Value *s = slot_of(C, n);
        if (s->kind != V_UNDEF) {
            *out = val_retain(*s);
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
        return eval(C, n, out);
    }
    return load_name(C, n, out);   /* an undefined name: the error */
}

/* ---- calls ------------------------------------------------------------- */

/* Locals of a function that defines no function live on the C stack up to this many. */
#define STACK_SLOTS 16

/* Ends a call's frame: a C-stack frame releases its slots (nothing else can refer to
   it: only closures keep frames, and its function makes none); a heap frame its reference. */
static HOT_INLINE void call_frame_end(Frame *f, bool on_stack)
{
    if (!on_stack) { frame_release(f); return; }
    for (int i = 0; i < f->nslots; i++) val_release(f->slots[i]);
}

/* Runs a function's body in frame f (its arguments bound); *out is its value. */
static HOT_INLINE bool run_body(Interp *I, FnDef *def, Frame *f, Value *out)
{
    Ctx inner = { .I = I, .globals = I->globals, .frame = f, .ret = val_none() };
    if (def->body_is_expr) return eval(&inner, def->body, out);
    Exec x = exec(&inner, def->body);
    if (x == X_ERROR) return false;
    if (x == X_RETURN) *out = inner.ret;
    else if (x == X_BREAK || x == X_CONTINUE) return interp_error(I, def->at, SyntaxError, "break or continue outside a loop");
    else *out = val_none();
    return true;
}

/* Binds arguments to parameters in a new frame and runs the body. */
static bool call_closure(Ctx *C, Closure *fn, CallArgs *a, Value *out, bool *body_ran)
{
    Interp *I = C->I;
    FnDef *def = fn->def;
    /* The caller holds fn, and fn its defining frame, for the whole call: a stack
       frame's parent needs no reference of its own. */
    Value stack_slots[STACK_SLOTS];
    Frame stack_frame;
    bool on_stack = !def->makes_closures && def->nslots <= STACK_SLOTS;
    if (a->npos > def->nparams)
        return interp_error(I, a->at, TypeError, "%s() takes %d argument%s but %d were given", def->name, def->nparams,
                            def->nparams == 1 ? "" : "s", a->npos);
    if (!interp_check_repeated(I, a, def->name, def->nparams, (const char *const *)def->params)) return false;
    Frame *f = &stack_frame;
    if (on_stack) {
        stack_frame = (Frame){ .refcount = 1, .parent = fn->env, .nslots = def->nslots, .cap = def->nslots,
                               .slots = stack_slots };
        for (int i = 0; i < def->nslots; i++) stack_slots[i].kind = V_UNDEF;
    } else if (!(f = frame_new(fn->env, def->nslots))) {
        return interp_error_rt(I, a->at);
    }
    for (int i = 0; i < a->npos; i++) f->slots[i] = val_retain(a->pos[i]);
    for (int k = 0; k < a->nkw; k++) {
        int p = -1;
        for (int i = 0; i < def->nparams; i++)
            if (strcmp(def->params[i], a->kwnames[k]) == 0) p = i;
        if (p < 0) {
            call_frame_end(f, on_stack);
            return interp_error(I, a->at, TypeError, "%s() got an unexpected keyword argument '%s'", def->name, a->kwnames[k]);
        }
        val_release(f->slots[p]);   /* only a repeated keyword gets here twice; the parser refuses it */
        f->slots[p] = val_retain(a->kw[k]);
    }
    for (int i = 0; i < def->nparams; i++) {
        if (f->slots[i].kind != V_UNDEF) continue;
        if (!fn->has_default[i]) {
            call_frame_end(f, on_stack);
            return interp_error(I, a->at, TypeError, "%s() missing argument '%s'", def->name, def->params[i]);
        }
        f->slots[i] = val_retain(fn->defaults[i]);
    }
    *body_ran = true;
    bool ok = run_body(I, def, f, out);
    call_frame_end(f, on_stack);
    return ok;
}

/* Counts a call in: false (error reported, depth unchanged) when calls nest too deep or
   the run is interrupted. */
static HOT_INLINE bool call_enter(Ctx *C, Span at)
{
    Interp *I = C->I;
    char here;
    if (++I->call_depth > MAX_CALL_DEPTH || (I->stack_base && (size_t)(I->stack_base - &here) > I->stack_limit)) {
        I->call_depth--;
        return interp_error(I, at, RecursionError, "recursion too deep (more than %d nested calls)", MAX_CALL_DEPTH);
    }
    if (interrupted(C, at)) { I->call_depth--; return false; }
    return true;
}

/* True when a call of def can take call's arguments straight into a C-stack frame. */
static HOT_INLINE bool direct_callable(const FnDef *def, const Node *call)
{
    return def->nparams == call->n && !def->makes_closures && def->nslots <= STACK_SLOTS;
}

/* f(args...) for a closure f that makes no closures and takes exactly these positional
   arguments (SPEC_CALL_POSITIONAL): the arguments are evaluated straight into the slots
   of a frame on the C stack, with no argument list, keyword matching or heap frame.
   Same order and errors as call_value: arguments first, then the depth and interrupt
   checks, then the body, whose errors get this call site in their trace. */
static bool call_closure_direct(Ctx *C, Node *n, Closure *fn, Value *out)
{
    Interp *I = C->I;
    FnDef *def = fn->def;
    Value slots[STACK_SLOTS];
    int nargs = n->n;
    for (int i = 0; i < nargs; i++)
        if (!eval_operand(C, n->list[i], &slots[i])) {
            while (i--) val_release(slots[i]);
            return false;
        }
    for (int i = nargs; i < def->nslots; i++) slots[i].kind = V_UNDEF;
    Frame f = { .refcount = 1, .parent = fn->env, .nslots = def->nslots, .cap = def->nslots, .slots = slots };
    bool ok = call_enter(C, n->at);
    if (ok) {
        ok = run_body(I, def, &f, out);
        if (!ok && I->err.kind != TL_E_Interrupt) diag_add_trace(&I->err, n->at);
        I->call_depth--;
    }
    call_frame_end(&f, true);
    return ok;
}

static bool call_value(Ctx *C, Value fn, CallArgs *a, Value *out)
{
    Interp *I = C->I;
    if (!call_enter(C, a->at)) return false;
    bool ok;
    if (fn.kind == V_BUILTIN) {
        a->self = fn.as.bi;
        if (__builtin_expect(graph_tracing != 0, 0) && graph_args_traced(a)) ok = graph_trace_builtin(I, a, out);
        else ok = fn.as.bi->fn(I, a, out);
    } else if (fn.kind == V_FUNC) {
        bool body_ran = false;   /* argument-binding errors already point at this call */
        ok = call_closure(C, fn.as.fn, a, out, &body_ran);
        if (!ok && body_ran && I->err.kind != TL_E_Interrupt) diag_add_trace(&I->err, a->at);
    } else if (fn.kind == V_GRAPH) {
        ok = graph_call(I, fn.as.g, a, out);
    } else {
        ok = interp_error(I, a->at, TypeError, "a %s is not callable", val_kind_name(fn));
    }
    I->call_depth--;
    return ok;
}

bool interp_call(Interp *I, Value fn, int npos, Value *pos, Span at, Value *out)
{
    Ctx C = { .I = I, .globals = I->globals, .frame = NULL };
    CallArgs a = { .npos = npos, .pos = pos, .at = at };
    return call_value(&C, fn, &a, out);
}

/* The function `a.name` refers to: the bound value if callable, else the builtin of that name. */
static bool method_target(Ctx *C, Node *n, Value *fn)
{
    Value *s = slot_of(C, n);
    if (s->kind == V_FUNC || s->kind == V_BUILTIN) {
        *fn = val_retain(*s);
        return true;
    }
    const Builtin *b = builtin_find(n->name);
    if (!b) return interp_error(C->I, n->at, Error, "no function named '%s' (in .%s)", n->name, n->name);
    *fn = (Value){ .kind = V_BUILTIN };
    fn->as.bi = b;
    return true;
}

/* Evaluates call arguments (with an optional receiver first) and calls fn. */
static bool eval_call(Ctx *C, Node *n, Value fn, Value *receiver, Value *out)
{
    int extra = receiver ? 1 : 0;
    int total = n->n + extra;
    Value small[SMALL_ARGS];
    const char *small_names[SMALL_ARGS];
    Value *vals = total <= SMALL_ARGS ? small : malloc(sizeof(Value) * (size_t)total);
    const char **names = total <= SMALL_ARGS ? small_names : malloc(sizeof(char *) * (size_t)total);
    if (!vals || !names) {
        if (vals != small) free(vals);
        if (names != small_names) free((void *)names);
        return interp_error(C->I, n->at, MemoryError, "out of memory");
    }
    int npos = 0, nkw = 0, done = 0;
    bool ok = true;
    if (receiver) vals[npos++] = val_retain(*receiver);
    done = npos;
    /* positional arguments first (the parser keeps them first), then keywords */
    for (int i = 0; i < n->n && ok; i++) {
        Value v;
        if (!eval(C, n->list[i], &v)) { ok = false; break; }
        vals[done++] = v;
        if (n->names && n->names[i]) names[nkw++] = n->names[i];
        else npos++;
    }
    if (ok) {
        CallArgs a = { .npos = npos, .pos = vals, .nkw = nkw, .kwnames = names, .kw = vals + npos, .at = n->at };
        ok = call_value(C, fn, &a, out);
    }
    for (int i = 0; i < done; i++) val_release(vals[i]);
    if (vals != small) free(vals);
    if (names != small_names) free((void *)names);
    return ok;
}

/* ---- closures ---------------------------------------------------------- */

static bool make_closure(Ctx *C, FnDef *def, Value *out)
{
    Closure *c = calloc(1, sizeof(Closure));
    if (!c) return interp_error(C->I, def->at, MemoryError, "out of memory");
    c->refcount = 1;
    c->def = def;
    c->defaults = calloc((size_t)def->nparams + 1, sizeof(Value));
    c->has_default = calloc((size_t)def->nparams + 1, sizeof(bool));
    if (!c->defaults || !c->has_default) {
        free(c->defaults); free(c->has_default); free(c);
        return interp_error(C->I, def->at, MemoryError, "out of memory");
    }
    for (int i = 0; i < def->nparams; i++) {
        c->defaults[i] = val_none();
        if (!def->defaults[i]) continue;
        if (!eval(C, def->defaults[i], &c->defaults[i])) {
            Value v = { .kind = V_FUNC };
            v.as.fn = c;
            val_release(v);
            return false;
        }
        c->has_default[i] = true;
    }
    c->env = C->frame;
    if (c->env) c->env->refcount++;
    c->src = (Source *)def->at.src;
    if (c->src) c->src->refcount++;
    *out = (Value){ .kind = V_FUNC };
    out->as.fn = c;
    return true;
}

/* ---- literals ---------------------------------------------------------- */

static bool eval_list(Ctx *C, Node *n, Value *out)
{
    Value small[SMALL_ARGS];
    Value *items = n->n <= SMALL_ARGS ? small : malloc(sizeof(Value) * (size_t)n->n);
    if (!items) return interp_error(C->I, n->at, MemoryError, "out of memory");
    int done = 0;
    bool ok = true;
    for (; done < n->n; done++)
        if (!eval(C, n->list[done], &items[done])) { ok = false; break; }
    if (ok) ok = literal_tensor(C->I, n->at, done, items, out);
    for (int i = 0; i < done; i++) val_release(items[i]);
    if (items != small) free(items);
    return ok;
}

static bool eval_tuple(Ctx *C, Node *n, Value *out)
{
    Value t = val_tuple_new(n->n);
    if (t.kind != V_TUPLE) return interp_error_rt(C->I, n->at);
    for (int i = 0; i < n->n; i++)
        if (!eval(C, n->list[i], &t.as.tu->items[i])) { val_release(t); return false; }
    *out = t;
    return true;
}

static bool eval_dict(Ctx *C, Node *n, Value *out)
{
    Value d = val_dict_new();
    if (d.kind != V_DICT) return interp_error_rt(C->I, n->at);
    for (int i = 0; i + 1 < n->n; i += 2) {
        Value k, v;
        if (!eval(C, n->list[i], &k)) { val_release(d); return false; }
        if (k.kind != V_STR) {
            val_release(k);
            val_release(d);
            return interp_error(C->I, n->list[i]->at, TypeError, "dict keys must be strings, not %s", val_kind_name(k));
        }
        if (!eval(C, n->list[i + 1], &v)) { val_release(k); val_release(d); return false; }
        bool ok = dict_set(d.as.d, k.as.s->data, k.as.s->len, v);
        val_release(k);
        if (!ok) { val_release(d); return interp_error_rt(C->I, n->at); }
    }
    *out = d;
    return true;
}

/* ---- expressions ------------------------------------------------------- */

static bool eval_truthy(Ctx *C, Node *n, bool *t)
{
    Value v;
    if (!eval(C, n, &v)) return false;
    bool ok = val_truthy(v, t);
    val_release(v);
    if (!ok) return interp_error_rt(C->I, n->at);
    return true;
}

static COLD bool eval_unary(Ctx *C, Node *n, Value *out)
{
    Value a;
    if (!eval(C, n->a, &a)) return false;
    bool ok = arith_unary(C->I, (UnaryOp)n->op, a, n->at, out);
    val_release(a);
    return ok;
}

/* a OP b, releasing both; a's tensor may take the result when the only
   references to it are our `spare` ones (see arith_binary_reusing). */
static COLD bool eval_binary_general(Ctx *C, Node *n, Value a, Value b, Value *out, int64_t spare)
{
    bool ok = arith_binary_reusing(C->I, n->op, a, b, n->at, out, spare);
    val_release(a);
    val_release(b);
    return ok;
}

/* An elementwise expression tree in one pass (fuse.h). 1: done; 0: every
   leaf is a name or number and none holds a tensor, so evaluate as usual;
   -1: error. */
static COLD int eval_fused(Ctx *C, Node *n, Value *out)
{
    FusePlan *p = n->fuse;
    if (fuse_skip(p)) return 0;
    if (p->simple) {
        bool any_tensor = false;
        for (int i = 0; i < p->n && !any_tensor; i++)
            if (p->item[i].kind == FI_LEAF && p->item[i].node->kind == N_NAME)
                any_tensor = slot_of(C, p->item[i].node)->kind == V_TENSOR;
        if (!any_tensor) return 0;
    }
    return fuse_eval(C->I, p, eval_cb, C, out) ? 1 : -1;
}

static COLD bool eval_andor(Ctx *C, Node *n, Value *out)
{
    Value a;
    if (!eval(C, n->a, &a)) return false;
    bool t;
    if (!val_truthy(a, &t)) { val_release(a); return interp_error_rt(C->I, n->a->at); }
    if ((n->kind == N_AND) != t) { *out = a; return true; }
    val_release(a);
    return eval(C, n->b, out);
}

static COLD bool eval_cond(Ctx *C, Node *n, Value *out)
{
    bool t;
    if (!eval_truthy(C, n->b, &t)) return false;
    return eval(C, t ? n->a : n->c, out);
}

static COLD bool eval_call_node(Ctx *C, Node *n, Value *out)
{
    if (n->fuse) {
        int r = eval_fused(C, n, out);
        if (r != 0) return r > 0;
    }
    if (n->spec == SPEC_CALL_POSITIONAL && n->a->kind == N_NAME) {
        const Value *s = slot_of(C, n->a);
        if (s->kind == V_FUNC && direct_callable(s->as.fn->def, n)) {
            Closure *c = s->as.fn;
            c->refcount++;   /* the name may be rebound while the call runs */
            bool ok = call_closure_direct(C, n, c, out);
            if (c->refcount > 2 || (c->refcount == 2 && !c->env)) {
                c->refcount--;   /* what val_release would do, inline: nothing else to free or collect */
            } else {
                Value v = { .kind = V_FUNC };
                v.as.fn = c;
                val_release(v);
            }
            return ok;
        }
    }
    Value fn;
    if (!eval(C, n->a, &fn)) return false;
    bool ok = n->spec == SPEC_CALL_POSITIONAL && fn.kind == V_FUNC && direct_callable(fn.as.fn->def, n)
                  ? call_closure_direct(C, n, fn.as.fn, out)
                  : eval_call(C, n, fn, NULL, out);
    val_release(fn);
    return ok;
}

/* a.f(args) and a.name: f(a, args) and name(a). */
static COLD bool eval_method(Ctx *C, Node *n, Value *out)
{
    Value recv, fn;
    if (!eval(C, n->a, &recv)) return false;
    if (n->kind == N_ATTR && recv.kind == V_ERROR && val_error_attr(recv, n->name, out)) {   /* e.kind, e.line, ... */
        val_release(recv);
        return out->kind != V_UNDEF || interp_error_rt(C->I, n->at);
    }
    if (!method_target(C, n, &fn)) { val_release(recv); return false; }
    bool ok;
    if (n->kind == N_METHOD) {
        ok = eval_call(C, n, fn, &recv, out);
    } else {
        CallArgs a = { .npos = 1, .pos = &recv, .at = n->at };
        ok = call_value(C, fn, &a, out);
    }
    val_release(fn);
    val_release(recv);
    return ok;
}

static COLD bool eval_index(Ctx *C, Node *n, Value *out)
{
    Value base;
    if (!eval(C, n->a, &base)) return false;
    bool ok = subscript_get(C->I, eval_cb, C, base, n, out);
    val_release(base);
    return ok;
}

static COLD bool eval_literal(Ctx *C, Node *n, Value *out)
{
    switch (n->kind) {
    case N_IMAG:
        *out = (Value){ .kind = V_NUM, .dtype = TL_C128, .weak = true };
        out->as.num.c128[0] = 0.0;
        out->as.num.c128[1] = n->fval;
        return true;
    case N_STR:
        *out = val_str(n->str, n->slen);
        return out->kind == V_STR || interp_error_rt(C->I, n->at);
    case N_TRUE: case N_FALSE:
        *out = val_bool(n->kind == N_TRUE);
        out->weak = true;
        return true;
    default:
        *out = val_none();
        return true;
    }
}

/* The expression dispatcher: kept small (hot cases inline, the rest out of line) so each call is cheap. */
static bool eval(Ctx *C, Node *n, Value *out)
{
    switch (n->kind) {
    case N_INT: case N_FLOAT: case N_NAME: return eval_operand(C, n, out);
    case N_BINARY: {
        if (n->fuse) {
            int r = eval_fused(C, n, out);
            if (r != 0) return r > 0;
        }
        Value a, b;
        if (!eval_operand(C, n->a, &a)) return false;
        if (!eval_operand(C, n->b, &b)) { val_release(a); return false; }
        if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(n->op, a, b, out)) return true;
        return eval_binary_general(C, n, a, b, out, 1);   /* a temporary of ours may take the result */
    }
    case N_IMAG: case N_STR: case N_TRUE: case N_FALSE: case N_NONE: return eval_literal(C, n, out);
    case N_UNARY: return eval_unary(C, n, out);
    case N_AND: case N_OR: return eval_andor(C, n, out);
    case N_COND: return eval_cond(C, n, out);
    case N_CALL: return eval_call_node(C, n, out);
    case N_METHOD: case N_ATTR: return eval_method(C, n, out);
    case N_INDEX: return eval_index(C, n, out);
    case N_LIST: return eval_list(C, n, out);
    case N_TUPLE: return eval_tuple(C, n, out);
    case N_DICT: return eval_dict(C, n, out);
    case N_LAMBDA: return make_closure(C, n->fn, out);
    case N_SLICE: case N_ELLIPSIS:
        return interp_error(C->I, n->at, SyntaxError, "slices and ... are only allowed inside [ ]");
    default:
        return interp_error(C->I, n->at, TypeError, "this statement has no value");
    }
}

/* ---- statements -------------------------------------------------------- */

/* Assigns v (owned) to a target expression: a name, an index, or a tuple of targets. */
static COLD bool assign_to(Ctx *C, Node *t, Value v)
{
    switch (t->kind) {
    case N_NAME:
        store_slot(slot_of(C, t), v);
        return true;
    case N_INDEX: {
        Value base;
        if (!eval(C, t->a, &base)) { val_release(v); return false; }
        bool ok = subscript_set(C->I, eval_cb, C, base, t, v);
        val_release(base);
        val_release(v);
        return ok;
    }
    case N_TUPLE: {
        int n = t->n;
        if (v.kind == V_TUPLE) {
            if (v.as.tu->n != n) {
                interp_error(C->I, t->at, ValueError, "cannot unpack a tuple of %d values into %d names", v.as.tu->n, n);
                val_release(v);
                return false;
            }
            for (int i = 0; i < n; i++)
                if (!assign_to(C, t->list[i], val_retain(v.as.tu->items[i]))) { val_release(v); return false; }
            val_release(v);
            return true;
        }
        if (v.kind == V_TENSOR && v.as.t->shape[0] == n) {
            for (int i = 0; i < n; i++) {
                tl_tensor *row = tl_view_index(v.as.t, 0, i);
                if (!row) { val_release(v); return interp_error_rt(C->I, t->at); }
                if (!assign_to(C, t->list[i], val_from_tensor(row))) { val_release(v); return false; }
            }
            val_release(v);
            return true;
        }
        interp_error(C->I, t->at, TypeError, "cannot unpack a %s into %d names", val_kind_name(v), n);
        val_release(v);
        return false;
    }
    default:
        val_release(v);
        return interp_error(C->I, t->at, SyntaxError, "cannot assign to this expression");
    }
}

/* x op= e: tensors update in place (result cast to x's dtype), everything else rebinds. */
static COLD bool exec_opassign(Ctx *C, Node *n)
{
    Interp *I = C->I;
    Node *t = n->a;
    int op = n->op;
    Value rhs;
    if (!eval(C, n->b, &rhs)) return false;
    if (t->kind == N_INDEX) {
        Value base, cur, res;
        if (!eval(C, t->a, &base)) { val_release(rhs); return false; }
        bool ok = subscript_get(I, eval_cb, C, base, t, &cur);
        if (ok) {
            ok = arith_binary(I, op, cur, rhs, n->at, &res);
            val_release(cur);
            if (ok) {
                ok = subscript_set(I, eval_cb, C, base, t, res);
                val_release(res);
            }
        }
        val_release(base);
        val_release(rhs);
        return ok;
    }
    Value *s = slot_of(C, t);
    if (s->kind == V_UNDEF) { val_release(rhs); return interp_error(I, t->at, Error, "name '%s' is not defined", t->name); }
    if (s->kind == V_TRACE) {   /* eager code would write the tensor's own elements, which a graph does not own */
        val_release(rhs);
        return interp_error(I, n->at, TypeError, "a graph cannot update a traced tensor in place (write x = x %s y)", op_binary_symbol(op));
    }
    if (s->kind == V_TENSOR && s->as.t->readonly) {   /* += writes in place: a broadcast view cannot take it */
        val_release(rhs);
        return interp_error(I, n->at, ValueError, "cannot write to a broadcast (read-only) view; copy() it first");
    }
    if (s->kind == V_TENSOR && op != OP_MATMUL) {
        tl_tensor *x = s->as.t;
        tl_dtype dt;
        bool ok = val_is_numeric(rhs) && arith_result_dtype(I, (tl_binop)op, *s, rhs, n->at, &dt);
        if (ok && !arith_in_place_fits(I, op, dt, x, n->at)) {
            val_release(rhs);
            return false;
        }
        if (ok) {
            tl_tensor *r = val_to_tensor(rhs);
            ok = r && tl_binary_into((tl_binop)op, x, x, r, dt) == 0;
            if (r) tl_tensor_release(r);
            val_release(rhs);
            return ok || interp_error_rt(I, n->at);
        }
    }
    if (s->kind == V_TENSOR && op == OP_MATMUL) {
        bool ok = arith_matmul_in_place(I, *s, rhs, n->at);
        val_release(rhs);
        return ok;
    }
    Value res;
    Value cur = val_retain(*s);
    bool ok = arith_binary(I, op, cur, rhs, n->at, &res);
    val_release(cur);
    val_release(rhs);
    if (!ok) return false;
    store_slot(slot_of(C, t), res);
    return true;
}

/* True when a call node passes any keyword argument. */
static bool call_has_keywords(const Node *call)
{
    for (int i = 0; call->names && i < call->n; i++)
        if (call->names[i]) return true;
    return false;
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

/* `x = a OP b` over f64/i64 numbers in names or literals, the statement of scalar
   loops, run by a loop without going through exec: the same values and the same
   element functions as exec's N_ASSIGN case. False, having run nothing, for any
   other statement or operands (exec then runs it). */
static HOT_INLINE bool assign_scalar_quick(Ctx *C, const Node *n)
{
    if (n->spec != SPEC_ASSIGN_ARITH || n->b->fuse) return false;
    const Node *rhs = n->b;
    Value a, b, v;
    if (!operand_number(C, rhs->a, &a) || !operand_number(C, rhs->b, &b) || !arith_scalar_quick(rhs->op, a, b, &v))
        return false;
    store_slot(slot_of(C, n->a), v);
    return true;
}

/* Runs a loop body: its statements directly when it is a block (one call level fewer per iteration). */
static HOT_INLINE Exec exec_body(Ctx *C, Node *body)
{
    if (body->kind != N_BLOCK) return exec(C, body);
    for (int i = 0; i < body->n; i++) {
        if (assign_scalar_quick(C, body->list[i])) continue;
        Exec x = exec(C, body->list[i]);
        if (x != X_NORMAL) return x;
    }
    return X_NORMAL;
}

/* Evaluates range(stop), range(start, stop) or range(start, stop, step) arguments as integers. */
static bool range_bounds(Ctx *C, Node *call, int64_t *start, int64_t *stop, int64_t *step)
{
    if (call->n < 1 || call->n > 3) return interp_error(C->I, call->at, TypeError, "range() takes 1 to 3 arguments, got %d", call->n);
    int64_t v[3];
    for (int i = 0; i < call->n; i++) {
        Value x;
        if (!eval(C, call->list[i], &x)) return false;
        bool ok = x.kind == V_NUM && (tl_is_int((tl_dtype)x.dtype) || x.dtype == TL_BOOL);
        if (ok) v[i] = tl_scalar_to_i64(x.as.num.bytes, (tl_dtype)x.dtype);
        val_release(x);
        if (!ok) return interp_error(C->I, call->list[i]->at, TypeError, "range() arguments must be integers");
    }
    *start = call->n == 1 ? 0 : v[0];
    *stop = call->n == 1 ? v[0] : v[1];
    *step = call->n == 3 ? v[2] : 1;
    if (*step == 0) return interp_error(C->I, call->at, ValueError, "range() step must not be zero");
    return true;
}

/* Iterates a for loop over range(...) lazily, or over a tensor's first axis, a tuple, a dict's keys. */
/* Number of values range(start, stop, step) yields, without signed overflow for any bounds. */
static uint64_t range_count(int64_t start, int64_t stop, int64_t step)
{
    if (step > 0 && stop > start) {
        uint64_t span = (uint64_t)stop - (uint64_t)start, st = (uint64_t)step;
        return span / st + (span % st != 0);
    }
    if (step < 0 && start > stop) {
        uint64_t span = (uint64_t)start - (uint64_t)stop, st = 0 - (uint64_t)step;
        return span / st + (span % st != 0);
    }
    return 0;
}

/* Runs one iteration's body; returns X_NORMAL to go on, X_BREAK to stop quietly, else what to return. */
static HOT_INLINE Exec loop_step(Ctx *C, Node *n, Value item)
{
    store_slot(slot_of(C, n), item);
    Exec x = exec_body(C, n->b);
    return x == X_CONTINUE ? X_NORMAL : x;
}

/* Where a quick operand of `x = a OP b` lives during a loop: its slot, or k holding the literal. */
static const Value *operand_place(Ctx *C, const Node *n, Value *k)
{
    if (n->kind == N_NAME) return slot_of(C, n);
    *k = n->kind == N_INT ? val_i64(n->ival) : val_f64(n->fval);
    k->weak = true;
    return k;
}

/* for i in range(...) { x = a OP b } (SPEC_ASSIGN_ARITH): the slots are found once, as
   no such statement can move them (frames never grow, and the global table grows only
   when new text is resolved, which an operator cannot cause); each iteration reads the
   two numbers and stores the result; x = x OP y over tensors goes straight to
   arith_tensor_over (update_in_place's case), and anything else runs the statement
   through exec. */
static Exec exec_for_range_arith(Ctx *C, Node *n, Node *body, int64_t start, int64_t step, uint64_t count)
{
    const Node *rhs = body->b;
    int op = rhs->op;
    Value ka, kb;
    const Value *pa = operand_place(C, rhs->a, &ka), *pb = operand_place(C, rhs->b, &kb);
    Value *target = slot_of(C, body->a), *var = slot_of(C, n);
    for (uint64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        store_slot(var, val_i64((int64_t)((uint64_t)start + i * (uint64_t)step)));
        Value a = *pa, b = *pb, v;
        if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(op, a, b, &v)) {
            store_slot(target, v);
            continue;
        }
        if (pa == target && a.kind == V_TENSOR && b.kind == V_TENSOR) {   /* x = x OP y: update_in_place's case */
            int over = arith_tensor_over(C->I, op, a.as.t, b.as.t, rhs->at, 1);
            if (over > 0) continue;
            if (over < 0) return X_ERROR;
        }
        if (exec(C, body) != X_NORMAL) return X_ERROR;   /* an assignment either runs or fails */
    }
    return X_NORMAL;
}

/* for i in range(...): a tight loop with no sequence and no allocation. A
   local loop variable's slot cannot move while the loop runs (a frame's slots
   are fixed), and a one-statement body needs no block walk. */
static Exec exec_for_range(Ctx *C, Node *n, int64_t start, int64_t step, uint64_t count)
{
    Node *body = n->b;
    if (body->kind == N_BLOCK && body->n == 1) body = body->list[0];
    if (body->spec == SPEC_ASSIGN_ARITH && !body->b->fuse) return exec_for_range_arith(C, n, body, start, step, count);
    Value *local = n->depth >= 0 ? slot_of(C, n) : NULL;
    for (uint64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        Value item = val_i64((int64_t)((uint64_t)start + i * (uint64_t)step));
        store_slot(local ? local : slot_of(C, n), item);
        if (assign_scalar_quick(C, body)) continue;
        Exec x = body->kind == N_BLOCK ? exec_body(C, body) : exec(C, body);
        if (x == X_BREAK) return X_NORMAL;
        if (x != X_NORMAL && x != X_CONTINUE) return x;
    }
    return X_NORMAL;
}

/* for x in a tensor (views along axis 0), a tuple, or a dict (its keys). */
static Exec exec_for_seq(Ctx *C, Node *n, Value seq)
{
    Interp *I = C->I;
    int64_t count;
    switch (seq.kind) {
    case V_TENSOR: count = seq.as.t->shape[0]; break;
    case V_TUPLE: count = seq.as.tu->n; break;
    case V_DICT: count = seq.as.d->n; break;
    default: return interp_error(I, n->a->at, TypeError, "cannot iterate over a %s", val_kind_name(seq)), X_ERROR;
    }
    for (int64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        Value item;
        if (seq.kind == V_TENSOR) {
            tl_tensor *row = tl_view_index(seq.as.t, 0, i);
            if (!row) return interp_error_rt(I, n->a->at), X_ERROR;
            item = val_from_tensor(row);
        } else if (seq.kind == V_TUPLE) {
            item = val_retain(seq.as.tu->items[i]);
        } else {
            if (i >= seq.as.d->n) break;   /* the body shrank the dict */
            item = val_str(seq.as.d->keys[i]->data, seq.as.d->keys[i]->len);
        }
        Exec x = loop_step(C, n, item);
        if (x == X_BREAK) return X_NORMAL;
        if (x != X_NORMAL) return x;
    }
    return X_NORMAL;
}

/* A for loop: range(...) runs lazily; anything else is evaluated and iterated. */
static COLD Exec exec_for(Ctx *C, Node *n)
{
    Node *it = n->a;
    if (it->kind == N_CALL && it->a->kind == N_NAME && !call_has_keywords(it)) {
        Value f;
        if (!eval(C, it->a, &f)) return X_ERROR;
        bool is_range = f.kind == V_BUILTIN && strcmp(f.as.bi->name, "range") == 0;
        val_release(f);
        if (is_range) {
            int64_t start, stop, step;
            if (!range_bounds(C, it, &start, &stop, &step)) return X_ERROR;
            return exec_for_range(C, n, start, step, range_count(start, stop, step));
        }
    }
    Value seq;
    if (!eval(C, it, &seq)) return X_ERROR;
    Exec x = exec_for_seq(C, n, seq);
    val_release(seq);
    return x;
}

static COLD Exec exec_expr_stmt(Ctx *C, Node *n)
{
    Interp *I = C->I;
    Value v;
    if (!eval(C, n->a, &v)) return X_ERROR;
    if (n->echo && v.kind != V_NONE && I->echo_enabled) {
        if (!interp_echo(I, v, I->out)) { val_release(v); return interp_error_rt(I, n->at), X_ERROR; }
        val_release(I->last);
        I->last = v;
        return X_NORMAL;
    }
    val_release(v);
    return X_NORMAL;
}

static COLD Exec exec_fndef(Ctx *C, Node *n)
{
    Value f;
    if (!make_closure(C, n->fn, &f)) return X_ERROR;
    store_slot(slot_of(C, n), f);
    return X_NORMAL;
}

static COLD Exec exec_while(Ctx *C, Node *n)
{
    for (;;) {
        if (interrupted(C, n->at)) return X_ERROR;
        bool t;
        if (!eval_truthy(C, n->a, &t)) return X_ERROR;
        if (!t) return X_NORMAL;
        Exec x = exec(C, n->b);
        if (x == X_BREAK) return X_NORMAL;
        if (x == X_RETURN || x == X_ERROR) return x;
    }
}

static COLD Exec exec_return(Ctx *C, Node *n)
{
    if (!C->frame) return interp_error(C->I, n->at, SyntaxError, "return outside a function"), X_ERROR;
    if (n->a) {
        if (!eval(C, n->a, &C->ret)) return X_ERROR;
    } else {
        C->ret = val_none();
    }
    return X_RETURN;
}

/* try { body } catch e { handler }: an error in body that a program may catch (not an
   interrupt, not a syntax error) binds e to an error value and runs handler. */
static COLD Exec exec_try(Ctx *C, Node *n)
{
    Exec x = exec(C, n->a);
    Diag *d = &C->I->err;
    if (x != X_ERROR || !tl_errkind_catchable(d->kind) || tl_interrupt_flag) return x;
    Value e = val_error_new(d->kind, span_name(&d->at), d->at.line, d->at.col, d->msg);
    if (e.kind == V_UNDEF) return interp_error_rt(C->I, n->at), X_ERROR;
    store_slot(slot_of(C, n), e);
    return exec(C, n->b);
}

/* How many references to a's tensor `x = a OP b` may spend on reusing it: ours,
   plus x's own when a was read from x and x still holds it (x is about to be
   overwritten, so its old tensor can take the result in place). */
static int64_t reusable_refs(Ctx *C, Node *operand, const Value *target, Value a)
{
    if (a.kind != V_TENSOR) return 0;
    if (operand->kind == N_NAME && slot_of(C, operand) == target && target->kind == V_TENSOR &&
        target->as.t == a.as.t)
        return 2;
    return 1;
}

/* x = x OP y for tensors x and y, with x's tensor held by x alone: computed
   over x's own elements, without touching a reference count (nothing else
   can see the old value). 1: done; 0: not this case; -1: error. */
static HOT_INLINE int update_in_place(Ctx *C, Node *n)
{
    Node *rhs = n->b;
    if (rhs->a->kind != N_NAME || rhs->b->kind != N_NAME) return 0;
    Value *x = slot_of(C, rhs->a), *y = slot_of(C, rhs->b);
    if (x->kind != V_TENSOR || y->kind != V_TENSOR || x != slot_of(C, n->a)) return 0;
    return arith_tensor_over(C->I, rhs->op, x->as.t, y->as.t, rhs->at, 1);
}

/* The statement dispatcher: blocks, assignments and ifs inline; the rest out of line. */
static Exec exec(Ctx *C, Node *n)
{
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->n; i++) {
            Exec x = exec(C, n->list[i]);
            if (x != X_NORMAL) return x;
        }
        return X_NORMAL;
    case N_ASSIGN: {
        Value v;
        Node *rhs = n->b;
        if (rhs->kind == N_BINARY && !rhs->fuse && n->a->kind == N_NAME) {   /* x = a OP b: the commonest statement */
            int over = update_in_place(C, n);
            if (over != 0) return over > 0 ? X_NORMAL : X_ERROR;
            Value a, b;
            if (!eval_operand(C, rhs->a, &a)) return X_ERROR;
            if (!eval_operand(C, rhs->b, &b)) { val_release(a); return X_ERROR; }
            Value *target = slot_of(C, n->a);
            if (!(a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(rhs->op, a, b, &v)) &&
                !eval_binary_general(C, rhs, a, b, &v, reusable_refs(C, rhs->a, target, a)))
                return X_ERROR;
            store_slot(target, v);
            return X_NORMAL;
        }
        if (!eval(C, rhs, &v)) return X_ERROR;
        if (n->a->kind == N_NAME) {   /* the common case, without assign_to's general machinery */
            store_slot(slot_of(C, n->a), v);
            return X_NORMAL;
        }
        return assign_to(C, n->a, v) ? X_NORMAL : X_ERROR;
    }
    case N_IF: {
        bool t;
        if (!eval_truthy(C, n->a, &t)) return X_ERROR;
        if (t) return exec(C, n->b);
        return n->c ? exec(C, n->c) : X_NORMAL;
    }
    case N_EXPR_STMT: return exec_expr_stmt(C, n);
    case N_OPASSIGN: return exec_opassign(C, n) ? X_NORMAL : X_ERROR;
    case N_FNDEF: return exec_fndef(C, n);
    case N_WHILE: return exec_while(C, n);
    case N_FOR: return exec_for(C, n);
    case N_BREAK: return X_BREAK;
    case N_CONTINUE: return X_CONTINUE;
    case N_RETURN: return exec_return(C, n);
    case N_TRY: return exec_try(C, n);
    default: {
        Value v;
        if (!eval(C, n, &v)) return X_ERROR;
        val_release(v);
        return X_NORMAL;
    }
    }
}

bool eval_program(Interp *I, Node *root)
{
    char base;
    bool outermost = I->stack_base == NULL;
    if (outermost) I->stack_base = &base;
    Ctx C = { .I = I, .globals = I->globals, .frame = NULL };
    Exec x = exec(&C, root);
    if (outermost) I->stack_base = NULL;
    if (x == X_BREAK || x == X_CONTINUE) return interp_error(I, root->at, SyntaxError, "break or continue outside a loop");
    return x != X_ERROR;
}
