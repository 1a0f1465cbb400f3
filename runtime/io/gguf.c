/* io/gguf.c — .gguf v2/v3 reader: header and tensor infos checked against the file, data mapped or dequantized lazily */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define GGUF_MAX_DIMS 4
#define GGUF_DEFAULT_ALIGNMENT 32
#define MAX_NAME_LEN 65535

typedef struct { const char *name; int block, bytes; } ggml_type;

/* ggml's type ids (include/ggml.h). Those of a dtype are its GGML column in the dtype list (ggml_dtype);
   the others are quantized, dequantized to f32 if io_can_dequant. */
static const ggml_type ggml_types[] = {
    [0] = { "F32", 1, 4 }, [1] = { "F16", 1, 2 }, [2] = { "Q4_0", 32, 18 },
    [3] = { "Q4_1", 32, 20 }, [6] = { "Q5_0", 32, 22 }, [7] = { "Q5_1", 32, 24 },
    [8] = { "Q8_0", 32, 34 }, [9] = { "Q8_1", 32, 36 }, [10] = { "Q2_K", 256, 84 },
    [11] = { "Q3_K", 256, 110 }, [12] = { "Q4_K", 256, 144 }, [13] = { "Q5_K", 256, 176 },
    [14] = { "Q6_K", 256, 210 }, [15] = { "Q8_K", 256, 292 }, [16] = { "IQ2_XXS", 256, 66 },
    [17] = { "IQ2_XS", 256, 74 }, [18] = { "IQ3_XXS", 256, 98 }, [19] = { "IQ1_S", 256, 50 },
    [20] = { "IQ4_NL", 32, 18 }, [21] = { "IQ3_S", 256, 110 }, [22] = { "IQ2_S", 256, 82 },
    [23] = { "IQ4_XS", 256, 136 }, [24] = { "I8", 1, 1 }, [25] = { "I16", 1, 2 },
    [26] = { "I32", 1, 4 }, [27] = { "I64", 1, 8 }, [28] = { "F64", 1, 8 },
    [29] = { "IQ1_M", 256, 56 }, [30] = { "BF16", 1, 2 }, [34] = { "TQ1_0", 256, 54 },
    [35] = { "TQ2_0", 256, 66 }, [39] = { "MXFP4", 32, 17 }, [40] = { "NVFP4", 64, 36 },
    [41] = { "Q1_0", 128, 18 }, [42] = { "Q2_0", 64, 18 },
};
#define N_GGML_TYPES (uint32_t)(sizeof ggml_types / sizeof *ggml_types)

/* The dtype stored as ggml type t, -1 for a quantized type. */
static int ggml_dtype(uint32_t t)
{
    for (int d = 0; d < TL_NDTYPES; d++)
        if (tl_dtypes[d].ggml >= 0 && (uint32_t)tl_dtypes[d].ggml == t) return d;
    return -1;
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
    if (t->type >= N_GGML_TYPES || !ggml_types[t->type].name)
        return io_fail(s, "tensor %s has unknown ggml type %u", qn, t->type);
    const ggml_type *gt = &ggml_types[t->type];
    if (ggml_dtype(t->type) < 0 && !io_can_dequant((int)t->type))
        return io_fail(s, "tensor %s has type %s, which tl cannot dequantize (it reads F32 F16 BF16 F64 I8-I64, "
                          "Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q2_K Q3_K Q4_K Q5_K Q6_K Q8_K)", qn, gt->name);
    if (ne[0] % (uint64_t)gt->block != 0)
        return io_fail(s, "tensor %s: row length %llu is not a multiple of the %s block size %d", qn,
                       (unsigned long long)ne[0], gt->name, gt->block);
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

static tl_tensor *load_tensor(io_src *s, const gguf_header *g, const tinfo *t, const char *name)
{
    uint64_t at = g->data_start + t->offset;
    int dt = ggml_dtype(t->type);
    if (dt >= 0) return io_tensor_at(s, at, (tl_dtype)dt, t->ndim, t->shape, false, false, name);
    char sname[64];
    io_storage_name(sname, sizeof sname, s->path, name);
    return io_lazy_tensor(s, at, t->nbytes, (int)t->type, io_dequant, t->ndim, t->shape, sname);
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
