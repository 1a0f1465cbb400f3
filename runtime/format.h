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

/* Writes str(t) as numpy 1.24 would (bools as true/false, bf16 like f16 at
   bf16 precision, 0-d as numpy's scalar str). Streams: memory use does not
   grow with the tensor's size. Returns 0, or -1 (error set; interrupted too). */
int tl_fmt_tensor(const tl_tensor *t, const tl_printopts *o, tl_write_fn write, void *ctx);

/* Formats a scalar of dtype d as numpy's scalar str() does ("1.0", "1e-05", "(1+2j)", "true").
   Returns the length written (NUL added), or -1 with an error when buf is too
   small (128 bytes always suffice). */
int tl_fmt_scalar(const void *p, tl_dtype d, char *buf, size_t n);

/* Convenience: str(t) into a malloc'd string (NULL + error on failure). */
char *tl_fmt_tensor_string(const tl_tensor *t, const tl_printopts *o);

#endif
