/* kernels/intrinsics.h — the x86 intrinsics, or a test's emulation of the AVX-512 ones */
#ifndef TL_INTRINSICS_H
#define TL_INTRINSICS_H

/* A test build may name in TL_AVX512_EMULATION a header that emulates the AVX-512 intrinsics
   (tests/unit/avx512_simde.h), so that the 512-bit paths of the files including this one run,
   and are checked against their portable loops, on a CPU without AVX-512. Such a build compiles
   them for AVX2: TL_TARGET_512(features) is the target attribute string of a 512-bit path. */
#ifdef TL_AVX512_EMULATION
#include TL_AVX512_EMULATION
#define TL_TARGET_512(features) "avx2,fma,f16c"
#else
#include <immintrin.h>
#define TL_TARGET_512(features) features
#endif

/* Whether a 512-bit path runs, given cpu_has, the CPU's answer for what the path uses: that
   answer, or in a build that emulates AVX-512, whether AVX2 runs (the emulation is AVX2 code),
   cpu_has then not evaluated. Every file's choice of its 512-bit path goes through this, so a
   test build runs them all, and the rest of the runtime (tl_cpu_has_avx512) still sees the
   CPU as it is. tl_simd_avx2 is kern.h's. */
#ifdef TL_AVX512_EMULATION
#define TL_RUNS_512(cpu_has) tl_simd_avx2()
#else
#define TL_RUNS_512(cpu_has) (cpu_has)
#endif

/* `#pragma GCC target` of a region of 512-bit paths, as TL_TARGET_512 gives it (the pragma
   made by _Pragma from the string once it is expanded). */
#define TL_PRAGMA_(x) _Pragma(#x)
#define TL_PRAGMA_EXPANDED_(x) TL_PRAGMA_(x)
#define TL_PRAGMA_TARGET_512(features) TL_PRAGMA_EXPANDED_(GCC target(TL_TARGET_512(features)))

#endif
