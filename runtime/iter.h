/* iter.h — strided iteration: broadcast, coalesce and order axes, hand inner runs to kernels */
#ifndef TL_ITER_H
#define TL_ITER_H

#include "tensor.h"

#define TL_ITER_MAXOPS 4

/* An inner loop: n elements, one pointer and one byte stride per operand. */
/* tl_iter_run hands the inner function at most this many elements at a time
   and checks for Ctrl-C between such chunks (never before the first one). */
#define TL_ITER_CHUNK 16384

typedef void (*tl_inner_fn)(int64_t n, char **ptrs, const int64_t *byte_strides, void *aux);

/* An iteration plan over up to TL_ITER_MAXOPS operands of one (broadcast)
   shape, with axes coalesced and ordered for locality. Kernels never see shapes. */
typedef struct tl_iter {
    int nops;
    int ndim;                                   /* after coalescing; innermost axis is ndim-1; tl_iter_init gives >= 1 (0-d: one axis of 1) */
    int64_t shape[TL_MAXDIM];
    int64_t bstrides[TL_ITER_MAXOPS][TL_MAXDIM]; /* byte strides per operand */
    char *base[TL_ITER_MAXOPS];
    int64_t size;
} tl_iter;

/* Plans iteration of ops[0..nops) broadcast to (ndim, shape). Operand 0 is
   usually the output. Returns -1 (error set) if an operand cannot broadcast. */
int tl_iter_init(tl_iter *it, int nops, const tl_tensor *const *ops, int ndim, const int64_t *shape);
/* Runs fn over every inner run; checks the interrupt flag between chunks. */
int tl_iter_run(const tl_iter *it, tl_inner_fn fn, void *aux);

/* The planner behind every init: iteration of nops operands over (ndim, shape)
   from each operand's base pointer and byte strides (0 on broadcast axes).
   Drops size-1 axes, flips all-negative ones, orders and merges the rest. */
int tl_iter_plan(tl_iter *it, int nops, int ndim, const int64_t *shape, char *const *base,
                 const int64_t (*bstrides)[TL_MAXDIM]);

/* Plans a walk over batch entries: the leading axes of ops[0..nops), each
   without its last core[k] axes, broadcast to (ndim, shape). Each element of
   the plan is one batch entry; tl_iter_at gives its operands' first elements. */
int tl_iter_batch_init(tl_iter *it, int nops, const tl_tensor *const *ops, const int *core, int ndim,
                       const int64_t *shape);

/* Operand pointers at position i (0 <= i < it->size) of the plan's order. */
void tl_iter_at(const tl_iter *it, int64_t i, char **ptrs);

/* Runs along some axes: the kept (outer) axes are walked by a plan whose
   pointers are the first element of each run; the run's axes are merged
   into one run of len elements, stepping stride[k] bytes in operand k. */
typedef struct tl_iter_runs {
    tl_iter outer;
    int64_t len;
    int64_t stride[TL_ITER_MAXOPS];
    int perm[TL_MAXDIM];    /* kept axes in order, then the run's axes outermost first */
} tl_iter_runs;

/* Plans runs along the axes in mask of ops[0..nops) broadcast to (ndim,
   shape). The run's axes go in the memory order of the last operand (by
   |stride|, largest first; C order when c_order), and the kept axes stay in
   C order when operand 0 is C-contiguous. Returns 1 when the run's axes do
   not merge into one (the caller copies with perm's order), -1 on error. */
int tl_iter_runs_init(tl_iter_runs *r, int nops, const tl_tensor *const *ops, int ndim, const int64_t *shape,
                      const bool *mask, bool c_order);

#endif
