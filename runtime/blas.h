/* blas.h — BLAS (cblas) and LAPACKE, opened with dlopen the first time a product or a
   decomposition needs them (private to the runtime) */
#ifndef TL_BLAS_H
#define TL_BLAS_H

#ifndef TL_RUNTIME_INTERNAL
#error "blas.h is private to tl's runtime library"
#endif

#include <stdbool.h>

#include <cblas.h>
#include <lapacke.h>

/* Why not link them: OpenBLAS, LAPACK and gfortran are most of tl's start-up time (they
   load, relocate and start OpenBLAS's threads), and most programs never multiply a matrix.
   Each list names every entry point the runtime calls; a call goes through tl_blas.NAME,
   a pointer of the header's own type for NAME. */
#define TL_CBLAS_FNS(X)                                                                                           \
    X(cblas_sgemm) X(cblas_dgemm) X(cblas_cgemm) X(cblas_zgemm) X(cblas_cgemv) X(cblas_zgemv) X(cblas_cdotu_sub)  \
    X(cblas_zdotu_sub)
#define TL_LAPACKE_FNS(X)                                                                                         \
    X(LAPACKE_set_nancheck)                                                                                       \
    X(LAPACKE_sgeev) X(LAPACKE_dgeev) X(LAPACKE_cgeev) X(LAPACKE_zgeev)                                           \
    X(LAPACKE_sgeqrf) X(LAPACKE_dgeqrf) X(LAPACKE_cgeqrf) X(LAPACKE_zgeqrf)                                       \
    X(LAPACKE_sorgqr) X(LAPACKE_dorgqr) X(LAPACKE_cungqr) X(LAPACKE_zungqr)                                       \
    X(LAPACKE_sgelsd) X(LAPACKE_dgelsd) X(LAPACKE_cgelsd) X(LAPACKE_zgelsd)
/* LAPACK's own (Fortran, column-major) entry points, looked up through LAPACKE's library, so
   they are the LAPACK that LAPACKE itself calls. Called directly where LAPACKE's row-major
   transposes (plain element loops, a cache line per element) cost a visible share of the
   call: the runtime then transposes in tiles itself (lapack.c). */
#define TL_LAPACK_FNS(X)                                                                                          \
    X(sgesdd_) X(dgesdd_) X(cgesdd_) X(zgesdd_) X(sgetrf_) X(dgetrf_) X(cgetrf_) X(zgetrf_)                       \
    X(sgetri_) X(dgetri_) X(cgetri_) X(zgetri_) X(sgesv_) X(dgesv_) X(cgesv_) X(zgesv_)                           \
    X(spotrf_) X(dpotrf_) X(cpotrf_) X(zpotrf_) X(ssyevd_) X(dsyevd_) X(cheevd_) X(zheevd_)

#define TL_BLAS_POINTER(name) __typeof__(name) *name;
typedef struct tl_blas_table {
    TL_CBLAS_FNS(TL_BLAS_POINTER)
    TL_LAPACKE_FNS(TL_BLAS_POINTER)
    TL_LAPACK_FNS(TL_BLAS_POINTER)
    void (*set_num_threads)(int);   /* OpenBLAS's openblas_set_num_threads; NULL in other BLAS */
} tl_blas_table;
#undef TL_BLAS_POINTER

/* The entry points; each is valid once tl_blas_load (or tl_lapack_load) has returned 0. */
extern tl_blas_table tl_blas;

/* Opens BLAS (once; every later call is a flag read): 0, or -1 with a FileError naming the
   library that could not be loaded and how to name another (TL_BLAS_LIBRARY). Thread-safe. */
int tl_blas_load(void);
/* Opens LAPACKE (and BLAS) the same way: 0, or -1 with a FileError (TL_LAPACKE_LIBRARY). */
int tl_lapack_load(void);
/* Tells BLAS (when it is OpenBLAS) to use n threads from now on: 1 inside tl's own parallel
   GEMM blocks, tl's thread count for LAPACK, whose BLAS calls are its only parallelism.
   Under a memory limit, no more than tl_blas_threads_fit(n). */
void tl_blas_threads(int n);

/* OpenBLAS under a memory limit (ulimit -v or -d; blas_limit.c): a thread that calls it, and
   each worker thread it starts, allocates a 128 MiB buffer and retries forever when that fails
   (a hang at full CPU, then another at exit joining such a worker). So room is checked first. */

/* Before BLAS is opened: under a limit, sets OPENBLAS_NUM_THREADS=1 (keeping its value in
   *saved), so that opening it starts no worker; true when it did. */
bool tl_blas_env_one_thread(char **saved);
/* After opening: puts OPENBLAS_NUM_THREADS back as it was (when set is true) and notes
   whether BLAS was opened with its one thread. */
void tl_blas_env_restore(bool set, char *saved, bool loaded);
/* The most BLAS threads, up to n, whose workers have room for their buffers and stacks (n
   without a limit, or when BLAS was opened without one: its workers started then). */
int tl_blas_threads_fit(int n);
/* Before running BLAS or LAPACK calls from `callers` of tl's threads at once: callers when
   their buffers have room (or there is no limit), fewer (at least 1) when only those have,
   or -1 with a MemoryError when not even one has. */
int tl_blas_reserve(int callers);

#endif
