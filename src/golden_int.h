/* golden_int.h — the pieces of `tl --test` shared by its files: markers, units, tolerance, diffs, reports */
#ifndef TL_GOLDEN_INT_H
#define TL_GOLDEN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stmt_marks.h"
#include "value.h"

/* The tolerance of `# tl-test: rtol=R atol=A ulp=N`: numbers compare within atol + rtol * |expected|,
   or (ulp > 0) within N units in the last place of the dtype their tensor was printed in. */
typedef struct Tolerance { bool on; double rtol, atol; int ulp; } Tolerance;

/* Whether actual equals expected: byte for byte, except number tokens within the tolerance.
   dtypes, when not NULL, holds the dtype code (DT_*) each byte of actual was printed in. */
bool tolerant_equal(const char *expected, size_t elen, const char *actual, size_t alen, const char *dtypes,
                    const Tolerance *tol);
/* Appends one line per pair of numbers of the two lines that differ beyond the tolerance: the
   numbers, their difference and the tolerance (nothing when the lines differ otherwise). */
void tolerance_explain(StrBuf *r, const char *expected, size_t elen, const char *actual, size_t alen,
                       const char *dtypes, const Tolerance *tol);

/* What `# tl-test:` lines say about a test (docs/testing.md). */
typedef struct Directives {
    Tolerance tol;
    bool skip, xfail;          /* skip "reason", xfail "reason", or requires FEATURE that this build lacks (skip) */
    bool shell;                /* shell: run as the shell runs (errors do not stop it, `_` is bound), as :record writes */
    char reason[128];
} Directives;

/* Reads the directives of a test's source; false (with a message in err) when one is malformed. */
bool directives_parse(const char *src, size_t len, Directives *d, char *err, size_t errlen);

/* Output split by statement: unit 0 is the output before the first statement (or all of it when
   the program did not parse); unit k >= 1 is the statements starting on line[k]. */
typedef struct Units {
    int n;
    int *line;               /* line[0] = 0 */
    StrBuf *out, *err;       /* each unit's stdout and stderr */
    size_t *out_at, *err_at; /* where each unit starts in the marker-free stdout / stderr */
    StrBuf all_out, all_err; /* the marker-free streams */
    StrBuf *out_dt, all_out_dt; /* per byte of stdout, the dtype (DT_*) of the tensor that printed it */
    bool planned;            /* the plan marker was seen (the program parsed) */
    int wrote;               /* expect_close files the test wrote (under --update) */
} Units;

/* Splits a marked child's stdout and stderr into units; false when out of memory. */
bool units_split(Units *u, const char *out, size_t outlen, const char *err, size_t errlen);
void units_free(Units *u);
/* The unit owning source line `line` (the last one starting before it; 0 if none). */
int units_owner(const Units *u, int line);
/* The unit whose output holds byte `at` of stdout (is_err false) or stderr. */
int units_at(const Units *u, bool is_err, size_t at);

/* The dtypes the ulp tolerance knows (the child's MARK_DTYPE markers name them); DT_NONE: printed
   outside any float tensor. */
enum { DT_NONE = 0, DT_F16, DT_BF16, DT_F32, DT_F64 };

/* A diff hunk's label: text naming where its change came from ("x.tl:12: print(a)"), or NULL. */
typedef const char *(*HunkLabel)(void *ctx, size_t actual_offset);

/* Expected output as lines, some of them patterns: `#~ REGEX` (one line matching REGEX) and a bare
   `#> ...` (any number of lines). Literal lines compare under the tolerance. */
typedef enum ExpKind { EXP_TEXT, EXP_REGEX, EXP_ANY } ExpKind;
typedef struct Expected {
    const char *text;          /* the expected text: each line's text (a pattern's: its regex, or "...") and its newline */
    size_t len;
    const char *kinds;         /* ExpKind of each line; NULL: every line is text */
    const char *dtypes;        /* the actual output's dtypes (Units), or NULL */
    const Tolerance *tol;
} Expected;

/* Whether the actual output matches; -1 (with a message in err) when a regular expression is bad. */
int expected_match(const Expected *e, const char *actual, size_t alen, char *err, size_t errlen);

/* The most pieces that the counted repetitions ({m,n}) of `#~` patterns may add to them: what regcomp
   compiles in well under a second. */
#define REGEX_MAX_COPIES_LINE 1000
#define REGEX_MAX_COPIES_TEST 5000
/* Reads a `#~` pattern: appends to out (unless NULL) the expression to compile, anchored to the
   whole line, and sets *copies to the pieces its counted repetitions add; false (with the reason
   in err) when the pattern is refused (golden_regex.c says which and why). */
bool golden_regex_read(const char *pat, size_t n, StrBuf *out, double *copies, char *err, size_t errlen);

/* Appends a unified diff of expected against actual to r (lines compare under e's tolerance and
   patterns; a number outside the tolerance is explained under its hunk). */
void diff_write(StrBuf *r, const char *name_a, const Expected *e, const char *name_b, const char *b, size_t blen,
                HunkLabel label, void *label_ctx);

/* How one test ended. */
typedef enum Verdict {
    VERDICT_PASS,
    VERDICT_FAIL /* output differs, or an xfail passed, or an orphan */,
    VERDICT_ERROR /* crash, timeout, bad test */,
    VERDICT_SKIP /* skip, or requires what the build lacks: not run */, VERDICT_XFAIL /* failed as its xfail said */
} Verdict;

/* One test: its path, what its child printed, and the verdict with its report. */
typedef struct Test {
    char *path;
    bool orphan;               /* path is an X.out or X.err without its X.tl: not run, a failure */
    bool differs;              /* it failed by its output, which --update or --review could take */
    bool pending;              /* still to run */
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

/* Reads a test's directives before it runs: a skip is judged at once (pending false). */
void golden_prepare(Test *t);
/* Judges a finished test (and rewrites its expectations under update); fills verdict and report. */
void golden_check(Test *t, bool update);
/* What a person answered for one test under --review. */
typedef enum ReviewChoice { REVIEW_ACCEPT, REVIEW_REJECT, REVIEW_SKIP, REVIEW_QUIT } ReviewChoice;
/* Shows test `index` of `total` (its report) and asks on the terminal what to do with it. */
ReviewChoice review_ask(const Test *t, int index, int total);

/* Writes the JUnit XML report to f and closes it; false when it cannot be written. */
bool junit_write(FILE *f, const Test *tests, int n, double seconds);

#endif
