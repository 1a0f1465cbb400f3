/* format.c — numpy 1.24 str() of tensors, streamed through a write callback */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "format_float.h"
#include "utf8.h"

/* numpy's defaults (arrayprint._format_options) */
tl_printopts tl_print_options = { 8, 1000, 3, 75, false };

void tl_printopts_default(tl_printopts *o)
{
    o->precision = 8;
    o->threshold = 1000;
    o->edgeitems = 3;
    o->linewidth = 75;
    o->suppress = false;
}

enum { INTERRUPT_EVERY = 4096 };

/* A growing text buffer behind a tl_write_fn. */
typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

static int strbuf_write(void *ctx, const char *s, size_t n)
{
    strbuf *b = ctx;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            tl_seterr(MemoryError, "out of memory");
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

/* ---- element access ------------------------------------------------------ */

/* Raw little-endian bits of an element of up to 8 bytes. */
static uint64_t load_bits(const char *p, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, p, size);
    return v;
}

/* Exact value of float bits of dtype d as a double. */
static double bits_to_double(uint64_t bits, tl_dtype d)
{
    return tl_scalar_to_f64(&bits, d);   /* the low bytes of a little-endian word */
}

static bool bits_signbit(uint64_t bits, tl_dtype d)
{
    return (bits >> (tl_dtype_size(d) * 8 - 1)) & 1;
}

/* numpy computes max/min of an array in its own dtype: the quotient of two
   float16 values is rounded to float16, of two float32 to float32. bf16 uses
   f32 arithmetic (numpy has no bf16; tl's expectations come from f32 arrays). */
static double dtype_ratio(double mx, double mn, tl_dtype d)
{
    if (d == TL_F64) return mx / mn;
    float q = (float)mx / (float)mn;
    if (d == TL_F16) return tl_f16_to_f32(tl_f32_to_f16(q));
    return q;
}

/* Decimal text of an integer element; returns its length. */
static int int_to_text(char *buf, const char *p, tl_dtype d)
{
    uint64_t u;
    bool neg = false;
    if (tl_dtype_kind(d) == TL_KIND_INT) {
        int64_t s = tl_scalar_to_i64(p, d);
        neg = s < 0;
        u = neg ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;   /* exact for INT64_MIN too */
    } else {
        u = tl_scalar_to_u64(p, d);
    }
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int len = 0;
    if (neg) buf[len++] = '-';
    while (n > 0) buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

/* ---- float columns (numpy's FloatingFormat) -------------------------------- */

typedef struct float_col {
    tl_dtype d;            /* f16, bf16, f32 or f64 */
    bool plus;             /* sign='+' (the imaginary column of complex) */
    /* first pass: which values are shown */
    bool any_finite, any_nonfinite, any_neginf, any_nonzero;
    double max_abs, min_abs;   /* over finite non-zero values */
    /* the layout numpy's fillFormat settles on */
    bool exp_format;
    int precision, min_digits, pad_left, pad_right, exp_size;
    tl_trim trim;
} float_col;

static void col_init(float_col *c, tl_dtype d, bool plus, int precision)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->plus = plus;
    c->precision = precision;
    c->min_digits = -1;
    c->exp_size = -1;
    c->trim = TL_TRIM_ZEROS;
}

/* First pass: range of the finite values, and whether any are nan/inf. */
static void col_observe(float_col *c, uint64_t bits)
{
    double x = bits_to_double(bits, c->d);
    if (x != x || x - x != 0) {
        c->any_nonfinite = true;
        if (x < 0) c->any_neginf = true;
        return;
    }
    c->any_finite = true;
    double a = x < 0 ? -x : x;
    if (a == 0) return;
    if (!c->any_nonzero || a > c->max_abs) c->max_abs = a;
    if (!c->any_nonzero || a < c->min_abs) c->min_abs = a;
    c->any_nonzero = true;
}

/* Between the passes: positional or scientific (numpy's rule, in the dtype's arithmetic). */
static void col_choose_mode(float_col *c, bool suppress)
{
    if (!c->any_nonzero) return;
    c->exp_format = c->max_abs >= 1e8 ||
                    (!suppress && (c->min_abs < 0.0001 ||
                                   dtype_ratio(c->max_abs, c->min_abs, c->d) > 1000.0));
}

static int max_int(int a, int b) { return a > b ? a : b; }

/* Second pass: widths of the integer, fraction and exponent parts at the capped precision. */
static void col_measure(float_col *c, uint64_t bits)
{
    double x = bits_to_double(bits, c->d);
    if (x != x || x - x != 0) return;
    char s[TL_D4_MAX];
    tl_d4_opts o = tl_d4_defaults();
    o.precision = c->precision;
    o.sign = c->plus;
    if (c->exp_format) {
        tl_d4_scientific(s, sizeof s, bits, c->d, &o);
        const char *dot = strchr(s, '.'), *e = strchr(s, 'e');
        c->pad_left = max_int(c->pad_left, (int)(dot - s));
        c->min_digits = max_int(c->min_digits, (int)(e - dot - 1));
        c->exp_size = max_int(c->exp_size, (int)strlen(e + 1) - 1);
    } else {
        size_t n = tl_d4_positional(s, sizeof s, bits, c->d, &o);
        const char *dot = strchr(s, '.');
        c->pad_left = max_int(c->pad_left, (int)(dot - s));
        c->pad_right = max_int(c->pad_right, (int)(n - (size_t)(dot - s) - 1));
    }
}

/* After the second pass: numpy's final settings, widened for nan/inf. */
static void col_finish(float_col *c)
{
    if (!c->any_finite) {
        c->pad_left = c->pad_right = 0;
        c->trim = TL_TRIM_ZEROS;
        c->exp_size = -1;
        c->min_digits = -1;
    } else if (c->exp_format) {
        c->precision = c->min_digits;   /* the widest mantissa fraction, zero-filled */
        c->trim = TL_TRIM_KEEP;
        c->pad_right = c->exp_size + 2 + c->precision;
    } else {
        c->trim = TL_TRIM_ZEROS;
        c->min_digits = 0;
    }
    if (c->any_nonfinite) {
        int neginf = c->plus || c->any_neginf;
        int offset = c->pad_right + 1;
        c->pad_left = max_int(c->pad_left, max_int(3 - offset, 3 + neginf - offset));
    }
}

/* One element of the column, padded to the column width. */
static size_t col_format(const float_col *c, uint64_t bits, char *out, size_t cap)
{
    double x = bits_to_double(bits, c->d);
    if (x != x || x - x != 0) {
        const char *s = x != x ? (c->plus ? "+nan" : "nan")
                               : x < 0 ? "-inf" : (c->plus ? "+inf" : "inf");
        int len = (int)strlen(s), width = c->pad_left + c->pad_right + 1, n = 0;
        for (; n < width - len && (size_t)n + 1 < cap; n++) out[n] = ' ';
        for (int i = 0; i < len && (size_t)n + 1 < cap; i++) out[n++] = s[i];
        out[n] = '\0';
        return (size_t)n;
    }
    tl_d4_opts o = tl_d4_defaults();
    o.precision = c->precision;
    o.min_digits = c->min_digits;
    o.trim = c->trim;
    o.sign = c->plus;
    o.pad_left = c->pad_left;
    if (c->exp_format) {
        o.exp_digits = c->exp_size;
        return tl_d4_scientific(out, cap, bits, c->d, &o);
    }
    o.pad_right = c->pad_right;
    return tl_d4_positional(out, cap, bits, c->d, &o);
}

/* ---- the whole-tensor format ---------------------------------------------- */

typedef struct tfmt {
    const tl_tensor *t;
    tl_dtype d;
    size_t isz;
    bool summarize;
    int64_t edge;
    int linewidth;
    int64_t visited;            /* elements seen, for interrupt checks */
    /* integers */
    bool is_signed, any_int;
    int64_t imin, imax;
    uint64_t umin, umax;
    int int_width;
    /* floats: re is the only column of a real tensor */
    float_col re, im;
    char word[2 * TL_D4_MAX + 8];   /* the element being written */
    const tl_fmtspec *spec;         /* NULL, or each element's format spec (tl_fmt_tensor_spec) */
    strbuf custom;                  /* an element formatted with spec */
} tfmt;

typedef int (*visit_fn)(tfmt *f, const char *p);

/* Calls fn on every element numpy uses for column widths: with summarization,
   the first and last edgeitems of each long axis (numpy's _leading_trailing;
   with edgeitems=0 its a[-0:] keeps the whole axis). */
static int walk_shown(tfmt *f, int axis, const char *p, visit_fn fn)
{
    const tl_tensor *t = f->t;
    if (axis == t->ndim) {
        if (++f->visited % INTERRUPT_EVERY == 0 && tl_check_interrupt() < 0) return -1;
        return fn(f, p);
    }
    int64_t n = t->shape[axis], step = t->strides[axis] * (int64_t)f->isz;
    int64_t lead = n, tail_from = n;
    if (f->summarize && n > 2 * f->edge && f->edge > 0) {
        lead = f->edge;
        tail_from = n - f->edge;
    }
    for (int64_t i = 0; i < lead; i++)
        if (walk_shown(f, axis + 1, p + i * step, fn) < 0) return -1;
    for (int64_t i = tail_from; i < n; i++)
        if (walk_shown(f, axis + 1, p + i * step, fn) < 0) return -1;
    return 0;
}

static int observe_elem(tfmt *f, const char *p)
{
    switch (tl_dtype_kind(f->d)) {
    case TL_KIND_FLOAT:
        col_observe(&f->re, load_bits(p, f->isz));
        break;
    case TL_KIND_COMPLEX:
        col_observe(&f->re, load_bits(p, f->isz / 2));
        col_observe(&f->im, load_bits(p + f->isz / 2, f->isz / 2));
        break;
    case TL_KIND_INT:
    case TL_KIND_UINT: {
        char buf[24];
        int len = int_to_text(buf, p, f->d);
        if (len > f->int_width) f->int_width = len;
        break;
    }
    default:
        break;
    }
    return 0;
}

static int measure_elem(tfmt *f, const char *p)
{
    if (tl_dtype_kind(f->d) == TL_KIND_COMPLEX) {
        col_measure(&f->re, load_bits(p, f->isz / 2));
        col_measure(&f->im, load_bits(p + f->isz / 2, f->isz / 2));
    } else {
        col_measure(&f->re, load_bits(p, f->isz));
    }
    return 0;
}

/* Text of one element as numpy's format function for the array makes it. */
static size_t format_elem(const tfmt *f, const char *p, char *out, size_t cap)
{
    switch (tl_dtype_kind(f->d)) {
    case TL_KIND_BOOL:
        /* numpy pads ' True' to the width of 'False' in every array with ndim > 0 */
        strcpy(out, *p ? " true" : "false");
        return 5;
    case TL_KIND_INT:
    case TL_KIND_UINT: {
        char buf[24];
        int len = int_to_text(buf, p, f->d), pad = f->int_width - len;
        for (int i = 0; i < pad; i++) out[i] = ' ';
        memcpy(out + (pad > 0 ? pad : 0), buf, (size_t)len + 1);
        return (size_t)(len + (pad > 0 ? pad : 0));
    }
    case TL_KIND_FLOAT:
        return col_format(&f->re, load_bits(p, f->isz), out, cap);
    default: {
        /* complex: real column, then imaginary column with 'j' before its padding */
        size_t half = f->isz / 2;
        size_t n = col_format(&f->re, load_bits(p, half), out, cap);
        size_t m = col_format(&f->im, load_bits(p + half, half), out + n, cap - n - 1);
        size_t end = n + m;
        while (end > n && out[end - 1] == ' ') end--;
        memmove(out + end + 1, out + end, n + m - end + 1);
        out[end] = 'j';
        return n + m + 1;
    }
    }
}

/* ---- streaming output ------------------------------------------------------
   numpy builds each line and strips its trailing spaces when it wraps. Here
   text goes straight out except a line's trailing spaces, which wait until
   something follows them on the same line (and are dropped at a wrap). */

typedef struct emitter {
    tl_write_fn write;
    void *ctx;
    int failed;
    int64_t col;            /* length of the current line, waiting spaces included */
    int64_t spaces;         /* trailing spaces not yet written */
    size_t n;
    char buf[4096];
} emitter;

static void em_flush(emitter *e)
{
    if (e->n && !e->failed && e->write(e->ctx, e->buf, e->n) < 0) e->failed = 1;
    e->n = 0;
}

static void em_raw(emitter *e, const char *s, size_t n)
{
    while (n > 0 && !e->failed) {
        if (e->n == sizeof e->buf) em_flush(e);
        size_t k = sizeof e->buf - e->n;
        if (k > n) k = n;
        memcpy(e->buf + e->n, s, k);
        e->n += k;
        s += k;
        n -= k;
    }
}

static void em_spaces(emitter *e, int64_t n)
{
    char sp[64];
    memset(sp, ' ', sizeof sp);
    while (n > 0) {
        int64_t k = n < 64 ? n : 64;
        em_raw(e, sp, (size_t)k);
        n -= k;
    }
}

/* Appends text of cols characters to the current line. */
static void em_text_cols(emitter *e, const char *s, size_t n, int64_t cols)
{
    size_t body = n;
    while (body > 0 && s[body - 1] == ' ') body--;
    if (body > 0) {
        em_spaces(e, e->spaces);
        e->spaces = 0;
        em_raw(e, s, body);
    }
    e->spaces += (int64_t)(n - body);
    e->col += cols;
}

/* Appends ASCII text to the current line. */
static void em_text(emitter *e, const char *s, size_t n) { em_text_cols(e, s, n, (int64_t)n); }

/* Ends the line, dropping its trailing spaces (numpy's line.rstrip()). */
static void em_newline(emitter *e)
{
    e->spaces = 0;
    em_raw(e, "\n", 1);
    e->col = 0;
}

/* Starts a line's hanging indent (written only once text follows it). */
static void em_indent(emitter *e, int64_t n)
{
    e->spaces += n;
    e->col += n;
}

/* numpy's _extendLine: a word of cols characters goes on a new line (after the hanging
   indent) when it would pass width, unless the line holds nothing but the indent. */
static void em_word(emitter *e, const char *w, size_t n, int64_t cols, int64_t width, int64_t indent)
{
    if (e->col + cols > width && e->col > indent) {
        em_newline(e);
        em_indent(e, indent);
    }
    em_text_cols(e, w, n, cols);
}

/* One element as a word of its row: numpy's text, or the spec's (whose width counts characters). */
static int emit_elem(tfmt *f, emitter *e, const char *q, int64_t width, int64_t indent)
{
    if (!f->spec) {
        size_t len = format_elem(f, q, f->word, sizeof f->word);
        em_word(e, f->word, len, (int64_t)len, width, indent);
        return 0;
    }
    f->custom.n = 0;
    if (tl_format_scalar(f->spec, q, f->d, strbuf_write, &f->custom) < 0) return -1;
    const char *w = f->custom.p ? f->custom.p : "";
    em_word(e, w, f->custom.n, (int64_t)tl_utf8_count(w, f->custom.n), width, indent);
    return 0;
}

/* Writes the block of axis `axis` starting at p (numpy's _formatArray recurser). */
static int emit_block(tfmt *f, emitter *e, int axis, const char *p)
{
    const tl_tensor *t = f->t;
    int64_t n = t->shape[axis], step = t->strides[axis] * (int64_t)f->isz;
    int64_t indent = axis + 1;               /* the hanging indent of this block */
    int axes_left = t->ndim - axis;
    bool summary = f->summarize && 2 * f->edge < n;
    int64_t lead = summary ? f->edge : n;
    int64_t tail_from = summary ? n - (f->edge > 0 ? f->edge : 1) : n;
    int64_t count = lead + (summary ? 1 + (n - tail_from) : 0);

    em_text(e, "[", 1);
    for (int64_t k = 0; k < count && !e->failed; k++) {
        bool is_summary = summary && k == lead;
        int64_t i = k < lead ? k : tail_from + (k - lead - (summary ? 1 : 0));
        const char *q = p + i * step;
        if (axes_left == 1) {
            int64_t width = (int64_t)f->linewidth - axis - 1;
            if (is_summary) {
                em_word(e, "...", 3, 3, width, indent);
            } else {
                if (++f->visited % INTERRUPT_EVERY == 0 && tl_check_interrupt() < 0) return -1;
                if (emit_elem(f, e, q, width, indent) < 0) return -1;
            }
            if (k + 1 < count) em_text(e, " ", 1);
        } else {
            if (k > 0) em_indent(e, indent);
            if (is_summary) em_text(e, "...", 3);
            else if (emit_block(f, e, axis + 1, q) < 0) return -1;
            if (k + 1 < count)
                for (int j = 0; j < axes_left - 1; j++) em_newline(e);
        }
    }
    em_text(e, "]", 1);
    return 0;
}

/* ---- scalars (numpy's scalar str) ----------------------------------------- */

/* numpy's float scalar str: positional with shortest digits and a '.0' for
   0 and 1e-4 <= |x| < 1e16, else scientific without a bare point ('1e-05'). */
static size_t float_scalar(char *buf, size_t cap, uint64_t bits, tl_dtype d)
{
    double a = bits_to_double(bits, d);
    if (a < 0) a = -a;
    tl_d4_opts o = tl_d4_defaults();
    if (a == 0 || (a >= 1e-4 && a < 1e16)) {
        o.trim = TL_TRIM_ONE_ZERO;
        return tl_d4_positional(buf, cap, bits, d, &o);
    }
    o.trim = TL_TRIM_DPT_ZEROS;
    return tl_d4_scientific(buf, cap, bits, d, &o);
}

/* A complex part as numpy's complex scalar str prints it: trailing '.0' dropped. */
static size_t complex_part(char *buf, size_t cap, uint64_t bits, tl_dtype d, bool plus)
{
    double x = bits_to_double(bits, d);
    if (x != x) return (size_t)snprintf(buf, cap, "%snan", plus ? "+" : "");
    if (x - x != 0) return (size_t)snprintf(buf, cap, "%s", x < 0 ? "-inf" : plus ? "+inf" : "inf");
    double a = x < 0 ? -x : x;
    tl_d4_opts o = tl_d4_defaults();
    o.sign = plus;
    o.trim = TL_TRIM_DPT_ZEROS;
    if (a == 0 || (a >= 1e-4 && a < 1e16)) return tl_d4_positional(buf, cap, bits, d, &o);
    return tl_d4_scientific(buf, cap, bits, d, &o);
}

int tl_fmt_scalar(const void *p, tl_dtype d, char *buf, size_t n)
{
    char tmp[160];
    size_t len;
    size_t isz = tl_dtype_size(d);
    switch (tl_dtype_kind(d)) {
    case TL_KIND_BOOL:
        len = (size_t)snprintf(tmp, sizeof tmp, "%s", *(const unsigned char *)p ? "true" : "false");
        break;
    case TL_KIND_INT:
    case TL_KIND_UINT:
        len = (size_t)int_to_text(tmp, p, d);
        break;
    case TL_KIND_FLOAT:
        len = float_scalar(tmp, sizeof tmp, load_bits(p, isz), d);
        break;
    default: {
        tl_dtype c = tl_dtype_real(d);
        uint64_t re = load_bits(p, isz / 2), im = load_bits((const char *)p + isz / 2, isz / 2);
        char rs[72], is[72];
        if (bits_to_double(re, c) == 0 && !bits_signbit(re, c)) {
            /* a +0 real part is left out: '2j', not '(0+2j)' */
            size_t m = complex_part(is, sizeof is, im, c, false);
            len = (size_t)snprintf(tmp, sizeof tmp, "%.*sj", (int)m, is);
        } else {
            complex_part(rs, sizeof rs, re, c, false);
            complex_part(is, sizeof is, im, c, true);
            len = (size_t)snprintf(tmp, sizeof tmp, "(%s%sj)", rs, is);
        }
    }
    }
    if (len + 1 > n) {
        tl_seterr(ValueError, "scalar text needs %zu bytes, buffer has %zu", len + 1, n);
        return -1;
    }
    memcpy(buf, tmp, len + 1);
    return (int)len;
}

/* ---- entry points ----------------------------------------------------------- */

static int check_opts(const tl_printopts *o)
{
    if (o->precision < 0) {
        tl_seterr(ValueError, "precision must be >= 0, got %d", o->precision);
        return -1;
    }
    if (o->edgeitems < 0) {
        tl_seterr(ValueError, "edgeitems must be >= 0, got %d", o->edgeitems);
        return -1;
    }
    return 0;
}

/* Fills the column layouts: first pass for ranges, second for widths. */
static int plan_columns(tfmt *f, const char *p0, bool suppress)
{
    tl_kind k = tl_dtype_kind(f->d);
    if (k == TL_KIND_BOOL) return 0;
    f->visited = 0;
    if (walk_shown(f, 0, p0, observe_elem) < 0) return -1;
    if (k != TL_KIND_FLOAT && k != TL_KIND_COMPLEX) return 0;
    col_choose_mode(&f->re, suppress);
    if (k == TL_KIND_COMPLEX) col_choose_mode(&f->im, suppress);
    if (f->re.any_finite || f->im.any_finite) {
        f->visited = 0;
        if (walk_shown(f, 0, p0, measure_elem) < 0) return -1;
    }
    col_finish(&f->re);
    if (k == TL_KIND_COMPLEX) col_finish(&f->im);
    return 0;
}

/* Computes the bytes of one shown element of a lazy tensor. */
static int materialize_elem(tfmt *f, const char *p)
{
    int64_t at = p - (const char *)f->t->storage->data;
    tl_storage_materialize(f->t->storage, at, at + (int64_t)f->isz);
    return 0;
}

/* tl_fmt_tensor, each element through spec when spec is not NULL. */
static int fmt_tensor(const tl_tensor *t, const tl_fmtspec *spec, const tl_printopts *o, tl_write_fn write, void *ctx)
{
    if (!o) o = &tl_print_options;
    if (check_opts(o) < 0) return -1;
    int64_t size = tl_tensor_size(t);
    /* a summarized lazy tensor computes only the elements shown (see below) */
    bool lazy_edges = t->storage->kind == TL_STORAGE_LAZY && t->ndim > 0 && size > o->threshold;
    const char *p0 = lazy_edges ? (const char *)t->storage->data + t->offset * (int64_t)tl_dtype_size(t->dtype)
                                : (const char *)tl_tensor_data(t);

    if (t->ndim == 0 && spec) return tl_format_scalar(spec, p0, t->dtype, write, ctx);
    if (t->ndim == 0) {
        char buf[160];
        int len = tl_fmt_scalar(p0, t->dtype, buf, sizeof buf);
        if (len < 0) return -1;
        return write(ctx, buf, (size_t)len) < 0 ? -1 : 0;
    }
    if (size == 0) return write(ctx, "[]", 2) < 0 ? -1 : 0;

    tfmt *f = calloc(1, sizeof *f);
    emitter *e = malloc(sizeof *e);
    if (!f || !e) {
        free(f);
        free(e);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    f->t = t;
    f->d = t->dtype;
    f->isz = tl_dtype_size(t->dtype);
    f->summarize = size > o->threshold;
    f->edge = o->edgeitems;
    f->linewidth = o->linewidth;
    f->spec = spec;
    tl_dtype c = tl_dtype_real(t->dtype);
    col_init(&f->re, c, false, o->precision);
    col_init(&f->im, c, true, o->precision);

    int rc = lazy_edges ? walk_shown(f, 0, p0, materialize_elem) : 0;
    if (rc == 0 && !spec) rc = plan_columns(f, p0, o->suppress);
    if (rc == 0) {
        e->write = write;
        e->ctx = ctx;
        e->failed = 0;
        e->col = e->spaces = 0;
        e->n = 0;
        f->visited = 0;
        rc = emit_block(f, e, 0, p0);
        em_flush(e);
        if (e->failed) rc = -1;
    }
    free(f->custom.p);
    free(f);
    free(e);
    return rc;
}

int tl_fmt_tensor(const tl_tensor *t, const tl_printopts *o, tl_write_fn write, void *ctx)
{
    return fmt_tensor(t, NULL, o, write, ctx);
}

int tl_fmt_tensor_spec(const tl_tensor *t, const tl_fmtspec *spec, const tl_printopts *o, tl_write_fn write, void *ctx)
{
    return fmt_tensor(t, spec, o, write, ctx);
}

char *tl_fmt_tensor_string(const tl_tensor *t, const tl_printopts *o)
{
    strbuf b = { 0 };
    if (tl_fmt_tensor(t, o, strbuf_write, &b) < 0 || strbuf_write(&b, "", 0) < 0) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
