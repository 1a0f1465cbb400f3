/* fuse.h — a statement's elementwise expression tree run as one fused program (runtime/fusion.h) */
#ifndef TL_FUSE_H
#define TL_FUSE_H

#include "interp.h"
#include "fusion.h"

/* The tree under a node the resolver gave a plan, flattened in evaluation
   order. Interior items are the fusable operators: binary operators but @,
   unary - and ~, calls of a unary math builtin with one argument or of
   where(c, a, b) (a callee is an item of its own, evaluated first as eager
   does, and checked to be that builtin when the statement runs). Every other
   node is a leaf, evaluated as usual. */
#define FUSE_MAX_ITEMS 64
typedef enum FuseItemKind { FI_LEAF, FI_BINARY, FI_UNARY, FI_CALL } FuseItemKind;
typedef struct FuseItem {
    uint8_t kind;
    int op;          /* FI_BINARY: tl_binop; FI_UNARY: UnaryOp */
    int nin;         /* FI_CALL: callee and its arguments */
    int in[4];       /* earlier items */
    Node *node;      /* the leaf, or the operator's node (its span) */
} FuseItem;
typedef struct FusePlan {
    int n, nops;
    bool simple;     /* every leaf is a name or a number literal (the quick no-tensor check applies) */
    bool numbers;    /* the last run computed numbers only: a scalar loop skips the walk ... */
    uint8_t skipped; /* ... but looks again every 64th time */
    FuseItem item[FUSE_MAX_ITEMS];
} FusePlan;

/* True when the evaluator should evaluate p's tree as usual this time: its
   last run saw no tensor (a scalar loop), and this is not a 64th look. */
static inline bool fuse_skip(FusePlan *p) { return p->numbers && (++p->skipped & 63) != 0; }

/* True when n is an operator a plan's tree runs fused (not a leaf). */
bool fuse_is_interior(const Node *n);
/* The plan for a tree rooted at n with at least two fusable operators; NULL
   when n roots none (or out of memory). Free with free(). */
FusePlan *fuse_plan_new(const Node *n);
/* Evaluates plan p: leaves through eval_leaf (in eager's order), then the
   operators, fused when the values qualify (tensors of at least 65536
   elements, operators a fused program runs as eager would), else one at a
   time from the values already computed. True with *out set; false with the
   error reported. */
bool fuse_eval(Interp *I, FusePlan *p, bool (*eval_leaf)(void *ctx, Node *n, Value *out), void *ctx,
               Value *out);

#endif
