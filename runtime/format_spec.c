/* format_spec.c — Python's format-spec mini-language: what CPython 3.11's format() gives for an int, a float, a complex number or a string */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "format_float.h"
#include "utf8.h"

/* Longest width or string precision honoured (format.h). */
#define MAX_FIELD TL_FORMAT_MAX_FIELD

/* ---- parsing (CPython's parse_internal_render_format_spec) ------------------------------ */

enum { SPEC_OK, SPEC_TOO_MANY_DIGITS, SPEC_BOTH_SEPARATORS, SPEC_MISSING_PRECISION, SPEC_INVALID };

/* An alignment character: < > = ^. */
static bool is_align(uint32_t c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

/* Reads decimal digits at text[*pos]: the count read (0 for none), -1 past INT64_MAX. */
static int read_integer(const char *text, size_t len, size_t *pos, int64_t *out)
{
    int64_t acc = 0;
    int n = 0;
    for (; *pos < len && text[*pos] >= '0' && text[*pos] <= '9'; (*pos)++, n++) {
        int d = text[*pos] - '0';
        if (acc > (INT64_MAX - d) / 10) return -1;
        acc = acc * 10 + d;
    }
    *out = acc;
    return n;
}

void tl_fmtspec_parse(tl_fmtspec *s, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->text = text;
    s->len = len;
    s->width = s->precision = -1;
    s->fill[0] = ' ';
    s->fill_len = 1;
    size_t pos = 0, l0 = 0, l1 = 0;
    uint32_t c0 = 0, c1 = 0;
    if (len > 0) l0 = tl_utf8_next(text, len, &c0);
    if (len > l0) l1 = tl_utf8_next(text + l0, len - l0, &c1);
    if (l1 && is_align(c1)) {
        memcpy(s->fill, text, l0);
        s->fill_len = (uint8_t)l0;
        s->fill_given = true;
        s->align = (char)c1;
        pos = l0 + l1;
    } else if (l0 && is_align(c0)) {
        s->align = (char)c0;
        pos = 1;
    }
    if (pos < len && (text[pos] == '+' || text[pos] == '-' || text[pos] == ' ')) s->sign = text[pos++];
    if (pos < len && text[pos] == 'z') s->no_neg_0 = true, pos++;
    if (pos < len && text[pos] == '#') s->alt = true, pos++;
    if (!s->fill_given && pos < len && text[pos] == '0') s->zero = true, pos++;
    int got = read_integer(text, len, &pos, &s->width);
    if (got < 0) { s->error = SPEC_TOO_MANY_DIGITS; return; }
    if (got == 0) s->width = -1;
    if (pos < len && text[pos] == ',') s->grouping = ',', pos++;
    if (pos < len && text[pos] == '_') {
        if (s->grouping) { s->error = SPEC_BOTH_SEPARATORS; return; }
        s->grouping = '_', pos++;
    }
    if (pos < len && text[pos] == ',') { s->error = SPEC_BOTH_SEPARATORS; return; }
    if (pos < len && text[pos] == '.') {
        pos++;
        got = read_integer(text, len, &pos, &s->precision);
        if (got < 0) { s->error = SPEC_TOO_MANY_DIGITS; return; }
        if (got == 0) { s->error = SPEC_MISSING_PRECISION; return; }
    }
    if (pos == len) return;
    uint32_t t;
    size_t tl = tl_utf8_next(text + pos, len - pos, &t);
    if (pos + tl < len) { s->error = SPEC_INVALID; return; }
    s->type = t == TL_UTF8_BAD ? (unsigned char)text[pos] : t;
}

/* ---- errors --------------------------------------------------------------------------- */

/* A code point as CPython's messages show it: 'x', or '\x5' outside printable ASCII. */
static const char *code_text(uint32_t c, char *buf, size_t n)
{
    if (c > 32 && c < 128) snprintf(buf, n, "%c", (char)c);
    else snprintf(buf, n, "\\x%x", (unsigned)c);
    return buf;
}

/* Reports the spec's parse error, if any, for a value of Python type tname: -1, or 0. */
static int parse_error(const tl_fmtspec *s, const char *tname)
{
    switch (s->error) {
    case SPEC_OK: return 0;
    case SPEC_TOO_MANY_DIGITS: tl_seterr(ValueError, "Too many decimal digits in format string"); break;
    case SPEC_BOTH_SEPARATORS: tl_seterr(ValueError, "Cannot specify both ',' and '_'."); break;
    case SPEC_MISSING_PRECISION: tl_seterr(ValueError, "Format specifier missing precision"); break;
    default:
        tl_seterr(ValueError, "Invalid format specifier '%.*s' for object of type '%s'",
                  s->len > 200 ? 200 : (int)s->len, s->text, tname);
        break;
    }
    return -1;
}

/* CPython checks the thousands separator against the type (its default filled in) while parsing. */
static int separator_error(const tl_fmtspec *s, uint32_t type)
{
    if (!s->grouping) return 0;
    switch (type) {
    case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case 0:
        return 0;
    case 'b': case 'o': case 'x': case 'X':
        if (s->grouping == '_') return 0;
        break;
    default:
        break;
    }
    char b[16];
    tl_seterr(ValueError, "Cannot specify '%c' with '%s'.", s->grouping, code_text(type, b, sizeof b));
    return -1;
}

/* The parse error, then the separator check: what every type does first. */
static int spec_errors(const tl_fmtspec *s, const char *tname, uint32_t type)
{
    return parse_error(s, tname) < 0 || separator_error(s, type) < 0 ? -1 : 0;
}

/* The error for a type code the value does not take: -1. */
static int unknown_type(uint32_t type, const char *tname)
{
    char b[16];
    tl_seterr(ValueError, "Unknown format code '%s' for object of type '%s'", code_text(type, b, sizeof b), tname);
    return -1;
}

/* ---- output: tl_wbuf (format.h), a small buffer in front of the writer ------------------- */

void tl_wbuf_init(tl_wbuf *b, tl_write_fn write, void *ctx)
{
    b->write = write;   /* only the header: zeroing the buffer would cost more than most uses */
    b->ctx = ctx;
    b->failed = 0;
    b->n = 0;
}

/* Hands the buffered text to the writer. */
static void wbuf_flush(tl_wbuf *b)
{
    if (b->n && !b->failed && b->write(b->ctx, b->buf, b->n) < 0) b->failed = 1;
    b->n = 0;
}

void tl_wbuf_put(tl_wbuf *b, const char *s, size_t n)
{
    if (n == 0) return;   /* s may be NULL then (a number without a prefix) */
    if (n > sizeof b->buf - b->n) {
        wbuf_flush(b);
        if (n > sizeof b->buf) {
            if (!b->failed && b->write(b->ctx, s, n) < 0) b->failed = 1;
            return;
        }
    }
    memcpy(b->buf + b->n, s, n);
    b->n += n;
}

void tl_wbuf_fill(tl_wbuf *b, const char *c, size_t len, int64_t count)
{
    for (; count > 0 && !b->failed; count--) {
        if (b->n + len > sizeof b->buf) wbuf_flush(b);
        memcpy(b->buf + b->n, c, len);
        b->n += len;
    }
}

int tl_wbuf_end(tl_wbuf *b)
{
    wbuf_flush(b);
    return b->failed ? -1 : 0;
}

/* ---- laying out a number (CPython's calc_number_widths and fill_number) ----------------- */

/* The spec as one number is laid out with it: fill, alignment, sign, width, grouping. */
typedef struct layout {
    const char *fill;
    size_t fill_len;
    char align, sign;
    int64_t width;
    char sep;        /* ',' '_' or 0 */
    int group;       /* digits per group: 3, or 4 for '_' with b/o/x/X */
} layout;

/* Whether the fill is '0' (given, or by the '0' flag): it pads inside the digits. */
static bool fill_is_zero(const layout *L) { return L->fill_len == 1 && L->fill[0] == '0'; }

/* The layout a spec gives: default alignment def_align, the '0' flag meaning '=' for numbers. */
static layout layout_of(const tl_fmtspec *s, char def_align)
{
    layout L = { s->fill, s->fill_len, s->align, s->sign, s->width, s->grouping, 3 };
    if (s->zero) L.fill = "0", L.fill_len = 1;
    if (!L.align) L.align = s->zero && def_align == '>' ? '=' : def_align;
    return L;
}

/* A number's text split as CPython splits it: sign, prefix, integer digits, decimal point, the rest. */
typedef struct numtext {
    char sign;                /* '-' or 0 */
    const char *prefix;       /* "0x" ... */
    size_t nprefix;
    const char *digits;       /* the integer digits, grouped and zero-padded by the layout */
    size_t ndigits;
    bool decimal;             /* a '.' follows the digits */
    const char *rest;         /* fraction, exponent, '%', or a 'c' character */
    size_t nrest, rest_chars;
} numtext;

/* Where the padding goes and how many digit places (zero-filled on the left) the grouping makes. */
typedef struct numwidths {
    char sign;
    int64_t lpad, spad, rpad;
    int64_t places, groups;   /* digit places and groups (separators = groups - 1) */
    int64_t total;            /* characters */
} numwidths;

/* CPython's _PyUnicode_InsertThousandsGrouping, counting only: digit places (the digits and
   the zeros padding them to min_width) and groups, groups of `group` digits from the right. */
static void count_groups(int64_t ndigits, int64_t min_width, int group, int64_t *places, int64_t *groups)
{
    int64_t remaining = ndigits, d = 0, k = 0;
    if (group == 0) {
        int64_t l = ndigits > min_width ? ndigits : min_width;
        *places = l > 1 ? l : 1;
        *groups = 1;
        return;
    }
    for (;;) {
        int64_t l = remaining > min_width ? remaining : min_width;
        if (l < 1) l = 1;
        if (l > group) l = group;
        d += l;
        k++;
        remaining -= remaining < l ? remaining : l;
        min_width -= l;
        if (remaining <= 0 && min_width <= 0) break;
        min_width -= 1;   /* the separator */
    }
    *places = d;
    *groups = k;
}

/* CPython's calc_number_widths: the sign shown, the padding's place and size, the digit places. */
static numwidths number_widths(const layout *L, const numtext *t)
{
    numwidths w = { 0 };
    if (L->sign == '+') w.sign = t->sign == '-' ? '-' : '+';
    else if (L->sign == ' ') w.sign = t->sign == '-' ? '-' : ' ';
    else w.sign = t->sign;
    int64_t other = (w.sign != 0) + (int64_t)t->nprefix + t->decimal + (int64_t)t->rest_chars;
    int64_t min_width = fill_is_zero(L) && L->align == '=' ? L->width - other : 0;
    int64_t grouped = 0;
    if (t->ndigits > 0) {
        count_groups((int64_t)t->ndigits, min_width, L->sep ? L->group : 0, &w.places, &w.groups);
        grouped = w.places + w.groups - 1;
    }
    int64_t pad = L->width - (other + grouped);
    if (pad > 0) {
        switch (L->align) {
        case '<': w.rpad = pad; break;
        case '^': w.lpad = pad / 2; w.rpad = pad - w.lpad; break;
        case '=': w.spad = pad; break;
        default: w.lpad = pad; break;
        }
    }
    w.total = w.lpad + w.spad + w.rpad + other + grouped;
    return w;
}

/* The digit places: zeros, then the digits, a separator between groups. */
static void write_grouped(tl_wbuf *o, const layout *L, const numwidths *w, const numtext *t)
{
    int64_t zeros = w->places - (int64_t)t->ndigits;
    int64_t first = L->sep ? w->places - (int64_t)L->group * (w->groups - 1) : w->places;
    int64_t left = first;   /* places left in the current group */
    for (int64_t i = 0; i < w->places && !o->failed; i++) {
        if (left == 0) {
            tl_wbuf_put(o, &L->sep, 1);
            left = L->group;
        }
        char c = i < zeros ? '0' : t->digits[i - zeros];
        tl_wbuf_put(o, &c, 1);
        left--;
    }
}

/* CPython's fill_number: padding, sign, prefix, padding, digits, point, the rest, padding. */
static void write_number(tl_wbuf *o, const layout *L, const numwidths *w, const numtext *t)
{
    tl_wbuf_fill(o, L->fill, L->fill_len, w->lpad);
    if (w->sign) tl_wbuf_put(o, &w->sign, 1);
    tl_wbuf_put(o, t->prefix, t->nprefix);
    tl_wbuf_fill(o, L->fill, L->fill_len, w->spad);
    if (t->ndigits > 0) {
        if (!L->sep && w->places == (int64_t)t->ndigits) tl_wbuf_put(o, t->digits, t->ndigits);
        else write_grouped(o, L, w, t);
    }
    if (t->decimal) tl_wbuf_put(o, ".", 1);
    tl_wbuf_put(o, t->rest, t->nrest);
    tl_wbuf_fill(o, L->fill, L->fill_len, w->rpad);
}

/* Fails for a width no text can have. */
static int check_width(int64_t width)
{
    if (width <= MAX_FIELD) return 0;
    tl_seterr(MemoryError, "out of memory (format width %lld)", (long long)width);
    return -1;
}

/* ---- integers (CPython's format_long_internal) ----------------------------------------------- */

/* Decimal digits of v at the end of buf, two at a time; returns where they start. */
static char *dec_digits_of(char *end, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    char *p = end;
    while (v >= 100) {
        const char *d = pairs + 2 * (v % 100);
        v /= 100;
        *--p = d[1];
        *--p = d[0];
    }
    if (v >= 10) {
        *--p = pairs[2 * v + 1];
        *--p = pairs[2 * v];
    } else {
        *--p = (char)('0' + v);
    }
    return p;
}

/* Digits of mag in base (upper-case letters when upper) at the end of buf; returns where they start. */
static char *int_digits(char *end, uint64_t mag, unsigned base, bool upper)
{
    if (base == 10) return dec_digits_of(end, mag);
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    unsigned shift = base == 2 ? 1 : base == 8 ? 3 : 4;
    char *p = end;
    do {
        *--p = set[mag & (base - 1)];
        mag >>= shift;
    } while (mag);
    return p;
}

/* An integer (-mag when neg) with an integer type (b c d o x X n). */
static int format_long(tl_wbuf *o, const tl_fmtspec *s, uint32_t type, bool neg, uint64_t mag)
{
    if (s->precision != -1) {
        tl_seterr(ValueError, "Precision not allowed in integer format specifier");
        return -1;
    }
    if (s->no_neg_0) {
        tl_seterr(ValueError, "Negative zero coercion (z) not allowed in integer format specifier");
        return -1;
    }
    layout L = layout_of(s, '>');
    if (check_width(L.width) < 0) return -1;
    numtext t = { 0 };
    char buf[72], ch[4];
    if (type == 'c') {
        if (s->sign) {
            tl_seterr(ValueError, "Sign not allowed with integer format specifier 'c'");
            return -1;
        }
        if (s->alt) {
            tl_seterr(ValueError, "Alternate form (#) not allowed with integer format specifier 'c'");
            return -1;
        }
        if (!neg && mag > INT64_MAX) {   /* CPython reads the int as a C long first */
            tl_seterr(ValueError, "Python int too large to convert to C long");
            return -1;
        }
        if (neg || mag > 0x10FFFF) {
            tl_seterr(ValueError, "%%c arg not in range(0x110000)");
            return -1;
        }
        t.rest = ch;
        t.nrest = tl_utf8_encode((uint32_t)mag, ch);
        t.rest_chars = 1;
    } else {
        unsigned base = type == 'b' ? 2 : type == 'o' ? 8 : type == 'x' || type == 'X' ? 16 : 10;
        char *end = buf + sizeof buf;
        t.digits = int_digits(end, mag, base, type == 'X');
        t.ndigits = (size_t)(end - t.digits);
        t.sign = neg ? '-' : 0;
        if (s->alt && base != 10) {
            t.prefix = type == 'b' ? "0b" : type == 'o' ? "0o" : type == 'x' ? "0x" : "0X";
            t.nprefix = 2;
        }
        if (type == 'n') L.sep = 0;
        else if (base != 10) L.group = 4;
    }
    numwidths w = number_widths(&L, &t);
    write_number(o, &L, &w, &t);
    return 0;
}

/* ---- floats (CPython's PyOS_double_to_string and format_float_internal) ------------------- */

enum { DTSF_ADD_DOT_0 = 1, DTSF_ALT = 2, DTSF_NO_NEG_0 = 4 };
enum { MAX_SIG = 800, MAX_FRAC = 1100 };   /* beyond these an f64's decimal digits are all zeros */

/* A value's decimal digits as dtoa gives them: no leading or trailing zeros ("0" for zero),
   the point after decpt of them (negative: zeros first). */
typedef struct dec {
    char d[MAX_FRAC + 340];
    int n, decpt;
    bool neg;
} dec;

/* Drops trailing zeros (keeping one digit). */
static void dec_trim(dec *x)
{
    while (x->n > 1 && x->d[x->n - 1] == '0') x->n--;
}

typedef unsigned __int128 u128;

/* 10^k for k <= 38 (10^38 < 2^127). */
static u128 pow10_u128(int k)
{
    u128 p = 1;
    while (k-- > 0) p *= 10;
    return p;
}

/* The number of bits x needs. */
static int bitlen(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/* round(a * 10^s), ties to even, in exact integer arithmetic, for 0 <= a finite: false when the
   operands or the result (which must be below 2^64) do not fit 128-bit integers. */
static bool scaled_round(double a, int s, uint64_t *q)
{
    if (s > 38 || s < -38) return false;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int bexp = (int)(bits >> 52);            /* a >= 0: no sign bit */
    uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
    if (bexp) mant |= UINT64_C(1) << 52;     /* a = mant * 2^-shift, exactly */
    int shift = 1075 - (bexp ? bexp : 1);
    if (mant == 0) {
        *q = 0;
        return true;
    }
    u128 num = mant, den = 1, p10 = pow10_u128(s < 0 ? -s : s);
    if (s > 0) {
        if (bitlen(num) + bitlen(p10) > 127) return false;
        num *= p10;
    } else {
        den = p10;
    }
    if (shift < 0) {
        if (bitlen(num) - shift > 127) return false;
        num <<= -shift;
    } else if (bitlen(den) + shift > 127) {
        if (bitlen(num) > 125) return false;
        *q = 0;                              /* num < den / 2: rounds to zero */
        return true;
    } else if (den == 1) {                   /* a power of two: shifts, no division */
        u128 r = shift ? num & (((u128)1 << shift) - 1) : 0, half = shift ? (u128)1 << (shift - 1) : 1;
        u128 w = num >> shift;
        if (w >> 64) return false;
        *q = (uint64_t)w;
        if (shift && (r > half || (r == half && (*q & 1)))) {
            if (*q == UINT64_MAX) return false;
            ++*q;
        }
        return true;
    } else {
        den <<= shift;
    }
    u128 w = num / den, r = num % den;
    if (r > den - r || (r == den - r && (w & 1))) w++;
    if (w >> 64) return false;
    *q = (uint64_t)w;
    return true;
}

/* Mode 2 for n <= 19 significant digits without printf: the exponent estimated from the binary
   one (never above the true one, at most one below), the digits by scaled_round. */
static bool sig_digits_exact(double a, int n, dec *x)
{
    if (n > 19 || a == 0) return false;
    int e2;
    frexp(a, &e2);                           /* 2^(e2-1) <= a < 2^e2 */
    int k = (int)floor((e2 - 1) * 0.30102999566398119521);
    u128 top = pow10_u128(n);
    for (int tries = 0; tries < 2; tries++, k++) {
        int s = n - 1 - k;
        uint64_t q;
        if (!scaled_round(a, s, &q)) return false;
        if (q > top) continue;               /* k was one too low: n + 1 digits */
        char tmp[24], *end = tmp + sizeof tmp, *p = dec_digits_of(end, q);
        x->n = (int)(end - p);
        memcpy(x->d, p, (size_t)x->n);
        x->decpt = x->n - s;
        return true;
    }
    return false;
}

/* Type 'f' for a finite v whose scaled value fits scaled_round: the text straight from the rounded
   integer (what format_float_short makes of its digits), into buf (>= 48 bytes); -1 otherwise. */
static int64_t fixed_text(double v, int prec, int flags, char *buf)
{
    uint64_t q;
    if (!scaled_round(fabs(v), prec, &q)) return -1;
    char tmp[24], *end = tmp + sizeof tmp, *d = dec_digits_of(end, q), *p = buf;
    int64_t n = end - d;
    if (signbit(v) && !((flags & DTSF_NO_NEG_0) && q == 0)) *p++ = '-';
    if (n <= prec) {   /* 0.00ddd */
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)(prec - n));
        p += prec - n;
        memcpy(p, d, (size_t)n);
        return p + n - buf;
    }
    memcpy(p, d, (size_t)(n - prec));
    p += n - prec;
    if (prec > 0 || (flags & DTSF_ALT)) *p++ = '.';
    memcpy(p, d + n - prec, (size_t)prec);
    return p + prec - buf;
}

/* The digits of |v| for mode 0 (shortest), 2 (ndigits significant) or 3 (ndigits after the point),
   correctly rounded (glibc's printf is exact; Dragon4 for the shortest). */
static void dec_digits(double v, int mode, int ndigits, dec *x)
{
    double a = fabs(v);
    uint64_t q;
    x->neg = signbit(v) != 0;
    if (mode == 0) {
        uint64_t bits;
        memcpy(&bits, &a, sizeof bits);
        int e;
        x->n = (int)tl_d4_shortest(x->d, sizeof x->d, bits, TL_F64, &e);
        x->decpt = e + 1;
    } else if (mode == 2 && sig_digits_exact(a, ndigits, x)) {
        /* done */
    } else if (mode == 2) {
        char t[MAX_SIG + 16];
        int nd = ndigits < MAX_SIG ? ndigits : MAX_SIG;
        snprintf(t, sizeof t, "%.*e", nd - 1, a);
        const char *p = t;
        x->n = 0;
        for (; *p != 'e'; p++)
            if (*p != '.') x->d[x->n++] = *p;
        x->decpt = atoi(p + 1) + 1;
    } else if (scaled_round(a, ndigits, &q)) {
        char tmp[24], *end = tmp + sizeof tmp, *p = dec_digits_of(end, q);
        x->n = (int)(end - p);
        memcpy(x->d, p, (size_t)x->n);
        x->decpt = x->n - ndigits;
    } else {
        int nd = ndigits < MAX_FRAC ? ndigits : MAX_FRAC;
        char t[sizeof x->d + 8];
        snprintf(t, sizeof t, "%.*f", nd, a);
        int k = 0, whole = (int)strcspn(t, ".");
        for (const char *p = t; *p; p++)
            if (*p != '.') x->d[k++] = *p;
        int lead = 0;
        while (lead < k - 1 && x->d[lead] == '0') lead++;
        memmove(x->d, x->d + lead, (size_t)(k - lead));
        x->n = k - lead;
        x->decpt = whole - lead;
    }
    dec_trim(x);
    if (x->n == 1 && x->d[0] == '0') x->decpt = 1;   /* dtoa's zero, whatever the rounding */
}

/* A float's text (CPython's format_float_short): into buf when it fits (cap bytes), else into
   malloc'd memory; *out points at it. Returns the length, or -1 when memory runs out. */
static int64_t float_text(double v, char type, int precision, int flags, bool upper, char *buf, size_t cap, char **out)
{
    *out = buf;
    if (isnan(v)) return (int64_t)snprintf(buf, cap, "%s", upper ? "NAN" : "nan");
    if (isinf(v)) return (int64_t)snprintf(buf, cap, "%s%s", v < 0 ? "-" : "", upper ? "INF" : "inf");
    int64_t fixed = type == 'f' && cap >= 48 ? fixed_text(v, precision, flags, buf) : -1;
    if (fixed >= 0) return fixed;
    int mode = type == 'r' ? 0 : type == 'f' ? 3 : 2;
    if (type == 'e') precision++;
    if (type == 'g' && precision == 0) precision = 1;
    static _Thread_local dec x;
    dec_digits(v, mode, precision, &x);
    bool add_dot_0 = flags & DTSF_ADD_DOT_0, alt = flags & DTSF_ALT;
    bool neg = x.neg && !((flags & DTSF_NO_NEG_0) && x.n == 1 && x.d[0] == '0');
    int64_t decpt = x.decpt, n = x.n, vend = n, exp = 0;
    bool use_exp = false;
    switch (type) {
    case 'e': use_exp = true; vend = precision; break;
    case 'f': vend = decpt + precision; break;
    case 'g':
        use_exp = decpt <= -4 || decpt > (add_dot_0 ? precision - 1 : precision);
        if (alt) vend = precision;
        break;
    default: use_exp = decpt <= -4 || decpt > 16; break;
    }
    if (use_exp) {
        exp = decpt - 1;
        decpt = 1;
    }
    int64_t vstart = decpt <= 0 ? decpt - 1 : 0;
    if (!use_exp && add_dot_0) vend = vend > decpt ? vend : decpt + 1;
    else vend = vend > decpt ? vend : decpt;
    size_t size = (size_t)(4 + (vend - vstart) + (use_exp ? 6 : 0));
    char *p = buf;
    if (size > cap && !(p = *out = malloc(size))) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    char *start = p;
    if (neg) *p++ = '-';
    if (decpt <= 0) {
        memset(p, '0', (size_t)(decpt - vstart));
        p += decpt - vstart;
        *p++ = '.';
        memset(p, '0', (size_t)-decpt);
        p += -decpt;
    } else {
        memset(p, '0', (size_t)-vstart);
        p += -vstart;
    }
    if (0 < decpt && decpt <= n) {
        memcpy(p, x.d, (size_t)decpt);
        p += decpt;
        *p++ = '.';
        memcpy(p, x.d + decpt, (size_t)(n - decpt));
        p += n - decpt;
    } else {
        memcpy(p, x.d, (size_t)n);
        p += n;
    }
    if (n < decpt) {
        memset(p, '0', (size_t)(decpt - n));
        p += decpt - n;
        *p++ = '.';
        memset(p, '0', (size_t)(vend - decpt));
        p += vend - decpt;
    } else {
        memset(p, '0', (size_t)(vend - n));
        p += vend - n;
    }
    if (p[-1] == '.' && !alt) p--;
    if (use_exp) {   /* e+05: a sign and at least two digits */
        *p++ = upper ? 'E' : 'e';
        *p++ = exp < 0 ? '-' : '+';
        char tmp[8], *end = tmp + sizeof tmp, *d = dec_digits_of(end, (uint64_t)(exp < 0 ? -exp : exp));
        if (end - d < 2) *p++ = '0';
        memcpy(p, d, (size_t)(end - d));
        p += end - d;
    }
    return p - start;
}

/* Splits a float's text into the parts the layout places (CPython's parse_number). */
static numtext float_parts(const char *text, size_t n)
{
    numtext t = { 0 };
    size_t i = 0;
    if (n > 0 && text[0] == '-') t.sign = '-', i = 1;
    t.digits = text + i;
    while (i < n && text[i] >= '0' && text[i] <= '9') i++;
    t.ndigits = (size_t)(text + i - t.digits);
    if (i < n && text[i] == '.') t.decimal = true, i++;
    t.rest = text + i;
    t.nrest = t.rest_chars = n - i;
    return t;
}

/* The text of one float (or complex part): type, precision and flags resolved from the spec
   as CPython's format_float_internal and format_complex_internal resolve them. */
typedef struct floatmode {
    char type;        /* e f g r (lower case) */
    bool upper, pct;
    int precision, flags;
} floatmode;

/* CPython's limit on a float's precision: -1 past INT_MAX. */
static int precision_error(const tl_fmtspec *s)
{
    if (s->precision <= INT_MAX) return 0;
    tl_seterr(ValueError, "precision too big");
    return -1;
}

/* How a float (or a complex part) is written for a spec and type. */
static floatmode float_mode(const tl_fmtspec *s, uint32_t type, bool complex)
{
    floatmode m = { 0 };
    int default_precision = 6;
    m.flags = (s->alt ? DTSF_ALT : 0) | (s->no_neg_0 ? DTSF_NO_NEG_0 : 0);
    if (type == 0) {
        if (!complex) m.flags |= DTSF_ADD_DOT_0;
        type = 'r';
        default_precision = 0;
    }
    if (type == 'n') type = 'g';
    if (type == '%') type = 'f', m.pct = true;
    m.upper = type == 'E' || type == 'F' || type == 'G';
    m.type = (char)(m.upper ? type - 'A' + 'a' : type);
    m.precision = (int)s->precision;
    if (m.precision < 0) m.precision = default_precision;
    else if (m.type == 'r') m.type = 'g';
    return m;
}

/* A float (or an int through a float type) laid out by the spec. */
static int format_double(tl_wbuf *o, const tl_fmtspec *s, uint32_t type, double v)
{
    if (precision_error(s) < 0) return -1;
    floatmode m = float_mode(s, type, false);
    layout L = layout_of(s, '>');
    if (check_width(L.width) < 0) return -1;
    if (type == 'n') L.sep = 0;
    char small[400], *text;
    int64_t n = float_text(m.pct ? v * 100 : v, m.type, m.precision, m.flags, m.upper, small, sizeof small - 1, &text);
    if (n < 0) return -1;
    if (m.pct) text[n++] = '%';
    if (L.sign != '+' && L.sign != ' ' && L.width == -1 && !L.sep) {   /* nothing to lay out (CPython's fast path) */
        tl_wbuf_put(o, text, (size_t)n);
    } else {
        numtext t = float_parts(text, (size_t)n);
        numwidths w = number_widths(&L, &t);
        write_number(o, &L, &w, &t);
    }
    if (text != small) free(text);
    return 0;
}

/* ---- complex numbers (CPython's format_complex_internal) --------------------------------- */

static int format_complex(tl_wbuf *o, const tl_fmtspec *s, uint32_t type, double re, double im)
{
    if (precision_error(s) < 0) return -1;
    layout L = layout_of(s, '>');
    if (fill_is_zero(&L)) {
        tl_seterr(ValueError, "Zero padding is not allowed in complex format specifier");
        return -1;
    }
    if (L.align == '=') {
        tl_seterr(ValueError, "'=' alignment flag is not allowed in complex format specifier");
        return -1;
    }
    if (check_width(L.width) < 0) return -1;
    floatmode m = float_mode(s, type, true);
    bool skip_re = false, parens = false;
    if (type == 0) {
        if (re == 0.0 && !signbit(re)) skip_re = true;
        else parens = true;
    }
    char rs[400], is[400], *rt, *it;
    int64_t rn = float_text(re, m.type, m.precision, m.flags, m.upper, rs, sizeof rs, &rt);
    if (rn < 0) return -1;
    int64_t in = float_text(im, m.type, m.precision, m.flags, m.upper, is, sizeof is, &it);
    if (in < 0) {
        if (rt != rs) free(rt);
        return -1;
    }
    /* each part laid out without padding; the '+' on the imaginary part unless it stands alone */
    layout P = { "", 0, '<', s->sign, -1, type == 'n' ? 0 : s->grouping, 3 };
    numtext rt_parts = float_parts(rt, (size_t)rn), it_parts = float_parts(it, (size_t)in);
    numwidths rw = number_widths(&P, &rt_parts);
    if (!skip_re) P.sign = '+';
    numwidths iw = number_widths(&P, &it_parts);
    int64_t body = (skip_re ? 0 : rw.total) + iw.total + 1 + 2 * parens;
    int64_t pad = L.width > body ? L.width - body : 0;
    int64_t lpad = L.align == '>' ? pad : L.align == '^' ? pad / 2 : 0;
    tl_wbuf_fill(o, L.fill, L.fill_len, lpad);
    if (parens) tl_wbuf_put(o, "(", 1);
    if (!skip_re) write_number(o, &P, &rw, &rt_parts);
    write_number(o, &P, &iw, &it_parts);
    tl_wbuf_put(o, "j", 1);
    if (parens) tl_wbuf_put(o, ")", 1);
    tl_wbuf_fill(o, L.fill, L.fill_len, pad - lpad);
    if (rt != rs) free(rt);
    if (it != is) free(it);
    return 0;
}

/* ---- strings (CPython's format_string_internal) -------------------------------------------- */

static int format_string(tl_wbuf *o, const tl_fmtspec *s, const char *p, size_t n)
{
    if (s->sign) {
        tl_seterr(ValueError, s->sign == ' ' ? "Space not allowed in string format specifier"
                                             : "Sign not allowed in string format specifier");
        return -1;
    }
    if (s->no_neg_0) {
        tl_seterr(ValueError, "Negative zero coercion (z) not allowed in string format specifier");
        return -1;
    }
    if (s->alt) {
        tl_seterr(ValueError, "Alternate form (#) not allowed in string format specifier");
        return -1;
    }
    layout L = layout_of(s, '<');
    if (L.align == '=') {
        tl_seterr(ValueError, "'=' alignment not allowed in string format specifier");
        return -1;
    }
    if (check_width(L.width) < 0) return -1;
    int64_t len = (int64_t)tl_utf8_count(p, n);
    if (s->precision >= 0 && len >= s->precision) {
        len = s->precision;
        n = tl_utf8_prefix(p, n, (size_t)len);
    }
    int64_t pad = L.width > len ? L.width - len : 0;
    int64_t lpad = L.align == '>' ? pad : L.align == '^' ? pad / 2 : 0;
    tl_wbuf_fill(o, L.fill, L.fill_len, lpad);
    tl_wbuf_put(o, p, n);
    tl_wbuf_fill(o, L.fill, L.fill_len, pad - lpad);
    return 0;
}

/* ---- entry points: Python's int, bool, float, complex and str __format__ ----------------- */

int tl_format_int(const tl_fmtspec *s, bool neg, uint64_t mag, bool is_bool, tl_write_fn write, void *ctx)
{
    const char *tname = is_bool ? "bool" : "int";
    tl_wbuf o;
    tl_wbuf_init(&o, write, ctx);
    if (is_bool && s->len == 0) {
        tl_wbuf_put(&o, mag ? "True" : "False", mag ? 4 : 5);
        return tl_wbuf_end(&o);
    }
    uint32_t type = s->type ? s->type : 'd';
    if (spec_errors(s, tname, type) < 0) return -1;
    int rc;
    switch (type) {
    case 'b': case 'c': case 'd': case 'o': case 'x': case 'X': case 'n':
        rc = format_long(&o, s, type, neg, mag);
        break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
        rc = format_double(&o, s, type, neg ? -(double)mag : (double)mag);
        break;
    default:
        return unknown_type(type, tname);
    }
    return rc < 0 ? -1 : tl_wbuf_end(&o);
}

/* The float and complex presentation types. */
static bool is_float_type(uint32_t type)
{
    switch (type) {
    case 0: case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'n': case '%': return true;
    default: return false;
    }
}

int tl_format_float(const tl_fmtspec *s, double v, tl_write_fn write, void *ctx)
{
    tl_wbuf o;
    tl_wbuf_init(&o, write, ctx);
    if (spec_errors(s, "float", s->type) < 0) return -1;
    if (!is_float_type(s->type)) return unknown_type(s->type, "float");
    return format_double(&o, s, s->type, v) < 0 ? -1 : tl_wbuf_end(&o);
}

int tl_format_complex(const tl_fmtspec *s, double re, double im, tl_write_fn write, void *ctx)
{
    tl_wbuf o;
    tl_wbuf_init(&o, write, ctx);
    if (spec_errors(s, "complex", s->type) < 0) return -1;
    if (!is_float_type(s->type) || s->type == '%') return unknown_type(s->type, "complex");
    return format_complex(&o, s, s->type, re, im) < 0 ? -1 : tl_wbuf_end(&o);
}

int tl_format_str(const tl_fmtspec *s, const char *p, size_t n, tl_write_fn write, void *ctx)
{
    tl_wbuf o;
    tl_wbuf_init(&o, write, ctx);
    uint32_t type = s->type ? s->type : 's';
    if (spec_errors(s, "str", type) < 0) return -1;
    if (type != 's') return unknown_type(type, "str");
    return format_string(&o, s, p, n) < 0 ? -1 : tl_wbuf_end(&o);
}

int tl_format_scalar(const tl_fmtspec *s, const void *p, tl_dtype d, tl_write_fn write, void *ctx)
{
    if (s->len == 0) {
        char buf[160];
        int len = tl_fmt_scalar(p, d, buf, sizeof buf);
        return len < 0 ? -1 : write(ctx, buf, (size_t)len);
    }
    switch (tl_dtype_kind(d)) {
    case TL_KIND_BOOL: return tl_format_int(s, false, *(const unsigned char *)p != 0, true, write, ctx);
    case TL_KIND_INT: {
        int64_t v = tl_scalar_to_i64(p, d);
        return tl_format_int(s, v < 0, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, false, write, ctx);
    }
    case TL_KIND_UINT: return tl_format_int(s, false, tl_scalar_to_u64(p, d), false, write, ctx);
    case TL_KIND_FLOAT: return tl_format_float(s, tl_scalar_to_f64(p, d), write, ctx);
    default: {
        double c[2];
        tl_scalar_to_c128(p, d, c);
        return tl_format_complex(s, c[0], c[1], write, ctx);
    }
    }
}
