/* tensor.h — strided tensors over refcounted storage: the runtime's public API */
#ifndef TL_TENSOR_H
#define TL_TENSOR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "error.h"

#define TL_MAXDIM 32
/* An axis argument meaning "no axis": all size-1 axes for squeeze, the flattened
   elements for cumsum and repeat (numpy's axis=None). Below any valid axis. */
#define TL_AXIS_NONE (-1000)

/* ---- storage -----------------------------------------------------------
   Refcounts of storages and tensors are plain integers, not atomics: a
   tensor and its storage belong to one thread at a time (the interpreter's).
   Worker threads of the kernels read and write elements only; they never
   retain or release. A locked increment per retain would cost more than
   the arithmetic on a small tensor. */
typedef enum tl_storage_kind {
    TL_STORAGE_HEAP,      /* ours: malloc'd, inline, or a pooled block (pool.c) */
    TL_STORAGE_MAPPED,    /* a private mapping of a file region */
    TL_STORAGE_LAZY,      /* computed chunk by chunk before first access (GGUF dequantization) */
    TL_STORAGE_EXTERNAL,  /* someone else's memory (an embedding program's array): never freed by tl */
} tl_storage_kind;

/* Computes bytes [lo, lo + n) of a lazy storage into dst (lo is a multiple of
   the chunk size; n spans one chunk or a run of them). Pure computation: it cannot fail. */
typedef void (*tl_lazy_fill_fn)(void *ctx, size_t lo, size_t n, void *dst);
typedef struct tl_lazy tl_lazy;   /* a lazy storage's chunk states and filler (tensor.c) */

typedef struct tl_storage {
    int64_t refcount;
    void *data;            /* 64-byte aligned for heap storage */
    size_t nbytes;
    tl_storage_kind kind;
    void *map_base;        /* mapped and lazy storage: what munmap needs; heap: the block to free */
    size_t map_len;
    uint64_t id;           /* heap storage: a serial number, named "heap#ID" on demand */
    tl_lazy *lazy;         /* lazy storage only */
    char name[64];         /* mapped and lazy storage: the file (empty for heap storage) */
    struct tl_workspace *work;   /* heap storage taken from a workspace (below), else NULL */
    void (*release)(void *ctx);  /* external storage: called when its last reference goes (may be NULL) */
    void *release_ctx;
} tl_storage;

/* The largest heap storage granted, in bytes; beyond it tl_storage_new fails with
   "cannot allocate N bytes: too large". Embedders (the fuzzers) may lower it. */
extern size_t tl_storage_max_bytes;
/* Allocates nbytes of 64-byte aligned heap storage (zeroed when zero is true). */
tl_storage *tl_storage_new(size_t nbytes, bool zero);
/* Wraps a private mapping (MAP_PRIVATE) of a file region; takes ownership. */
tl_storage *tl_storage_mapped(void *map_base, size_t map_len, void *data, size_t nbytes, const char *name);
/* A storage of nbytes whose chunks (of chunk bytes) fill(ctx, ...) computes
   when first materialized; ctx_free(ctx) runs when the storage goes (or when
   this fails: NULL with the error set). Untouched chunks cost no memory. */
tl_storage *tl_storage_lazy(size_t nbytes, size_t chunk, tl_lazy_fill_fn fill, void *ctx,
                            void (*ctx_free)(void *), const char *name);
/* Makes bytes [lo, hi) of s hold their values: computes the lazy chunks they
   touch that are not computed yet. Nothing to do for other kinds. Thread-safe. */
void tl_storage_materialize(tl_storage *s, int64_t lo, int64_t hi);
/* Records that lazy storage s dequantizes ggml blocks of `ggml_type` starting at blocks, inside
   the storage `holder` (kept alive by s's filler), so a matrix product can read them without
   dequantizing, and blocks() can view them. */
void tl_storage_set_quant(tl_storage *s, tl_storage *holder, const uint8_t *blocks, int ggml_type);
/* The ggml blocks behind s and their type; false for storage that has none. */
bool tl_storage_quant(const tl_storage *s, const uint8_t **blocks, int *ggml_type);
/* The storage holding the blocks behind s (NULL for storage that has none); not retained. */
tl_storage *tl_storage_quant_holder(const tl_storage *s);
/* True when some lazy chunk covering bytes [lo, hi) of s has been computed (and so may
   have been written since); false for other kinds. */
bool tl_storage_touched(const tl_storage *s, int64_t lo, int64_t hi);
/* Bytes of a lazy storage computed so far (whole chunks); nbytes for other kinds. */
size_t tl_storage_materialized_bytes(const tl_storage *s);
/* A storage over nbytes of memory tl does not own, at data (any address when nbytes is 0):
   tl reads and writes it in place and never frees it; release(ctx), when given, runs once,
   when the last reference goes or when the storage is detached. NULL (error set) when out
   of memory, and then release is not called. */
tl_storage *tl_storage_external(void *data, size_t nbytes, void (*release)(void *ctx), void *ctx, const char *name);
/* Makes an external storage heap storage of its own: its bytes are copied to a new block (a
   counted allocation), so every view of it keeps its values and none points into the old
   memory any more; then its release runs. Nothing to do for other kinds. -1 (error set) when
   out of memory, the storage unchanged. */
int tl_storage_detach(tl_storage *s);
void tl_storage_retain(tl_storage *s);
/* How many storages of more than 256 bytes tl_storage_new has allocated on this thread
   (from the heap or the pool; not the small ones, whose data is inline and recycled, as
   for the 0-d tensor of a scalar operand): what tests of memory plans count. */
uint64_t tl_storage_count(void);
/* True when s was counted by tl_storage_count (its data is not inline). */
bool tl_storage_counted(const tl_storage *s);
/* What info() calls a storage: "heap#12" or the file's name. Returns buf. */
const char *tl_storage_name(const tl_storage *s, char *buf, size_t n);
/* Numbers the next heap storages from 1 again, as in a new process (tl --test runs many programs in one). */
void tl_storage_restart_ids(void);
void tl_storage_release(tl_storage *s);

/* ---- working storage lent by a caller that plans memory (a graph) -------
   While a workspace is installed on a thread, tl_storage_new takes the storages of more than
   256 bytes a kernel allocates (its working tensors) from the workspace's buffer, stack-wise:
   a storage released on top gives its bytes back. They are not counted by tl_storage_count.
   tl_workspace_end moves those still alive (a result the kernel made itself) to storage of
   their own, counted then, so nothing outlives the kernel in the buffer. Without a buffer the
   workspace measures: storages are allocated as usual, and `need` becomes the bytes the
   buffer must have for the same allocations, leaving out those alive at the end (the
   kernel's result, which a planned caller gives its own buffer). */
#define TL_WORKSPACE_MAX 64        /* storages taken from one workspace; later ones are allocated as usual */
typedef struct tl_workspace {
    tl_storage *buf;               /* the buffer (retained by each storage taken from it); NULL: measuring */
    size_t offset, cap;            /* its bytes [offset, offset + cap) */
    size_t top, need;
    int n, nev;
    struct { tl_storage *s; size_t at, len; bool live; } e[TL_WORKSPACE_MAX];
    int16_t ev[2 * TL_WORKSPACE_MAX];   /* measuring: i + 1 when entry i was taken, -(i + 1) when released */
    struct tl_workspace *prev;
} tl_workspace;
/* Installs w on this thread (buf NULL: measuring), innermost first. */
void tl_workspace_begin(tl_workspace *w, tl_storage *buf, size_t offset, size_t cap);
/* Uninstalls w (the innermost): moves the storages still taken from it to storage of their
   own (or, measuring, computes w->need). -1 (error set) when out of memory for a move, whose
   storage then keeps the buffer's bytes (the buffer stays alive through it). */
int tl_workspace_end(tl_workspace *w);

/* ---- the pool of freed large blocks (pool.c) ---------------------------
   Heap storages of 1 MiB or more are whole mappings rounded up to a size
   class (four per octave). A released one is kept for the next storage of
   its class (no page faults for a big result), up to a bound in bytes:
   TL_POOL_MB (default 256; 0 turns the pool off). Past the bound, the oldest
   blocks go back to the system. */
typedef struct tl_pool_stats {
    size_t pooled_bytes, limit_bytes;
    uint64_t hits, misses;        /* large allocations served from the pool / freshly mapped */
    int blocks;
} tl_pool_stats;
tl_pool_stats tl_pool_get_stats(void);
/* Sets the bound (0: off), giving back what no longer fits. */
void tl_pool_set_limit(size_t bytes);
/* Gives every pooled block back to the system. */
void tl_pool_trim(void);
/* Sets the C heap's policy, once, at a program's start: malloc serves blocks up to 32 MiB
   (storages under the pool's 1 MiB among them) from the heap, not a mapping per block, and
   keeps up to `keep` bytes freed at the heap's top instead of handing them back after each
   free (the tl program: 32 MiB; a golden-test worker, for its next test: 256 MiB). */
void tl_heap_keep_freed(size_t keep);

/* ---- tensors ----------------------------------------------------------- */
typedef struct tl_tensor {
    int64_t refcount;
    tl_storage *storage;
    tl_dtype dtype;
    int ndim;
    bool readonly;                 /* broadcast (stride-0) views */
    int64_t offset;                /* in elements of dtype, from storage->data */
    int64_t shape[TL_MAXDIM];
    int64_t strides[TL_MAXDIM];    /* in elements of dtype; may be 0 or negative */
} tl_tensor;

/* Product of dims into *out; returns -1 (error set) on overflow or negative dims. */
int tl_shape_size(int ndim, const int64_t *shape, int64_t *out);
int64_t tl_tensor_size(const tl_tensor *t);
/* Materializes the bytes t's elements span in a lazy storage. */
void tl_tensor_materialize(const tl_tensor *t);
/* Pointer to the element at offset (the first element of the view), for
   reading or writing any element of t: over a lazy storage, the bytes t spans
   are computed first. Every path to tensor data goes through here or
   tl_tensor_at (or materializes the range itself). */
static inline void *tl_tensor_data(const tl_tensor *t) {
    if (__builtin_expect(t->storage->kind == TL_STORAGE_LAZY, 0)) tl_tensor_materialize(t);
    return (char *)t->storage->data + t->offset * (int64_t)tl_dtype_size(t->dtype);
}
/* Pointer to the element at a full multi-index (no bounds checks); materializes that element only. */
void *tl_tensor_at(const tl_tensor *t, const int64_t *index);

/* New contiguous (row-major) tensor; uninitialized or zeroed. NULL + error on overflow/OOM. */
tl_tensor *tl_tensor_empty(tl_dtype dtype, int ndim, const int64_t *shape);
tl_tensor *tl_tensor_zeros(tl_dtype dtype, int ndim, const int64_t *shape);
/* Zeros written into `into` when it fits (tl_tensor_result below), else tl_tensor_zeros. */
tl_tensor *tl_tensor_zeros_to(tl_dtype dtype, int ndim, const int64_t *shape, tl_tensor *into);
/* The tensor a kernel writes its result into: a view of `into` with the given shape when into is a
   writable C-contiguous tensor of that dtype and as many elements (a caller's destination, such as a
   graph's arena buffer: the kernels taking one end in _to), else tl_tensor_empty's new tensor.
   into must not overlap the kernel's inputs. */
tl_tensor *tl_tensor_result(tl_tensor *into, tl_dtype dtype, int ndim, const int64_t *shape);
/* A 0-d tensor holding one scalar in native layout. */
tl_tensor *tl_tensor_scalar(tl_dtype dtype, const void *value);
/* A 0-d tensor of dtype dtype holding x, converted as a cast converts it. */
tl_tensor *tl_tensor_from_f64(tl_dtype dtype, double x);
/* A header over existing storage (retains it); strides/offset in elements.
   Checks that every addressed element lies inside the storage. */
tl_tensor *tl_tensor_view_of(tl_storage *s, tl_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, int64_t offset);
/* A header over t's storage for a non-empty view whose every element is one of t's (the
   caller derived ndim <= TL_MAXDIM, shape, strides and offset from t, as an integer and
   slice index does): tl_tensor_view_of without its bounds checks. Read-only when t is, or
   when a stride-0 axis repeats an element. NULL (error set) only when out of memory. */
tl_tensor *tl_tensor_subview(const tl_tensor *t, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset);
void tl_tensor_retain(tl_tensor *t);
void tl_tensor_release(tl_tensor *t);
/* Releases each of ts[0..n) (NULLs are skipped) and sets it to NULL. */
void tl_tensor_release_all(tl_tensor **ts, int n);

/* Fills row-major strides (in elements) for shape; size-1 axes get them too, as numpy. */
void tl_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
/* numpy's relaxed C-contiguity: size-1 axes never break it; empty tensors are contiguous. */
bool tl_is_contiguous(const tl_tensor *t);
/* Returns t retained when already contiguous, else a contiguous copy. */
tl_tensor *tl_contiguous(const tl_tensor *t);
/* Always a fresh C-contiguous copy. */
tl_tensor *tl_copy(const tl_tensor *t);
/* A C-contiguous copy written into `into` when it fits (tl_tensor_result), else a new one. */
tl_tensor *tl_copy_to(const tl_tensor *t, tl_tensor *into);

/* ---- views (view.c): O(ndim), share storage, never copy ----------------
   All return a new tensor header (refcount 1) or NULL with an error set.
   Axis arguments are already normalized to 0..ndim-1 unless said otherwise;
   functions taking user axes accept negatives and check ranges. */
tl_tensor *tl_view_index(const tl_tensor *t, int axis, int64_t i);        /* drops axis; i may be negative */
tl_tensor *tl_view_slice(const tl_tensor *t, int axis, int64_t start, int64_t stop, int64_t step,
                         bool has_start, bool has_stop);                  /* numpy clamping rules */
tl_tensor *tl_view_newaxis(const tl_tensor *t, int axis);                 /* inserts size-1 axis before axis (0..ndim) */
tl_tensor *tl_view_permute(const tl_tensor *t, const int *perm);          /* perm has ndim entries */
tl_tensor *tl_view_transpose(const tl_tensor *t);                         /* reverses axes (numpy .T) */
tl_tensor *tl_view_swapaxes(const tl_tensor *t, int a, int b);
/* shape may hold one -1. Returns NULL with *needs_copy=true when strides do not allow a view. */
tl_tensor *tl_view_reshape(const tl_tensor *t, int ndim, const int64_t *shape, bool *needs_copy);
/* reshape: a view when possible, else a copy (numpy semantics). */
tl_tensor *tl_reshape(const tl_tensor *t, int ndim, const int64_t *shape);
/* The same; a copy it needs is written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_reshape_to(const tl_tensor *t, int ndim, const int64_t *shape, tl_tensor *into);
tl_tensor *tl_view_squeeze(const tl_tensor *t, int axis);         /* TL_AXIS_NONE: all size-1 axes */
tl_tensor *tl_view_unsqueeze(const tl_tensor *t, int axis);
tl_tensor *tl_view_broadcast_to(const tl_tensor *t, int ndim, const int64_t *shape); /* read-only */
tl_tensor *tl_view_flip(const tl_tensor *t, int axis);
tl_tensor *tl_view_diagonal(const tl_tensor *t, int64_t offset, int axis1, int axis2);
tl_tensor *tl_view_real(const tl_tensor *t);   /* non-complex: the tensor itself (retained) */
tl_tensor *tl_view_imag(const tl_tensor *t);   /* complex only */
/* The same bytes as dtype (the last axis rescaled). To or from bool it is a copy,
   not a view, so that a bool's bytes stay 0 or 1 (nonzero bytes become true). */
tl_tensor *tl_view_bitcast(const tl_tensor *t, tl_dtype dtype);
/* Makes every byte 0 or 1 (nonzero → 1): how raw bytes become bools. */
void tl_bool_normalize(uint8_t *bytes, size_t n);
/* Python's slice.indices() for a dim of size n: clamps start and stop (and step
   to >= -INT64_MAX) in place; returns the slice length, or -1 (error set) when
   step is 0. Omitted bounds (has_start/has_stop false) take the step's defaults.
   An empty slice gets step 1, as in numpy. */
int64_t tl_slice_indices(int64_t n, int64_t *start, int64_t *stop, int64_t *step,
                         bool has_start, bool has_stop);

/* Broadcasts two shapes; "cannot broadcast shapes (3, 4) and (5,)" on failure. */
int tl_broadcast_shapes(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout, int64_t *out);
/* Bytes [lo, hi) that t's elements span inside its storage; false when t is empty. */
bool tl_byte_range(const tl_tensor *t, int64_t *lo, int64_t *hi);
/* Exact: true when some element of a and some element of b share a byte. */
bool tl_shares_memory(const tl_tensor *a, const tl_tensor *b);
/* Formats a shape as numpy does: "(3, 4)", "(5,)", "()". Returns buf. */
char *tl_shape_str(int ndim, const int64_t *shape, char *buf, size_t n);
/* (shape_msg.c) Two shapes on two lines, aligned from the right, and a third marking with '^' the
   first axis from the right where they do not broadcast ("axis -1: 4 vs 5 ..."), when there is one. */
char *tl_shapes_aligned(int na, const int64_t *sa, int nb, const int64_t *sb, char *buf, size_t n);
/* A ShapeError whose first line is fmt with the two shapes for its two %s ("cannot broadcast shapes
   %s and %s"), followed by tl_shapes_aligned's lines. */
void tl_seterr_shapes(const char *fmt, int na, const int64_t *sa, int nb, const int64_t *sb);

/* ---- advanced indexing (index.c) ----------------------------------------
   One index item per position of a numpy index expression. */
typedef enum tl_index_kind {
    TL_IDX_INT, TL_IDX_SLICE, TL_IDX_NEWAXIS, TL_IDX_ELLIPSIS, TL_IDX_TENSOR
} tl_index_kind;
typedef struct tl_index_item {
    tl_index_kind kind;
    int64_t i;                          /* TL_IDX_INT */
    int64_t start, stop, step;          /* TL_IDX_SLICE */
    bool has_start, has_stop;
    const tl_tensor *tensor;            /* TL_IDX_TENSOR: integer or bool tensor */
} tl_index_item;
/* a[items]: a view for basic indexing, a copy when any tensor index is present. */
tl_tensor *tl_index_get(const tl_tensor *a, int n, const tl_index_item *items);
/* The same, a copy (advanced indexing) written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_index_get_to(const tl_tensor *a, int n, const tl_index_item *items, tl_tensor *into);
/* a[items] = value (broadcast, cast to a's dtype, overlap-safe). */
int tl_index_set(tl_tensor *a, int n, const tl_index_item *items, const tl_tensor *value);

/* ---- making and shaping (make.c, shape.c) ------------------------------ */
tl_tensor *tl_full(tl_dtype dtype, int ndim, const int64_t *shape, const void *value /* native layout of dtype */);
tl_tensor *tl_arange(double start, double stop, double step, tl_dtype dtype);
/* arange of integer arguments, exact beyond 2**53 (numpy with Python ints). */
tl_tensor *tl_arange_int(int64_t start, int64_t stop, int64_t step, tl_dtype dtype);
tl_tensor *tl_linspace(double start, double stop, int64_t num, bool endpoint, tl_dtype dtype);
tl_tensor *tl_eye(int64_t n, int64_t m, int64_t k, tl_dtype dtype);
tl_tensor *tl_concat(int n, tl_tensor *const *ts, int axis);
tl_tensor *tl_stack(int n, tl_tensor *const *ts, int axis);
/* The same, written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_concat_to(int n, tl_tensor *const *ts, int axis, tl_tensor *into);
tl_tensor *tl_stack_to(int n, tl_tensor *const *ts, int axis, tl_tensor *into);
/* Splits into sections at the given indices along axis; fills out[0..nidx] with views. */
int tl_split(const tl_tensor *t, int nidx, const int64_t *indices, int axis, tl_tensor **out);
tl_tensor *tl_tile(const tl_tensor *t, int nreps, const int64_t *reps);
/* The same, written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_tile_to(const tl_tensor *t, int nreps, const int64_t *reps, tl_tensor *into);
tl_tensor *tl_repeat(const tl_tensor *t, const int64_t *repeats, int64_t nrepeats, int axis /* TL_AXIS_NONE: flatten */);
tl_tensor *tl_repeat_to(const tl_tensor *t, const int64_t *repeats, int64_t nrepeats, int axis, tl_tensor *into);
tl_tensor *tl_flatten(const tl_tensor *t);
tl_tensor *tl_flatten_to(const tl_tensor *t, tl_tensor *into);

/* ---- new tensors made by moving another's elements (rearrange.c) ------- */
/* numpy's roll: a copy shifted by shifts[i] along axes[i] (normalized; shifts on a repeated axis add). */
tl_tensor *tl_roll(const tl_tensor *t, int n, const int64_t *shifts, const int *axes);
tl_tensor *tl_roll_to(const tl_tensor *t, int n, const int64_t *shifts, const int *axes, tl_tensor *into);
/* numpy's pad modes: constant values; the edge value repeated; mirrored about the edge (reflect) or
   including it (symmetric); wrapped around (wrap). */
typedef enum { TL_PAD_CONSTANT, TL_PAD_EDGE, TL_PAD_REFLECT, TL_PAD_SYMMETRIC, TL_PAD_WRAP } tl_pad_mode;
const char *tl_pad_mode_name(tl_pad_mode mode);
/* numpy's pad: widths[k] = (before, after) for each axis; for constant mode values[2k], values[2k + 1]
   are the (0-d) values before and after axis k, cast to t's dtype (later axes fill the corners). */
tl_tensor *tl_pad(const tl_tensor *t, const int64_t (*widths)[2], tl_pad_mode mode, const tl_tensor *const *values);
tl_tensor *tl_pad_to(const tl_tensor *t, const int64_t (*widths)[2], tl_pad_mode mode, const tl_tensor *const *values,
                     tl_tensor *into);
/* numpy's tril (upper false) or triu of the last two axes, diagonal k; a 1-d t gives a square matrix. */
tl_tensor *tl_tri(const tl_tensor *t, int64_t k, bool upper);
tl_tensor *tl_tri_to(const tl_tensor *t, int64_t k, bool upper, tl_tensor *into);
/* numpy's diag: a 2-d v's diagonal k (a view); a 1-d v placed on diagonal k of a new square matrix. */
tl_tensor *tl_diag(const tl_tensor *v, int64_t k);
/* The same, a new matrix written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_diag_to(const tl_tensor *v, int64_t k, tl_tensor *into);


/* Normalizes a user axis (negative counts from the end); error names the axis and ndim. */
int tl_normalize_axis(int axis, int ndim, int *out);

#endif
