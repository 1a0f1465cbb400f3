/* jupyter_json.c — writing the JSON of Jupyter messages: strings (always valid UTF-8), keys, base64 */
#include <string.h>

#include "jupyter_int.h"
#include "utf8.h"

bool jj_str(StrBuf *b, const char *s, size_t n)
{
    if (!jj_lit(b, "\"")) return false;
    size_t run = 0;   /* bytes before i that need no escape, not yet appended */
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = c;
        size_t k = c < 0x80 ? 1 : tl_utf8_next(s + i, n - i, &cp);
        const char *esc = NULL;
        char u[8];
        if (cp == TL_UTF8_BAD) esc = "\xEF\xBF\xBD";   /* U+FFFD: a client decodes the text as UTF-8 */
        else if (c == '"') esc = "\\\"";
        else if (c == '\\') esc = "\\\\";
        else if (c == '\n') esc = "\\n";
        else if (c == '\t') esc = "\\t";
        else if (c < 0x20 || c == 0x7F) snprintf(u, sizeof u, "\\u%04x", c), esc = u;
        if (!esc) {
            run += k;
            i += k;
            continue;
        }
        if (!sb_append(b, s + i - run, run) || !sb_append(b, esc, strlen(esc))) return false;
        run = 0;
        i += k;
    }
    return sb_append(b, s + n - run, run) && jj_lit(b, "\"");
}

bool jj_cstr(StrBuf *b, const char *s) { return jj_str(b, s, strlen(s)); }

bool jj_key(StrBuf *b, const char *key)
{
    bool first = b->len > 0 && (b->data[b->len - 1] == '{');
    return (first || jj_lit(b, ",")) && jj_cstr(b, key) && jj_lit(b, ":");
}

bool jj_base64(StrBuf *b, const unsigned char *p, size_t n)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!jj_lit(b, "\"")) return false;
    char q[1024];   /* 256 groups of four digits at a time */
    size_t nq = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        q[nq++] = digits[v >> 18];
        q[nq++] = digits[v >> 12 & 63];
        q[nq++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        q[nq++] = i + 2 < n ? digits[v & 63] : '=';
        if (nq == sizeof q && !sb_append(b, q, nq)) return false;
        if (nq == sizeof q) nq = 0;
    }
    return sb_append(b, q, nq) && jj_lit(b, "\"");
}
