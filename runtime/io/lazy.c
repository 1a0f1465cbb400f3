/* io/lazy.c — tensors held as ggml blocks: f32 over lazy storage, each 4 KiB chunk dequantized before its first access */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* A quantized GGUF tensor, or a quantize() result, is an f32 tensor over a lazy storage
   (tensor.c): untouched chunks cost no memory, and the runtime computes the chunks a tensor
   view covers before anything reads or writes them. The storage holds a reference to the
   storage of the blocks (a private mapping of the file's bytes, or quantize()'s heap blocks),
   so the tensor outlives the loaded file's mapping. */

/* Bytes of f32 a chunk holds: whole blocks of every type, and one page, so that a row lookup (an
   embedding) computes little and touches one or two fresh pages, each a fault (about 11 us on the
   VM we measure on): a new row of a 288-column Q8_0 embedding took 217 us in 64 KiB chunks, 16
   pages, and takes about 33 us. tl_storage_materialize fills a run of chunks in one call. */
#define CHUNK ((size_t)1 << 12)

/* What a lazy storage needs to compute its chunks. */
typedef struct quant_source {
    tl_storage *holder;                  /* the storage the blocks lie in (a reference) */
    const uint8_t *src;                  /* the tensor's first block, inside holder */
    int type;
} quant_source;

/* Computes f32 bytes [lo, lo + n) of the tensor (a chunk or a run of them), then, when the
   blocks are a file's mapping, unmaps the file pages it read from this process. A lookup (an
   embedding's row) reads a few KiB, but the system may map a whole large page-cache folio of
   the file for it: llama.tl's Q8_0 decode had 24 of the file's 26 MB resident for 16 MB of
   matrices read. The pages stay in the page cache; a product that reads them later maps them
   again. (Unmapping after each chunk of a run made the next chunk fault the same page again:
   summing a Q8_0 embedding took 272 ms so, 135 ms a run at a time.) */
static void fill_chunk(void *ctx, size_t lo, size_t n, void *dst)
{
    const quant_source *q = ctx;
    int64_t first = (int64_t)(lo / sizeof(float)), count = (int64_t)(n / sizeof(float)), bs;
    size_t bb;
    io_dequant(q->src, q->type, first, count, dst);
    if (q->holder->kind != TL_STORAGE_MAPPED) return;
    io_quant_block(q->type, &bs, &bb);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t base = (uintptr_t)q->holder->map_base, end = base + q->holder->map_len;
    uintptr_t a = (uintptr_t)q->src + (size_t)(first / bs) * bb, b = (uintptr_t)q->src + (size_t)((first + count + bs - 1) / bs) * bb;
    a = a / page * page;
    b = (b + page - 1) / page * page;
    if (a < base) a = base;
    if (b > end) b = end;
    if (a < b) madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Drops a lazy storage's reference to its blocks. */
static void source_free(void *ctx)
{
    quant_source *q = ctx;
    tl_storage_release(q->holder);
    free(q);
}

/* Everything now, into heap storage: when asked for, or lazy storage is unavailable. */
static tl_tensor *eager(tl_storage *holder, const uint8_t *src, int type, int ndim, const int64_t *shape, int64_t count)
{
    tl_tensor *t = tl_tensor_empty(TL_F32, ndim, shape);
    if (t && count > 0) io_dequant(src, type, 0, count, tl_tensor_data(t));
    tl_storage_release(holder);
    return t;
}

tl_tensor *io_quant_tensor(tl_storage *holder, const uint8_t *src, int type, int ndim, const int64_t *shape,
                           const char *sname)
{
    int64_t count;
    if (tl_shape_size(ndim, shape, &count)) {
        tl_storage_release(holder);
        return NULL;
    }
    const char *env = getenv("TL_GGUF_EAGER");
    if (count == 0 || (env && *env && *env != '0')) return eager(holder, src, type, ndim, shape, count);
    quant_source *q = malloc(sizeof *q);
    if (!q) return eager(holder, src, type, ndim, shape, count);
    *q = (quant_source){ holder, src, type };
    tl_storage_retain(holder);   /* q's reference; a failing tl_storage_lazy drops it with q */
    tl_storage *st = tl_storage_lazy((size_t)count * sizeof(float), CHUNK, fill_chunk, q, source_free, sname);
    if (!st) return eager(holder, src, type, ndim, shape, count);
    tl_storage_release(holder);  /* the caller's reference, now q's */
    tl_storage_set_quant(st, holder, src, type);   /* matmul reads the blocks, blocks() views them */
    int64_t strides[TL_MAXDIM];
    tl_contiguous_strides(ndim, shape, strides);
    tl_tensor *t = tl_tensor_view_of(st, TL_F32, ndim, shape, strides, 0);
    tl_storage_release(st);
    return t;
}
