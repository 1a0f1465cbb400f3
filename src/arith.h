/* arith.h — operators on values */
#ifndef TL_ARITH_H
#define TL_ARITH_H

#include "interp.h"
#include "ops.h"

/* a OP b for a binary operator token (TK_PLUS...). */
bool arith_binary(Interp *I, int tok, Value a, Value b, Span at, Value *out);
/* OP a for '-', '+', '~', not. */
bool arith_unary(Interp *I, int tok, Value a, Span at, Value *out);
/* The computation dtype of a OP b (weak literals per NEP 50; errors for out-of-range literals). */
bool arith_result_dtype(Interp *I, tl_binop op, Value a, Value b, Span at, tl_dtype *dt);
/* Token to runtime operator, or -1. */
int arith_token_binop(int tok);

#endif
