/* eval.c — the expression evaluator: the dispatcher, operators, literals, indexing */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "eval_int.h"
#include "fstring.h"
#include "fuse.h"
#include "hint.h"
#include "literal.h"
#include "subscript.h"

/* eval with the callback signature subscript.c uses to evaluate index items. */
bool eval_cb(void *ctx, Node *n, Value *out) { return eval_expr(ctx, n, out); }

/* Ctrl-C, or the step budget running out (Interp.steps_left, counted down at loop
   back-edges and calls when positive), stops evaluation with an error. */
COLD bool interrupt_pending(Ctx *C, Span at)
{
    if (C->I->steps_left > 0 && --C->I->steps_left == 0) {
        C->I->steps_left = 1;   /* every later check fails too */
        return interp_error(C->I, at, Interrupt, "step limit reached"), true;
    }
    if (!tl_interrupt_flag) return false;
    interp_error(C->I, at, Interrupt, "interrupted");
    return true;
}


/* A name's value (a new reference), or the "not defined" error. */
bool load_name(Ctx *C, Node *n, Value *out)
{
    Value *s = slot_of(C, n);
    if (s->kind == V_UNDEF) return name_error(C, n);
    *out = val_retain(*s);
    return true;
}

COLD bool name_error(Ctx *C, Node *n)
{
    char hint[320];
    if (n->depth < 0) return interp_error(C->I, n->at, Error, "name '%s' is not defined%s", n->name, hint_name(C->I, n, hint, sizeof hint));
    const char *fname = n->fn ? n->fn->name : "this function";
    int g = symtab_find(&C->I->gsyms, n->name);
    if (n->outer_local)   /* meant the enclosing function's? */
        return interp_error(C->I, n->at, Error, "local '%s' is read before it is assigned in %s(); write 'nonlocal %s' to assign the enclosing function's",
                            n->name, fname, n->name);
    if (g >= 0 && g < C->globals->nslots && C->globals->slots[g].kind != V_UNDEF)   /* meant the global? */
        return interp_error(C->I, n->at, Error, "local '%s' is read before it is assigned in %s(); write 'global %s' to assign the global",
                            n->name, fname, n->name);
    return interp_error(C->I, n->at, Error, "local '%s' is read before it is assigned in %s()", n->name, fname);
}

/* ---- literals ---------------------------------------------------------- */

/* The items of display n (a tuple or list whose items may be *e) as a new list: each *e's
   items spliced in, in order. */
static COLD bool eval_spliced(Ctx *C, Node *n, Value *out)
{
    Value all = val_list_new(n->n);
    if (all.kind != V_LIST) return interp_error_rt(C->I, n->at);
    for (int i = 0; i < n->n; i++) {
        Node *e = n->list[i];
        Value v, items;
        if (!eval_expr(C, e->kind == N_STARARG ? e->a : e, &v)) { val_release(all); return false; }
        if (e->kind != N_STARARG) {
            if (!list_append(all.as.l, v)) { val_release(all); return interp_error_rt(C->I, n->at); }
            continue;
        }
        bool ok = val_iter_list(v, &items);
        if (!ok) {
            if (tl_errkind_last() == TL_E_TypeError)
                interp_error(C->I, e->at, TypeError, "*%s needs an iterable, not a %s", starred_name(e),
                             val_kind_name(v));
            else
                interp_error_rt(C->I, e->at);
            val_release(v);
            val_release(all);
            return false;
        }
        val_release(v);
        for (int64_t k = 0; ok && k < items.as.l->n; k++) ok = list_append(all.as.l, val_retain(items.as.l->items[k]));
        val_release(items);
        if (!ok) { val_release(all); return interp_error_rt(C->I, n->at); }
    }
    *out = all;
    return true;
}

/* [a, b, ...]: a tensor when every item is a number or a tensor, else a list. */
static bool eval_list(Ctx *C, Node *n, Value *out)
{
    if (n->splat) {   /* [*a, b]: the spliced items make the literal */
        Value all;
        if (!eval_spliced(C, n, &all)) return false;
        bool ok = literal_value(C->I, n->at, all.as.l->n, all.as.l->items, out);
        val_release(all);
        return ok;
    }
    Value small[SMALL_ARGS];
    Value *items = n->n <= SMALL_ARGS ? small : malloc(sizeof(Value) * (size_t)n->n);
    if (!items) return interp_error(C->I, n->at, MemoryError, "out of memory");
    int done = 0;
    bool ok = true;
    for (; done < n->n; done++)
        if (!eval_expr(C, n->list[done], &items[done])) { ok = false; break; }
    if (ok) ok = literal_value(C->I, n->at, done, items, out);
    for (int i = 0; i < done; i++) val_release(items[i]);
    if (items != small) free(items);
    return ok;
}

/* (a, b, ...): a tuple. */
static bool eval_tuple(Ctx *C, Node *n, Value *out)
{
    if (n->splat) {   /* (*a, b): the spliced items */
        Value all;
        if (!eval_spliced(C, n, &all)) return false;
        Value t = val_tuple_new(all.as.l->n);
        for (int64_t i = 0; t.kind == V_TUPLE && i < all.as.l->n; i++) t.as.tu->items[i] = val_retain(all.as.l->items[i]);
        val_release(all);
        if (t.kind != V_TUPLE) return interp_error_rt(C->I, n->at);
        *out = t;
        return true;
    }
    Value t = val_tuple_new(n->n);
    if (t.kind != V_TUPLE) return interp_error_rt(C->I, n->at);
    for (int i = 0; i < n->n; i++)
        if (!eval_expr(C, n->list[i], &t.as.tu->items[i])) { val_release(t); return false; }
    *out = t;
    return true;
}

/* {"k": v, ...}: a dict with string keys. */
static bool eval_dict(Ctx *C, Node *n, Value *out)
{
    Value d = val_dict_new();
    if (d.kind != V_DICT) return interp_error_rt(C->I, n->at);
    for (int i = 0; i + 1 < n->n; i += 2) {
        Value k, v;
        if (n->list[i]->kind == N_STARSTAR) {   /* {**other, ...}: other's entries, later ones winning */
            Node *e = n->list[i];
            if (!eval_expr(C, e->a, &v)) { val_release(d); return false; }
            if (v.kind != V_DICT) {
                interp_error(C->I, e->at, TypeError, "**%s needs a dict, not a %s", starred_name(e), val_kind_name(v));
                val_release(v);
                val_release(d);
                return false;
            }
            bool ok = dict_update(d.as.d, v.as.d);
            val_release(v);
            if (!ok) { val_release(d); return interp_error_rt(C->I, n->at); }
            continue;
        }
        if (!eval_expr(C, n->list[i], &k)) { val_release(d); return false; }
        if (k.kind != V_STR) {
            val_release(k);
            val_release(d);
            return interp_error(C->I, n->list[i]->at, TypeError, "dict keys must be strings, not %s", val_kind_name(k));
        }
        if (!eval_expr(C, n->list[i + 1], &v)) { val_release(k); val_release(d); return false; }
        bool ok = dict_set(d.as.d, k.as.s->data, k.as.s->len, v);
        val_release(k);
        if (!ok) { val_release(d); return interp_error_rt(C->I, n->at); }
    }
    *out = d;
    return true;
}

/* ---- expressions ------------------------------------------------------- */

/* Evaluates n to a truth value (an ambiguous tensor is an error). */
bool eval_truthy(Ctx *C, Node *n, bool *t)
{
    Value v;
    if (!eval_expr(C, n, &v)) return false;
    if (v.kind == V_NUM && v.dtype == TL_BOOL) {   /* a comparison's result: no call */
        *t = v.as.num.b;
        return true;
    }
    bool ok = val_truthy(v, t);
    val_release(v);
    if (!ok) return interp_error_rt(C->I, n->at);
    return true;
}

/* -a, +a, ~a, not a. */
static COLD bool eval_unary(Ctx *C, Node *n, Value *out)
{
    Value a;
    if (!eval_expr(C, n->a, &a)) return false;
    bool ok = arith_unary(C->I, (UnaryOp)n->op, a, n->at, out);
    val_release(a);
    return ok;
}

/* a OP b, releasing both; a's tensor may take the result when the only
   references to it are our `spare` ones (see arith_binary_reusing). */
COLD bool eval_binary_general(Ctx *C, Node *n, Value a, Value b, Value *out, int64_t spare)
{
    bool ok = arith_binary_reusing(C->I, n->op, a, b, n->at, out, spare);
    val_release(a);
    val_release(b);
    return ok;
}

/* An elementwise expression tree in one pass (fuse.h). 1: done; 0: every
   leaf is a name or number and none holds a tensor, so evaluate as usual;
   -1: error. */
COLD int eval_fused(Ctx *C, Node *n, Value *out)
{
    FusePlan *p = n->fuse;
    if (fuse_skip(p)) return 0;
    if (p->simple) {
        bool any_tensor = false;
        for (int i = 0; i < p->n && !any_tensor; i++)
            if (p->item[i].kind == FI_LEAF && p->item[i].node->kind == N_NAME)
                any_tensor = slot_of(C, p->item[i].node)->kind == V_TENSOR;
        if (!any_tensor) {
            p->numbers = true;   /* as fuse_eval records for a run on numbers: look again every 64th time */
            return 0;
        }
    }
    return fuse_eval(C->I, p, eval_cb, C, out) ? 1 : -1;
}

/* a and b, a or b: short-circuit, yielding the deciding operand. */
static COLD bool eval_andor(Ctx *C, Node *n, Value *out)
{
    Value a;
    if (!eval_expr(C, n->a, &a)) return false;
    bool t;
    if (!val_truthy(a, &t)) { val_release(a); return interp_error_rt(C->I, n->a->at); }
    if ((n->kind == N_AND) != t) { *out = a; return true; }
    val_release(a);
    return eval_expr(C, n->b, out);
}

/* a if b else c. */
static COLD bool eval_cond(Ctx *C, Node *n, Value *out)
{
    bool t;
    if (!eval_truthy(C, n->b, &t)) return false;
    return eval_expr(C, t ? n->a : n->c, out);
}



/* a[...]: views, advanced indexing, tuple/string/dict items (subscript.c). */
static COLD bool eval_index(Ctx *C, Node *n, Value *out)
{
    Value base;
    if (!eval_expr(C, n->a, &base)) return false;
    bool ok = subscript_get(C->I, eval_cb, C, base, n, out);
    val_release(base);
    return ok;
}

/* x in c, x not in c. */
static COLD bool eval_in(Ctx *C, Node *n, Value *out)
{
    Value x, c;
    if (!eval_expr(C, n->a, &x)) return false;
    if (!eval_expr(C, n->b, &c)) { val_release(x); return false; }
    bool ok = arith_contains(C->I, x, c, n->op == 1, n->at, out);
    val_release(x);
    val_release(c);
    return ok;
}

/* The literals other than numbers: imaginary, strings, true/false, none. */
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

/* a OP b with an elementwise fuse plan: the fused program when it takes the tree. */
static bool ev_binary_fused(Ctx *C, Node *n, Value *out)
{
    int r = eval_fused(C, n, out);
    if (r != 0) return r > 0;
    Value a, b;
    if (!eval_operand(C, n->a, &a)) return false;
    if (!eval_operand(C, n->b, &b)) { val_release(a); return false; }
    if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(n->op, a, b, out)) return true;
    return eval_binary_general(C, n, a, b, out, 1);
}

/* a OP b: f64/i64 numbers inline, anything else through arith_binary_reusing. */
static COLD bool ev_binary(Ctx *C, Node *n, Value *out)
{
    Value a, b;
    if (!eval_operand(C, n->a, &a)) return false;
    if (!eval_operand(C, n->b, &b)) { val_release(a); return false; }
    if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(n->op, a, b, out)) return true;
    return eval_binary_general(C, n, a, b, out, 1);   /* a temporary of ours may take the result */
}

/* a OP b over names and number literals: f64/i64 numbers read in place (numbers
   are not refcounted) and computed inline; anything else goes to ev_binary. */
static bool ev_binary_simple(Ctx *C, Node *n, Value *out)
{
    Value a, b;
    if (operand_number(C, n->a, &a) && operand_number(C, n->b, &b) && arith_scalar_quick(n->op, a, b, out)) return true;
    return ev_binary(C, n, out);
}

/* x OP k for x in the current frame and k an integer literal (x + 1: the commonest
   function body): k's dtype is known here, so only x's is tested. */
static bool ev_binary_local_int(Ctx *C, Node *n, Value *out)
{
    const Value *x = &C->frame->slots[n->a->slot];
    if (x->kind == V_NUM) {
        Value k = val_i64(n->b->ival);
        k.weak = true;
        if (arith_scalar_quick(n->op, *x, k, out)) return true;
    }
    return ev_binary(C, n, out);
}

/* x + k, x - k, x * k (op, a constant here) for x in the current frame and k an integer
   literal: an i64 or f64 x is computed here, as arith_scalar_quick would (k is weak, so the
   result keeps x's dtype and weakness); anything else goes to ev_binary_local_int. */
static HOT_INLINE bool local_int_op(Ctx *C, Node *n, Value *out, const int op)
{
    const Value *x = &C->frame->slots[n->a->slot];
    if (__builtin_expect(x->kind == V_NUM, 1)) {
        int64_t k = n->b->ival;
        if (x->dtype == TL_I64) {
            int64_t v = x->as.num.i64;
            *out = val_i64(op == TL_ADD ? tl_i64_add(v, k) : op == TL_SUB ? tl_i64_sub(v, k) : tl_i64_mul(v, k));
            out->weak = x->weak;
            return true;
        }
        if (x->dtype == TL_F64) {
            double v = x->as.num.f64, y = (double)k;
            *out = val_f64(op == TL_ADD ? tl_f64_add(v, y) : op == TL_SUB ? tl_f64_sub(v, y) : tl_f64_mul(v, y));
            out->weak = x->weak;
            return true;
        }
    }
    return ev_binary_local_int(C, n, out);
}

/* x + k for a local x and an integer literal k (local_int_op). */
static bool ev_local_add_int(Ctx *C, Node *n, Value *out) { return local_int_op(C, n, out, TL_ADD); }
/* x - k for a local x and an integer literal k (local_int_op). */
static bool ev_local_sub_int(Ctx *C, Node *n, Value *out) { return local_int_op(C, n, out, TL_SUB); }
/* x * k for a local x and an integer literal k (local_int_op). */
static bool ev_local_mul_int(Ctx *C, Node *n, Value *out) { return local_int_op(C, n, out, TL_MUL); }

/* A name in the current function's frame. */
static bool ev_local(Ctx *C, Node *n, Value *out)
{
    const Value *s = &C->frame->slots[n->slot];
    if (__builtin_expect(s->kind == V_UNDEF, 0)) return load_name(C, n, out);
    *out = val_retain(*s);
    return true;
}

/* A global name. */
static bool ev_global(Ctx *C, Node *n, Value *out)
{
    const Value *s = &C->globals->slots[n->slot];
    if (__builtin_expect(s->kind == V_UNDEF, 0)) return load_name(C, n, out);
    *out = val_retain(*s);
    return true;
}

/* A name in an enclosing function's frame. */
static bool ev_outer(Ctx *C, Node *n, Value *out) { return load_name(C, n, out); }

/* An integer literal (weak i64). */
static bool ev_int(Ctx *C, Node *n, Value *out)
{
    (void)C;
    *out = val_i64(n->ival);
    out->weak = true;
    return true;
}

/* A float literal (weak f64). */
static bool ev_float(Ctx *C, Node *n, Value *out)
{
    (void)C;
    *out = val_f64(n->fval);
    out->weak = true;
    return true;
}

/* a[...] whose items subscript_is_simple accepts: a tensor's view without the general item machinery. */
static bool ev_index_simple(Ctx *C, Node *n, Value *out)
{
    if (n->a->kind == N_NAME) {   /* a name's tensor is read in place: loading the items (literals, names) cannot change it */
        const Value *s = slot_of(C, n->a);
        int r = s->kind == V_TENSOR ? subscript_tensor_simple(C->I, eval_cb, C, s->as.t, n, out) : 0;
        if (r != 0) return r > 0;
    }
    Value base;
    if (!eval_expr(C, n->a, &base)) return false;
    int r = base.kind == V_TENSOR ? subscript_tensor_simple(C->I, eval_cb, C, base.as.t, n, out) : 0;
    bool ok = r > 0 || (r == 0 && subscript_get(C->I, eval_cb, C, base, n, out));
    val_release(base);
    return ok;
}

/* The general dispatcher, for nodes without a handler of their own. */
bool eval_any(Ctx *C, Node *n, Value *out)
{
    switch (n->kind) {
    case N_INT: return ev_int(C, n, out);
    case N_FLOAT: return ev_float(C, n, out);
    case N_NAME: return load_name(C, n, out);
    case N_BINARY: return n->fuse ? ev_binary_fused(C, n, out) : ev_binary(C, n, out);
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
    case N_IN: return eval_in(C, n, out);
    case N_LISTCOMP: case N_DICTCOMP: return eval_comprehension(C, n, out);
    case N_SLICE: case N_ELLIPSIS:
        return interp_error(C->I, n->at, SyntaxError, "slices and ... are only allowed inside [ ]");
    default:
        return interp_error(C->I, n->at, TypeError, "this statement has no value");
    }
}

/* A name or a number literal: an operand read in place. */
static bool operand_is_simple(const Node *n) { return n->kind == N_NAME || n->kind == N_INT || n->kind == N_FLOAT; }

/* An expression handler (Node.eval). */
typedef bool (*EvalFn)(Ctx *C, Node *n, Value *out);

/* The handler of a OP b: its fused program, a local OP integer literal, names and literals, or the general one. */
static EvalFn binary_handler(const Node *n)
{
    if (n->fuse) return ev_binary_fused;
    if (n->a->kind == N_NAME && n->a->depth == 0 && n->b->kind == N_INT) {
        switch (n->op) {
        case TL_ADD: return ev_local_add_int;
        case TL_SUB: return ev_local_sub_int;
        case TL_MUL: return ev_local_mul_int;
        default: return ev_binary_local_int;
        }
    }
    return operand_is_simple(n->a) && operand_is_simple(n->b) ? ev_binary_simple : ev_binary;
}

/* The handler of f(a), f(a, b) or f(a, b, c) for a global f: with names and number literals as arguments, or any. */
static EvalFn call_global_handler(const Node *n)
{
    bool simple = true;
    for (int i = 0; i < n->n; i++) simple &= operand_is_simple(n->list[i]);
    static const EvalFn any[3] = { eval_call_global1, eval_call_global2, eval_call_global3 };
    static const EvalFn simple_args[3] = { eval_call_global1_simple, eval_call_global2_simple, eval_call_global3_simple };
    return (simple ? simple_args : any)[n->n - 1];
}

/* Chooses n's handler once: a name by where its slot lives, a number literal, an
   operator with or without a fuse plan, a positional call; the rest go to eval_any. */
void eval_choose(Node *n)
{
    switch (n->kind) {
    case N_NAME: n->eval = n->depth < 0 ? ev_global : n->depth == 0 ? ev_local : ev_outer; break;
    case N_INT: n->eval = ev_int; break;
    case N_FLOAT: n->eval = ev_float; break;
    case N_BINARY: n->eval = binary_handler(n); break;
    case N_CALL:
        if (n->spec != SPEC_CALL_POSITIONAL || n->fuse || n->a->kind != N_NAME) n->eval = eval_call_node;
        else if (n->a->depth >= 0 || n->n < 1 || n->n > 3) n->eval = eval_call_positional;
        else n->eval = call_global_handler(n);
        break;
    case N_INDEX: n->eval = subscript_is_simple(n) ? ev_index_simple : eval_index; break;
    case N_FSTRING: n->eval = eval_fstring; break;
    case N_METHOD:   /* xs.append(x): the list grows in place */
        n->eval = strcmp(n->name, "append") == 0 && n->n == 1 && !(n->names && n->names[0]) && n->a->kind == N_NAME &&
                          operand_is_simple(n->list[0])
                      ? eval_method_append
                      : eval_any;
        break;
    default: n->eval = eval_any; break;
    }
}
