/* io.h — tensor files (the formats in TL_FILE_FORMAT_LIST): validated, mapped loads and atomic saves */
#ifndef TL_IO_H
#define TL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

/* Every function here fails by returning NULL or -1 with tl_errmsg() set to
   "PATH: what is wrong". Loaded tensors are private (MAP_PRIVATE) mappings of
   the file whenever the bytes allow it: nothing is read until it is touched,
   and writing to a tensor never reaches the file. */

/* ---- metadata: a small tree (GGUF key/values, safetensors __metadata__) -- */
typedef enum tl_meta_kind {
    TL_META_NUM,     /* a number: dtype + value */
    TL_META_STR,     /* bytes (also NUL-terminated) */
    TL_META_ARRAY,   /* a numeric array, as a 1-d tensor */
    TL_META_LIST,    /* items (strings, or nested arrays) */
    TL_META_MAP,     /* keys -> items, in file order */
} tl_meta_kind;

typedef struct tl_meta {
    tl_meta_kind kind;
    tl_dtype dtype;           /* NUM */
    tl_scalar num;            /* NUM, in dtype's native layout */
    char *str;                /* STR */
    size_t len;               /* STR: byte length */
    tl_tensor *array;         /* ARRAY */
    int64_t n;                /* LIST, MAP: item count */
    struct tl_meta *items;    /* LIST, MAP */
    char **keys;              /* MAP: NUL-terminated */
    size_t *keylens;          /* MAP */
} tl_meta;

/* Frees what m holds (not m itself); m becomes an empty MAP. */
void tl_meta_clear(tl_meta *m);
void tl_meta_free(tl_meta *m);   /* clear + free(m) */

/* Metadata travels as a compact encoding (GGUF's key/value section, prefixed by
   a u64 count), so a caller can keep it as one opaque block of bytes and decode
   it on demand. Decoding validates every length against the block. */
tl_meta *tl_meta_decode(const void *blob, size_t len);
/* Encodes a MAP whose items are NUM/STR/ARRAY/LIST; malloc'd into *out. */
int tl_meta_encode(const tl_meta *map, uint8_t **out, size_t *len);

/* ---- loaded files -------------------------------------------------------- */
typedef struct tl_named {
    char *name;               /* NUL-terminated */
    size_t len;
    tl_tensor *tensor;
} tl_named;

typedef struct tl_file {
    const struct tl_format *format;   /* the row it was loaded by */
    int64_t n;                /* tensors, in file order */
    tl_named *tensors;
    uint8_t *meta;            /* encoded metadata (see tl_meta_decode); NULL when the format has none */
    size_t meta_len;
} tl_file;

void tl_file_free(tl_file *f);   /* releases the tensors it still holds */

/* A named tensor for saving (the tensor is only read). */
typedef struct tl_named_in {
    const char *name;
    size_t len;
    const tl_tensor *tensor;
} tl_named_in;

/* ---- the file formats ------------------------------------------------------ */
/* One row per format, in the order messages list them. The format table (io/formats.c: choosing
   a format by extension or by magic, loading), the extension lists in messages and help lines,
   and a fuzz target each (tests/fuzz/meson.build) come from it. A format is its row here and its
   file in runtime/io/ defining io_S_load, and io_S_save when tl writes it (io/internal.h
   declares them). X(arg, columns...):
     S       the extension without its dot (".S", matched in any case), and the token naming
             the format's functions
     NOUN    how save()'s messages name its files when not by the extension ("text"), else NULL
     MAGIC, MAGIC2  bytes its files start with, which tell the format of a path with another
             extension (NULL: none)
     HOLDS   TENSOR: one unnamed tensor; DICT: named tensors; DICT_META: named tensors and metadata
     SAVE    RW: tl writes it; RO: read only
     FLAGS   TL_FORMAT_COMPRESS when save()'s compress= applies, else 0
     LONE    the name a lone tensor saved in a DICT format gets (numpy's savez: "arr_0");
             NULL: a dict only */
#define TL_FILE_FORMAT_LIST(X, arg)                                                                  \
    X(arg, npy,         NULL,   "\x93NUMPY", NULL,     TENSOR,    RW, 0,                  NULL)    \
    X(arg, npz,         NULL,   "PK\3\4",    "PK\5\6", DICT,      RW, TL_FORMAT_COMPRESS, "arr_0") \
    X(arg, safetensors, NULL,   NULL,        NULL,     DICT_META, RW, 0,                  NULL)    \
    X(arg, gguf,        NULL,   "GGUF",      NULL,     DICT_META, RW, 0,                  NULL)    \
    X(arg, csv,         "text", NULL,        NULL,     TENSOR,    RW, 0,                  NULL)    \
    X(arg, txt,         "text", NULL,        NULL,     TENSOR,    RW, 0,                  NULL)

/* What a format's row says, as bits (the HOLDS, SAVE and FLAGS columns). */
enum {
    TL_FORMAT_ONE = 1,        /* holds one unnamed tensor (else named tensors, a dict) */
    TL_FORMAT_META = 2,       /* holds metadata: meta() reads it, save()'s metadata= writes it */
    TL_FORMAT_WRITES = 4,     /* tl saves it */
    TL_FORMAT_COMPRESS = 8,   /* save()'s compress= applies */
};

/* Options of a save; a format reads those its flags name. */
typedef struct tl_save_opts {
    bool compress;            /* TL_FORMAT_COMPRESS: deflate */
    const tl_meta *metadata;  /* TL_FORMAT_META: a MAP (safetensors: of STR), or NULL */
} tl_save_opts;

/* One row of the format table. */
typedef struct tl_format {
    const char *ext;          /* ".npy" */
    const char *noun;         /* how messages name its files ("text"); NULL: by ext */
    const char *magic[2];     /* what its files start with (NULL: nothing tells) */
    unsigned flags;           /* TL_FORMAT_* */
    const char *lone_name;    /* DICT formats: the name of a lone tensor saved in it, or NULL */
    /* Loads the file. meta_only: the caller wants only the metadata, so the reader may skip
       the tensors (n = 0); a format without metadata loads as usual. */
    tl_file *(*load)(const char *path, bool meta_only);
    /* Writes n named tensors (one, unnamed, for TL_FORMAT_ONE formats); NULL: read only. */
    int (*save)(const char *path, int64_t n, const tl_named_in *items, const tl_save_opts *opts);
} tl_format;

/* The format a path's extension names (in any case), else NULL. */
const tl_format *tl_format_of(const char *path);
/* The extensions of the formats whose flags masked by mask equal want, in table order, as
   ".npz, .safetensors or .gguf" in buf (n bytes). */
const char *tl_format_exts(char *buf, size_t n, unsigned mask, unsigned want);

/* Loads any supported file, choosing the format by extension, else by the magic its bytes start
   with. Single-tensor formats (TL_FORMAT_ONE) give one entry with an empty name. */
tl_file *tl_load(const char *path);
/* Only the metadata of any supported file (encoded as tl_file.meta, malloc'd into *out; NULL
   when the format has none). Reads no more than it needs: a GGUF file's header only. */
int tl_load_meta(const char *path, uint8_t **out, size_t *len);

/* The extensions as one string literal for help lines, " .npy .npz ...": of every format
   (TL_FORMAT_EXTS(ALL)), of those tl writes (WRITTEN), of those holding metadata (META). */
#define TL_FORMAT_EXTS(WHICH) TL_FILE_FORMAT_LIST(TL_FORMAT_EXT_, WHICH)
#define TL_FORMAT_EXT_(WHICH, S, NOUN, MAGIC, MAGIC2, HOLDS, SAVE, ...) TL_FORMAT_EXT_##WHICH(S, HOLDS, SAVE)
#define TL_FORMAT_EXT_ALL(S, HOLDS, SAVE) " ." #S
#define TL_FORMAT_EXT_WRITTEN(S, HOLDS, SAVE) TL_FORMAT_EXT_IF_##SAVE(S)
#define TL_FORMAT_EXT_META(S, HOLDS, SAVE) TL_FORMAT_EXT_IF_##HOLDS(S)
#define TL_FORMAT_EXT_IF_RW(S) " ." #S
#define TL_FORMAT_EXT_IF_RO(S)
#define TL_FORMAT_EXT_IF_DICT_META(S) " ." #S
#define TL_FORMAT_EXT_IF_DICT(S)
#define TL_FORMAT_EXT_IF_TENSOR(S)

/* ---- single-tensor formats, directly --------------------------------------- */
/* .npy v1/v2/v3: every tl dtype; bf16 is written as numpy's '<V2' (2-byte void,
   the ml_dtypes convention) and 'V2' reads back as bf16. Fortran order loads
   as a transposed view; big-endian data is converted on load. */
tl_tensor *tl_npy_load(const char *path);
int tl_npy_save(const char *path, const tl_tensor *t);

/* 2-d numeric text: delim ',' (csv) or 0 (any run of spaces/tabs). Loads as
   f64 with shape (rows, columns); '#' starts a comment. */
tl_tensor *tl_text_load(const char *path, char delim);
/* A whole file's bytes in a new malloc'd buffer (NUL-terminated; *len counts the bytes before
   it); NULL with a FileError when it cannot be read (io/bytes.c). */
char *tl_read_bytes(const char *path, size_t *len);
/* Writes n bytes as the whole file at path, atomically (a temporary file renamed over it, as
   every save); 0, or -1 with a FileError. */
int tl_write_bytes(const char *path, const void *data, size_t n);
int tl_text_save(const char *path, const tl_tensor *t, char delim);

#endif
