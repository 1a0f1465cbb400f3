/* fuzz_print.c — libFuzzer target: the printer fed tensors (dtype, shape, strides, bytes), print
   options and a format spec, all read from the input */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "fuzz_common.h"

#define MAX_ELEMENTS ((int64_t)1 << 20)
#define MAX_STORAGE_BYTES ((int64_t)8 << 20)

/* The input, read a byte at a time; zeros once it runs out. */
typedef struct Reader { const uint8_t *p; size_t n; } Reader;

static uint8_t next_byte(Reader *r)
{
    if (!r->n) return 0;
    r->n--;
    return *r->p++;
}

/* One of a few values that matter, picked by the next byte. */
static int64_t pick(Reader *r, const int64_t *choices, size_t n) { return choices[next_byte(r) % n]; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_limits();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Reader r = { data, size };
    tl_dtype dtype = (tl_dtype)(next_byte(&r) % TL_NDTYPES);
    int ndim = next_byte(&r) % 6;
    bool custom_strides = next_byte(&r) & 1;
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM], count = 1;
    for (int i = 0; i < ndim; i++) {
        uint8_t b = next_byte(&r);
        shape[i] = b & 0x80 ? 1 + (int64_t)(b & 0x7f) * 16 : b % 9;   /* long axes are summarised */
        count *= shape[i] ? shape[i] : 1;
        if (count > MAX_ELEMENTS) return 0;
    }
    /* strides in elements (any sign, 0 too) and the smallest offset that keeps them in bounds */
    tl_contiguous_strides(ndim, shape, strides);
    int64_t offset = 0, last = 0;
    for (int i = 0; i < ndim; i++) {
        if (custom_strides) strides[i] = (int8_t)next_byte(&r);
        int64_t span = shape[i] ? (shape[i] - 1) * strides[i] : 0;
        if (span < 0) offset -= span;
        else last += span;
    }
    int64_t item = (int64_t)tl_dtype_size(dtype), nbytes = (offset + last + 1) * item;
    if (nbytes > MAX_STORAGE_BYTES) return 0;

    static const int64_t thresholds[] = { 0, 1, 5, 10, 64, 1000, INT64_MAX };
    static const int64_t edgeitems[] = { 0, 1, 2, 3, 5, 1000000 };
    static const int64_t linewidths[] = { 1, 2, 10, 20, 75, 200, 100000 };
    tl_printopts o;
    uint8_t p = next_byte(&r);
    o.precision = p < 200 ? p % 17 : p % 101;
    o.threshold = pick(&r, thresholds, sizeof thresholds / sizeof *thresholds);
    o.edgeitems = (int)pick(&r, edgeitems, sizeof edgeitems / sizeof *edgeitems);
    o.linewidth = (int)pick(&r, linewidths, sizeof linewidths / sizeof *linewidths);
    o.suppress = next_byte(&r) & 1;

    /* a format spec of up to 23 bytes (Python's mini-language): the tensor, an element and the
       spec's own text go through it; widths and precisions past 2^16 are skipped, as they only
       make long output (up to the 2^31 CPython allows) */
    char spec_text[24];
    size_t spec_len = next_byte(&r) % sizeof spec_text;
    for (size_t i = 0; i < spec_len; i++) spec_text[i] = (char)next_byte(&r);
    tl_fmtspec spec;
    tl_fmtspec_parse(&spec, spec_text, spec_len);
    bool spec_ok = spec.width <= 65536 && spec.precision <= 65536;

    /* the elements: the rest of the input, repeated (random floats are nan, inf, subnormal...) */
    tl_storage *s = tl_storage_new((size_t)nbytes, true);
    if (!s) abort();
    uint8_t *bytes = s->data;
    for (int64_t i = 0; r.n && i < nbytes; i++) bytes[i] = r.p[i % (int64_t)r.n];
    if (dtype == TL_BOOL)   /* a bool tensor holds 0 or 1 in every byte (loaders and bitcast see to it) */
        for (int64_t i = 0; i < nbytes; i++) bytes[i] &= 1;
    tl_tensor *t = tl_tensor_view_of(s, dtype, ndim, shape, strides, offset);
    tl_storage_release(s);
    if (!t) abort();   /* the strides were made to fit */

    fuzz_begin_input();
    (void)tl_fmt_tensor(t, &o, fuzz_discard, NULL);
    char buf[128];
    if (tl_fmt_scalar(tl_tensor_data(t), dtype, buf, sizeof buf) < 0) abort();   /* 128 bytes always suffice */
    if (spec_ok) {
        (void)tl_fmt_tensor_spec(t, &spec, &o, fuzz_discard, NULL);
        (void)tl_format_scalar(&spec, tl_tensor_data(t), dtype, fuzz_discard, NULL);
        (void)tl_format_str(&spec, spec_text, spec_len, fuzz_discard, NULL);
    }
    fuzz_end_input();
    tl_tensor_release(t);
    return 0;
}
