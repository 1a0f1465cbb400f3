/* eval.h — the evaluator's entry point */
#ifndef TL_EVAL_H
#define TL_EVAL_H

#include "interp.h"

/* Runs a resolved top-level block in the global scope. False: I->err holds the error. */
bool eval_program(Interp *I, Node *root);

#endif
