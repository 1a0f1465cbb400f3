/* comprehension.c — [e for x in it if c] and {k: v for ...}: the clauses run in the comprehension's own frame */
#include <stdlib.h>

#include "eval_int.h"
#include "literal.h"

/* One comprehension being computed. */
typedef struct Comp {
    Ctx *outer;       /* the enclosing code: the first iterable is evaluated there */
    Ctx inner;        /* the comprehension's frame: its loop variables, the rest of its code */
    Node *n;
    Value acc;        /* the list (N_LISTCOMP) or dict (N_DICTCOMP) being filled */
} Comp;

static bool run_clauses(Comp *k, int clause);

/* The innermost step: one item (or key and value) into the accumulator. */
static bool emit(Comp *k)
{
    Ctx *C = &k->inner;
    Node *n = k->n;
    Value v;
    if (n->kind == N_LISTCOMP) {
        if (!eval_expr(C, n->a, &v)) return false;
        return list_append(k->acc.as.l, v) || interp_error_rt(C->I, n->at);
    }
    Value key;
    if (!eval_expr(C, n->a, &key)) return false;
    if (key.kind != V_STR) {
        interp_error(C->I, n->a->at, TypeError, "dict keys must be strings, not %s", val_kind_name(key));
        val_release(key);
        return false;
    }
    bool ok = eval_expr(C, n->b, &v);
    if (ok) ok = dict_set(k->acc.as.d, key.as.s->data, key.as.s->len, v) || interp_error_rt(C->I, n->at);
    val_release(key);
    return ok;
}

/* Binds one item to a clause's target, then runs the clauses after it. */
static bool step(Comp *k, Node *c, int clause, Value item)
{
    if (interrupted(&k->inner, c->at)) {
        val_release(item);
        return false;
    }
    if (c->c->kind == N_NAME) store_slot(slot_of(&k->inner, c->c), item);
    else if (!assign_target(&k->inner, c->c, item)) return false;
    return run_clauses(k, clause + 1);
}

/* A `for` clause: range() without making a tensor, anything else through val_iter_next. */
static bool run_for(Comp *k, Node *c, int clause)
{
    Ctx *C = clause == 0 ? k->outer : &k->inner;
    int64_t start, stp;
    uint64_t count;
    int r = range_call(C, c->b, &start, &stp, &count);
    if (r < 0) return false;
    if (r > 0) {
        for (uint64_t i = 0; i < count; i++)
            if (!step(k, c, clause, val_i64((int64_t)((uint64_t)start + i * (uint64_t)stp)))) return false;
        return true;
    }
    Value seq;
    if (!eval_expr(C, c->b, &seq)) return false;
    ValIter it;
    bool ok = val_iter_begin(seq, &it) || interp_error_rt(C->I, c->b->at);
    while (ok) {
        Value item;
        int got = val_iter_next(&it, &item);
        if (got <= 0) {
            ok = got == 0 || interp_error_rt(C->I, c->b->at);
            break;
        }
        ok = step(k, c, clause, item);
    }
    val_release(seq);
    return ok;
}

static bool run_clauses(Comp *k, int clause)
{
    Node *n = k->n;
    if (clause == n->n) return emit(k);
    Node *c = n->list[clause];
    if (c->kind == N_COMPFOR) return run_for(k, c, clause);
    bool t;
    if (!eval_truthy(&k->inner, c->a, &t)) return false;
    return !t || run_clauses(k, clause + 1);
}

/* The finished list as a literal of its items would be: a tensor when every item is a number
   or a tensor (of one shape), else the list itself. */
static bool finish_list(Interp *I, Node *n, Value list, Value *out)
{
    List *l = list.as.l;
    if (!items_are_numeric(l->n, l->items)) {
        *out = list;
        return true;
    }
    bool ok = literal_value(I, n->at, l->n, l->items, out);
    val_release(list);
    return ok;
}

bool eval_comprehension(Ctx *C, Node *n, Value *out)
{
    FnDef *fn = n->fn;
    Value stack_slots[FRAME_STACK_SLOTS];
    Frame stack_frame, *f = &stack_frame;
    if (fn->stack_frame) {   /* nothing keeps this frame: it ends with the comprehension */
        stack_frame = (Frame){ .refcount = 1, .parent = C->frame, .nslots = fn->nslots, .cap = fn->nslots, .slots = stack_slots };
        for (int i = 0; i < fn->nslots; i++) stack_slots[i].kind = V_UNDEF;
    } else if (!(f = frame_new(C->frame, fn->nslots))) {
        return interp_error_rt(C->I, n->at);
    } else
        f->running = true;
    Comp k = { .outer = C, .inner = { .I = C->I, .globals = C->globals, .frame = f }, .n = n };
    k.acc = n->kind == N_LISTCOMP ? val_list_new(0) : val_dict_new();
    bool ok = k.acc.kind != V_UNDEF || interp_error_rt(C->I, n->at);
    if (ok) ok = run_clauses(&k, 0);
    if (fn->stack_frame) {
        for (int i = 0; i < fn->nslots; i++) slot_release(&stack_slots[i]);
    } else {
        f->running = false;
        frame_release(f);
    }
    if (!ok) {
        val_release(k.acc);
        return false;
    }
    if (n->kind == N_DICTCOMP) {
        *out = k.acc;
        return true;
    }
    return finish_list(C->I, n, k.acc, out);
}
