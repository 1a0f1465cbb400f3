/* registry.h — the builtin tables, as the interpreter finds them (the one stdlib header src/ includes) */
#ifndef TL_REGISTRY_H
#define TL_REGISTRY_H

#include "tlapi.h"

/* A NULL-terminated list of {NULL}-terminated tables, one per stdlib file. */
extern const Builtin *const stdlib_tables[];
/* The builtin named name, or NULL. */
const Builtin *builtin_find(const char *name);

#endif
