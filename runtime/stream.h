/* stream.h — a tensor's elements in C order as runs of f32 or f64, read in bounded memory from any layout, dtype or ggml blocks (private) */
#ifndef TL_STREAM_H
#define TL_STREAM_H

#ifndef TL_RUNTIME_INTERNAL
#error "stream.h is private to tl's runtime library"
#endif

#include "quant.h"
#include "tensor.h"

/* Elements a reader is asked for at a time: whole blocks of every ggml type (reads of a
   quantized tensor must start on a block), and 64 KiB of f32, so a run read into a buffer stays
   in the first-level caches while a pass goes over it more than once. */
#define TL_STREAM_CHUNK 16384

/* How a tensor's elements are read. */
typedef struct tl_stream {
    const tl_tensor *t;
    bool wide;                    /* runs come as f64 (else f32) */
    int how;                      /* stream.c's ways: in place, widened, dequantized, gathered */
    const char *data;             /* contiguous tensors: the first element */
    const uint8_t *qsrc;          /* ggml blocks: the tensor's first block */
    const tl_ggml_type *q;
    int64_t size;
} tl_stream;

/* Plans reading t (any real dtype; complex ones are refused). Runs come as f64 when wide, or
   when t's dtype holds values f32 cannot (f64, integers wider than 16 bits): *wide says which. */
int tl_stream_init(tl_stream *s, const tl_tensor *t, bool want_wide);
/* Elements [first, first + n) of the tensor in C order, first a multiple of TL_STREAM_CHUNK
   and n at most that: a pointer into the tensor's memory when they lie there as such, else
   buf (room for n values of the run's type) filled. A tensor held as ggml blocks is dequantized from the
   blocks (nothing is kept), unless some of that range was computed as f32 already (and may
   have been written): that is read. Safe on any thread. */
const void *tl_stream_read(const tl_stream *s, int64_t first, int64_t n, void *buf);

#endif
