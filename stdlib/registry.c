/* registry.c — the list of builtin tables; a new stdlib file adds its table here */
#include "builtins.h"

const Builtin *const stdlib_tables[] = {
    bi_core_table,
    bi_introspect_table,
    NULL,
};
