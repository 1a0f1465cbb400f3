/* printf.c — template % args: Python's printf-style string formatting, each conversion written by the format machinery */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arith.h"

/* The state of one formatting, as CPython's unicode_format keeps it: the values the next
   conversion takes from (a tuple's items, or one value: n < 0), the next one's index (-2
   before a single value is taken), and the mapping when the right side is one. */
typedef struct Percent {
    Interp *I;
    Span at;
    const Str *fmt;
    Value args;           /* the right side, or the value of the last %(key) */
    int64_t n, next;
    bool mapping;         /* the right side is a dict, list or tensor: leftover values are no error */
    Value dict;           /* the right side when a dict (%(key) reads it), else none */
    StrBuf out;
} Percent;

/* One conversion's flags, width, precision and type character. */
typedef struct Conv {
    bool left, plus, blank, alt, zero;
    int64_t width, prec;   /* -1: not given */
    uint32_t type;
    size_t type_at;        /* the type character's byte offset, for messages */
} Conv;

/* The next value a conversion (or a `*`) takes, or false: "not enough arguments". */
static bool next_arg(Percent *P, Value *v)
{
    if (P->next < P->n) {
        int64_t i = P->next++;
        *v = P->n < 0 ? P->args : P->args.as.tu->items[i];
        return true;
    }
    return interp_error(P->I, P->at, TypeError, "not enough arguments for format string");
}

/* A number value's integer when it is one (an integer dtype or a bool). */
static bool int_value(Value v, bool *neg, uint64_t *mag)
{
    if (v.kind != V_NUM || !(tl_is_int((tl_dtype)v.dtype) || v.dtype == TL_BOOL)) return false;
    if (v.dtype == TL_U64) {
        *neg = false, *mag = tl_scalar_to_u64(v.as.num.bytes, TL_U64);
    } else {
        int64_t x = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
        *neg = x < 0, *mag = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    }
    return true;
}

/* The `*` of a width or precision: the next value, an integer. */
static bool star_arg(Percent *P, int64_t *out)
{
    Value v;
    bool neg;
    uint64_t mag;
    if (!next_arg(P, &v)) return false;
    if (!int_value(v, &neg, &mag) || mag > (uint64_t)INT64_MAX) return interp_error(P->I, P->at, TypeError, "* wants int");
    *out = neg ? -(int64_t)mag : (int64_t)mag;
    return true;
}

/* The digits at *p (a width or precision), at most INT64_MAX. */
static bool read_digits(Percent *P, const char **p, const char *end, int64_t *out)
{
    int64_t x = 0;
    for (; *p < end && **p >= '0' && **p <= '9'; (*p)++)
        if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, **p - '0', &x))
            return interp_error(P->I, P->at, ValueError, "width too big");
    *out = x;
    return true;
}

/* Appends n copies of byte c (n at most TL_FORMAT_MAX_FIELD: the callers check). */
static bool put_run(Percent *P, char c, int64_t n)
{
    char run[256];
    memset(run, c, sizeof run);
    for (; n > 0; n -= (int64_t)sizeof run)
        if (!sb_append(&P->out, run, n < (int64_t)sizeof run ? (size_t)n : sizeof run)) return interp_error_rt(P->I, P->at);
    return true;
}

/* An integer conversion's text: sign, prefix (0o 0x 0X with #), the digits zero-extended to
   the precision, padded to the width with zeros after the prefix (the 0 flag) or spaces. */
static bool put_int_text(Percent *P, const Conv *c, bool neg, const char *digits, size_t nd)
{
    char head[4];
    size_t nh = 0;
    if (neg) head[nh++] = '-';
    else if (c->plus) head[nh++] = '+';
    else if (c->blank) head[nh++] = ' ';
    if (c->alt && c->type != 'd' && c->type != 'i' && c->type != 'u')
        head[nh++] = '0', head[nh++] = c->type == 'o' ? 'o' : (char)c->type;
    int64_t zeros = c->prec > (int64_t)nd ? c->prec - (int64_t)nd : 0;
    int64_t len = (int64_t)(nh + nd) + zeros, pad = c->width > len ? c->width - len : 0;
    if (pad > TL_FORMAT_MAX_FIELD || zeros > TL_FORMAT_MAX_FIELD)
        return interp_error(P->I, P->at, MemoryError, "the width or precision is too large");
    if (c->zero && !c->left) zeros += pad, pad = 0;
    if (!c->left && !put_run(P, ' ', pad)) return false;
    if (!sb_append(&P->out, head, nh) || !put_run(P, '0', zeros) || !sb_append(&P->out, digits, nd))
        return interp_error_rt(P->I, P->at);
    return c->left ? put_run(P, ' ', pad) : true;
}

/* The hint after "not tensor": how to format a tensor's elements. */
static const char *tensor_hint(Value v)
{
    return v.kind == V_TENSOR ? " (format(\"{:.3f}\", x) formats each element; x[i] is one number)" : "";
}

/* %d %i %u %o %x %X of v: an integer, or for %d a real number truncated (Python's int(x)). */
static bool put_int(Percent *P, const Conv *c, Value v)
{
    bool neg;
    uint64_t mag;
    char digits[400];
    int base = c->type == 'o' ? 8 : c->type == 'x' || c->type == 'X' ? 16 : 10;
    const char *set = c->type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    if (int_value(v, &neg, &mag)) {
        size_t nd = 0;
        char rev[64];
        do rev[nd++] = set[mag % (uint64_t)base]; while ((mag /= (uint64_t)base) > 0);
        for (size_t i = 0; i < nd; i++) digits[i] = rev[nd - 1 - i];
        return put_int_text(P, c, neg, digits, nd);
    }
    bool real = v.kind == V_NUM && tl_is_float((tl_dtype)v.dtype);
    if (!real || base != 10)
        return interp_error(P->I, P->at, TypeError, "%%%c format: %s is required, not %s%s", (char)c->type,
                            base == 10 ? "a real number" : "an integer",
                            real ? "float" : v.kind == V_NUM && tl_is_complex((tl_dtype)v.dtype) ? "complex" : val_kind_name(v),
                            tensor_hint(v));
    double x = trunc(tl_scalar_to_f64(v.as.num.bytes, (tl_dtype)v.dtype));
    if (isnan(x)) return interp_error(P->I, P->at, ValueError, "cannot convert float NaN to integer");
    if (isinf(x)) return interp_error(P->I, P->at, ValueError, "cannot convert float infinity to integer");
    /* an integral double's exact decimal digits (at most 309) */
    int nd = snprintf(digits, sizeof digits, "%.0f", fabs(x));
    return put_int_text(P, c, x < 0, digits, (size_t)nd);
}

/* The text of a spec for the format machinery, in spec (64 bytes): [<>][+ ][#][0][width][.prec]type. */
static void spec_text(char *spec, const Conv *c, bool number, uint32_t type)
{
    int k = snprintf(spec, 64, "%s%s%s%s", c->left ? "<" : number ? "" : ">", number && c->plus ? "+" : number && c->blank ? " " : "",
                     number && c->alt ? "#" : "", number && c->zero && !c->left ? "0" : "");
    if (c->width > 0) k += snprintf(spec + k, (size_t)(64 - k), "%lld", (long long)c->width);
    if (c->prec >= 0) k += snprintf(spec + k, (size_t)(64 - k), ".%lld", (long long)c->prec);
    snprintf(spec + k, (size_t)(64 - k), "%c", (char)type);
}


/* %e %E %f %F %g %G of v, a real number (an integer or bool converts). */
static bool put_float(Percent *P, const Conv *c, Value v)
{
    bool real = v.kind == V_NUM && !tl_is_complex((tl_dtype)v.dtype);
    if (!real)
        return interp_error(P->I, P->at, TypeError, "must be real number, not %s%s",
                            v.kind == V_NUM ? "complex" : val_kind_name(v), tensor_hint(v));
    char text[64];
    spec_text(text, c, true, c->type);
    tl_fmtspec spec;
    tl_fmtspec_parse(&spec, text, strlen(text));
    return tl_format_float(&spec, tl_scalar_to_f64(v.as.num.bytes, (tl_dtype)v.dtype), sb_write, &P->out) == 0 ||
           interp_error_rt(P->I, P->at);
}

/* %s %r %a of v (str, repr, ascii), and %c of an integer or a one-character string: the text
   cut to the precision (not %c's), right-aligned in the width (left with the - flag). */
static bool put_text(Percent *P, Conv c, Value v)
{
    char text[64], enc[4];
    tl_fmtspec spec;
    bool neg;
    uint64_t mag;
    if (c.type == 'c') c.prec = -1;
    spec_text(text, &c, false, 's');
    tl_fmtspec_parse(&spec, text, strlen(text));
    if (c.type == 'c' && int_value(v, &neg, &mag)) {   /* chr's range: a surrogate stands for a raw byte or is refused */
        if (neg || mag > 0x10FFFF || (mag >= 0xD800 && mag <= 0xDFFF && !(mag >= 0xDC80 && mag <= 0xDCFF)))
            return interp_error(P->I, P->at, ValueError, "%%c arg not in range(0x110000), or a surrogate");
        return tl_format_str(&spec, enc, utf8_encode((uint32_t)mag, enc), sb_write, &P->out) == 0 ||
               interp_error_rt(P->I, P->at);
    }
    if (c.type == 'c' && (v.kind != V_STR || str_chars(v.as.s) != 1))
        return interp_error(P->I, P->at, TypeError, "%%c requires int or char");
    return val_write_field(v, c.type == 'c' ? 's' : (int)c.type, &spec, sb_write, &P->out) == 0 ||
           interp_error_rt(P->I, P->at);
}

/* The %(key) at *p (just past its '('): the right side's value for key becomes the values the
   conversion takes from. */
static bool mapping_key(Percent *P, const char **p, const char *end)
{
    const char *key = *p;
    for (int depth = 1; depth > 0; (*p)++) {
        if (*p >= end) return interp_error(P->I, P->at, ValueError, "incomplete format key");
        depth += **p == '(' ? 1 : **p == ')' ? -1 : 0;
    }
    if (P->dict.kind != V_DICT) return interp_error(P->I, P->at, TypeError, "format requires a mapping");
    size_t klen = (size_t)(*p - 1 - key);
    Value *v = dict_get(P->dict.as.d, key, klen);
    if (!v) return interp_error(P->I, P->at, IndexError, "no key \"%.*s\" in this dict", (int)(klen > 60 ? 60 : klen), key);
    P->args = *v, P->n = -1, P->next = -2;
    return true;
}

/* Reads one conversion after its '%' at *p (the key, flags, width, precision, type) and
   writes it; "%%" writes '%'. */
static bool conversion(Percent *P, const char **p, const char *end)
{
    const char *s = P->fmt->data;
    if (*p < end && **p == '%') {
        (*p)++;
        return sb_append(&P->out, "%", 1) || interp_error_rt(P->I, P->at);
    }
    if (*p < end && **p == '(') {
        (*p)++;
        if (!mapping_key(P, p, end)) return false;
    }
    Conv c = { .width = -1, .prec = -1 };
    for (; *p < end && strchr("-+ #0", **p) && **p; (*p)++)
        switch (**p) {
        case '-': c.left = true; break;
        case '+': c.plus = true; break;
        case ' ': c.blank = true; break;
        case '#': c.alt = true; break;
        default: c.zero = true; break;
        }
    if (*p < end && **p == '*') {
        (*p)++;
        if (!star_arg(P, &c.width)) return false;
        if (c.width < 0) c.left = true, c.width = c.width == INT64_MIN ? INT64_MAX : -c.width;
    } else if (!read_digits(P, p, end, &c.width)) {
        return false;
    }
    if (*p < end && **p == '.') {
        (*p)++;
        if (*p < end && **p == '*') {
            (*p)++;
            if (!star_arg(P, &c.prec)) return false;
            if (c.prec < 0) c.prec = 0;
        } else if (!read_digits(P, p, end, &c.prec)) {
            return false;
        }
    }
    while (*p < end && (**p == 'h' || **p == 'l' || **p == 'L')) (*p)++;   /* C's length modifiers, ignored */
    if (*p >= end) return interp_error(P->I, P->at, ValueError, "incomplete format");
    if (c.width > TL_FORMAT_MAX_FIELD || c.prec > TL_FORMAT_MAX_FIELD)   /* as format specs: format.h */
        return interp_error(P->I, P->at, MemoryError, "the width or precision is too large (at most %lld)",
                            (long long)TL_FORMAT_MAX_FIELD);
    c.type_at = (size_t)(*p - s);
    size_t k = utf8_decode(s, P->fmt->len, c.type_at, &c.type);
    *p += k;
    Value v;
    if (!next_arg(P, &v)) return false;
    switch (c.type) {
    case 's': case 'r': case 'a': case 'c': return put_text(P, c, v);
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': return put_int(P, &c, v);
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': return put_float(P, &c, v);
    default: {
        char ch[5] = { 0 };
        memcpy(ch, s + c.type_at, k);
        return interp_error(P->I, P->at, ValueError, "unsupported format character '%s' (0x%x) at index %lld", ch, (unsigned)c.type,
                            (long long)utf8_count(s, c.type_at));
    }
    }
}

bool str_percent_format(Interp *I, const Str *fmt, Value args, Span at, Value *out)
{
    bool tuple = args.kind == V_TUPLE;
    Percent P = { I, at, fmt, args, tuple ? args.as.tu->n : -1, tuple ? 0 : -2,
                  args.kind == V_DICT || args.kind == V_LIST || args.kind == V_TENSOR,
                  args.kind == V_DICT ? args : val_none(), { 0 } };
    const char *p = fmt->data, *end = fmt->data + fmt->len;
    bool ok = sb_append(&P.out, "", 0) || interp_error_rt(I, at);
    while (ok && p < end) {
        const char *pct = memchr(p, '%', (size_t)(end - p));
        const char *stop = pct ? pct : end;
        ok = sb_append(&P.out, p, (size_t)(stop - p)) || interp_error_rt(I, at);
        p = stop;
        if (ok && pct) {
            p++;
            ok = conversion(&P, &p, end);
        }
    }
    if (ok && P.next < P.n && !P.mapping)
        ok = interp_error(I, at, TypeError, "not all arguments converted during string formatting");
    if (ok) {
        *out = val_str(P.out.data, P.out.len);
        ok = out->kind == V_STR || interp_error_rt(I, at);
    }
    sb_free(&P.out);
    return ok;
}
