/* fusion.h — fused elementwise programs: a DAG of operators over tensors and scalars run block by block */
#ifndef TL_FUSION_H
#define TL_FUSION_H

#include "ops.h"

/* A fused program is a list of nodes, each reading earlier ones: leaf tensors
   (any strides, broadcast to the program's shape), scalars, binary operators
   (TL_BINOP_LIST), unary functions (unop_list.h), casts, where(c, a, b) and a
   reduction over the last axis (keepdims) that the rest of the program may
   read back per row. The caller decides every dtype as eager evaluation would
   (promotion, weak literals: tl_binop_dtype); the program then gives the same
   bits as running the operators one at a time (tl_binary, tl_unary, tl_cast,
   tl_where, tl_reduce), because each node runs the same per-dtype loop on a
   contiguous block of values. Nothing but the outputs is allocated at the
   tensors' size: intermediates live in per-thread block buffers.

   Building: tl_fuse_init, then one call per node in evaluation order; each
   returns the node's index, or -1 with the error set when the node is not
   supported or would not give eager's bits (the caller then evaluates that part
   eagerly). Running: tl_fuse_run. Leaf tensors are borrowed: keep them alive
   and unmodified until the run returns. */

#define TL_FUSE_MAX_NODES 48

typedef enum tl_fuse_kind {
    TL_FUSE_LEAF, TL_FUSE_SCALAR, TL_FUSE_BINARY, TL_FUSE_UNARY, TL_FUSE_CAST, TL_FUSE_WHERE, TL_FUSE_REDUCE
} tl_fuse_kind;

typedef struct tl_fuse_node {
    tl_fuse_kind kind;
    int op;                    /* tl_binop, tl_unop or tl_redop */
    tl_dtype dtype;            /* the node's value's dtype */
    tl_dtype cdt;              /* dtype its operands are converted to first (where: the values' dtype) */
    int in[3];                 /* operand nodes, -1 when unused */
    bool portable;             /* unary: the portable loop, as eager runs it over a strided leaf */
    bool via_f32;              /* unary in f16/bf16: widened to f32, as eager does from 4096 elements */
    const tl_tensor *t;        /* leaf (borrowed) */
    unsigned char bytes[16];   /* scalar value, native layout of dtype */
    int ndim;                  /* the shape eager evaluation gives the node's value */
    int64_t shape[TL_MAXDIM];
} tl_fuse_node;

typedef struct tl_fuse_prog {
    int n;
    tl_fuse_node node[TL_FUSE_MAX_NODES];
} tl_fuse_prog;

void tl_fuse_init(tl_fuse_prog *p);
/* A tensor operand (borrowed). */
int tl_fuse_leaf(tl_fuse_prog *p, const tl_tensor *t);
/* A scalar of dtype dt (the bytes of a 0-d value, native layout). */
int tl_fuse_scalar(tl_fuse_prog *p, tl_dtype dt, const void *bytes);
/* a OP b computed in dt, exactly as tl_binary(op, a, b, dt) (x ** 2 is x * x there too). */
int tl_fuse_binary(tl_fuse_prog *p, tl_binop op, tl_dtype dt, int a, int b);
/* op(a), as tl_unary. */
int tl_fuse_unary(tl_fuse_prog *p, tl_unop op, int a);
/* a converted to dt, as tl_cast. */
int tl_fuse_cast(tl_fuse_prog *p, tl_dtype dt, int a);
/* where(c, a, b) with a and b converted to dt, as tl_where. */
int tl_fuse_where(tl_fuse_prog *p, tl_dtype dt, int c, int a, int b);
/* op (TL_RSUM, TL_RMEAN, TL_RMAX, TL_RMIN) of f32/f64 node a over its last
   axis with keepdims, as tl_reduce; readable by later nodes (broadcast along the row). */
int tl_fuse_reduce(tl_fuse_prog *p, tl_redop op, int a);

/* Runs p and writes nodes roots[0..nout) into outs[k]: a new C-contiguous
   tensor when outs[k] is NULL on entry, else that tensor (C-contiguous, with
   the node's dtype and shape), which must not overlap a leaf. Every output
   must have the program's full shape (the broadcast of its nodes' shapes) or,
   for a reduction, that shape with 1 as the last axis. Threaded over blocks of
   about 16384 elements (whole rows when there is a reduction); checks for
   Ctrl-C between blocks. Returns 1 when done; 0 when the program cannot run
   fused as given (shapes, a reduction eager would thread differently): nothing
   written, no error; -1 with the error set (out of memory, interrupted). */
int tl_fuse_run(const tl_fuse_prog *p, int nout, const int *roots, tl_tensor **outs);

#endif
