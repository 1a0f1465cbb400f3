/* io/safetensors.c — .safetensors: the reference reader's checks, tensors mapped, writer in the reference layout */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "json.h"

#define ST_MAX_HEADER 100000000ull   /* the reference's MAX_HEADER_SIZE */

/* The reference's Dtype enum in declared order (writers sort by it, largest first); which
   dtype each is comes from the dtype list's ST column. */
static const char *const st_types[] = {
    "BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ",
    "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64",
};
#define N_ST_TYPES (int)(sizeof st_types / sizeof *st_types)

/* The dtype whose safetensors name is st_types[i], -1 when tl has none. */
static int st_dtype(int i)
{
    for (int d = 0; d < TL_NDTYPES; d++)
        if (tl_dtypes[d].safetensors && strcmp(tl_dtypes[d].safetensors, st_types[i]) == 0) return d;
    return -1;
}

/* dt's place in st_types, -1 when safetensors has no such dtype. */
static int st_rank(tl_dtype dt)
{
    const char *name = tl_dtypes[dt].safetensors;
    for (int i = 0; name && i < N_ST_TYPES; i++)
        if (strcmp(st_types[i], name) == 0) return i;
    return -1;
}

typedef struct {
    const char *name;        /* borrowed from the JSON tree */
    size_t len;
    tl_dtype dtype;
    int ndim;
    int64_t shape[TL_MAXDIM];
    uint64_t begin, end;
} st_entry;

/* ---- reading ------------------------------------------------------------------------- */

static const json *member(const json *obj, const char *key)
{
    for (int64_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0 && obj->keylens[i] == strlen(key)) return &obj->items[i];
    return NULL;
}

static int read_entry(io_src *s, const char *name, size_t len, const json *v, st_entry *e)
{
    char q[96];
    const char *qn = io_quote(name, len, q, sizeof q);
    e->name = name;
    e->len = len;
    if (v->kind != JSON_OBJ) return io_fail(s, "tensor %s: entry is not a JSON object", qn);
    const json *dt = member(v, "dtype"), *shape = member(v, "shape"), *offs = member(v, "data_offsets");
    if (!dt || !shape || !offs)
        return io_fail(s, "tensor %s: entry lacks '%s'", qn, !dt ? "dtype" : !shape ? "shape" : "data_offsets");
    if (dt->kind != JSON_STR) return io_fail(s, "tensor %s: dtype is not a string", qn);
    int found = -2;
    for (int i = 0; i < N_ST_TYPES; i++)
        if (strcmp(st_types[i], dt->s) == 0) found = st_dtype(i);
    char qd[64];
    if (found == -2) return io_fail(s, "tensor %s has unknown dtype %s", qn, io_quote(dt->s, dt->len, qd, sizeof qd));
    if (found == -1) return io_fail(s, "tensor %s has dtype %s, which tl does not support", qn, dt->s);
    e->dtype = (tl_dtype)found;
    if (shape->kind != JSON_ARR) return io_fail(s, "tensor %s: shape is not a list", qn);
    if (shape->n > TL_MAXDIM) return io_fail(s, "tensor %s has %lld dimensions (at most %d)", qn, (long long)shape->n, TL_MAXDIM);
    e->ndim = (int)shape->n;
    for (int i = 0; i < e->ndim; i++) {
        const json *d = &shape->items[i];
        if (d->kind == JSON_NUM && d->negative) return io_fail(s, "tensor %s has a negative dimension", qn);
        if (d->kind != JSON_NUM || !d->is_uint || d->u > (uint64_t)INT64_MAX)
            return io_fail(s, "tensor %s: shape must hold integers below 2^63", qn);
        e->shape[i] = (int64_t)d->u;
    }
    if (offs->kind != JSON_ARR || offs->n != 2 || offs->items[0].kind != JSON_NUM || offs->items[1].kind != JSON_NUM ||
        !offs->items[0].is_uint || !offs->items[1].is_uint)
        return io_fail(s, "tensor %s: data_offsets must be two non-negative integers", qn);
    e->begin = offs->items[0].u;
    e->end = offs->items[1].u;
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const st_entry *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

static int cmp_name(const void *a, const void *b)
{
    const st_entry *x = *(const st_entry *const *)a, *y = *(const st_entry *const *)b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The reference's rules: offsets tile the data buffer exactly (no gaps, overlaps or
   shared bytes), each range holds exactly its shape, and the buffer ends the file. */
static int check_layout(io_src *s, st_entry *es, int64_t n, uint64_t data_start)
{
    char q[96];
    qsort(es, (size_t)n, sizeof *es, cmp_range);
    uint64_t prev = 0;
    for (int64_t i = 0; i < n; i++) {
        st_entry *e = &es[i];
        const char *qn = io_quote(e->name, e->len, q, sizeof q);
        if (e->begin != prev || e->end < e->begin)
            return io_fail(s, "tensor %s has invalid data_offsets [%llu, %llu]: %s", qn, (unsigned long long)e->begin,
                           (unsigned long long)e->end,
                           e->end < e->begin ? "end before begin" : e->begin < prev ? "overlaps another tensor" : "leaves a gap");
        int64_t count;
        uint64_t nbytes;
        if (io_shape_bytes(e->ndim, e->shape, tl_dtype_size(e->dtype), &count, &nbytes))
            return io_fail(s, "tensor %s: %s", qn, tl_errmsg());
        if (e->end - e->begin != nbytes) {
            char shp[256];
            return io_fail(s, "tensor %s: shape %s of %s needs %llu bytes but data_offsets hold %llu", qn,
                           tl_shape_str(e->ndim, e->shape, shp, sizeof shp), tl_dtype_name(e->dtype),
                           (unsigned long long)nbytes, (unsigned long long)(e->end - e->begin));
        }
        prev = e->end;
    }
    uint64_t have = s->size - data_start;
    if (prev != have)
        return io_fail(s, "%s: the tensors account for %llu data bytes but the file holds %llu",
                       prev > have ? "truncated" : "data does not match the header", (unsigned long long)prev,
                       (unsigned long long)have);
    st_entry **byname = malloc((size_t)(n ? n : 1) * sizeof *byname);
    if (!byname) { tl_seterr(MemoryError, "out of memory"); return -1; }
    for (int64_t i = 0; i < n; i++) byname[i] = &es[i];
    qsort(byname, (size_t)n, sizeof *byname, cmp_name);
    int rc = 0;
    for (int64_t i = 1; i < n && !rc; i++)
        if (cmp_name(&byname[i - 1], &byname[i]) == 0)
            rc = io_fail(s, "tensor %s appears twice", io_quote(byname[i]->name, byname[i]->len, q, sizeof q));
    free(byname);
    return rc;
}

/* __metadata__: a JSON object of strings, kept as tl's metadata encoding. */
static int read_metadata(io_src *s, const json *v, tl_file *f)
{
    if (v->kind != JSON_OBJ) return io_fail(s, "__metadata__ is not a JSON object");
    tl_meta m = { .kind = TL_META_MAP, .n = v->n };
    m.items = calloc((size_t)(v->n ? v->n : 1), sizeof *m.items);
    if (!m.items) { tl_seterr(MemoryError, "out of memory"); return -1; }
    m.keys = v->keys;
    m.keylens = v->keylens;
    int rc = 0;
    for (int64_t i = 0; i < v->n && !rc; i++) {
        char q[96];
        if (v->items[i].kind != JSON_STR)
            rc = io_fail(s, "__metadata__ value for %s is not a string", io_quote(v->keys[i], v->keylens[i], q, sizeof q));
        m.items[i] = (tl_meta){ .kind = TL_META_STR, .str = v->items[i].s, .len = v->items[i].len };
    }
    if (!rc) rc = tl_meta_encode(&m, &f->meta, &f->meta_len);
    free(m.items);   /* strings and keys stay owned by the JSON tree */
    return rc;
}

/* Metadata: __metadata__, a MAP of STR (an empty MAP when absent). */
tl_file *io_safetensors_load(const char *path, bool meta_only)
{
    (void)meta_only;   /* the header is all that is read anyway: the tensors are mapped */
    io_src s;
    if (io_open(&s, path)) return NULL;
    json hdr = { 0 };
    st_entry *es = NULL;
    tl_file *f = NULL;
    if (s.size < 8) { io_fail(&s, "too small for a safetensors header (%llu bytes)", (unsigned long long)s.size); goto out; }
    uint64_t n = io_le64(s.base);
    if (n > ST_MAX_HEADER) { io_fail(&s, "header length %llu is too large (limit %llu)", (unsigned long long)n, ST_MAX_HEADER); goto out; }
    if (n > s.size - 8) {
        io_fail(&s, "header length %llu runs past the end of the file (%llu bytes)", (unsigned long long)n, (unsigned long long)s.size);
        goto out;
    }
    if (io_json_parse(path, (const char *)s.base + 8, n, &hdr)) goto out;
    if (hdr.kind != JSON_OBJ) { io_fail(&s, "header is not a JSON object"); goto out; }
    es = calloc((size_t)(hdr.n ? hdr.n : 1), sizeof *es);
    f = calloc(1, sizeof *f);
    if (!es || !f) { tl_seterr(MemoryError, "out of memory"); goto fail; }
    int64_t ne = 0;
    for (int64_t i = 0; i < hdr.n; i++) {
        if (strcmp(hdr.keys[i], "__metadata__") == 0 && hdr.keylens[i] == 12) {
            if (f->meta) { io_fail(&s, "__metadata__ appears twice"); goto fail; }
            if (read_metadata(&s, &hdr.items[i], f)) goto fail;
        } else if (read_entry(&s, hdr.keys[i], hdr.keylens[i], &hdr.items[i], &es[ne++])) {
            goto fail;
        }
    }
    if (!f->meta && tl_meta_encode(&(tl_meta){ .kind = TL_META_MAP }, &f->meta, &f->meta_len)) goto fail;
    if (check_layout(&s, es, ne, 8 + n)) goto fail;
    f->tensors = calloc((size_t)(ne ? ne : 1), sizeof *f->tensors);
    if (!f->tensors) { tl_seterr(MemoryError, "out of memory"); goto fail; }
    for (int64_t i = 0; i < ne; i++) {
        tl_named *t = &f->tensors[i];
        if (!(t->name = malloc(es[i].len + 1))) { tl_seterr(MemoryError, "out of memory"); goto fail; }
        memcpy(t->name, es[i].name, es[i].len + 1);
        t->len = es[i].len;
        f->n = i + 1;
        t->tensor = io_tensor_at(&s, 8 + n + es[i].begin, es[i].dtype, es[i].ndim, es[i].shape, false, false, t->name);
        if (!t->tensor) goto fail;
    }
    goto out;
fail:
    tl_file_free(f);
    f = NULL;
out:
    free(es);
    io_json_free(&hdr);
    io_close(&s);
    return f;
}

/* ---- writing ------------------------------------------------------------------------- */

typedef struct { char *p; size_t len, cap; bool oom; } text;

static void tput(text *t, const char *s, size_t n)
{
    if (t->oom) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p) { t->oom = true; return; }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static void tputs(text *t, const char *s) { tput(t, s, strlen(s)); }

/* A JSON string as serde_json writes it; false when s is not valid UTF-8. */
static bool tput_json_str(text *t, const char *s, size_t n)
{
    tputs(t, "\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                        : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
        char u[8];
        if (!esc && c < 0x20) {
            snprintf(u, sizeof u, "\\u%04x", c);
            esc = u;
        }
        if (esc) { tputs(t, esc); i++; continue; }
        size_t k = 1;
        if (c >= 0x80) {
            k = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
            if (k == 0 || i + k > n) return false;
            for (size_t j = 1; j < k; j++)
                if (((unsigned char)s[i + j] & 0xC0) != 0x80) return false;
        }
        tput(t, s + i, k);
        i += k;
    }
    tputs(t, "\"");
    return true;
}

typedef struct { const tl_named_in *in; int rank; } st_out;

/* Largest dtype first, then by name: the reference writer's order. */
static int cmp_out(const void *a, const void *b)
{
    const st_out *x = a, *y = b;
    if (x->rank != y->rank) return y->rank - x->rank;
    int c = memcmp(x->in->name, y->in->name, x->in->len < y->in->len ? x->in->len : y->in->len);
    return c ? c : (x->in->len > y->in->len) - (x->in->len < y->in->len);
}

static int build_header(const char *path, st_out *os, int64_t n, const tl_meta *metadata, text *h)
{
    char num[64];
    tputs(h, "{");
    bool first = true;
    if (metadata && metadata->n > 0) {
        tputs(h, "\"__metadata__\":{");
        for (int64_t i = 0; i < metadata->n; i++) {
            if (i) tputs(h, ",");
            const tl_meta *v = &metadata->items[i];
            if (v->kind != TL_META_STR) return io_fail_path(path, "__metadata__ values must be strings");
            if (!tput_json_str(h, metadata->keys[i], metadata->keylens[i]) || !(tputs(h, ":"), tput_json_str(h, v->str, v->len)))
                return io_fail_path(path, "__metadata__ text must be valid UTF-8");
        }
        tputs(h, "}");
        first = false;
    }
    uint64_t off = 0;
    for (int64_t i = 0; i < n; i++) {
        const tl_tensor *t = os[i].in->tensor;
        char q[96];
        if (!first) tputs(h, ",");
        first = false;
        if (!tput_json_str(h, os[i].in->name, os[i].in->len))
            return io_fail_path(path, "tensor name %s is not valid UTF-8", io_quote(os[i].in->name, os[i].in->len, q, sizeof q));
        tputs(h, ":{\"dtype\":\"");
        tputs(h, st_types[os[i].rank]);
        tputs(h, "\",\"shape\":[");
        for (int d = 0; d < t->ndim; d++) {
            snprintf(num, sizeof num, d ? ",%lld" : "%lld", (long long)t->shape[d]);
            tputs(h, num);
        }
        uint64_t nbytes = (uint64_t)tl_tensor_size(t) * tl_dtype_size(t->dtype);
        snprintf(num, sizeof num, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)off, (unsigned long long)(off + nbytes));
        tputs(h, num);
        off += nbytes;
    }
    tputs(h, "}");
    while (h->len % 8) tputs(h, " ");
    if (h->oom) { tl_seterr(MemoryError, "out of memory"); return -1; }
    if (h->len > ST_MAX_HEADER) return io_fail_path(path, "header of %zu bytes is too large (limit %llu)", h->len, ST_MAX_HEADER);
    return 0;
}

/* opts->metadata: a MAP of STR, or NULL. */
int io_safetensors_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    st_out *os = calloc((size_t)(n ? n : 1), sizeof *os);
    if (!os) { tl_seterr(MemoryError, "out of memory"); return -1; }
    for (int64_t i = 0; i < n; i++) {
        char q[96];
        os[i].in = &items[i];
        os[i].rank = st_rank(items[i].tensor->dtype);
        if (os[i].rank < 0) {
            free(os);
            return io_fail_path(path, "tensor %s is %s: safetensors has no such dtype (c64 is its only complex)",
                                io_quote(items[i].name, items[i].len, q, sizeof q), tl_dtype_name(items[i].tensor->dtype));
        }
        if (items[i].len == 12 && memcmp(items[i].name, "__metadata__", 12) == 0) {
            free(os);
            return io_fail_path(path, "'__metadata__' cannot name a tensor (pass metadata= instead)");
        }
    }
    qsort(os, (size_t)n, sizeof *os, cmp_out);
    text h = { 0 };
    io_writer w;
    int rc = build_header(path, os, n, opts->metadata, &h);
    if (rc || io_writer_open(&w, path)) {
        free(h.p);
        free(os);
        return -1;
    }
    uint8_t len8[8];
    io_put64(len8, h.len);
    rc = io_put(&w, len8, 8) || io_put(&w, h.p, h.len) ? -1 : 0;
    for (int64_t i = 0; i < n && !rc; i++) rc = io_tensor_bytes(os[i].in->tensor, io_emit_writer, &w);
    free(h.p);
    free(os);
    return io_writer_finish(&w, rc);
}
