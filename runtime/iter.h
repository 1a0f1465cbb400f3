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

#endif
