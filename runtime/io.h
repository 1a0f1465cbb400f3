/* io.h — tensor files (.npy .npz .safetensors .gguf .csv .txt): validated, mapped loads and atomic saves */
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

typedef enum tl_file_format {
    TL_FILE_UNKNOWN, TL_FILE_NPY, TL_FILE_NPZ, TL_FILE_SAFETENSORS, TL_FILE_GGUF, TL_FILE_CSV, TL_FILE_TXT
} tl_file_format;

/* The format named by a path's extension (case-insensitive), else TL_FILE_UNKNOWN. */
tl_file_format tl_file_format_of(const char *path);
/* The format the first bytes of a file announce (npy, npz, gguf magic), else TL_FILE_UNKNOWN. */
tl_file_format tl_file_sniff(const char *path);

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
    tl_file_format format;
    int64_t n;                /* tensors, in file order */
    tl_named *tensors;
    uint8_t *meta;            /* encoded metadata (see tl_meta_decode); NULL when the format has none */
    size_t meta_len;
} tl_file;

void tl_file_free(tl_file *f);   /* releases the tensors it still holds */

/* Loads any supported file, choosing the format by extension (then by magic).
   Single-tensor formats (.npy, .csv, .txt) give one entry with an empty name. */
tl_file *tl_load(const char *path);

/* A named tensor for saving (the tensor is only read). */
typedef struct tl_named_in {
    const char *name;
    size_t len;
    const tl_tensor *tensor;
} tl_named_in;

/* ---- per format ------------------------------------------------------------ */
/* .npy v1/v2/v3: every tl dtype; bf16 is written as numpy's '<V2' (2-byte void,
   the ml_dtypes convention) and 'V2' reads back as bf16. Fortran order loads
   as a transposed view; big-endian data is converted on load. */
tl_tensor *tl_npy_load(const char *path);
int tl_npy_save(const char *path, const tl_tensor *t);

/* .npz: a zip of .npy members, stored or deflated. */
tl_file *tl_npz_load(const char *path);
int tl_npz_save(const char *path, int64_t n, const tl_named_in *items, bool compress);

/* .safetensors: metadata is a MAP of STR (may be NULL). */
tl_file *tl_safetensors_load(const char *path);
int tl_safetensors_save(const char *path, int64_t n, const tl_named_in *items, const tl_meta *metadata);

/* .gguf v2/v3, read only. ggml dims are reversed into row-major shapes;
   quantized tensors load as f32, dequantized block-wise when first touched. */
tl_file *tl_gguf_load(const char *path);
/* Only the metadata of a GGUF file (encoded as tl_file.meta). */
int tl_gguf_read_meta(const char *path, uint8_t **out, size_t *len);

/* 2-d numeric text: delim ',' (csv) or 0 (any run of spaces/tabs). Loads as
   f64 with shape (rows, columns); '#' starts a comment. */
tl_tensor *tl_text_load(const char *path, char delim);
/* A whole file's bytes in a new malloc'd buffer (NUL-terminated; *len counts the bytes before
   it); NULL with a FileError when it cannot be read (io_bytes.c). */
char *tl_read_bytes(const char *path, size_t *len);
/* Writes n bytes as the whole file at path, atomically (a temporary file renamed over it, as
   every save); 0, or -1 with a FileError. */
int tl_write_bytes(const char *path, const void *data, size_t n);
int tl_text_save(const char *path, const tl_tensor *t, char delim);

#endif
