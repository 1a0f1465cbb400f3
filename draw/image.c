/* image.c — figures as PNG or SVG files through cairo: anti-aliased data, labelled axes, a title */
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"
#include "scale.h"
#include "tensor.h"

/* cairo is opened on first use (dlopen): linked, it and the X11 and font libraries it brings
   were a third of tl's start-up, paid by every program that never writes an image. Each call
   goes through cz.NAME, a pointer of cairo's own type for NAME. */
#ifndef TL_CAIRO_LIBRARY_DEFAULT
#define TL_CAIRO_LIBRARY_DEFAULT "libcairo.so.2"
#endif
#define CAIRO_FNS(X) \
    X(cairo_arc) X(cairo_clip) X(cairo_create) X(cairo_destroy) X(cairo_fill) X(cairo_image_surface_create) \
    X(cairo_line_to) X(cairo_move_to) X(cairo_new_sub_path) X(cairo_paint) X(cairo_rectangle) X(cairo_restore) \
    X(cairo_save) X(cairo_select_font_face) X(cairo_set_antialias) X(cairo_set_font_size) X(cairo_set_line_join) \
    X(cairo_set_line_width) X(cairo_set_source_rgb) X(cairo_show_text) X(cairo_status) X(cairo_status_to_string) \
    X(cairo_stroke) X(cairo_surface_destroy) X(cairo_surface_finish) X(cairo_surface_status) \
    X(cairo_surface_write_to_png_stream) X(cairo_svg_surface_create_for_stream) X(cairo_text_extents) \
    X(cairo_image_surface_get_data) X(cairo_image_surface_get_stride) X(cairo_surface_flush) X(cairo_surface_mark_dirty) \
    X(cairo_set_source_surface) X(cairo_get_source) X(cairo_pattern_set_filter) X(cairo_translate) X(cairo_scale) \
    X(cairo_rotate)
#define CAIRO_POINTER(name) __typeof__(name) *name;
static struct { CAIRO_FNS(CAIRO_POINTER) } cz;
static tl_dynlib cairo_lib = TL_DYNLIB_INIT;

/* Loads cairo into cz (run once). */
static void load_cairo(void)
{
#define CAIRO_NAME(name) #name,
#define CAIRO_SLOT(name) (void **)&cz.name,
    static const char *const names[] = { CAIRO_FNS(CAIRO_NAME) NULL };
    static void **const slots[] = { CAIRO_FNS(CAIRO_SLOT) NULL };
    if (tl_dynlib_open(&cairo_lib, "cairo", "TL_CAIRO_LIBRARY", TL_CAIRO_LIBRARY_DEFAULT, names, slots)) cairo_lib.status = 0;
}

/* Margins around the plot area, in pixels (draw_heatmap_cells assumes these). */
enum { MARGIN_LEFT = 70, MARGIN_RIGHT = 30, COLOURBAR = 50, MARGIN_TOP = 40, MARGIN_BOTTOM = 50 };

/* The plot area and the ranges its edges stand for (y0 is the top edge). */
typedef struct area {
    double x0, x1, y0, y1;
    double xlo, xhi, ylo, yhi;
    bool y_down;   /* the y range grows downwards (a heatmap's row indices) */
} area;

static double px_x(const area *a, double v) { return a->x0 + (v - a->xlo) / (a->xhi - a->xlo) * (a->x1 - a->x0); }
static double px_y(const area *a, double v)
{
    double s = (v - a->ylo) / (a->yhi - a->ylo);
    return a->y_down ? a->y0 + s * (a->y1 - a->y0) : a->y1 - s * (a->y1 - a->y0);
}

static void set_rgb(cairo_t *cr, draw_rgb c) { cz.cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

/* Writes text with its anchor point at (x, y): ax 0/0.5/1 = left/centre/right, ay likewise top/middle/bottom. */
static void text_at(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
    cairo_text_extents_t e;
    cz.cairo_text_extents(cr, s, &e);
    cz.cairo_move_to(cr, x - e.x_bearing - e.width * ax, y - e.y_bearing - e.height * ay);
    cz.cairo_show_text(cr, s);
}

/* Sets the ranges of the plot for the figure's kind. */
static void area_ranges(area *a, const draw_figure *f)
{
    switch (f->kind) {
    case DRAW_HIST: {
        int64_t top = 0;
        for (int64_t k = 0; k < f->bins; k++)
            if (f->counts[k] > top) top = f->counts[k];
        a->xlo = f->lo, a->xhi = f->hi, a->ylo = 0, a->yhi = top > 0 ? (double)top : 1;
        return;
    }
    case DRAW_BAR:
        draw_finite_range(f->y, f->n, &a->xlo, &a->xhi);
        a->xlo = fmin(a->xlo, 0), a->xhi = fmax(a->xhi, 0);
        a->ylo = -0.5, a->yhi = (double)f->n - 0.5, a->y_down = true;
        break;
    case DRAW_HEATMAP:
        a->xlo = 0, a->xhi = (double)f->mcols, a->ylo = 0, a->yhi = (double)f->mrows, a->y_down = true;
        return;
    default:
        a->xlo = INFINITY, a->xhi = -INFINITY;
        for (int64_t i = 0; i < f->n; i++) {
            double x = f->x ? f->x[i] : (double)i;
            if (isfinite(x)) a->xlo = fmin(a->xlo, x), a->xhi = fmax(a->xhi, x);
        }
        draw_finite_range(f->y, f->n * f->nseries, &a->ylo, &a->yhi);
        if (!(a->ylo <= a->yhi)) a->ylo = 0, a->yhi = 1;
        double pad = (a->yhi - a->ylo) * 0.04;   /* lines off the frame's edges */
        a->ylo -= pad, a->yhi += pad;
    }
    if (!(a->xlo <= a->xhi)) a->xlo = 0, a->xhi = 1;
    draw_range_widen(&a->xlo, &a->xhi);
    draw_range_widen(&a->ylo, &a->yhi);
}

/* Draws the series as lines or dots (lines, scatter, spark). */
static void draw_series(cairo_t *cr, const area *a, const draw_figure *f)
{
    for (int s = 0; s < f->nseries; s++) {
        set_rgb(cr, draw_series_colour(s));
        bool open = false;
        for (int64_t i = 0; i < f->n; i++) {
            double x = f->x ? f->x[i] : (double)i, y = f->y[s * f->n + i];
            if (!isfinite(x) || !isfinite(y)) {
                open = false;
                continue;
            }
            if (f->kind == DRAW_SCATTER) {
                cz.cairo_new_sub_path(cr);
                cz.cairo_arc(cr, px_x(a, x), px_y(a, y), 2.5, 0, 2 * M_PI);
                continue;
            }
            if (open) cz.cairo_line_to(cr, px_x(a, x), px_y(a, y));
            else cz.cairo_move_to(cr, px_x(a, x), px_y(a, y));
            open = true;
        }
        if (f->kind == DRAW_SCATTER) cz.cairo_fill(cr);
        else {
            cz.cairo_set_line_width(cr, 1.5);
            cz.cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
            cz.cairo_stroke(cr);
        }
    }
}

/* Paints a heatmap's cells: one pixel per cell in an image, scaled onto the area without smoothing
   (a rectangle per cell took 0.2 s of CPU for the 410 x 650 cells of an 800 x 500 picture). A
   cell without a finite value stays transparent. */
static void draw_heatmap_grid(cairo_t *cr, const area *a, const draw_figure *f)
{
    double lo, hi;
    draw_finite_range(f->grid, f->grows * f->gcols, &lo, &hi);
    cairo_surface_t *img = cz.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)f->gcols, (int)f->grows);
    if (cz.cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cz.cairo_surface_destroy(img);
        return;
    }
    cz.cairo_surface_flush(img);
    unsigned char *px = cz.cairo_image_surface_get_data(img);
    int stride = cz.cairo_image_surface_get_stride(img);
    for (int64_t i = 0; i < f->grows; i++) {
        uint32_t *row = (uint32_t *)(void *)(px + i * stride);
        for (int64_t j = 0; j < f->gcols; j++) {
            double v = f->grid[i * f->gcols + j];
            draw_rgb c = draw_colormap(lo < hi ? (v - lo) / (hi - lo) : 0.5);
            row[j] = isfinite(v) ? 0xFF000000u | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b : 0;
        }
    }
    cz.cairo_surface_mark_dirty(img);
    cz.cairo_save(cr);
    cz.cairo_translate(cr, a->x0, a->y0);
    cz.cairo_scale(cr, (a->x1 - a->x0) / (double)f->gcols, (a->y1 - a->y0) / (double)f->grows);
    cz.cairo_set_source_surface(cr, img, 0, 0);
    cz.cairo_pattern_set_filter(cz.cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cz.cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);   /* the cells' edges on whole pixels */
    cz.cairo_rectangle(cr, 0, 0, (double)f->gcols, (double)f->grows);
    cz.cairo_fill(cr);
    cz.cairo_restore(cr);
    cz.cairo_surface_destroy(img);
}

/* Draws the data of the figure inside the area. */
static void draw_data(cairo_t *cr, const area *a, const draw_figure *f)
{
    switch (f->kind) {
    case DRAW_HIST:
        set_rgb(cr, draw_series_colour(0));
        for (int64_t k = 0; k < f->bins; k++) {
            double l = f->lo + (f->hi - f->lo) * (double)k / (double)f->bins;
            double r = f->lo + (f->hi - f->lo) * (double)(k + 1) / (double)f->bins;
            cz.cairo_rectangle(cr, px_x(a, l), px_y(a, (double)f->counts[k]), px_x(a, r) - px_x(a, l),
                            a->y1 - px_y(a, (double)f->counts[k]));
        }
        cz.cairo_fill(cr);
        return;
    case DRAW_BAR:
        set_rgb(cr, draw_series_colour(0));
        for (int64_t i = 0; i < f->n; i++)
            if (isfinite(f->y[i])) {
                double z = px_x(a, 0), v = px_x(a, f->y[i]), top = px_y(a, (double)i - 0.4);
                cz.cairo_rectangle(cr, fmin(z, v), top, fabs(v - z), px_y(a, (double)i + 0.4) - top);
            }
        cz.cairo_fill(cr);
        return;
    case DRAW_HEATMAP:
        draw_heatmap_grid(cr, a, f);
        return;
    default: draw_series(cr, a, f);
    }
}

/* Draws a heatmap's colour bar right of the area, labelled with the cells' range. */
static void draw_colour_bar(cairo_t *cr, const area *a, const draw_figure *f)
{
    double lo, hi;
    draw_finite_range(f->grid, f->grows * f->gcols, &lo, &hi);
    cz.cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int k = 0; k < 64; k++) {
        set_rgb(cr, draw_colormap(k / 63.0));
        double y = a->y1 - (a->y1 - a->y0) * (k + 1) / 64.0;
        cz.cairo_rectangle(cr, a->x1 + 12, y, 14, (a->y1 - a->y0) / 64.0 + 0.5);
        cz.cairo_fill(cr);
    }
    cz.cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    char buf[48];
    cz.cairo_set_source_rgb(cr, 0, 0, 0);
    draw_number_short(lo, buf, sizeof buf);
    text_at(cr, buf, a->x1 + 19, a->y1 + 4, 0.5, 0);
    draw_number_short(hi, buf, sizeof buf);
    text_at(cr, buf, a->x1 + 19, a->y0 - 4, 0.5, 1);
}

/* Draws the axis lines, ticks and their labels. */
static void draw_frame(cairo_t *cr, const area *a, const draw_figure *f)
{
    cz.cairo_set_source_rgb(cr, 0, 0, 0);
    cz.cairo_set_line_width(cr, 1);
    cz.cairo_move_to(cr, a->x0, a->y0);
    cz.cairo_line_to(cr, a->x0, a->y1);
    cz.cairo_line_to(cr, a->x1, a->y1);
    cz.cairo_stroke(cr);
    draw_ticks t;
    bool ints = f->kind == DRAW_HEATMAP || f->kind == DRAW_HIST;
    draw_ticks_make(&t, a->xlo, a->xhi - (f->kind == DRAW_HEATMAP), (int)((a->x1 - a->x0) / 80),
                    f->kind == DRAW_HEATMAP || (f->kind == DRAW_BAR ? f->int_y : f->int_x));
    for (int i = 0; i < t.n; i++) {
        double x = px_x(a, t.v[i] + (f->kind == DRAW_HEATMAP ? 0.5 : 0));
        cz.cairo_move_to(cr, x, a->y1);
        cz.cairo_line_to(cr, x, a->y1 + 5);
        cz.cairo_stroke(cr);
        text_at(cr, t.label[i], x, a->y1 + 8, 0.5, 0);
    }
    if (f->kind == DRAW_BAR) {
        for (int64_t i = 0; i < f->n; i++) {
            char buf[24];
            snprintf(buf, sizeof buf, "%lld", (long long)i);
            text_at(cr, f->labels ? f->labels[i] : buf, a->x0 - 8, px_y(a, (double)i), 1, 0.5);
        }
        return;
    }
    if (f->logy) draw_ticks_log(&t, a->ylo, a->yhi, (int)((a->y1 - a->y0) / 50));
    else draw_ticks_make(&t, a->ylo, a->yhi - (f->kind == DRAW_HEATMAP), (int)((a->y1 - a->y0) / 50), ints || f->int_y);
    for (int i = 0; i < t.n; i++) {
        double y = px_y(a, t.v[i] + (f->kind == DRAW_HEATMAP ? 0.5 : 0));
        cz.cairo_move_to(cr, a->x0 - 5, y);
        cz.cairo_line_to(cr, a->x0, y);
        cz.cairo_stroke(cr);
        text_at(cr, t.label[i], a->x0 - 8, y, 1, 0.5);
    }
}

/* Names the axes: the x axis's under its tick labels, the y axis's turned upwards at the left edge. */
static void draw_axis_names(cairo_t *cr, const area *a, const draw_figure *f)
{
    cz.cairo_set_source_rgb(cr, 0, 0, 0);
    if (f->xlabel && *f->xlabel) text_at(cr, f->xlabel, (a->x0 + a->x1) / 2, a->y1 + 28, 0.5, 0);
    if (f->ylabel && *f->ylabel) {
        cz.cairo_save(cr);
        cz.cairo_translate(cr, 12, (a->y0 + a->y1) / 2);
        cz.cairo_rotate(cr, -M_PI / 2);
        text_at(cr, f->ylabel, 0, 0, 0.5, 0.5);
        cz.cairo_restore(cr);
    }
}

/* The legend: a framed box in the plot area's top right corner, a line (or dot) of each series'
   colour beside its name. */
static void draw_legend(cairo_t *cr, const area *a, const draw_figure *f)
{
    double wide = 0, row = 17;
    for (int s = 0; s < f->nseries; s++) {
        cairo_text_extents_t e;
        cz.cairo_text_extents(cr, f->names[s], &e);
        wide = fmax(wide, e.x_advance);
    }
    double w = wide + 44, h = row * f->nseries + 8, x = a->x1 - w - 8, y = a->y0 + 8;
    cz.cairo_set_source_rgb(cr, 1, 1, 1);
    cz.cairo_rectangle(cr, x, y, w, h);
    cz.cairo_fill(cr);
    cz.cairo_set_source_rgb(cr, 0.7, 0.7, 0.7);
    cz.cairo_set_line_width(cr, 1);
    cz.cairo_rectangle(cr, x, y, w, h);
    cz.cairo_stroke(cr);
    for (int s = 0; s < f->nseries; s++) {
        double my = y + 4 + row * (s + 0.5);
        set_rgb(cr, draw_series_colour(s));
        if (f->kind == DRAW_SCATTER) {
            cz.cairo_new_sub_path(cr);
            cz.cairo_arc(cr, x + 18, my, 3, 0, 2 * M_PI);
            cz.cairo_fill(cr);
        } else {
            cz.cairo_set_line_width(cr, 2);
            cz.cairo_move_to(cr, x + 8, my);
            cz.cairo_line_to(cr, x + 28, my);
            cz.cairo_stroke(cr);
        }
        cz.cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, f->names[s], x + 34, my, 0, 0.5);
    }
}

/* Draws the whole figure on a w x h surface. */
static void draw_figure_on(cairo_t *cr, const draw_figure *f, int w, int h)
{
    cz.cairo_set_source_rgb(cr, 1, 1, 1);
    cz.cairo_paint(cr);
    cz.cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cz.cairo_set_font_size(cr, 12);
    area a = { 0 };
    area_ranges(&a, f);
    if (f->kind == DRAW_SPARK) {   /* no axes: the line fills the picture */
        a.x0 = 3, a.x1 = w - 3, a.y0 = 3, a.y1 = h - 3;
        draw_series(cr, &a, f);
        return;
    }
    bool title = f->title && *f->title;
    a.x0 = MARGIN_LEFT, a.x1 = w - MARGIN_RIGHT - (f->kind == DRAW_HEATMAP ? COLOURBAR : 0);
    a.y0 = title ? MARGIN_TOP : MARGIN_TOP / 2, a.y1 = h - MARGIN_BOTTOM;
    cz.cairo_save(cr);
    cz.cairo_rectangle(cr, a.x0, a.y0 - 2, a.x1 - a.x0 + 2, a.y1 - a.y0 + 2);
    cz.cairo_clip(cr);
    draw_data(cr, &a, f);
    cz.cairo_restore(cr);
    if (f->kind == DRAW_HEATMAP) draw_colour_bar(cr, &a, f);
    draw_frame(cr, &a, f);
    draw_axis_names(cr, &a, f);
    if (f->names) draw_legend(cr, &a, f);
    cz.cairo_set_source_rgb(cr, 0, 0, 0);
    char note[256];
    draw_footnote(f, note, sizeof note);
    if (*note) text_at(cr, note, w - 6, h - 4, 1, 1);
    if (title) {
        cz.cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        cz.cairo_set_font_size(cr, 15);
        text_at(cr, f->title, w / 2.0, MARGIN_TOP / 2.0, 0.5, 0.5);
    }
}

bool draw_have_images(void) { return true; }

/* cairo's writer: appends to the open file. */
static cairo_status_t write_file(void *file, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, file) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Checks an image's size and opens cairo: 0, or -1 with the error set. */
static int image_prepare(int w, int h)
{
    if (w < 32 || h < 32 || w > 16384 || h > 16384) {
        tl_seterr(ValueError, "an image of %dx%d pixels is outside 32..16384 on a side", w, h);
        return -1;
    }
    return tl_dynlib_load(&cairo_lib, load_cairo);
}

/* The figure drawn at w x h on a new surface: an image (png), or an SVG written to out as it is
   drawn; *st is how the drawing went. */
static cairo_surface_t *draw_surface(const draw_figure *f, bool png, FILE *out, int w, int h, cairo_status_t *st)
{
    cairo_surface_t *s = png ? cz.cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h) : cz.cairo_svg_surface_create_for_stream(write_file, out, w, h);
    cairo_t *cr = cz.cairo_create(s);
    draw_figure_on(cr, f, w, h);
    *st = cz.cairo_status(cr);
    cz.cairo_destroy(cr);
    return s;
}

int draw_png(const draw_figure *f, FILE *out, int w, int h)
{
    if (image_prepare(w, h) < 0) return -1;
    cairo_status_t st;
    cairo_surface_t *s = draw_surface(f, true, NULL, w, h, &st);
    if (st == CAIRO_STATUS_SUCCESS) st = cz.cairo_surface_write_to_png_stream(s, write_file, out);
    cz.cairo_surface_destroy(s);
    if (st == CAIRO_STATUS_SUCCESS) return 0;
    tl_seterr(Error, "cannot draw the picture: %s", cz.cairo_status_to_string(st));
    return -1;
}

int draw_logo(FILE *out, int size, bool svg)
{
    if (image_prepare(size, size) < 0) return -1;
    cairo_surface_t *s = svg ? cz.cairo_svg_surface_create_for_stream(write_file, out, size, size)
                             : cz.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size, size);
    cairo_t *cr = cz.cairo_create(s);
    double cell = size / 4.0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            set_rgb(cr, draw_colormap((i + j) / 6.0));
            cz.cairo_rectangle(cr, j * cell, i * cell, cell + 0.5, cell + 0.5);   /* overlapped: no seams */
            cz.cairo_fill(cr);
        }
    cz.cairo_set_source_rgb(cr, 1, 1, 1);
    cz.cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cz.cairo_set_font_size(cr, size * 0.6);
    text_at(cr, "tl", size / 2.0, size / 2.0, 0.5, 0.5);
    cairo_status_t st = cz.cairo_status(cr);
    cz.cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && !svg) st = cz.cairo_surface_write_to_png_stream(s, write_file, out);
    cz.cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS) st = cz.cairo_surface_status(s);
    cz.cairo_surface_destroy(s);
    if (st == CAIRO_STATUS_SUCCESS) return 0;
    tl_seterr(FileError, "cannot write the logo: %s", cz.cairo_status_to_string(st));
    return -1;
}

int draw_image(const draw_figure *f, const char *path, int w, int h)
{
    size_t n = strlen(path);
    bool png = n >= 4 && strcmp(path + n - 4, ".png") == 0, svg = n >= 4 && strcmp(path + n - 4, ".svg") == 0;
    if (!png && !svg) {
        tl_seterr(ValueError, "cannot tell the image type of '%s': name it .png or .svg", path);
        return -1;
    }
    if (image_prepare(w, h) < 0) return -1;
    /* tl opens the file itself, so a path that cannot be written is reported with the system's
       reason. A PNG is drawn first and the file opened only to write it, so a drawing that fails
       leaves an existing file as it was; an SVG is written as it is drawn, as cairo's own
       svg surface does. */
    FILE *out = NULL;
    cairo_surface_t *s = NULL;
    int why = 0;   /* fopen's errno, kept before cairo's calls can change it */
    if (svg && !(out = fopen(path, "wb"))) {
        why = errno;
        goto cannot_open;
    }
    cairo_status_t st;
    s = draw_surface(f, png, out, w, h, &st);
    if (st == CAIRO_STATUS_SUCCESS && png) {
        if (!(out = fopen(path, "wb"))) {
            why = errno;
            cz.cairo_surface_destroy(s);
            goto cannot_open;
        }
        st = cz.cairo_surface_write_to_png_stream(s, write_file, out);
    }
    cz.cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS) st = cz.cairo_surface_status(s);
    cz.cairo_surface_destroy(s);
    int closed = out ? fclose(out) : 0;
    why = errno;
    if (st != CAIRO_STATUS_SUCCESS || closed != 0) {
        if (out) remove(path);   /* no half-written image is left behind */
        tl_seterr(FileError, "cannot write '%s': %s", path, st != CAIRO_STATUS_SUCCESS ? cz.cairo_status_to_string(st) : strerror(why));
        return -1;
    }
    return 0;
cannot_open:
    tl_seterr(FileError, "cannot write '%s': %s", path, strerror(why));
    return -1;
}
