/* call.c — calls and closures: argument binding, frames (on the C stack when nothing captures them), methods */
#include <stdlib.h>
#include <string.h>

#include "eval_int.h"
#include "fuse.h"
#include "graph.h"
#include "hint.h"
#include "suggest.h"

/* ---- calls ------------------------------------------------------------- */


/* Ends a call's frame: a C-stack frame releases its slots (nothing else can refer to
   it: only closures keep frames, and its function makes none); a heap frame its reference. */
static HOT_INLINE void call_frame_end(Frame *f, bool on_stack)
{
    if (!on_stack) {
        f->running = false;
        frame_release(f);
        return;
    }
    for (int i = 0; i < f->nslots; i++) slot_release(&f->slots[i]);
}

/* Runs a function's body in frame f (its arguments bound); *out is its value. */
static HOT_INLINE bool run_body(Interp *I, FnDef *def, Frame *f, Value *out)
{
    Ctx inner = { .I = I, .globals = I->globals, .frame = f, .ret = val_none() };
    if (def->body_is_expr) return eval_expr(&inner, def->body, out);
    Exec x = exec_stmt(&inner, def->body);
    if (x == X_ERROR) return false;
    if (x == X_RETURN) *out = inner.ret;
    else if (x == X_BREAK || x == X_CONTINUE) return interp_error(I, def->at, SyntaxError, "break or continue outside a loop");
    else *out = val_none();
    return true;
}

/* Fills def's *rest with a tuple of the positional arguments past its fixed parameters, and
   its **names with an empty dict (call_closure adds the keywords no parameter takes). */
static bool bind_rest_names(Interp *I, const FnDef *def, const CallArgs *a, Frame *f)
{
    int nfixed = fndef_fixed_params(def), npos = fndef_positional_params(def);
    if (def->has_rest) {
        int extra = a->npos > npos ? a->npos - npos : 0;
        Value t = val_tuple_new(extra);
        if (t.kind != V_TUPLE) return interp_error_rt(I, a->at);
        for (int i = 0; i < extra; i++) t.as.tu->items[i] = val_retain(a->pos[npos + i]);
        f->slots[nfixed] = t;
    }
    if (def->has_names) {
        Value d = val_dict_new();
        if (d.kind != V_DICT) return interp_error_rt(I, a->at);
        f->slots[def->nparams - 1] = d;
    }
    return true;
}

/* Binds arguments to parameters in a new frame and runs the body. */
static bool call_closure(Ctx *C, Closure *fn, CallArgs *a, Value *out, bool *body_ran)
{
    Interp *I = C->I;
    FnDef *def = fn->def;
    /* The caller holds fn, and fn its defining frame, for the whole call: a stack
       frame's parent needs no reference of its own. */
    Value stack_slots[FRAME_STACK_SLOTS];
    Frame stack_frame;
    bool on_stack = def->stack_frame;
    int nfixed = fndef_fixed_params(def), npos = fndef_positional_params(def);
    if (a->npos > npos && !def->has_rest)
        return interp_error(I, a->at, TypeError, "%s() takes %d %sargument%s but %d %s given", def->name, npos,
                            def->nkwonly ? "positional " : "", npos == 1 ? "" : "s", a->npos, a->npos == 1 ? "was" : "were");
    if (!interp_check_repeated(I, a, def->name, npos, (const char *const *)def->params)) return false;
    Frame *f = &stack_frame;
    if (on_stack) {
        stack_frame = (Frame){ .refcount = 1, .parent = fn->env, .nslots = def->nslots, .cap = def->nslots,
                               .slots = stack_slots };
        for (int i = 0; i < def->nslots; i++) stack_slots[i].kind = V_UNDEF;
    } else if (!(f = frame_new(fn->env, def->nslots))) {
        return interp_error_rt(I, a->at);
    } else
        f->running = true;
    for (int i = 0; i < a->npos && i < npos; i++) f->slots[i] = val_retain(a->pos[i]);
    if (!bind_rest_names(I, def, a, f)) {
        call_frame_end(f, on_stack);
        return false;
    }
    for (int k = 0; k < a->nkw; k++) {
        int p = -1;
        for (int i = 0; i < nfixed; i++)
            if (strcmp(def->params[i], a->kwnames[k]) == 0) p = i;
        if (p < 0 && def->has_names) {   /* into **names */
            if (!dict_set(f->slots[def->nparams - 1].as.d, a->kwnames[k], strlen(a->kwnames[k]), val_retain(a->kw[k]))) {
                call_frame_end(f, on_stack);
                return interp_error_rt(I, a->at);
            }
            continue;
        }
        if (p < 0) {
            call_frame_end(f, on_stack);
            char hint[160];
            tl_suggest_among(a->kwnames[k], (const char *const *)def->params, nfixed, '\'', hint, sizeof hint);
            return interp_error(I, a->at, TypeError, "%s() got an unexpected keyword argument '%s'%s", def->name, a->kwnames[k], hint);
        }
        val_release(f->slots[p]);   /* only a repeated keyword gets here twice; the parser and eval_call_splat refuse it */
        f->slots[p] = val_retain(a->kw[k]);
    }
    for (int i = 0; i < def->nparams; i++) {
        if (f->slots[i].kind != V_UNDEF) continue;
        if (!fn->has_default[i]) {
            call_frame_end(f, on_stack);
            return interp_error(I, a->at, TypeError, "%s() missing %sargument '%s'", def->name,
                                i >= npos && i < nfixed ? "keyword-only " : "", def->params[i]);
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
    if (++I->call_depth > MAX_CALL_DEPTH || (uintptr_t)&here < I->stack_floor) {
        I->call_depth--;
        return interp_error(I, at, RecursionError, "recursion too deep (more than %d nested calls)", MAX_CALL_DEPTH);
    }
    if (interrupted(C, at)) { I->call_depth--; return false; }
    return true;
}

/* True when a call of def can take call's arguments straight into a C-stack frame. */
static HOT_INLINE bool direct_callable(const FnDef *def, const Node *call)
{
    return def->direct_arity == call->n;   /* (-1 for a heap frame, *rest or **names) */
}

/* f(args...) for a closure f that makes no closures and takes exactly these positional
   arguments (SPEC_CALL_POSITIONAL): the arguments are evaluated straight into the slots
   of a frame on the C stack, with no argument list, keyword matching or heap frame.
   Same order and errors as call_value: arguments first, then the depth and interrupt
   checks, then the body, whose errors get this call site in their trace. */
static HOT_INLINE bool call_closure_direct(Ctx *C, Node *n, Closure *fn, Value *out)
{
    Interp *I = C->I;
    FnDef *def = fn->def;
    Value slots[FRAME_STACK_SLOTS];
    int nargs = n->n;
    for (int i = 0; i < nargs; i++)
        if (!eval_operand(C, n->list[i], &slots[i])) {
            while (i--) val_release(slots[i]);
            return false;
        }
    int nslots = def->nslots;
    for (int i = nargs; i < nslots; i++) slots[i].kind = V_UNDEF;
    Frame f = { .refcount = 1, .parent = fn->env, .nslots = nslots, .cap = nslots, .slots = slots };
    bool ok = call_enter(C, n->at);
    if (ok) {
        if (def->body_is_expr) {   /* no return to catch: the caller's context, with this frame, will do */
            Frame *caller = C->frame;
            C->frame = &f;
            ok = eval_expr(C, def->body, out);
            C->frame = caller;
        } else {
            ok = run_body(I, def, &f, out);
        }
        if (!ok && I->err.kind != TL_E_Interrupt) diag_add_trace(&I->err, n->at);
        I->call_depth--;
    }
    for (int i = 0; i < nslots; i++) slot_release(&slots[i]);   /* call_frame_end's stack case */
    return ok;
}

/* Calls a function value (builtin, closure or graph) with evaluated arguments. */
static bool call_value(Ctx *C, Value fn, CallArgs *a, Value *out)
{
    Interp *I = C->I;
    if (!call_enter(C, a->at)) return false;
    bool ok;
    if (fn.kind == V_BUILTIN) {
        a->self = fn.as.bi;
        if (__builtin_expect(graph_tracing != 0, 0) && graph_args_traced(a)) ok = graph_trace_builtin(I, a, out);
        else if (!(ok = builtin_call(I, a, out))) graph_explain_failure(I, a);   /* a traced value kept from f? */
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

/* Calls fn with positional arguments from outside the evaluator (builtins, graphs). */
bool interp_call(Interp *I, Value fn, int npos, Value *pos, Span at, Value *out)
{
    Ctx C = { .I = I, .globals = I->globals, .frame = NULL };
    CallArgs a = { .npos = npos, .pos = pos, .at = at };
    ValOwner *before = val_owner_enter(&I->owner);
    bool ok = call_value(&C, fn, &a, out);
    val_owner_leave(before);
    return ok;
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
    if (!b) {
        char hint[320];
        return interp_error(C->I, n->at, Error, "no function named '%s' (in .%s)%s", n->name, n->name, hint_name(C->I, n, hint, sizeof hint));
    }
    *fn = (Value){ .kind = V_BUILTIN };
    fn->as.bi = b;
    return true;
}

/* A growing array of argument values (and, for keywords, their names). */
typedef struct ArgVec {
    Value *v;
    const char **names;
    int n, cap;
} ArgVec;

/* Appends v (its reference moves in) and its name (keywords); false, v released, when the call
   would have more arguments than a call holds or there is no memory. */
static bool argvec_push(ArgVec *a, Value v, const char *name)
{
    if (a->n == a->cap) {
        int cap = a->cap ? a->cap * 2 : 16;
        Value *nv = a->n < (1 << 28) ? realloc(a->v, (size_t)cap * sizeof *nv) : NULL;
        if (nv) a->v = nv;
        const char **nn = nv ? realloc((void *)a->names, (size_t)cap * sizeof *nn) : NULL;
        if (nn) a->names = nn;
        if (!nv || !nn) {
            val_release(v);
            tl_seterr(MemoryError, "the arguments of one call are too large (out of memory, or over 2^28)");
            return false;
        }
        a->cap = cap;
    }
    a->v[a->n] = v;
    a->names[a->n++] = name;
    return true;
}

/* Orders keyword indices by name (eval_call_splat's check for a name given twice). */
static int cmp_kw_names(const void *x, const void *y, void *names)
{
    return strcmp(((const char **)names)[*(const int *)x], ((const char **)names)[*(const int *)y]);
}

/* The keyword argument given twice among a's names (through **d), or NULL. */
static const char *repeated_keyword(const ArgVec *a)
{
    int *idx = a->n > 1 ? malloc((size_t)a->n * sizeof *idx) : NULL;
    if (!idx) return NULL;
    for (int i = 0; i < a->n; i++) idx[i] = i;
    qsort_r(idx, (size_t)a->n, sizeof *idx, cmp_kw_names, (void *)a->names);
    const char *dup = NULL;
    for (int i = 1; i < a->n && !dup; i++)
        if (strcmp(a->names[idx[i - 1]], a->names[idx[i]]) == 0) dup = a->names[idx[i]];
    free(idx);
    return dup;
}

/* eval_call for a call with *xs or **d among its arguments (Node.splat): each *xs gives its
   items as positional arguments in place, each **d its entries as keyword arguments (d stays
   held while the call runs: the names are its keys); a keyword given twice is an error. */
static COLD bool eval_call_splat(Ctx *C, Node *n, Value fn, Value *receiver, Value *out)
{
    Interp *I = C->I;
    ArgVec pos = { 0 }, kw = { 0 }, held = { 0 };
    bool ok = !receiver || argvec_push(&pos, val_retain(*receiver), NULL) || interp_error_rt(I, n->at);
    for (int i = 0; i < n->n && ok; i++) {
        Node *e = n->list[i];
        Value v;
        if (!eval_expr(C, e->kind == N_STARARG || e->kind == N_STARSTAR ? e->a : e, &v)) { ok = false; break; }
        if (e->kind == N_STARARG) {
            Value items;
            if (!val_iter_list(v, &items)) {   /* not iterable, or too many items for memory */
                ok = tl_errkind_last() == TL_E_TypeError
                         ? interp_error(I, e->at, TypeError, "argument after * must be iterable, not a %s", val_kind_name(v))
                         : interp_error_rt(I, e->at);
                val_release(v);
                break;
            }
            val_release(v);
            for (int64_t k = 0; k < items.as.l->n && ok; k++) ok = argvec_push(&pos, val_retain(items.as.l->items[k]), NULL) || interp_error_rt(I, n->at);
            val_release(items);
        } else if (e->kind == N_STARSTAR) {
            if (v.kind != V_DICT) {
                ok = interp_error(I, e->at, TypeError, "argument after ** must be a dict, not a %s", val_kind_name(v));
                val_release(v);
                break;
            }
            Dict *d = v.as.d;
            ok = argvec_push(&held, v, NULL) || interp_error_rt(I, n->at);
            for (int k = 0; k < d->n && ok; k++) ok = argvec_push(&kw, val_retain(d->vals[k]), d->keys[k]->data) || interp_error_rt(I, n->at);
        } else if (n->names && n->names[i]) {
            ok = argvec_push(&kw, v, n->names[i]) || interp_error_rt(I, n->at);
        } else {
            ok = argvec_push(&pos, v, NULL) || interp_error_rt(I, n->at);
        }
    }
    const char *dup = ok ? repeated_keyword(&kw) : NULL;
    if (dup) ok = interp_error(I, n->at, TypeError, "got multiple values for keyword argument '%s'", dup);
    if (ok) {
        CallArgs a = { .npos = pos.n, .pos = pos.v, .nkw = kw.n, .kwnames = kw.names, .kw = kw.v, .at = n->at };
        ok = call_value(C, fn, &a, out);
    }
    ArgVec *all[] = { &pos, &kw, &held };
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < all[j]->n; i++) val_release(all[j]->v[i]);
        free(all[j]->v);
        free((void *)all[j]->names);
    }
    return ok;
}

/* Evaluates call arguments (with an optional receiver first) and calls fn. */
static bool eval_call(Ctx *C, Node *n, Value fn, Value *receiver, Value *out)
{
    if (n->splat) return eval_call_splat(C, n, fn, receiver, out);
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
        if (!eval_expr(C, n->list[i], &v)) { ok = false; break; }
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

/* A function value for def closing over the current frame (its defaults evaluated now). */
bool make_closure(Ctx *C, FnDef *def, Value *out)
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
        if (!eval_expr(C, def->defaults[i], &c->defaults[i])) {
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


/* ---- call nodes -------------------------------------------------------- */

/* f(args...) through an argument list (keywords, builtins, any callee expression). */
static COLD bool eval_call_general(Ctx *C, Node *n, Value *out)
{
    Value fn;
    if (!eval_expr(C, n->a, &fn)) return false;
    bool ok = n->spec == SPEC_CALL_POSITIONAL && fn.kind == V_FUNC && direct_callable(fn.as.fn->def, n)
                  ? call_closure_direct(C, n, fn.as.fn, out)
                  : eval_call(C, n, fn, NULL, out);
    val_release(fn);
    return ok;
}

/* Lets go of the reference a call took on the closure it runs. */
static HOT_INLINE void call_unhold(Closure *c)
{
    if (c->refcount > 2 || (c->refcount == 2 && !c->env)) {
        c->refcount--;   /* what val_release would do, inline: nothing else to free or collect */
    } else {
        Value v = { .kind = V_FUNC };
        v.as.fn = c;
        val_release(v);
    }
}

/* call_closure_direct for the closure c a name holds, c held for the call
   (the name may be rebound while the call runs). */
static bool call_direct_held(Ctx *C, Node *n, Closure *c, Value *out)
{
    c->refcount++;
    bool ok = call_closure_direct(C, n, c, out);
    call_unhold(c);
    return ok;
}

/* f(args...) with positional arguments only, f a name (SPEC_CALL_POSITIONAL, no fuse plan):
   a closure that takes exactly them runs in a C-stack frame, anything else goes the general way. */
bool eval_call_positional(Ctx *C, Node *n, Value *out)
{
    const Value *s = slot_of(C, n->a);
    if (s->kind != V_FUNC || !direct_callable(s->as.fn->def, n)) return eval_call_general(C, n, out);
    return call_direct_held(C, n, s->as.fn, out);
}

/* f(a1, ..., aK) for a global name f and K (1 to 3) positional arguments, K a constant
   here (eval_call_global1..3). A closure f with a C-stack frame taking exactly K parameters
   (FnDef.direct_arity) runs as eval_call_positional would run it, and when its body is one
   expression over just them (FnDef.expr_direct: the checks call_closure_direct makes per
   call were made once by the resolver) with the argument, frame and release loops unrolled.
   Anything else goes to eval_call_positional with nothing run yet. Same order, errors and
   trace as it: f is read and held first, then the arguments, then the depth and interrupt
   checks, then the body. */
static HOT_INLINE bool call_global_k(Ctx *C, Node *n, Value *out, const int K, const bool simple_args)
{
    const Value *s = &C->globals->slots[n->a->slot];
    Closure *c;
    if (__builtin_expect(s->kind != V_FUNC || (c = s->as.fn)->def->direct_arity != K, 0))
        return eval_call_positional(C, n, out);
    uint8_t body = c->def->expr_direct;
    if (body == EXPR_NOT_DIRECT) return call_direct_held(C, n, c, out);
    /* The name may be rebound while the call runs, unless nothing it runs can call: names
       and number literals as arguments, and a body that calls nothing. */
    bool hold = !simple_args || body == EXPR_DIRECT_CALLS;
    if (hold) c->refcount++;
    Value slots[3];
#pragma GCC unroll 3
    for (int i = 0; i < K; i++)
        if (!eval_operand(C, n->list[i], &slots[i])) {
            while (i--) slot_release(&slots[i]);
            if (hold) call_unhold(c);
            return false;
        }
    Frame f;   /* member by member: an initializer would zero the padding too */
    f.refcount = 1;
    f.parent = c->env;
    f.nslots = f.cap = K;
    f.slots = slots;
    f.collecting = false;
    f.running = true;
    bool ok = call_enter(C, n->at);
    if (ok) {
        Frame *caller = C->frame;
        C->frame = &f;
        ok = eval_expr(C, c->def->body, out);
        C->frame = caller;
        C->I->call_depth--;
        if (__builtin_expect(!ok, 0) && C->I->err.kind != TL_E_Interrupt) diag_add_trace(&C->I->err, n->at);
    }
#pragma GCC unroll 3
    for (int i = 0; i < K; i++) slot_release(&slots[i]);
    if (hold) call_unhold(c);
    return ok;
}

/* f(a) for a global f: call_global_k with K = 1. */
bool eval_call_global1(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 1, false); }
/* f(a, b) for a global f: call_global_k with K = 2. */
bool eval_call_global2(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 2, false); }
/* f(a, b, c) for a global f: call_global_k with K = 3. */
bool eval_call_global3(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 3, false); }
/* f(a) for a global f, a a name or a number literal: call_global_k with K = 1. */
bool eval_call_global1_simple(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 1, true); }
/* f(a, b) for a global f, a and b names or number literals: call_global_k with K = 2. */
bool eval_call_global2_simple(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 2, true); }
/* f(a, b, c) for a global f, a, b and c names or number literals: call_global_k with K = 3. */
bool eval_call_global3_simple(Ctx *C, Node *n, Value *out) { return call_global_k(C, n, out, 3, true); }

/* f(args...) for any N_CALL: its fused program when it has one, else a call. */
COLD bool eval_call_node(Ctx *C, Node *n, Value *out)
{
    if (n->fuse) {
        int r = eval_fused(C, n, out);
        if (r != 0) return r > 0;
    }
    if (n->spec == SPEC_CALL_POSITIONAL && n->a->kind == N_NAME) return eval_call_positional(C, n, out);
    return eval_call_general(C, n, out);
}

/* xs.append(x) for a list xs named by a name and x a name or a number literal, when `append`
   means the builtin (method_target's rule): x joins the list in place, without the call's
   argument list and binding (the commonest loop body that builds a list). Evaluating x and
   reading xs run no code, so xs is read in its slot without a reference. Anything else goes
   to eval_method. */
bool eval_method_append(Ctx *C, Node *n, Value *out)
{
    static const Builtin *append;
    if (__builtin_expect(!append, 0)) append = builtin_find("append");
    const Value *f = slot_of(C, n), *xs = slot_of(C, n->a);
    if (xs->kind != V_LIST || (f->kind == V_BUILTIN ? f->as.bi != append : f->kind == V_FUNC)) return eval_method(C, n, out);
    Node *arg = n->list[0];
    Value x;
    if (arg->kind == N_NAME) {
        const Value *s = slot_of(C, arg);
        if (s->kind == V_UNDEF) return eval_method(C, n, out);   /* the "not defined" error */
        x = val_retain(*s);
    } else {
        operand_number(C, arg, &x);   /* a number literal (eval_choose) */
    }
    if (!list_append(xs->as.l, x)) return interp_error_rt(C->I, n->at);
    *out = val_none();
    return true;
}

/* a.f(args) and a.name: f(a, args) and name(a). */
COLD bool eval_method(Ctx *C, Node *n, Value *out)
{
    Value recv, fn;
    if (!eval_expr(C, n->a, &recv)) return false;
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
