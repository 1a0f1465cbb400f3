/* dynlib.c — opens a library on first use and looks up its entry points */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "dynlib.h"
#include "error.h"

/* The most entry points one library may give (BLAS's and LAPACKE's lists, cairo's). */
#define MAX_SYMBOLS 64

void *tl_dynlib_open(tl_dynlib *lib, const char *what, const char *var, const char *file, const char *const *names,
                     void **const *slots)
{
    const char *env = getenv(var);
    if (env && *env) file = env;
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(lib->why, sizeof lib->why, "%s is needed here, but %s cannot be loaded (%s); set %s to the file of a %s library",
                 what, file, e ? e : "unknown reason", var, what);
        return NULL;
    }
    void *got[MAX_SYMBOLS];
    size_t n = 0;
    for (; names[n]; n++) {
        void *sym = n < MAX_SYMBOLS ? dlsym(h, names[n]) : NULL;
        if (sym) got[n] = sym;
        else {
            snprintf(lib->why, sizeof lib->why, "%s is needed here, but %s has no %s; set %s to the file of a %s library",
                     what, file, names[n], var, what);
            dlclose(h);
            return NULL;
        }
    }
    for (size_t i = 0; i < n; i++) *slots[i] = got[i];
    return h;
}

int tl_dynlib_load(tl_dynlib *lib, void (*body)(void))
{
    pthread_once(&lib->once, body);
    if (lib->status == 0) return 0;
    tl_seterr(FileError, "%s", lib->why);
    return -1;
}
