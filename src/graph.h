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

/* Nonzero while graph() traces (a builtin call then checks its arguments): the serial number
   of the trace, which each traced value carries. */
extern uint32_t graph_tracing;

/* The error for a traced value used after its graph() call returned (kept in a dict, a global
   or a closure while f ran): it stands for a node of a graph that is built. */
#define GRAPH_STALE "a value traced by graph() was used outside the graph() call"

/* True when v (a V_TRACE) belongs to the trace in progress. */
static inline bool graph_trace_live(Value v) { return graph_tracing != 0 && v.as.tr.trace == graph_tracing; }

/* After a builtin failed outside a trace: when an argument holds a traced value (in a tuple or
   dict too), replaces the error by GRAPH_STALE at the call, the cause a builtin cannot see. */
void graph_explain_failure(Interp *I, const CallArgs *a);

/* try/catch while graph() traces: a graph has no branch on an error, so the error f would
   catch ends graph() instead, its message saying why. Leaves the error set. */
void graph_refuse_catch(Interp *I);

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
