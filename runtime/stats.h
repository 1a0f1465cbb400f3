/* stats.h — order statistics and counting: quantiles by selection, histogram and bincount in one pass */
#ifndef TL_STATS_H
#define TL_STATS_H

#include "tensor.h"

/* How a quantile is read off the ordered values: numpy's median (the mean of the middle
   one or two, in the input's float dtype) or one of numpy's thirteen methods of
   percentile/quantile (quantile.c), in numpy's order; "linear" is numpy's default. */
typedef enum tl_quant_kind {
    TL_QUANT_MEDIAN,
    TL_QUANT_INVERTED_CDF, TL_QUANT_AVERAGED_INVERTED_CDF, TL_QUANT_CLOSEST_OBSERVATION,
    TL_QUANT_INTERPOLATED_INVERTED_CDF, TL_QUANT_HAZEN, TL_QUANT_WEIBULL, TL_QUANT_LINEAR,
    TL_QUANT_MEDIAN_UNBIASED, TL_QUANT_NORMAL_UNBIASED, TL_QUANT_LOWER, TL_QUANT_HIGHER,
    TL_QUANT_MIDPOINT, TL_QUANT_NEAREST,
} tl_quant_kind;

/* The method numpy calls name: 0, or -1 with numpy's ValueError naming the thirteen. */
int tl_quant_method(const char *name, tl_quant_kind *kind);
/* Whether a method takes one of the values as it is (inverted_cdf, closest_observation,
   lower, higher, nearest) rather than interpolating between two. */
bool tl_quant_discrete(tl_quant_kind kind);
/* What a method reads off n ordered values (n > 0) for the fraction q, as numpy computes it:
   the ranks prev and next (-1: the last, n - 1) and the weight gamma of next, for numpy's
   _lerp; a discrete method gives its one rank as both, and gamma 0. */
void tl_quant_ranks(tl_quant_kind kind, int64_t n, double q, int64_t *prev, int64_t *next, double *gamma);

/* Quantiles of a over the naxes axes (normalized, distinct; all of them for the whole
   tensor) by selection on a copy of each lane, never a full sort. TL_QUANT_MEDIAN ignores
   q; a method takes nq fractions in [0, 1] shaped qshape (qndim 0: one value), and the
   result's shape is qshape followed by the kept axes. A lane holding nan gives nan.
   Result dtype: the median keeps f16/bf16/f32/f64, interpolating methods give f64 (numpy
   1.24), discrete ones the input's dtype. */
tl_tensor *tl_quantile(const tl_tensor *a, int naxes, const int *axes, bool keepdims, tl_quant_kind kind,
                       int64_t nq, const double *q, int qndim, const int64_t *qshape);

/* v rounded to the float dtype dt and back: how numpy's arithmetic in dt rounds each result.
   Inline for f64 and f32, which histogram's loops call per element; the narrow floats go
   through the scalar converter. */
double tl_round_to_narrow(tl_dtype dt, double v);
static inline double tl_round_to(tl_dtype dt, double v)
{
    if (dt == TL_F64) return v;
    if (dt == TL_F32) return (double)(float)v;
    return tl_round_to_narrow(dt, v);
}

/* How histogram's bins are given. */
typedef struct tl_hist_bins {
    int64_t count;              /* equal bins when edges is NULL */
    const tl_tensor *edges;     /* else the edges, 1-d and increasing */
    bool has_range;             /* equal bins over [lo, hi] instead of [min, max] */
    double lo, hi;
} tl_hist_bins;

/* numpy.histogram of all of a's elements: counts (i64, or weights' dtype summed) and the
   edges (a's float dtype, f64 for integers), numpy's exact bin for a value on an edge,
   the last bin closed; one pass over a. Returns 0 or -1 (error set). */
int tl_histogram(const tl_tensor *a, const tl_hist_bins *bins, const tl_tensor *weights, bool density,
                 tl_tensor **hist, tl_tensor **edges);

/* numpy.bincount: occurrences of each non-negative integer of the 1-d x (or the sums of
   weights, f64), at least minlength entries; one pass. */
tl_tensor *tl_bincount(const tl_tensor *x, const tl_tensor *weights, int64_t minlength);

#endif

/* numpy.convolve of two 1-d tensors (computed in their promoted dtype; integers exactly,
   floats summed in f64): mode 0 "full" (n+m-1), 1 "same" (max(n, m)), 2 "valid"
   (max(n, m) - min(n, m) + 1). Either empty is a ValueError. Complex is refused. */
tl_tensor *tl_convolve(const tl_tensor *a, const tl_tensor *v, int mode);

/* numpy.interp: x's shape, f64; xp increasing (not checked, as numpy) and fp of the same
   length; below xp[0] gives left (default fp[0]), above xp[-1] right (default fp[-1]). */
tl_tensor *tl_interp(const tl_tensor *x, const tl_tensor *xp, const tl_tensor *fp, const double *left,
                     const double *right);
