/* io/internal.h — helpers shared by the file-format readers and writers (not public API) */
#ifndef TL_IO_INTERNAL_H
#define TL_IO_INTERNAL_H

/* Private to the file-format code in runtime/: runtime/meson.build defines TL_RUNTIME_INTERNAL
   only for the runtime's own files; everything else uses io.h. */
#ifndef TL_RUNTIME_INTERNAL
#error "io/internal.h is private to tl's runtime library: include io.h instead"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../io.h"
#include "../quant.h"

/* ---- an opened input file ------------------------------------------------ */
typedef struct io_src {
    const char *path;        /* as the user gave it, for messages */
    int fd;
    const uint8_t *base;     /* read-only private mapping of the whole file (NULL when empty) */
    uint64_t size;
} io_src;

/* Opens a regular file and maps it read-only (costs nothing until pages are touched). */
int io_open(io_src *s, const char *path);
void io_close(io_src *s);

/* Sets "PATH: message" and returns -1. */
int io_fail(const io_src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for a bare path. */
int io_fail_path(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A tensor over the file bytes [off, off + nbytes): a private mapping when the
   offset suits the dtype's alignment, else a heap copy. fortran: column-major
   data (strides ascending). swap: the data is big-endian (copied and swapped).
   The caller has validated that the bytes lie inside the file. */
tl_tensor *io_tensor_at(io_src *s, uint64_t off, tl_dtype dt, int ndim, const int64_t *shape,
                        bool fortran, bool swap, const char *tname);
/* A fresh uninitialized heap tensor in C or Fortran order. */
tl_tensor *io_tensor_new(tl_dtype dt, int ndim, const int64_t *shape, bool fortran);
/* The same from bytes already in memory (always copied). */
tl_tensor *io_tensor_copy(const void *bytes, tl_dtype dt, int ndim, const int64_t *shape, bool fortran, bool swap);

/* Byte-swaps n elements of dtype dt in place (complex: each half). */
void io_byteswap(void *p, int64_t n, tl_dtype dt);
/* Turns n elements of file bytes into valid values in place: byte order (when
   swap), and bools made 0 or 1 (a nonzero byte is true, as numpy reads it). */
void io_decode(void *p, int64_t n, tl_dtype dt, bool swap);
/* Alignment a dtype's elements need in memory. */
size_t io_dtype_align(tl_dtype dt);
/* Element count and byte count of a shape, with overflow checks (error set, no path). */
int io_shape_bytes(int ndim, const int64_t *shape, size_t itemsize, int64_t *count, uint64_t *nbytes);
/* "file.safetensors:name" trimmed to fit a storage name. */
void io_storage_name(char *out, size_t n, const char *path, const char *tname);
/* A name or key quoted for messages, trimmed and with control bytes escaped. */
const char *io_quote(const char *s, size_t len, char *buf, size_t n);

/* ---- bounded reading ------------------------------------------------------- */
typedef struct io_cur {
    const uint8_t *p;
    uint64_t pos, size;
    const char *path;        /* for messages */
} io_cur;

int io_need(io_cur *c, uint64_t n, const char *what);      /* -1: "truncated" error */
int io_u8(io_cur *c, uint8_t *v, const char *what);
int io_u32(io_cur *c, uint32_t *v, const char *what);
int io_u64(io_cur *c, uint64_t *v, const char *what);
static inline uint16_t io_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t io_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static inline uint64_t io_le64(const uint8_t *p) { return io_le32(p) | (uint64_t)io_le32(p + 4) << 32; }
static inline void io_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void io_put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i); }
static inline void io_put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i); }

/* ---- GGUF key/value sections (shared by the GGUF reader and the metadata encoding) ---- */
/* Parses count key/value pairs at c. out: a MAP to fill (NULL: validate only).
   alignment (may be NULL): receives general.alignment when present (0 otherwise). */
int io_kv_parse(io_cur *c, uint64_t count, tl_meta *out, uint32_t *alignment);

/* ---- atomic output: a temporary file beside the target, renamed over it; a special file
   (FIFO, device) is written in place ---- */
typedef struct io_writer {
    const char *path;        /* as the user gave it, for messages */
    char *target;            /* where the file lands (symlinks followed) */
    char *tmp;               /* NULL when writing a special file in place */
    bool special;
    bool seekable;           /* false for a FIFO or a terminal: io_patch cannot be used */
    int fd;
    uint8_t *buf;
    size_t fill;
    uint64_t pos;            /* logical bytes written so far */
    bool failed;
} io_writer;

int io_writer_open(io_writer *w, const char *path);
int io_put(io_writer *w, const void *p, size_t n);
/* Overwrites n bytes already written at offset at (headers patched after the data); only
   when w->seekable. */
int io_patch(io_writer *w, uint64_t at, const void *p, size_t n);
/* Flushes, fsyncs, renames over the target and fsyncs the folder (a special file: flushes and
   closes); frees w. */
int io_writer_commit(io_writer *w);
/* Removes the temporary file; frees w. Keeps the current error message. */
void io_writer_abort(io_writer *w);
/* Ends a write: commits when rc is 0; else aborts, the error said with the path (the
   writer's own failures already are). */
int io_writer_finish(io_writer *w, int rc);

/* Streams t's elements in C order as little-endian bytes (any strides), in pieces. */
typedef int (*io_emit_fn)(void *ctx, const void *p, size_t n);
int io_tensor_bytes(const tl_tensor *t, io_emit_fn emit, void *ctx);
int io_emit_writer(void *ctx, const void *p, size_t n);   /* ctx: io_writer* */
/* True when t is laid out in Fortran (column-major) order and not C order. */
bool io_is_fortran(const tl_tensor *t);

/* ---- npy pieces reused by npz ---------------------------------------------- */
typedef struct io_npy_header {
    tl_dtype dtype;
    bool fortran, swap;
    int ndim;
    int64_t shape[TL_MAXDIM];
    int64_t count;
    uint64_t nbytes;         /* of the data */
    uint64_t data_off;       /* from the start of the .npy bytes */
} io_npy_header;

/* Parses a .npy header from the first avail bytes of buf; total: the member's
   full size (data must fill it exactly). what: how to name it in errors. */
int io_npy_parse(const io_src *s, const uint8_t *buf, uint64_t avail, uint64_t total, const char *what,
                 io_npy_header *h);
/* The npy header bytes for t (version chosen as numpy does); malloc'd into *out. */
int io_npy_header_for(const tl_tensor *t, bool fortran, uint8_t **out, size_t *len);

/* ---- the formats' entry points: one row each in io.h's TL_FILE_FORMAT_LIST ---- */
#define IO_DECLARE_(arg, S, NOUN, MAGIC, MAGIC2, HOLDS, SAVE, ...) \
    tl_file *io_##S##_load(const char *path, bool meta_only); IO_DECLARE_SAVE_##SAVE(S)
#define IO_DECLARE_SAVE_RW(S) int io_##S##_save(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts);
#define IO_DECLARE_SAVE_RO(S)
TL_FILE_FORMAT_LIST(IO_DECLARE_, _)

/* One unnamed tensor as a file (t is taken over; NULL gives NULL, the error kept). */
tl_file *io_file_one(tl_tensor *t);

/* ---- ggml blocks (quant.c, quantize.c, quantize_k.c; the types' table is ../quant.c) ---- */
/* io_dequant_S and io_quantize_S for the rows of ggml_list.h that have them (tl_dequant_fn, tl_quant_fn). */
#define IO_DECLARE_QFN_(arg, S, ID, BLOCK, BYTES, DEQ, QUANT, ...) IO_DECLARE_##DEQ(S) IO_DECLARE_##QUANT(S)
#define IO_DECLARE_DQ(S) void io_dequant_##S(const uint8_t *block, float *out);
#define IO_DECLARE_NODQ(S)
#define IO_DECLARE_Q(S) void io_quantize_##S(const float *x, uint8_t *block);
#define IO_DECLARE_NOQ(S)
TL_GGML_LIST(IO_DECLARE_QFN_, _)

bool io_can_dequant(int ggml_type);
/* Elements and bytes in one block of a ggml type. */
void io_quant_block(int ggml_type, int64_t *elems, size_t *bytes);
/* Dequantizes elements [first, first + n) (whole blocks) of a tensor whose blocks start at src. */
void io_dequant(const uint8_t *src, int ggml_type, int64_t first, int64_t n, float *dst);

/* ---- tensors held as ggml blocks (lazy.c) ------------------------------------ */
/* An f32 tensor of the given shape over lazy storage whose chunks are dequantized from the
   blocks at src, inside `holder` (a reference taken over: a file's mapping or heap blocks),
   before their first access. A mapped holder's pages are let go after each read. With
   TL_GGUF_EAGER=1, or without lazy storage, everything is dequantized now into heap storage
   (no blocks kept). */
tl_tensor *io_quant_tensor(tl_storage *holder, const uint8_t *src, int type, int ndim, const int64_t *shape,
                           const char *sname);

#endif
