/* io/json.c — a small strict JSON reader: UTF-8 checked, nesting bounded, sizes bounded by the input */
#include <stdlib.h>
#include <string.h>

#include "../utf8.h"
#include "internal.h"
#include "json.h"

#define MAX_DEPTH 64

typedef struct {
    const char *path;
    const unsigned char *p, *start, *end;
} jparser;

static int jfail(jparser *j, const char *msg)
{
    return io_fail_path(j->path, "malformed JSON header at byte %lld: %s", (long long)(j->p - j->start), msg);
}

static void jws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static int jlit(jparser *j, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return jfail(j, "unexpected character");
    j->p += n;
    return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | (cp >> 6 & 0x3F)); o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int hex4(jparser *j, uint32_t *v)
{
    if (j->end - j->p < 4) return jfail(j, "truncated \\u escape");
    *v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = *j->p++;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return jfail(j, "bad \\u escape");
        *v = *v << 4 | (uint32_t)d;
    }
    return 0;
}

/* A string: the decoded text is never longer than the quoted source. */
static int jstring(jparser *j, char **out, size_t *outlen)
{
    const unsigned char *q = ++j->p;
    while (q < j->end && *q != '"') q += *q == '\\' && q + 1 < j->end ? 2 : 1;
    if (q >= j->end) return jfail(j, "unterminated string");
    char *s = malloc((size_t)(q - j->p) + 1);
    if (!s) { tl_seterr(MemoryError, "out of memory"); return -1; }
    size_t n = 0;
    while (*j->p != '"') {
        unsigned char c = *j->p;
        if (c < 0x20) { free(s); return jfail(j, "control character in a string"); }
        if (c != '\\') {
            size_t k = tl_utf8_len(j->p, (size_t)(j->end - j->p));
            if (!k) { free(s); return jfail(j, "invalid UTF-8"); }
            memcpy(s + n, j->p, k);
            n += k;
            j->p += k;
            continue;
        }
        j->p++;
        char e = (char)*j->p++;
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *hit = e ? strchr(from, e) : NULL;
        if (hit) { s[n++] = to[hit - from]; continue; }
        uint32_t cp, lo;
        if (e != 'u' || hex4(j, &cp)) { free(s); return e != 'u' ? jfail(j, "bad escape") : -1; }
        if (cp >= 0xDC00 && cp <= 0xDFFF) { free(s); return jfail(j, "lone surrogate"); }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u') { free(s); return jfail(j, "lone surrogate"); }
            j->p += 2;
            if (hex4(j, &lo)) { free(s); return -1; }
            if (lo < 0xDC00 || lo > 0xDFFF) { free(s); return jfail(j, "lone surrogate"); }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        n += put_utf8(s + n, cp);
    }
    j->p++;
    s[n] = '\0';
    *out = s;
    *outlen = n;
    return 0;
}

static int jnumber(jparser *j, json *v)
{
    v->kind = JSON_NUM;
    v->negative = *j->p == '-';
    if (v->negative) j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "bad number");
    bool overflow = false;
    if (*j->p == '0') j->p++;
    else
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
            overflow |= __builtin_mul_overflow(v->u, 10, &v->u) || __builtin_add_overflow(v->u, (uint64_t)(*j->p - '0'), &v->u);
            j->p++;
        }
    bool integral = true;
    if (j->p < j->end && *j->p == '.') {
        integral = false;
        j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "bad number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        integral = false;
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "bad number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    v->is_uint = integral && !v->negative && !overflow;
    return 0;
}

static int jvalue(jparser *j, json *v, int depth);

/* Appends one slot to an array or object, doubling its capacity. */
static int jgrow(json *v, int64_t *cap)
{
    if (v->n < *cap) return 0;
    int64_t nc = *cap ? *cap * 2 : 8;
    json *items = realloc(v->items, (size_t)nc * sizeof *items);
    if (items) v->items = items;
    if (items && v->kind == JSON_OBJ) {
        char **keys = realloc(v->keys, (size_t)nc * sizeof *keys);
        if (keys) v->keys = keys;
        size_t *kl = keys ? realloc(v->keylens, (size_t)nc * sizeof *kl) : NULL;
        if (kl) v->keylens = kl;
        if (!kl) items = NULL;
    }
    if (!items) { tl_seterr(MemoryError, "out of memory"); return -1; }
    *cap = nc;
    return 0;
}

static int jcontainer(jparser *j, json *v, int depth)
{
    bool obj = *j->p == '{';
    char close = obj ? '}' : ']';
    v->kind = obj ? JSON_OBJ : JSON_ARR;
    int64_t cap = 0;
    j->p++;
    jws(j);
    if (j->p < j->end && *j->p == close) { j->p++; return 0; }
    for (;;) {
        jws(j);
        if (jgrow(v, &cap)) return -1;
        json *item = &v->items[v->n];
        memset(item, 0, sizeof *item);
        if (obj) {
            v->keys[v->n] = NULL;
            if (j->p >= j->end || *j->p != '"') return jfail(j, "expected a key");
            if (jstring(j, &v->keys[v->n], &v->keylens[v->n])) return -1;
            jws(j);
            if (j->p >= j->end || *j->p != ':') { v->n++; return jfail(j, "expected ':'"); }
            j->p++;
        }
        v->n++;
        if (jvalue(j, item, depth + 1)) return -1;
        jws(j);
        if (j->p < j->end && *j->p == ',') { j->p++; continue; }
        if (j->p < j->end && *j->p == close) { j->p++; return 0; }
        return jfail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int jvalue(jparser *j, json *v, int depth)
{
    if (depth > MAX_DEPTH) return jfail(j, "nested too deeply");
    jws(j);
    if (j->p >= j->end) return jfail(j, "unexpected end");
    switch (*j->p) {
    case '{': case '[': return jcontainer(j, v, depth);
    case '"': v->kind = JSON_STR; return jstring(j, &v->s, &v->len);
    case 't': v->kind = JSON_BOOL; v->b = true; return jlit(j, "true");
    case 'f': v->kind = JSON_BOOL; return jlit(j, "false");
    case 'n': v->kind = JSON_NULL; return jlit(j, "null");
    default: return jnumber(j, v);
    }
}

int io_json_parse(const char *path, const char *text, size_t n, json *out)
{
    jparser j = { path, (const unsigned char *)text, (const unsigned char *)text, (const unsigned char *)text + n };
    memset(out, 0, sizeof *out);
    if (jvalue(&j, out, 0)) { io_json_free(out); return -1; }
    jws(&j);
    if (j.p != j.end) { io_json_free(out); return jfail(&j, "unexpected text after the JSON value"); }
    return 0;
}

void io_json_free(json *v)
{
    if (!v) return;
    free(v->s);
    for (int64_t i = 0; i < v->n; i++) {
        io_json_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->keylens);
    memset(v, 0, sizeof *v);
}
