/* stream.c — a tensor's elements in C order as runs of f32 or f64: in place, widened, dequantized from ggml blocks, or gathered */
#include <string.h>

#include "cast.h"
#include "io/internal.h"
#include "stream.h"

enum {
    IN_PLACE,     /* contiguous, of the run's type: a pointer into the tensor */
    WIDEN,        /* contiguous, another dtype: converted one element at a time */
    BLOCKS,       /* held as ggml blocks, whole rows from a block boundary: dequantized */
    GATHER,       /* any other layout: walked by index */
};

/* One element of dtype d at p as a double (integers and bool exactly up to 2^53). */
static double load_any(tl_dtype d, const char *p)
{
    switch (d) {
    case TL_BOOL: return (double)cast_load_b1(p);
    case TL_U8: return (double)cast_load_u8(p);
    case TL_U16: return (double)cast_load_u16(p);
    case TL_U32: return (double)cast_load_u32(p);
    case TL_U64: return (double)cast_load_u64(p);
    case TL_I8: return (double)cast_load_i8(p);
    case TL_I16: return (double)cast_load_i16(p);
    case TL_I32: return (double)cast_load_i32(p);
    case TL_I64: return (double)cast_load_i64(p);
    case TL_F16: return (double)cast_load_f16(p);
    case TL_BF16: return (double)cast_load_bf16(p);
    case TL_F32: return (double)cast_load_f32(p);
    default: return cast_load_f64(p);
    }
}

/* Does dtype d hold values an f32 cannot? */
static bool needs_wide(tl_dtype d)
{
    return d == TL_F64 || d == TL_I32 || d == TL_U32 || d == TL_I64 || d == TL_U64;
}

int tl_stream_init(tl_stream *s, const tl_tensor *t, bool want_wide)
{
    memset(s, 0, sizeof *s);
    if (tl_is_complex(t->dtype)) {
        tl_seterr(TypeError, "complex tensors are not supported (dtype %s): use real(x), imag(x) or abs(x)",
                  tl_dtype_name(t->dtype));
        return -1;
    }
    s->t = t;
    s->size = tl_tensor_size(t);
    s->wide = want_wide || needs_wide(t->dtype);
    const tl_ggml_type *q = tl_tensor_qtype(t);
    bool whole = tl_is_contiguous(t);
    if (q && whole && t->offset % q->block == 0 && (t->ndim == 0 || t->shape[t->ndim - 1] % q->block == 0)) {
        const uint8_t *blocks;
        int type;
        tl_storage_quant(t->storage, &blocks, &type);
        s->how = BLOCKS;
        s->q = q;
        s->qsrc = blocks + (size_t)(t->offset / q->block) * (size_t)q->bytes;
        return 0;
    }
    if (!whole) {
        s->how = GATHER;
        return 0;
    }
    s->data = s->size ? tl_tensor_data(t) : NULL;   /* not held as blocks: nothing is computed here */
    s->how = t->dtype == (s->wide ? TL_F64 : TL_F32) ? IN_PLACE : WIDEN;
    return 0;
}

/* Stores v as element i of a run of f32 or f64. */
static inline void put(void *buf, bool wide, int64_t i, double v)
{
    if (wide) ((double *)buf)[i] = v;
    else ((float *)buf)[i] = (float)v;
}

/* A contiguous run of another dtype, converted. */
static void widen(const tl_stream *s, int64_t first, int64_t n, void *buf)
{
    tl_dtype d = s->t->dtype;
    size_t es = tl_dtype_size(d);
    const char *p = s->data + (size_t)first * es;
    if (!s->wide && (d == TL_BF16 || d == TL_F16)) {   /* the common narrow floats, without the double */
        float *o = buf;
        for (int64_t i = 0; i < n; i++, p += 2) o[i] = d == TL_BF16 ? cast_load_bf16(p) : cast_load_f16(p);
        return;
    }
    for (int64_t i = 0; i < n; i++, p += es) put(buf, s->wide, i, load_any(d, p));
}

/* Any layout: element `first` found by its index, then walked along the last axis. */
static void gather(const tl_stream *s, int64_t first, int64_t n, void *buf)
{
    const tl_tensor *t = s->t;
    int nd = t->ndim;
    int64_t idx[TL_MAXDIM], rest = first;
    for (int k = nd - 1; k >= 0; k--) {
        idx[k] = rest % t->shape[k];
        rest /= t->shape[k];
    }
    size_t es = tl_dtype_size(t->dtype);
    int64_t last = nd ? t->shape[nd - 1] : 1, step = nd ? t->strides[nd - 1] * (int64_t)es : 0;
    for (int64_t i = 0; i < n;) {
        const char *p = tl_tensor_at(t, idx);
        int64_t run = nd ? last - idx[nd - 1] : 1;
        if (run > n - i) run = n - i;
        if (t->storage->kind == TL_STORAGE_LAZY) {   /* tl_tensor_at computed one element: the run's rest too */
            int64_t lo = (const char *)p - (const char *)t->storage->data, span = (run - 1) * step;
            tl_storage_materialize(t->storage, span < 0 ? lo + span : lo, (span < 0 ? lo : lo + span) + (int64_t)es);
        }
        for (int64_t j = 0; j < run; j++, p += step) put(buf, s->wide, i + j, load_any(t->dtype, p));
        i += run;
        for (int k = nd - 1; k >= 0 && run > 0; k--) {   /* the index of the next run */
            idx[k] += k == nd - 1 ? run : 1;
            if (idx[k] < t->shape[k]) break;
            idx[k] = 0;
            run = 1;
        }
    }
}

/* Elements of a tensor held as blocks: dequantized, or read as f32 where computed already. */
static const void *from_blocks(const tl_stream *s, int64_t first, int64_t n, void *buf)
{
    const tl_tensor *t = s->t;
    int64_t lo = (t->offset + first) * 4, hi = lo + n * 4;
    if (tl_storage_touched(t->storage, lo, hi)) {
        tl_storage_materialize(t->storage, lo, hi);
        const float *p = (const float *)((const char *)t->storage->data + lo);
        if (!s->wide) return p;
        for (int64_t i = 0; i < n; i++) ((double *)buf)[i] = p[i];
        return buf;
    }
    /* n is whole blocks: a run starts on a chunk, and the tensor's rows are whole blocks. Wide
       runs are dequantized into the buffer's upper half, then widened upwards: double i covers
       floats 2i - n and 2i - n + 1, already read. */
    float *f = s->wide ? (float *)buf + n : buf;
    const uint8_t *b = s->qsrc + (size_t)(first / s->q->block) * (size_t)s->q->bytes;
    for (int64_t i = 0; i < n; i += s->q->block, b += s->q->bytes) s->q->dequant(b, f + i);
    if (s->wide)
        for (int64_t i = 0; i < n; i++) ((double *)buf)[i] = f[i];
    return buf;
}

const void *tl_stream_read(const tl_stream *s, int64_t first, int64_t n, void *buf)
{
    switch (s->how) {
    case IN_PLACE: return s->data + (size_t)first * (s->wide ? 8 : 4);
    case WIDEN: widen(s, first, n, buf); return buf;
    case BLOCKS: return from_blocks(s, first, n, buf);
    default: gather(s, first, n, buf); return buf;
    }
}
