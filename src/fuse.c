/* fuse.c — finds elementwise expression trees at resolve time and runs them through the runtime's fused programs */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "fuse.h"
#include "registry.h"

/* Below this many elements the operators run one by one: the operands fit in
   cache anyway, and small temporaries are reused in place. */
#define FUSE_MIN_ELEMENTS 65536

/* True for a call f(x) of a unary math function (its row's tag is the tl_unop) or where(c, a, b)
   whose name is a builtin of that family (a variable may shadow it when the statement runs:
   checked then). */
static bool fusable_call(const Node *n)
{
    if (n->kind != N_CALL || n->a->kind != N_NAME || n->splat) return false;
    for (int i = 0; i < n->n; i++)
        if (n->names && n->names[i]) return false;
    const Builtin *b = builtin_find(n->a->name);
    return b && ((n->n == 1 && b->family == BF_UNARY) || (n->n == 3 && b->family == BF_WHERE));
}

bool fuse_is_interior(const Node *n)
{
    if (n->kind == N_BINARY) return n->op != OP_MATMUL;
    if (n->kind == N_UNARY) return n->op == UOP_NEG || n->op == UOP_INVERT;
    return fusable_call(n);
}

/* Appends n's tree to p in evaluation order; returns its item, -1 when the tree is too big. */
static int flatten(FusePlan *p, Node *n)
{
    if (p->n >= FUSE_MAX_ITEMS) return -1;
    FuseItem it = { .kind = FI_LEAF, .node = n };
    if (fuse_is_interior(n)) {
        Node *kids[4] = { n->a, n->b };
        it.nin = 2;
        it.op = n->op;
        it.kind = FI_BINARY;
        if (n->kind == N_UNARY) {
            it.kind = FI_UNARY;
            it.nin = 1;
        } else if (n->kind == N_CALL) {
            it.kind = FI_CALL;
            it.nin = 1 + n->n;
            for (int i = 0; i < n->n; i++) kids[1 + i] = n->list[i];
        }
        for (int k = 0; k < it.nin; k++)
            if ((it.in[k] = flatten(p, kids[k])) < 0) return -1;
        if (p->n >= FUSE_MAX_ITEMS) return -1;
        p->nops++;
    } else {
        bool literal = n->kind == N_INT || n->kind == N_FLOAT || n->kind == N_TRUE || n->kind == N_FALSE;
        p->simple = p->simple && (literal || n->kind == N_NAME);
    }
    p->item[p->n] = it;
    return p->n++;
}

FusePlan *fuse_plan_new(const Node *n)
{
    if (!fuse_is_interior(n) || n->kind == N_UNARY) return NULL;
    FusePlan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->simple = true;
    if (flatten(p, (Node *)n) < 0 || p->nops < 2) {
        free(p);
        return NULL;
    }
    return p;
}

/* ---- running a plan ------------------------------------------------------------ */

/* Each item's value so far: a value (owned; V_UNDEF while it has none) and,
   when it is part of the fused program, its node there (-1 otherwise). */
typedef struct Slot { Value v; int node; } Slot;

typedef struct Run {
    Interp *I;
    const FusePlan *p;
    Slot s[FUSE_MAX_ITEMS];
    tl_fuse_prog *prog;   /* made when the first value joins it: numbers alone never need one */
} Run;

static bool is_tensor_or_number(Value v) { return v.kind == V_TENSOR || v.kind == V_NUM; }

/* Item i's dtype and weakness (a number literal, or computed from literals only). */
static tl_dtype slot_dtype(const Run *r, int i, bool *weak)
{
    const Slot *s = &r->s[i];
    *weak = s->v.kind == V_NUM && s->v.weak;
    return s->v.kind != V_UNDEF ? val_dtype(s->v) : r->prog->node[s->node].dtype;
}

/* Item i as a node of the program (a value becomes a leaf or a scalar); -1 when it cannot be one. */
static int as_node(Run *r, int i)
{
    Slot *s = &r->s[i];
    if (s->node >= 0) return s->node;
    if (!r->prog) {
        if (!(r->prog = malloc(sizeof *r->prog))) return -1;   /* then computed one operator at a time */
        tl_fuse_init(r->prog);
    }
    if (s->v.kind == V_TENSOR) s->node = tl_fuse_leaf(r->prog, s->v.as.t);
    else if (s->v.kind == V_NUM) s->node = tl_fuse_scalar(r->prog, (tl_dtype)s->v.dtype, s->v.as.num.bytes);
    return s->node;
}

/* Computes item i one operator at a time from its operands' values (forcing
   fused operands first): what the evaluator does without fusion. */
static bool force(Run *r, int i)
{
    Slot *s = &r->s[i];
    if (s->v.kind != V_UNDEF) return true;
    const FuseItem *it = &r->p->item[i];
    for (int k = 0; k < it->nin; k++)
        if (!force(r, it->in[k])) return false;
    Value a = r->s[it->in[0]].v;
    Span at = it->node->at;
    switch (it->kind) {
    case FI_BINARY: {
        Value b = r->s[it->in[1]].v;
        if (a.kind == V_NUM && b.kind == V_NUM && arith_scalar_quick(it->op, a, b, &s->v)) return true;
        return arith_binary(r->I, it->op, a, b, at, &s->v);
    }
    case FI_UNARY: return arith_unary(r->I, (UnaryOp)it->op, a, at, &s->v);
    default: {
        Value args[3];
        for (int k = 1; k < it->nin; k++) args[k - 1] = r->s[it->in[k]].v;
        return interp_call(r->I, a, it->nin - 1, args, at, &s->v);
    }
    }
}

/* Does an operator over values a and b (no program node yet) make fewer than
   FUSE_MIN_ELEMENTS elements? Then it runs eagerly, and no program is built for a
   small expression (building one costs more than the operators). Operands that do
   not broadcast count as small: the eager operator reports them. */
static bool small_values(Value a, Value b)
{
    const tl_tensor *ta = a.kind == V_TENSOR ? a.as.t : NULL, *tb = b.kind == V_TENSOR ? b.as.t : NULL;
    int nd;
    int64_t shape[TL_MAXDIM];
    if (!ta || !tb) return tl_tensor_size(ta ? ta : tb) < FUSE_MIN_ELEMENTS;
    int64_t n;
    if (tl_broadcast_shapes(ta->ndim, ta->shape, tb->ndim, tb->shape, &nd, shape) < 0 ||
        tl_shape_size(nd, shape, &n) < 0)
        return true;
    return n < FUSE_MIN_ELEMENTS;
}

/* The fused node for binary item i, or -1 (not fusable: compute it eagerly);
   -2 when the operands' dtypes are an error (reported). */
static int binary_node(Run *r, int i)
{
    const FuseItem *it = &r->p->item[i];
    int a = it->in[0], b = it->in[1];
    if (!is_tensor_or_number(r->s[a].v) && r->s[a].node < 0) return -1;
    if (!is_tensor_or_number(r->s[b].v) && r->s[b].node < 0) return -1;
    if (r->s[a].v.kind == V_NUM && r->s[b].v.kind == V_NUM) return -1;   /* numbers: numpy's scalar arithmetic */
    if (r->s[a].node < 0 && r->s[b].node < 0 && small_values(r->s[a].v, r->s[b].v)) return -1;
    bool wa, wb;
    tl_dtype da = slot_dtype(r, a, &wa), db = slot_dtype(r, b, &wb), dt;
    const void *lit = wa && !wb ? r->s[a].v.as.num.bytes : wb && !wa ? r->s[b].v.as.num.bytes : NULL;
    if (tl_binop_dtype((tl_binop)it->op, da, wa, db, wb, lit, &dt) < 0) {
        interp_error_rt(r->I, it->node->at);
        return -2;
    }
    int na = as_node(r, a), nb = na < 0 ? -1 : as_node(r, b);
    return nb < 0 ? -1 : tl_fuse_binary(r->prog, (tl_binop)it->op, dt, na, nb);
}

/* The fused node for unary item i (- or ~ of a tensor), or -1. */
static int unary_node(Run *r, int i)
{
    const FuseItem *it = &r->p->item[i];
    int a = it->in[0];
    if (r->s[a].v.kind != V_TENSOR && r->s[a].node < 0) return -1;
    if (r->s[a].node < 0 && tl_tensor_size(r->s[a].v.as.t) < FUSE_MIN_ELEMENTS) return -1;   /* small: eager */
    bool weak;
    tl_dtype d = slot_dtype(r, a, &weak);
    tl_unop op = op_unary_function((UnaryOp)it->op);
    int na = tl_unop_accepts(op, d) ? as_node(r, a) : -1;   /* refused: arith_unary reports it */
    return na < 0 ? -1 : tl_fuse_unary(r->prog, op, na);
}

/* The fused node for call item i (a unary builtin or where over tensors), or -1. */
static int call_node(Run *r, int i)
{
    const FuseItem *it = &r->p->item[i];
    Value f = r->s[it->in[0]].v;
    if (f.kind != V_BUILTIN) return -1;
    for (int k = 1; k < it->nin; k++)
        if (!is_tensor_or_number(r->s[it->in[k]].v) && r->s[it->in[k]].node < 0) return -1;
    if (it->nin == 2) {
        int x = it->in[1];
        if (f.as.bi->family != BF_UNARY || r->s[x].v.kind == V_NUM) return -1;
        if (r->s[x].node < 0 && tl_tensor_size(r->s[x].v.as.t) < FUSE_MIN_ELEMENTS) return -1;   /* small: eager */
        int nx = as_node(r, x);
        return nx < 0 ? -1 : tl_fuse_unary(r->prog, (tl_unop)f.as.bi->tag, nx);
    }
    if (f.as.bi->family != BF_WHERE) return -1;
    int c = it->in[1], a = it->in[2], b = it->in[3];
    bool wa, wb;
    tl_dtype da = slot_dtype(r, a, &wa), db = slot_dtype(r, b, &wb), dt;
    if (wa && wb) return -1;   /* where's dtype of two literals: the builtin's own rule */
    tl_dtype_acc acc = { 0 };
    tl_dtype_acc_add(&acc, da, wa, wa ? r->s[a].v.as.num.bytes : NULL);
    tl_dtype_acc_add(&acc, db, wb, wb ? r->s[b].v.as.num.bytes : NULL);
    if (tl_dtype_acc_result(&acc, &dt) < 0) return -1;   /* the builtin reports it */
    int nc = as_node(r, c), na = nc < 0 ? -1 : as_node(r, a), nb = na < 0 ? -1 : as_node(r, b);
    return nb < 0 ? -1 : tl_fuse_where(r->prog, dt, nc, na, nb);
}

/* Runs the program for root item i when it is big and has two operators; else forces it. */
static bool finish(Run *r, int i, Value *out)
{
    Slot *s = &r->s[i];
    if (s->v.kind == V_UNDEF) {
        const tl_fuse_node *n = &r->prog->node[s->node];
        int64_t size = 1, ops = 0;
        for (int d = 0; d < n->ndim; d++) size *= n->shape[d];
        for (int k = 0; k < r->prog->n; k++) ops += r->prog->node[k].kind != TL_FUSE_LEAF && r->prog->node[k].kind != TL_FUSE_SCALAR;
        tl_tensor *t = NULL;
        int rc = size >= FUSE_MIN_ELEMENTS && ops >= 2 ? tl_fuse_run(r->prog, 1, &s->node, &t) : 0;
        if (rc < 0) return interp_error_rt(r->I, r->p->item[i].node->at);
        if (rc > 0) s->v = val_from_tensor(t);
        else if (!force(r, i)) return false;
    }
    *out = s->v;
    s->v = (Value){ .kind = V_UNDEF };
    return true;
}

bool fuse_eval(Interp *I, FusePlan *p, bool (*eval_leaf)(void *ctx, Node *n, Value *out), void *ctx,
               Value *out)
{
    Run run, *r = &run;   /* not cleared: each slot is set before it is read */
    r->I = I;
    r->p = p;
    r->prog = NULL;
    bool ok = true;
    int i = 0;
    for (; i < p->n && ok; i++) {
        const FuseItem *it = &p->item[i];
        Slot *s = &r->s[i];
        s->v = (Value){ .kind = V_UNDEF };
        s->node = -1;
        if (it->kind == FI_LEAF) {
            ok = eval_leaf(ctx, it->node, &s->v);
            continue;
        }
        int node = it->kind == FI_BINARY ? binary_node(r, i) : it->kind == FI_UNARY ? unary_node(r, i) : call_node(r, i);
        if (node == -2) ok = false;
        else if (node >= 0) s->node = node;
        else ok = force(r, i);
    }
    if (ok) ok = finish(r, p->n - 1, out);
    p->numbers = ok && !r->prog && out->kind == V_NUM;   /* no value joined a program: numbers only */
    for (int k = 0; k < i; k++) val_release(r->s[k].v);
    free(r->prog);
    return ok;
}
