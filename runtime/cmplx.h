/* cmplx.h — <complex.h> with CMPLX and CMPLXF on every compiler tl is built with */
#ifndef TL_CMPLX_H
#define TL_CMPLX_H

#include <complex.h>

/* glibc defines CMPLX only for GCC >= 4.7; clang (the fuzzers' compiler) has the same builtin.
   Writing x + y*I instead would turn an infinite x or y into nan parts. */
#if !defined(CMPLX) && defined(__clang__)
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif

#endif
