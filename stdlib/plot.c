/* plot.c — hist plot scatter bar heatmap spark: tensors to pictures in the terminal or in image files */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "builtins.h"
#include "draw.h"
#include "plot_data.h"

/* The options every picture takes. */
typedef struct picture_opts {
    const char *title, *to;
    int64_t width, height;    /* 0: the default */
} picture_opts;

/* The options every picture's signature ends with, from parameter `first` on. */
#define PICTURE_OPTS "title=none, width=none, height=none, to=none"
enum { OPT_TITLE, OPT_WIDTH, OPT_HEIGHT, OPT_TO };

/* Reads title=, width=, height= and to=, parameters first.. first+3. */
static bool read_opts(Interp *I, CallArgs *a, int first, picture_opts *o)
{
    if (!arg_string(I, a, first + OPT_TITLE, "", &o->title) || !arg_string(I, a, first + OPT_TO, "", &o->to) ||
        !arg_int(I, a, first + OPT_WIDTH, 0, &o->width) || !arg_int(I, a, first + OPT_HEIGHT, 0, &o->height))
        return false;
    if ((arg_at(a, first + OPT_WIDTH) && (o->width < 1 || o->width > 16384)) ||
        (arg_at(a, first + OPT_HEIGHT) && (o->height < 1 || o->height > 16384)))
        return bi_fail(I, a, ValueError, "width and height must be between 1 and 16384 (got %lld x %lld)", (long long)o->width, (long long)o->height);
    return true;
}

/* The text picture's size and colours: the terminal's width (from the TIOCGWINSZ ioctl, else
   COLUMNS) and its height less one line for the prompt, at most TEXT_HEIGHT_MAX rows (a picture
   fits beside its code), when out is one; else 80 x TEXT_HEIGHT_MAX without colour.
   Colour: none under NO_COLOR; 24-bit when COLORTERM says truecolor or 24bit, else 256 colours
   when TERM has 256color, else none. */
#define TEXT_HEIGHT_MAX 20

static draw_term term_of(FILE *out, const picture_opts *o)
{
    draw_term t = { 80, TEXT_HEIGHT_MAX, DRAW_COLOUR_NONE };
    int fd = fileno(out);
    if (fd >= 0 && isatty(fd)) {
        struct winsize ws;
        const char *cols = getenv("COLUMNS"), *lines = getenv("LINES");
        if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 1) t.width = ws.ws_col, t.height = ws.ws_row - 1;
        else if (cols && lines && atoi(cols) > 0 && atoi(lines) > 1) t.width = atoi(cols), t.height = atoi(lines) - 1;
        if (t.height > TEXT_HEIGHT_MAX) t.height = TEXT_HEIGHT_MAX;
        const char *ct = getenv("COLORTERM"), *term = getenv("TERM");
        if (getenv("NO_COLOR")) t.colour = DRAW_COLOUR_NONE;
        else if (ct && (strstr(ct, "truecolor") || strstr(ct, "24bit"))) t.colour = DRAW_COLOUR_24BIT;
        else if (term && strstr(term, "256color")) t.colour = DRAW_COLOUR_256;
    }
    if (o->width) t.width = (int)o->width;
    if (o->height) t.height = (int)o->height;
    return t;
}

/* An image's size in pixels: width= and height=, else 800 x 500 (a sparkline 400 x 60). */
static draw_term image_size(const picture_opts *o, bool spark)
{
    draw_term t = { spark ? 400 : 800, spark ? 60 : 500, DRAW_COLOUR_24BIT };
    if (o->width) t.width = (int)o->width;
    if (o->height) t.height = (int)o->height;
    return t;
}

/* Whether the picture is an image: written to a file (to=), or shown inline in a notebook. */
static bool as_image(Interp *I, const picture_opts *o) { return *o->to || (draw_have_images() && interp_shows_images(I)); }

/* The size the picture is laid out for: the image's when it is one, else the terminal's. */
static draw_term picture_size(Interp *I, const picture_opts *o, bool spark)
{
    return as_image(I, o) ? image_size(o, spark) : term_of(interp_out(I), o);
}

/* Draws the figure as a PNG in memory and shows it inline (a notebook): 0, or -1 with the error set. */
static int show_inline(Interp *I, const draw_figure *f, const draw_term *t)
{
    char *png = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&png, &n);
    if (!mem) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    int rc = draw_png(f, mem, t->width, t->height);
    if (fclose(mem) != 0 && rc == 0) {
        tl_seterr(MemoryError, "out of memory");
        rc = -1;
    }
    if (rc == 0 && !interp_show_png(I, png, n, t->width, t->height)) rc = -1;
    free(png);
    return rc;
}

/* Draws the figure where the options say; the builtin then returns none. */
static bool show(Interp *I, CallArgs *a, const picture_opts *o, draw_figure *f, Value *out)
{
    f->title = o->title;
    draw_term t = picture_size(I, o, f->kind == DRAW_SPARK);
    int rc = *o->to ? draw_image(f, o->to, t.width, t.height)
             : as_image(I, o) ? show_inline(I, f, &t)
                              : draw_text(f, &t, interp_out(I));
    if (rc < 0) return interp_error_rt(I, a->at);
    *out = val_none();
    return true;
}

/* Reads tensor argument i, refusing complex and empty ones and checking its ndim
   (min_ndim..max_ndim; 0-d counts as 1-d). */
static bool picture_tensor(Interp *I, CallArgs *a, int i, int min_ndim, int max_ndim, tl_tensor **t)
{
    const char *fname = a->self->name, *name = arg_name(a, i);
    if (!arg_tensor(I, a, i, t)) return false;
    int nd = (*t)->ndim ? (*t)->ndim : 1;
    bool complex = tl_is_complex((*t)->dtype), bad_ndim = nd < min_ndim || nd > max_ndim;
    bool empty = tl_tensor_size(*t) == 0;
    if (!complex && !bad_ndim && !empty) return true;
    tl_tensor_release(*t);
    if (complex) return interp_error(I, a->at, TypeError, "%s(): %s is complex: draw real(x), imag(x) or abs(x)", fname, name);
    if (bad_ndim)
        return interp_error(I, a->at, ShapeError, "%s(): %s must be %d-d%s, not %d-d", fname, name, min_ndim,
                            max_ndim > min_ndim ? " or 2-d" : "", nd);
    return interp_error(I, a->at, ValueError, "%s(): %s is empty", fname, name);
}

/* Reads parameter i, a tuple of n strings (what names one: "value", "series"), into *out (freed
   by the caller); *out stays NULL when the parameter is not given. */
static bool read_names(Interp *I, CallArgs *a, int i, int64_t n, const char *what, const char ***out)
{
    Value *v = arg_at(a, i);
    *out = NULL;
    if (!v) return true;
    if (v->kind != V_TUPLE || v->as.tu->n != n)
        return bi_fail(I, a, TypeError, "%s must be a tuple of %lld string%s, one per %s", arg_name(a, i), (long long)n,
                       n == 1 ? "" : "s", what);
    for (int64_t k = 0; k < n; k++)
        if (v->as.tu->items[k].kind != V_STR) return bi_fail(I, a, TypeError, "label %lld is not a string", (long long)k);
    if (!(*out = malloc((size_t)n * sizeof **out))) return interp_error(I, a->at, MemoryError, "out of memory");
    for (int64_t k = 0; k < n; k++) (*out)[k] = v->as.tu->items[k].as.s->data;
    return true;
}

/* hist(x, bins=50, ...): counts of x's finite values in equal bins over their range. */
static bool bi_hist(Interp *I, CallArgs *a, Value *out)
{
    picture_opts o;
    int64_t bins;
    tl_tensor *x;
    const char *xlabel, *ylabel;
    if (!read_opts(I, a, 4, &o) || !arg_int(I, a, 1, 50, &bins) || !arg_string(I, a, 2, "", &xlabel) ||
        !arg_string(I, a, 3, "", &ylabel))
        return false;
    if (bins < 1 || bins > 10000000) return bi_fail(I, a, ValueError, "bins must be between 1 and 10000000, not %lld", (long long)bins);
    if (!picture_tensor(I, a, 0, 0, TL_MAXDIM, &x)) return false;
    tl_plot_stats st;
    int64_t *counts = malloc((size_t)bins * sizeof *counts);
    bool ok = counts && tl_plot_stats_of(x, &st) == 0;
    if (ok && st.finite == 0) {
        ok = false;
        tl_seterr(ValueError, "%s(): x has no finite values", a->self->name);
    }
    double lo = st.lo, hi = st.hi;
    if (ok && lo == hi) lo -= 0.5, hi += 0.5;   /* numpy.histogram's range for one value */
    ok = ok && tl_plot_hist(x, lo, hi, bins, counts) == 0;
    draw_figure f = { .kind = DRAW_HIST, .xlabel = xlabel, .ylabel = ylabel, .bins = bins, .counts = counts, .lo = lo, .hi = hi,
                      .int_x = tl_is_intlike(x->dtype), .nan = st.nan, .inf = st.inf };
    tl_tensor_release(x);
    if (!counts) tl_seterr(MemoryError, "out of memory");
    bool r = ok ? show(I, a, &o, &f, out) : interp_error_rt(I, a->at);
    free(counts);
    return r;
}

/* A tensor's values as a contiguous f64 copy, with its nan and inf counts added to f's. */
static double *f64_values(const tl_tensor *t, tl_tensor **keep, draw_figure *f)
{
    tl_plot_stats st;
    if (tl_plot_stats_of(t, &st) < 0 || !(*keep = tl_cast(t, TL_F64))) return NULL;
    f->nan += st.nan;
    f->inf += st.inf;
    return tl_tensor_data(*keep);
}

/* Whether some point (x[i], y[s, i]) of f's series has both coordinates finite (x NULL: 0, 1, ...). */
static bool any_finite_point(const draw_figure *f)
{
    for (int64_t i = 0; i < f->n; i++)
        for (int s = 0; (!f->x || isfinite(f->x[i])) && s < f->nseries; s++)
            if (isfinite(f->y[s * f->n + i])) return true;
    return false;
}

/* logy=true: replaces f's y by their log10 in a fresh array (*logs, freed by the caller), refusing
   a finite value that is not positive (matplotlib would drop it silently) with where it is. */
static bool log_values(Interp *I, CallArgs *a, draw_figure *f, double **logs)
{
    int64_t n = f->n * f->nseries;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(f->y[i]) && f->y[i] <= 0)
            return bi_fail(I, a, ValueError, "logy=true needs positive y values, but value %lld is %g (draw abs(y), or leave those values out)",
                           (long long)i, f->y[i]);
    if (!(*logs = malloc((size_t)n * sizeof **logs))) return interp_error(I, a->at, MemoryError, "out of memory");
    for (int64_t i = 0; i < n; i++) (*logs)[i] = log10(f->y[i]);   /* inf stays inf and is skipped */
    f->y = *logs;
    f->logy = true;
    return true;
}

/* plot([x,] y) (lines; each row of a 2-d y is a series) and scatter(x, y) (points); the tag says which. */
static bool bi_plot(Interp *I, CallArgs *a, Value *out)
{
    const char *fname = a->self->name;
    bool scatter = a->self->tag == DRAW_SCATTER;
    picture_opts o;
    tl_tensor *x = NULL, *y = NULL, *xd = NULL, *yd = NULL;
    const char **names = NULL, *xlabel, *ylabel;
    double *logs = NULL;
    bool logy;
    if (!read_opts(I, a, 6, &o) || !arg_string(I, a, 3, "", &xlabel) || !arg_string(I, a, 4, "", &ylabel) ||
        !arg_bool(I, a, 5, false, &logy))
        return false;
    if (arg_at(a, 0) && !picture_tensor(I, a, 0, 1, 1, &x)) return false;
    if (!picture_tensor(I, a, 1, 1, scatter ? 1 : 2, &y)) {
        if (x) tl_tensor_release(x);
        return false;
    }
    int64_t n = y->ndim == 2 ? y->shape[1] : tl_tensor_size(y);
    bool r = false;
    if (x && tl_tensor_size(x) != n) {
        interp_error(I, a->at, ShapeError, "%s(): x has %lld values but y has %lld per series", fname, (long long)tl_tensor_size(x),
                     (long long)n);
        goto done;
    }
    draw_figure f = { .kind = scatter ? DRAW_SCATTER : DRAW_LINES, .xlabel = xlabel, .ylabel = ylabel, .n = n,
                      .nseries = y->ndim == 2 ? (int)y->shape[0] : 1, .int_x = !x || tl_is_intlike(x->dtype), .int_y = tl_is_intlike(y->dtype) };
    if (!read_names(I, a, 2, f.nseries, "series", &names)) goto done;
    f.names = names;
    if ((x && !(f.x = f64_values(x, &xd, &f))) || !(f.y = f64_values(y, &yd, &f))) {
        interp_error_rt(I, a->at);
        goto done;
    }
    if (logy && !log_values(I, a, &f, &logs)) goto done;
    if (!any_finite_point(&f)) {   /* as hist, heatmap and spark: nothing would be drawn */
        interp_error(I, a->at, ValueError, "%s(): no finite values to draw", fname);
        goto done;
    }
    r = show(I, a, &o, &f, out);
done:
    free(names);
    free(logs);
    for (tl_tensor **t = (tl_tensor *[]){ x, y, xd, yd }, **e = t + 4; t < e; t++)
        if (*t) tl_tensor_release(*t);
    return r;
}

/* bar(values, labels=none): one horizontal bar per value, labelled by a tuple of strings. */
static bool bi_bar(Interp *I, CallArgs *a, Value *out)
{
    picture_opts o;
    tl_tensor *v, *vd = NULL;
    if (!read_opts(I, a, 2, &o)) return false;
    if (!picture_tensor(I, a, 0, 1, 1, &v)) return false;
    int64_t n = tl_tensor_size(v);
    bool r = false;
    const char **labels = NULL;
    if (!read_names(I, a, 1, n, "value", &labels)) goto done;
    draw_figure f = { .kind = DRAW_BAR, .n = n, .nseries = 1, .labels = labels, .int_y = tl_is_intlike(v->dtype) };
    if (!(f.y = f64_values(v, &vd, &f))) {
        interp_error_rt(I, a->at);
        goto done;
    }
    r = show(I, a, &o, &f, out);
done:
    free(labels);
    tl_tensor_release(v);
    if (vd) tl_tensor_release(vd);
    return r;
}

/* Reduces m (2-d) to the grid f asks for and draws it: heatmap, and spark over a (1, n) view. */
static bool show_blocks(Interp *I, CallArgs *a, const picture_opts *o, const tl_tensor *m, tl_plot_reduce how,
                        draw_figure *f, Value *out)
{
    double *grid = malloc((size_t)(f->grows * f->gcols) * sizeof *grid);
    tl_plot_stats st;
    if (!grid) return interp_error(I, a->at, MemoryError, "out of memory");
    if (tl_plot_blocks(m, f->grows, f->gcols, how, grid, &st) < 0) {
        free(grid);
        return interp_error_rt(I, a->at);
    }
    if (st.finite == 0) {
        free(grid);
        return interp_error(I, a->at, ValueError, "%s(): no finite values to draw", a->self->name);
    }
    f->grid = f->y = grid;
    f->nan = st.nan, f->inf = st.inf;
    bool r = show(I, a, o, f, out);
    free(grid);
    return r;
}

/* heatmap(m, reduce="mean"): a 2-d tensor as coloured cells, larger ones reduced by block means or maxima. */
static bool bi_heatmap(Interp *I, CallArgs *a, Value *out)
{
    picture_opts o;
    const char *red;
    tl_tensor *m;
    if (!read_opts(I, a, 2, &o) || !arg_string(I, a, 1, "mean", &red)) return false;
    if (strcmp(red, "mean") != 0 && strcmp(red, "max") != 0) return bi_fail(I, a, ValueError, "reduce must be \"mean\" or \"max\", not \"%s\"", red);
    if (!picture_tensor(I, a, 0, 2, 2, &m)) return false;
    draw_figure f = { .kind = DRAW_HEATMAP, .mrows = m->shape[0], .mcols = m->shape[1], .block_max = *red == 'm' && red[1] == 'a' };
    draw_term t = picture_size(I, &o, false);
    bool r = draw_heatmap_cells(&t, as_image(I, &o), f.mrows, f.mcols, &f.grows, &f.gcols) == 0
                 ? show_blocks(I, a, &o, m, f.block_max ? TL_PLOT_MAX : TL_PLOT_MEAN, &f, out)
                 : interp_error_rt(I, a->at);
    tl_tensor_release(m);
    return r;
}

/* spark(x): a one-line sparkline of a 1-d tensor, block means when it has more values than columns. */
static bool bi_spark(Interp *I, CallArgs *a, Value *out)
{
    picture_opts o;
    tl_tensor *x;
    if (!read_opts(I, a, 1, &o) || !picture_tensor(I, a, 0, 1, 1, &x)) return false;
    draw_term t = picture_size(I, &o, true);
    int64_t n = tl_tensor_size(x), room = t.width - (as_image(I, &o) ? 0 : (int64_t)strlen(o.title) + (*o.title ? 1 : 0));
    tl_tensor *row = tl_reshape(x, 2, (int64_t[]){ 1, n });
    tl_tensor_release(x);
    if (!row) return interp_error_rt(I, a->at);
    if (room < 1) {
        tl_tensor_release(row);
        return bi_fail(I, a, ValueError, "width %d leaves no room after the title", t.width);
    }
    draw_figure f = { .kind = DRAW_SPARK, .nseries = 1, .grows = 1, .gcols = n < room ? n : room };
    f.n = f.gcols;
    bool r = show_blocks(I, a, &o, row, TL_PLOT_MEAN, &f, out);
    tl_tensor_release(row);
    return r;
}

const Builtin bi_plot_table[] = {
    { "hist", bi_hist, "hist(x, bins=50, *, xlabel=none, ylabel=none, " PICTURE_OPTS ")", "draws a histogram of x's finite values (in the terminal, or to=\"f.png\"/\"f.svg\")", 0, BF_OTHER, BT_NO },
    { "plot", bi_plot, "plot([x,] y, *, labels=none, xlabel=none, ylabel=none, logy=false, " PICTURE_OPTS ")", "draws lines (each row of a 2-d y is a series; labels= names them in a legend)", DRAW_LINES, BF_OTHER, BT_NO },
    { "scatter", bi_plot, "scatter(x, y, *, labels=none, xlabel=none, ylabel=none, logy=false, " PICTURE_OPTS ")", "draws the points (x[i], y[i])", DRAW_SCATTER, BF_OTHER, BT_NO },
    { "bar", bi_bar, "bar(values, labels=none, *, " PICTURE_OPTS ")", "draws one horizontal bar per value", 0, BF_OTHER, BT_NO },
    { "heatmap", bi_heatmap, "heatmap(m, *, reduce=\"mean\", " PICTURE_OPTS ")", "draws a 2-d tensor as coloured cells; larger ones are reduced by block means (or \"max\")", 0, BF_OTHER, BT_NO },
    { "spark", bi_spark, "spark(x, *, " PICTURE_OPTS ")", "draws a one-line sparkline of a 1-d tensor", 0, BF_OTHER, BT_NO },
    { 0 },
};
