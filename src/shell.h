/* shell.h — the interactive prompt */
#ifndef TL_SHELL_H
#define TL_SHELL_H

#include "interp.h"

/* tl's version, as tl --version and the shell's banner give it. */
#define TL_VERSION "0.1.0"

/* Reads statements until end of input, running each; returns the exit status. */
int shell_run(Interp *I);

#endif
