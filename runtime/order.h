/* order.h — values as keys in numpy's sort order, for unique, isin and searchsorted (private to the runtime) */
#ifndef TL_ORDER_H
#define TL_ORDER_H

/* Private to the runtime (runtime/meson.build defines TL_RUNTIME_INTERNAL for its files alone). */
#ifndef TL_RUNTIME_INTERNAL
#error "order.h is private to tl's runtime library: include ops.h instead"
#endif

#include "ops.h"

/* A tensor's elements (C order) as order keys. A real dtype's values become unsigned
   integers of the dtype's width (1, 2, 4 or 8 bytes) whose unsigned order is numpy's sort
   order: nan last and every nan one key, -0.0 the key of 0.0. Complex values stay c128
   pairs (w = 16) compared with numpy's complex order (tl_order_lt_c). */
typedef struct tl_okeys {
    tl_tensor *owner;   /* holds the keys */
    void *k;
    int64_t n;
    int w;              /* bytes per key */
    tl_dtype dt;        /* the dtype the values were converted to first */
} tl_okeys;

/* The keys of t's values converted to dt (a real dtype, or any complex one: c128 keys). -1: error set. */
int tl_okeys_make(const tl_tensor *t, tl_dtype dt, tl_okeys *out);
void tl_okeys_free(tl_okeys *k);
/* Key i turned back into a value of k->dt at dst (nan comes back as the canonical quiet nan, -0.0 as 0.0). */
void tl_okeys_value(const tl_okeys *k, int64_t i, void *dst);
/* The values (as tl_okeys_value) of the keys i with starts[i], one after another at dst. */
void tl_okeys_values_at(const tl_okeys *k, const bool *starts, void *dst);
/* Sorts the keys ascending; idx (n entries) is permuted with them, and equal keys keep
   their order (stable), when given. -1: error set. */
int tl_okeys_sort(tl_okeys *k, int64_t *idx);
/* key i of a compared with key j of b (same dt): negative, 0 or positive. */
int tl_okeys_cmp(const tl_okeys *a, int64_t i, const tl_okeys *b, int64_t j);
/* True when key i is a real float's zero. */
bool tl_okeys_iszero(const tl_okeys *k, int64_t i);
/* True when key i is a nan (for complex: either part). */
bool tl_okeys_isnan(const tl_okeys *k, int64_t i);
/* Where key j of v goes in the sorted keys s: the first place whose key is not below it
   (left), or the first whose key is above it (right). O(log n). */
int64_t tl_okeys_search(const tl_okeys *s, const tl_okeys *v, int64_t j, bool right);

/* tl_okeys_search for every key of v: out[j] for v's key j. */
void tl_okeys_search_all(const tl_okeys *s, const tl_okeys *v, bool right, int64_t *out);

/* Membership of e's keys among the sorted keys t through a table over t's range, when that
   range is narrow (integers); found[i] is 0 or 1. False (nothing written) otherwise. */
bool tl_okeys_member_table(const tl_okeys *t, const tl_okeys *e, uint8_t *found);

/* a < b in numpy's complex order: by real part then imaginary part, a value with a nan
   after every value without one (R + nanj, then nan + Rj, then nan + nanj). */
static inline bool tl_order_lt_c(const double *a, const double *b)
{
    if (a[0] < b[0]) return a[1] == a[1] || b[1] != b[1];
    if (a[0] > b[0]) return b[1] != b[1] && a[1] == a[1];
    if (a[0] == b[0] || (a[0] != a[0] && b[0] != b[0])) return a[1] < b[1] || (b[1] != b[1] && a[1] == a[1]);
    return b[0] != b[0];
}

#endif
