/* io/gguf.c — .gguf v2/v3 reader: header and tensor infos checked against the file, data mapped or dequantized lazily */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define GGUF_MAX_DIMS 4
#define GGUF_DEFAULT_ALIGNMENT 32
#define MAX_NAME_LEN 65535

/* ggml's name of a type ("Q4_K"): tl's in capitals. */
static const char *ggml_name(const tl_ggml_type *g, char *buf, size_t n)
{
    size_t i = 0;
    for (; g->name[i] && i + 1 < n; i++) buf[i] = (char)toupper((unsigned char)g->name[i]);
    buf[i] = '\0';
    return buf;
}

/* The types tl reads, for the message refusing another: "F32 F16 ... Q8_K". */
static const char *readable_names(char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int id = 0; id < TL_GGML_NIDS && o < n; id++) {
        const tl_ggml_type *g = tl_ggml_type_of(id);
        char up[16];
        if (g && (tl_ggml_dtype(g) >= 0 || g->dequant)) o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", ggml_name(g, up, sizeof up));
    }
    return buf;
}


typedef struct {
    const char *name;        /* into the file mapping (not NUL-terminated) */
    uint64_t len;
    int ndim;
    int64_t shape[GGUF_MAX_DIMS];   /* row-major: ggml's ne reversed */
    uint32_t type;
    uint64_t offset, nbytes;
} tinfo;

typedef struct {
    uint32_t version;
    uint64_t n_tensors, n_kv;
    uint64_t kv_start, kv_end;
    uint32_t alignment;
    uint64_t data_start;
    tinfo *infos;
} gguf_header;

static int read_prologue(io_src *s, io_cur *c, gguf_header *g)
{
    if (s->size < 4 || memcmp(s->base, "GGUF", 4) != 0) return io_fail(s, "not a GGUF file (bad magic)");
    c->pos = 4;
    if (io_u32(c, &g->version, "the version")) return -1;
    if (g->version != 0 && (g->version & 0xFFFF) == 0) return io_fail(s, "big-endian GGUF files are not supported");
    if (g->version == 1) return io_fail(s, "GGUF version 1 is not supported (use version 2 or 3)");
    if (g->version == 0 || g->version > 3) return io_fail(s, "unknown GGUF version %u (tl reads 2 and 3)", g->version);
    if (io_u64(c, &g->n_tensors, "the tensor count") || io_u64(c, &g->n_kv, "the metadata count")) return -1;
    g->kv_start = c->pos;
    if (io_kv_parse(c, g->n_kv, NULL, &g->alignment)) return -1;
    g->kv_end = c->pos;
    if (!g->alignment) g->alignment = GGUF_DEFAULT_ALIGNMENT;
    return 0;
}

static int read_info(io_src *s, io_cur *c, tinfo *t)
{
    char q[96];
    if (io_u64(c, &t->len, "a tensor name length")) return -1;
    if (t->len == 0 || t->len > MAX_NAME_LEN) return io_fail(s, "tensor name length %llu is invalid", (unsigned long long)t->len);
    if (io_need(c, t->len, "a tensor name")) return -1;
    t->name = (const char *)c->p + c->pos;
    c->pos += t->len;
    const char *qn = io_quote(t->name, t->len, q, sizeof q);
    uint32_t nd;
    if (io_u32(c, &nd, "a dimension count")) return -1;
    if (nd > GGUF_MAX_DIMS) return io_fail(s, "tensor %s has %u dimensions (GGUF allows at most %d)", qn, nd, GGUF_MAX_DIMS);
    t->ndim = (int)nd;
    uint64_t ne[GGUF_MAX_DIMS] = { 1, 1, 1, 1 };
    for (uint32_t i = 0; i < nd; i++) {
        if (io_u64(c, &ne[i], "a dimension")) return -1;
        if (ne[i] > (uint64_t)INT64_MAX) return io_fail(s, "tensor %s has a negative dimension", qn);
        t->shape[nd - 1 - i] = (int64_t)ne[i];
    }
    if (io_u32(c, &t->type, "a tensor type") || io_u64(c, &t->offset, "a tensor offset")) return -1;
    const tl_ggml_type *gt = tl_ggml_type_of(t->type);
    char up[16], names[256];
    if (!gt) return io_fail(s, "tensor %s has unknown ggml type %u", qn, t->type);
    if (tl_ggml_dtype(gt) < 0 && !gt->dequant)
        return io_fail(s, "tensor %s has type %s, which tl cannot dequantize (it reads %s)", qn, ggml_name(gt, up, sizeof up),
                       readable_names(names, sizeof names));
    if (ne[0] % (uint64_t)gt->block != 0)
        return io_fail(s, "tensor %s: row length %llu is not a multiple of the %s block size %d", qn,
                       (unsigned long long)ne[0], ggml_name(gt, up, sizeof up), gt->block);
    int64_t count;
    if (tl_shape_size(t->ndim, t->shape, &count)) return io_fail(s, "tensor %s: %s", qn, tl_errmsg());
    if (__builtin_mul_overflow((uint64_t)count / (uint64_t)gt->block, (uint64_t)gt->bytes, &t->nbytes))
        return io_fail(s, "tensor %s is too big", qn);
    return 0;
}

static int cmp_offset(const void *a, const void *b)
{
    const tinfo *x = *(const tinfo *const *)a, *y = *(const tinfo *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_name(const void *a, const void *b)
{
    const tinfo *x = *(const tinfo *const *)a, *y = *(const tinfo *const *)b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Offsets aligned, data inside the file, no two tensors sharing bytes, names unique. */
static int check_layout(io_src *s, gguf_header *g)
{
    char q[96], q2[96];
    uint64_t room = s->size >= g->data_start ? s->size - g->data_start : 0;
    for (uint64_t i = 0; i < g->n_tensors; i++) {
        tinfo *t = &g->infos[i];
        const char *qn = io_quote(t->name, t->len, q, sizeof q);
        if (t->offset % g->alignment)
            return io_fail(s, "tensor %s: data offset %llu is not a multiple of the alignment %u", qn,
                           (unsigned long long)t->offset, g->alignment);
        if (t->nbytes && (t->offset > room || t->nbytes > room - t->offset))
            return io_fail(s, "truncated: tensor %s needs %llu bytes at data offset %llu, the data section holds %llu", qn,
                           (unsigned long long)t->nbytes, (unsigned long long)t->offset, (unsigned long long)room);
    }
    tinfo **order = malloc((size_t)(g->n_tensors ? g->n_tensors : 1) * sizeof *order);
    if (!order) { tl_seterr(MemoryError, "out of memory"); return -1; }
    for (uint64_t i = 0; i < g->n_tensors; i++) order[i] = &g->infos[i];
    int rc = 0;
    qsort(order, (size_t)g->n_tensors, sizeof *order, cmp_offset);
    uint64_t prev_end = 0;
    const tinfo *prev = NULL;
    for (uint64_t i = 0; i < g->n_tensors && !rc; i++) {
        const tinfo *t = order[i];
        if (t->nbytes == 0) continue;
        if (prev && t->offset < prev_end)
            rc = io_fail(s, "tensors %s and %s overlap", io_quote(prev->name, prev->len, q, sizeof q),
                         io_quote(t->name, t->len, q2, sizeof q2));
        prev = t;
        prev_end = t->offset + t->nbytes;
    }
    qsort(order, (size_t)g->n_tensors, sizeof *order, cmp_name);
    for (uint64_t i = 1; i < g->n_tensors && !rc; i++)
        if (cmp_name(&order[i - 1], &order[i]) == 0)
            rc = io_fail(s, "tensor %s appears twice", io_quote(order[i]->name, order[i]->len, q, sizeof q));
    free(order);
    return rc;
}

static int read_header(io_src *s, gguf_header *g)
{
    io_cur c = { s->base, 0, s->size, s->path };
    memset(g, 0, sizeof *g);
    if (read_prologue(s, &c, g)) return -1;
    uint64_t left = c.size - c.pos;
    if (g->n_tensors > left / 24)   /* the smallest tensor info is 24 bytes */
        return io_fail(s, "header claims %llu tensors but only %llu bytes remain", (unsigned long long)g->n_tensors,
                       (unsigned long long)left);
    g->infos = calloc((size_t)(g->n_tensors ? g->n_tensors : 1), sizeof *g->infos);
    if (!g->infos) { tl_seterr(MemoryError, "out of memory"); return -1; }
    for (uint64_t i = 0; i < g->n_tensors; i++)
        if (read_info(s, &c, &g->infos[i])) return -1;
    g->data_start = (c.pos + g->alignment - 1) / g->alignment * g->alignment;
    return check_layout(s, g);
}

/* The metadata block: u64 count, then the file's key/value bytes as they are. */
static int copy_meta(const io_src *s, const gguf_header *g, uint8_t **out, size_t *len)
{
    *len = 8 + (size_t)(g->kv_end - g->kv_start);
    *out = malloc(*len);
    if (!*out) { tl_seterr(MemoryError, "out of memory"); return -1; }
    io_put64(*out, g->n_kv);
    memcpy(*out + 8, s->base + g->kv_start, *len - 8);
    return 0;
}

/* A plain tensor over the file's bytes; a quantized one over its blocks, mapped (read when touched). */
static tl_tensor *load_tensor(io_src *s, const gguf_header *g, const tinfo *t, const char *name)
{
    const tl_ggml_type *gt = tl_ggml_type_of(t->type);
    uint64_t at = g->data_start + t->offset;
    int dt = tl_ggml_dtype(gt);
    if (dt >= 0) return io_tensor_at(s, at, (tl_dtype)dt, t->ndim, t->shape, false, false, name);
    int64_t nbytes = (int64_t)t->nbytes;
    tl_tensor *bytes = io_tensor_at(s, at, TL_U8, 1, &nbytes, false, false, name);
    if (!bytes) return NULL;
    tl_storage *holder = bytes->storage;
    const uint8_t *src = (const uint8_t *)holder->data + bytes->offset;
    tl_storage_retain(holder);
    tl_tensor_release(bytes);
    char sname[64];
    io_storage_name(sname, sizeof sname, s->path, name);
    return io_quant_tensor(holder, src, (int)t->type, t->ndim, t->shape, sname);
}

/* Only the header's metadata, not the tensor infos: so meta() works on files whose tensors tl cannot load. */
static tl_file *load_meta(const char *path)
{
    io_src s;
    if (io_open(&s, path)) return NULL;
    gguf_header g;
    io_cur c = { s.base, 0, s.size, s.path };
    memset(&g, 0, sizeof g);
    uint8_t *meta = NULL;
    size_t len = 0;
    int rc = read_prologue(&s, &c, &g);
    if (!rc) rc = copy_meta(&s, &g, &meta, &len);
    io_close(&s);
    if (rc) return NULL;
    tl_file *f = calloc(1, sizeof *f);
    if (!f) {
        free(meta);
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    f->meta = meta;
    f->meta_len = len;
    return f;
}

/* GGUF v2/v3, read only: ggml dims reversed into row-major shapes; quantized tensors load as f32,
   dequantized block-wise when first touched. */
tl_file *io_gguf_load(const char *path, bool meta_only)
{
    if (meta_only) return load_meta(path);
    io_src s;
    if (io_open(&s, path)) return NULL;
    gguf_header g;
    tl_file *f = NULL;
    if (read_header(&s, &g)) goto out;
    f = calloc(1, sizeof *f);
    if (f) f->tensors = calloc((size_t)(g.n_tensors ? g.n_tensors : 1), sizeof *f->tensors);
    if (!f || !f->tensors) { tl_seterr(MemoryError, "out of memory"); goto fail; }
    if (copy_meta(&s, &g, &f->meta, &f->meta_len)) goto fail;
    for (uint64_t i = 0; i < g.n_tensors; i++) {
        tl_named *n = &f->tensors[i];
        if (!(n->name = malloc(g.infos[i].len + 1))) { tl_seterr(MemoryError, "out of memory"); goto fail; }
        memcpy(n->name, g.infos[i].name, g.infos[i].len);
        n->name[g.infos[i].len] = '\0';
        n->len = g.infos[i].len;
        f->n = (int64_t)i + 1;
        if (!(n->tensor = load_tensor(&s, &g, &g.infos[i], n->name))) goto fail;
    }
    goto out;
fail:
    tl_file_free(f);
    f = NULL;
out:
    free(g.infos);
    io_close(&s);
    return f;
}
