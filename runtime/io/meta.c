/* io/meta.c — metadata trees, and GGUF key/value sections (parsed with every length checked; also tl's encoding) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* GGUF's value types that no dtype is; a number's type is its dtype's GGUF column (dtype_list.h).
   u32 is named for general.alignment, which must be one. */
enum { GT_U32 = 4, GT_STRING = 8, GT_ARRAY = 9 };

#define MAX_KEY_LEN (1u << 16)
#define MAX_NESTING 8

/* The dtype of GGUF value type t; -1 for a string, an array, or a type that no dtype has. */
static int gt_dtype(uint32_t t)
{
    for (int d = 0; d < TL_NDTYPES; d++)
        if (tl_dtypes[d].gguf >= 0 && (uint32_t)tl_dtypes[d].gguf == t) return d;
    return -1;
}

/* A type GGUF defines: a string, an array or a number. */
static bool gt_known(uint32_t t) { return t == GT_STRING || t == GT_ARRAY || gt_dtype(t) >= 0; }

/* ---- trees ------------------------------------------------------------------------- */

void tl_meta_clear(tl_meta *m)
{
    if (!m) return;
    free(m->str);
    if (m->array) tl_tensor_release(m->array);
    for (int64_t i = 0; m->items && i < m->n; i++) {
        tl_meta_clear(&m->items[i]);
        if (m->keys) free(m->keys[i]);
    }
    free(m->items);
    free(m->keys);
    free(m->keylens);
    memset(m, 0, sizeof *m);
    m->kind = TL_META_MAP;
}

void tl_meta_free(tl_meta *m)
{
    tl_meta_clear(m);
    free(m);
}

static char *dup_bytes(const void *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s) { tl_seterr(MemoryError, "out of memory"); return NULL; }
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* ---- parsing ------------------------------------------------------------------------ */

typedef struct {
    io_cur *c;
    const char *key;          /* current key, for messages */
    size_t keylen;
} kv_ctx;

static int kv_fail(kv_ctx *k, const char *msg, unsigned long long a, unsigned long long b)
{
    char q[96], m[200];
    snprintf(m, sizeof m, msg, a, b);
    return io_fail_path(k->c->path, "metadata %s: %s", io_quote(k->key, k->keylen, q, sizeof q), m);
}

static int read_string(kv_ctx *k, const uint8_t **p, uint64_t *len, const char *what)
{
    if (io_u64(k->c, len, what)) return -1;
    if (*len > k->c->size - k->c->pos)
        return kv_fail(k, "string of %llu bytes runs past the end (%llu remain)", *len, k->c->size - k->c->pos);
    *p = k->c->p + k->c->pos;
    k->c->pos += *len;
    return 0;
}

static uint64_t min_size(uint32_t type)
{
    if (type == GT_STRING) return 8;
    if (type == GT_ARRAY) return 12;
    return tl_dtype_size((tl_dtype)gt_dtype(type));
}

static int parse_value(kv_ctx *k, uint32_t type, tl_meta *out, int depth);

/* An array: numbers become one 1-d tensor; strings and nested arrays a list. */
static int parse_array(kv_ctx *k, tl_meta *out, int depth)
{
    uint32_t et;
    uint64_t n;
    if (io_u32(k->c, &et, "an array type") || io_u64(k->c, &n, "an array length")) return -1;
    if (!gt_known(et)) return kv_fail(k, "array of unknown type %llu", et, 0);
    if (et == GT_ARRAY && depth >= MAX_NESTING) return kv_fail(k, "arrays nested more than %llu deep", MAX_NESTING, 0);
    uint64_t left = k->c->size - k->c->pos;
    if (n > left / min_size(et))
        return kv_fail(k, "array of %llu elements cannot fit in the %llu bytes that remain", n, left);
    if (et != GT_STRING && et != GT_ARRAY) {
        tl_dtype dt = (tl_dtype)gt_dtype(et);
        const uint8_t *src = k->c->p + k->c->pos;
        k->c->pos += n * tl_dtype_size(dt);
        if (!out) return 0;
        int64_t shape[1] = { (int64_t)n };
        out->kind = TL_META_ARRAY;
        out->array = io_tensor_copy(src, dt, 1, shape, false, false);
        if (!out->array) return -1;
        if (dt == TL_BOOL)   /* GGUF says 0 or 1; treat any non-zero byte as true, as ggml does */
            for (uint64_t i = 0; i < n; i++) ((uint8_t *)out->array->storage->data)[i] = src[i] != 0;
        return 0;
    }
    if (out) {
        out->kind = TL_META_LIST;
        out->items = calloc(n ? n : 1, sizeof *out->items);
        if (!out->items) { tl_seterr(MemoryError, "out of memory"); return -1; }
    }
    for (uint64_t i = 0; i < n; i++) {
        if (parse_value(k, et, out ? &out->items[i] : NULL, depth + 1)) return -1;
        if (out) out->n = (int64_t)i + 1;
    }
    return 0;
}

static int parse_value(kv_ctx *k, uint32_t type, tl_meta *out, int depth)
{
    if (!gt_known(type)) return kv_fail(k, "unknown value type %llu", type, 0);
    if (type == GT_ARRAY) return parse_array(k, out, depth);
    if (type == GT_STRING) {
        const uint8_t *p = NULL;
        uint64_t len;
        if (read_string(k, &p, &len, "a string length")) return -1;
        if (!out) return 0;
        out->kind = TL_META_STR;
        out->len = len;
        return (out->str = dup_bytes(p, len)) ? 0 : -1;
    }
    tl_dtype dt = (tl_dtype)gt_dtype(type);
    if (io_need(k->c, tl_dtype_size(dt), "a value")) return -1;
    if (out) {
        out->kind = TL_META_NUM;
        out->dtype = dt;
        memcpy(&out->num, k->c->p + k->c->pos, tl_dtype_size(dt));
        if (dt == TL_BOOL) out->num.b = out->num.u8 != 0;
    }
    k->c->pos += tl_dtype_size(dt);
    return 0;
}

typedef struct { const uint8_t *p; uint64_t len; } key_ref;

static int cmp_key(const void *a, const void *b)
{
    const key_ref *x = a, *y = b;
    int c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

int io_kv_parse(io_cur *c, uint64_t count, tl_meta *out, uint32_t *alignment)
{
    kv_ctx k = { c, "", 0 };
    if (alignment) *alignment = 0;
    uint64_t left = c->size - c->pos;
    if (count > left / 13)   /* the smallest pair: 8-byte key length, 4-byte type, 1-byte value */
        return io_fail_path(c->path, "header claims %llu metadata entries but only %llu bytes remain",
                            (unsigned long long)count, (unsigned long long)left);
    key_ref *keys = malloc((count ? count : 1) * sizeof *keys);
    if (!keys) { tl_seterr(MemoryError, "out of memory"); return -1; }
    if (out) {
        tl_meta_clear(out);
        out->items = calloc(count ? count : 1, sizeof *out->items);
        out->keys = calloc(count ? count : 1, sizeof *out->keys);
        out->keylens = calloc(count ? count : 1, sizeof *out->keylens);
        if (!out->items || !out->keys || !out->keylens) { free(keys); tl_seterr(MemoryError, "out of memory"); return -1; }
    }
    int rc = 0;
    for (uint64_t i = 0; i < count && !rc; i++) {
        const uint8_t *kp = NULL;
        uint64_t klen;
        uint32_t type;
        k.key = "";
        k.keylen = 0;
        if ((rc = read_string(&k, &kp, &klen, "a key length"))) break;
        k.key = (const char *)kp;
        k.keylen = klen;
        if (klen == 0 || klen > MAX_KEY_LEN) { rc = kv_fail(&k, "key length %llu is invalid", klen, 0); break; }
        keys[i] = (key_ref){ kp, klen };
        if ((rc = io_u32(c, &type, "a value type"))) break;
        uint64_t at = c->pos;
        if (out) {
            if (!(out->keys[i] = dup_bytes(kp, klen))) { rc = -1; break; }
            out->keylens[i] = klen;
            out->n = (int64_t)i + 1;
        }
        if ((rc = parse_value(&k, type, out ? &out->items[i] : NULL, 0))) break;
        if (klen == 17 && memcmp(kp, "general.alignment", 17) == 0) {
            uint32_t a = type == GT_U32 ? io_le32(c->p + at) : 0;
            if (type != GT_U32 || a == 0 || (a & (a - 1)) != 0 || a > (1u << 30))
                rc = kv_fail(&k, "must be a u32 power of two (at most 2^30)", 0, 0);
            else if (alignment) *alignment = a;
        }
    }
    if (!rc && count > 1) {
        qsort(keys, count, sizeof *keys, cmp_key);
        for (uint64_t i = 1; i < count && !rc; i++)
            if (cmp_key(&keys[i - 1], &keys[i]) == 0) {
                k.key = (const char *)keys[i].p;
                k.keylen = keys[i].len;
                rc = kv_fail(&k, "appears twice", 0, 0);
            }
    }
    free(keys);
    return rc;
}

/* ---- tl's encoding: u64 count, then GGUF key/value pairs ------------------------------ */

tl_meta *tl_meta_decode(const void *blob, size_t len)
{
    io_cur c = { blob, 0, len, "metadata" };
    uint64_t count;
    tl_meta *m = calloc(1, sizeof *m);
    if (!m) { tl_seterr(MemoryError, "out of memory"); return NULL; }
    m->kind = TL_META_MAP;
    if (io_u64(&c, &count, "the entry count") || io_kv_parse(&c, count, m, NULL)) {
        tl_meta_free(m);
        return NULL;
    }
    return m;
}

typedef struct { uint8_t *p; size_t len, cap; } bytes;

static int grow(bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) { tl_seterr(MemoryError, "out of memory"); return -1; }
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, p, n);
    b->len += n;
    return 0;
}

static int put_u32(bytes *b, uint32_t v) { uint8_t x[4]; io_put32(x, v); return grow(b, x, 4); }
static int put_u64(bytes *b, uint64_t v) { uint8_t x[8]; io_put64(x, v); return grow(b, x, 8); }

static int type_of(const tl_meta *m)
{
    if (m->kind == TL_META_STR) return GT_STRING;
    if (m->kind == TL_META_LIST || m->kind == TL_META_ARRAY) return GT_ARRAY;
    if (m->kind == TL_META_NUM) return tl_dtypes[m->dtype].gguf;
    return -1;
}

static int encode_value(bytes *b, const tl_meta *m)
{
    switch (m->kind) {
    case TL_META_NUM: return grow(b, &m->num, tl_dtype_size(m->dtype));
    case TL_META_STR: return put_u64(b, m->len) || grow(b, m->str, m->len) ? -1 : 0;
    case TL_META_ARRAY: {
        tl_tensor *t = tl_contiguous(m->array);
        int et = t ? tl_dtypes[t->dtype].gguf : -1;
        int rc = et < 0 || put_u32(b, (uint32_t)et) || put_u64(b, (uint64_t)tl_tensor_size(t)) ||
                 grow(b, tl_tensor_data(t), (size_t)tl_tensor_size(t) * tl_dtype_size(t->dtype)) ? -1 : 0;
        if (t) tl_tensor_release(t);
        if (et < 0 && t) tl_seterr(TypeError, "metadata arrays cannot hold %s", tl_dtype_name(m->array->dtype));
        return rc;
    }
    case TL_META_LIST: {
        int et = m->n ? type_of(&m->items[0]) : GT_STRING;
        if (et != GT_STRING && et != GT_ARRAY) { tl_seterr(TypeError, "metadata lists hold strings or arrays"); return -1; }
        if (put_u32(b, (uint32_t)et) || put_u64(b, (uint64_t)m->n)) return -1;
        for (int64_t i = 0; i < m->n; i++) {
            if (type_of(&m->items[i]) != et) { tl_seterr(TypeError, "metadata list items must all be of one kind"); return -1; }
            if (encode_value(b, &m->items[i])) return -1;
        }
        return 0;
    }
    default: tl_seterr(TypeError, "metadata values cannot be nested dicts"); return -1;
    }
}

int tl_meta_encode(const tl_meta *map, uint8_t **out, size_t *len)
{
    bytes b = { 0 };
    int rc = map->kind == TL_META_MAP ? put_u64(&b, (uint64_t)map->n) : (tl_seterr(TypeError, "metadata must be a dict"), -1);
    for (int64_t i = 0; i < map->n && !rc; i++) {
        int t = type_of(&map->items[i]);
        if (t < 0) { tl_seterr(TypeError, "metadata values must be numbers, strings or arrays"); rc = -1; break; }
        rc = put_u64(&b, map->keylens[i]) || grow(&b, map->keys[i], map->keylens[i]) || put_u32(&b, (uint32_t)t) ||
             encode_value(&b, &map->items[i]) ? -1 : 0;
    }
    if (rc) { free(b.p); return -1; }
    *out = b.p ? b.p : malloc(1);
    *len = b.len;
    return *out ? 0 : (tl_seterr(MemoryError, "out of memory"), -1);
}
