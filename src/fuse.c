/* fuse.c — recognizes operator chains at resolve time and runs them through tl_fused_binary */
#include <stdlib.h>
#include <string.h>

#include "fuse.h"

/* Below this many elements the operators run one by one: the operands fit in
   cache anyway, and small temporaries are reused in place. */
#define FUSE_MIN_ELEMENTS 65536

/* True for the operators a chain may hold: + - * /. */
static bool fusable_op(int op) { return op == TL_ADD || op == TL_SUB || op == TL_MUL || op == TL_DIV; }

static bool is_leaf(const Node *n) { return n->kind == N_NAME || n->kind == N_INT || n->kind == N_FLOAT; }

/* The number of leaves under n when n is a chain of fusable operators over
   leaves, else -1. */
static int count_leaves(const Node *n)
{
    if (is_leaf(n)) return 1;
    if (n->kind != N_BINARY || !fusable_op(n->op)) return -1;
    int a = count_leaves(n->a), b = a < 0 ? -1 : count_leaves(n->b);
    return b < 0 ? -1 : a + b;
}

/* Appends n's subtree to p in evaluation order (p->nleaves counts leaves seen
   so far, `total` is their final number); returns n's register. */
static int flatten(FusePlan *p, const Node *n, int total)
{
    if (is_leaf(n)) {
        p->leaves[p->nleaves] = (Node *)n;
        return p->nleaves++;
    }
    int a = flatten(p, n->a, total);
    int b = flatten(p, n->b, total);
    p->steps[p->nsteps] = (tl_fused_step){ (tl_binop)n->op, (uint8_t)a, (uint8_t)b };
    return total + p->nsteps++;
}

FusePlan *fuse_plan_new(const Node *n)
{
    if (n->kind != N_BINARY) return NULL;
    int leaves = count_leaves(n);   /* a chain of k operators has k + 1 leaves */
    if (leaves < 3 || leaves > FUSE_MAX_LEAVES) return NULL;
    FusePlan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    flatten(p, n, leaves);
    return p;
}

/* True when scalar v can join a chain over tensors of float dtype dt and give
   what the operators one by one give: weak literals of kind bool, int or float
   adopt dt (NEP 50); strong or complex scalars change the result dtype. */
static bool scalar_joins(const Value *v)
{
    return v->kind == V_NUM && v->weak && (v->dtype == TL_BOOL || v->dtype == TL_I64 || v->dtype == TL_F64);
}

int fuse_eval(Interp *I, const FusePlan *p, const Value *leaves, Span at, Value *out)
{
    const tl_tensor *like = NULL;
    for (int i = 0; i < p->nleaves && !like; i++)
        if (leaves[i].kind == V_TENSOR) like = leaves[i].as.t;
    if (!like || (like->dtype != TL_F32 && like->dtype != TL_F64) || tl_tensor_size(like) < FUSE_MIN_ELEMENTS)
        return 0;
    tl_fused_operand ops[FUSE_MAX_LEAVES];
    bool tensor_valued[FUSE_MAX_LEAVES + TL_FUSED_MAX_STEPS];
    for (int i = 0; i < p->nleaves; i++) {
        const Value *v = &leaves[i];
        tensor_valued[i] = v->kind == V_TENSOR;
        if (v->kind == V_TENSOR) {
            const tl_tensor *t = v->as.t;
            if (t->dtype != like->dtype || t->ndim != like->ndim || !tl_is_contiguous(t)) return 0;
            for (int d = 0; d < t->ndim; d++)
                if (t->shape[d] != like->shape[d]) return 0;   /* broadcasting: the general path */
            ops[i] = (tl_fused_operand){ .t = t };
        } else {
            if (!scalar_joins(v)) return 0;
            ops[i] = (tl_fused_operand){ .t = NULL, .dtype = (tl_dtype)v->dtype };
            memcpy(ops[i].bytes, v->as.num.bytes, tl_dtype_size((tl_dtype)v->dtype));
        }
    }
    /* two literals meet in the literal's own dtype (2 * 0.1 in f64), not in the
       tensors' dtype, so a step over two scalars is left to the general path */
    for (int s = 0; s < p->nsteps; s++) {
        tensor_valued[p->nleaves + s] = tensor_valued[p->steps[s].a] || tensor_valued[p->steps[s].b];
        if (!tensor_valued[p->nleaves + s]) return 0;
    }
    tl_tensor *r = tl_fused_binary(like->dtype, p->nleaves, ops, p->nsteps, p->steps);
    if (!r) {
        interp_error_rt(I, at);
        return -1;
    }
    *out = val_from_tensor(r);
    return 1;
}
