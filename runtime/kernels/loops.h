/* kernels/loops.h — macros that stamp out strided inner loops for elementwise kernels */
#ifndef TL_LOOPS_H
#define TL_LOOPS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../cast.h"
#include "elem.h"
#include "kern.h"


/* Hot loops are compiled for AVX-512 and the baseline and picked when the
   program loads (GCC function multiversioning). Sanitizer builds skip it. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define TL_CLONES __attribute__((target_clones("avx512f", "default")))
#else
#define TL_CLONES
#endif

/* A binary loop: out = EXPR(x, y). Contiguous and scalar-operand runs get
   separate loops the compiler can vectorize. The output may coincide exactly
   with an input (x += y); partial overlap never reaches a kernel. */
#define TL_BIN_LOOP_A(NAME, TI, TO, EXPR, ATTR)                                         \
    ATTR static void NAME##_cc(int64_t n, TO *restrict o, const TI *restrict A,  \
                                    const TI *restrict B)                            \
    {                                                                                \
        for (int64_t i = 0; i < n; i++) { TI x = A[i], y = B[i]; o[i] = (EXPR); }    \
    }                                                                                \
    ATTR static void NAME##_cs(int64_t n, TO *restrict o, const TI *restrict A,  \
                                    const TI y)                                      \
    {                                                                                \
        for (int64_t i = 0; i < n; i++) { TI x = A[i]; o[i] = (EXPR); }              \
    }                                                                                \
    ATTR static void NAME##_sc(int64_t n, TO *restrict o, const TI x,            \
                                    const TI *restrict B)                            \
    {                                                                                \
        for (int64_t i = 0; i < n; i++) { TI y = B[i]; o[i] = (EXPR); }              \
    }                                                                                \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)               \
    {                                                                                \
        (void)aux;                                                                   \
        if (s[0] == sizeof(TO) && s[1] == sizeof(TI) && s[2] == sizeof(TI))          \
            NAME##_cc(n, (TO *)p[0], (const TI *)p[1], (const TI *)p[2]);            \
        else if (s[0] == sizeof(TO) && s[1] == sizeof(TI) && s[2] == 0)              \
            NAME##_cs(n, (TO *)p[0], (const TI *)p[1], *(const TI *)p[2]);           \
        else if (s[0] == sizeof(TO) && s[1] == 0 && s[2] == sizeof(TI))              \
            NAME##_sc(n, (TO *)p[0], *(const TI *)p[1], (const TI *)p[2]);           \
        else {                                                                       \
            char *po = p[0];                                                         \
            const char *pa = p[1], *pb = p[2];                                       \
            for (int64_t i = 0; i < n; i++, po += s[0], pa += s[1], pb += s[2]) {    \
                TI x = *(const TI *)pa, y = *(const TI *)pb;                         \
                *(TO *)po = (EXPR);                                                  \
            }                                                                        \
        }                                                                            \
    }

/* A unary loop: out = EXPR(x). */
#define TL_UN_LOOP_A(NAME, TI, TO, EXPR, ATTR)                                        \
    ATTR static void NAME##_c(int64_t n, TO *restrict o, const TI *restrict A)   \
    {                                                                                \
        for (int64_t i = 0; i < n; i++) { TI x = A[i]; o[i] = (EXPR); }              \
    }                                                                                \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)               \
    {                                                                                \
        (void)aux;                                                                   \
        if (s[0] == sizeof(TO) && s[1] == sizeof(TI))                                \
            NAME##_c(n, (TO *)p[0], (const TI *)p[1]);                               \
        else {                                                                       \
            char *po = p[0];                                                         \
            const char *pa = p[1];                                                   \
            for (int64_t i = 0; i < n; i++, po += s[0], pa += s[1]) {                \
                TI x = *(const TI *)pa;                                              \
                *(TO *)po = (EXPR);                                                  \
            }                                                                        \
        }                                                                            \
    }

/* Multiversioned loops for the types whose arithmetic vectorizes; plain ones
   for half and complex, whose element work is a call or a branch. */
#define TL_BIN_LOOP(NAME, TI, TO, EXPR) TL_BIN_LOOP_A(NAME, TI, TO, EXPR, TL_CLONES)
#define TL_BIN_LOOP_P(NAME, TI, TO, EXPR) TL_BIN_LOOP_A(NAME, TI, TO, EXPR, )
#define TL_UN_LOOP(NAME, TI, TO, EXPR) TL_UN_LOOP_A(NAME, TI, TO, EXPR, TL_CLONES)
#define TL_UN_LOOP_P(NAME, TI, TO, EXPR) TL_UN_LOOP_A(NAME, TI, TO, EXPR, )

/* Half-precision helpers: f16/bf16 compute in f32 and round back once. */
#define H2F(x) cast_f16_to_f32(x)
#define F2H(x) cast_f32_to_f16(x)
#define B2F(x) cast_bf16_to_f32(x)
#define F2B(x) cast_f32_to_bf16(x)

#endif
