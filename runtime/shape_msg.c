/* shape_msg.c — shape errors that show both shapes: aligned from the right, the axis that does not fit marked */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tensor.h"

/* A growing text in a fixed buffer (cut short, never overrun, when it is full). */
typedef struct text { char *buf; size_t cap, len; } text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    if (t->len >= t->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (w > 0) t->len += (size_t)w;
    if (t->len >= t->cap) t->len = t->cap - 1;
}

/* The size of axis c (counted in the aligned columns) of a shape of nd axes among n columns, or -1
   when the shape has no such axis. */
static int64_t dim_at(int nd, const int64_t *s, int n, int c) { return c < n - nd ? -1 : s[c - (n - nd)]; }

/* One shape laid out in the columns: blanks where it has no axis, each size right-aligned. */
static void put_row(text *t, int nd, const int64_t *s, int n, const int *width)
{
    for (int c = 0; c < n - nd; c++) put(t, "%*s", width[c] + 2, "");
    put(t, "(");
    for (int c = n - nd; c < n; c++) put(t, "%s%*lld", c > n - nd ? ", " : "", width[c], (long long)dim_at(nd, s, n, c));
    put(t, nd == 1 ? ",)" : ")");
}

char *tl_shapes_aligned(int na, const int64_t *sa, int nb, const int64_t *sb, char *buf, size_t cap)
{
    text t = { buf, cap, 0 };
    if (cap) buf[0] = '\0';
    int n = na > nb ? na : nb, width[TL_MAXDIM] = { 0 }, bad = -1;
    if (n > TL_MAXDIM) return buf;
    for (int c = 0; c < n; c++) {
        int64_t a = dim_at(na, sa, n, c), b = dim_at(nb, sb, n, c);
        char x[24], y[24];
        int wa = a < 0 ? 0 : snprintf(x, sizeof x, "%lld", (long long)a), wb = b < 0 ? 0 : snprintf(y, sizeof y, "%lld", (long long)b);
        width[c] = wa > wb ? wa : wb;
        if (a >= 0 && b >= 0 && a != b && a != 1 && b != 1) bad = c;   /* the last such column: the first from the right */
    }
    put_row(&t, na, sa, n, width);
    put(&t, "\n");
    put_row(&t, nb, sb, n, width);
    if (bad < 0) return buf;
    int col = 1;   /* the character under the right end of column bad */
    for (int c = 0; c < bad; c++) col += width[c] + 2;
    col += width[bad] - 1;
    put(&t, "\n%*s^ axis %d: %lld vs %lld (sizes must be equal, or one of them 1)", col, "", bad - n,
        (long long)dim_at(na, sa, n, bad), (long long)dim_at(nb, sb, n, bad));
    return buf;
}

void tl_seterr_shapes(const char *fmt, int na, const int64_t *sa, int nb, const int64_t *sb)
{
    char a[TL_MAXDIM * 24 + 8], b[TL_MAXDIM * 24 + 8], head[512], lines[3 * (TL_MAXDIM * 24 + 8)];
    snprintf(head, sizeof head, fmt, tl_shape_str(na, sa, a, sizeof a), tl_shape_str(nb, sb, b, sizeof b));
    tl_seterr(ShapeError, "%s\n%s", head, tl_shapes_aligned(na, sa, nb, sb, lines, sizeof lines));
}
