/* utf8.h — the one test of valid UTF-8 (RFC 3629), shared by the runtime and the interpreter */
#ifndef TL_UTF8_H
#define TL_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at p (n >= 1 bytes there), or 0 when invalid: as RFC 3629
   says, overlong forms, surrogates (U+D800-DFFF) and code points past U+10FFFF are invalid. */
static inline size_t tl_utf8_len(const unsigned char *p, size_t n)
{
    size_t k = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (!k || k > n || (k == 2 && p[0] < 0xC2)) return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    if (k == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0))) return 0;   /* overlong, surrogate */
    if (k == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || p[0] > 0xF4 || (p[0] == 0xF4 && p[1] >= 0x90))) return 0;
    return k;
}

#endif
