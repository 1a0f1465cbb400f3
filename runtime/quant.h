/* quant.h — ggml's tensor types: the type table, tensors held as ggml blocks, quantize(), block fields, memory figures */
#ifndef TL_QUANT_H
#define TL_QUANT_H

#include <stdbool.h>
#include <stdint.h>

#include "ggml_list.h"
#include "tensor.h"

/* A field of a block, as ggml's struct declares it: count elements of dtype at offset (bytes). */
typedef struct tl_qfield {
    const char *name;
    tl_dtype dtype;
    int offset, count;        /* count 1: a scalar */
} tl_qfield;

#define TL_QFIELDS_MAX 5

/* Decodes one block into BLOCK floats, with ggml's arithmetic (bit for bit ggml's dequantize_row_*). */
typedef void (*tl_dequant_fn)(const uint8_t *block, float *out);
/* Encodes BLOCK floats (finite) as one block, byte for byte ggml's quantize_row_*_ref. */
typedef void (*tl_quant_fn)(const float *x, uint8_t *block);

/* One row of the list (ggml_list.h). */
typedef struct tl_ggml_type {
    const char *name;         /* "q4_k" */
    int id;                   /* ggml's type id */
    int block, bytes;         /* elements and bytes per block */
    tl_dequant_fn dequant;    /* NULL: tl does not dequantize it */
    tl_quant_fn quantize;     /* NULL: quantize() does not make it */
    int nfields;
    tl_qfield fields[TL_QFIELDS_MAX];
} tl_ggml_type;

/* The row of ggml type id, NULL for an id not in the list. */
const tl_ggml_type *tl_ggml_type_of(int64_t id);
/* The dtype of a plain type's elements (its GGML column in dtype_list.h), -1 for ggml blocks. */
int tl_ggml_dtype(const tl_ggml_type *g);
/* The quantized type named name ("q4_k", any case), NULL when there is none. */
const tl_ggml_type *tl_ggml_type_named(const char *name);
/* The types quantize() makes, as "q4_0, q4_1, ... or q6_k" into buf (n bytes). */
const char *tl_quantize_names(char *buf, size_t n);

/* The ggml type of the blocks t's elements are read from (a loaded quantized GGUF tensor, a
   quantize() result, and views of them), NULL for a tensor of plain storage. */
const tl_ggml_type *tl_tensor_qtype(const tl_tensor *t);
/* What holds t's elements, as listings name it: its ggml type ("q8_0") or its dtype ("f32"). */
const char *tl_tensor_type_name(const tl_tensor *t);

/* x (any real dtype, converted to f32 first; finite; last axis a multiple of q's block) as
   ggml blocks of type q: an f32 tensor whose reads dequantize and whose products read the
   blocks, as a loaded quantized tensor. Rows are quantized on every thread. */
tl_tensor *tl_quantize(const tl_tensor *x, const tl_ggml_type *q);

/* Read-only views of the block fields of t, a tensor held as blocks (whole, as loaded or
   quantized: no view of it): views[i] for field i of its type, of shape t's shape with the
   last axis counted in blocks, then the field's count when it is an array. */
int tl_qblocks(const tl_tensor *t, tl_tensor **views);

/* The bytes behind t: stored (its elements as held: blocks for a quantized tensor), mapped (of
   those, how many are a file's mapping) and resident (in memory now: mapped pages present,
   heap bytes, dequantized chunks computed). Views count their whole storage. */
typedef struct tl_footprint {
    uint64_t stored, mapped, resident;
} tl_footprint;
void tl_tensor_footprint(const tl_tensor *t, tl_footprint *f);

#endif
