/* test_draw_nocairo.c — draw/ built without cairo (image_none.c): text pictures work, images say they are unavailable */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "tensor.h"
#include "leak_check.h"

LEAK_CHECKED_SUITE(draw_nocairo);

Test(draw_nocairo, images_are_unavailable)
{
    int64_t counts[2] = { 3, 1 };
    draw_figure f = { .kind = DRAW_HIST, .bins = 2, .counts = counts, .lo = 0, .hi = 1 };
    cr_assert_not(draw_have_images());
    cr_assert_eq(draw_image(&f, "x.png", 400, 300), -1);
    cr_assert_str_eq(tl_errmsg(), "cannot write 'x.png': images are unavailable in this build of tl (it was built without cairo)");
}

Test(draw_nocairo, text_pictures_still_work)
{
    int64_t counts[2] = { 3, 1 };
    draw_figure f = { .kind = DRAW_HIST, .bins = 2, .counts = counts, .lo = 0, .hi = 1 };
    draw_term t = { 20, 6, DRAW_COLOUR_NONE };
    char *buf = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&buf, &n);
    cr_assert_eq(draw_text(&f, &t, out), 0);
    fclose(out);
    cr_assert_str_eq(buf, "  │████████\n"
                          "2 ┤████████\n"
                          "  │████████▃▃▃▃▃▃▃▃▃\n"
                          "0 ┤█████████████████\n"
                          "  └┬───────────────┬\n"
                          "  0.0            1.0\n");
    free(buf);
}
