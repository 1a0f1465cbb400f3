/* dtype_list.h — the master list of dtypes: every per-dtype table in tl is generated from it */
#ifndef TL_DTYPE_LIST_H
#define TL_DTYPE_LIST_H

/* One row per dtype, in tl_dtype order (the order only indexes tables;
   promotion has its own table in dtype.c). X(arg, columns...) is called
   once per row with the caller's `arg` first, so a callback can take the
   columns it needs and end in `...`:
     ENUM   the tl_dtype constant
     S      short token for generated names (loop_f32_f16, cast_load_bf16)
     NAME   tl's name                     NUMPY  numpy's name (bf16: ml_dtypes')
     CTYPE  the C type of one element in storage (f16/bf16: their bits)
     KIND   tl_kind without its prefix    SIZE   bytes per element
     REAL   the real dtype of the same precision (complex -> its component)
     CPLX   the complex dtype a weak complex literal gives with it (NEP 50)
     WIDE   the dtype its arithmetic runs in (f16/bf16 compute in f32)
     NPY    the .npy descr it is written as
     MBITS  float significand bits stored (no implicit bit; 0 when not a float)
     EBITS  float exponent bits (0 when not a float); the order keys' masks come from these two
     ST     its name in .safetensors headers (NULL: that format has no such dtype)
     GGUF   its GGUF metadata value type (-1: none)
     GGML   its ggml tensor type in .gguf files (-1: none)
   Integer limits follow from KIND and SIZE (tl_int_min, tl_int_max). */
#define TL_DTYPE_LIST(X, arg)                                                                                    \
    X(arg, TL_BOOL, b1,   "bool", "bool",       bool,     BOOL,    1,  TL_BOOL, TL_C128, TL_BOOL, "|b1",  0,  0, "BOOL",  7, -1) \
    X(arg, TL_U8,   u8,   "u8",   "uint8",      uint8_t,  UINT,    1,  TL_U8,   TL_C128, TL_U8,   "|u1",  0,  0, "U8",    0, -1) \
    X(arg, TL_U16,  u16,  "u16",  "uint16",     uint16_t, UINT,    2,  TL_U16,  TL_C128, TL_U16,  "<u2",  0,  0, "U16",   2, -1) \
    X(arg, TL_U32,  u32,  "u32",  "uint32",     uint32_t, UINT,    4,  TL_U32,  TL_C128, TL_U32,  "<u4",  0,  0, "U32",   4, -1) \
    X(arg, TL_U64,  u64,  "u64",  "uint64",     uint64_t, UINT,    8,  TL_U64,  TL_C128, TL_U64,  "<u8",  0,  0, "U64",  10, -1) \
    X(arg, TL_I8,   i8,   "i8",   "int8",       int8_t,   INT,     1,  TL_I8,   TL_C128, TL_I8,   "|i1",  0,  0, "I8",    1, 24) \
    X(arg, TL_I16,  i16,  "i16",  "int16",      int16_t,  INT,     2,  TL_I16,  TL_C128, TL_I16,  "<i2",  0,  0, "I16",   3, 25) \
    X(arg, TL_I32,  i32,  "i32",  "int32",      int32_t,  INT,     4,  TL_I32,  TL_C128, TL_I32,  "<i4",  0,  0, "I32",   5, 26) \
    X(arg, TL_I64,  i64,  "i64",  "int64",      int64_t,  INT,     8,  TL_I64,  TL_C128, TL_I64,  "<i8",  0,  0, "I64",  11, 27) \
    X(arg, TL_F16,  f16,  "f16",  "float16",    uint16_t, FLOAT,   2,  TL_F16,  TL_C64,  TL_F32,  "<f2", 10,  5, "F16",  -1,  1) \
    X(arg, TL_BF16, bf16, "bf16", "bfloat16",   uint16_t, FLOAT,   2,  TL_BF16, TL_C64,  TL_F32,  "<V2",  7,  8, "BF16", -1, 30) \
    X(arg, TL_F32,  f32,  "f32",  "float32",    float,    FLOAT,   4,  TL_F32,  TL_C64,  TL_F32,  "<f4", 23,  8, "F32",   6,  0) \
    X(arg, TL_F64,  f64,  "f64",  "float64",    double,   FLOAT,   8,  TL_F64,  TL_C128, TL_F64,  "<f8", 52, 11, "F64",  12, 28) \
    X(arg, TL_C64,  c64,  "c64",  "complex64",  tl_cf,    COMPLEX, 8,  TL_F32,  TL_C64,  TL_C64,  "<c8",  0,  0, "C64",  -1, -1) \
    X(arg, TL_C128, c128, "c128", "complex128", tl_cd,    COMPLEX, 16, TL_F64,  TL_C128, TL_C128, "<c16",  0,  0, NULL,   -1, -1)

/* A second pass over the list from inside an X of the first, for square
   tables (every dtype to every dtype): a macro cannot expand inside itself, so the
   inner TL_DTYPE_LIST_NESTED(Y, arg) is only marked, and expands when the
   whole outer list is wrapped in TL_DTYPE_EXPAND(...). */
#define TL_DTYPE_EMPTY_()
#define TL_DTYPE_LIST_AGAIN_() TL_DTYPE_LIST
#define TL_DTYPE_LIST_NESTED TL_DTYPE_LIST_AGAIN_ TL_DTYPE_EMPTY_() ()
#define TL_DTYPE_EXPAND(...) __VA_ARGS__

#endif
