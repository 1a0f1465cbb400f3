/* unop_list.h — the master list of unary elementwise functions: enum, names, dtype rules, loops, builtins, help */
#ifndef TL_UNOP_LIST_H
#define TL_UNOP_LIST_H

/* One row per function, in tl_unop order. X(arg, columns...):
     ENUM     the tl_unop constant      STEM  token naming its loops (f32_STEM_l, STEM16)
     NAME     name in messages (and the builtin's name when it has one)
     COMPUTE  dtype it computes in: KEEP the input's; FLOAT ints and bool in the
              smallest float holding them (sqrt(i8) -> f16, numpy); ROUND like
              KEEP but bool in f16
     RESULT   SAME as computed; BOOL; REAL (complex gives its real dtype)
     FLOAT    f16/bf16/f32/f64 loops: OWN written in unary_loops.c; LIBM
              generated from the C library's STEMf and STEM; LIBMD from STEM in
              double, rounded once (for functions whose STEMf is less exact); COPY; NONE
     CPLX     c64/c128 loops: OWN; LIBM generated from cSTEMf and cSTEM; NONE
     SIMDF    AVX-512 f32 loop: OWN from STEM16 in simd_x86.c; SLEEF / SLEEF15
              from Sleef_STEMf16_u10 / _u15; NONE
     SIMDD    the same for f64: OWN from STEM8d; SLEEF / SLEEF15 from Sleef_STEMd8_u10 / _u15
     BI       UN: a builtin NAME(x) calls it (the stdlib's math rows); NONE
     SIG      the builtin's signature       HELP  its one-line help
   Bool and integer loops (for the KEEP and ROUND functions) are unary_loops.c's
   own. A new float function is one row here, plus its element function when
   the C library and SLEEF do not have it. */
#define TL_UNOP_LIST(X, arg)                                                                                      \
    X(arg, TL_NEG, neg, "unary -", KEEP, SAME, OWN, OWN, NONE, NONE, NONE, "-x", "negation")                        \
    X(arg, TL_NOT, not, "~", KEEP, SAME, NONE, NONE, NONE, NONE, NONE, "~x", "logical not for bool, bitwise for ints") \
    X(arg, TL_ABS, abs, "abs", KEEP, REAL, OWN, OWN, NONE, NONE, UN, "abs(x)", "absolute value (the magnitude for complex)") \
    X(arg, TL_SIGN, sign, "sign", KEEP, SAME, OWN, OWN, NONE, NONE, UN, "sign(x)", "-1, 0 or 1 by sign (nan stays nan)") \
    X(arg, TL_SQRT, sqrt, "sqrt", FLOAT, SAME, OWN, LIBM, OWN, OWN, UN, "sqrt(x)", "square root (integers compute in floats)") \
    X(arg, TL_EXP, exp, "exp", FLOAT, SAME, LIBM, LIBM, SLEEF, OWN, UN, "exp(x)", "e to the x")                     \
    X(arg, TL_EXPM1, expm1, "expm1", FLOAT, SAME, LIBM, OWN, SLEEF, NONE, UN, "expm1(x)", "exp(x) - 1, accurate near 0") \
    X(arg, TL_LOG, log, "log", FLOAT, SAME, LIBM, LIBM, SLEEF, SLEEF, UN, "log(x)", "natural logarithm")             \
    X(arg, TL_LOG1P, log1p, "log1p", FLOAT, SAME, LIBM, OWN, NONE, NONE, UN, "log1p(x)", "log(1 + x), accurate near 0") \
    X(arg, TL_LOG2, log2, "log2", FLOAT, SAME, LIBM, OWN, SLEEF, NONE, UN, "log2(x)", "base-2 logarithm")             \
    X(arg, TL_SIN, sin, "sin", FLOAT, SAME, LIBM, LIBM, SLEEF, SLEEF, UN, "sin(x)", "sine (radians)")                \
    X(arg, TL_COS, cos, "cos", FLOAT, SAME, LIBM, LIBM, SLEEF, SLEEF, UN, "cos(x)", "cosine (radians)")              \
    X(arg, TL_TAN, tan, "tan", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "tan(x)", "tangent (radians)")               \
    X(arg, TL_TANH, tanh, "tanh", FLOAT, SAME, LIBM, LIBM, OWN, SLEEF, UN, "tanh(x)", "hyperbolic tangent")          \
    X(arg, TL_SINH, sinh, "sinh", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "sinh(x)", "hyperbolic sine")             \
    X(arg, TL_COSH, cosh, "cosh", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "cosh(x)", "hyperbolic cosine")           \
    X(arg, TL_ASIN, asin, "asin", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "asin(x)", "inverse sine")                \
    X(arg, TL_ACOS, acos, "acos", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "acos(x)", "inverse cosine")              \
    X(arg, TL_ATAN, atan, "atan", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "atan(x)", "inverse tangent")             \
    X(arg, TL_CBRT, cbrt, "cbrt", FLOAT, SAME, LIBM, NONE, NONE, NONE, UN, "cbrt(x)", "cube root (real; cbrt(-8) is -2)") \
    X(arg, TL_EXP2, exp2, "exp2", FLOAT, SAME, LIBM, NONE, NONE, NONE, UN, "exp2(x)", "2 to the x")                   \
    X(arg, TL_LOG10, log10, "log10", FLOAT, SAME, LIBM, NONE, NONE, NONE, UN, "log10(x)", "base-10 logarithm")         \
    X(arg, TL_ASINH, asinh, "asinh", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "asinh(x)", "inverse hyperbolic sine")   \
    X(arg, TL_ACOSH, acosh, "acosh", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "acosh(x)", "inverse hyperbolic cosine") \
    X(arg, TL_ATANH, atanh, "atanh", FLOAT, SAME, LIBM, LIBM, NONE, NONE, UN, "atanh(x)", "inverse hyperbolic tangent") \
    X(arg, TL_ERF, erf, "erf", FLOAT, SAME, LIBMD, NONE, SLEEF, NONE, UN, "erf(x)",                                  \
      "the error function: 2/sqrt(pi) times the integral of exp(-t**2) from 0 to x")                               \
    X(arg, TL_ERFC, erfc, "erfc", FLOAT, SAME, LIBMD, NONE, SLEEF15, NONE, UN, "erfc(x)",                            \
      "1 - erf(x), accurate where erf(x) is near 1")                                                              \
    X(arg, TL_FLOOR, floor, "floor", FLOAT, SAME, OWN, NONE, NONE, NONE, UN, "floor(x)", "largest integer <= x")     \
    X(arg, TL_CEIL, ceil, "ceil", FLOAT, SAME, OWN, NONE, NONE, NONE, UN, "ceil(x)", "smallest integer >= x")        \
    X(arg, TL_ROUND, round, "round", ROUND, SAME, OWN, OWN, NONE, NONE, UN, "round(x, decimals=0)",                  \
      "rounds half to even (as numpy), to decimals places")                                                       \
    X(arg, TL_TRUNC, trunc, "trunc", FLOAT, SAME, OWN, NONE, NONE, NONE, UN, "trunc(x)", "rounds toward zero")       \
    X(arg, TL_ISNAN, isnan, "isnan", KEEP, BOOL, OWN, OWN, NONE, NONE, UN, "isnan(x)", "true where x is nan")       \
    X(arg, TL_ISINF, isinf, "isinf", KEEP, BOOL, OWN, OWN, NONE, NONE, UN, "isinf(x)", "true where x is infinite")  \
    X(arg, TL_ISFINITE, isfinite, "isfinite", KEEP, BOOL, OWN, OWN, NONE, NONE, UN, "isfinite(x)",                   \
      "true where x is neither inf nor nan")                                                                      \
    X(arg, TL_CONJ, conj, "conj", KEEP, SAME, COPY, OWN, NONE, NONE, UN, "conj(x)", "complex conjugate")             \
    X(arg, TL_ANGLE, angle, "angle", FLOAT, REAL, OWN, OWN, NONE, NONE, UN, "angle(x)", "the complex argument in radians") \
    X(arg, TL_SIGMOID, sigmoid, "sigmoid", FLOAT, SAME, OWN, NONE, OWN, NONE, UN, "sigmoid(x)", "1 / (1 + exp(-x))") \
    X(arg, TL_RELU, relu, "relu", KEEP, SAME, OWN, NONE, NONE, NONE, UN, "relu(x)", "max(x, 0)")                   \
    X(arg, TL_GELU, gelu, "gelu", FLOAT, SAME, OWN, NONE, OWN, NONE, UN, "gelu(x, approximate=\"none\")",            \
      "x * Phi(x) (exact erf form; approximate=\"tanh\" for the tanh one)")                                       \
    X(arg, TL_GELU_TANH, gelu_tanh, "gelu(approximate=\"tanh\")", FLOAT, SAME, OWN, NONE, OWN, NONE, NONE, "", "")   \
    X(arg, TL_SILU, silu, "silu", FLOAT, SAME, OWN, NONE, OWN, NONE, UN, "silu(x)", "x * sigmoid(x)")            \
    X(arg, TL_RECIPROCAL, reciprocal, "reciprocal", FLOAT, SAME, NONE, OWN, NONE, NONE, NONE, "", "")

#endif
