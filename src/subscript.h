/* subscript.h — a[...] on values: tensors (views and advanced indexing), tuples, strings, dicts */
#ifndef TL_SUBSCRIPT_H
#define TL_SUBSCRIPT_H

#include "interp.h"

/* How subscript code evaluates the index expressions of an N_INDEX node. */
typedef bool (*SubscriptEval)(void *ctx, Node *n, Value *out);

/* base[items of idx] where idx is the N_INDEX node. */
bool subscript_get(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value *out);
/* base[items of idx] = v (v borrowed). */
bool subscript_set(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value v);

#endif
