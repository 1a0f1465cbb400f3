/* graph_int.h — a graph's nodes and plan, shared by graph.c (tracing, calling) and graph_plan.c (plan, print) */
#ifndef TL_GRAPH_INT_H
#define TL_GRAPH_INT_H

#include "graph.h"
#include "interp.h"
#include "fusion.h"

/* How many tuples deep a traced value is looked for in an argument or f's result: builtins take
   tensors in a tuple (concat((a, b))), so a few levels are plenty; a tuple deeper is a constant
   of the graph, and no walk over a value nested millions deep recurses without bound. */
#define GRAPH_TRACE_DEPTH 8

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
    int64_t strides[TL_MAXDIM]; /* of its value when traced (how a fused program's leaf is laid out) */
    tl_scalar example;          /* GN_INPUT number: the example's value (a fused program's scalar when built) */
    /* the plan (graph_plan) */
    int64_t nbytes;             /* its own buffer: 0 for views, numbers, inputs, leaves and values inside a fused program */
    int last_use;               /* the last node reading it (or its views); n for outputs */
    int consumers;
    int group;                  /* the kernel it runs in (print's group column), -1 for inputs, leaves and views */
    int fgroup;                 /* its fused program in Graph.fused, -1 when it runs alone */
    int step;                   /* the node at whose turn its value is computed (a fused program's last node) */
    int release;                /* the step after which no one reads its value; n for outputs */
    int64_t working;            /* storages its kernel allocates besides its result (traced, then each planned call) */
    int64_t work_bytes;         /* bytes of its working tensors when traced (a measuring tl_workspace) */
    bool no_join;               /* planning: it may not share a fused program (its shape cannot be an output of one) */
    int64_t offset;             /* in the arena, -1 when not in it */
} GNode;

/* A fused group: nodes run as one runtime fused program (runtime/fusion.h),
   built when the graph is; each call points its leaves at that call's values. */
typedef struct GFused {
    tl_fuse_prog *prog;
    int last;                   /* its last node: the step at which it runs */
    int nmembers, member[TL_FUSE_MAX_NODES];   /* its nodes, in node order (one program node each at least) */
    int nleaves, nvars, nroots, nweak;
    int leaf_prog[TL_FUSE_MAX_NODES], leaf_node[TL_FUSE_MAX_NODES];   /* program leaf -> graph node */
    int var_prog[TL_FUSE_MAX_NODES], var_node[TL_FUSE_MAX_NODES];     /* scalar -> number argument */
    int root_prog[TL_FUSE_MAX_NODES], root_node[TL_FUSE_MAX_NODES];   /* outputs of the program */
    /* a weak number argument's dtype rule depends on its value: checked at each call */
    struct { int node, op; tl_dtype other, dt; bool first; } weak[TL_FUSE_MAX_NODES];
} GFused;

struct Graph {
    ObjHead head;               /* first: a value holds a graph through it (value.h) */
    char *fname;                /* f's name, for print */
    int n, cap;
    GNode *nodes;
    int ninputs;
    Value out;                  /* the result template: a node, a constant, or a tuple of them */
    /* the plan */
    int nleaves, ncompute, nkernels;
    int64_t arena_bytes, output_bytes;
    int64_t eager_bytes;        /* values of kernels that cannot write into the arena (allocated at each call) */
    int64_t working;            /* storages kernels that run alone allocate besides their results at each call */
    int64_t work_offset, work_bytes;   /* the arena's working region: lent to each kernel run alone for its working tensors */
    tl_storage *arena;          /* arena_bytes, made at the first call that uses it */
    int nfused;
    GFused *fused;              /* the fused groups, by first node */
    bool running;               /* a call is in progress (a nested one runs without the arena) */
};

/* True for a node of a builtin whose result has its operands' broadcast shape (the element-wise
   families of the builtin rows). */
static inline bool gnode_elementwise(const GNode *nd)
{
    if (nd->kind != GN_CALL) return false;
    BuiltinFamily f = (BuiltinFamily)nd->bi->family;
    return f == BF_UNARY || f == BF_BINARY || f == BF_CAST || f == BF_WHERE || f == BF_ELEMENTWISE;
}

/* True for a node of a reduction builtin (sum, mean, ...). */
static inline bool gnode_reduction(const GNode *nd) { return nd->kind == GN_CALL && nd->bi->family == BF_REDUCE; }

/* Calls fn(ctx, j, user) for every node j that argument template t refers to (tuples item by
   item, GRAPH_TRACE_DEPTH deep as template_of makes them). */
void graph_each_ref(Value t, int user, void (*fn)(void *ctx, int j, int user), void *ctx);

/* Writes print(g): the node table and totals. 0, or -1 with the tl error set. */
int graph_write(const void *g, tl_write_fn w, void *ctx);

/* Computes lifetimes, fused groups and arena offsets for g's nodes. */
void graph_plan(Graph *g);

/* Sums the storages the kernels that run alone allocate besides their results (g->working). */
void graph_count_working(Graph *g);

/* graph_fuse.c: groups g's nodes into fused programs (sets fgroup, g->fused). */
void graph_fuse_plan(Graph *g);
void graph_fuse_free(Graph *g);
/* Runs fused group f with vals[] holding every value it reads; its outputs go
   into vals[] (into the arena when planned there). 1 done, 0 declined (shapes,
   a weak argument's value: nothing written), -1 error set. */
int graph_fuse_run(Graph *g, GFused *f, Value *vals, bool use_arena);
/* True when node k's kernel can write into a given tensor (a builtin whose row traces BT_INTO,
   an operator, indexing): such a node gets a buffer of the arena. */
bool graph_writes_into(const Graph *g, int k);
/* A contiguous tensor over node nd's buffer of the arena (NULL: error set). */
tl_tensor *graph_arena_view(Graph *g, const GNode *nd);
/* Computes matrix product node k into out: 1 done (vals[k] set), 0 when its kernel
   declines (compute it as usual), -1 error set. */
int graph_run_product(Graph *g, int k, Value *vals, tl_tensor *out);

#endif
