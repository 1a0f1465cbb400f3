/* scale.h — shared by the text and image renderers: ticks and their labels, colours, footnotes */
#ifndef TL_DRAW_SCALE_H
#define TL_DRAW_SCALE_H

#include <stddef.h>

#include "draw.h"

#define DRAW_MAX_TICKS 24

/* Tick values inside [lo, hi] at a round step (1, 2 or 5 times a power of ten), with their
   labels in the printer's number format. */
typedef struct draw_ticks {
    int n;
    double v[DRAW_MAX_TICKS];
    char label[DRAW_MAX_TICKS][48];
} draw_ticks;

/* Ticks of a log-scale axis over [lo, hi] (log10 of the values): at whole powers of ten when
   the range holds two or more (labelled 0.01, 1, 100, 1e6...), else at round steps of the
   exponent, each labelled with the value it stands for (3 significant digits). */
void draw_ticks_log(draw_ticks *t, double lo, double hi, int want);
/* About `want` ticks over [lo, hi]; integer: steps of at least 1, labelled as integers. */
void draw_ticks_make(draw_ticks *t, double lo, double hi, int want, bool integer);
/* v rounded to 4 significant digits, then in the printer's format (a colour scale's ends). */
void draw_number_short(double v, char *buf, size_t n);
/* Widens an empty range (lo == hi) around its value so it can be drawn. */
void draw_range_widen(double *lo, double *hi);
/* One number in the printer's format ("0.5", "1e-05"); as an integer when integer and whole. */
void draw_number(double v, bool integer, char *buf, size_t n);

typedef struct draw_rgb { unsigned char r, g, b; } draw_rgb;
/* The heatmap colour of t in [0, 1] (viridis, dark blue to yellow). */
draw_rgb draw_colormap(double t);
/* The colour of series k (matplotlib's ten-colour cycle). */
draw_rgb draw_series_colour(int k);

/* The footnote line of a figure ("skipped: 2 nan, 1 inf"; a heatmap's block note), or "" when
   none. Returns buf. */
const char *draw_footnote(const draw_figure *f, char *buf, size_t n);

/* The finite min and max of n doubles (lo > hi when none is finite). */
void draw_finite_range(const double *v, int64_t n, double *lo, double *hi);

#endif
