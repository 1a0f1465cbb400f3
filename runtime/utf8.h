/* utf8.h — UTF-8 text one character at a time, and the one test of valid UTF-8 (RFC 3629) the runtime and the interpreter share */
#ifndef TL_UTF8_H
#define TL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* What tl_utf8_next gives for a byte that starts no valid sequence (the byte is the character). */
#define TL_UTF8_BAD UINT32_C(0xFFFFFFFF)

/* Decodes the character at s (n > 0 bytes left): its code point (TL_UTF8_BAD for an invalid
   byte, which is then one character) and its length in bytes. Overlong forms, surrogates and
   code points past U+10FFFF are invalid, as Python's decoder has them. */
static inline size_t tl_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || len > n || c > 0xF4) {
        *cp = TL_UTF8_BAD;
        return 1;
    }
    uint32_t v = c & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *cp = TL_UTF8_BAD;
            return 1;
        }
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    if ((len == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) || (len == 4 && (v < 0x10000 || v > 0x10FFFF))) {
        *cp = TL_UTF8_BAD;
        return 1;
    }
    *cp = v;
    return len;
}

/* Length of the valid UTF-8 sequence at p (n >= 1 bytes there), or 0 when invalid: as RFC 3629
   says, overlong forms, surrogates (U+D800-DFFF) and code points past U+10FFFF are invalid. */
static inline size_t tl_utf8_len(const unsigned char *p, size_t n)
{
    uint32_t cp;
    size_t k = tl_utf8_next((const char *)p, n, &cp);
    return cp == TL_UTF8_BAD ? 0 : k;
}

/* The number of characters in s[0..n). */
static inline size_t tl_utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    uint32_t cp;
    for (size_t i = 0; i < n; count++) i += (unsigned char)s[i] < 0x80 ? 1 : tl_utf8_next(s + i, n - i, &cp);
    return count;
}

/* The byte length of s's first k characters (all of s when it has fewer). */
static inline size_t tl_utf8_prefix(const char *s, size_t n, size_t k)
{
    size_t i = 0;
    uint32_t cp;
    for (; i < n && k > 0; k--) i += (unsigned char)s[i] < 0x80 ? 1 : tl_utf8_next(s + i, n - i, &cp);
    return i;
}

/* Writes code point cp (at most U+10FFFF) as UTF-8 into out; returns its length (1 to 4). */
static inline size_t tl_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

#endif
