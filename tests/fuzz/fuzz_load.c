/* fuzz_load.c — libFuzzer target: bytes saved as a FUZZ_EXT file (one target per format in
   TL_FILE_FORMAT_LIST), loaded through tl_load, then every tensor printed and the metadata decoded */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_common.h"
#include "io.h"

#ifndef FUZZ_EXT
#error "build with -DFUZZ_EXT='\".npy\"' (the file name extension that picks the loader)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    return 0;
}

/* Walks a decoded metadata tree, printing its arrays (so their bytes are read). */
static void walk_meta(const tl_meta *m, const tl_printopts *o)
{
    if (m->kind == TL_META_ARRAY && m->array) (void)tl_fmt_tensor(m->array, o, fuzz_discard, NULL);
    if (m->kind == TL_META_LIST || m->kind == TL_META_MAP)
        for (int64_t i = 0; i < m->n; i++) walk_meta(&m->items[i], o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_file(FUZZ_EXT, data, size);
    if (!path) abort();
    tl_printopts o;
    tl_printopts_default(&o);
    o.threshold = 64;   /* summarised printing still reads the corners of every axis */
    fuzz_begin_input();
    tl_file *f = tl_load(path);
    if (f) {
        for (int64_t i = 0; i < f->n; i++)
            if (tl_fmt_tensor(f->tensors[i].tensor, &o, fuzz_discard, NULL) == 0) {
                /* and all of it, through a contiguous copy (the path saving takes) */
                tl_tensor *c = tl_contiguous(f->tensors[i].tensor);
                tl_tensor_release(c);
            }
        if (f->meta) {
            tl_meta *m = tl_meta_decode(f->meta, f->meta_len);
            if (m) {
                walk_meta(m, &o);
                tl_meta_free(m);
            }
        }
        tl_file_free(f);
    }
    fuzz_end_input();
    return 0;
}
