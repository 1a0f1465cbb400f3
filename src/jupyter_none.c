/* jupyter_none.c — tl --jupyter and --install-kernel in a build without the kernel (no libzmq or libsodium) */
#include <stdio.h>

#include "jupyter.h"

static const char unavailable[] =
    "tl: this tl was built without the Jupyter kernel (it needs libzmq and libsodium: Debian's libzmq3-dev and "
    "libsodium-dev; meson -Djupyter=enabled insists on them)\n";

int jupyter_kernel_main(Interp *I, const char *connection_file, const char *version)
{
    (void)I, (void)connection_file, (void)version;
    fputs(unavailable, stderr);
    return 1;
}

int jupyter_install_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    fputs(unavailable, stderr);
    return 1;
}
