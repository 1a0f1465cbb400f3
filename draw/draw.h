/* draw.h — pictures of numbers: a figure described in doubles, drawn as Unicode text or (with cairo) an image */
#ifndef TL_DRAW_H
#define TL_DRAW_H

/* draw/ knows neither tensors nor the language: the builtins (stdlib/plot.c) turn tensors
   into the figure below with the runtime's streaming passes (runtime/plot_data.h); this
   library lays the figure out and draws it. Errors are reported as the runtime's are
   (return -1, message in tl_errmsg). */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum draw_kind { DRAW_LINES, DRAW_SCATTER, DRAW_HIST, DRAW_BAR, DRAW_HEATMAP, DRAW_SPARK } draw_kind;

typedef struct draw_figure {
    draw_kind kind;
    const char *title;            /* NULL or "": none */
    const char *xlabel, *ylabel;  /* the axes' names; NULL or "": none */
    const char *const *names;     /* lines, scatter: a legend naming the nseries series, or NULL */
    /* lines, scatter, spark: nseries series of n points each (y row-major); x NULL means
       0, 1, ..., n-1; a non-finite x or y is skipped (and breaks a line) */
    int64_t n;
    int nseries;
    const double *x, *y;
    bool int_x, int_y;            /* label that axis's ticks as integers when they are whole */
    bool logy;                    /* lines, scatter: y holds log10 of the values, its ticks say 10^y */
    /* hist: counts of bins equal bins over [lo, hi] */
    int64_t bins;
    const int64_t *counts;
    double lo, hi;
    /* bar: n values (y), labels[n] or NULL (then 0, 1, ...) */
    const char *const *labels;
    /* heatmap: a grows x gcols grid (row-major; nan = no data) of an mrows x mcols matrix */
    int64_t grows, gcols, mrows, mcols;
    const double *grid;
    bool block_max;               /* cells are block maxima, not means */
    int64_t nan, inf;             /* elements skipped, said in a footnote */
} draw_figure;

/* Colour on a terminal: none, the 256-colour palette, or 24-bit. */
typedef enum draw_colour { DRAW_COLOUR_NONE, DRAW_COLOUR_256, DRAW_COLOUR_24BIT } draw_colour;

/* The text size: width and height in character cells, for the whole picture. */
typedef struct draw_term {
    int width, height;
    draw_colour colour;
} draw_term;

/* The grid a heatmap of an mrows x mcols matrix gets in a picture of that size (text when
   image is false, else pixels): at most one cell per character (two with colour) or pixel. */
int draw_heatmap_cells(const draw_term *size, bool image, int64_t mrows, int64_t mcols, int64_t *grows,
                       int64_t *gcols);

/* Writes the figure as text (UTF-8, SGR colour codes when asked) to out. */
int draw_text(const draw_figure *f, const draw_term *size, FILE *out);

/* Writes the figure as an image file (.png or .svg, by path's ending) of width x height pixels.
   In a build without cairo this fails, saying images are unavailable. */
int draw_image(const draw_figure *f, const char *path, int width, int height);
/* Writes the figure as a PNG image of width x height pixels to out (a notebook shows it). In a
   build without cairo this fails, saying images are unavailable. */
int draw_png(const draw_figure *f, FILE *out, int width, int height);
/* tl's logo (a Jupyter kernel spec's): a 4 x 4 heatmap with "tl" over it, size x size pixels, as a
   PNG or an SVG written to out. In a build without cairo this fails. */
int draw_logo(FILE *out, int size, bool svg);
/* Whether this build can write images (it was built with cairo). */
bool draw_have_images(void);

#endif
