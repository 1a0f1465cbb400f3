/* ggml_list.h — the master list of ggml's tensor types (GGUF's tensor types): every per-type table in tl comes from it */
#ifndef TL_GGML_LIST_H
#define TL_GGML_LIST_H

/* One row per ggml type (include/ggml.h's enum ggml_type), in id order. X(arg, columns...):
     S       tl's name of the type, lowercase ("q4_k"): what qtype(), quantize() and messages say;
             also the token naming its functions (io_dequant_q4_k, io_quantize_q4_k)
     ID      ggml's type id: GGUF's tensor type
     BLOCK   elements per block: 1 for a plain dtype (the dtype whose GGML column in dtype_list.h
             names ID), more for ggml blocks
     BYTES   bytes per block (bits per weight are BYTES * 8 / BLOCK)
     DEQ     DQ: tl dequantizes its blocks (io_dequant_S in io/quant.c); NODQ: it does not
     QUANT   Q: quantize() makes it (io_quantize_S in io/quantize.c, quantize_k.c); NOQ: it does not
     (a dot-product column, the kernel multiplying a row of these blocks by 8-bit x in
      kernels/, belongs here: between QUANT and FIELDS)
     ...     FIELDS: the block's fields in the order of ggml's struct (ggml-common.h), each
             TL_QF(name, dtype token, byte offset in the block, count): a scalar when count is
             1, else an array; blocks() makes one view per field from them
   Types tl neither dequantizes nor quantizes are listed too, so a file holding one is refused by
   name. */
#define TL_GGML_LIST(X, arg)                                                                               \
    X(arg, f32,     0,  1,   4,   NODQ, NOQ)                                                               \
    X(arg, f16,     1,  1,   2,   NODQ, NOQ)                                                               \
    X(arg, q4_0,    2,  32,  18,  DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(qs, U8, 2, 16))                      \
    X(arg, q4_1,    3,  32,  20,  DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(m, F16, 2, 1),                       \
                                           TL_QF(qs, U8, 4, 16))                                           \
    X(arg, q5_0,    6,  32,  22,  DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(qh, U8, 2, 4),                       \
                                           TL_QF(qs, U8, 6, 16))                                           \
    X(arg, q5_1,    7,  32,  24,  DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(m, F16, 2, 1),                       \
                                           TL_QF(qh, U8, 4, 4), TL_QF(qs, U8, 8, 16))                      \
    X(arg, q8_0,    8,  32,  34,  DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(qs, I8, 2, 32))                      \
    X(arg, q8_1,    9,  32,  36,  NODQ, NOQ)                                                               \
    X(arg, q2_k,    10, 256, 84,  DQ,   Q, TL_QF(scales, U8, 0, 16), TL_QF(qs, U8, 16, 64),                \
                                           TL_QF(d, F16, 80, 1), TL_QF(dmin, F16, 82, 1))                  \
    X(arg, q3_k,    11, 256, 110, DQ,   Q, TL_QF(hmask, U8, 0, 32), TL_QF(qs, U8, 32, 64),                 \
                                           TL_QF(scales, U8, 96, 12), TL_QF(d, F16, 108, 1))               \
    X(arg, q4_k,    12, 256, 144, DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(dmin, F16, 2, 1),                    \
                                           TL_QF(scales, U8, 4, 12), TL_QF(qs, U8, 16, 128))               \
    X(arg, q5_k,    13, 256, 176, DQ,   Q, TL_QF(d, F16, 0, 1), TL_QF(dmin, F16, 2, 1),                    \
                                           TL_QF(scales, U8, 4, 12), TL_QF(qh, U8, 16, 32),                \
                                           TL_QF(qs, U8, 48, 128))                                         \
    X(arg, q6_k,    14, 256, 210, DQ,   Q, TL_QF(ql, U8, 0, 128), TL_QF(qh, U8, 128, 64),                  \
                                           TL_QF(scales, I8, 192, 16), TL_QF(d, F16, 208, 1))              \
    X(arg, q8_k,    15, 256, 292, DQ,   NOQ, TL_QF(d, F32, 0, 1), TL_QF(qs, I8, 4, 256),                   \
                                             TL_QF(bsums, I16, 260, 16))                                   \
    X(arg, iq2_xxs, 16, 256, 66,  NODQ, NOQ)                                                               \
    X(arg, iq2_xs,  17, 256, 74,  NODQ, NOQ)                                                               \
    X(arg, iq3_xxs, 18, 256, 98,  NODQ, NOQ)                                                               \
    X(arg, iq1_s,   19, 256, 50,  NODQ, NOQ)                                                               \
    X(arg, iq4_nl,  20, 32,  18,  NODQ, NOQ)                                                               \
    X(arg, iq3_s,   21, 256, 110, NODQ, NOQ)                                                               \
    X(arg, iq2_s,   22, 256, 82,  NODQ, NOQ)                                                               \
    X(arg, iq4_xs,  23, 256, 136, NODQ, NOQ)                                                               \
    X(arg, i8,      24, 1,   1,   NODQ, NOQ)                                                               \
    X(arg, i16,     25, 1,   2,   NODQ, NOQ)                                                               \
    X(arg, i32,     26, 1,   4,   NODQ, NOQ)                                                               \
    X(arg, i64,     27, 1,   8,   NODQ, NOQ)                                                               \
    X(arg, f64,     28, 1,   8,   NODQ, NOQ)                                                               \
    X(arg, iq1_m,   29, 256, 56,  NODQ, NOQ)                                                               \
    X(arg, bf16,    30, 1,   2,   NODQ, NOQ)                                                               \
    X(arg, tq1_0,   34, 256, 54,  NODQ, NOQ)                                                               \
    X(arg, tq2_0,   35, 256, 66,  NODQ, NOQ)                                                               \
    X(arg, mxfp4,   39, 32,  17,  NODQ, NOQ)                                                               \
    X(arg, nvfp4,   40, 64,  36,  NODQ, NOQ)                                                               \
    X(arg, q1_0,    41, 128, 18,  NODQ, NOQ)                                                               \
    X(arg, q2_0,    42, 64,  18,  NODQ, NOQ)

/* The names of the types quantize() makes, as one string literal for help lines: " q4_0 q4_1 ...". */
#define TL_GGML_QUANTIZED_NAMES TL_GGML_LIST(TL_GGML_QNAME_, _)
#define TL_GGML_QNAME_(arg, S, ID, BLOCK, BYTES, DEQ, QUANT, ...) TL_GGML_QNAME_##QUANT(S)
#define TL_GGML_QNAME_Q(S) " " #S
#define TL_GGML_QNAME_NOQ(S)

/* One past the largest id in the list. */
#define TL_GGML_NIDS 43

#endif
