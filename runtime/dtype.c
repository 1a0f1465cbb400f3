/* dtype.c — the dtype table, type promotion, and scalar conversions */
#include <string.h>

#include "cast.h"
#include "dtype.h"

#define INFO_ROW(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, REAL, CPLX, WIDE, NPY, MBITS, EBITS, ST, GGUF, GGML) \
    [ENUM] = {NAME, NUMPY, SIZE, TL_KIND_##KIND, REAL, CPLX, WIDE, NPY, MBITS, EBITS, ST, GGUF, GGML},
const tl_dtype_info tl_dtypes[TL_NDTYPES] = { TL_DTYPE_LIST(INFO_ROW, ) };
#undef INFO_ROW

/* The list's C types and sizes agree. */
#define SIZE_CHECK(arg, ENUM, S, NAME, NUMPY, CTYPE, KIND, SIZE, ...) \
    _Static_assert(sizeof(CTYPE) == SIZE, NAME " has the size of its C type");
TL_DTYPE_LIST(SIZE_CHECK, )
#undef SIZE_CHECK

bool tl_dtype_from_name(const char *name, tl_dtype *out)
{
    for (int d = 0; d < TL_NDTYPES; d++) {   /* tl's names, and numpy's ("float32") */
        if (strcmp(name, tl_dtypes[d].name) == 0 || strcmp(name, tl_dtypes[d].numpy_name) == 0) {
            *out = (tl_dtype)d;
            return true;
        }
    }
    return false;
}

/* Short names so the table below reads like numpy's. */
enum {
    b_ = TL_BOOL, u1 = TL_U8, u2 = TL_U16, u4 = TL_U32, u8_ = TL_U64,
    i1 = TL_I8, i2 = TL_I16, i4 = TL_I32, i8_ = TL_I64,
    f2 = TL_F16, bf = TL_BF16, f4 = TL_F32, f8 = TL_F64, c8 = TL_C64, c16 = TL_C128,
};

/* np.result_type for every pair (rows and columns in tl_dtype order), as
   printed by tests/tools/gen_promotion_table.py with numpy 1.24.2; the bf16
   row and column are docs/language.md §7's rules (JAX/PyTorch): bf16 with bool or any
   integer stays bf16, with f16 or f32 gives f32, with f64 gives f64, with
   complex gives that complex type. */
static const uint8_t promote_table[TL_NDTYPES][TL_NDTYPES] = {
    /*        b    u1   u2   u4   u8   i1   i2   i4   i8   f2   bf   f4   f8   c8   c16 */
    /* b  */ {b_,  u1,  u2,  u4,  u8_, i1,  i2,  i4,  i8_, f2,  bf,  f4,  f8,  c8,  c16},
    /* u1 */ {u1,  u1,  u2,  u4,  u8_, i2,  i2,  i4,  i8_, f2,  bf,  f4,  f8,  c8,  c16},
    /* u2 */ {u2,  u2,  u2,  u4,  u8_, i4,  i4,  i4,  i8_, f4,  bf,  f4,  f8,  c8,  c16},
    /* u4 */ {u4,  u4,  u4,  u4,  u8_, i8_, i8_, i8_, i8_, f8,  bf,  f8,  f8,  c16, c16},
    /* u8 */ {u8_, u8_, u8_, u8_, u8_, f8,  f8,  f8,  f8,  f8,  bf,  f8,  f8,  c16, c16},
    /* i1 */ {i1,  i2,  i4,  i8_, f8,  i1,  i2,  i4,  i8_, f2,  bf,  f4,  f8,  c8,  c16},
    /* i2 */ {i2,  i2,  i4,  i8_, f8,  i2,  i2,  i4,  i8_, f4,  bf,  f4,  f8,  c8,  c16},
    /* i4 */ {i4,  i4,  i4,  i8_, f8,  i4,  i4,  i4,  i8_, f8,  bf,  f8,  f8,  c16, c16},
    /* i8 */ {i8_, i8_, i8_, i8_, f8,  i8_, i8_, i8_, i8_, f8,  bf,  f8,  f8,  c16, c16},
    /* f2 */ {f2,  f2,  f4,  f8,  f8,  f2,  f4,  f8,  f8,  f2,  f4,  f4,  f8,  c8,  c16},
    /* bf */ {bf,  bf,  bf,  bf,  bf,  bf,  bf,  bf,  bf,  f4,  bf,  f4,  f8,  c8,  c16},
    /* f4 */ {f4,  f4,  f4,  f8,  f8,  f4,  f4,  f8,  f8,  f4,  f4,  f4,  f8,  c8,  c16},
    /* f8 */ {f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  c16, c16},
    /* c8 */ {c8,  c8,  c8,  c16, c16, c8,  c8,  c16, c16, c8,  c8,  c8,  c16, c8,  c16},
    /* c16*/ {c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16},
};

tl_dtype tl_promote(tl_dtype a, tl_dtype b) { return (tl_dtype)promote_table[a][b]; }

/* Promotion rank of a kind where signed and unsigned integers are one kind. */
static int kind_rank(tl_dtype d)
{
    switch (tl_dtype_kind(d)) {
    case TL_KIND_BOOL: return 0;
    case TL_KIND_UINT:
    case TL_KIND_INT: return 1;
    case TL_KIND_FLOAT: return 2;
    default: return 3;
    }
}

/* NEP 50: a weak literal takes the strong dtype unless its kind is higher;
   then it is its kind's default at the strong operand's precision where one
   exists (f16/bf16/f32 + complex literal -> c64), else the default (i64, f64, c128). */
tl_dtype tl_promote_weak(tl_dtype strong, tl_dtype weak_default)
{
    int ks = kind_rank(strong), kw = kind_rank(weak_default);
    if (kw <= ks) return strong;
    switch (kw) {
    case 1: return TL_I64;
    case 2: return TL_F64;
    default: return tl_dtype_complex(strong);
    }
}

/* ---- scalar conversions --------------------------------------------------- */

double tl_scalar_to_f64(const void *p, tl_dtype d)
{
    double out;
    tl_scalar_convert(&out, TL_F64, p, d);
    return out;
}

int64_t tl_scalar_to_i64(const void *p, tl_dtype d)
{
    int64_t out;
    tl_scalar_convert(&out, TL_I64, p, d);
    return out;
}

uint64_t tl_scalar_to_u64(const void *p, tl_dtype d)
{
    uint64_t out;
    tl_scalar_convert(&out, TL_U64, p, d);
    return out;
}

void tl_scalar_to_c128(const void *p, tl_dtype d, double out[2])
{
    tl_scalar_convert(out, TL_C128, p, d);
}

/* One case of the inner switch: converts source dtype S to destination D. */
#define SCALAR_DST_CASE(S, E, D, ...) case E: CAST_ELEM(S, D, dst, src); return;
#define SCALAR_SRC_CASE(unused, E, S, ...)                   \
    case E:                                                  \
        switch (dd) {                                        \
            TL_DTYPE_LIST_NESTED(SCALAR_DST_CASE, S)         \
        default: return;                                     \
        }

void tl_scalar_convert(void *dst, tl_dtype dd, const void *src, tl_dtype sd)
{
    if (dd == sd) {
        memcpy(dst, src, tl_dtype_size(sd));
        return;
    }
    switch (sd) {
        TL_DTYPE_EXPAND(TL_DTYPE_LIST(SCALAR_SRC_CASE, ))
    default: return;
    }
}
#undef SCALAR_SRC_CASE
#undef SCALAR_DST_CASE

bool tl_scalar_is_nonzero(const void *p, tl_dtype d)
{
    uint8_t b;
    tl_scalar_convert(&b, TL_BOOL, p, d);
    return b != 0;
}

/* ---- half precision ------------------------------------------------------- */

float tl_f16_to_f32(uint16_t h) { return cast_f16_to_f32(h); }
uint16_t tl_f32_to_f16(float f) { return cast_f32_to_f16(f); }
uint16_t tl_f64_to_f16(double d) { return cast_f64_to_f16(d); }
float tl_bf16_to_f32(uint16_t h) { return cast_bf16_to_f32(h); }
uint16_t tl_f32_to_bf16(float f) { return cast_f32_to_bf16(f); }
uint16_t tl_f64_to_bf16(double d) { return cast_f64_to_bf16(d); }
