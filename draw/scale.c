/* scale.c — ticks at round steps with labels in the printer's format, colour maps, footnotes */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "scale.h"

void draw_number(double v, bool integer, char *buf, size_t n)
{
    char tmp[128];
    if (integer && v == floor(v) && fabs(v) < 9007199254740992.0) {
        int64_t i = (int64_t)v;
        tl_fmt_scalar(&i, TL_I64, tmp, sizeof tmp);
    } else {
        tl_fmt_scalar(&v, TL_F64, tmp, sizeof tmp);
    }
    size_t k = strlen(tmp) < n ? strlen(tmp) : n - 1;
    memcpy(buf, tmp, k);
    buf[k] = 0;
}

void draw_number_short(double v, char *buf, size_t n)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.4g", v);
    draw_number(strtod(tmp, NULL), false, buf, n);
}

void draw_range_widen(double *lo, double *hi)
{
    if (*lo < *hi) return;
    double d = *lo == 0 ? 1.0 : fabs(*lo) * 0.1;
    *lo -= d;
    *hi += d;
}

/* How many multiples of step lie in [lo, hi], and the first and last as multiples (k0, k1). */
static double ticks_in(double lo, double hi, double step, double *k0, double *k1)
{
    *k0 = ceil(lo / step - 1e-9);
    *k1 = floor(hi / step + 1e-9);
    return *k1 - *k0 + 1;
}

void draw_ticks_make(draw_ticks *t, double lo, double hi, int want, bool integer)
{
    t->n = 0;
    if (!(lo < hi) || !isfinite(hi - lo)) return;
    if (want < 2) want = 2;
    /* the round step (1, 2 or 5 times 10^e) whose tick count is nearest want, the smaller on a tie */
    int e0 = (int)floor(log10((hi - lo) / want)), best_e = 0, best_m = 0;
    double best = INFINITY, k0, k1;
    for (int e = e0 - 1; e <= e0 + 1; e++)
        for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
            if (integer && e < 0) continue;
            double miss = fabs(ticks_in(lo, hi, m * pow(10.0, e), &k0, &k1) - want);
            if (miss < best) best = miss, best_e = e, best_m = m;
        }
    if (best_m == 0) best_e = 0, best_m = 1;
    double p = pow(10.0, best_e);
    ticks_in(lo, hi, best_m * p, &k0, &k1);
    for (double k = k0; k <= k1 && t->n < DRAW_MAX_TICKS; k++) {
        /* k m is a whole number: one rounding when it is scaled, so 0.3 is 0.3 */
        double v = best_e >= 0 ? k * best_m * p : k * best_m / pow(10.0, -best_e);
        if (v == 0) v = 0;   /* no -0.0 */
        t->v[t->n] = v;
        draw_number(v, integer, t->label[t->n], sizeof t->label[0]);
        t->n++;
    }
}

void draw_ticks_log(draw_ticks *t, double lo, double hi, int want)
{
    draw_ticks_make(t, lo, hi, want, true);
    if (t->n < 2) draw_ticks_make(t, lo, hi, want, false);
    for (int i = 0; i < t->n; i++) {
        double k = t->v[i];
        if (k != floor(k)) snprintf(t->label[i], sizeof t->label[0], "%.3g", pow(10.0, k));
        else if (k >= 0 && k <= 4) snprintf(t->label[i], sizeof t->label[0], "%.0f", pow(10.0, k));
        else if (k < 0 && k >= -4) snprintf(t->label[i], sizeof t->label[0], "%.*f", (int)-k, pow(10.0, k));
        else snprintf(t->label[i], sizeof t->label[0], "1e%d", (int)k);
    }
}

draw_rgb draw_colormap(double t)
{
    /* viridis at 0, 1/4, 1/2, 3/4, 1, linearly between */
    static const draw_rgb stops[5] = {
        { 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c }, { 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
    };
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 4;
    int i = s >= 4 ? 3 : (int)s;
    double w = s - i;
    draw_rgb a = stops[i], b = stops[i + 1];
    return (draw_rgb){ (unsigned char)lround(a.r + (b.r - a.r) * w), (unsigned char)lround(a.g + (b.g - a.g) * w),
                       (unsigned char)lround(a.b + (b.b - a.b) * w) };
}

draw_rgb draw_series_colour(int k)
{
    static const draw_rgb cycle[10] = {
        { 0x1f, 0x77, 0xb4 }, { 0xff, 0x7f, 0x0e }, { 0x2c, 0xa0, 0x2c }, { 0xd6, 0x27, 0x28 }, { 0x94, 0x67, 0xbd },
        { 0x8c, 0x56, 0x4b }, { 0xe3, 0x77, 0xc2 }, { 0x7f, 0x7f, 0x7f }, { 0xbc, 0xbd, 0x22 }, { 0x17, 0xbe, 0xcf },
    };
    return cycle[k % 10];
}

void draw_finite_range(const double *v, int64_t n, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i])) {
            if (v[i] < *lo) *lo = v[i];
            if (v[i] > *hi) *hi = v[i];
        }
}

const char *draw_footnote(const draw_figure *f, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    if (f->kind == DRAW_HEATMAP && (f->grows < f->mrows || f->gcols < f->mcols))
        len += (size_t)snprintf(buf + len, n - len, "%lld×%lld shown as %lld×%lld block %s", (long long)f->mrows,
                                (long long)f->mcols, (long long)f->grows, (long long)f->gcols,
                                f->block_max ? "maxima" : "means");
    if ((f->nan || f->inf) && len < n) {
        len += (size_t)snprintf(buf + len, n - len, "%sskipped:", len ? "; " : "");
        if (f->nan && len < n) len += (size_t)snprintf(buf + len, n - len, " %lld nan", (long long)f->nan);
        if (f->inf && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s %lld inf", f->nan ? "," : "", (long long)f->inf);
    }
    return buf;
}
