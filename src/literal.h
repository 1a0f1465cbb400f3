/* literal.h — [a, b, ...] literals and comprehensions: a tensor when every item is a number or a tensor, else a list */
#ifndef TL_LITERAL_H
#define TL_LITERAL_H

#include "interp.h"

/* True when n > 0 and every item is a number or a tensor: what makes a literal a tensor. */
bool items_are_numeric(int64_t n, const Value *items);
/* What the literal [items...] gives: a tensor when items_are_numeric (numbers and tensors of
   one shape stacked, the dtype the items' promotion with weak literals adopting; ragged is an
   error), else a list, into which the items move (each left none). */
bool literal_value(Interp *I, Span at, int64_t n, Value *items, Value *out);

#endif
