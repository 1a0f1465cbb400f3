/* text.c — figures as Unicode text: braille dots, block elements, axes with tick labels, SGR colour */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"
#include "tensor.h"

#define NO_COLOUR (-1)

/* One character cell: a code point and its colours (0xRRGGBB, or NO_COLOUR). */
typedef struct cell {
    uint32_t ch;
    int32_t fg, bg;
} cell;

typedef struct canvas {
    int w, h;
    cell *c;
} canvas;

/* An axis from values to cells: [lo, hi] spread over cells * sub units (braille dots,
   eighths of a block), each cell sub units wide; flip counts cells from the far end (y). */
typedef struct axis {
    double lo, hi;
    int cells, sub;
    bool flip;
} axis;

/* The unit (0 .. cells*sub - 1) of v on the axis. */
static int axis_unit(const axis *a, double v)
{
    double u = (v - a->lo) / (a->hi - a->lo) * (a->cells * a->sub - 1);
    long r = lround(u);
    return r < 0 ? 0 : r > a->cells * a->sub - 1 ? a->cells * a->sub - 1 : (int)r;
}

/* The cell of v on the axis. */
static int axis_cell(const axis *a, double v)
{
    int c = axis_unit(a, v) / a->sub;
    return a->flip ? a->cells - 1 - c : c;
}

/* Where the plot goes and what its axes say: the plot area in cells, and the labels of
   the y axis (at rows of the area) and of the x axis (centred on columns of it). */
typedef struct frame {
    int top, left, rows, cols;
    int ny, nx;
    int yrow[DRAW_MAX_TICKS], xcol[DRAW_MAX_TICKS];
    const char *ylab[DRAW_MAX_TICKS], *xlab[DRAW_MAX_TICKS];
    int64_t bar_gap;                /* bar: rows from one bar to the next */
    draw_ticks yt, xt;
} frame;

/* ---- the canvas ---------------------------------------------------------- */

static cell *cell_at(canvas *cv, int r, int c)
{
    return r >= 0 && r < cv->h && c >= 0 && c < cv->w ? &cv->c[(size_t)r * (size_t)cv->w + (size_t)c] : NULL;
}

static void put(canvas *cv, int r, int c, uint32_t ch, int32_t fg)
{
    cell *p = cell_at(cv, r, c);
    if (p) p->ch = ch, p->fg = fg;
}

/* Decodes the UTF-8 code point at *s, advancing *s. Text reaches the terminal through here, so a
   control character (C0, DEL, C1: clear screen, set the title, bell) or a bad byte reads as '?',
   as error messages show them. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (n < 0) {
        (*s)++;
        return '?';
    }
    c = n == 0 ? c : c & (0x3f >> n);
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s += i;
            return '?';
        }
        c = c << 6 | (p[i] & 0x3f);
    }
    *s += n + 1;
    return c < 0x20 || (c >= 0x7f && c < 0xa0) ? '?' : c;
}

/* Columns the text takes (one per code point). */
static int text_cols(const char *s)
{
    int n = 0;
    while (*s) utf8_next(&s), n++;
    return n;
}

/* Writes text at (r, c), clipped to the canvas. */
static void put_text(canvas *cv, int r, int c, const char *s)
{
    while (*s) put(cv, r, c++, utf8_next(&s), NO_COLOUR);
}

/* Sets braille dot (dx, dy) of the plot area (dy counted from the top) in colour fg. */
static void braille_dot(canvas *cv, const frame *fr, int dx, int dy, int32_t fg)
{
    static const uint8_t bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 } };
    cell *p = cell_at(cv, fr->top + dy / 4, fr->left + dx / 2);
    if (!p) return;
    if (p->ch < 0x2800 || p->ch > 0x28ff) p->ch = 0x2800;
    p->ch |= bit[dy % 4][dx % 2];
    p->fg = fg;
}

/* Sets the dots of a straight line between two dots (Bresenham). */
static void braille_line(canvas *cv, const frame *fr, int x0, int y0, int x1, int y1, int32_t fg)
{
    int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    for (;;) {
        braille_dot(cv, fr, x0, y0, fg);
        if (x0 == x1 && y0 == y1) return;
        int e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

/* ---- colours --------------------------------------------------------------- */

static int32_t rgb_pack(draw_rgb c) { return c.r << 16 | c.g << 8 | c.b; }

/* A colour for this terminal, or NO_COLOUR when it gets none. */
static int32_t term_colour(const draw_term *t, draw_rgb c) { return t->colour == DRAW_COLOUR_NONE ? NO_COLOUR : rgb_pack(c); }

/* Appends the SGR sequence selecting colour v as foreground (base 38) or background (48). */
static void sgr(FILE *out, const draw_term *t, int base, int32_t v)
{
    int r = v >> 16 & 255, g = v >> 8 & 255, b = v & 255;
    if (t->colour == DRAW_COLOUR_24BIT) fprintf(out, "\x1b[%d;2;%d;%d;%dm", base, r, g, b);
    else fprintf(out, "\x1b[%d;5;%dm", base, 16 + 36 * ((r * 5 + 127) / 255) + 6 * ((g * 5 + 127) / 255) + (b * 5 + 127) / 255);
}

/* Writes code point ch as UTF-8. */
static void put_utf8(FILE *out, uint32_t ch)
{
    if (ch < 0x80) fputc((int)ch, out);
    else if (ch < 0x800) fputc(0xc0 | (int)(ch >> 6), out), fputc(0x80 | (int)(ch & 0x3f), out);
    else if (ch < 0x10000)
        fputc(0xe0 | (int)(ch >> 12), out), fputc(0x80 | (int)(ch >> 6 & 0x3f), out), fputc(0x80 | (int)(ch & 0x3f), out);
    else
        fputc(0xf0 | (int)(ch >> 18), out), fputc(0x80 | (int)(ch >> 12 & 0x3f), out),
            fputc(0x80 | (int)(ch >> 6 & 0x3f), out), fputc(0x80 | (int)(ch & 0x3f), out);
}

/* Writes rows [0, nrows) of the canvas, without trailing blanks, colour as SGR codes. */
static void canvas_write(canvas *cv, int nrows, const draw_term *t, FILE *out)
{
    for (int r = 0; r < nrows; r++) {
        int end = cv->w;
        while (end > 0 && cv->c[(size_t)r * (size_t)cv->w + (size_t)end - 1].ch == ' ' &&
               cv->c[(size_t)r * (size_t)cv->w + (size_t)end - 1].bg == NO_COLOUR)
            end--;
        int32_t fg = NO_COLOUR, bg = NO_COLOUR;
        for (int c = 0; c < end; c++) {
            const cell *p = &cv->c[(size_t)r * (size_t)cv->w + (size_t)c];
            if (p->fg != fg || p->bg != bg) {
                if ((p->fg == NO_COLOUR && fg != NO_COLOUR) || (p->bg == NO_COLOUR && bg != NO_COLOUR)) {
                    fputs("\x1b[0m", out);
                    fg = bg = NO_COLOUR;
                }
                if (p->fg != fg) sgr(out, t, 38, p->fg);
                if (p->bg != bg) sgr(out, t, 48, p->bg);
                fg = p->fg, bg = p->bg;
            }
            put_utf8(out, p->ch);
        }
        if (fg != NO_COLOUR || bg != NO_COLOUR) fputs("\x1b[0m", out);
        fputc('\n', out);
    }
}

/* ---- axes ------------------------------------------------------------------- */

/* Whether the figure has a row above its plot area for the y axis's name and the legend. */
static bool has_header(const draw_figure *f) { return (f->ylabel && *f->ylabel) || f->names; }

/* Plot rows left once the title, the two x-axis rows and the footnote are placed; an error
   when fewer than min remain. */
static int plot_rows(const draw_figure *f, const draw_term *t, bool note, int min, frame *fr)
{
    fr->top = (f->title && *f->title ? 1 : 0) + (has_header(f) ? 1 : 0);
    fr->rows = t->height - fr->top - 2 - (f->xlabel && *f->xlabel ? 1 : 0) - (note ? 1 : 0);
    if (fr->rows < min) {
        tl_seterr(ValueError, "height %d is too small for this picture (it needs %d)", t->height, t->height - fr->rows + min);
        return -1;
    }
    return 0;
}

/* Places the plot area right of the widest y label; an error when fewer than min columns remain. */
static int plot_cols(const draw_term *t, frame *fr, int min)
{
    int w = 0;
    for (int i = 0; i < fr->ny; i++) {
        int n = text_cols(fr->ylab[i]);
        if (n > w) w = n;
    }
    fr->left = w + 2;
    fr->cols = t->width - fr->left;
    if (fr->cols < min) {
        tl_seterr(ValueError, "width %d is too small for this picture (it needs %d)", t->width, fr->left + min);
        return -1;
    }
    return 0;
}

/* Labels the y axis with ticks placed by the axis. */
static void y_from_ticks(frame *fr, const axis *a)
{
    fr->ny = fr->yt.n;
    for (int i = 0; i < fr->yt.n; i++) fr->ylab[i] = fr->yt.label[i], fr->yrow[i] = axis_cell(a, fr->yt.v[i]);
}

/* Labels the x axis with ticks placed by the axis. */
static void x_from_ticks(frame *fr, const axis *a)
{
    fr->nx = fr->xt.n;
    for (int i = 0; i < fr->xt.n; i++) fr->xlab[i] = fr->xt.label[i], fr->xcol[i] = axis_cell(a, fr->xt.v[i]);
}

/* Draws the axis lines, tick marks and labels around the plot area. */
static void draw_axes(canvas *cv, const frame *fr)
{
    int ax = fr->left - 1, bottom = fr->top + fr->rows;
    for (int r = 0; r < fr->rows; r++) put(cv, fr->top + r, ax, 0x2502, NO_COLOUR);   /* │ */
    for (int i = 0; i < fr->ny; i++) {
        put(cv, fr->top + fr->yrow[i], ax, 0x2524, NO_COLOUR);                            /* ┤ */
        put_text(cv, fr->top + fr->yrow[i], ax - 1 - text_cols(fr->ylab[i]), fr->ylab[i]);
    }
    put(cv, bottom, ax, 0x2514, NO_COLOUR);                                               /* └ */
    for (int c = 0; c < fr->cols; c++) put(cv, bottom, fr->left + c, 0x2500, NO_COLOUR);  /* ─ */
    int free_from = 0;
    for (int i = 0; i < fr->nx; i++) {
        put(cv, bottom, fr->left + fr->xcol[i], 0x252c, NO_COLOUR);                        /* ┬ */
        int n = text_cols(fr->xlab[i]), start = fr->left + fr->xcol[i] - (n - 1) / 2;
        if (start + n > cv->w) start = cv->w - n;
        if (start < free_from) continue;   /* would touch the previous label */
        put_text(cv, bottom + 1, start, fr->xlab[i]);
        free_from = start + n + 1;
    }
}

/* ---- the kinds ------------------------------------------------------------------ */

/* The x of point i of a line or scatter figure. */
static double point_x(const draw_figure *f, int64_t i) { return f->x ? f->x[i] : (double)i; }

/* Lines and points: braille dots, one colour per series. */
static int draw_points(canvas *cv, frame *fr, const draw_figure *f, const draw_term *t, bool note)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo, yhi;
    for (int64_t i = 0; i < f->n; i++) {
        double x = point_x(f, i);
        if (isfinite(x)) xlo = fmin(xlo, x), xhi = fmax(xhi, x);
    }
    draw_finite_range(f->y, f->n * f->nseries, &ylo, &yhi);
    if (!(xlo <= xhi) || !(ylo <= yhi)) xlo = ylo = 0, xhi = yhi = 1;   /* nothing finite: empty axes */
    draw_range_widen(&xlo, &xhi);
    draw_range_widen(&ylo, &yhi);
    if (plot_rows(f, t, note, 2, fr) < 0) return -1;
    axis ya = { ylo, yhi, fr->rows, 4, true };
    if (f->logy) draw_ticks_log(&fr->yt, ylo, yhi, fr->rows / 3 + 1);
    else draw_ticks_make(&fr->yt, ylo, yhi, fr->rows / 3 + 1, f->int_y);
    y_from_ticks(fr, &ya);
    if (plot_cols(t, fr, 4) < 0) return -1;
    axis xa = { xlo, xhi, fr->cols, 2, false };
    draw_ticks_make(&fr->xt, xlo, xhi, fr->cols / 10 + 1, f->int_x);
    x_from_ticks(fr, &xa);
    for (int s = 0; s < f->nseries; s++) {
        int32_t fg = term_colour(t, draw_series_colour(s));
        int px = -1, py = -1;
        for (int64_t i = 0; i < f->n; i++) {
            double x = point_x(f, i), y = f->y[s * f->n + i];
            if (!isfinite(x) || !isfinite(y)) {
                px = -1;   /* a gap breaks the line */
                continue;
            }
            int dx = axis_unit(&xa, x), dy = fr->rows * 4 - 1 - axis_unit(&ya, y);
            if (f->kind == DRAW_LINES && px >= 0) braille_line(cv, fr, px, py, dx, dy, fg);
            else braille_dot(cv, fr, dx, dy, fg);
            px = dx, py = dy;
        }
    }
    return 0;
}

/* A histogram: one column of block elements per column of the plot, in eighths of a row. */
static int draw_hist_text(canvas *cv, frame *fr, const draw_figure *f, const draw_term *t, bool note)
{
    int64_t top = 0;
    for (int64_t k = 0; k < f->bins; k++)
        if (f->counts[k] > top) top = f->counts[k];
    double yhi = top > 0 ? (double)top : 1;
    if (plot_rows(f, t, note, 2, fr) < 0) return -1;
    axis ya = { 0, yhi, fr->rows, 8, true };
    draw_ticks_make(&fr->yt, 0, yhi, fr->rows / 3 + 1, true);
    y_from_ticks(fr, &ya);
    if (plot_cols(t, fr, 4) < 0) return -1;
    axis xa = { f->lo, f->hi, fr->cols, 8, false };
    draw_ticks_make(&fr->xt, f->lo, f->hi, fr->cols / 10 + 1, f->int_x);
    x_from_ticks(fr, &xa);
    int32_t fg = term_colour(t, draw_series_colour(0));
    for (int c = 0; c < fr->cols; c++) {
        int64_t k = (int64_t)((c + 0.5) * (double)f->bins / fr->cols);   /* the bin under the column's centre */
        if (k >= f->bins) k = f->bins - 1;
        long e = lround((double)f->counts[k] / yhi * fr->rows * 8);
        for (int r = fr->rows - 1; e > 0 && r >= 0; r--, e -= 8)
            put(cv, fr->top + r, fr->left + c, e >= 8 ? 0x2588 : 0x2580 + (uint32_t)e, fg);   /* █, ▁..▇ */
    }
    return 0;
}

/* A heatmap: shades ░▒▓█ per cell without colour, with colour ▀ in two cells' colours. */
static int draw_heatmap_text(canvas *cv, frame *fr, const draw_figure *f, const draw_term *t, bool note)
{
    int per = t->colour == DRAW_COLOUR_NONE ? 1 : 2;
    double lo, hi;
    draw_finite_range(f->grid, f->grows * f->gcols, &lo, &hi);
    if (plot_rows(f, t, note, 2, fr) < 0) return -1;   /* the scale takes a row too */
    fr->rows = (int)((f->grows + per - 1) / per);
    draw_ticks_make(&fr->yt, 0, (double)f->mrows - 1, fr->rows / 3 + 1, true);
    fr->ny = fr->yt.n;
    for (int i = 0; i < fr->yt.n; i++)
        fr->ylab[i] = fr->yt.label[i], fr->yrow[i] = (int)((int64_t)fr->yt.v[i] * f->grows / f->mrows / per);
    if (plot_cols(t, fr, 1) < 0) return -1;
    fr->cols = (int)f->gcols;
    draw_ticks_make(&fr->xt, 0, (double)f->mcols - 1, fr->cols / 8, true);
    fr->nx = fr->xt.n;
    for (int i = 0; i < fr->xt.n; i++)
        fr->xlab[i] = fr->xt.label[i], fr->xcol[i] = (int)((int64_t)fr->xt.v[i] * f->gcols / f->mcols);
    for (int64_t i = 0; i < f->grows; i++)
        for (int64_t j = 0; j < f->gcols; j++) {
            double v = f->grid[i * f->gcols + j];
            double s = lo < hi ? (v - lo) / (hi - lo) : 0.5;
            cell *p = cell_at(cv, fr->top + (int)(i / per), fr->left + (int)j);
            if (!p) continue;
            if (per == 1) {
                static const uint32_t shade[5] = { ' ', 0x2591, 0x2592, 0x2593, 0x2588 };
                p->ch = isfinite(v) ? shade[s >= 1 ? 4 : (int)(s * 5)] : 0x00d7;   /* × marks a block with no data */
                continue;
            }
            int32_t c = isfinite(v) ? rgb_pack(draw_colormap(s)) : NO_COLOUR;
            if (i % 2 == 0) p->ch = c == NO_COLOUR ? ' ' : 0x2580, p->fg = c;   /* ▀: the upper cell */
            else if (p->ch == 0x2580) p->bg = c;                               /* the lower cell */
            else if (c != NO_COLOUR) p->ch = 0x2584, p->fg = c;                /* ▄ under an empty upper cell */
        }
    return 0;
}

/* Horizontal bars from a zero column: eighths to the right, halves (▐) to the left. */
static int draw_bar_text(canvas *cv, frame *fr, const draw_figure *f, const draw_term *t, bool note)
{
    double lo, hi;
    draw_finite_range(f->y, f->n, &lo, &hi);
    lo = fmin(lo, 0), hi = fmax(hi, 0);
    draw_range_widen(&lo, &hi);
    if (plot_rows(f, t, note, 1, fr) < 0) return -1;
    if (f->n > fr->rows) {
        tl_seterr(ValueError, "%lld bars do not fit in height %d (at most %d)", (long long)f->n, t->height, fr->rows);
        return -1;
    }
    fr->bar_gap = 2 * f->n - 1 <= fr->rows ? 2 : 1;
    fr->rows = (int)((f->n - 1) * fr->bar_gap + 1);
    int labw = 0;
    for (int64_t i = 0; i < f->n; i++) {
        int n = f->labels ? text_cols(f->labels[i]) : snprintf(NULL, 0, "%lld", (long long)i);
        if (n > labw) labw = n;
    }
    fr->left = labw + 2;
    fr->cols = t->width - fr->left;
    if (fr->cols < 4) {
        tl_seterr(ValueError, "width %d is too small for this picture (it needs %d)", t->width, fr->left + 4);
        return -1;
    }
    axis xa = { lo, hi, fr->cols, 8, false };
    int zero = axis_unit(&xa, 0);
    int32_t fg = term_colour(t, draw_series_colour(0));
    for (int64_t i = 0; i < f->n; i++) {
        int r = fr->top + (int)(i * fr->bar_gap);
        char buf[24];
        if (!f->labels) snprintf(buf, sizeof buf, "%lld", (long long)i);
        const char *lab = f->labels ? f->labels[i] : buf;
        put_text(cv, r, fr->left - 2 - text_cols(lab), lab);
        put(cv, r, fr->left - 1, 0x2524, NO_COLOUR);
        double v = f->y[i];
        if (!isfinite(v)) continue;
        int u = axis_unit(&xa, v);
        if (u >= zero)
            for (int e = zero, c = zero / 8; e < u; c++) {
                int part = u - c * 8 < 8 ? u - c * 8 : 8;
                if (part > 0) put(cv, r, fr->left + c, part == 8 ? 0x2588 : 0x2590 - (uint32_t)part, fg); /* ▏..▉ */
                e = (c + 1) * 8;
            }
        else
            for (int c = zero / 8 - 1; c >= 0 && (c + 1) * 8 > u; c--)
                put(cv, r, fr->left + c, (c * 8 + 4 >= u) ? 0x2588 : 0x2590, fg);   /* █, ▐ */
    }
    fr->ny = 0;   /* the bars' labels are drawn above; the axis gets no y ticks */
    draw_ticks_make(&fr->xt, lo, hi, fr->cols / 10 + 1, f->int_y);
    x_from_ticks(fr, &xa);
    return 0;
}

/* The row above the plot area: the y axis's name at the left, the legend ("━ name", a mark in
   each series' colour) at the right, or after the name when the row is too narrow for both. */
static void draw_header(canvas *cv, const frame *fr, const draw_figure *f, const draw_term *t)
{
    int r = fr->top - 1, used = f->ylabel && *f->ylabel ? text_cols(f->ylabel) + 2 : 0, need = 0;
    if (used) put_text(cv, r, 0, f->ylabel);
    for (int s = 0; f->names && s < f->nseries; s++) need += (s ? 2 : 0) + 2 + text_cols(f->names[s]);
    int c = t->width - need > used ? t->width - need : used;
    if (f->names && c + need > t->width && used) {   /* both do not fit: the name gives way, cut short with … */
        c = t->width - need > 0 ? t->width - need : 0;
        for (int k = c > 2 ? c - 2 : 0; k < t->width; k++) put(cv, r, k, ' ', NO_COLOUR);
        if (c > 2) put(cv, r, c - 3, 0x2026, NO_COLOUR);
    }
    for (int s = 0; f->names && s < f->nseries; s++) {
        put(cv, r, c, f->kind == DRAW_SCATTER ? 0x25cf : 0x2501, term_colour(t, draw_series_colour(s)));   /* ● ━ */
        put_text(cv, r, c + 2, f->names[s]);
        c += 4 + text_cols(f->names[s]);
    }
}

/* A sparkline: one row of ▁..█, optionally after the title, then any footnote. */
static int draw_spark_text(const draw_figure *f, FILE *out)
{
    static const char *const level[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
    double lo, hi;
    draw_finite_range(f->y, f->n, &lo, &hi);
    for (const char *p = f->title; p && *p;) put_utf8(out, utf8_next(&p));
    if (f->title && *f->title) fputc(' ', out);
    for (int64_t i = 0; i < f->n; i++) {
        double v = f->y[i];
        if (!isfinite(v)) fputc(' ', out);
        else fputs(level[lo < hi ? (int)lround((v - lo) / (hi - lo) * 7) : 3], out);
    }
    char note[160];
    draw_footnote(f, note, sizeof note);
    if (*note) fprintf(out, "  (%s)", note);
    fputc('\n', out);
    return 0;
}

int draw_heatmap_cells(const draw_term *size, bool image, int64_t mrows, int64_t mcols, int64_t *grows,
                       int64_t *gcols)
{
    int64_t r, c;
    if (image) {
        r = size->height - 90, c = size->width - 150;   /* the plot area of image.c's layout */
    } else {
        int per = size->colour == DRAW_COLOUR_NONE ? 1 : 2;
        int labw = snprintf(NULL, 0, "%lld", (long long)(mrows - 1));
        r = (int64_t)(size->height - 5) * per;          /* title, x axis, its labels, scale, footnote */
        c = size->width - labw - 2;
    }
    if (r < 1 || c < 1) {
        tl_seterr(ValueError, "a %dx%d picture is too small for a heatmap", size->width, size->height);
        return -1;
    }
    *grows = mrows < r ? mrows : r;
    *gcols = mcols < c ? mcols : c;
    return 0;
}

int draw_text(const draw_figure *f, const draw_term *t, FILE *out)
{
    if (f->kind == DRAW_SPARK) return draw_spark_text(f, out);
    if (t->width < 1 || t->height < 1 || (int64_t)t->width * t->height > 100000000) {
        tl_seterr(ValueError, "a %dx%d picture cannot be drawn", t->width, t->height);
        return -1;
    }
    canvas cv = { t->width, t->height, malloc((size_t)t->width * (size_t)t->height * sizeof(cell)) };
    if (!cv.c) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < (size_t)t->width * (size_t)t->height; i++) cv.c[i] = (cell){ ' ', NO_COLOUR, NO_COLOUR };
    frame fr = { 0 };
    char note[256] = "", scale[160] = "";
    draw_footnote(f, note, sizeof note);
    int rc;
    switch (f->kind) {
    case DRAW_HIST: rc = draw_hist_text(&cv, &fr, f, t, *note); break;
    case DRAW_BAR: rc = draw_bar_text(&cv, &fr, f, t, *note); break;
    case DRAW_HEATMAP: {
        double lo, hi;
        char a[48], b[48];
        draw_finite_range(f->grid, f->grows * f->gcols, &lo, &hi);
        draw_number_short(lo, a, sizeof a);
        draw_number_short(hi, b, sizeof b);
        snprintf(scale, sizeof scale, "%s %s %s", a, t->colour == DRAW_COLOUR_NONE ? "' ░▒▓█'" : "▁▂▃▄▅▆▇█", b);
        rc = draw_heatmap_text(&cv, &fr, f, t, *note);
        break;
    }
    default: rc = draw_points(&cv, &fr, f, t, *note); break;
    }
    if (rc == 0) {
        if (f->title && *f->title) put_text(&cv, 0, (t->width - text_cols(f->title)) / 2 > 0 ? (t->width - text_cols(f->title)) / 2 : 0, f->title);
        if (has_header(f)) draw_header(&cv, &fr, f, t);
        draw_axes(&cv, &fr);
        int last = fr.top + fr.rows + 2;
        if (f->xlabel && *f->xlabel) {   /* the x axis's name, centred under the plot area */
            int n = text_cols(f->xlabel), c = fr.left + (fr.cols - n) / 2;
            put_text(&cv, last++, c > 0 ? c : 0, f->xlabel);
        }
        if (*scale) {   /* a heatmap's colour scale: "lo ░▒▓█ hi", the bar in the colours when there are any */
            put_text(&cv, last, 0, scale);
            if (t->colour != DRAW_COLOUR_NONE)
                for (int k = 0; k < 8; k++)
                    put(&cv, last, (int)(strchr(scale, ' ') - scale) + 1 + k, 0x2581 + (uint32_t)k,
                        rgb_pack(draw_colormap(k / 7.0)));
            last++;
        }
        canvas_write(&cv, last, t, out);
        if (*note) fprintf(out, "%s\n", note);   /* whole, past the width: its counts must not be cut off */
    }
    free(cv.c);
    return rc;
}
