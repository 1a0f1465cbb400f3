/* dynlib.h — libraries opened on first use with dlopen (BLAS, LAPACKE, cairo), so start-up
   pays only for what a program uses */
#ifndef TL_DYNLIB_H
#define TL_DYNLIB_H

#include <pthread.h>

/* One library: opened at most once; why it failed, kept for every later call. */
typedef struct tl_dynlib {
    pthread_once_t once;
    int status;   /* 0 loaded, -1 not (yet) */
    char why[512];
} tl_dynlib;
#define TL_DYNLIB_INIT { PTHREAD_ONCE_INIT, -1, "" }

/* Opens the file named by environment variable var (when set) or file, and stores each symbol
   of names (NULL-terminated, at most 64) through slots, all or none: the handle (kept open
   for the life of the process), or NULL with lib->why saying what failed. For load bodies. */
void *tl_dynlib_open(tl_dynlib *lib, const char *what, const char *var, const char *file, const char *const *names,
                     void **const *slots);

/* Runs body (which sets lib->status to 0 on success) once for lib, whichever thread comes
   first; then 0, or -1 with lib->why set as a FileError. */
int tl_dynlib_load(tl_dynlib *lib, void (*body)(void));

#endif
