/* registry.c — the list of builtin tables; a new stdlib file adds its table here */
#include <string.h>

#include "builtins.h"
#include "registry.h"

const Builtin *const stdlib_tables[] = {
    bi_core_table,
    bi_introspect_table,
    bi_make_table,
    bi_random_table,
    bi_shape_table,
    bi_rearrange_table,
    bi_math_table,
    bi_logic_table,
    bi_reduce_table,
    bi_linalg_table,
    bi_decomp_table,
    bi_fft_table,
    bi_nn_table,
    bi_sort_table,
    bi_stats_table,
    bi_select_table,
    bi_samples_table,
    bi_files_table,
    bi_graph_table,
    bi_plot_table,
    NULL,
};

const Builtin *builtin_find(const char *name)
{
    for (const Builtin *const *tab = stdlib_tables; *tab; tab++)
        for (const Builtin *b = *tab; b->name; b++)
            if (strcmp(b->name, name) == 0) return b;
    return NULL;
}
