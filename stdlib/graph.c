/* graph.c — the graph() builtin: tracing a function into an operation graph (src/graph.c does the work) */
#include "builtins.h"

/* graph(f, examples...): the graph of f for arguments shaped like the examples. */
static bool bi_graph(Interp *I, CallArgs *a, Value *out) { return interp_graph_build(I, a, out); }

const Builtin bi_graph_table[] = {
    { "graph", bi_graph, "graph(f, *examples)",
      "traces f on examples into a graph: g(values...) recomputes it with planned memory, print(g) shows it", 0 },
    { 0 },
};
