/* registry.h — the builtins as the interpreter finds them (the one stdlib header src/ includes) */
#ifndef TL_REGISTRY_H
#define TL_REGISTRY_H

#include "tlapi.h"

/* Builds the registry once per process (later calls return at once; safe from any thread):
   every row of the stdlib's tables, in table order, with its signature parsed. false when a
   signature does not parse or memory runs out (a bug of the tables: the interpreter refuses to start). */
bool builtins_init(void);
/* The number of builtins, and the i-th in table order (builtins_init first). */
int builtin_count(void);
const Builtin *builtin_at(int i);
/* The parameters of a row the registry holds (every row the interpreter sees), parsed from its signature. */
const BuiltinParams *builtin_params(const Builtin *b);
/* The builtin named name, or NULL. */
const Builtin *builtin_find(const char *name);
/* The next row sharing b's name that serves calls whose first argument is of one kind (split on
   a string), or NULL; builtin_call picks it by that argument. */
const Builtin *builtin_variant(const Builtin *b);

/* Calls builtin a->self: binds a's arguments to its parameters (a->slot, a->rest), then runs it.
   Every call of a builtin goes through here, so each one's count, keyword and repeated-argument
   errors come from its signature. */
bool builtin_call(Interp *I, CallArgs *a, Value *out);

#endif
