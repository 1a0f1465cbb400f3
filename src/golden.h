/* golden.h — `tl --test` */
#ifndef TL_GOLDEN_H
#define TL_GOLDEN_H

#include <stdbool.h>

#include "value.h"

/* Runs one test script in the current process as `tl --mark-statements SCRIPT` would; returns its exit status. */
typedef int (*GoldenRun)(const char *script);

/* Runs the golden tests named by argv (the options and paths after --test; docs/testing.md); prints
   diffs and "N passed, N failed". Each test runs in a forked child calling run. Returns the exit status. */
int golden_main(GoldenRun run, int argc, char **argv);
/* Whether the tests being run rewrite their expectations (--update, or --review's accepted ones):
   a worker's test reads it (expect_close writes its stored arrays then). */
bool golden_updating(void);
/* Whether a test's source says `# tl-test: shell`: run it as the shell runs (docs/testing.md). */
bool golden_runs_as_shell(const char *src, size_t len);
/* Appends text as expectation lines ("#> " or "#! " and each line, the (no-eol)/(eol) suffixes
   as --update writes them), each ended by eol; false when out of memory. */
bool golden_emit_expectations(StrBuf *b, const char *prefix, const char *text, size_t len, const char *eol);
/* The seed every test starts from (and the shell's :record). */
#define GOLDEN_SEED 0

#endif
