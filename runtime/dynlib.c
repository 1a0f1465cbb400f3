/* dynlib.c — opens a library on first use and looks up its entry points */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        lib->kind = e && (strstr(e, "failed to map segment") || strstr(e, "Cannot allocate memory")) ? TL_E_MemoryError : TL_E_FileError;
        if (lib->kind == TL_E_MemoryError)   /* glibc's words when mmap fails: a memory limit, which may pass */
            snprintf(lib->why, sizeof lib->why, "out of memory: %s is needed here, but %s cannot be mapped within the memory limit (%s)",
                     what, file, e);
        else
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
            lib->kind = TL_E_FileError;
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
    int status = atomic_load(&lib->status);
    if (status == 0) return 0;
    if (status == 1) {   /* why and kind are not written again once status is 1 */
        tl_seterr_kind(lib->kind, "%s", lib->why);
        return -1;
    }
    pthread_mutex_lock(&lib->lock);
    if (atomic_load(&lib->status) < 0) {
        body();
        if (atomic_load(&lib->status) != 0 && lib->kind != TL_E_MemoryError) atomic_store(&lib->status, 1);
    }
    status = atomic_load(&lib->status);
    if (status != 0) tl_seterr_kind(lib->kind, "%s", lib->why);
    pthread_mutex_unlock(&lib->lock);
    return status == 0 ? 0 : -1;
}
