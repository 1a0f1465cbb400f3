/* blas.c — opens BLAS and LAPACKE on first use and fills tl_blas with their entry points */
#include <dlfcn.h>
#include <stdatomic.h>

#include "blas.h"
#include "dynlib.h"

/* The files opened unless TL_BLAS_LIBRARY / TL_LAPACKE_LIBRARY name others: what the build
   was configured with (meson options blas_library and lapacke_library). */
#ifndef TL_BLAS_LIBRARY_DEFAULT
#define TL_BLAS_LIBRARY_DEFAULT "libopenblas.so.0"
#endif
#ifndef TL_LAPACKE_LIBRARY_DEFAULT
#define TL_LAPACKE_LIBRARY_DEFAULT "liblapacke.so.3"
#endif

tl_blas_table tl_blas;

static tl_dynlib blas_lib = TL_DYNLIB_INIT;
static tl_dynlib lapacke_lib = TL_DYNLIB_INIT;

#define TL_BLAS_NAME(name) #name,
#define TL_BLAS_SLOT(name) (void **)&tl_blas.name,

/* Loads BLAS into tl_blas (run once). */
static void load_blas(void)
{
    static const char *const names[] = { TL_CBLAS_FNS(TL_BLAS_NAME) NULL };
    static void **const slots[] = { TL_CBLAS_FNS(TL_BLAS_SLOT) NULL };
    char *saved;
    bool one = tl_blas_env_one_thread(&saved);   /* under a memory limit, its constructor starts no worker */
    void *h = tl_dynlib_open(&blas_lib, "BLAS", "TL_BLAS_LIBRARY", TL_BLAS_LIBRARY_DEFAULT, names, slots);
    tl_blas_env_restore(one, saved, h != NULL);
    if (!h) return;
    *(void **)&tl_blas.set_num_threads = dlsym(h, "openblas_set_num_threads");   /* optional */
    blas_lib.status = 0;
}

/* Loads LAPACKE into tl_blas and turns its NaN pre-check off (run once): numpy hands NaN to
   LAPACK and reports what LAPACK makes of it, where LAPACKE's check would refuse such input
   with a "bad argument" code. */
static void load_lapacke(void)
{
    static const char *const names[] = { TL_LAPACKE_FNS(TL_BLAS_NAME) TL_LAPACK_FNS(TL_BLAS_NAME) NULL };
    static void **const slots[] = { TL_LAPACKE_FNS(TL_BLAS_SLOT) TL_LAPACK_FNS(TL_BLAS_SLOT) NULL };
    if (!tl_dynlib_open(&lapacke_lib, "LAPACKE", "TL_LAPACKE_LIBRARY", TL_LAPACKE_LIBRARY_DEFAULT, names, slots)) return;
    tl_blas.LAPACKE_set_nancheck(0);
    lapacke_lib.status = 0;
}

int tl_blas_load(void) { return tl_dynlib_load(&blas_lib, load_blas); }

int tl_lapack_load(void) { return tl_blas_load() < 0 ? -1 : tl_dynlib_load(&lapacke_lib, load_lapacke); }

/* The thread count last given to BLAS (0: not yet), so repeated calls cost nothing. */
static atomic_int blas_threads_set;

void tl_blas_threads(int n)
{
    if (n < 1 || !tl_blas.set_num_threads) return;
    n = tl_blas_threads_fit(n);
    if (atomic_exchange(&blas_threads_set, n) == n) return;
    tl_blas.set_num_threads(n);
}
