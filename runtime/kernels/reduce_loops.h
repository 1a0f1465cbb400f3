/* kernels/reduce_loops.h — the reduction kernel table shared by reduce.c and nn.c */
#ifndef TL_REDUCE_LOOPS_H
#define TL_REDUCE_LOOPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kern.h"

/* numpy sums runs of at most its buffer size (8192) pairwise, then adds them. */
#define TL_SUM_BLOCK 8192

/* run: reduces n elements at byte stride s into *out (working dtype; an i64
   index for argmin/argmax). outer (may be NULL): acc[j] = acc[j] OP x[j] for
   j < n over contiguous rows, for reductions along a non-inner axis. */
typedef struct tl_reduce_kernel {
    void (*run)(void *out, const char *a, int64_t n, int64_t s);
    void (*outer)(void *acc, const char *x, int64_t n);
    /* outer over eight rows `stride` bytes apart, in order */
    void (*outer8)(void *acc, const char *x, int64_t n, int64_t stride);
} tl_reduce_kernel;

/* A sum kernel reading bool or an integer narrower than 64 bits directly and
   writing a 64-bit total (run only), or NULL. */
const tl_reduce_kernel *tl_reduce_narrow_sum_kernel(tl_dtype in);
/* Kernel for op over working dtype w (f32 f64 c64 c128 i64 u64 bool), or NULL. */
const tl_reduce_kernel *tl_reduce_kernel_for(tl_redop op, tl_dtype w);
/* True when tl_reduce over x's last axis hands each row to its kernel's run as one contiguous
   run (reduce.c): the order a fused program's reduction adds and compares in (fusion.c). */
bool tl_reduce_rows_contiguous(const tl_tensor *x);

#endif
