/* value.h — the language's values: inline scalars and refcounted heap objects */
#ifndef TL_VALUE_H
#define TL_VALUE_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "tensor.h"

typedef enum ValueKind {
    V_NONE,
    V_NUM,      /* a 0-d number held inline: dtype + native bytes (no heap) */
    V_TENSOR,   /* a tensor of ndim >= 1 (0-d results always become V_NUM) */
    V_STR,
    V_TUPLE,
    V_DICT,
    V_FUNC,     /* a closure */
    V_BUILTIN,
    V_ERROR,    /* an error caught by try/catch: its kind, message and place */
    V_GRAPH,    /* an operation graph made by graph() (graph.h) */
    V_TRACE,    /* internal: a tensor while graph() traces (graph.h); as.tr */
    V_UNDEF,    /* internal: a slot not yet assigned; never seen by programs */
    V_LIST,     /* a growable list (seq.h) */
} ValueKind;

/* A string: UTF-8 bytes (any bytes; an invalid one counts as one character), NUL-terminated. */
typedef struct Str {
    int64_t refcount;
    size_t len;          /* bytes */
    int64_t nchars;      /* characters, -1 until counted (str_chars in seq.h) */
    char data[];
} Str;
typedef struct Tuple Tuple;
typedef struct List List;     /* a growable list (seq.h) */
typedef struct Dict Dict;
typedef struct Closure Closure;   /* a function value (frame.h) */
typedef struct Builtin Builtin;
typedef struct ErrorVal ErrorVal;
typedef struct Graph Graph;     /* an operation graph (graph.h) */
typedef struct FnDef FnDef;     /* a function's definition in the syntax tree (ast.h) */
typedef struct Source Source;   /* a loaded program text (ast.h) */

typedef struct Value {
    uint8_t kind;       /* ValueKind */
    uint8_t dtype;      /* V_NUM: tl_dtype */
    bool weak;          /* V_NUM/V_TENSOR: a literal (or computed only from literals): NEP 50 weak */
    union {
        tl_scalar num;
        tl_tensor *t;
        Str *s;
        Tuple *tu;
        List *l;
        Dict *d;
        Closure *fn;
        const Builtin *bi;
        ErrorVal *err;
        Graph *g;
        /* V_TRACE: the tensor computed for the examples (NULL inside a graph's own
           argument lists), the graph node it stands for, and the trace it belongs to */
        struct { tl_tensor *t; uint32_t node, trace; } tr;
    } as;
} Value;

/* A tuple or dict whose last reference has gone waits for its contents' release on a list
   linked through the field that held its count (value.c: releasing never recurses). */
struct Tuple {
    union { int64_t refcount; Tuple *next_dead; };
    int n;
    Value items[];
};

/* The head a graph starts with, so value.c keeps and prints graphs without knowing them
   (graph.c fills it): its references, and what releasing its last one and printing it do. */
typedef struct ObjHead {
    int64_t refcount;
    void (*free)(void *self);
    int (*write)(const void *self, tl_write_fn w, void *ctx);
} ObjHead;

/* The message for a branch, print or index that needs a traced tensor's values (V_TRACE). */
#define GRAPH_NEEDS_VALUES "graph cannot depend on a tensor's values"

/* A caught error: what SPEC section 10 gives a handler as e.kind, e.message, e.file, e.line, e.col. */
struct ErrorVal { int64_t refcount; tl_errkind kind; int line, col; char *file; char *message; };

/* The dicts and lists a state made while it ran, linked through their ValLink (value.c):
   only a dict or a list can hold itself, so closing the state (interp_free) empties those
   still alive, which frees what only reference cycles kept. */
typedef struct ValOwner ValOwner;
typedef struct ValLink {
    struct ValLink *prev, *next;
    ValOwner *owner;     /* NULL: made outside a run, not linked */
    bool is_list;
} ValLink;
struct ValOwner { ValLink head; };   /* a ring through head; head.prev == head.next == &head when empty */

/* Insertion-ordered string-keyed dictionary. */
struct Dict {
    union { int64_t refcount; Dict *next_dead; };
    ValLink link;
    int n, cap;
    Str **keys;
    Value *vals;
    char *label;        /* optional: what info/print calls it (a file name) */
    int32_t *index;     /* past a few keys: a hash table of entry numbers, -1 empty (dict.c) */
    int index_cap;      /* its slots, a power of two */
};

static inline Value val_none(void) { Value v = { .kind = V_NONE }; return v; }
/* Scalar constructors set only the bytes their dtype uses (no zero-fill: they are the hot path). */
static inline Value val_i64(int64_t x) { Value v; v.kind = V_NUM; v.dtype = TL_I64; v.weak = false; v.as.num.i64 = x; return v; }
static inline Value val_f64(double x) { Value v; v.kind = V_NUM; v.dtype = TL_F64; v.weak = false; v.as.num.f64 = x; return v; }
static inline Value val_bool(bool x) { Value v; v.kind = V_NUM; v.dtype = TL_BOOL; v.weak = false; v.as.num.u64 = 0; v.as.num.b = x; return v; }
static inline Value val_num(tl_dtype d, const tl_scalar *s) { Value v = { .kind = V_NUM, .dtype = (uint8_t)d }; v.as.num = *s; return v; }

/* Refcounting: retain returns its argument for convenience. Numbers and none are not
   refcounted, so the common case is inline and free. */
Value val_retain_obj(Value v);
void val_release_obj(Value v);
/* Tensors, the commonest objects, retain inline; their last release goes out of line. */
static inline Value val_retain(Value v)
{
    if (v.kind == V_TENSOR) v.as.t->refcount++;
    else if (v.kind > V_NUM) return val_retain_obj(v);
    return v;
}
static inline void val_release(Value v)
{
    if (v.kind == V_TENSOR) {
        if (v.as.t->refcount > 1) v.as.t->refcount--;
        else tl_tensor_release(v.as.t);
    } else if (v.kind > V_NUM) {
        val_release_obj(v);
    }
}

Value val_str(const char *s, size_t n);
Value val_cstr(const char *s);
Value val_tuple_new(int n);                 /* items are V_NONE; fill them */
Value val_dict_new(void);
/* An empty ring of containers. */
void val_owner_init(ValOwner *o);
/* Makes o the owner of the dicts and lists made on this thread from now on; returns the
   owner before, which val_owner_leave puts back (runs nest). */
ValOwner *val_owner_enter(ValOwner *o);
void val_owner_leave(ValOwner *before);
/* Links a new dict's or list's link to this thread's owner, if any. */
void val_link_new(ValLink *l, bool is_list);
/* Empties every dict and list of o still alive and lets go of them: what only cycles kept is
   freed, what something else still holds stays (emptied) and is unlinked. */
void val_owner_sweep(ValOwner *o);
/* Takes ownership of v; replaces an existing key. Returns false on OOM. */
bool dict_set(Dict *d, const char *key, size_t klen, Value v);
/* d takes every key and value of from, in from's order (a key d has is replaced). Returns false on OOM. */
bool dict_update(Dict *d, const Dict *from);
/* Borrowed pointer or NULL. */
Value *dict_get(Dict *d, const char *key, size_t klen);
/* The end of the "no key" message for key: the closest of d's keys ("; did you mean \"lr\"?"),
   or "". Returns buf. */
const char *dict_key_hint(const Dict *d, const char *key, char *buf, size_t cap);

/* A new error value (V_UNDEF with the tl error set when out of memory). */
Value val_error_new(tl_errkind kind, const char *file, int line, int col, const char *message);
/* e.kind, e.message (the message's first line; the rest, such as a shape error's aligned shapes, is for the
   printed error), e.file, e.line, e.col of an error value; false when name is none of them. */
bool val_error_attr(Value e, const char *name, Value *out);

/* val_from_tensor's 0-d case: the number t holds (t released). */
Value val_from_scalar_tensor(tl_tensor *t);
/* Wraps a runtime tensor (takes ownership): 0-d becomes V_NUM. */
static inline Value val_from_tensor(tl_tensor *t)
{
    if (t->ndim == 0) return val_from_scalar_tensor(t);
    return (Value){ .kind = V_TENSOR, .as.t = t };
}
/* A tensor for any numeric value (V_NUM → new 0-d tensor; V_TENSOR → retained). NULL if not numeric. */
tl_tensor *val_to_tensor(Value v);
static inline bool val_is_numeric(Value v) { return v.kind == V_NUM || v.kind == V_TENSOR; }
static inline tl_dtype val_dtype(Value v) { return v.kind == V_NUM ? (tl_dtype)v.dtype : v.as.t->dtype; }

const char *val_kind_name(Value v);         /* "tensor", "string", "tuple", ... for messages */
bool val_truthy(Value v, bool *out);        /* false (error set in tl_errmsg) if ambiguous */

/* Text forms: print form (strings raw) into a growing buffer. */
typedef struct StrBuf { char *data; size_t len, cap; } StrBuf;
bool sb_append(StrBuf *b, const char *s, size_t n);
/* A tl_write_fn appending to the StrBuf ctx: 0, or -1 when out of memory. */
int sb_write(void *ctx, const char *s, size_t n);
bool sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(StrBuf *b);
/* Appends the print form of v. Returns false with tl error set on failure (e.g. interrupted). */
bool val_format(StrBuf *b, Value v);
/* Streams the print form of v; returns 0, or -1 with the tl error set. */
int val_write(Value v, tl_write_fn w, void *ctx);
/* Streams v as an item of a tuple, list or dict prints: a string as its repr, anything else in
   its print form (Python's str() of a container); 0, or -1 with the tl error set. */
int val_write_item(Value v, tl_write_fn w, void *ctx);

/* ---- repr.c: text forms beyond print -------------------------------------------------- */
/* A string's repr, as Python writes it: quoted ('abc', "it's"), \\ \t \n \r and the quote
   escaped, other characters str.isprintable() refuses as \xhh \uhhhh \Uhhhhhhhh, an invalid
   byte as \xhh. */
int str_write_repr(const char *s, size_t n, tl_write_fn w, void *ctx);
/* Python's str.isprintable() of the one character c: false for what repr escapes (categories
   Cc Cf Cs Co Cn Zl Zp, and Zs but the space; CPython 3.11's Unicode 14.0 table). */
bool char_is_printable(uint32_t c);
/* repr(v): the echo form (the print form, ", dtype=NAME" after a number or tensor of a dtype
   other than i64 f64 c128 bool), a string as its repr. */
int val_write_repr(Value v, tl_write_fn w, void *ctx);
/* Writes v to f as print (repr false) or the shell's echo (repr true) do; with mark_dtypes (tl
   --mark-statements), each float or complex number and tensor between dtype markers
   (golden_int.h's MARK_DTYPE). 0, or -1 with the tl error set. */
int val_write_file(Value v, FILE *f, bool repr, bool mark_dtypes);
/* The bytes the latest val_write_file on this thread wrote (a failed one may have written
   some: print then ends the line it began, and only then). */
size_t val_file_bytes_written(void);
/* format(v, spec): a number, tensor or string through the spec (tl_format_scalar,
   tl_fmt_tensor_spec, tl_format_str); NULL or an empty spec gives the print form; any other
   value with a spec is a TypeError. */
int val_write_spec(Value v, const tl_fmtspec *spec, tl_write_fn w, void *ctx);
/* A replacement field {v!c:spec}: conversion 'r' (repr), 's' (print form) or 'a' (repr with
   non-ASCII escaped, Python's ascii()) makes a string that the spec then formats; 0: v itself
   through the spec. */
int val_write_field(Value v, int conversion, const tl_fmtspec *spec, tl_write_fn w, void *ctx);

#include "seq.h"

#endif
