/* cast.h — private inline element converters shared by dtype.c, the cast kernels, the mat-vec kernels and GGUF dequantization */
#ifndef TL_CAST_H
#define TL_CAST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dtype.h"

/* ---- float -> integer ----------------------------------------------------
   In range, a cast truncates toward zero (as numpy on x86). Out of range or
   NaN is undefined behaviour in C, so we define it the way gcc's scalar code
   behaves on x86-64: 8/16/32-bit targets go through a 32-bit cvttsd2si
   (out of range -> INT32_MIN, then wrapped to the width), u32 and i64 through
   the 64-bit one (-> INT64_MIN, then wrapped), u64 is exact below 2^64 and 0
   above it or for NaN. numpy agrees except for some out-of-range u32 values. */
static inline int32_t cast_f64_to_i32(double d)
{
    if (!(d > -2147483649.0 && d < 2147483648.0)) return INT32_MIN;
    return (int32_t)d;
}

static inline int64_t cast_f64_to_i64(double d)
{
    if (!(d >= -0x1p63 && d < 0x1p63)) return INT64_MIN;
    return (int64_t)d;
}

static inline uint64_t cast_f64_to_u64(double d)
{
    if (d < 0x1p63) return (uint64_t)cast_f64_to_i64(d);
    if (d < 0x1p64) return (uint64_t)d;
    return 0;
}

/* ---- integer -> f64 rounded to odd ----------------------------------------
   A 64-bit integer rounded to f64 with round-to-odd, so a second rounding to
   bf16/f16 (8 or 11 significant bits) is correct: no double rounding. */
static inline double cast_u64_to_f64_odd(uint64_t u)
{
    if (u <= (UINT64_C(1) << 53)) return (double)u;
    int lz = __builtin_clzll(u);
    int drop = 11 - lz;                      /* bits below f64's 53 */
    uint64_t kept = u >> drop;
    if (u & ((UINT64_C(1) << drop) - 1)) kept |= 1;   /* sticky into the odd bit */
    return ldexp((double)kept, drop);        /* kept < 2^53: exact */
}

static inline double cast_i64_to_f64_odd(int64_t v)
{
    if (v >= 0) return cast_u64_to_f64_odd((uint64_t)v);
    return -cast_u64_to_f64_odd(-(uint64_t)v);
}

/* ---- half precision ------------------------------------------------------ */
static inline uint32_t cast_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float cast_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t cast_f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* f16 -> f32, exact; NaN payloads kept bit for bit (numpy's rule, no quieting). Normal
   numbers and inf/NaN share one path (the exponent chosen without a branch): two instructions
   fewer per element than testing inf/NaN first. */
static inline float cast_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
    if (exp == 0) {   /* zero or subnormal: man * 2^-24, exact in f32 */
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return cast_bits_f32(sign | (exp == 0x1f ? 0x7f800000u | man << 13 : (exp + 112) << 23 | man << 13));
}

/* Rounds |x| = s53 * 2^(e - 52) (s53 holding the implicit bit) to a binary
   format with mbits mantissa bits and the given exponent bias, nearest even;
   subnormal results and overflow to inf fall out of the carry. */
static inline uint16_t cast_round_small(uint16_t sign, int e, uint64_t s53, int mbits, int bias)
{
    int emin = 1 - bias;
    if (e > bias) return (uint16_t)(sign | (((1u << (15 - mbits)) - 1) << mbits)); /* inf */
    if (e < emin - mbits - 1) return sign;                                        /* < half the smallest subnormal */
    int shift = 52 - mbits + (e < emin ? emin - e : 0);
    uint32_t h = (e >= emin ? (uint32_t)(e + bias - 1) << mbits : 0) + (uint32_t)(s53 >> shift);
    uint64_t rem = s53 & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

/* Splits a finite nonzero f64 into exponent and 53-bit significand. */
static inline void cast_split_f64(uint64_t u, int *e, uint64_t *s53)
{
    int be = (int)((u >> 52) & 0x7ff);
    uint64_t man = u & ((UINT64_C(1) << 52) - 1);
    if (be == 0) { *e = -1022; *s53 = man; }     /* f64 subnormal: far below any half range */
    else { *e = be - 1023; *s53 = man | (UINT64_C(1) << 52); }
}

/* f64 -> f16 in one rounding; NaN keeps its top 10 payload bits (numpy). */
static inline uint16_t cast_f64_to_f16(double d)
{
    uint64_t u = cast_f64_bits(d);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    uint64_t mag = u & ~(UINT64_C(1) << 63);
    if (mag >= UINT64_C(0x7ff0000000000000)) {
        if (mag == UINT64_C(0x7ff0000000000000)) return sign | 0x7c00u;
        uint16_t r = (uint16_t)(0x7c00u + ((mag & ((UINT64_C(1) << 52) - 1)) >> 42));
        return sign | (r == 0x7c00u ? 0x7c01u : r);
    }
    if (mag == 0) return sign;
    int e; uint64_t s;
    cast_split_f64(mag, &e, &s);
    return cast_round_small(sign, e, s, 10, 15);
}

/* f32 -> f16, nearest even; NaN keeps its top 10 payload bits, never becoming inf. */
static inline uint16_t cast_f32_to_f16(float f)
{
    uint32_t u = cast_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        uint16_t r = (uint16_t)(0x7c00u + ((u & 0x7fffffu) >> 13));
        return (uint16_t)(((u >> 16) & 0x8000u) | (r == 0x7c00u ? 0x7c01u : r));
    }
    return cast_f64_to_f16((double)f);   /* exact widening, then one rounding */
}

/* f32 -> bf16, nearest even in integer arithmetic; NaN forced quiet (ggml/Intel). */
static inline uint16_t cast_f32_to_bf16(float f)
{
    uint32_t u = cast_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* f64 -> bf16 in one rounding; NaN keeps its top 7 payload bits and is made quiet. */
static inline uint16_t cast_f64_to_bf16(double d)
{
    uint64_t u = cast_f64_bits(d);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    uint64_t mag = u & ~(UINT64_C(1) << 63);
    if (mag >= UINT64_C(0x7ff0000000000000)) {
        if (mag == UINT64_C(0x7ff0000000000000)) return sign | 0x7f80u;
        return (uint16_t)(sign | 0x7fc0u | ((mag >> 45) & 0x7fu));
    }
    if (mag == 0) return sign;
    int e; uint64_t s;
    cast_split_f64(mag, &e, &s);
    return cast_round_small(sign, e, s, 7, 127);
}

static inline float cast_bf16_to_f32(uint16_t h) { return cast_bits_f32((uint32_t)h << 16); }

/* ---- per-class element converters ----------------------------------------
   Every dtype loads exactly into one of six "classes": i64 (bool, signed and
   u8..u32), u64, f32 (f16, bf16, f32), f64, c64, c128; each dtype stores from
   each class. A pair converter is store_D_from_CLASS(load_S(src)). */
typedef tl_cf cast_c64;
typedef tl_cd cast_c128;

#define CAST_LOADSTORE_MEM(T, name)                                                  \
    static inline T cast_mem_##name(const void *p) { T v; memcpy(&v, p, sizeof v); return v; } \
    static inline void cast_put_##name(void *p, T v) { memcpy(p, &v, sizeof v); }
CAST_LOADSTORE_MEM(uint8_t, u8)
CAST_LOADSTORE_MEM(uint16_t, u16)
CAST_LOADSTORE_MEM(uint32_t, u32)
CAST_LOADSTORE_MEM(uint64_t, u64)
CAST_LOADSTORE_MEM(int8_t, i8)
CAST_LOADSTORE_MEM(int16_t, i16)
CAST_LOADSTORE_MEM(int32_t, i32)
CAST_LOADSTORE_MEM(int64_t, i64)
CAST_LOADSTORE_MEM(float, f32)
CAST_LOADSTORE_MEM(double, f64)
CAST_LOADSTORE_MEM(cast_c64, c64)
CAST_LOADSTORE_MEM(cast_c128, c128)
#undef CAST_LOADSTORE_MEM

/* Element sizes as constants (CAST_SIZE_f32), for loops the compiler can vectorize. */
#define CAST_SIZE_ENUM_(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, ...) CAST_SIZE_##S = SIZE,
enum { TL_DTYPE_LIST(CAST_SIZE_ENUM_, ) };
#undef CAST_SIZE_ENUM_

/* Loads: each dtype loads into the class its return type names. */
static inline int64_t cast_load_b1(const void *p) { return cast_mem_u8(p) != 0; }
static inline int64_t cast_load_u8(const void *p) { return cast_mem_u8(p); }
static inline int64_t cast_load_u16(const void *p) { return cast_mem_u16(p); }
static inline int64_t cast_load_u32(const void *p) { return cast_mem_u32(p); }
static inline uint64_t cast_load_u64(const void *p) { return cast_mem_u64(p); }
static inline int64_t cast_load_i8(const void *p) { return cast_mem_i8(p); }
static inline int64_t cast_load_i16(const void *p) { return cast_mem_i16(p); }
static inline int64_t cast_load_i32(const void *p) { return cast_mem_i32(p); }
static inline int64_t cast_load_i64(const void *p) { return cast_mem_i64(p); }
static inline float cast_load_f16(const void *p) { return cast_f16_to_f32(cast_mem_u16(p)); }
static inline float cast_load_bf16(const void *p) { return cast_bf16_to_f32(cast_mem_u16(p)); }
static inline float cast_load_f32(const void *p) { return cast_mem_f32(p); }
static inline double cast_load_f64(const void *p) { return cast_mem_f64(p); }
static inline cast_c64 cast_load_c64(const void *p) { return cast_mem_c64(p); }
static inline cast_c128 cast_load_c128(const void *p) { return cast_mem_c128(p); }

/* Stores into integer dtypes: integers wrap; floats follow the rules above. */
#define CAST_STORE_INT(name, T, FROMF64)                                                          \
    static inline void cast_store_##name##_from_i64(void *p, int64_t v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_u64(void *p, uint64_t v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_f64(void *p, double v) { cast_put_##name(p, (T)FROMF64(v)); } \
    static inline void cast_store_##name##_from_f32(void *p, float v) { cast_store_##name##_from_f64(p, v); } \
    static inline void cast_store_##name##_from_c64(void *p, cast_c64 v) { cast_store_##name##_from_f64(p, v.re); } \
    static inline void cast_store_##name##_from_c128(void *p, cast_c128 v) { cast_store_##name##_from_f64(p, v.re); }
CAST_STORE_INT(u8, uint8_t, cast_f64_to_i32)
CAST_STORE_INT(u16, uint16_t, cast_f64_to_i32)
CAST_STORE_INT(u32, uint32_t, cast_f64_to_i64)
CAST_STORE_INT(u64, uint64_t, cast_f64_to_u64)
CAST_STORE_INT(i8, int8_t, cast_f64_to_i32)
CAST_STORE_INT(i16, int16_t, cast_f64_to_i32)
CAST_STORE_INT(i32, int32_t, cast_f64_to_i32)
CAST_STORE_INT(i64, int64_t, cast_f64_to_i64)
#undef CAST_STORE_INT

/* Stores into bool: nonzero (NaN counts as nonzero, as numpy). */
static inline void cast_store_b1_from_i64(void *p, int64_t v) { cast_put_u8(p, v != 0); }
static inline void cast_store_b1_from_u64(void *p, uint64_t v) { cast_put_u8(p, v != 0); }
static inline void cast_store_b1_from_f32(void *p, float v) { cast_put_u8(p, v != 0); }
static inline void cast_store_b1_from_f64(void *p, double v) { cast_put_u8(p, v != 0); }
static inline void cast_store_b1_from_c64(void *p, cast_c64 v) { cast_put_u8(p, v.re != 0 || v.im != 0); }
static inline void cast_store_b1_from_c128(void *p, cast_c128 v) { cast_put_u8(p, v.re != 0 || v.im != 0); }

/* Stores into f16/bf16: one rounding from the exact source value. */
#define CAST_STORE_HALF(name)                                                                        \
    static inline void cast_store_##name##_from_i64(void *p, int64_t v) { cast_put_u16(p, cast_f64_to_##name(cast_i64_to_f64_odd(v))); } \
    static inline void cast_store_##name##_from_u64(void *p, uint64_t v) { cast_put_u16(p, cast_f64_to_##name(cast_u64_to_f64_odd(v))); } \
    static inline void cast_store_##name##_from_f32(void *p, float v) { cast_put_u16(p, cast_f32_to_##name(v)); } \
    static inline void cast_store_##name##_from_f64(void *p, double v) { cast_put_u16(p, cast_f64_to_##name(v)); } \
    static inline void cast_store_##name##_from_c64(void *p, cast_c64 v) { cast_put_u16(p, cast_f32_to_##name(v.re)); } \
    static inline void cast_store_##name##_from_c128(void *p, cast_c128 v) { cast_put_u16(p, cast_f64_to_##name(v.re)); }
CAST_STORE_HALF(f16)
CAST_STORE_HALF(bf16)
#undef CAST_STORE_HALF

/* Stores into f32/f64: C conversions round to nearest even (one rounding). */
#define CAST_STORE_REAL(name, T)                                                                     \
    static inline void cast_store_##name##_from_i64(void *p, int64_t v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_u64(void *p, uint64_t v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_f32(void *p, float v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_f64(void *p, double v) { cast_put_##name(p, (T)v); } \
    static inline void cast_store_##name##_from_c64(void *p, cast_c64 v) { cast_put_##name(p, (T)v.re); } \
    static inline void cast_store_##name##_from_c128(void *p, cast_c128 v) { cast_put_##name(p, (T)v.re); }
CAST_STORE_REAL(f32, float)
CAST_STORE_REAL(f64, double)
#undef CAST_STORE_REAL

/* Stores into complex: real part converted, imaginary part zero. */
#define CAST_STORE_COMPLEX(name, CT, T)                                                              \
    static inline void cast_store_##name##_from_i64(void *p, int64_t v) { cast_put_##name(p, (CT){(T)v, 0}); } \
    static inline void cast_store_##name##_from_u64(void *p, uint64_t v) { cast_put_##name(p, (CT){(T)v, 0}); } \
    static inline void cast_store_##name##_from_f32(void *p, float v) { cast_put_##name(p, (CT){(T)v, 0}); } \
    static inline void cast_store_##name##_from_f64(void *p, double v) { cast_put_##name(p, (CT){(T)v, 0}); } \
    static inline void cast_store_##name##_from_c64(void *p, cast_c64 v) { cast_put_##name(p, (CT){(T)v.re, (T)v.im}); } \
    static inline void cast_store_##name##_from_c128(void *p, cast_c128 v) { cast_put_##name(p, (CT){(T)v.re, (T)v.im}); }
CAST_STORE_COMPLEX(c64, cast_c64, float)
CAST_STORE_COMPLEX(c128, cast_c128, double)
#undef CAST_STORE_COMPLEX

/* CAST_ELEM(S, D, dst, src): converts one element of dtype S at src to D at
   dst; the store is picked by the class cast_load_S returns. */
#define CAST_ELEM(S, D, dst, src)                                                     \
    _Generic(cast_load_##S(src),                                                      \
        int64_t: cast_store_##D##_from_i64, uint64_t: cast_store_##D##_from_u64,       \
        float: cast_store_##D##_from_f32, double: cast_store_##D##_from_f64,           \
        cast_c64: cast_store_##D##_from_c64, cast_c128: cast_store_##D##_from_c128)    \
    ((dst), cast_load_##S(src))

#endif
