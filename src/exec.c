/* exec.c — the statement evaluator: assignments, loops (range loops without a sequence), try, return */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "eval_int.h"
#include "graph.h"
#include "seq.h"
#include "subscript.h"

/* ---- statements -------------------------------------------------------- */

/* Item i of v (a tuple, list or tensor, which has it) into *out, a new reference; false
   when a tensor's row view cannot be made (the tl error set). */
static bool unpacked_item(Value v, int64_t i, Value *out)
{
    if (v.kind == V_TUPLE) *out = val_retain(v.as.tu->items[i]);
    else if (v.kind == V_LIST) *out = val_retain(v.as.l->items[i]);
    else {
        tl_tensor *row = tl_view_index(v.as.t, 0, i);
        if (!row) return false;
        *out = val_from_tensor(row);
    }
    return true;
}

/* The most values one unpacking takes (each is held at once: 2**32 of them are 96 GiB). */
#define UNPACK_MAX_ITEMS ((int64_t)1 << 32)

/* The tuple of targets t takes v (owned): item i of v goes to target i, or, when target `star`
   is *name (-1: none), that name takes a list of the items the others leave (Python's
   a, *rest = t). Every item is taken from v before the first target is assigned, as Python
   does: assigning one target may change v (a, xs[0:] = xs empties the list being read). */
static bool assign_unpack(Ctx *C, Node *t, Value v)
{
    int star = -1;
    for (int i = 0; i < t->n; i++)
        if (t->list[i]->kind == N_STARARG) star = i;
    int fixed = star >= 0 ? t->n - 1 : t->n;
    int64_t have = v.kind == V_TUPLE ? v.as.tu->n : v.kind == V_LIST ? v.as.l->n
                 : v.kind == V_TENSOR && v.as.t->ndim > 0 ? v.as.t->shape[0] : -1;
    const char *names = fixed == 1 ? "name" : "names", *starred = star >= 0 ? " and a starred one" : "";
    if (have < 0)
        interp_error(C->I, t->at, TypeError, "cannot unpack a %s into %d %s%s",
                     val_kind_name(v), fixed, names, starred);
    else if (star < 0 && have != fixed)
        interp_error(C->I, t->at, ValueError, "cannot unpack a %s of %lld value%s into %d %s", val_kind_name(v), (long long)have,
                     have == 1 ? "" : "s", fixed, names);
    else if (have < fixed)
        interp_error(C->I, t->at, ValueError, "cannot unpack a %s of %lld value%s into %d %s and a starred one",
                     val_kind_name(v), (long long)have, have == 1 ? "" : "s", fixed, names);
    if (have < 0 || (star < 0 ? have != fixed : have < fixed)) {
        val_release(v);
        return false;
    }
    int64_t mid = have - fixed, taken = 0;
    if (have > UNPACK_MAX_ITEMS) {   /* a tensor of 2**40 empty rows: no memory holds its views */
        interp_error(C->I, t->at, MemoryError, "cannot unpack a %s of %lld values: too large (at most %lld)", val_kind_name(v),
                     (long long)have, (long long)UNPACK_MAX_ITEMS);
        val_release(v);
        return false;
    }
    Value on_stack[8], rest = val_none();   /* (for k, v in items(d) unpacks pairs in a loop) */
    Value *items = have <= 8 ? on_stack : malloc(sizeof *items * (size_t)have);
    bool ok = items != NULL || (tl_seterr(MemoryError, "out of memory"), false);
    for (; ok && taken < have; taken++) ok = unpacked_item(v, taken, &items[taken]);
    if (ok && star >= 0) {   /* the middle items move into the starred name's list */
        rest = val_list_new(mid);
        ok = rest.kind == V_LIST;
        for (int64_t i = 0; ok && i < mid; i++) {
            ok = list_append(rest.as.l, items[star + i]);
            items[star + i] = val_none();
        }
    }
    val_release(v);
    if (!ok) {
        interp_error_rt(C->I, t->at);
    } else {
        for (int i = 0; ok && i < t->n; i++) {
            int64_t k = star < 0 || i < star ? i : i + mid - 1;
            Value item = i == star ? rest : items[k];
            if (i == star) rest = val_none();
            else items[k] = val_none();
            ok = assign_target(C, i == star ? t->list[i]->a : t->list[i], item);
        }
    }
    for (int64_t i = 0; items && i < taken; i++) val_release(items[i]);
    val_release(rest);
    if (items != on_stack) free(items);
    return ok;
}

/* Assigns v (owned) to a target expression: a name, an index, or a tuple of targets. */
COLD bool assign_target(Ctx *C, Node *t, Value v)
{
    switch (t->kind) {
    case N_NAME:
        store_slot(slot_of(C, t), v);
        return true;
    case N_INDEX: {
        Value base;
        if (!eval_expr(C, t->a, &base)) { val_release(v); return false; }
        bool ok = subscript_set(C->I, eval_cb, C, base, t, v);
        val_release(base);
        val_release(v);
        return ok;
    }
    case N_TUPLE: return assign_unpack(C, t, v);
    default:
        val_release(v);
        return interp_error(C->I, t->at, SyntaxError, "cannot assign to this expression");
    }
}

/* base[idx] op= rhs where base[idx] gave cur, a view of the tensor base: cur op rhs written
   straight into cur's elements (tl_binary_into reads an overlapping rhs before writing),
   no temporary and no copy back. Only when that is exactly what the assignment would
   store: the result in cur's dtype and shape. 1 done, -1 error reported, 0 not taken. */
static int index_update_in_place(Interp *I, int op, Value base, Value cur, Value rhs, Span at)
{
    if (op == OP_MATMUL || base.kind != V_TENSOR || cur.kind != V_TENSOR || !val_is_numeric(rhs)) return 0;
    tl_tensor *x = cur.as.t;
    if (x->storage != base.as.t->storage || x->readonly) return 0;   /* advanced indexing gave a copy */
    tl_dtype dt;
    if (rhs.kind == V_TENSOR) {   /* the broadcast shape must be x's */
        int nd;
        int64_t shape[TL_MAXDIM];
        const tl_tensor *r = rhs.as.t;
        if (r->ndim > x->ndim || tl_broadcast_shapes(x->ndim, x->shape, r->ndim, r->shape, &nd, shape) < 0 ||
            memcmp(shape, x->shape, sizeof *shape * (size_t)nd) != 0)
            return 0;
    }
    /* the result's dtype as arith_result_dtype finds it, an error left to the general path */
    bool weak = rhs.kind == V_NUM && rhs.weak;
    if (tl_binop_dtype((tl_binop)op, x->dtype, false, val_dtype(rhs), weak, weak ? rhs.as.num.bytes : NULL, &dt) < 0 ||
        dt != x->dtype)
        return 0;
    tl_tensor *r = val_to_tensor(rhs);
    bool ok = r && tl_binary_into((tl_binop)op, x, x, r, dt) == 0;
    if (r) tl_tensor_release(r);
    return ok ? 1 : (interp_error_rt(I, at), -1);
}

/* Multiply-adds of a product with k = a's last axis writing out's elements. */
static int64_t matmul_madds(const tl_tensor *a, const tl_tensor *out)
{
    int64_t n = a->shape[a->ndim - 1];
    for (int d = 0; d < out->ndim; d++) n = out->shape[d] > 0 && n > INT64_MAX / out->shape[d] ? INT64_MAX : n * out->shape[d];
    return n;
}

/* The biggest product assign_index_matmul writes straight into its target: it runs with
   Ctrl-C held (the target is written whole or not at all), tens of milliseconds at most. */
#define ASSIGN_MATMUL_MAX_MADDS ((int64_t)1 << 26)

/* name[index] = a @ b with a simple index (subscript_is_simple: slices with literal
   bounds, literals, names): when name[index] is a contiguous view the product is
   exactly (dtype and shape) and shares no memory with a or b, the product is written
   straight into it (a 32000-row classifier: no 128 KiB temporary and copy per token), up
   to ASSIGN_MATMUL_MAX_MADDS.
   Otherwise assigned as usual (an error met while looking is reported again, or not, by
   that path); evaluating the name and the index again is harmless.
   1 done, -1 error reported, 0 not this statement (nothing evaluated). */
static int assign_index_matmul(Ctx *C, Node *n)
{
    Node *t = n->a, *rhs = n->b;
    if (t->kind != N_INDEX || t->a->kind != N_NAME || rhs->kind != N_BINARY || rhs->op != OP_MATMUL || rhs->fuse ||
        !subscript_is_simple(t))
        return 0;
    Interp *I = C->I;
    Value a, b, base, cur = val_none(), v;
    if (!eval_operand(C, rhs->a, &a)) return -1;
    if (!eval_operand(C, rhs->b, &b)) { val_release(a); return -1; }
    bool done = false, ok = true;
    if (a.kind == V_TENSOR && b.kind == V_TENSOR && eval_expr(C, t->a, &base)) {
        if (base.kind == V_TENSOR && subscript_get(I, eval_cb, C, base, t, &cur) && cur.kind == V_TENSOR) {
            tl_tensor *x = cur.as.t;
            int nd;
            int64_t shape[TL_MAXDIM];
            if (x->storage == base.as.t->storage && !x->readonly && tl_is_contiguous(x) &&
                x->dtype == tl_promote(a.as.t->dtype, b.as.t->dtype) && (nd = tl_matmul_shape(a.as.t, b.as.t, shape)) >= 0 &&
                nd == x->ndim && memcmp(shape, x->shape, sizeof *shape * (size_t)nd) == 0 &&
                matmul_madds(a.as.t, x) <= ASSIGN_MATMUL_MAX_MADDS && !tl_shares_memory(x, a.as.t) &&
                !tl_shares_memory(x, b.as.t)) {
                tl_interrupts_hold();   /* the view is written whole or not at all */
                tl_tensor *r = tl_matmul_to(a.as.t, b.as.t, x);
                tl_interrupts_release();
                ok = r && (tl_tensor_data(r) == tl_tensor_data(x) || tl_assign(x, r) == 0);
                if (r) tl_tensor_release(r);
                if (!ok) interp_error_rt(I, rhs->at);
                done = true;
            }
        }
        val_release(cur);
        val_release(base);
    }
    if (done) {
        val_release(a);
        val_release(b);
        return ok ? 1 : -1;
    }
    if (!eval_binary_general(C, rhs, a, b, &v, 1)) return -1;   /* as ev_binary: our temporaries may take it */
    return assign_target(C, t, v) ? 1 : -1;
}

/* x op= e: tensors update in place (result cast to x's dtype), lists grow in place (+= and
   *=), everything else rebinds. */
static COLD bool exec_opassign(Ctx *C, Node *n)
{
    Interp *I = C->I;
    Node *t = n->a;
    int op = n->op;
    Value rhs;
    if (!eval_expr(C, n->b, &rhs)) return false;
    if (t->kind == N_INDEX) {
        Value base, cur, res;
        if (!eval_expr(C, t->a, &base)) { val_release(rhs); return false; }
        bool ok = subscript_get(I, eval_cb, C, base, t, &cur);
        int over = ok ? index_update_in_place(I, op, base, cur, rhs, n->at) : 0;
        if (over == 0 && ok && cur.kind == V_LIST && (over = arith_list_in_place(I, op, cur.as.l, rhs, n->at)) > 0)
            over = subscript_set(I, eval_cb, C, base, t, cur) ? 1 : -1;   /* stored back, as Python does */
        if (over != 0) {
            ok = over > 0;
            val_release(cur);
        } else if (ok) {
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
    if (s->kind == V_UNDEF) { val_release(rhs); return name_error(C, t); }
    if (s->kind == V_TRACE) {   /* eager code would write the tensor's own elements, which a graph does not own */
        val_release(rhs);
        if (!graph_trace_live(*s)) return interp_error(I, n->at, ValueError, GRAPH_STALE);
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
    if (s->kind == V_LIST) {   /* the list itself grows, seen through every name that holds it */
        Value xs = val_retain(*s);
        int r = arith_list_in_place(I, op, xs.as.l, rhs, n->at);
        val_release(xs);
        if (r != 0) {
            val_release(rhs);
            return r > 0;
        }
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
    if (call->splat) return true;   /* *xs or **d: known only when evaluated */
    for (int i = 0; call->names && i < call->n; i++)
        if (call->names[i]) return true;
    return false;
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
    if (body->kind != N_BLOCK) return exec_stmt(C, body);
    for (int i = 0; i < body->n; i++) {
        if (assign_scalar_quick(C, body->list[i])) continue;
        Exec x = exec_stmt(C, body->list[i]);
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
        if (!eval_expr(C, call->list[i], &x)) return false;
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

/* Where the other operand of an accumulation `x = x OP y` comes from in range_arith_unboxed. */
enum { Y_FIXED, Y_LOOPVAR, Y_ACC };

/* One step of an f64 accumulation: the same element functions as arith_scalar_quick. */
static HOT_INLINE double acc_f64(int op, double x, double y)
{
    switch (op) {
    case TL_ADD: return tl_f64_add(x, y);
    case TL_SUB: return tl_f64_sub(x, y);
    case TL_MUL: return tl_f64_mul(x, y);
    default: return tl_f64_div(x, y);
    }
}

/* One step of an i64 accumulation (+ - * wrap as the runtime's do). */
static HOT_INLINE int64_t acc_i64(int op, int64_t x, int64_t y)
{
    switch (op) {
    case TL_ADD: return tl_i64_add(x, y);
    case TL_SUB: return tl_i64_sub(x, y);
    default: return tl_i64_mul(x, y);
    }
}

/* The rest of `for i in range(...) { x = x OP y }` (or `x = y OP x`) with x and y unboxed,
   once x holds a non-weak f64 or i64 number: y is the loop variable, x itself, or a
   number the loop cannot change (a literal, another name). OP is + - * (and / for f64),
   and the result keeps x's dtype and strength, so every iteration would take
   arith_scalar_quick's same path; the element functions are the same. x and i are
   written back at the end, and before an interrupt's error. Returns the next index;
   i itself when the statement is not of this form (nothing run). */
static uint64_t range_arith_unboxed(Ctx *C, Node *n, int op, Value *x, Value *var, const Value *pa, const Value *pb,
                                    int64_t start, int64_t step, uint64_t i, uint64_t count, bool *err)
{
    if (x == var || (pa != x && pb != x) || x->kind != V_NUM || x->weak) return i;
    bool acc_first = pa == x;
    const Value *py = acc_first ? pb : pa;
    int ysrc = py == var ? Y_LOOPVAR : py == x ? Y_ACC : Y_FIXED;
    Value y = ysrc == Y_LOOPVAR ? val_i64(0) : *py;
    if (y.kind != V_NUM || (y.dtype != TL_I64 && y.dtype != TL_F64)) return i;
    uint64_t i0 = i;
    if (x->dtype == TL_F64 && (op == TL_ADD || op == TL_SUB || op == TL_MUL || op == TL_DIV)) {
        double acc = x->as.num.f64, yk = y.dtype == TL_F64 ? y.as.num.f64 : (double)y.as.num.i64;
        for (; i < count; i++) {
            if (interrupted(C, n->at)) { *err = true; break; }
            double yv = ysrc == Y_LOOPVAR ? (double)(int64_t)((uint64_t)start + i * (uint64_t)step) : ysrc == Y_ACC ? acc : yk;
            acc = acc_first ? acc_f64(op, acc, yv) : acc_f64(op, yv, acc);
        }
        *x = val_f64(acc);
    } else if (x->dtype == TL_I64 && y.dtype == TL_I64 && (op == TL_ADD || op == TL_SUB || op == TL_MUL)) {
        int64_t acc = x->as.num.i64, yk = y.as.num.i64;
        for (; i < count; i++) {
            if (interrupted(C, n->at)) { *err = true; break; }
            int64_t yv = ysrc == Y_LOOPVAR ? (int64_t)((uint64_t)start + i * (uint64_t)step) : ysrc == Y_ACC ? acc : yk;
            acc = acc_first ? acc_i64(op, acc, yv) : acc_i64(op, yv, acc);
        }
        *x = val_i64(acc);
    } else {
        return i;
    }
    if (i > i0) store_slot(var, val_i64((int64_t)((uint64_t)start + (i - 1) * (uint64_t)step)));
    return i;
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
    bool unboxed_tried = false;
    for (uint64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        store_slot(var, val_i64((int64_t)((uint64_t)start + i * (uint64_t)step)));
        Value a = *pa, b = *pb, v;
        if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(op, a, b, &v)) {
            store_slot(target, v);
            if (!unboxed_tried) {   /* after one boxed step x has its lasting dtype and strength */
                unboxed_tried = true;
                bool err = false;
                i = range_arith_unboxed(C, n, op, target, var, pa, pb, start, step, i + 1, count, &err) - 1;
                if (err) return X_ERROR;
            }
            continue;
        }
        if (pa == target && a.kind == V_TENSOR && b.kind == V_TENSOR) {   /* x = x OP y: update_in_place's case */
            int over = arith_tensor_over(C->I, op, a.as.t, b.as.t, rhs->at, 1);
            if (over > 0) continue;
            if (over < 0) return X_ERROR;
        }
        if (exec_stmt(C, body) != X_NORMAL) return X_ERROR;   /* an assignment either runs or fails */
    }
    return X_NORMAL;
}

/* for i in range(...) { x = e } for a local x and any e but an operator (whose
   statement form reuses tensors: exec_stmt's N_ASSIGN): the loop variable's and x's
   slots are found once (a function's frame never moves), e runs through its handler. */
static Exec exec_for_range_assign(Ctx *C, Node *n, Node *body, int64_t start, int64_t step, uint64_t count)
{
    Node *rhs = body->b;
    Value *var = slot_of(C, n), *target = slot_of(C, body->a);
    for (uint64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        store_slot(var, val_i64((int64_t)((uint64_t)start + i * (uint64_t)step)));
        Value v;
        if (!eval_expr(C, rhs, &v)) return X_ERROR;
        store_slot(target, v);
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
    if (body->kind == N_ASSIGN && body->a->kind == N_NAME && body->a->depth >= 0 && n->depth >= 0 &&
        body->b->kind != N_BINARY)
        return exec_for_range_assign(C, n, body, start, step, count);
    Value *local = n->depth >= 0 ? slot_of(C, n) : NULL;
    for (uint64_t i = 0; i < count; i++) {
        if (interrupted(C, n->at)) return X_ERROR;
        Value item = val_i64((int64_t)((uint64_t)start + i * (uint64_t)step));
        store_slot(local ? local : slot_of(C, n), item);
        if (assign_scalar_quick(C, body)) continue;
        Exec x = body->kind == N_BLOCK ? exec_body(C, body) : exec_stmt(C, body);
        if (x == X_BREAK) return X_NORMAL;
        if (x != X_NORMAL && x != X_CONTINUE) return x;
    }
    return X_NORMAL;
}

/* for x in any iterable (val_iter_begin: a tensor's first axis, a tuple's or list's items, a
   string's characters, a dict's keys); a tuple target unpacks each item. */
static Exec exec_for_seq(Ctx *C, Node *n, Value seq)
{
    Interp *I = C->I;
    ValIter it;
    if (!val_iter_begin(seq, &it)) return interp_error_rt(I, n->a->at), X_ERROR;
    for (;;) {
        if (interrupted(C, n->at)) return X_ERROR;
        Value item;
        int r = val_iter_next(&it, &item);
        if (r <= 0) return r == 0 ? X_NORMAL : (interp_error_rt(I, n->a->at), X_ERROR);
        Exec x;
        if (n->c) {
            if (!assign_target(C, n->c, item)) return X_ERROR;
            x = exec_body(C, n->b);
            if (x == X_CONTINUE) x = X_NORMAL;
        } else {
            x = loop_step(C, n, item);
        }
        if (x == X_BREAK) return X_NORMAL;
        if (x != X_NORMAL) return x;
    }
}

int range_call(Ctx *C, Node *it, int64_t *start, int64_t *step, uint64_t *count)
{
    if (it->kind != N_CALL || it->a->kind != N_NAME || call_has_keywords(it)) return 0;
    Value f;
    if (!eval_expr(C, it->a, &f)) return -1;
    bool is_range = f.kind == V_BUILTIN && strcmp(f.as.bi->name, "range") == 0;
    val_release(f);
    if (!is_range) return 0;
    int64_t stop = 0;
    *start = 0;
    *step = 1;
    if (!range_bounds(C, it, start, &stop, step)) return -1;
    *count = range_count(*start, stop, *step);
    return 1;
}

/* A for loop: range(...) runs lazily into a single variable; anything else is evaluated and iterated. */
static COLD Exec exec_for(Ctx *C, Node *n)
{
    Node *it = n->a;
    int64_t start, step;
    uint64_t count;
    int r = n->c ? 0 : range_call(C, it, &start, &step, &count);
    if (r != 0) return r > 0 ? exec_for_range(C, n, start, step, count) : X_ERROR;
    Value seq;
    if (!eval_expr(C, it, &seq)) return X_ERROR;
    Exec x = exec_for_seq(C, n, seq);
    val_release(seq);
    return x;
}

/* del x, del xs[i], del d[k], del xs[a:b]: names become unbound, items leave their container. */
static COLD Exec exec_del(Ctx *C, Node *n)
{
    for (int i = 0; i < n->n; i++) {
        Node *t = n->list[i];
        if (t->kind == N_NAME) {
            Value *s = slot_of(C, t);
            if (s->kind == V_UNDEF) return name_error(C, t), X_ERROR;
            store_slot(s, (Value){ .kind = V_UNDEF });
            continue;
        }
        Value base;
        if (!eval_expr(C, t->a, &base)) return X_ERROR;
        bool ok = subscript_del(C->I, eval_cb, C, base, t);
        val_release(base);
        if (!ok) return X_ERROR;
    }
    return X_NORMAL;
}

/* An expression statement's value v (owned, not none): echoed when the statement asks for it. */
static COLD Exec exec_expr_value(Ctx *C, Node *n, Value v)
{
    Interp *I = C->I;
    if (n->echo && v.kind != V_NONE && I->echo_enabled) {
        if (!interp_show_value(I, v)) { val_release(v); return interp_error_rt(I, n->at), X_ERROR; }
        val_release(I->last);
        I->last = v;
        return X_NORMAL;
    }
    val_release(v);
    return X_NORMAL;
}

/* fn name(...): binds a new closure. */
static COLD Exec exec_fndef(Ctx *C, Node *n)
{
    Value f;
    if (!make_closure(C, n->fn, &f)) return X_ERROR;
    store_slot(slot_of(C, n), f);
    return X_NORMAL;
}

/* while cond { body }. */
static COLD Exec exec_while(Ctx *C, Node *n)
{
    for (;;) {
        if (interrupted(C, n->at)) return X_ERROR;
        bool t;
        if (!eval_truthy(C, n->a, &t)) return X_ERROR;
        if (!t) return X_NORMAL;
        Exec x = exec_body(C, n->b);
        if (x == X_BREAK) return X_NORMAL;
        if (x == X_RETURN || x == X_ERROR) return x;
    }
}

/* return [value]: the value goes to C->ret. */
static COLD Exec exec_return(Ctx *C, Node *n)
{
    if (!C->frame) return interp_error(C->I, n->at, SyntaxError, "return outside a function"), X_ERROR;
    if (n->a) {
        if (!eval_expr(C, n->a, &C->ret)) return X_ERROR;
    } else {
        C->ret = val_none();
    }
    return X_RETURN;
}

/* try { body } catch e { handler }: an error in body that a program may catch (not an
   interrupt, not a syntax error, not while graph() traces) binds e to an error value and
   runs handler. */
static COLD Exec exec_try(Ctx *C, Node *n)
{
    Exec x = exec_stmt(C, n->a);
    Diag *d = &C->I->err;
    if (x != X_ERROR || !tl_errkind_catchable(d->kind) || tl_interrupt_flag) return x;
    if (graph_tracing) return graph_refuse_catch(C->I), X_ERROR;   /* the graph would not take this branch */
    Value e = val_error_new(d->kind, span_name(&d->at), d->at.line, d->at.col, d->msg);
    if (e.kind == V_UNDEF) return interp_error_rt(C->I, n->at), X_ERROR;
    store_slot(slot_of(C, n), e);
    return exec_stmt(C, n->b);
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
   can see the old value). 1: done; 0: not this case; -1: error. Out of line: inline,
   its call into the runtime made exec_stmt save more registers for every statement. */
static __attribute__((noinline)) int update_in_place(Ctx *C, Node *n)
{
    Node *rhs = n->b;
    if (rhs->a->kind != N_NAME || rhs->b->kind != N_NAME) return 0;
    Value *x = slot_of(C, rhs->a), *y = slot_of(C, rhs->b);
    if (x->kind != V_TENSOR || y->kind != V_TENSOR || x != slot_of(C, n->a)) return 0;
    return arith_tensor_over(C->I, rhs->op, x->as.t, y->as.t, rhs->at, 1);
}

/* The statement dispatcher: blocks, assignments and ifs inline; the rest out of line. */
Exec exec_stmt(Ctx *C, Node *n)
{
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->n; i++) {
            Exec x = exec_stmt(C, n->list[i]);
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
        if (n->a->kind == N_INDEX && rhs->kind == N_BINARY) {
            int into = assign_index_matmul(C, n);
            if (into != 0) return into > 0 ? X_NORMAL : X_ERROR;
        }
        if (!eval_expr(C, rhs, &v)) return X_ERROR;
        if (n->a->kind == N_NAME) {   /* the common case, without assign_to's general machinery */
            store_slot(slot_of(C, n->a), v);
            return X_NORMAL;
        }
        return assign_target(C, n->a, v) ? X_NORMAL : X_ERROR;
    }
    case N_IF: {
        bool t;
        if (!eval_truthy(C, n->a, &t)) return X_ERROR;
        if (t) return exec_stmt(C, n->b);
        return n->c ? exec_stmt(C, n->c) : X_NORMAL;
    }
    case N_EXPR_STMT: {   /* a call giving none (xs.append(x), print(...)) ends here */
        Value v;
        if (!eval_expr(C, n->a, &v)) return X_ERROR;
        return v.kind == V_NONE ? X_NORMAL : exec_expr_value(C, n, v);
    }
    case N_OPASSIGN: return exec_opassign(C, n) ? X_NORMAL : X_ERROR;
    case N_FNDEF: return exec_fndef(C, n);
    case N_WHILE: return exec_while(C, n);
    case N_FOR: return exec_for(C, n);
    case N_BREAK: return X_BREAK;
    case N_CONTINUE: return X_CONTINUE;
    case N_RETURN: return exec_return(C, n);
    case N_TRY: return exec_try(C, n);
    case N_GLOBAL: return X_NORMAL;   /* the resolver bound its names */
    case N_DEL: return exec_del(C, n);
    default: {
        Value v;
        if (!eval_expr(C, n, &v)) return X_ERROR;
        val_release(v);
        return X_NORMAL;
    }
    }
}

/* Runs a resolved top-level block in the global scope. */
bool eval_program(Interp *I, Node *root)
{
    char base;
    bool outermost = I->stack_base == NULL;
    if (outermost) {
        I->stack_base = &base;
        I->stack_floor = (uintptr_t)&base > I->stack_limit ? (uintptr_t)&base - I->stack_limit : 1;
    }
    Ctx C = { .I = I, .globals = I->globals, .frame = NULL };
    ValOwner *before = val_owner_enter(&I->owner);
    Exec x = exec_stmt(&C, root);
    val_owner_leave(before);
    if (outermost) {
        I->stack_base = NULL;
        I->stack_floor = 0;
    }
    if (x == X_BREAK || x == X_CONTINUE) return interp_error(I, root->at, SyntaxError, "break or continue outside a loop");
    return x != X_ERROR;
}
