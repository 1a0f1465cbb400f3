/* plot_data.h — the numbers a picture needs from a tensor: finite range, histogram counts, block reductions */
#ifndef TL_PLOT_DATA_H
#define TL_PLOT_DATA_H

#include "tensor.h"

/* What one pass over a tensor's elements found: the finite ones' count, sum and
   extremes, and how many elements were nan or ±inf (pictures skip those). */
typedef struct tl_plot_stats {
    int64_t finite, nan, inf;
    double sum, lo, hi;          /* lo > hi when there is no finite element */
} tl_plot_stats;

/* How heatmap's blocks are summarized. */
typedef enum tl_plot_reduce { TL_PLOT_MEAN, TL_PLOT_MAX } tl_plot_reduce;

/* Statistics of every element of t (any real dtype, any layout: bool is 0/1, integers
   convert to f64). Complex tensors are refused. Streams; copies nothing. */
int tl_plot_stats_of(const tl_tensor *t, tl_plot_stats *st);

/* Counts t's finite elements into `bins` equal bins over [lo, hi] (lo < hi): bin k is
   [lo + k w, lo + (k+1) w), the last bin also holds hi, as numpy.histogram; elements
   outside [lo, hi] are not counted. counts has bins entries (zeroed here). */
int tl_plot_hist(const tl_tensor *t, double lo, double hi, int64_t bins, int64_t *counts);

/* Reduces a 2-d tensor of R x C elements to a rows x cols grid (1 <= rows <= R, 1 <= cols <= C),
   row-major in grid: cell (i, j) summarizes rows [i R / rows, (i+1) R / rows) and columns
   [j C / cols, (j+1) C / cols) of t by the mean (or max) of their finite elements; nan
   when a block has none. Walks t once in its memory order (a transposed view is read
   down its columns, never copied), split over threads by blocks. st gets the counts of all
   of t (and its sum; lo and hi only with TL_PLOT_MAX: a mean does not look for them). */
int tl_plot_blocks(const tl_tensor *t, int64_t rows, int64_t cols, tl_plot_reduce how, double *grid,
                   tl_plot_stats *st);

#endif
