/* resolve.h — name resolution pass between parsing and evaluation */
#ifndef TL_RESOLVE_H
#define TL_RESOLVE_H

#include "ast.h"

struct Interp;
/* Fills depth/slot of every name under root and nslots of every FnDef; globals go in I's table. */
bool resolve_program(struct Interp *I, Node *root);
void resolve_free(Node *n);

#endif
