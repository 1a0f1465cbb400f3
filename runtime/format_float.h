/* format_float.h — shortest round-trip float digits (Dragon4) laid out as numpy does */
#ifndef TL_FORMAT_FLOAT_H
#define TL_FORMAT_FLOAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

/* numpy's trim= modes: 'k' keep, '.' trim zeros keep the point, '0' keep one
   zero after the point, '-' trim zeros and the point. */
typedef enum tl_trim { TL_TRIM_KEEP, TL_TRIM_ZEROS, TL_TRIM_ONE_ZERO, TL_TRIM_DPT_ZEROS } tl_trim;

/* Options of numpy's dragon4_positional / dragon4_scientific with unique=True;
   -1 means "not given" for the ints. */
typedef struct tl_d4_opts {
    int precision;   /* max fraction digits (positional) / mantissa fraction digits (scientific) */
    int min_digits;  /* keep generating digits at least this far, then round exactly */
    tl_trim trim;
    bool sign;       /* '+' on non-negative values */
    int pad_left;    /* characters left of the point, incl. sign (space-padded) */
    int pad_right;   /* characters right of the point (positional only) */
    int exp_digits;  /* minimum exponent digits (scientific only; -1 gives 2) */
} tl_d4_opts;

/* Longest text tl_d4_* can produce for any value and padding under 1000 columns. */
#define TL_D4_MAX 2400

/* A float value's raw bits (d is TL_F16, TL_BF16, TL_F32 or TL_F64) formatted
   like numpy's dragon4_positional(x, unique=True, fractional=True, ...) and
   dragon4_scientific(x, unique=True, ...). buf gets a NUL; returns the length
   (text is cut to cap-1 characters, never overflowing). */
size_t tl_d4_positional(char *buf, size_t cap, uint64_t bits, tl_dtype d, const tl_d4_opts *o);
size_t tl_d4_scientific(char *buf, size_t cap, uint64_t bits, tl_dtype d, const tl_d4_opts *o);

/* The shortest digits that identify a finite value of dtype d among its neighbours (Dragon4 in
   unique mode, no cutoff: what Python's repr() gives for an f64): at most cap digit characters
   (no sign, no point; "0" for zero) into buf, their count returned; *exp10 is the power of ten
   of the first digit. 17 digits always suffice for an f64. */
size_t tl_d4_shortest(char *buf, size_t cap, uint64_t bits, tl_dtype d, int *exp10);

/* Options with every field "not given" and trim '.'. */
static inline tl_d4_opts tl_d4_defaults(void)
{
    tl_d4_opts o = { -1, -1, TL_TRIM_ZEROS, false, -1, -1, -1 };
    return o;
}

#endif
