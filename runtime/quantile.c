/* quantile.c — numpy's thirteen quantile methods: their names, and which ranks of n ordered values each reads and how it weighs them */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

/* numpy's names, in numpy's order (function_base.py, _QuantileMethods), indexed by tl_quant_kind. */
static const char *const method_names[] = {
    [TL_QUANT_INVERTED_CDF] = "inverted_cdf",
    [TL_QUANT_AVERAGED_INVERTED_CDF] = "averaged_inverted_cdf",
    [TL_QUANT_CLOSEST_OBSERVATION] = "closest_observation",
    [TL_QUANT_INTERPOLATED_INVERTED_CDF] = "interpolated_inverted_cdf",
    [TL_QUANT_HAZEN] = "hazen",
    [TL_QUANT_WEIBULL] = "weibull",
    [TL_QUANT_LINEAR] = "linear",
    [TL_QUANT_MEDIAN_UNBIASED] = "median_unbiased",
    [TL_QUANT_NORMAL_UNBIASED] = "normal_unbiased",
    [TL_QUANT_LOWER] = "lower",
    [TL_QUANT_HIGHER] = "higher",
    [TL_QUANT_MIDPOINT] = "midpoint",
    [TL_QUANT_NEAREST] = "nearest",
};
#define NMETHODS ((int)(sizeof method_names / sizeof method_names[0]))

int tl_quant_method(const char *name, tl_quant_kind *kind)
{
    char list[512];
    size_t o = 0;
    for (int k = TL_QUANT_MEDIAN + 1; k < NMETHODS; k++) {
        if (strcmp(name, method_names[k]) == 0) {
            *kind = (tl_quant_kind)k;
            return 0;
        }
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", method_names[k]);
    }
    tl_seterr(ValueError, "'%s' is not a valid method. Use one of: %s", name, list);
    return -1;
}

bool tl_quant_discrete(tl_quant_kind kind)
{
    return kind == TL_QUANT_INVERTED_CDF || kind == TL_QUANT_CLOSEST_OBSERVATION || kind == TL_QUANT_LOWER ||
           kind == TL_QUANT_HIGHER || kind == TL_QUANT_NEAREST;
}

/* Hyndman and Fan's virtual index, in numpy's order of operations (_compute_virtual_index). */
static double hyndman_fan(int64_t n, double q, double alpha, double beta)
{
    return (double)n * q + (alpha + q * (1 - alpha - beta)) - 1;
}

/* The virtual index of a continuous method: where quantile q lies among n ordered values. */
static double virtual_index(tl_quant_kind kind, int64_t n, double q)
{
    double v = (double)(n - 1) * q;
    switch (kind) {
    case TL_QUANT_AVERAGED_INVERTED_CDF: return (double)n * q - 1;
    case TL_QUANT_MIDPOINT: return 0.5 * (floor(v) + ceil(v));
    case TL_QUANT_INTERPOLATED_INVERTED_CDF: return hyndman_fan(n, q, 0, 1);
    case TL_QUANT_HAZEN: return hyndman_fan(n, q, 0.5, 0.5);
    case TL_QUANT_WEIBULL: return hyndman_fan(n, q, 0, 0);
    case TL_QUANT_MEDIAN_UNBIASED: return hyndman_fan(n, q, 1 / 3.0, 1 / 3.0);
    case TL_QUANT_NORMAL_UNBIASED: return hyndman_fan(n, q, 3 / 8.0, 3 / 8.0);
    default: return v;   /* linear */
    }
}

/* The rank a discrete method takes (numpy's _inverted_cdf, _closest_observation, floor, ceil, around). */
static int64_t discrete_rank(tl_quant_kind kind, int64_t n, double q)
{
    double v = (double)(n - 1) * q;
    if (kind == TL_QUANT_LOWER) return (int64_t)floor(v);
    if (kind == TL_QUANT_HIGHER) return (int64_t)ceil(v);
    if (kind == TL_QUANT_NEAREST) return (int64_t)nearbyint(v);   /* halves to even, as np.around */
    v = kind == TL_QUANT_INVERTED_CDF ? (double)n * q - 1 : (double)n * q - 1 - 0.5;
    double below = floor(v);
    bool take_below = v - below == 0 && (kind == TL_QUANT_INVERTED_CDF || fmod(below, 2) == 0);
    int64_t r = (int64_t)(take_below ? below : below + 1);
    return r < 0 ? 0 : r;
}

void tl_quant_ranks(tl_quant_kind kind, int64_t n, double q, int64_t *prev, int64_t *next, double *gamma)
{
    if (tl_quant_discrete(kind)) {
        *prev = *next = discrete_rank(kind, n, q);
        *gamma = 0;
        return;
    }
    double v = virtual_index(kind, n, q);   /* numpy's _get_indexes, then _get_gamma */
    int64_t p, x;
    if (v >= (double)(n - 1) || isnan(v)) p = x = -1;   /* the last value */
    else if (v < 0) p = x = 0;
    else p = (int64_t)floor(v), x = p + 1;
    double g = v - (double)p;
    if (kind == TL_QUANT_AVERAGED_INVERTED_CDF) g = g == 0 ? 0.5 : 1;
    if (kind == TL_QUANT_MIDPOINT) g = fmod(v, 1) == 0 ? 0 : 0.5;
    *prev = p, *next = x, *gamma = g;
}
