/* fuzz_golden.c — libFuzzer target: tl --test's judging of a finished test (golden_check) — the
   test's source, with its #> / #! lines and `# tl-test:` directive, and what its child printed,
   statement markers (real or forged) included — then --update, whose rewrite must pass */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "golden_int.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    return 0;
}

/* Cuts the next part of the input, up to a NUL byte (or the end). */
static const char *next_part(const char **p, const char *end, size_t *n)
{
    const char *start = *p;
    const char *nul = memchr(start, 0, (size_t)(end - start));
    *n = (size_t)((nul ? nul : end) - start);
    *p = nul ? nul + 1 : end;
    return start;
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) abort();
}

/* The input is SOURCE \0 STDOUT \0 STDERR: the test file t.tl and what running it printed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    size_t nsrc, nout, nerr;
    const char *src = next_part(&p, end, &nsrc), *out = next_part(&p, end, &nout), *err = next_part(&p, end, &nerr);
    unlink("t.out");
    unlink("t.err");
    write_file("t.tl", src, nsrc);
    char path[] = "t.tl";
    Test t = { .path = path, .status = 0 };   /* the child exited with status 0 */
    if (!sb_append(&t.raw_out, out, nout) || !sb_append(&t.raw_err, err, nerr)) abort();
    golden_check(&t, false);
    golden_check(&t, true);
    /* Whatever --update writes must pass when judged again. With no plan marker all output is one
       unit, so the same output judges the rewritten file (a plan's line numbers would have moved). */
    if (t.updated && !memchr(out, MARK_OPEN, nout)) {
        golden_check(&t, false);
        if (t.verdict != VERDICT_PASS) {
            fprintf(stderr, "the test --update rewrote fails:\n%.*s\n", (int)t.report.len, t.report.data);
            abort();
        }
    }
    sb_free(&t.raw_out);
    sb_free(&t.raw_err);
    sb_free(&t.report);
    return 0;
}
