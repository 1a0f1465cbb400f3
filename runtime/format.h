/* format.h — numpy-exact text form of tensors (numpy 1.24 str()), streamed */
#ifndef TL_FORMAT_H
#define TL_FORMAT_H

#include "tensor.h"

typedef struct tl_printopts {
    int precision;      /* 8 */
    int64_t threshold;  /* 1000 */
    int edgeitems;      /* 3 */
    int linewidth;      /* 75 */
    bool suppress;      /* false */
} tl_printopts;

/* The options in force (printopts() changes them). */
extern tl_printopts tl_print_options;
void tl_printopts_default(tl_printopts *o);

/* Where text goes: called with successive pieces (at most 4 KiB each);
   returns 0, or -1 to stop (the writer sets the error it wants reported). */
typedef int (*tl_write_fn)(void *ctx, const char *s, size_t n);

/* A small buffer in front of a writer, so text made a few bytes at a time (escapes, padding,
   a number's parts) reaches it in pieces (format_spec.c). Put text, then end (which flushes): 0, or -1 when
   the writer failed. */
typedef struct tl_wbuf {
    tl_write_fn write;
    void *ctx;
    int failed;
    size_t n;
    char buf[512];
} tl_wbuf;
void tl_wbuf_init(tl_wbuf *b, tl_write_fn write, void *ctx);
void tl_wbuf_put(tl_wbuf *b, const char *s, size_t n);
/* count copies of the character c (len bytes: a UTF-8 fill character). */
void tl_wbuf_fill(tl_wbuf *b, const char *c, size_t len, int64_t count);
int tl_wbuf_end(tl_wbuf *b);

/* Writes str(t) as numpy 1.24 would (bools as true/false, bf16 like f16 at
   bf16 precision, 0-d as numpy's scalar str). Streams: memory use does not
   grow with the tensor's size. Returns 0, or -1 (error set; interrupted too). */
int tl_fmt_tensor(const tl_tensor *t, const tl_printopts *o, tl_write_fn write, void *ctx);

/* Formats a scalar of dtype d as numpy's scalar str() does ("1.0", "1e-05", "(1+2j)", "true").
   Returns the length written (NUL added), or -1 with an error when buf is too
   small (128 bytes always suffice). */
int tl_fmt_scalar(const void *p, tl_dtype d, char *buf, size_t n);

/* The longest width or precision a format spec or a % conversion honours: a longer text is
   refused as out of memory at once (CPython would try to allocate it, 100 GB for "%99999999999d"). */
#define TL_FORMAT_MAX_FIELD ((int64_t)1 << 30)

/* ---- format specs (format_spec.c): Python's mini-language, as CPython 3.11's format() ----
   [[fill]align][sign][z][#][0][width][,|_][.precision][type]. A spec is parsed once; a parse
   error is kept in it and reported (with the value's type, as CPython words it) when a value
   is formatted, so a constant spec can be parsed before any value is known. */
typedef struct tl_fmtspec {
    const char *text;     /* the spec as written (not owned: it must outlive the uses) */
    size_t len;
    uint8_t error;        /* 0, or the parse error found */
    char fill[4];         /* the fill character's UTF-8 bytes (' ' unless given) */
    uint8_t fill_len;
    bool fill_given;
    char align;           /* '<' '>' '=' '^', or 0: the type's default */
    char sign;            /* '+' '-' ' ', or 0 */
    bool no_neg_0, alt, zero;   /* 'z', '#', and '0' before the width */
    char grouping;        /* ',' '_', or 0 */
    int64_t width, precision;   /* -1: not given */
    uint32_t type;        /* the type's code point, or 0 */
} tl_fmtspec;

/* Parses text[0..len) (never fails: see above). */
void tl_fmtspec_parse(tl_fmtspec *s, const char *text, size_t len);

/* format(v, spec) for a Python int (-mag when neg; is_bool: a bool, which formats as an int
   but names itself 'bool' and gives 'True'/'False' for an empty spec), a float, a complex and a
   str (UTF-8; width and precision count characters). Each returns 0, or -1 with the error set
   (ValueError with CPython's message; MemoryError). */
int tl_format_int(const tl_fmtspec *s, bool neg, uint64_t mag, bool is_bool, tl_write_fn write, void *ctx);
int tl_format_float(const tl_fmtspec *s, double v, tl_write_fn write, void *ctx);
int tl_format_complex(const tl_fmtspec *s, double re, double im, tl_write_fn write, void *ctx);
int tl_format_str(const tl_fmtspec *s, const char *p, size_t n, tl_write_fn write, void *ctx);
/* A scalar of dtype d as numpy's scalar __format__ does it (bool as Python's bool, integers as
   int, f16/bf16/f32/f64 as float, c64/c128 as complex); an empty spec gives the print form
   (tl_fmt_scalar). */
int tl_format_scalar(const tl_fmtspec *s, const void *p, tl_dtype d, tl_write_fn write, void *ctx);
/* A tensor with one or more axes, each element through tl_format_scalar with the spec, laid out
   as tl_fmt_tensor lays out elements (numpy's array2string with formatter={'all': ...}). */
int tl_fmt_tensor_spec(const tl_tensor *t, const tl_fmtspec *s, const tl_printopts *o, tl_write_fn write, void *ctx);

/* Convenience: str(t) into a malloc'd string (NULL + error on failure). */
char *tl_fmt_tensor_string(const tl_tensor *t, const tl_printopts *o);

#endif
