/* graph.h — operation graphs: graph(f, examples...) traces f, g(values...) replays it (docs/graphs.md) */
#ifndef TL_GRAPH_H
#define TL_GRAPH_H

#include "tlapi.h"

/* How graph() works, in one paragraph: f runs once through the ordinary
   evaluator on V_TRACE values. A V_TRACE carries the tensor eager code would
   have computed for the examples (so shapes, dtypes and every rule come from
   the same code eager runs) and the number of the graph node it stands for.
   Operators (arith.c), indexing (subscript.c) and traceable builtins (their
   rows' trace column, checked in call.c's call_value) record a node each; a
   branch on a traced value, or a builtin that is not traceable, is an error.
   A call g(...) replays the nodes with the same evaluator functions, so the
   bits are the ones f(...) gives. */

/* Nonzero while graph() traces (a builtin call then checks its arguments). */
extern uint32_t graph_tracing;

/* g(values...): checks the arguments against the examples and computes. */
bool graph_call(Interp *I, Graph *g, CallArgs *a, Value *out);

/* ---- recording (called only when an operand is a V_TRACE) ------------- */

/* True when any argument (or an item of a tuple argument) is a V_TRACE. */
bool graph_args_traced(const CallArgs *a);
/* a OP b with a traced operand (op: a tl_binop or OP_MATMUL). */
bool graph_trace_binary(Interp *I, int op, Value a, Value b, Span at, Value *out);
/* OP a for a traced a. */
bool graph_trace_unary(Interp *I, int op, Value a, Span at, Value *out);
/* A builtin called with traced arguments (a->self is set). */
bool graph_trace_builtin(Interp *I, CallArgs *a, Value *out);
/* base[items] for a traced base; held: the values the items borrow (tensor indices). */
bool graph_trace_index(Interp *I, Value base, int n, const tl_index_item *items, const Value *held, Span at, Value *out);

#endif
