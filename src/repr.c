/* repr.c — text forms beyond print: a string's repr as Python writes it, the echo form, format specs and replacement fields */
#include <stdio.h>
#include <string.h>

#include "utf8.h"
#include "value.h"

#include "unicode_printable.inc"

/* Whether Python's repr keeps code point c as it is (str.isprintable() of that character). */
bool char_is_printable(uint32_t c)
{
    if (c < 0x7F) return c >= 0x20;
    size_t lo = 0, hi = sizeof nonprintable_ranges / sizeof nonprintable_ranges[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < nonprintable_ranges[mid][0]) hi = mid;
        else if (c > nonprintable_ranges[mid][1]) lo = mid + 1;
        else return false;
    }
    return true;
}

/* Code point c as \xhh, \uhhhh or \Uhhhhhhhh (Python's lower-case hex). */
static void put_escape(tl_wbuf *o, uint32_t c)
{
    char e[12];
    int n = c <= 0xFF ? snprintf(e, sizeof e, "\\x%02x", (unsigned)c)
          : c <= 0xFFFF ? snprintf(e, sizeof e, "\\u%04x", (unsigned)c)
                        : snprintf(e, sizeof e, "\\U%08x", (unsigned)c);
    tl_wbuf_put(o, e, (size_t)n);
}

int str_write_repr(const char *s, size_t n, tl_write_fn w, void *ctx)
{
    bool single = memchr(s, '\'', n) != NULL, dbl = memchr(s, '"', n) != NULL;
    char quote = single && !dbl ? '"' : '\'';
    tl_wbuf o;
    tl_wbuf_init(&o, w, ctx);
    tl_wbuf_put(&o, &quote, 1);
    for (size_t i = 0; i < n && !o.failed;) {
        uint32_t c;
        size_t len = tl_utf8_next(s + i, n - i, &c);
        if (c == TL_UTF8_BAD) put_escape(&o, (unsigned char)s[i]);   /* a byte that is no character */
        else if (c == (uint32_t)quote || c == '\\') tl_wbuf_put(&o, "\\", 1), tl_wbuf_put(&o, s + i, 1);
        else if (c == '\t') tl_wbuf_put(&o, "\\t", 2);
        else if (c == '\n') tl_wbuf_put(&o, "\\n", 2);
        else if (c == '\r') tl_wbuf_put(&o, "\\r", 2);
        else if (char_is_printable(c)) tl_wbuf_put(&o, s + i, len);
        else put_escape(&o, c);
        i += len;
    }
    tl_wbuf_put(&o, &quote, 1);
    return tl_wbuf_end(&o);
}

/* Python's ascii(): text passed through with every non-ASCII character (or invalid byte) escaped. */
typedef struct AsciiFilter {
    tl_write_fn w;
    void *ctx;
} AsciiFilter;

/* The tl_write_fn of an AsciiFilter: ASCII runs as they are, every other character escaped. */
static int ascii_write(void *ctx, const char *s, size_t n)
{
    AsciiFilter *f = ctx;
    tl_wbuf o;
    tl_wbuf_init(&o, f->w, f->ctx);
    for (size_t i = 0; i < n && !o.failed;) {
        size_t run = i;
        while (run < n && (unsigned char)s[run] < 0x80) run++;
        tl_wbuf_put(&o, s + i, run - i);
        if (run == n) break;
        uint32_t c;
        size_t len = tl_utf8_next(s + run, n - run, &c);
        put_escape(&o, c == TL_UTF8_BAD ? (unsigned char)s[run] : c);
        i = run + len;
    }
    return tl_wbuf_end(&o);
}

int val_write_repr(Value v, tl_write_fn w, void *ctx)
{
    if (v.kind == V_STR) return str_write_repr(v.as.s->data, v.as.s->len, w, ctx);
    if (val_write(v, w, ctx) < 0) return -1;
    if (!val_is_numeric(v)) return 0;
    tl_dtype d = val_dtype(v);
    if (d == TL_I64 || d == TL_F64 || d == TL_C128 || d == TL_BOOL) return 0;
    char suffix[32];
    int n = snprintf(suffix, sizeof suffix, ", dtype=%s", tl_dtype_name(d));
    return w(ctx, suffix, (size_t)n);
}

int val_write_spec(Value v, const tl_fmtspec *spec, tl_write_fn w, void *ctx)
{
    if (!spec || spec->len == 0) return val_write(v, w, ctx);
    switch (v.kind) {
    case V_NUM:   /* an f64, the commonest, without the dtype dispatch */
        if (v.dtype == TL_F64) return tl_format_float(spec, v.as.num.f64, w, ctx);
        return tl_format_scalar(spec, v.as.num.bytes, (tl_dtype)v.dtype, w, ctx);
    case V_TENSOR: return tl_fmt_tensor_spec(v.as.t, spec, &tl_print_options, w, ctx);
    case V_STR: return tl_format_str(spec, v.as.s->data, v.as.s->len, w, ctx);
    case V_TRACE: return val_write(v, w, ctx);   /* its error: a traced tensor has no values yet */
    default:
        tl_seterr(TypeError, "%s%s takes no format spec (got '%.*s'); format str(x) for its print form",
                  v.kind == V_NONE ? "" : "a ", val_kind_name(v), spec->len > 40 ? 40 : (int)spec->len, spec->text);
        return -1;
    }
}


int val_write_field(Value v, int conversion, const tl_fmtspec *spec, tl_write_fn w, void *ctx)
{
    if (!conversion) return val_write_spec(v, spec, w, ctx);
    bool direct = !spec || spec->len == 0;
    StrBuf b = { 0 };
    AsciiFilter af = { direct ? w : sb_write, direct ? ctx : (void *)&b };
    tl_write_fn to = conversion == 'a' ? ascii_write : af.w;
    void *to_ctx = conversion == 'a' ? (void *)&af : af.ctx;
    int rc = conversion == 's' ? val_write(v, to, to_ctx) : val_write_repr(v, to, to_ctx);
    if (rc == 0 && !direct) rc = tl_format_str(spec, b.data ? b.data : "", b.len, w, ctx);
    sb_free(&b);
    return rc;
}
