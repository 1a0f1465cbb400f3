/* seq.h — lists, strings read as UTF-8 text, iterating and comparing values: shared by the evaluator and the builtins */
#ifndef TL_SEQ_H
#define TL_SEQ_H

#include "value.h"   /* value.h includes this header at its end, once Value is complete */

/* ---- lists (list.c) ---------------------------------------------------- */

/* A growable list: items[0..n) owned; appending doubles cap (amortized O(1)). A list whose last
   reference has gone waits for its items' release linked through its count (value.c). */
struct List {
    union { int64_t refcount; List *next_dead; };
    ValLink link;        /* the state's ring of containers (value.h) */
    int64_t n, cap;
    Value *items;
};

/* The most items a list holds: its byte size stays far inside size_t and int64. */
#define LIST_MAX_ITEMS ((int64_t)1 << 40)

/* An empty list with room for cap items (V_UNDEF with the tl error set when out of memory). */
Value val_list_new(int64_t cap);
/* Makes room for n items in all; false with the tl error set when it cannot. */
bool list_reserve(List *l, int64_t n);
/* list_append's growing half: appends v (owned) after making room; releases v on failure. */
bool list_push_slow(List *l, Value v);
/* Appends v (owned); false (v released, tl error set) when out of memory. */
static inline bool list_append(List *l, Value v)
{
    if (__builtin_expect(l->n < l->cap, 1)) {
        l->items[l->n++] = v;
        return true;
    }
    return list_push_slow(l, v);
}
/* Inserts v (owned) before item i (0 <= i <= n). */
bool list_insert(List *l, int64_t i, Value v);
/* Removes item i (0 <= i < n) and returns it (the reference moves to the caller). */
Value list_take(List *l, int64_t i);
/* Replaces items [lo, hi) by the n values vs (retained): slice assignment. */
bool list_splice(List *l, int64_t lo, int64_t hi, const Value *vs, int64_t n);
/* A new list holding the n values vs (retained). */
Value val_list_of(const Value *vs, int64_t n);
/* Reverses l's items in place. */
void list_reverse(List *l);
/* n items as one tensor, as np.asarray reads a list (depth 0 at the top): numbers, tensors
   and nested lists or tuples of one shape, stacked in the dtype a literal of the items would
   have; an empty list is an empty f64 vector. NULL with the tl error set otherwise. */
tl_tensor *values_to_tensor(int64_t n, const Value *items, int depth);
/* A value a builtin may read as a tensor: a number, a tensor, or a list (converted). */
static inline bool val_is_tensorlike(Value v) { return v.kind == V_NUM || v.kind == V_TENSOR || v.kind == V_LIST; }

/* ---- dicts (dict.c) ----------------------------------------------------- */

/* Removes key and its value (released); false when d has no such key. */
bool dict_remove(Dict *d, const char *key, size_t klen);
/* Removes every key. */
void dict_clear(Dict *d);

/* ---- strings as text (ustr.c) ------------------------------------------ */

/* The most bytes a string made by an operator or builtin holds (1 TiB: sizes stay exact). */
#define STR_MAX_BYTES ((size_t)1 << 40)
/* Memory for a string of len bytes (strheap.c: small ones from per-size free lists), and its
   return; only val_release and the dict code free strings. */
Str *str_alloc(size_t len);
void str_free(Str *s);
/* A new string of n bytes for the caller to fill (NUL-terminated; V_UNDEF with the tl error
   set when out of memory or over STR_MAX_BYTES). */
Value str_new(size_t n);
/* The character starting at byte i of s[0..len) (i < len): its code point in *cp and its length
   in bytes. A byte that does not start a valid UTF-8 sequence is one character of length 1,
   whose code point is 0xDC80 + the byte (Python's surrogateescape), so it passes through. */
size_t utf8_decode(const char *s, size_t len, size_t i, uint32_t *cp);
/* The character ending at byte j > 0 of s, as utf8_decode reads s from its start (j must be
   where one of those characters ends): its code point in *cp and its length in bytes. */
size_t utf8_decode_before(const char *s, size_t j, uint32_t *cp);
/* Writes cp as UTF-8 into out (4 bytes of room) and returns its length; 0xDC80..0xDCFF give
   the one raw byte they stand for. */
size_t utf8_encode(uint32_t cp, char *out);
/* The number of characters in s[0..len). */
int64_t utf8_count(const char *s, size_t len);
/* s's characters (counted once, then kept in s->nchars). */
int64_t str_chars(Str *s);
/* The byte offset where character k of s starts (k == str_chars(s) gives s->len). */
size_t str_offset(Str *s, int64_t k);
/* Character k of s as a new one-character string (0 <= k < str_chars(s)). */
Value str_char_at(Str *s, int64_t k);
/* s[start:stop:step] over characters, the bounds already clamped as a slice's (tl_slice_len). */
Value str_slice(Str *s, int64_t start, int64_t step, int64_t count);

/* ---- iterating any value --------------------------------------------------------------- */

/* A walk over what `for x in v` visits: a tensor's first axis (views; numbers for a 1-d
   tensor), a tuple's or list's items, a string's characters, a dict's keys. A list is read
   live (items appended during the walk are visited, as in Python). */
typedef struct ValIter {
    Value seq;          /* borrowed: the caller keeps it alive */
    int64_t i, n;
    size_t byte;        /* strings: the next character's byte offset */
} ValIter;
/* Starts a walk; false with the tl error set (TypeError) when v cannot be iterated. */
bool val_iter_begin(Value v, ValIter *it);
/* The next item (a new reference): 1, or 0 at the end, or -1 with the tl error set. */
int val_iter_next(ValIter *it, Value *out);
/* All of v's items in a new list (a list is copied). */
bool val_iter_list(Value v, Value *out);

/* ---- comparing values (compare.c) ------------------------------------------------------ */

/* a == b as items of a container: numbers by value; strings, tuples and lists item by item;
   tensors when their shapes and elements are equal; dicts, functions by identity. False with
   the tl error set only when comparing failed (out of memory, interrupted). */
bool val_equal(Value a, Value b, bool *eq);
/* Python's ordering: real numbers by value, strings in code point order, tuples and lists
   lexicographically; *cmp is -1, 0 or 1. False with the tl error set (TypeError) when a and
   b do not order (a string with a number, complex numbers, tensors, dicts). */
bool val_order(Value a, Value b, int *cmp);
/* x in container: a substring, a tuple's or list's item, a dict's key, any element of a
   tensor equal to x. False with the tl error set when it cannot be asked. */
bool val_contains(Value container, Value x, bool *in);

#endif
