/* literal.h — building tensors from [a, b, ...] literals */
#ifndef TL_LITERAL_H
#define TL_LITERAL_H

#include "interp.h"

/* Stacks n numeric items (scalars or equal-shaped tensors) into one tensor; ragged → error.
   The dtype is the promotion of the items, weak literals adopting the strong items' dtype. */
bool literal_tensor(Interp *I, Span at, int n, const Value *items, Value *out);

#endif
