/* golden.h — `tl --test` */
#ifndef TL_GOLDEN_H
#define TL_GOLDEN_H

#include <stdbool.h>

/* Runs every .tl under paths against its .out/.err; prints diffs and "N passed, N failed". Returns the exit status. */
int golden_main(const char *self, int npaths, char **paths, bool update);

#endif
