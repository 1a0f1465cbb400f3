/* strings.c — Python's string methods as builtins (s.split(","), join(sep, items), strip, find, partition, ...), by characters; the case methods are unicode.c's */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* ---- characters ---------------------------------------------------------------------------- */

/* A new string of the bytes [p, p + n), its character count known when `chars` >= 0. */
static Value piece(const char *p, size_t n, int64_t chars)
{
    Value v = val_str(p, n);
    if (v.kind == V_STR && chars >= 0) v.as.s->nchars = chars;
    return v;
}

/* True when every character of s is one byte (ASCII, or invalid bytes standing for themselves). */
static bool one_byte_chars(Str *s) { return str_chars(s) == (int64_t)s->len; }

/* ---- split and join ------------------------------------------------------------------------ */

/* Appends s[a, b) to the list l; false on failure (tl error set). */
static bool push_piece(List *l, Str *s, size_t a, size_t b, bool ascii)
{
    Value v = piece(s->data + a, b - a, ascii ? (int64_t)(b - a) : -1);
    return v.kind == V_STR && list_append(l, v);
}

/* The byte length of the character at byte i of s when it is whitespace (0 when not). */
static size_t space_at(const Str *s, size_t i)
{
    uint32_t cp;
    size_t k = utf8_decode(s->data, s->len, i, &cp);
    return str_is_space(cp) ? k : 0;
}

/* The byte length of the character at byte i of s when it is not whitespace (0 when it is). */
static size_t nonspace_at(const Str *s, size_t i)
{
    uint32_t cp;
    size_t k = utf8_decode(s->data, s->len, i, &cp);
    return str_is_space(cp) ? 0 : k;
}

/* s split at runs of whitespace (none at either end), at most maxsplit times (< 0: no limit). */
static bool split_whitespace(List *l, Str *s, int64_t maxsplit, bool ascii)
{
    size_t i = 0, n = s->len, k;
    for (int64_t splits = 0;; splits++) {
        while (i < n && (k = space_at(s, i))) i += k;
        if (i >= n) return true;
        if (maxsplit >= 0 && splits == maxsplit) return push_piece(l, s, i, n, ascii);
        size_t j = i;
        while (j < n && (k = nonspace_at(s, j))) j += k;
        if (!push_piece(l, s, i, j, ascii)) return false;
        i = j;
    }
}

/* s split at each sep, at most maxsplit times (< 0: no limit). */
static bool split_sep(List *l, Str *s, const Str *sep, int64_t maxsplit, bool ascii)
{
    size_t i = 0;
    for (int64_t splits = 0;; splits++) {
        const char *at = maxsplit >= 0 && splits == maxsplit ? NULL
                         : sep->len == 1 ? memchr(s->data + i, sep->data[0], s->len - i)
                                         : memmem(s->data + i, s->len - i, sep->data, sep->len);
        if (!at) return push_piece(l, s, i, s->len, ascii);
        size_t j = (size_t)(at - s->data);
        if (!push_piece(l, s, i, j, ascii)) return false;
        i = j + sep->len;
    }
}

/* The byte length of the character ending at byte j of s when it is whitespace (0 when not). */
static size_t space_before(const Str *s, size_t j)
{
    uint32_t cp;
    size_t k = utf8_decode_before(s->data, j, &cp);
    return str_is_space(cp) ? k : 0;
}

/* The byte length of the character ending at byte j of s when it is not whitespace (0 when it is). */
static size_t nonspace_before(const Str *s, size_t j)
{
    uint32_t cp;
    size_t k = utf8_decode_before(s->data, j, &cp);
    return str_is_space(cp) ? 0 : k;
}

/* split_whitespace from the right: the last piece first. */
static bool rsplit_whitespace(List *l, Str *s, int64_t maxsplit, bool ascii)
{
    size_t j = s->len, k;
    for (int64_t splits = 0;; splits++) {
        while (j > 0 && (k = space_before(s, j))) j -= k;
        if (j == 0) return true;
        if (maxsplit >= 0 && splits == maxsplit) return push_piece(l, s, 0, j, ascii);
        size_t i = j;
        while (i > 0 && (k = nonspace_before(s, i))) i -= k;
        if (!push_piece(l, s, i, j, ascii)) return false;
        j = i;
    }
}

/* Where the last sub (m > 0 bytes) in s[0, n) starts, or NULL: up to m bytes compared at each
   place that holds sub's first byte, so a long sub that nearly matches everywhere costs n x m. */
static const char *rfind_bytes(const char *s, size_t n, const char *sub, size_t m)
{
    if (m > n) return NULL;
    for (size_t end = n - m + 1; end > 0;) {   /* sub may start in [0, end) */
        const char *p = memrchr(s, sub[0], end);
        if (!p || memcmp(p, sub, m) == 0) return p;
        end = (size_t)(p - s);
    }
    return NULL;
}

/* split_sep from the right: the last piece first. */
static bool rsplit_sep(List *l, Str *s, const Str *sep, int64_t maxsplit, bool ascii)
{
    size_t j = s->len;
    for (int64_t splits = 0;; splits++) {
        const char *at = maxsplit >= 0 && splits == maxsplit ? NULL : rfind_bytes(s->data, j, sep->data, sep->len);
        if (!at) return push_piece(l, s, 0, j, ascii);
        size_t i = (size_t)(at - s->data);
        if (!push_piece(l, s, i + sep->len, j, ascii)) return false;
        j = i;
    }
}

enum { SPLIT_LEFT, SPLIT_RIGHT };

/* split(s, sep=none, maxsplit=-1): a list of the pieces, as Python's str.split; rsplit: from the
   right, as str.rsplit (the same pieces unless maxsplit stops it: then the first piece holds
   the rest). */
static bool bi_split_str(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *sep = NULL;
    int64_t maxsplit;
    if (!arg_str(I, a, 0, &s) || (arg_at(a, 1) && !arg_str(I, a, 1, &sep)) || !arg_int(I, a, 2, -1, &maxsplit)) return false;
    if (sep && sep->len == 0) return bi_fail(I, a, ValueError, "empty separator");
    Value l = val_list_new(0);
    if (l.kind != V_LIST) return interp_error_rt(I, a->at);
    bool ascii = one_byte_chars(s), right = a->self->tag == SPLIT_RIGHT;
    bool ok = right ? (sep ? rsplit_sep(l.as.l, s, sep, maxsplit, ascii) : rsplit_whitespace(l.as.l, s, maxsplit, ascii))
                    : (sep ? split_sep(l.as.l, s, sep, maxsplit, ascii) : split_whitespace(l.as.l, s, maxsplit, ascii));
    if (!ok) {
        val_release(l);
        return interp_error_rt(I, a->at);
    }
    if (right) list_reverse(l.as.l);   /* rsplit pushed the last piece first */
    *out = l;
    return true;
}

enum { PART_FIRST, PART_LAST };

/* partition(s, sep), rpartition(s, sep): (before, sep, after) around the first (last) sep; when
   there is none, (s, "", "") or ("", "", s). */
static bool bi_partition_str(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *sep;
    if (!arg_str(I, a, 0, &s) || !arg_str(I, a, 1, &sep)) return false;
    if (sep->len == 0) return bi_fail(I, a, ValueError, "empty separator");
    bool last = a->self->tag == PART_LAST;
    const char *at = last ? rfind_bytes(s->data, s->len, sep->data, sep->len) : memmem(s->data, s->len, sep->data, sep->len);
    size_t i = at ? (size_t)(at - s->data) : last ? 0 : s->len;
    size_t j = at ? i + sep->len : i;   /* after: [j, len) */
    Value t = val_tuple_new(3);
    if (t.kind != V_TUPLE) return interp_error_rt(I, a->at);
    Value *it = t.as.tu->items;
    it[0] = val_str(s->data, i);
    it[1] = at ? val_retain(*arg_given(a, 1)) : val_str("", 0);
    it[2] = val_str(s->data + j, s->len - j);
    for (int k = 0; k < 3; k++)
        if (it[k].kind != V_STR) {
            val_release(t);
            return interp_error_rt(I, a->at);
        }
    *out = t;
    return true;
}

/* join(sep, items): the strings of items (any iterable) with sep between them. */
static bool bi_join(Interp *I, CallArgs *a, Value *out)
{
    Str *sep;
    Value items, given = *arg_given(a, 1);
    if (!arg_str(I, a, 0, &sep)) return false;
    if (given.kind == V_LIST) items = val_retain(given);   /* read as it is: nothing below runs code */
    else if (!val_iter_list(given, &items))
        return tl_errkind_last() == TL_E_TypeError ? bi_fail(I, a, TypeError, "items must be iterable, not a %s", val_kind_name(given))
                                                   : interp_error_rt(I, a->at);
    const List *l = items.as.l;
    size_t total = 0;
    bool ok = true;
    for (int64_t i = 0; i < l->n && ok; i++) {
        if (l->items[i].kind != V_STR) {
            ok = bi_fail(I, a, TypeError, "item %lld is a %s, not a string", (long long)i, val_kind_name(l->items[i]));
            break;
        }
        total += l->items[i].as.s->len + (i ? sep->len : 0);
    }
    Value r = ok ? str_new(total) : val_none();
    if (ok && r.kind != V_STR) ok = interp_error_rt(I, a->at);
    if (ok) {
        char *p = r.as.s->data;
        for (int64_t i = 0; i < l->n; i++) {
            if (i) { memcpy(p, sep->data, sep->len); p += sep->len; }
            memcpy(p, l->items[i].as.s->data, l->items[i].as.s->len);
            p += l->items[i].as.s->len;
        }
        *out = r;
    }
    val_release(items);
    return ok;
}

/* splitlines(s, keepends=false): the lines, at \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029. */
static bool bi_splitlines(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    bool keep;
    if (!arg_str(I, a, 0, &s) || !arg_bool(I, a, 1, false, &keep)) return false;
    Value l = val_list_new(0);
    if (l.kind != V_LIST) return interp_error_rt(I, a->at);
    size_t i = 0, start = 0;
    bool ok = true;
    while (i < s->len && ok) {
        uint32_t cp;
        size_t k = utf8_decode(s->data, s->len, i, &cp);
        bool brk = cp == '\n' || cp == '\r' || cp == 0x0B || cp == 0x0C || (cp >= 0x1C && cp <= 0x1E) || cp == 0x85 ||
                   cp == 0x2028 || cp == 0x2029;
        i += k;
        if (!brk) continue;
        size_t end = i - k;
        if (cp == '\r' && i < s->len && s->data[i] == '\n') i++;
        ok = push_piece(l.as.l, s, start, keep ? i : end, false);
        start = i;
    }
    if (ok && start < s->len) ok = push_piece(l.as.l, s, start, s->len, false);
    if (!ok) {
        val_release(l);
        return interp_error_rt(I, a->at);
    }
    *out = l;
    return true;
}

/* ---- strip, pad, tabs ---------------------------------------------------------------------- */

/* True when cp is one of chars' characters (chars NULL: whitespace). */
static bool strip_member(const Str *chars, uint32_t cp)
{
    if (!chars) return str_is_space(cp);
    uint32_t c;
    for (size_t i = 0; i < chars->len;) {
        i += utf8_decode(chars->data, chars->len, i, &c);
        if (c == cp) return true;
    }
    return false;
}

enum { STRIP_BOTH, STRIP_LEFT, STRIP_RIGHT };

/* strip/lstrip/rstrip(s, chars=none): without the leading and/or trailing characters in chars. */
static bool bi_strip(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *chars = NULL;
    if (!arg_str(I, a, 0, &s) || (arg_at(a, 1) && !arg_str(I, a, 1, &chars))) return false;
    int side = a->self->tag;
    size_t i = 0, lo = 0, hi = 0;
    bool seen = false;   /* a character outside the set has been met */
    while (i < s->len) {
        uint32_t cp;
        size_t k = utf8_decode(s->data, s->len, i, &cp);
        if (!strip_member(chars, cp)) {
            if (!seen) lo = i;
            seen = true;
            hi = i + k;
        }
        i += k;
    }
    if (!seen) lo = hi = side == STRIP_RIGHT ? 0 : s->len;
    if (side == STRIP_RIGHT) lo = 0;
    if (side == STRIP_LEFT) hi = s->len;
    *out = val_str(s->data + lo, hi - lo);
    return out->kind == V_STR || interp_error_rt(I, a->at);
}

/* The one-character fill string of parameter i (default " "). */
static bool fill_param(Interp *I, CallArgs *a, int i, const char **fill, size_t *flen)
{
    Value *v = arg_at(a, i);
    if (!v) { *fill = " "; *flen = 1; return true; }
    if (v->kind != V_STR || str_chars(v->as.s) != 1) return bi_fail(I, a, TypeError, "%s must be one character", arg_name(a, i));
    *fill = v->as.s->data;
    *flen = v->as.s->len;
    return true;
}

enum { PAD_LEFT_JUST, PAD_RIGHT_JUST, PAD_CENTER, PAD_ZEROS };

/* ljust/rjust/center(s, width, fillchar=" ") and zfill(s, width): s padded to width characters. */
static bool bi_pad(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    int64_t width;
    const char *fill = "0";
    size_t flen = 1;
    int how = a->self->tag;
    if (!arg_str(I, a, 0, &s) || !arg_int(I, a, 1, 0, &width) || (how != PAD_ZEROS && !fill_param(I, a, 2, &fill, &flen)))
        return false;
    int64_t len = str_chars(s);
    if (width <= len) { *out = val_retain(*arg_given(a, 0)); return true; }
    int64_t pad = width - len, left = how == PAD_RIGHT_JUST || how == PAD_ZEROS ? pad : how == PAD_LEFT_JUST ? 0 : pad / 2 + (pad & width & 1);
    if ((uint64_t)pad > STR_MAX_BYTES / flen) return bi_fail(I, a, MemoryError, "width %lld is too large", (long long)width);
    size_t sign = how == PAD_ZEROS && s->len && (s->data[0] == '+' || s->data[0] == '-');
    Value r = str_new(s->len + (size_t)pad * flen);
    if (r.kind != V_STR) return interp_error_rt(I, a->at);
    char *p = r.as.s->data;
    memcpy(p, s->data, sign);
    p += sign;
    for (int64_t k = 0; k < left; k++, p += flen) memcpy(p, fill, flen);
    memcpy(p, s->data + sign, s->len - sign);
    p += s->len - sign;
    for (int64_t k = left; k < pad; k++, p += flen) memcpy(p, fill, flen);
    r.as.s->nchars = width;
    *out = r;
    return true;
}

/* expandtabs(s, tabsize=8): each tab replaced by the spaces up to the next column that is a
   multiple of tabsize (none when tabsize <= 0), columns counted in characters from the last
   \n or \r, as Python's str.expandtabs. */
static bool bi_expandtabs(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    int64_t tab;
    if (!arg_str(I, a, 0, &s) || !arg_int(I, a, 1, 8, &tab)) return false;
    for (int pass = 0; pass < 2; pass++) {   /* the result's length, then its bytes */
        char *p = pass ? out->as.s->data : NULL;
        uint64_t len = 0, col = 0;
        for (size_t i = 0; i < s->len;) {
            uint32_t cp;
            size_t k = utf8_decode(s->data, s->len, i, &cp);
            if (cp == '\t') {
                uint64_t n = tab > 0 ? (uint64_t)tab - col % (uint64_t)tab : 0;
                if (n > STR_MAX_BYTES - len) return bi_fail(I, a, MemoryError, "tabsize %lld makes the string too large", (long long)tab);
                if (p) memset(p + len, ' ', n);
                len += n, col += n;
            } else {
                if (p) memcpy(p + len, s->data + i, k);
                len += k;
                col = cp == '\n' || cp == '\r' ? 0 : col + 1;
            }
            i += k;
        }
        if (!pass && (*out = str_new((size_t)len)).kind != V_STR) return interp_error_rt(I, a->at);
    }
    return true;
}

/* ---- searching and replacing --------------------------------------------------------------- */

bool str_window(Interp *I, CallArgs *a, int i, Str *s, int64_t *lo, int64_t *hi)
{
    int64_t n = str_chars(s);
    if (!arg_int(I, a, i, 0, lo) || !arg_int(I, a, i + 1, n, hi)) return false;
    if (*hi > n) *hi = n;
    else if (*hi < 0) *hi = *hi + n < 0 ? 0 : *hi + n;
    if (*lo < 0) *lo = *lo + n < 0 ? 0 : *lo + n;
    return true;
}

int64_t str_find_sub(Str *s, const Str *sub, int64_t lo, int64_t hi, bool last)
{
    if (hi < lo) return -1;   /* (a start past the end too: Python finds not even "" there) */
    if (sub->len == 0) return last ? hi : lo;
    size_t b = str_offset(s, lo), e = str_offset(s, hi);
    const char *p = s->data + b;
    const char *hit = last ? rfind_bytes(p, e - b, sub->data, sub->len) : memmem(p, e - b, sub->data, sub->len);
    return hit ? lo + utf8_count(p, (size_t)(hit - p)) : -1;
}

int64_t str_count_sub(Str *s, const Str *sub, int64_t lo, int64_t hi)
{
    if (hi < lo) return 0;
    if (sub->len == 0) return hi - lo + 1;
    int64_t n = 0;
    for (const char *p = s->data + str_offset(s, lo), *end = s->data + str_offset(s, hi); p < end; n++) {
        const char *h = memmem(p, (size_t)(end - p), sub->data, sub->len);
        if (!h) break;
        p = h + sub->len;
    }
    return n;
}

enum { FIND_FIRST, FIND_LAST, FIND_LAST_OR_FAIL };

/* find(s, sub, start=none, end=none), rfind: the character index of the first (last) sub in
   s[start:end], or -1; rindex: rfind's, a ValueError when sub is absent (index is lists.c's). */
static bool bi_find(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *sub;
    int64_t lo, hi;
    if (!arg_str(I, a, 0, &s) || !arg_str(I, a, 1, &sub) || !str_window(I, a, 2, s, &lo, &hi)) return false;
    int64_t at = str_find_sub(s, sub, lo, hi, a->self->tag != FIND_FIRST);
    if (at < 0 && a->self->tag == FIND_LAST_OR_FAIL) return bi_fail(I, a, ValueError, "substring not found");
    *out = val_i64(at);
    return true;
}

enum { REMOVE_PREFIX, REMOVE_SUFFIX };

/* removeprefix(s, prefix), removesuffix(s, suffix): s without it where s starts (ends) with it,
   else s. */
static bool bi_remove_affix(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *t;
    if (!arg_str(I, a, 0, &s) || !arg_str(I, a, 1, &t)) return false;
    bool prefix = a->self->tag == REMOVE_PREFIX;
    if (t->len == 0 || t->len > s->len || memcmp(prefix ? s->data : s->data + s->len - t->len, t->data, t->len) != 0) {
        *out = val_retain(*arg_given(a, 0));
        return true;
    }
    *out = val_str(prefix ? s->data + t->len : s->data, s->len - t->len);
    return out->kind == V_STR || interp_error_rt(I, a->at);
}

enum { STARTS, ENDS };

/* startswith/endswith(s, prefix, start=none, end=none): s[start:end] starts (ends) with prefix,
   a string or a tuple of strings (any of them). */
static bool bi_affix(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    int64_t lo, hi;
    if (!arg_str(I, a, 0, &s) || !str_window(I, a, 2, s, &lo, &hi)) return false;
    if (hi < lo) {   /* an empty window, or a start past the end: Python finds not even "" there */
        *out = val_bool(false);
        return true;
    }
    size_t b = str_offset(s, lo), e = str_offset(s, hi);
    Value p = *arg_given(a, 1);
    int n = p.kind == V_TUPLE ? p.as.tu->n : 1;
    bool hit = false;
    for (int i = 0; i < n && !hit; i++) {
        Value x = p.kind == V_TUPLE ? p.as.tu->items[i] : p;
        if (x.kind != V_STR)
            return bi_fail(I, a, TypeError, "%s must be a string or a tuple of strings, not a %s", arg_name(a, 1), val_kind_name(x));
        const Str *t = x.as.s;
        hit = t->len <= e - b && memcmp(a->self->tag == STARTS ? s->data + b : s->data + e - t->len, t->data, t->len) == 0;
    }
    *out = val_bool(hit);
    return true;
}

/* Appends new, then the text before the next old, to b: replace()'s loop for a non-empty old. */
static bool replace_runs(StrBuf *b, const Str *s, const Str *old, const Str *new, int64_t count)
{
    const char *p = s->data, *end = s->data + s->len;
    for (int64_t n = 0; count < 0 || n < count; n++) {
        const char *h = memmem(p, (size_t)(end - p), old->data, old->len);
        if (!h) break;
        if (!sb_append(b, p, (size_t)(h - p)) || !sb_append(b, new->data, new->len)) return false;
        p = h + old->len;
    }
    return sb_append(b, p, (size_t)(end - p));
}

/* replace(s, old, new, count=-1): s with the first count (all, when negative) olds replaced. */
static bool bi_replace(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *old, *new;
    int64_t count;
    if (!arg_str(I, a, 0, &s) || !arg_str(I, a, 1, &old) || !arg_str(I, a, 2, &new) || !arg_int(I, a, 3, -1, &count)) return false;
    StrBuf b = { 0 };
    bool ok = sb_append(&b, "", 0);
    if (ok && old->len == 0) {   /* new before every character and at the end, count of them at most */
        int64_t n = 0;
        size_t i = 0;
        for (; ok && i <= s->len && (count < 0 || n < count); n++) {
            ok = sb_append(&b, new->data, new->len);
            if (i == s->len) { i++; break; }
            uint32_t cp;
            size_t k = utf8_decode(s->data, s->len, i, &cp);
            ok = ok && sb_append(&b, s->data + i, k);
            i += k;
        }
        if (ok && i < s->len) ok = sb_append(&b, s->data + i, s->len - i);
    } else if (ok) {
        ok = replace_runs(&b, s, old, new, count);
    }
    if (ok) *out = val_str(b.data, b.len);
    sb_free(&b);
    return (ok && out->kind == V_STR) || interp_error_rt(I, a->at);
}

/* ---- characters and code points ------------------------------------------------------------ */

/* ord(c): the code point of the one character c (an invalid byte gives 0xDC80 + the byte). */
static bool bi_ord(Interp *I, CallArgs *a, Value *out)
{
    Str *c;
    if (!arg_str(I, a, 0, &c)) return false;
    if (str_chars(c) != 1) return bi_fail(I, a, TypeError, "expected one character, got a string of length %lld", (long long)str_chars(c));
    uint32_t cp;
    utf8_decode(c->data, c->len, 0, &cp);
    *out = val_i64(cp);
    return true;
}

/* chr(i): the character whose code point is i (0xDC80..0xDCFF: the raw byte it stands for). */
static bool bi_chr(Interp *I, CallArgs *a, Value *out)
{
    int64_t i;
    if (!arg_int(I, a, 0, 0, &i)) return false;
    if (i < 0 || i > 0x10FFFF) return bi_fail(I, a, ValueError, "%lld is not in range(0x110000)", (long long)i);
    if (i >= 0xD800 && i <= 0xDFFF && !(i >= 0xDC80 && i <= 0xDCFF))
        return bi_fail(I, a, ValueError, "0x%llx is a surrogate, not a character", (long long)i);
    char enc[4];
    *out = piece(enc, utf8_encode((uint32_t)i, enc), 1);
    return out->kind == V_STR || interp_error_rt(I, a->at);
}

const Builtin bi_strings_table[] = {
    { "join", bi_join, "join(sep, items)", "the strings of items with sep between them (\",\".join(xs))", 0, BF_OTHER, BT_NO },
    { "strip", bi_strip, "strip(s, chars=none)", "s without leading and trailing whitespace (or characters in chars)", STRIP_BOTH, BF_OTHER, BT_NO },
    { "lstrip", bi_strip, "lstrip(s, chars=none)", "s without leading whitespace (or characters in chars)", STRIP_LEFT, BF_OTHER, BT_NO },
    { "rstrip", bi_strip, "rstrip(s, chars=none)", "s without trailing whitespace (or characters in chars)", STRIP_RIGHT, BF_OTHER, BT_NO },
    { "startswith", bi_affix, "startswith(s, prefix, start=none, end=none)", "true when s (s[start:end]) starts with prefix (a string or a tuple of them)", STARTS, BF_OTHER, BT_NO },
    { "endswith", bi_affix, "endswith(s, suffix, start=none, end=none)", "true when s (s[start:end]) ends with suffix (a string or a tuple of them)", ENDS, BF_OTHER, BT_NO },
    { "replace", bi_replace, "replace(s, old, new, count=-1)", "s with each old (the first count) replaced by new", 0, BF_OTHER, BT_NO },
    { "find", bi_find, "find(s, sub, start=none, end=none)", "the index of the first sub in s (in s[start:end]), or -1", FIND_FIRST, BF_OTHER, BT_NO },
    { "rfind", bi_find, "rfind(s, sub, start=none, end=none)", "the index of the last sub in s (in s[start:end]), or -1", FIND_LAST, BF_OTHER, BT_NO },
    { "rindex", bi_find, "rindex(s, sub, start=none, end=none)", "the index of the last sub in s[start:end] (a ValueError when there is none)", FIND_LAST_OR_FAIL, BF_OTHER, BT_NO },
    { "removeprefix", bi_remove_affix, "removeprefix(s, prefix)", "s without prefix at its start (s when it does not start with it)", REMOVE_PREFIX, BF_OTHER, BT_NO },
    { "removesuffix", bi_remove_affix, "removesuffix(s, suffix)", "s without suffix at its end (s when it does not end with it)", REMOVE_SUFFIX, BF_OTHER, BT_NO },
    { "rpartition", bi_partition_str, "rpartition(s, sep)", "(before, sep, after) around the last sep in s; (\"\", \"\", s) when there is none", PART_LAST, BF_OTHER, BT_NO },
    { "rsplit", bi_split_str, "rsplit(s, sep=none, maxsplit=-1)", "s split at sep (or at runs of whitespace) from the right, as a list", SPLIT_RIGHT, BF_OTHER, BT_NO },
    { "expandtabs", bi_expandtabs, "expandtabs(s, tabsize=8)", "s with each tab replaced by spaces up to the next multiple of tabsize columns", 0, BF_OTHER, BT_NO },
    { "ljust", bi_pad, "ljust(s, width, fillchar=\" \")", "s padded on the right to width characters", PAD_LEFT_JUST, BF_OTHER, BT_NO },
    { "rjust", bi_pad, "rjust(s, width, fillchar=\" \")", "s padded on the left to width characters", PAD_RIGHT_JUST, BF_OTHER, BT_NO },
    { "center", bi_pad, "center(s, width, fillchar=\" \")", "s centered in width characters", PAD_CENTER, BF_OTHER, BT_NO },
    { "zfill", bi_pad, "zfill(s, width)", "s padded with zeros on the left to width characters (after a sign)", PAD_ZEROS, BF_OTHER, BT_NO },
    { "splitlines", bi_splitlines, "splitlines(s, keepends=false)", "the lines of s, as a list", 0, BF_OTHER, BT_NO },
    { "ord", bi_ord, "ord(c)", "the code point of the one character c", 0, BF_OTHER, BT_NO },
    { "chr", bi_chr, "chr(i)", "the one-character string of code point i", 0, BF_OTHER, BT_NO },
    { 0 },
};

const Builtin bi_string_variants[] = {
    { "split", bi_split_str, "split(s, sep=none, maxsplit=-1)", "a string split at sep (or at runs of whitespace), as a list", SPLIT_LEFT, BF_OTHER, BT_NO },
    { "partition", bi_partition_str, "partition(s, sep)", "(before, sep, after) around the first sep in a string; (s, \"\", \"\") when there is none", PART_FIRST, BF_OTHER, BT_NO },
    { 0 },
};
