/* ustr.c — strings read as UTF-8 text: characters, offsets, slices; walking any iterable value */
#include <stdlib.h>
#include <string.h>

#include "value.h"

Value str_new(size_t n)
{
    Str *p = n <= STR_MAX_BYTES ? str_alloc(n) : NULL;
    if (!p) {
        tl_seterr(MemoryError, "cannot allocate a string of %zu bytes: out of memory", n);
        return (Value){ .kind = V_UNDEF };
    }
    p->refcount = 1;
    p->len = n;
    p->nchars = -1;
    p->data[n] = 0;
    Value v = { .kind = V_STR };
    v.as.s = p;
    return v;
}

size_t utf8_decode(const char *str, size_t len, size_t i, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str + i;
    size_t left = len - i;
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    /* the second byte's range for each lead byte (RFC 3629's table: no overlongs, no surrogates) */
    size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; lo = c == 0xE0 ? 0xA0 : 0x80; hi = c == 0xED ? 0x9F : 0xBF; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; lo = c == 0xF0 ? 0x90 : 0x80; hi = c == 0xF4 ? 0x8F : 0xBF; }
    if (n == 0 || left < n || s[1] < lo || s[1] > hi) goto invalid;
    for (size_t k = 2; k < n; k++)
        if ((s[k] & 0xC0) != 0x80) goto invalid;
    uint32_t v = c & (0x7F >> n);
    for (size_t k = 1; k < n; k++) v = (v << 6) | (s[k] & 0x3F);
    *cp = v;
    return n;
invalid:
    *cp = 0xDC00 + c;   /* surrogateescape: the byte passes through as one character */
    return 1;
}

size_t utf8_decode_before(const char *s, size_t j, uint32_t *cp)
{
    /* back over at most three continuation bytes to a lead byte: every byte that is not a
       continuation byte starts a character, so the one found starts the character ending at j
       if any does; else the byte before j is an invalid byte, alone */
    size_t lead = j - 1;
    while (lead > 0 && j - lead < 4 && ((unsigned char)s[lead] & 0xC0) == 0x80) lead--;
    size_t k = utf8_decode(s, j, lead, cp);
    return lead + k == j ? k : utf8_decode(s, j, j - 1, cp);
}

size_t utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) { o[0] = (unsigned char)cp; return 1; }
    if (cp >= 0xDC80 && cp <= 0xDCFF) { o[0] = (unsigned char)(cp - 0xDC00); return 1; }
    if (cp < 0x800) { o[0] = (unsigned char)(0xC0 | cp >> 6); o[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* True when s[0..len) is all ASCII (every byte one character): eight bytes at a time. */
static bool all_ascii(const char *s, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ull) return false;
    }
    for (; i < len; i++)
        if ((unsigned char)s[i] >= 0x80) return false;
    return true;
}

int64_t utf8_count(const char *s, size_t len)
{
    if (all_ascii(s, len)) return (int64_t)len;
    int64_t n = 0;
    uint32_t cp;
    for (size_t i = 0; i < len; n++) i += utf8_decode(s, len, i, &cp);
    return n;
}

int64_t str_chars(Str *s)
{
    if (s->nchars < 0) s->nchars = utf8_count(s->data, s->len);
    return s->nchars;
}

size_t str_offset(Str *s, int64_t k)
{
    if (str_chars(s) == (int64_t)s->len) return (size_t)k;   /* one byte per character */
    size_t i = 0;
    uint32_t cp;
    for (int64_t c = 0; c < k && i < s->len; c++) i += utf8_decode(s->data, s->len, i, &cp);
    return i;
}

Value str_char_at(Str *s, int64_t k)
{
    size_t i = str_offset(s, k);
    uint32_t cp;
    size_t n = utf8_decode(s->data, s->len, i, &cp);
    Value v = val_str(s->data + i, n);
    if (v.kind == V_STR) v.as.s->nchars = 1;
    return v;
}

Value str_slice(Str *s, int64_t start, int64_t step, int64_t count)
{
    if (count <= 0) return val_str("", 0);
    if (step == 1) {
        size_t a = str_offset(s, start), b = a;
        uint32_t cp;
        for (int64_t c = 0; c < count; c++) b += utf8_decode(s->data, s->len, b, &cp);
        Value v = val_str(s->data + a, b - a);
        if (v.kind == V_STR) v.as.s->nchars = count;
        return v;
    }
    int64_t nch = str_chars(s);
    bool ascii = nch == (int64_t)s->len;
    size_t *offs = NULL;   /* each character's byte offset, when characters differ in length */
    if (!ascii) {
        offs = malloc(((size_t)nch + 1) * sizeof *offs);
        if (!offs) {
            tl_seterr(MemoryError, "out of memory");
            return (Value){ .kind = V_UNDEF };
        }
        uint32_t cp;
        size_t i = 0;
        for (int64_t c = 0; c < nch; c++) {
            offs[c] = i;
            i += utf8_decode(s->data, s->len, i, &cp);
        }
        offs[nch] = s->len;
    }
    StrBuf b = { 0 };
    bool ok = true;
    for (int64_t c = 0, k = start; c < count && ok; c++, k += step) {
        size_t at = ascii ? (size_t)k : offs[k], n = ascii ? 1 : offs[k + 1] - offs[k];
        ok = sb_append(&b, s->data + at, n);
    }
    free(offs);
    Value v = ok ? val_str(b.data ? b.data : "", b.len) : (Value){ .kind = V_UNDEF };
    sb_free(&b);
    if (v.kind == V_STR) v.as.s->nchars = count;
    return v;
}

/* ---- iterating --------------------------------------------------------- */

bool val_iter_begin(Value v, ValIter *it)
{
    *it = (ValIter){ .seq = v };
    switch (v.kind) {
    case V_TENSOR: it->n = v.as.t->shape[0]; return true;
    case V_TUPLE: it->n = v.as.tu->n; return true;
    case V_LIST: it->n = v.as.l->n; return true;
    case V_DICT: it->n = v.as.d->n; return true;
    case V_STR: it->n = (int64_t)v.as.s->len; return true;   /* bytes: the walk goes by characters */
    default:
        tl_seterr(TypeError, "cannot iterate over a %s", val_kind_name(v));
        return false;
    }
}

int val_iter_next(ValIter *it, Value *out)
{
    Value v = it->seq;
    switch (v.kind) {
    case V_TENSOR: {
        if (it->i >= it->n) return 0;
        tl_tensor *row = tl_view_index(v.as.t, 0, it->i++);
        if (!row) return -1;
        *out = val_from_tensor(row);
        return 1;
    }
    case V_TUPLE:
        if (it->i >= it->n) return 0;
        *out = val_retain(v.as.tu->items[it->i++]);
        return 1;
    case V_LIST:   /* live: the body may append or remove */
        if (it->i >= v.as.l->n) return 0;
        *out = val_retain(v.as.l->items[it->i++]);
        return 1;
    case V_DICT: {
        const Dict *d = v.as.d;
        if (d->n != it->n) {   /* Python's rule: keys shift when one goes, and a new one would be met or not */
            tl_seterr(ValueError, "a dict changed size while a loop went over it (from %lld keys to %lld); loop over list(d) to change d",
                      (long long)it->n, (long long)d->n);
            return -1;
        }
        if (it->i >= it->n) return 0;
        const Str *k = d->keys[it->i++];
        *out = val_str(k->data, k->len);
        return out->kind == V_STR ? 1 : -1;
    }
    case V_STR: {
        Str *s = v.as.s;
        if (it->byte >= s->len) return 0;
        uint32_t cp;
        size_t n = utf8_decode(s->data, s->len, it->byte, &cp);
        *out = val_str(s->data + it->byte, n);
        it->byte += n;
        if (out->kind != V_STR) return -1;
        out->as.s->nchars = 1;
        return 1;
    }
    default:
        return 0;
    }
}

bool val_iter_list(Value v, Value *out)
{
    if (v.kind == V_TUPLE) {
        *out = val_list_of(v.as.tu->items, v.as.tu->n);
        return out->kind == V_LIST;
    }
    if (v.kind == V_LIST) {
        *out = val_list_of(v.as.l->items, v.as.l->n);
        return out->kind == V_LIST;
    }
    ValIter it;
    if (!val_iter_begin(v, &it)) return false;
    Value l = val_list_new(v.kind == V_STR ? 0 : it.n);
    if (l.kind != V_LIST) return false;
    Value x;
    int r;
    while ((r = val_iter_next(&it, &x)) > 0)
        if (!list_append(l.as.l, x)) { r = -1; break; }
    if (r < 0) {
        val_release(l);
        return false;
    }
    *out = l;
    return true;
}
