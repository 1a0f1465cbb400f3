/* strings.c — Python's string methods as builtins (s.split(","), join(sep, items), strip, find, upper, ...), by characters */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "unicode_data.inc"

#define COUNT(t) ((int)(sizeof t / sizeof *t))

/* ---- characters ---------------------------------------------------------------------------- */

/* True when cp lies in one of the n sorted [lo, hi] ranges. */
static bool in_ranges(const uint32_t (*r)[2], int n, uint32_t cp)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cp < r[mid][0]) hi = mid - 1;
        else if (cp > r[mid][1]) lo = mid + 1;
        else return true;
    }
    return false;
}

/* Python's str.isspace for one character (what split() and strip() take as whitespace). */
static bool is_space(uint32_t cp)
{
    if (cp < 0x80) return cp == ' ' || (cp >= 9 && cp <= 13) || (cp >= 0x1C && cp <= 0x1F);
    return in_ranges(uni_space, COUNT(uni_space), cp);
}

/* The string parameter i (its value must be a string). */
static bool str_param(Interp *I, CallArgs *a, int i, Str **out)
{
    Value *v = arg_kind(I, a, i, V_STR);
    *out = v ? v->as.s : NULL;
    return v != NULL;
}

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
    return is_space(cp) ? k : 0;
}

/* The byte length of the character at byte i of s when it is not whitespace (0 when it is). */
static size_t nonspace_at(const Str *s, size_t i)
{
    uint32_t cp;
    size_t k = utf8_decode(s->data, s->len, i, &cp);
    return is_space(cp) ? 0 : k;
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

/* split(s, sep=none, maxsplit=-1): a list of the pieces, as Python's str.split. */
static bool bi_split_str(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *sep = NULL;
    int64_t maxsplit;
    if (!str_param(I, a, 0, &s) || (arg_at(a, 1) && !str_param(I, a, 1, &sep)) || !arg_int(I, a, 2, -1, &maxsplit)) return false;
    if (sep && sep->len == 0) return bi_fail(I, a, ValueError, "empty separator");
    Value l = val_list_new(0);
    if (l.kind != V_LIST) return interp_error_rt(I, a->at);
    bool ascii = one_byte_chars(s);
    bool ok = sep ? split_sep(l.as.l, s, sep, maxsplit, ascii) : split_whitespace(l.as.l, s, maxsplit, ascii);
    if (!ok) {
        val_release(l);
        return interp_error_rt(I, a->at);
    }
    *out = l;
    return true;
}

/* join(sep, items): the strings of items (any iterable) with sep between them. */
static bool bi_join(Interp *I, CallArgs *a, Value *out)
{
    Str *sep;
    Value items, given = *arg_given(a, 1);
    if (!str_param(I, a, 0, &sep)) return false;
    if (given.kind == V_LIST) items = val_retain(given);   /* read as it is: nothing below runs code */
    else if (!val_iter_list(given, &items)) return bi_fail(I, a, TypeError, "items must be iterable, not a %s", val_kind_name(given));
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
    if (!str_param(I, a, 0, &s) || !arg_bool(I, a, 1, false, &keep)) return false;
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

/* ---- strip, pad, case ---------------------------------------------------------------------- */

/* True when cp is one of chars' characters (chars NULL: whitespace). */
static bool strip_member(const Str *chars, uint32_t cp)
{
    if (!chars) return is_space(cp);
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
    if (!str_param(I, a, 0, &s) || (arg_at(a, 1) && !str_param(I, a, 1, &chars))) return false;
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
    if (!str_param(I, a, 0, &s) || !arg_int(I, a, 1, 0, &width) || (how != PAD_ZEROS && !fill_param(I, a, 2, &fill, &flen)))
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

/* cp mapped by a case table: the characters it becomes (1 to 3) into m, their count returned. */
static int case_map(const int32_t (*single)[2], int nsingle, const uint32_t (*multi)[4], int nmulti, uint32_t cp, uint32_t *m)
{
    for (int k = 0; k < nmulti; k++)
        if (multi[k][0] == cp) {
            int n = 0;
            for (int j = 1; j < 4 && multi[k][j]; j++) m[n++] = multi[k][j];
            return n;
        }
    int lo = 0, hi = nsingle - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if ((int64_t)cp < single[mid][0]) hi = mid - 1;
        else if ((int64_t)cp > single[mid][0]) lo = mid + 1;
        else { m[0] = (uint32_t)((int64_t)cp + single[mid][1]); return 1; }
    }
    m[0] = cp;
    return 1;
}

static bool is_cased(uint32_t cp) { return in_ranges(uni_cased, COUNT(uni_cased), cp); }
static bool is_case_ignorable(uint32_t cp) { return in_ranges(uni_case_ignorable, COUNT(uni_case_ignorable), cp); }

/* Python's final sigma rule for the Σ at byte i (k bytes) of s: a cased letter before it and
   none after it, case-ignorable characters skipped on both sides. */
static bool final_sigma(const Str *s, size_t i, size_t k)
{
    bool before = false;
    uint32_t cp;
    for (size_t j = 0; j < i;) {   /* the last character before i that is not case-ignorable */
        j += utf8_decode(s->data, s->len, j, &cp);
        if (!is_case_ignorable(cp)) before = is_cased(cp);
    }
    if (!before) return false;
    for (size_t j = i + k; j < s->len;) {
        j += utf8_decode(s->data, s->len, j, &cp);
        if (!is_case_ignorable(cp)) return !is_cased(cp);
    }
    return true;
}

enum { CASE_UPPER, CASE_LOWER };

/* upper(s), lower(s): Python's full case mappings ('ß'.upper() is 'SS'; a final Σ lowers to ς). */
static bool bi_case(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!str_param(I, a, 0, &s)) return false;
    bool up = a->self->tag == CASE_UPPER;
    StrBuf b = { 0 };
    bool ok = sb_append(&b, "", 0);
    for (size_t i = 0; i < s->len && ok;) {
        uint32_t cp, m[3];
        size_t k = utf8_decode(s->data, s->len, i, &cp);
        int n = cp < 0x80 ? (m[0] = up ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp) : (cp >= 'A' && cp <= 'Z' ? cp + 32 : cp), 1)
                : up ? case_map(uni_upper_single, COUNT(uni_upper_single), uni_upper_multi, COUNT(uni_upper_multi), cp, m)
                     : case_map(uni_lower_single, COUNT(uni_lower_single), uni_lower_multi, COUNT(uni_lower_multi), cp, m);
        if (!up && cp == 0x3A3 && final_sigma(s, i, k)) m[0] = 0x3C2;
        for (int j = 0; j < n && ok; j++) {
            char enc[4];
            ok = sb_append(&b, enc, utf8_encode(m[j], enc));   /* an invalid byte maps to itself */
        }
        i += k;
    }
    if (ok) *out = val_str(b.data, b.len);
    sb_free(&b);
    return (ok && out->kind == V_STR) || interp_error_rt(I, a->at);
}

enum { IS_DIGIT, IS_ALPHA, IS_SPACE };

/* isdigit/isalpha/isspace(s): true when s has characters and every one is of that class. */
static bool bi_is(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!str_param(I, a, 0, &s)) return false;
    bool all = s->len > 0;
    for (size_t i = 0; i < s->len && all;) {
        uint32_t cp;
        i += utf8_decode(s->data, s->len, i, &cp);
        switch (a->self->tag) {
        case IS_DIGIT: all = cp < 0x80 ? cp >= '0' && cp <= '9' : in_ranges(uni_digit, COUNT(uni_digit), cp); break;
        case IS_ALPHA:
            all = cp < 0x80 ? (cp | 32) >= 'a' && (cp | 32) <= 'z' : in_ranges(uni_alpha, COUNT(uni_alpha), cp);
            break;
        default: all = is_space(cp); break;
        }
    }
    *out = val_bool(all);
    return true;
}

/* ---- searching and replacing --------------------------------------------------------------- */

int64_t str_find_sub(Str *s, const Str *sub, bool last)
{
    if (sub->len > s->len) return -1;
    if (sub->len == 0) return last ? str_chars(s) : 0;
    const char *hit = NULL;
    for (const char *p = s->data, *end = s->data + s->len; p < end;) {
        const char *h = memmem(p, (size_t)(end - p), sub->data, sub->len);
        if (!h) break;
        hit = h;
        if (!last) break;
        p = h + 1;
    }
    return hit ? utf8_count(s->data, (size_t)(hit - s->data)) : -1;
}

int64_t str_count_sub(Str *s, const Str *sub)
{
    if (sub->len == 0) return str_chars(s) + 1;
    int64_t n = 0;
    for (const char *p = s->data, *end = s->data + s->len; p < end; n++) {
        const char *h = memmem(p, (size_t)(end - p), sub->data, sub->len);
        if (!h) break;
        p = h + sub->len;
    }
    return n;
}

enum { FIND_FIRST, FIND_LAST };

/* find(s, sub), rfind(s, sub): the character index of the first (last) sub in s, or -1. */
static bool bi_find(Interp *I, CallArgs *a, Value *out)
{
    Str *s, *sub;
    if (!str_param(I, a, 0, &s) || !str_param(I, a, 1, &sub)) return false;
    *out = val_i64(str_find_sub(s, sub, a->self->tag == FIND_LAST));
    return true;
}

enum { STARTS, ENDS };

/* startswith/endswith(s, prefix): prefix a string or a tuple of strings (any of them). */
static bool bi_affix(Interp *I, CallArgs *a, Value *out)
{
    Str *s;
    if (!str_param(I, a, 0, &s)) return false;
    Value p = *arg_given(a, 1);
    int n = p.kind == V_TUPLE ? p.as.tu->n : 1;
    bool hit = false;
    for (int i = 0; i < n && !hit; i++) {
        Value x = p.kind == V_TUPLE ? p.as.tu->items[i] : p;
        if (x.kind != V_STR)
            return bi_fail(I, a, TypeError, "%s must be a string or a tuple of strings, not a %s", arg_name(a, 1), val_kind_name(x));
        const Str *t = x.as.s;
        hit = t->len <= s->len && memcmp(a->self->tag == STARTS ? s->data : s->data + s->len - t->len, t->data, t->len) == 0;
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
    if (!str_param(I, a, 0, &s) || !str_param(I, a, 1, &old) || !str_param(I, a, 2, &new) || !arg_int(I, a, 3, -1, &count)) return false;
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
    if (!str_param(I, a, 0, &c)) return false;
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
    { "startswith", bi_affix, "startswith(s, prefix)", "true when s starts with prefix (a string or a tuple of them)", STARTS, BF_OTHER, BT_NO },
    { "endswith", bi_affix, "endswith(s, suffix)", "true when s ends with suffix (a string or a tuple of them)", ENDS, BF_OTHER, BT_NO },
    { "replace", bi_replace, "replace(s, old, new, count=-1)", "s with each old (the first count) replaced by new", 0, BF_OTHER, BT_NO },
    { "find", bi_find, "find(s, sub)", "the index of the first sub in s, or -1", FIND_FIRST, BF_OTHER, BT_NO },
    { "rfind", bi_find, "rfind(s, sub)", "the index of the last sub in s, or -1", FIND_LAST, BF_OTHER, BT_NO },
    { "upper", bi_case, "upper(s)", "s in upper case (Python's full mapping: \"ß\" becomes \"SS\")", CASE_UPPER, BF_OTHER, BT_NO },
    { "lower", bi_case, "lower(s)", "s in lower case", CASE_LOWER, BF_OTHER, BT_NO },
    { "isdigit", bi_is, "isdigit(s)", "true when s is not empty and all its characters are digits", IS_DIGIT, BF_OTHER, BT_NO },
    { "isalpha", bi_is, "isalpha(s)", "true when s is not empty and all its characters are letters", IS_ALPHA, BF_OTHER, BT_NO },
    { "isspace", bi_is, "isspace(s)", "true when s is not empty and all its characters are whitespace", IS_SPACE, BF_OTHER, BT_NO },
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
    { "split", bi_split_str, "split(s, sep=none, maxsplit=-1)", "a string split at sep (or at runs of whitespace), as a list", 0, BF_OTHER, BT_NO },
    { 0 },
};
