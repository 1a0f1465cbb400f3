/* test_limits.c — the limits embedders (the fuzzers) set: the step budget and the storage cap */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "interp.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(limits);

/* Runs text in a fresh interpreter with the given step budget; returns whether it succeeded. */
static bool run_with_steps(const char *text, int64_t steps, char *err, size_t errlen)
{
    Interp *I = interp_new();
    cr_assert_not_null(I);
    FILE *out = fopen("/dev/null", "w");
    I->out = out;
    I->steps_left = steps;
    Source *src = source_new("limits.tl", text, strlen(text));
    bool ok = interp_run_source(I, src, true);
    snprintf(err, errlen, "%s", ok ? "" : I->err.msg);
    source_release(src);
    interp_free(I);
    fclose(out);
    return ok;
}

Test(limits, endless_loop_stops_at_the_step_budget)
{
    char err[DIAG_MSG_MAX];
    cr_assert_not(run_with_steps("i = 0\nwhile true { i += 1 }\n", 1000, err, sizeof err));
    cr_assert_str_eq(err, "step limit reached");
}

Test(limits, deep_recursion_counts_calls)
{
    char err[DIAG_MSG_MAX];
    cr_assert_not(run_with_steps("fn f(n) { return f(n + 1) }\nf(0)\n", 50, err, sizeof err));
    cr_assert_str_eq(err, "step limit reached");
}

Test(limits, a_program_within_the_budget_runs)
{
    char err[DIAG_MSG_MAX];
    cr_assert(run_with_steps("s = 0\nfor i in range(100) { s += i }\nprint(s)\n", 1000, err, sizeof err), "%s", err);
    /* 0 means no budget */
    cr_assert(run_with_steps("s = 0\nfor i in range(100000) { s += i }\n", 0, err, sizeof err), "%s", err);
}

Test(limits, storage_cap_refuses_larger_tensors)
{
    size_t saved = tl_storage_max_bytes;
    tl_storage_max_bytes = 4096;
    int64_t small[1] = { 512 }, big[1] = { 513 };
    tl_tensor *a = tl_tensor_zeros(TL_F64, 1, small);
    tl_tensor *b = tl_tensor_zeros(TL_F64, 1, big);
    tl_storage_max_bytes = saved;
    cr_assert_not_null(a);
    cr_assert_null(b);
    cr_assert(strstr(tl_errmsg(), "cannot allocate 4104 bytes: too large"), "%s", tl_errmsg());
    tl_tensor_release(a);
}
