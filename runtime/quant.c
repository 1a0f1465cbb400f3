/* quant.c — ggml's types as one table (from ggml_list.h), tensors held as blocks: quantize(), their block fields, memory figures */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/internal.h"
#include "kernels/kern.h"
#include "quant.h"
#include "stream.h"

/* ---- the table ------------------------------------------------------------------ */

#define TYPE_DEQ_DQ(S) io_dequant_##S
#define TYPE_DEQ_NODQ(S) NULL
#define TYPE_Q_Q(S) io_quantize_##S
#define TYPE_Q_NOQ(S) NULL
#define TL_QF(NAME, DT, OFF, N) { #NAME, TL_##DT, OFF, N }
#define TYPE_NFIELDS_(...) (int)(sizeof((tl_qfield[]){ { 0 }, __VA_ARGS__ }) / sizeof(tl_qfield) - 1)
#define TYPE_ROW_(arg, S, ID, BLOCK, BYTES, DEQ, QUANT, ...)                                               \
    [ID] = { #S, ID, BLOCK, BYTES, TYPE_DEQ_##DEQ(S), TYPE_Q_##QUANT(S),                                  \
             TYPE_NFIELDS_(__VA_ARGS__), { __VA_ARGS__ } },

static const tl_ggml_type types[TL_GGML_NIDS] = { TL_GGML_LIST(TYPE_ROW_, _) };

const tl_ggml_type *tl_ggml_type_of(int64_t id)
{
    return id >= 0 && id < TL_GGML_NIDS && types[id].name ? &types[id] : NULL;
}

int tl_ggml_dtype(const tl_ggml_type *g)
{
    for (int d = 0; d < TL_NDTYPES; d++)
        if (tl_dtypes[d].ggml == g->id) return d;
    return -1;
}

const tl_ggml_type *tl_ggml_type_named(const char *name)
{
    for (int id = 0; id < TL_GGML_NIDS; id++)
        if (types[id].name && types[id].block > 1 && strcasecmp(types[id].name, name) == 0) return &types[id];
    return NULL;
}

const char *tl_quantize_names(char *buf, size_t n)
{
    int total = 0, k = 0;
    size_t o = 0;
    for (int id = 0; id < TL_GGML_NIDS; id++) total += types[id].quantize != NULL;
    buf[0] = '\0';
    for (int id = 0; id < TL_GGML_NIDS && o < n; id++) {
        if (!types[id].quantize) continue;
        const char *sep = k == 0 ? "" : k + 1 == total ? " or " : ", ";
        int w = snprintf(buf + o, n - o, "%s%s", sep, types[id].name);
        o += w > 0 ? (size_t)w : 0;
        k++;
    }
    return buf;
}

const tl_ggml_type *tl_tensor_qtype(const tl_tensor *t)
{
    const uint8_t *blocks;
    int type;
    return tl_storage_quant(t->storage, &blocks, &type) ? tl_ggml_type_of(type) : NULL;
}

const char *tl_tensor_type_name(const tl_tensor *t)
{
    const tl_ggml_type *q = tl_tensor_qtype(t);
    return q ? q->name : tl_dtype_name(t->dtype);
}

/* ---- quantize ---------------------------------------------------------------------- */

/* A quantize() in progress: rows of blocks shared among tasks. */
typedef struct quant_job {
    tl_stream in;
    const tl_ggml_type *q;
    uint8_t *out;
    int64_t nblocks, blocks_per_task;
    _Atomic int64_t bad;       /* 1 + the index of a non-finite element found, or 0 */
} quant_job;

/* Whether n floats are all finite: none has every exponent bit set (an integer test, vectorized). */
static bool all_finite(const float *x, int64_t n)
{
    uint32_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, x + i, 4);
        bad |= (u & 0x7f800000u) == 0x7f800000u;
    }
    return !bad;
}

/* Quantizes the blocks of one task, reading its elements a chunk at a time. */
static int quant_task(void *ctx, int64_t task)
{
    quant_job *j = ctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t b0 = task * j->blocks_per_task, b1 = b0 + j->blocks_per_task < j->nblocks ? b0 + j->blocks_per_task : j->nblocks;
    int64_t bs = j->q->block, per_chunk = TL_STREAM_CHUNK / bs;
    float *buf = malloc(TL_STREAM_CHUNK * sizeof *buf);
    if (!buf) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t b = b0; b < b1; b += per_chunk) {
        int64_t nb = b1 - b < per_chunk ? b1 - b : per_chunk;
        const float *x = tl_stream_read(&j->in, b * bs, nb * bs, buf);
        if (!all_finite(x, nb * bs)) {
            for (int64_t i = 0; i < nb * bs; i++)
                if (!isfinite(x[i])) {
                    int64_t expect = 0;
                    atomic_compare_exchange_strong(&j->bad, &expect, b * bs + i + 1);
                    break;
                }
            break;
        }
        for (int64_t k = 0; k < nb; k++) j->q->quantize(x + k * bs, j->out + (size_t)(b + k) * (size_t)j->q->bytes);
    }
    free(buf);
    return 0;
}

/* Reports the non-finite element at flat index i of x. */
static void nonfinite_error(const tl_tensor *x, int64_t i)
{
    char where[TL_MAXDIM * 22 + 8];
    int64_t idx[TL_MAXDIM];
    for (int k = x->ndim - 1; k >= 0; k--) {
        idx[k] = i % x->shape[k];
        i /= x->shape[k];
    }
    tl_shape_str(x->ndim, idx, where, sizeof where);
    tl_seterr(ValueError, "x holds a nan or inf at %s: ggml's blocks hold finite values only", where);
}

tl_tensor *tl_quantize(const tl_tensor *x, const tl_ggml_type *q)
{
    char shp[TL_MAXDIM * 22 + 8];
    if (!q->quantize) {
        char names[200];
        tl_seterr(ValueError, "cannot quantize to %s (types: %s)", q->name, tl_quantize_names(names, sizeof names));
        return NULL;
    }
    int64_t k = x->ndim ? x->shape[x->ndim - 1] : 1;
    if (x->ndim == 0 || k % q->block != 0) {
        tl_seterr(ValueError, "%s blocks hold %d elements: the last axis of x %s must be a multiple of %d", q->name,
                  q->block, tl_shape_str(x->ndim, x->shape, shp, sizeof shp), q->block);
        return NULL;
    }
    quant_job j = { .q = q };
    if (tl_stream_init(&j.in, x, false) < 0) return NULL;
    j.nblocks = j.in.size / q->block;
    if (j.in.wide) {   /* f64 and wide integers: converted to f32 first, as ggml's callers do */
        tl_tensor *x32 = tl_cast(x, TL_F32);
        tl_tensor *r = x32 ? tl_quantize(x32, q) : NULL;
        if (x32) tl_tensor_release(x32);
        return r;
    }
    uint64_t nbytes;
    if (__builtin_mul_overflow((uint64_t)j.nblocks, (uint64_t)q->bytes, &nbytes)) {
        tl_seterr(MemoryError, "%s blocks of %s are too large", q->name, tl_shape_str(x->ndim, x->shape, shp, sizeof shp));
        return NULL;
    }
    tl_storage *holder = tl_storage_new(nbytes ? (size_t)nbytes : 1, false);
    if (!holder) return NULL;
    j.out = holder->data;
    /* tasks of about a chunk's blocks of work each (K types' blocks cost 100 times a Q8_0's) */
    j.blocks_per_task = (q->block == 32 ? 8 : 1) * (TL_STREAM_CHUNK / q->block);
    int64_t ntasks = (j.nblocks + j.blocks_per_task - 1) / j.blocks_per_task;
    if (ntasks > 0 && tl_parallel_for(ntasks, quant_task, &j) < 0) {
        tl_storage_release(holder);
        return NULL;
    }
    if (j.bad) {
        nonfinite_error(x, j.bad - 1);
        tl_storage_release(holder);
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof name, "quantize(%s)", q->name);
    return io_quant_tensor(holder, holder->data, q->id, x->ndim, x->shape, name);
}

/* ---- block fields ---------------------------------------------------------------- */

int tl_qblocks(const tl_tensor *t, tl_tensor **views)
{
    const tl_ggml_type *q = tl_tensor_qtype(t);
    const uint8_t *blocks;
    int type;
    if (!q || !tl_storage_quant(t->storage, &blocks, &type)) {
        tl_seterr(TypeError, "x is not held as ggml blocks (a quantized GGUF tensor or a quantize() result)");
        return -1;
    }
    int64_t whole[TL_MAXDIM];
    tl_contiguous_strides(t->ndim, t->shape, whole);
    bool same = t->offset == 0 && (int64_t)t->storage->nbytes == tl_tensor_size(t) * 4;
    for (int k = 0; k < t->ndim && same; k++) same = t->shape[k] == 1 || t->strides[k] == whole[k];
    if (!same) {
        tl_seterr(ValueError, "blocks() views the blocks of a whole quantized tensor, not of a view of one");
        return -1;
    }
    tl_storage *holder = tl_storage_quant_holder(t->storage);
    int64_t base = (const uint8_t *)blocks - (const uint8_t *)holder->data;
    int nd = t->ndim;
    for (int f = 0; f < q->nfields; f++) {
        const tl_qfield *fl = &q->fields[f];
        int64_t es = (int64_t)tl_dtype_size(fl->dtype), shape[TL_MAXDIM + 1], strides[TL_MAXDIM + 1];
        memcpy(shape, t->shape, (size_t)nd * sizeof *shape);
        shape[nd - 1] /= q->block;
        int vnd = nd + (fl->count > 1);
        if (fl->count > 1) shape[nd] = fl->count;
        if (((uintptr_t)holder->data + (uintptr_t)(base + fl->offset)) % (uintptr_t)es != 0) {
            tl_seterr(ValueError, "the blocks lie at an address their %s field cannot be viewed at (the file's alignment is under %d)",
                      fl->name, (int)es);
            views[f] = NULL;
            for (int g = 0; g < f; g++) tl_tensor_release(views[g]);
            return -1;
        }
        int64_t stride = q->bytes / es;   /* every field's offset and the block size are multiples of its size */
        strides[vnd - 1] = fl->count > 1 ? 1 : stride;
        for (int k = nd - 1; k >= 0; k--) strides[k] = k == nd - 1 ? stride : strides[k + 1] * shape[k + 1];
        if (vnd > TL_MAXDIM) {
            tl_seterr(ValueError, "x has too many axes for a view of its block fields");
            views[f] = NULL;
        } else
            views[f] = tl_tensor_view_of(holder, fl->dtype, vnd, shape, strides, (base + fl->offset) / es);
        if (!views[f]) {
            for (int g = 0; g < f; g++) tl_tensor_release(views[g]);
            return -1;
        }
        views[f]->readonly = true;
    }
    return 0;
}

/* ---- memory figures --------------------------------------------------------------- */

/* Bytes of [p, p + n) present in memory (the pages mincore finds). */
static uint64_t resident_bytes(const void *p, size_t n)
{
    if (n == 0) return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p / page * page, b = ((uintptr_t)p + n + page - 1) / page * page;
    size_t pages = (b - a) / page;
    unsigned char vec[4096];
    uint64_t count = 0;
    for (size_t i = 0; i < pages; i += sizeof vec) {
        size_t m = pages - i < sizeof vec ? pages - i : sizeof vec;
        if (mincore((void *)(a + i * page), m * page, vec) != 0) return 0;
        for (size_t k = 0; k < m; k++) count += vec[k] & 1;
    }
    uint64_t r = (uint64_t)count * page;
    return r < n ? r : n;
}

/* The bytes of a storage that is not lazy: all of it for the heap, the pages present for a mapping. */
static void storage_footprint(const tl_storage *s, tl_footprint *f)
{
    f->mapped += s->kind == TL_STORAGE_MAPPED ? s->nbytes : 0;
    f->resident += s->kind == TL_STORAGE_MAPPED ? resident_bytes(s->data, s->nbytes) : s->nbytes;
}

void tl_tensor_footprint(const tl_tensor *t, tl_footprint *f)
{
    memset(f, 0, sizeof *f);
    const tl_ggml_type *q = tl_tensor_qtype(t);
    if (q) {
        /* the blocks' bytes per element times the elements, rounded up (a view may hold part of a block) */
        uint64_t n = (uint64_t)tl_tensor_size(t), whole = n / (uint64_t)q->block, part = n % (uint64_t)q->block;
        f->stored = whole * (uint64_t)q->bytes + (part * (uint64_t)q->bytes + (uint64_t)q->block - 1) / (uint64_t)q->block;
        storage_footprint(tl_storage_quant_holder(t->storage), f);
        f->resident += tl_storage_materialized_bytes(t->storage);
        return;
    }
    f->stored = (uint64_t)tl_tensor_size(t) * tl_dtype_size(t->dtype);
    if (t->storage->kind == TL_STORAGE_LAZY) f->resident = tl_storage_materialized_bytes(t->storage);
    else storage_footprint(t->storage, f);
}
