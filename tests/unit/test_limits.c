/* test_limits.c — the limits embedders (the fuzzers) set: the step budget and the storage cap */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ast.h"
#include "interp.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(limits);

/* Runs text in a fresh interpreter with the given step budget and, when not 0, C-stack
   budget for calls; returns whether it succeeded. */
static bool run_with_limits(const char *text, int64_t steps, size_t stack_limit, char *err, size_t errlen)
{
    Interp *I = interp_new();
    cr_assert_not_null(I);
    FILE *out = fopen("/dev/null", "w");
    I->out = out;
    I->steps_left = steps;
    if (stack_limit) I->stack_limit = stack_limit;
    Source *src = source_new("limits.tl", text, strlen(text));
    bool ok = interp_run_source(I, src, true);
    snprintf(err, errlen, "%s", ok ? "" : I->err.msg);
    source_release(src);
    interp_free(I);
    fclose(out);
    return ok;
}

/* Runs text in a fresh interpreter with the given step budget; returns whether it succeeded. */
static bool run_with_steps(const char *text, int64_t steps, char *err, size_t errlen)
{
    return run_with_limits(text, steps, 0, err, errlen);
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

Test(limits, every_call_path_checks_the_stack_budget)
{
    /* a global's one-expression body, with names or any arguments, a block body, defaults,
       a closure in a local, a builtin calling a closure */
    static const char *const progs[] = {
        "fn f(n) = n\nf(1)\n", "fn f(n) = n\nf(1 + 1)\n", "fn f(a, b, c) = a\nf(1, 2, 3)\n",
        "fn f(n) { return n }\nf(1)\n", "fn f(n, m=2) = n\nf(1)\n", "fn g() { h = fn(x) = x; return h(1) }\ng()\n",
    };
    char err[DIAG_MSG_MAX];
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
        /* one byte of stack: the first call is already too deep (the call count is 1) */
        cr_assert_not(run_with_limits(progs[i], 0, 1, err, sizeof err), "%s", progs[i]);
        cr_assert(strstr(err, "recursion too deep") != NULL, "%s: %s", progs[i], err);
        cr_assert(run_with_limits(progs[i], 0, (size_t)1 << 20, err, sizeof err), "%s: %s", progs[i], err);
    }
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

/* Writes a sparse regular file of n bytes (holes read as NUL bytes); returns its path. */
static const char *sparse_file(char *path, size_t len, long long n)
{
    snprintf(path, len, "/tmp/tl_test_limits_%d.tl", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("print(1)\n", f);
    cr_assert_eq(ftruncate(fileno(f), (off_t)n), 0);
    fclose(f);
    return path;
}

Test(limits, a_regular_file_over_64_mib_is_refused_by_its_size)
{
    char path[64], err[256];
    sparse_file(path, sizeof path, (65LL << 20));
    Source *s = source_from_file(path, err, sizeof err);
    unlink(path);
    cr_assert_null(s);
    cr_assert(strstr(err, "is larger than 64 MiB") != NULL, "%s", err);
}

Test(limits, a_regular_file_is_read_whole_nul_bytes_included)
{
    char path[64], err[256];
    sparse_file(path, sizeof path, 1LL << 20);   /* "print(1)\n" then NUL bytes up to 1 MiB */
    Source *s = source_from_file(path, err, sizeof err);
    unlink(path);
    cr_assert_not_null(s, "%s", err);
    cr_assert_eq(s->len, (size_t)1 << 20);
    source_release(s);
}

/* A device is read up to its first NUL byte: /dev/zero gives one byte, which the lexer refuses. */
Test(limits, dev_zero_ends_at_its_first_nul_byte)
{
    char err[256];
    Source *s = source_from_file("/dev/zero", err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    cr_assert_eq(s->len, 1);
    source_release(s);
}
