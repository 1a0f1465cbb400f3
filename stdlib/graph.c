/* graph.c — the graph() builtin: tracing a function into an operation graph (src/graph.c does the work) */
#include "builtins.h"

/* graph(f, examples...): the graph of f for arguments shaped like the examples. */
static bool bi_graph(Interp *I, CallArgs *a, Value *out) { return interp_graph_build(I, a, out); }

/* allocations(): the count of tensor storages allocated so far (tl_storage_count). */
static bool bi_allocations(Interp *I, CallArgs *a, Value *out)
{
    (void)I;
    (void)a;
    *out = val_i64((int64_t)tl_storage_count());
    return true;
}

const Builtin bi_graph_table[] = {
    { "graph", bi_graph, "graph(f, *examples)",
      "traces f on examples into a graph: g(values...) recomputes it with planned memory, print(g) shows it", 0, BF_OTHER, BT_NO },
    { "allocations", bi_allocations, "allocations()",
      "how many tensor storages of more than 256 bytes have been allocated so far (to check a graph's memory plan)", 0, BF_OTHER, BT_NO },
    { 0 },
};
