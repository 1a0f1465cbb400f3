/* summary.h — the figures of a tensor's values (stats) and of two tensors' difference (compare), streamed in bounded memory on every thread */
#ifndef TL_SUMMARY_H
#define TL_SUMMARY_H

#include "tensor.h"

/* Both passes read any real dtype and layout, and tensors held as ggml blocks block by block
   (never dequantized whole), TL_STREAM_CHUNK elements at a time on every thread, and give the
   same figures on any number of threads (the pieces are fixed and combined in order). */

/* A tensor's values: counts, and the mean, spread and extremes of its finite elements. */
typedef struct tl_stats {
    int64_t count, nan, inf;      /* elements; of them, nan and ±inf */
    double mean, m2;              /* mean of the finite ones, and the sum of their squared deviations */
    double min, max, absmax;      /* of the finite ones (min > max when there is none) */
} tl_stats;

int tl_stats_of(const tl_tensor *t, tl_stats *st);
/* An empty summary, to merge others into. */
void tl_stats_clear(tl_stats *st);
/* a becomes the summary of a's and b's elements together (Chan's parallel update). */
void tl_stats_merge(tl_stats *a, const tl_stats *b);
/* The finite elements' standard deviation (numpy's std, ddof 0); nan when there is none. */
double tl_stats_std(const tl_stats *st);

/* a against b, element by element (same shape): sums over the pairs where both are finite. */
typedef struct tl_diff {
    int64_t count, skipped;       /* pairs; of them, those with a nan or inf (not summed) */
    double max_abs;               /* the largest |a - b| (-1 when no pair was summed) */
    int64_t argmax;               /* its first flat index in C order */
    double sum_d2, sum_a2, sum_b2, sum_ab;
} tl_diff;

int tl_diff_of(const tl_tensor *a, const tl_tensor *b, tl_diff *d);

#endif
