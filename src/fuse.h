/* fuse.h — chains of elementwise operators evaluated in one pass (a*b + c*d - e) */
#ifndef TL_FUSE_H
#define TL_FUSE_H

#include "interp.h"
#include "ops.h"

/* The flattened form of a tree of + - * / whose leaves are names and number
   literals (evaluating them has no side effects, so they can all be read
   before any operator runs). Register k < nleaves is leaves[k]; register
   nleaves + s is step s's result. */
#define FUSE_MAX_LEAVES (TL_FUSED_MAX_STEPS + 1)
typedef struct FusePlan {
    int nleaves, nsteps;
    Node *leaves[FUSE_MAX_LEAVES];
    tl_fused_step steps[TL_FUSED_MAX_STEPS];
} FusePlan;

/* The plan for a binary node rooting such a tree with at least two operators;
   NULL when n is not one (or out of memory). Free with free(). */
FusePlan *fuse_plan_new(const Node *n);
/* Runs plan p over the leaves' current values (borrowed). 1: done, *out set;
   0: these values do not qualify (small, mixed dtypes or shapes, strided,
   strong scalars...), so evaluate the tree normally; -1: error reported at at. */
int fuse_eval(Interp *I, const FusePlan *p, const Value *leaves, Span at, Value *out);

#endif
