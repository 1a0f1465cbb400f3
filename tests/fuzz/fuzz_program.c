/* fuzz_program.c — libFuzzer target: whole programs run under limits on steps, storage and time */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "format.h"
#include "fuzz_common.h"
#include "interp.h"

static FILE *devnull;
static bool writes_sandboxed;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    devnull = fopen("/dev/null", "w");
    writes_sandboxed = fuzz_sandbox_writes() == 0;
    if (!writes_sandboxed)
        fprintf(stderr, "fuzz_program: no Landlock on this kernel: save() is disabled for fuzzed programs\n");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Interp *I = interp_new();
    Source *src = source_new("fuzz.tl", (const char *)data, size);
    if (!I || !src) abort();
    I->out = devnull;
    I->steps_left = FUZZ_EVAL_STEPS;
    /* without the sandbox a program could write anywhere: take save() away */
    if (!writes_sandboxed && !interp_set_global(I, "save", val_none())) abort();
    tl_printopts_default(&tl_print_options);   /* printopts() in one input must not leak into the next */
    fuzz_begin_input();
    if (!interp_run_source(I, src, true)) diag_print(devnull, &I->err);
    fuzz_end_input();
    source_release(src);
    interp_free(I);
    return 0;
}
