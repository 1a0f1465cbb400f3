/* golden_int.h — the pieces of `tl --test` shared by its files: markers, units, tolerance, diffs, reports */
#ifndef TL_GOLDEN_INT_H
#define TL_GOLDEN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stmt_marks.h"
#include "value.h"

/* The `# tl-test: rtol=R atol=A` directive: numbers compare within atol + rtol * |expected|. */
typedef struct Tolerance { bool on; double rtol, atol; } Tolerance;

/* Reads the directive from a test's source; false (with a message in err) when it is malformed. */
bool tolerance_parse(const char *src, size_t len, Tolerance *tol, char *err, size_t errlen);
/* Whether actual equals expected: byte for byte, except number tokens within the tolerance. */
bool tolerant_equal(const char *expected, size_t elen, const char *actual, size_t alen, const Tolerance *tol);

/* Output split by statement: unit 0 is the output before the first statement (or all of it when
   the program did not parse); unit k >= 1 is the statements starting on line[k]. */
typedef struct Units {
    int n;
    int *line;               /* line[0] = 0 */
    StrBuf *out, *err;       /* each unit's stdout and stderr */
    size_t *out_at, *err_at; /* where each unit starts in the marker-free stdout / stderr */
    StrBuf all_out, all_err; /* the marker-free streams */
    bool planned;            /* the plan marker was seen (the program parsed) */
} Units;

/* Splits a marked child's stdout and stderr into units; false when out of memory. */
bool units_split(Units *u, const char *out, size_t outlen, const char *err, size_t errlen);
void units_free(Units *u);
/* The unit owning source line `line` (the last one starting before it; 0 if none). */
int units_owner(const Units *u, int line);
/* The unit whose output holds byte `at` of stdout (is_err false) or stderr. */
int units_at(const Units *u, bool is_err, size_t at);

/* A diff hunk's label: text naming where its change came from ("x.tl:12: print(a)"), or NULL. */
typedef const char *(*HunkLabel)(void *ctx, size_t actual_offset);

/* Appends a unified diff of expected against actual to r (lines compare under tol). */
void diff_write(StrBuf *r, const char *name_a, const char *a, size_t alen, const char *name_b, const char *b,
                size_t blen, const Tolerance *tol, HunkLabel label, void *label_ctx);

/* How one test ended. */
typedef enum Verdict { VERDICT_PASS, VERDICT_FAIL /* output differs */, VERDICT_ERROR /* crash, timeout, bad test */ } Verdict;

/* One test: its path, what its child printed, and the verdict with its report. */
typedef struct Test {
    char *path;
    StrBuf raw_out, raw_err;   /* the child's streams, markers included */
    int status;                /* wait status; -1 when the child could not start */
    bool timed_out;
    double seconds;
    Verdict verdict;
    bool updated;              /* --update rewrote its expectations */
    bool run_again;            /* its inline expectations were rewritten: line numbers in its output may have moved */
    int rounds;                /* runs so far under --update */
    char message[160];         /* one line: why it failed (JUnit's message) */
    StrBuf report;             /* what --test prints for it (diffs) */
} Test;

/* Judges a finished test (and rewrites its expectations under update); fills verdict and report. */
void golden_check(Test *t, bool update);
/* Writes the JUnit XML report to f and closes it; false when it cannot be written. */
bool junit_write(FILE *f, const Test *tests, int n, double seconds);

#endif
