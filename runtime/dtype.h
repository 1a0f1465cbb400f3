/* dtype.h — the dtype table, promotion, and scalar conversions */
#ifndef TL_DTYPE_H
#define TL_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype_list.h"

/* One element of c64 / c128 storage: numpy's layout, numpy's formulas in the
   kernels (not C99 Annex G's slow NaN-recovering multiply). */
typedef struct { float re, im; } tl_cf;
typedef struct { double re, im; } tl_cd;

/* TL_BOOL, TL_U8, ... in the master list's order. */
#define TL_DTYPE_ENUM_(arg, ENUM, ...) ENUM,
typedef enum tl_dtype {
    TL_DTYPE_LIST(TL_DTYPE_ENUM_, )
    TL_NDTYPES
} tl_dtype;
#undef TL_DTYPE_ENUM_

/* Kinds in promotion order: bool < int (signed or unsigned) < float < complex. */
typedef enum tl_kind { TL_KIND_BOOL, TL_KIND_UINT, TL_KIND_INT, TL_KIND_FLOAT, TL_KIND_COMPLEX } tl_kind;

typedef struct tl_dtype_info {
    const char *name;       /* tl's name: "f32" */
    const char *numpy_name; /* numpy's: "float32" (bf16 has none: "bfloat16") */
    uint8_t size;           /* bytes per element */
    uint8_t kind;           /* tl_kind */
    uint8_t real;           /* real dtype of the same precision (c64 -> f32) */
    uint8_t cplx;           /* complex dtype it gives with a weak complex literal */
    uint8_t wide;           /* dtype its arithmetic runs in (f16 -> f32) */
    const char *npy_descr;  /* how .npy files spell it: "<f4" */
    uint8_t mbits, ebits;   /* float significand (stored) and exponent bits; 0 otherwise */
    const char *safetensors; /* its .safetensors name ("F32"), NULL when none */
    int8_t gguf;            /* its GGUF metadata value type, -1 when none */
    int8_t ggml;            /* its ggml tensor type in .gguf files, -1 when none */
} tl_dtype_info;

extern const tl_dtype_info tl_dtypes[TL_NDTYPES];

static inline size_t tl_dtype_size(tl_dtype d) { return tl_dtypes[d].size; }
static inline tl_kind tl_dtype_kind(tl_dtype d) { return (tl_kind)tl_dtypes[d].kind; }
static inline const char *tl_dtype_name(tl_dtype d) { return tl_dtypes[d].name; }
static inline bool tl_is_int(tl_dtype d) { return tl_dtype_kind(d) == TL_KIND_INT || tl_dtype_kind(d) == TL_KIND_UINT; }
static inline bool tl_is_float(tl_dtype d) { return tl_dtype_kind(d) == TL_KIND_FLOAT; }
static inline bool tl_is_complex(tl_dtype d) { return tl_dtype_kind(d) == TL_KIND_COMPLEX; }
/* Bool or an integer: what numpy's float functions promote (sqrt(i8) -> f16). */
static inline bool tl_is_intlike(tl_dtype d) { return tl_dtype_kind(d) <= TL_KIND_INT; }
/* c64 -> f32, c128 -> f64, any other dtype itself. */
static inline tl_dtype tl_dtype_real(tl_dtype d) { return (tl_dtype)tl_dtypes[d].real; }
/* The complex dtype of d's precision: f16/bf16/f32/c64 -> c64, else c128. */
static inline tl_dtype tl_dtype_complex(tl_dtype d) { return (tl_dtype)tl_dtypes[d].cplx; }
/* The dtype d's arithmetic runs in: f32 for f16 and bf16, else d. */
static inline tl_dtype tl_dtype_wide(tl_dtype d) { return (tl_dtype)tl_dtypes[d].wide; }
/* f16 or bf16: stored in 16 bits, computed in f32. */
static inline bool tl_is_half(tl_dtype d) { return tl_is_float(d) && tl_dtypes[d].wide != d; }
/* The smallest value of a bool or integer dtype (bool: 0); 0 for other kinds. */
static inline int64_t tl_int_min(tl_dtype d)
{
    if (tl_dtype_kind(d) != TL_KIND_INT) return 0;
    return -INT64_C(1) - (int64_t)((UINT64_C(1) << (8 * tl_dtype_size(d) - 1)) - 1);
}
/* The largest value of a bool or integer dtype (bool: 1); 0 for other kinds. */
static inline uint64_t tl_int_max(tl_dtype d)
{
    if (tl_dtype_kind(d) == TL_KIND_BOOL) return 1;
    if (!tl_is_int(d)) return 0;
    int bits = 8 * (int)tl_dtype_size(d) - (tl_dtype_kind(d) == TL_KIND_INT);
    return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* The C integer types that bool and integer dtypes are stored as. Kernels that work on
   integer storage (narrow sums, bincount, isin's bitmap) stamp one loop per C type,
   X(NAME, T, S), and pick it by tl_int_ctype_of(d), so a new integer dtype needs no row
   there: it is stored as one of these. */
#define TL_INT_CTYPES(X) \
    X(U8, uint8_t, u8) X(U16, uint16_t, u16) X(U32, uint32_t, u32) X(U64, uint64_t, u64) \
    X(I8, int8_t, i8) X(I16, int16_t, i16) X(I32, int32_t, i32) X(I64, int64_t, i64)
#define TL_INT_CTYPE_ENUM_(NAME, T, S) TL_CT_##NAME,
typedef enum tl_int_ctype { TL_INT_CTYPES(TL_INT_CTYPE_ENUM_) TL_NCTYPES } tl_int_ctype;
#undef TL_INT_CTYPE_ENUM_
/* d's storage type (bool: TL_CT_U8); -1 when d is not bool or an integer. */
static inline int tl_int_ctype_of(tl_dtype d)
{
    if (!tl_is_intlike(d)) return -1;
    return (tl_dtype_kind(d) == TL_KIND_INT ? TL_CT_I8 : TL_CT_U8) + __builtin_ctz((unsigned)tl_dtype_size(d));
}

/* Looks a dtype up by tl name ("f32") or numpy's ("float32"); returns false when unknown. */
bool tl_dtype_from_name(const char *name, tl_dtype *out);

/* Result dtype of two strong operands: numpy's result_type plus the bf16 rules of docs/language.md §7. */
tl_dtype tl_promote(tl_dtype a, tl_dtype b);

/* Result dtype of a strong operand with a weak (literal) operand of kind k
   whose own default dtype is weak_default (NEP 50). */
tl_dtype tl_promote_weak(tl_dtype strong, tl_dtype weak_default);

/* A scalar held in its dtype's native layout (what one element of a tensor
   of that dtype looks like in memory), so it can be memcpy'd into storage. */
typedef union tl_scalar {
    bool b;
    uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
    int8_t i8; int16_t i16; int32_t i32; int64_t i64;
    uint16_t half;          /* f16 or bf16 bits */
    float f32; double f64;
    float c64[2]; double c128[2];
    unsigned char bytes[16];
} tl_scalar;

/* Exact-as-possible wide forms of a scalar, used by slow generic paths. */
double tl_scalar_to_f64(const void *p, tl_dtype d);           /* real part */
int64_t tl_scalar_to_i64(const void *p, tl_dtype d);          /* wraps like a C cast from the exact value */
uint64_t tl_scalar_to_u64(const void *p, tl_dtype d);
void tl_scalar_to_c128(const void *p, tl_dtype d, double out[2]);
/* Converts one element between any two dtypes (integer casts wrap, floats round to nearest even). */
void tl_scalar_convert(void *dst, tl_dtype dd, const void *src, tl_dtype sd);
bool tl_scalar_is_nonzero(const void *p, tl_dtype d);

/* Half-precision conversions: round to nearest even, NaN stays NaN,
   f64 rounds once (no double rounding through f32). */
float tl_f16_to_f32(uint16_t h);
uint16_t tl_f32_to_f16(float f);
uint16_t tl_f64_to_f16(double d);
float tl_bf16_to_f32(uint16_t h);
uint16_t tl_f32_to_bf16(float f);
uint16_t tl_f64_to_bf16(double d);

#endif
