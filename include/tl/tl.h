/* tl.h — tl embedded in a C program: states, running code, tensors over the program's own memory */
#ifndef TL_TL_H
#define TL_TL_H

/* The whole C API of libtl (docs/embedding.md has a worked example). As in Lua's lua.h, a
   program opens a state, runs code in it, exchanges values with it and closes it:

       tl_state *S = tl_open();
       if (tl_eval(S, "fn scale(x, w) = x * w + 1") != TL_OK) ...
       tl_array x = tl_array_of(data, TL_TYPE_F32, 2, (int64_t[]){ 1000, 1000 });
       tl_array y;
       if (tl_call(S, "scale", 2, (tl_array[]){ x, tl_array_of(&w, TL_TYPE_F32, 0, NULL) }, &y) != TL_OK)
           fputs(tl_lasterror(S)->text, stderr);
       tl_close(S);

   Nothing here exits, aborts or prints on an error: each call that can fail returns TL_OK or
   the error's kind, and tl_lasterror() tells the rest. Tensors cross the boundary without
   copies both ways: a tl_array describes memory (a data pointer, a dtype, a shape and byte
   strides), tl reads the caller's arrays in place, and the caller reads tl's in place.

   Threads: a state belongs to one thread at a time (it may move between calls); different
   states run on different threads at once. What states share is process-wide: the kernels'
   thread pool (safe), the random numbers' seed (seed(n) in one state reseeds them all), the
   print options (printopts), the kernel thread count (threads(n)) and the interrupt
   request (tl_interrupt). docs/embedding.md lists what is and is not thread-safe. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function below is marked TL_API: the library exports these and nothing else. */
#if defined(__GNUC__)
#define TL_API __attribute__((visibility("default")))
#else
#define TL_API
#endif

#define TL_VERSION_MAJOR 0
#define TL_VERSION_MINOR 1
#define TL_VERSION_PATCH 0

/* An interpreter: its global variables, its functions and its last error. */
typedef struct tl_state tl_state;

/* What a call returns: TL_OK, or the kind of the error, the same kinds as try/catch's e.kind. */
typedef enum tl_status {
    TL_OK = 0,
    TL_ERR_SHAPE,            /* ShapeError: shapes that do not broadcast, a bad reshape, ... */
    TL_ERR_INDEX,            /* IndexError: an index out of bounds, a missing dict key */
    TL_ERR_TYPE,             /* TypeError: the wrong kind of value or dtype, a wrong argument count */
    TL_ERR_VALUE,            /* ValueError: a bad argument value */
    TL_ERR_ZERO_DIVISION,    /* ZeroDivisionError: integer division by zero */
    TL_ERR_MEMORY,           /* MemoryError: an allocation that cannot be made */
    TL_ERR_FILE,             /* FileError: a missing, unreadable or malformed file */
    TL_ERR_RECURSION,        /* RecursionError: calls nested too deeply */
    TL_ERR_ASSERTION,        /* AssertionError: assert(cond) with cond false */
    TL_ERR_ERROR,            /* Error: error(msg), an undefined name, anything else */
    TL_ERR_INTERRUPT,        /* Interrupt: tl_interrupt() stopped the code */
    TL_ERR_SYNTAX,           /* SyntaxError: the code does not parse */
} tl_status;

/* The last error of a state. Its strings belong to the state and stay valid until the next
   call on it (or tl_close). After a call that succeeded, status is TL_OK and the strings are "". */
typedef struct tl_error {
    tl_status status;
    const char *kind;        /* "TypeError", ... as e.kind names it */
    const char *message;     /* "name 'q' is not defined" */
    const char *file;        /* the chunk's name ("<eval>" for tl_eval); "" when the error has no place */
    int line, column;        /* 1-based (columns count bytes); 0 when the error has no place */
    const char *text;        /* the whole report as tl prints it: "FILE:LINE:COL: error[KIND]: MESSAGE",
                                the line with a caret under the place, then the call sites */
} tl_error;

/* Element types, numpy's dtypes under tl's names. */
typedef enum tl_type {
    TL_TYPE_BOOL,            /* one byte, 0 or 1 */
    TL_TYPE_U8, TL_TYPE_U16, TL_TYPE_U32, TL_TYPE_U64,
    TL_TYPE_I8, TL_TYPE_I16, TL_TYPE_I32, TL_TYPE_I64,
    TL_TYPE_F16,             /* IEEE half: its bits as a uint16_t */
    TL_TYPE_BF16,            /* bfloat16: its bits as a uint16_t */
    TL_TYPE_F32, TL_TYPE_F64,
    TL_TYPE_C64,             /* complex: two floats, real part first */
    TL_TYPE_C128,            /* complex: two doubles */
    TL_TYPE_COUNT
} tl_type;

#define TL_ARRAY_MAXDIM 32

/* A tensor's elements where they lie: nothing is copied to make or read one. The element at
   index (i0, i1, ...) is at (char *)data + i0 * strides[0] + i1 * strides[1] + ... */
typedef struct tl_array {
    void *data;                          /* the element at index (0, ..., 0) */
    tl_type type;
    int ndim;                            /* 0 for a single number */
    int64_t shape[TL_ARRAY_MAXDIM];
    int64_t strides[TL_ARRAY_MAXDIM];    /* bytes; may be 0 or negative, multiples of the element size */
    int readonly;                        /* tl must not write into it (given), or you must not (read) */
} tl_array;

/* Called once, with its context, when tl no longer needs an array given to tl_bind. */
typedef void (*tl_release_fn)(void *ctx);

/* ---- states ----------------------------------------------------------------------------- */

/* A new state with the builtins and the constants pi, e, inf, nan bound; NULL when out of memory.
   It prints to stdout (tl_setoutput changes that). Costs well under a millisecond. */
TL_API tl_state *tl_open(void);
/* Frees the state and everything it holds; arrays given to tl_bind get their release call. */
TL_API void tl_close(tl_state *S);
/* Where print(), help() and echoed values go (stdout by default). */
TL_API void tl_setoutput(tl_state *S, FILE *out);

/* ---- running code ----------------------------------------------------------------------- */

/* Runs code (a NUL-terminated program, any number of statements) in the state's global scope;
   variables and functions it defines stay. Errors are reported as "<eval>:LINE:COL". */
TL_API int tl_eval(tl_state *S, const char *code);
/* Flags of tl_evalbuffer. */
#define TL_EVAL_ECHO 1u   /* expression statements print their value, as the shell does */
/* Runs len bytes of code, naming them `name` in errors (NULL: "<eval>"). */
TL_API int tl_evalbuffer(tl_state *S, const char *code, size_t len, const char *name, unsigned flags);
/* The error of the last call on S that failed, or TL_OK and empty strings after one that did not. */
TL_API const tl_error *tl_lasterror(tl_state *S);
/* Asks code running in any state to stop: it fails with TL_ERR_INTERRUPT at its next loop
   step, call or chunk of a kernel. Safe to call from a signal handler or another thread. */
TL_API void tl_interrupt(void);

/* ---- tensors ---------------------------------------------------------------------------- */

/* A C-contiguous (row-major) array over data: strides follow from the shape (shape may be NULL
   when ndim is 0). The convenient way to make the arrays the calls below take. */
TL_API tl_array tl_array_of(void *data, tl_type type, int ndim, const int64_t *shape);
/* Binds name to a tensor over a's memory without copying it: code sees and writes the
   caller's elements (unless a->readonly). On TL_OK, tl calls release(ctx) once (when given)
   when it no longer needs the memory: the name rebound and no other value holding it, or
   tl_close; until then the memory must stay valid. On an error release is not called.
   data must be aligned for the type. */
TL_API int tl_bind(tl_state *S, const char *name, const tl_array *a, tl_release_fn release, void *ctx);
/* Reads the global variable name, which must hold a tensor or a number, into *out without
   copying: out->data points at tl's elements (a number's copy in the state for a 0-d value).
   Valid until the next call on S that runs code or binds a name (tl_eval, tl_evalbuffer,
   tl_call, tl_bind, tl_setglobal) or tl_close. Writing through it writes the variable's
   elements, unless out->readonly (a broadcast view, or a number). */
TL_API int tl_get(tl_state *S, const char *name, tl_array *out);
/* Calls the function (or builtin) bound to the global fname with nargs arrays as its
   positional arguments (0-d arrays are numbers). tl reads them in place for the length of the
   call; if anything keeps one past it (a global, or a result that is a view of it), that
   thing gets its own copy before tl_call returns, so tl never holds the arguments' memory
   afterwards. A function that writes into an argument writes into your array, as numpy's do.
   When result is not NULL, *result is the value returned (a tensor or a number, else
   TL_ERR_TYPE), read as tl_get reads a variable and valid as long; the state keeps the
   value until the next call that runs code. */
TL_API int tl_call(tl_state *S, const char *fname, int nargs, const tl_array *args, tl_array *result);
/* Binds the value the last tl_call returned to the global name, so it outlives later calls. */
TL_API int tl_setglobal(tl_state *S, const char *name);

/* ---- types and counts ------------------------------------------------------------------- */

/* "f32" for TL_TYPE_F32 (tl's names; "?" for a value out of range). */
TL_API const char *tl_typename(tl_type type);
/* Bytes per element (0 for a value out of range). */
TL_API size_t tl_typesize(tl_type type);
/* Tensor storages of more than 256 bytes that tl has allocated on the calling thread so far:
   a call whose count does not move made no copy of anything that big. */
TL_API uint64_t tl_storage_count(void);
/* The library's version, "0.1.0". */
TL_API const char *tl_version(void);

#ifdef __cplusplus
}
#endif

#endif
