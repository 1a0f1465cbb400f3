/* jupyter.h — tl as a Jupyter kernel: `tl --jupyter CONNECTION_FILE` and `tl --install-kernel` */
#ifndef TL_JUPYTER_H
#define TL_JUPYTER_H

#include "interp.h"

/* Serves the kernel described by the connection file until a shutdown request; returns the exit
   status (1 when the kernel cannot start: the reason goes to stderr). */
int jupyter_kernel_main(Interp *I, const char *connection_file, const char *version);

/* tl --install-kernel [--user | --prefix DIR]: writes the kernel spec (kernel.json and logos)
   where Jupyter looks for it. args are the words after --install-kernel. Returns the exit status. */
int jupyter_install_main(int argc, char **argv);

#endif
