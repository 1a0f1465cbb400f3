/* image_none.c — draw_image in a build without cairo: images are unavailable, the text pictures still work */
#include "draw.h"
#include "tensor.h"

bool draw_have_images(void) { return false; }

int draw_png(const draw_figure *f, FILE *out, int width, int height)
{
    (void)f, (void)out, (void)width, (void)height;
    tl_seterr(Error, "cannot draw the picture: images are unavailable in this build of tl (it was built without cairo)");
    return -1;
}

int draw_logo(FILE *out, int size, bool svg)
{
    (void)out, (void)size, (void)svg;
    tl_seterr(Error, "cannot draw the logo: images are unavailable in this build of tl (it was built without cairo)");
    return -1;
}

int draw_image(const draw_figure *f, const char *path, int width, int height)
{
    (void)f, (void)width, (void)height;
    tl_seterr(Error, "cannot write '%s': images are unavailable in this build of tl (it was built without cairo)", path);
    return -1;
}
