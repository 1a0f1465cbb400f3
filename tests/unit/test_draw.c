/* test_draw.c — pictures written as PNG by tl, decoded again with cairo: size, data pixels, axes, title */
#include <cairo.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "interp.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(draw);

#ifdef TL_LEAK_CHECK
/* fontconfig, which cairo loads to lay out text, reads its configuration on
   first use and keeps it for the life of the process without freeing it: not a
   leak of tl's. Only that library is excused (as in tests/fuzz/lsan.supp). */
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
#endif

/* Runs text in a fresh interpreter; on failure the message goes to err. */
static bool run(const char *text, char *err, size_t errlen)
{
    Interp *I = interp_new();
    cr_assert_not_null(I);
    FILE *out = fopen("/dev/null", "w");
    I->out = out;
    Source *src = source_new("draw.tl", text, strlen(text));
    bool ok = interp_run_source(I, src, true);
    snprintf(err, errlen, "%s", ok ? "" : I->err.msg);
    source_release(src);
    interp_free(I);
    fclose(out);
    return ok;
}

/* Runs `CALL, to="PATH")` for a fresh PNG path and decodes the file. */
static cairo_surface_t *picture(const char *call, char *path, size_t n)
{
    char text[1024], err[DIAG_MSG_MAX];
    snprintf(path, n, "/tmp/tl_test_draw_%d.png", (int)getpid());
    snprintf(text, sizeof text, "%s, to=\"%s\")\n", call, path);
    cr_assert(run(text, err, sizeof err), "%s: %s", call, err);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS, "%s did not write a PNG", call);
    return s;
}

/* The pixel at (x, y) as 0xRRGGBB. */
static uint32_t pixel(cairo_surface_t *s, int x, int y)
{
    cairo_surface_flush(s);
    const unsigned char *row = cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s);
    uint32_t v;
    memcpy(&v, row + 4 * x, 4);
    return v & 0xffffff;
}

/* Brightness 0..255 of the darkest pixel in the box [x0, x1] x [y0, y1]. */
static int darkest(cairo_surface_t *s, int x0, int y0, int x1, int y1)
{
    int best = 255;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            uint32_t p = pixel(s, x, y);
            int b = (int)(((p >> 16) & 255) + ((p >> 8) & 255) + (p & 255)) / 3;
            if (b < best) best = b;
        }
    return best;
}

Test(draw, line_plot_png_has_its_size_line_axes_and_title)
{
    char path[128];
    cairo_surface_t *s = picture("plot([0, 1, 2, 3], [0, 1, 0, 1], width=400, height=300, title=\"zigzag\"", path, sizeof path);
    cr_assert_eq(cairo_image_surface_get_width(s), 400);
    cr_assert_eq(cairo_image_surface_get_height(s), 300);
    /* plot area x 70..370, y 40..250; y range [0, 1] padded by 4%: (1.5, 0.5) is on the line */
    int px = 70 + 150, py = (int)(250 - (0.5 + 0.04) / 1.08 * 210);
    cr_assert_lt(darkest(s, px - 2, py - 2, px + 2, py + 2), 200, "no line at (%d, %d)", px, py);
    cr_assert_eq(darkest(s, 120, 200, 130, 210), 255, "the area under the zigzag's first peak should be empty");
    cr_assert_lt(darkest(s, 69, 60, 70, 240), 120, "the y axis line is missing");
    cr_assert_lt(darkest(s, 80, 249, 360, 250), 120, "the x axis line is missing");
    cr_assert_lt(darkest(s, 20, 100, 66, 240), 128, "no y tick labels");
    cr_assert_lt(darkest(s, 150, 5, 250, 35), 128, "no title");
    cr_assert_eq(pixel(s, 395, 5), 0xffffff);
    cairo_surface_destroy(s);
    unlink(path);
}

Test(draw, heatmap_png_colours_the_cells_by_value)
{
    char path[128];
    cairo_surface_t *s = picture("heatmap(eye(4), width=350, height=290", path, sizeof path);
    /* plot area x 70..270 (colour bar right of it), y 20..240: cells of 50 x 55 pixels */
    uint32_t hot = pixel(s, 70 + 25, 20 + 27), cold = pixel(s, 70 + 75, 20 + 27), hot2 = pixel(s, 70 + 175, 20 + 192);
    cr_assert_eq(hot, 0xfde725, "diagonal cell %06x should be the top of the colour map", hot);
    cr_assert_eq(hot2, 0xfde725);
    cr_assert_eq(cold, 0x440154, "off-diagonal cell %06x should be the bottom of the colour map", cold);
    cr_assert_lt(darkest(s, 270 + 12, 30, 270 + 25, 230), 128, "no colour bar");
    cairo_surface_destroy(s);
    unlink(path);
}

Test(draw, hist_png_has_bars_where_the_data_are)
{
    char path[128];
    cairo_surface_t *s = picture("hist([0, 0, 0, 0, 1], bins=2, width=400, height=300", path, sizeof path);
    /* x 70..370: bin 0 is the left half, 4 counts (full height); bin 1 reaches a quarter */
    cr_assert_eq(pixel(s, 120, 40), 0x1f77b4, "the tall bar is missing");
    cr_assert_eq(pixel(s, 300, 240), 0x1f77b4, "the short bar is missing");
    cr_assert_eq(pixel(s, 300, 100), 0xffffff, "the short bar is too tall");
    cairo_surface_destroy(s);
    unlink(path);
}

Test(draw, legend_and_axis_names_are_drawn_where_they_belong)
{
    char path[128];
    const char *bare = "plot([0, 1, 2, 3], [1, 0, 0, 0], width=400, height=300";
    const char *named = "plot([0, 1, 2, 3], [1, 0, 0, 0], labels=(\"sin\",), xlabel=\"time\", ylabel=\"volts\", width=400, height=300";
    for (int with = 0; with < 2; with++) {
        cairo_surface_t *s = picture(with ? named : bare, path, sizeof path);
        /* plot area x 70..370, y 20..250: the legend's box is in its top right corner (the data are
           at the top left), its line 20 pixels long at y 40 in the first series' colour; the x axis's
           name under the tick labels (y 278..290), the y axis's turned at the left edge */
        bool line = false;
        for (int x = 280; x < 350; x++) line = line || pixel(s, x, 40) == 0x1f77b4;
        cr_assert_eq(line, with, "the legend's line is %s", with ? "missing" : "there unasked");
        cr_assert_eq(darkest(s, 180, 276, 260, 294) < 128, with, "the x axis's name is %s", with ? "missing" : "there unasked");
        cr_assert_eq(darkest(s, 2, 110, 22, 160) < 128, with, "the y axis's name is %s", with ? "missing" : "there unasked");
        cairo_surface_destroy(s);
        unlink(path);
    }
}

Test(draw, logy_puts_the_geometric_middle_in_the_middle)
{
    char path[128];
    for (int logy = 0; logy < 2; logy++) {
        cairo_surface_t *s = picture(logy ? "scatter([1, 2, 3], [1, 10, 100], logy=true, width=400, height=300"
                                          : "scatter([1, 2, 3], [1, 10, 100], width=400, height=300",
                                     path, sizeof path);
        /* plot area x 70..370, y 20..250, padded evenly: on a log axis (2, 10) is at its centre
           (220, 135); on a linear one it is near the bottom */
        cr_assert_eq(darkest(s, 214, 129, 226, 141) < 128, logy, "the point (2, 10) is %s the centre", logy ? "not at" : "at");
        cairo_surface_destroy(s);
        unlink(path);
    }
}

Test(draw, svg_is_written)
{
    char err[DIAG_MSG_MAX], text[256], path[128], head[256] = "";
    snprintf(path, sizeof path, "/tmp/tl_test_draw_%d.svg", (int)getpid());
    snprintf(text, sizeof text, "scatter([1, 2, 3], [3, 1, 2], to=\"%s\")\n", path);
    cr_assert(run(text, err, sizeof err), "%s", err);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    cr_assert_not_null(strstr(head, "<svg"), "not an SVG file: %s", head);
    unlink(path);
}
