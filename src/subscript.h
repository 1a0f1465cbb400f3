/* subscript.h — a[...] on values: tensors (views and advanced indexing), tuples, strings, dicts */
#ifndef TL_SUBSCRIPT_H
#define TL_SUBSCRIPT_H

#include "interp.h"

/* How subscript code evaluates the index expressions of an N_INDEX node. */
typedef bool (*SubscriptEval)(void *ctx, Node *n, Value *out);

/* base[items of idx] where idx is the N_INDEX node. */
bool subscript_get(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value *out);
/* True when every item of idx is a slice whose bounds are absent or integer literals, an
   integer literal or a name: what subscript_tensor_simple reads (chosen once, by the resolver). */
bool subscript_is_simple(const Node *idx);
/* t[items of idx] for such an idx, the items read without the general machinery: 1 done,
   0 a name held no integer (nothing kept: use subscript_get), -1 error reported. */
int subscript_tensor_simple(Interp *I, SubscriptEval ev, void *ctx, const tl_tensor *t, Node *idx, Value *out);
/* base[items of idx] = v (v borrowed). */
bool subscript_set(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value v);
/* del base[items of idx]: a list's item or slice, a dict's key. */
bool subscript_del(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx);

/* An optional integer slice bound n (NULL or none: *has false; else an integer, or a TypeError). */
bool subscript_slice_bound(Interp *I, SubscriptEval ev, void *ctx, Node *n, int64_t *out, bool *has);
/* Strings (by character), tuples and lists (subscript_seq.c): one integer or one slice. */
bool subscript_seq_get(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value *out);
bool subscript_seq_set(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx, Value v);
bool subscript_seq_del(Interp *I, SubscriptEval ev, void *ctx, Value base, Node *idx);

#endif
