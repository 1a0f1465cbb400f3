/* dynlib.h — libraries opened on first use with dlopen (BLAS, LAPACKE, cairo), so start-up
   pays only for what a program uses */
#ifndef TL_DYNLIB_H
#define TL_DYNLIB_H

#include <pthread.h>
#include <stdatomic.h>

#include "error.h"

/* One library: opened at most once; why it failed, kept for every later call, unless it
   failed for want of memory (under a memory limit), which a later call tries again. */
typedef struct tl_dynlib {
    pthread_mutex_t lock;
    atomic_int status;   /* 0 loaded, -1 not (yet), 1 failed for good */
    tl_errkind kind;     /* of the failure: FileError, or MemoryError when it could not be mapped */
    char why[512];
} tl_dynlib;
#define TL_DYNLIB_INIT { PTHREAD_MUTEX_INITIALIZER, -1, TL_E_FileError, "" }

/* Opens the file named by environment variable var (when set) or file, and stores each symbol
   of names (NULL-terminated, at most 64) through slots, all or none: the handle (kept open
   for the life of the process), or NULL with lib->why and lib->kind saying what failed. For
   load bodies. */
void *tl_dynlib_open(tl_dynlib *lib, const char *what, const char *var, const char *file, const char *const *names,
                     void **const *slots);

/* Runs body (which sets lib->status to 0 on success) for lib, one thread at a time, until it
   has succeeded or failed other than for want of memory; then 0, or -1 with lib->why set as
   lib->kind. */
int tl_dynlib_load(tl_dynlib *lib, void (*body)(void));

#endif
