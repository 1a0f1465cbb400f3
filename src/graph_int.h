/* graph_int.h — a graph's nodes and plan, shared by graph.c (tracing, calling) and graph_plan.c (plan, print) */
#ifndef TL_GRAPH_INT_H
#define TL_GRAPH_INT_H

#include "graph.h"
#include "interp.h"

typedef enum GNodeKind {
    GN_INPUT,     /* argument op of g(...) */
    GN_LEAF,      /* a tensor f reached that no argument computes (closure, global, made inside f) */
    GN_BINARY,    /* a OP b: op a tl_binop or OP_MATMUL */
    GN_UNARY,     /* OP a: op a UnaryOp */
    GN_CALL,      /* a traceable builtin */
    GN_INDEX,     /* a[items] */
} GNodeKind;

/* One node. Argument lists are templates: a V_TRACE (tr.t NULL) names the node
   whose value goes there, any other value is a constant passed as it is. */
typedef struct GNode {
    GNodeKind kind;
    int op;
    const Builtin *bi;          /* GN_CALL */
    int npos, nkw;              /* arguments: npos positional then nkw keyword */
    Value *args;
    char **kwnames;
    int nitems;                 /* GN_INDEX */
    tl_index_item *items;
    Value leaf;                 /* GN_LEAF: held by reference */
    const char *name;           /* GN_INPUT: the parameter's name (owned by the graph) */
    tl_dtype dtype;
    bool number;                /* eager code gives a 0-d number here */
    bool weak;                  /* GN_INPUT number: the example was a weak literal */
    bool view;                  /* shares its storage with node `base` (no buffer of its own) */
    int base;
    int ndim;
    int64_t shape[TL_MAXDIM];
    /* the plan (graph_plan) */
    int64_t nbytes;             /* its own buffer: 0 for views, numbers, inputs and leaves */
    int last_use;               /* the last node reading it (or its views); n for outputs */
    int consumers;
    int group;                  /* fused group, -1 for inputs, leaves and views */
    bool elementwise, reduction;
    int64_t offset;             /* in the arena, -1 when not in it */
} GNode;

struct Graph {
    int64_t refcount;
    char *fname;                /* f's name, for print */
    int n, cap;
    GNode *nodes;
    int ninputs;
    Value out;                  /* the result template: a node, a constant, or a tuple of them */
    /* the plan */
    int nleaves, ncompute, nkernels;
    int64_t arena_bytes, output_bytes;
    tl_storage *arena;          /* arena_bytes, made at the first call that uses it */
    bool contiguous_examples;   /* every tensor example was contiguous (the arena's condition) */
    bool running;               /* a call is in progress (a nested one runs without the arena) */
};

/* Computes lifetimes, fused groups and arena offsets for g's nodes. */
void graph_plan(Graph *g);

#endif
