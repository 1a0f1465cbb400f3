/* eval.h — the evaluator's entry point */
#ifndef TL_EVAL_H
#define TL_EVAL_H

#include "interp.h"

/* Runs a resolved top-level block in the global scope. False: I->err holds the error. */
bool eval_program(Interp *I, Node *root);

/* Chooses n's expression handler (Node.eval) once its slot and spec are known (the resolver calls it). */
void eval_choose(Node *n);

#endif
