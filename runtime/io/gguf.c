/* io/gguf.c — .gguf v2/v3 reader (infos checked against the file, data mapped or dequantized lazily) and v3 writer */
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

/* ---- writing ------------------------------------------------------------------------------ */

/* ggml's longest tensor name (GGML_MAX_NAME less its NUL): its reader refuses longer ones. */
#define GGML_MAX_NAME_LEN 63

/* One tensor of a save: its ggml type, where its data goes, and its blocks when it has them. */
typedef struct out_tensor {
    const tl_named_in *in;
    const tl_ggml_type *type;
    uint64_t nbytes, offset;
    const uint8_t *blocks;   /* quantized: the blocks to copy; NULL: the elements are streamed */
} out_tensor;

/* The ggml type of a plain dtype (its GGML column), NULL when GGUF has none. */
static const tl_ggml_type *plain_type(tl_dtype dt)
{
    return tl_dtypes[dt].ggml >= 0 ? tl_ggml_type_of(tl_dtypes[dt].ggml) : NULL;
}

/* Do the f32 values of t's touched chunks still equal its blocks? (A tensor held as blocks may
   have been written to once read.) */
static bool blocks_hold_values(const tl_tensor *t, const tl_ggml_type *q, const uint8_t *blocks)
{
    int64_t size = tl_tensor_size(t), step = 16384;
    float buf[1024];
    for (int64_t first = 0; first < size; first += step) {
        int64_t n = size - first < step ? size - first : step, lo = (t->offset + first) * 4;
        if (!tl_storage_touched(t->storage, lo, lo + n * 4)) continue;
        tl_storage_materialize(t->storage, lo, lo + n * 4);
        const float *have = (const float *)((const char *)t->storage->data + lo);
        for (int64_t k = 0; k < n; k += 1024) {
            int64_t m = n - k < 1024 ? n - k : 1024;   /* whole blocks: 1024 and the rows are */
            io_dequant(blocks, q->id, first + k, m, buf);
            if (memcmp(buf, have + k, (size_t)m * 4) != 0) return false;
        }
    }
    return true;
}

/* Fills o from a named tensor: its type and byte count, checked against what GGUF can hold. */
static int plan_tensor(const char *path, const tl_named_in *in, out_tensor *o)
{
    char q[96], shp[TL_MAXDIM * 22 + 8];
    const tl_tensor *t = in->tensor;
    const char *qn = io_quote(in->name, in->len, q, sizeof q);
    memset(o, 0, sizeof *o);
    o->in = in;
    if (in->len == 0 || in->len > GGML_MAX_NAME_LEN)
        return io_fail_path(path, "tensor name %s is %zu bytes: GGUF names hold 1 to %d", qn, in->len, GGML_MAX_NAME_LEN);
    if (t->ndim > GGUF_MAX_DIMS)
        return io_fail_path(path, "tensor %s has %d axes: GGUF holds at most %d", qn, t->ndim, GGUF_MAX_DIMS);
    const tl_ggml_type *g = tl_tensor_qtype(t);
    if (g) {
        const uint8_t *b;
        int type;
        tl_storage_quant(t->storage, &b, &type);
        if (!tl_is_contiguous(t) || t->offset % g->block || (t->ndim && t->shape[t->ndim - 1] % g->block))
            return io_fail_path(path, "tensor %s %s is a view of %s blocks that does not hold whole blocks in order "
                                "(save a copy as f32, or quantize it again)", qn,
                                tl_shape_str(t->ndim, t->shape, shp, sizeof shp), g->name);
        o->blocks = b + (size_t)(t->offset / g->block) * (size_t)g->bytes;
        if (!blocks_hold_values(t, g, o->blocks))
            return io_fail_path(path, "tensor %s was written to: its %s blocks no longer hold its values "
                                "(quantize it again, or save f32(x))", qn, g->name);
    } else if (!(g = plain_type(t->dtype)))
        return io_fail_path(path, "tensor %s is %s: GGUF holds f32 f16 bf16 f64 i8 i16 i32 i64 and ggml blocks", qn,
                            tl_dtype_name(t->dtype));
    o->type = g;
    o->nbytes = (uint64_t)(tl_tensor_size(t) / g->block) * (uint64_t)g->bytes;
    return 0;
}

/* The alignment a save uses: general.alignment when the metadata has it (a u32 power of two,
   as the reader requires), else ggml's 32. */
static int alignment_of(const char *path, const tl_meta *m, uint32_t *align)
{
    *align = GGUF_DEFAULT_ALIGNMENT;
    for (int64_t i = 0; m && i < m->n; i++) {
        if (m->keylens[i] != 17 || memcmp(m->keys[i], "general.alignment", 17) != 0) continue;
        const tl_meta *v = &m->items[i];
        uint32_t a = v->kind == TL_META_NUM && v->dtype == TL_U32 ? v->num.u32 : 0;
        if (a == 0 || (a & (a - 1)) != 0 || a > (1u << 30))
            return io_fail_path(path, "general.alignment must be a u32 power of two (at most 2^30)");
        *align = a;
    }
    return 0;
}

static int put_u32(io_writer *w, uint32_t v) { uint8_t b[4]; io_put32(b, v); return io_put(w, b, 4); }
static int put_u64(io_writer *w, uint64_t v) { uint8_t b[8]; io_put64(b, v); return io_put(w, b, 8); }

/* Zeros up to the next multiple of align. */
static int pad(io_writer *w, uint32_t align)
{
    static const uint8_t zeros[256];
    uint64_t n = (align - w->pos % align) % align;
    while (n > 0) {
        size_t k = n < sizeof zeros ? (size_t)n : sizeof zeros;
        if (io_put(w, zeros, k)) return -1;
        n -= k;
    }
    return 0;
}

/* The header: magic, version 3, counts, the metadata's key/values, the tensor infos (ggml's
   dims: the shape reversed), padding. */
static int write_header(io_writer *w, const uint8_t *kv, size_t kvlen, int64_t n, out_tensor *o, uint32_t align)
{
    if (io_put(w, "GGUF", 4) || put_u32(w, 3) || put_u64(w, (uint64_t)n) || io_put(w, kv, kvlen)) return -1;
    uint64_t off = 0;
    for (int64_t i = 0; i < n; i++) {
        const tl_tensor *t = o[i].in->tensor;
        o[i].offset = off;
        off += (o[i].nbytes + align - 1) / align * align;
        if (put_u64(w, o[i].in->len) || io_put(w, o[i].in->name, o[i].in->len) || put_u32(w, (uint32_t)t->ndim)) return -1;
        for (int k = t->ndim - 1; k >= 0; k--)
            if (put_u64(w, (uint64_t)t->shape[k])) return -1;
        if (put_u32(w, (uint32_t)o[i].type->id) || put_u64(w, o[i].offset)) return -1;
    }
    return pad(w, align);
}

/* The tensors' data, each padded to the alignment. */
static int write_data(io_writer *w, int64_t n, const out_tensor *o, uint32_t align)
{
    for (int64_t i = 0; i < n; i++) {
        int rc = o[i].blocks ? io_put(w, o[i].blocks, (size_t)o[i].nbytes)
                             : io_tensor_bytes(o[i].in->tensor, io_emit_writer, w);
        if (rc || pad(w, align) || tl_check_interrupt()) return -1;
    }
    return 0;
}

/* GGUF v3: tensors in their storage types (blocks byte for byte), the metadata as typed key/values. */
int io_gguf_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts)
{
    const tl_meta *m = opts->metadata;
    tl_meta empty = { .kind = TL_META_MAP };
    uint8_t *kv = NULL;
    size_t kvlen;
    uint32_t align;
    out_tensor *o = calloc((size_t)(n ? n : 1), sizeof *o);
    if (!o) { tl_seterr(MemoryError, "out of memory"); return -1; }
    int rc = alignment_of(path, m, &align);
    for (int64_t i = 0; i < n && !rc; i++) rc = plan_tensor(path, &items[i], &o[i]);
    if (!rc && tl_meta_encode(m ? m : &empty, &kv, &kvlen) < 0) rc = io_fail_path(path, "%s", tl_errmsg());
    if (rc) {
        free(o);
        return -1;
    }
    io_writer w;
    if (io_writer_open(&w, path)) {
        free(kv);
        free(o);
        return -1;
    }
    /* tl_meta_encode's count is GGUF's metadata count: the encoding is the header's tail */
    rc = write_header(&w, kv, kvlen, n, o, align);
    if (!rc) rc = write_data(&w, n, o, align);
    free(kv);
    free(o);
    return io_writer_finish(&w, rc);
}
