/* shell.h — the interactive prompt */
#ifndef TL_SHELL_H
#define TL_SHELL_H

#include "interp.h"

/* Reads statements until end of input, running each; returns the exit status. */
int shell_run(Interp *I);

#endif
