/* order.c — order keys: values mapped to unsigned integers sorted by radix, complex pairs by merge sort */
#include <stdlib.h>
#include <string.h>

#include "kernels/kern.h"
#include "order.h"

/* The bit layout of a real dtype's keys: sign bit, exponent and mantissa masks (floats), width. */
typedef struct key_layout {
    int w;
    tl_kind kind;
    uint64_t sign, exp, mant;
} key_layout;

/* The key layout of dt; a complex dtype (keys are c128 pairs, compared as such) gets zero masks. */
static key_layout layout_of(tl_dtype dt)
{
    key_layout L = { .w = (int)tl_dtype_size(dt), .kind = tl_dtype_kind(dt) };
    if (L.w <= 8) L.sign = UINT64_C(1) << (8 * L.w - 1);
    if (L.kind == TL_KIND_FLOAT) {
        int m = tl_dtypes[dt].mbits, e = tl_dtypes[dt].ebits;
        L.mant = (UINT64_C(1) << m) - 1;
        L.exp = ((UINT64_C(1) << e) - 1) << m;
    }
    return L;
}

/* The key of a value's bits: unsigned order is numpy's order. */
static inline uint64_t to_key(const key_layout *L, uint64_t u)
{
    switch (L->kind) {
    case TL_KIND_INT: return u ^ L->sign;
    case TL_KIND_FLOAT:
        if ((u & L->exp) == L->exp && (u & L->mant)) u = L->exp | ((L->mant + 1) >> 1);   /* one quiet nan */
        if (u == L->sign) u = 0;                                                           /* -0.0 is 0.0 */
        return (u & L->sign) ? ~u & (L->sign | (L->sign - 1)) : u | L->sign;
    default: return u;
    }
}

/* The value bits of a key (the inverse of to_key on canonical values). */
static inline uint64_t from_key(const key_layout *L, uint64_t k)
{
    switch (L->kind) {
    case TL_KIND_INT: return k ^ L->sign;
    case TL_KIND_FLOAT: return (k & L->sign) ? k ^ L->sign : ~k & (L->sign | (L->sign - 1));
    default: return k;
    }
}

/* Loads a key of width w. */
static inline uint64_t key_load(const void *p, int w, int64_t i)
{
    switch (w) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: return ((const uint16_t *)p)[i];
    case 4: return ((const uint32_t *)p)[i];
    default: return ((const uint64_t *)p)[i];
    }
}

/* Rewrites n values of width w in place as their keys. */
#define TO_KEYS(T)                                                   \
    static void to_keys_##T(T *p, int64_t n, const key_layout *L)   \
    {                                                                \
        for (int64_t i = 0; i < n; i++) p[i] = (T)to_key(L, p[i]);   \
    }
TO_KEYS(uint8_t)
TO_KEYS(uint16_t)
TO_KEYS(uint32_t)
TO_KEYS(uint64_t)

int tl_okeys_make(const tl_tensor *t, tl_dtype dt, tl_okeys *out)
{
    memset(out, 0, sizeof *out);
    if (tl_is_complex(dt)) dt = TL_C128;
    tl_tensor *c = tl_cast(t, dt);   /* a fresh contiguous copy: ours to rewrite */
    if (!c) return -1;
    out->owner = c;
    out->k = tl_tensor_data(c);
    out->n = tl_tensor_size(c);
    out->dt = dt;
    out->w = (int)tl_dtype_size(dt);
    if (tl_is_complex(dt)) return 0;
    key_layout L = layout_of(dt);
    switch (out->w) {
    case 1: to_keys_uint8_t(out->k, out->n, &L); break;
    case 2: to_keys_uint16_t(out->k, out->n, &L); break;
    case 4: to_keys_uint32_t(out->k, out->n, &L); break;
    default: to_keys_uint64_t(out->k, out->n, &L); break;
    }
    return 0;
}

void tl_okeys_free(tl_okeys *k)
{
    if (k->owner) tl_tensor_release(k->owner);
    memset(k, 0, sizeof *k);
}

void tl_okeys_value(const tl_okeys *k, int64_t i, void *dst)
{
    if (k->w == 16) {
        memcpy(dst, (const char *)k->k + 16 * i, 16);
        return;
    }
    key_layout L = layout_of(k->dt);
    uint64_t u = from_key(&L, key_load(k->k, k->w, i));
    switch (k->w) {
    case 1: { uint8_t v = (uint8_t)u; memcpy(dst, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)u; memcpy(dst, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)u; memcpy(dst, &v, 4); break; }
    default: memcpy(dst, &u, 8); break;
    }
}

/* The values of the keys i with starts[i], in order, at dst (typed loops; real keys only). */
#define VALUES_AT(T)                                                                                  \
    static void values_at_##T(const T *k, int64_t n, const bool *starts, const key_layout *L, T *dst) \
    {                                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                               \
            if (starts[i]) *dst++ = (T)from_key(L, k[i]);                                             \
    }
VALUES_AT(uint8_t)
VALUES_AT(uint16_t)
VALUES_AT(uint32_t)
VALUES_AT(uint64_t)

void tl_okeys_values_at(const tl_okeys *k, const bool *starts, void *dst)
{
    if (k->w == 16) {   /* complex pairs: no key layout */
        for (int64_t i = 0; i < k->n; i++)
            if (starts[i]) tl_okeys_value(k, i, dst), dst = (char *)dst + 16;
        return;
    }
    key_layout L = layout_of(k->dt);
    switch (k->w) {
    case 1: values_at_uint8_t(k->k, k->n, starts, &L, dst); break;
    case 2: values_at_uint16_t(k->k, k->n, starts, &L, dst); break;
    case 4: values_at_uint32_t(k->k, k->n, starts, &L, dst); break;
    default: values_at_uint64_t(k->k, k->n, starts, &L, dst); break;
    }
}

bool tl_okeys_isnan(const tl_okeys *k, int64_t i)
{
    if (k->w == 16) {
        const double *p = (const double *)k->k + 2 * i;
        return p[0] != p[0] || p[1] != p[1];
    }
    if (!tl_is_float(k->dt)) return false;
    key_layout L = layout_of(k->dt);
    uint64_t u = from_key(&L, key_load(k->k, k->w, i));
    return (u & L.exp) == L.exp && (u & L.mant);
}

bool tl_okeys_iszero(const tl_okeys *k, int64_t i)
{
    if (k->w == 16 || !tl_is_float(k->dt)) return false;
    key_layout L = layout_of(k->dt);
    return key_load(k->k, k->w, i) == L.sign;
}

int tl_okeys_cmp(const tl_okeys *a, int64_t i, const tl_okeys *b, int64_t j)
{
    if (a->w == 16) {
        const double *x = (const double *)a->k + 2 * i, *y = (const double *)b->k + 2 * j;
        return tl_order_lt_c(x, y) ? -1 : tl_order_lt_c(y, x) ? 1 : 0;
    }
    uint64_t x = key_load(a->k, a->w, i), y = key_load(b->k, b->w, j);
    return (x > y) - (x < y);
}

int64_t tl_okeys_search(const tl_okeys *s, const tl_okeys *v, int64_t j, bool right)
{
    int64_t lo = 0, hi = s->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = tl_okeys_cmp(s, mid, v, j);
        if (c < 0 || (right && c == 0)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Scratch memory of n bytes as a tensor: big blocks come from the storage pool, so repeated
   sorts do not fault fresh pages in. */
static tl_tensor *scratch(size_t n)
{
    int64_t len = (int64_t)(n ? n : 1);
    return tl_tensor_empty(TL_U8, 1, &len);
}

/* Radix sort of n keys, stable, idx carried along when given. One read makes the histogram
   of every byte. Bytes that never vary are skipped. Above a cache's worth of keys the highest
   varying byte goes first (MSD: one scatter over the whole array into 256 buckets), then each
   bucket, small enough to stay in cache, is finished LSD on the bytes below it; that keeps the
   scattered writes of most passes inside the cache. */
#define RADIX(T, BITS)                                                                                \
    /* LSD passes over the digits in dig[0..nd) of a[0..n) (b: scratch); the result in a, or in b   \
       (and ib) when into_b, whichever array the last pass wrote. */                                 \
    static void lsd_##T(T *a, T *b, int64_t *ia, int64_t *ib, int64_t n, const int *dig, int nd, bool into_b) \
    {                                                                                                 \
        enum { B = 1 << BITS };                                                                       \
        T *src = a, *dst = b;                                                                         \
        int64_t *isrc = ia, *idst = ib;                                                               \
        for (int j = 0; j < nd; j++) {                                                                \
            int sh = BITS * dig[j];                                                                   \
            int64_t pos[B] = { 0 }, sum = 0;                                                          \
            for (int64_t i = 0; i < n; i++) pos[(src[i] >> sh) & (B - 1)]++;                          \
            for (int c = 0; c < B; c++) {                                                             \
                int64_t k = pos[c];                                                                   \
                pos[c] = sum, sum += k;                                                               \
            }                                                                                         \
            if (isrc) {                                                                               \
                for (int64_t i = 0; i < n; i++) {                                                     \
                    int64_t p = pos[(src[i] >> sh) & (B - 1)]++;                                      \
                    dst[p] = src[i];                                                                  \
                    idst[p] = isrc[i];                                                                \
                }                                                                                     \
                int64_t *it = isrc; isrc = idst; idst = it;                                           \
            } else {                                                                                  \
                for (int64_t i = 0; i < n; i++) dst[pos[(src[i] >> sh) & (B - 1)]++] = src[i];        \
            }                                                                                         \
            T *t = src; src = dst; dst = t;                                                           \
        }                                                                                             \
        T *want = into_b ? b : a;                                                                     \
        int64_t *iwant = into_b ? ib : ia;                                                            \
        if (src != want) memcpy(want, src, sizeof(T) * (size_t)n);                                    \
        if (isrc && isrc != iwant) memcpy(iwant, isrc, sizeof(int64_t) * (size_t)n);                  \
    }                                                                                                 \
    /* The buckets of an MSD pass, each finished LSD in a (keys in b as scratch) on digits dig. */  \
    typedef struct {                                                                                  \
        T *a, *b;                                                                                     \
        int64_t *ia, *ib;                                                                             \
        const int64_t *start;                                                                         \
        const int *dig;                                                                               \
        int nd;                                                                                       \
    } buckets_##T;                                                                                    \
    /* Sorts bucket c from a into b (a task: buckets are disjoint, so threads may share them out). */ \
    static int bucket_task_##T(void *ctx, int64_t c)                                                  \
    {                                                                                                 \
        const buckets_##T *k = ctx;                                                                   \
        int64_t lo = k->start[c], m = k->start[c + 1] - lo;                                           \
        lsd_##T(k->a + lo, k->b + lo, k->ia ? k->ia + lo : NULL, k->ib ? k->ib + lo : NULL, m, k->dig, k->nd, true); \
        return 0;                                                                                     \
    }                                                                                                 \
    static int radix_##T(T *keys, int64_t n, int64_t *idx)                                           \
    {                                                                                                 \
        enum { P = (8 * (int)sizeof(T) + BITS - 1) / BITS, B = 1 << BITS };                           \
        int64_t(*hist)[B] = calloc(P, sizeof *hist);                                                  \
        tl_tensor *tt = scratch(sizeof(T) * (size_t)n), *it = idx ? scratch(sizeof(int64_t) * (size_t)n) : NULL; \
        T *tmp = tt ? tl_tensor_data(tt) : NULL;                                                      \
        int64_t *itmp = it ? tl_tensor_data(it) : NULL;                                              \
        if (!hist || !tmp || (idx && !itmp)) {                                                        \
            free(hist);                                                                               \
            if (tt) tl_tensor_release(tt);                                                            \
            if (it) tl_tensor_release(it);                                                            \
            if (!hist) tl_seterr(MemoryError, "out of memory");                                       \
            return -1;                                                                                \
        }                                                                                             \
        for (int64_t i = 0; i < n; i++)                                                               \
            for (int d = 0; d < P; d++) hist[d][(keys[i] >> (BITS * d)) & (B - 1)]++;                 \
        int dig[P], nd = 0;                                                                           \
        for (int d = 0; d < P; d++)                                                                   \
            if (hist[d][(keys[0] >> (BITS * d)) & (B - 1)] != n) dig[nd++] = d;                       \
        if (nd > 1 && n > 65536) {                                                                    \
            int sh = BITS * dig[nd - 1];                                                              \
            int64_t start[B + 1], pos[B], sum = 0;                                                    \
            for (int c = 0; c < B; c++) start[c] = pos[c] = sum, sum += hist[dig[nd - 1]][c];         \
            start[B] = n;                                                                             \
            for (int64_t i = 0; i < n; i++) {                                                         \
                int64_t p = pos[(keys[i] >> sh) & (B - 1)]++;                                         \
                tmp[p] = keys[i];                                                                     \
                if (idx) itmp[p] = idx[i];                                                            \
            }                                                                                         \
            buckets_##T bk = { tmp, keys, itmp, idx, start, dig, nd - 1 };   /* back into keys */     \
            if (tl_threads_for(n) > 1) {                                                              \
                tl_parallel_for(B, bucket_task_##T, &bk);                                             \
            } else {                                                                                  \
                for (int c = 0; c < B; c++) bucket_task_##T(&bk, c);                                  \
            }                                                                                         \
        } else {                                                                                      \
            lsd_##T(keys, tmp, idx, itmp, n, dig, nd, false);                                         \
        }                                                                                             \
        free(hist);                                                                                   \
        tl_tensor_release(tt);                                                                        \
        if (it) tl_tensor_release(it);                                                                \
        return tl_check_interrupt();                                                                  \
    }
RADIX(uint8_t, 8)
RADIX(uint16_t, 8)
RADIX(uint32_t, 8)
RADIX(uint64_t, 8)

/* Keys spanning a range no wider than their count sort by counting (no indices to carry):
   one pass for the range, one to count, one to write. Returns 1 when done, 0 when the range
   is too wide, -1 on error. */
#define COUNTING(T)                                                                                   \
    static int counting_##T(T *keys, int64_t n)                                                       \
    {                                                                                                 \
        T lo = keys[0], hi = keys[0];                                                                 \
        for (int64_t i = 1; i < n; i++) {                                                             \
            lo = keys[i] < lo ? keys[i] : lo;                                                         \
            hi = keys[i] > hi ? keys[i] : hi;                                                         \
        }                                                                                             \
        if ((uint64_t)(hi - lo) >= (uint64_t)n || (uint64_t)(hi - lo) >= UINT32_MAX) return 0;        \
        int64_t range = (int64_t)(hi - lo) + 1;                                                       \
        int64_t *count = calloc((size_t)range, sizeof *count);                                        \
        if (!count) {                                                                                 \
            tl_seterr(MemoryError, "out of memory");                                                  \
            return -1;                                                                                \
        }                                                                                             \
        for (int64_t i = 0; i < n; i++) count[keys[i] - lo]++;                                        \
        int64_t at = 0;                                                                               \
        for (int64_t v = 0; v < range; v++)                                                           \
            for (int64_t c = count[v]; c > 0; c--) keys[at++] = (T)(lo + (T)v);                       \
        free(count);                                                                                  \
        return tl_check_interrupt() < 0 ? -1 : 1;                                                     \
    }
COUNTING(uint8_t)
COUNTING(uint16_t)
COUNTING(uint32_t)
COUNTING(uint64_t)

/* Where v goes in sorted s[0..n): left or right end of its run of equals. Branch-free
   halving (a conditional move per step), so the search does not stall on mispredictions. */
#define SEARCH(T)                                                                                     \
    static void search_##T(const T *s, int64_t n, const T *v, int64_t m, bool right, int64_t *out)    \
    {                                                                                                 \
        for (int64_t j = 0; j < m; j++) {                                                             \
            T x = v[j];                                                                               \
            if (n == 0) {                                                                             \
                out[j] = 0;                                                                           \
                continue;                                                                             \
            }                                                                                         \
            int64_t base = 0, len = n;                                                                \
            if (right) {                                                                              \
                while (len > 1) {                                                                     \
                    int64_t half = len / 2;                                                           \
                    base = s[base + half] <= x ? base + half : base;                                  \
                    len -= half;                                                                      \
                }                                                                                     \
                out[j] = base + (s[base] <= x);                                                       \
            } else {                                                                                  \
                while (len > 1) {                                                                     \
                    int64_t half = len / 2;                                                           \
                    base = s[base + half] < x ? base + half : base;                                   \
                    len -= half;                                                                      \
                }                                                                                     \
                out[j] = base + (s[base] < x);                                                        \
            }                                                                                         \
        }                                                                                             \
    }
SEARCH(uint8_t)
SEARCH(uint16_t)
SEARCH(uint32_t)
SEARCH(uint64_t)

void tl_okeys_search_all(const tl_okeys *s, const tl_okeys *v, bool right, int64_t *out)
{
    switch (s->w) {
    case 1: search_uint8_t(s->k, s->n, v->k, v->n, right, out); break;
    case 2: search_uint16_t(s->k, s->n, v->k, v->n, right, out); break;
    case 4: search_uint32_t(s->k, s->n, v->k, v->n, right, out); break;
    case 8: search_uint64_t(s->k, s->n, v->k, v->n, right, out); break;
    default:
        for (int64_t j = 0; j < v->n; j++) out[j] = tl_okeys_search(s, v, j, right);
    }
}

/* Membership by a table over the keys' range, when sorted test keys t span at most `limit`
   values: found[i] = e's key i is one of t's. Returns 1 when done, 0 when the range is wider. */
#define TABLE(T)                                                                                      \
    static int table_##T(const T *t, int64_t nt, const T *e, int64_t ne, uint8_t *found, int64_t limit) \
    {                                                                                                 \
        T lo = t[0], span = t[nt - 1] - t[0];                                                         \
        if ((uint64_t)span >= (uint64_t)limit) return 0;                                              \
        uint8_t *tab = calloc((size_t)span + 1, 1);                                                   \
        if (!tab) return 0;                                                                           \
        for (int64_t i = 0; i < nt; i++) tab[t[i] - lo] = 1;                                          \
        for (int64_t i = 0; i < ne; i++) {                                                            \
            T d = (T)(e[i] - lo);                                                                     \
            found[i] = e[i] >= lo && d <= span && tab[d];                                             \
        }                                                                                             \
        free(tab);                                                                                    \
        return 1;                                                                                     \
    }
TABLE(uint8_t)
TABLE(uint16_t)
TABLE(uint32_t)
TABLE(uint64_t)

bool tl_okeys_member_table(const tl_okeys *t, const tl_okeys *e, uint8_t *found)
{
    if (t->n == 0) return false;
    int64_t limit = 8 * (t->n + e->n) + 256;
    switch (t->w) {
    case 1: return table_uint8_t(t->k, t->n, e->k, e->n, found, limit);
    case 2: return table_uint16_t(t->k, t->n, e->k, e->n, found, limit);
    case 4: return table_uint32_t(t->k, t->n, e->k, e->n, found, limit);
    case 8: return table_uint64_t(t->k, t->n, e->k, e->n, found, limit);
    default: return false;
    }
}

/* Stable merge sort of idx[0..n) by complex keys in numpy's order (tmp: n/2 + 1 slots). */
static void merge_c(int64_t *idx, int64_t *tmp, int64_t n, const double *key)
{
    if (n < 2) return;
    if (n <= 16) {
        for (int64_t i = 1; i < n; i++) {
            int64_t v = idx[i], j = i;
            while (j > 0 && tl_order_lt_c(key + 2 * v, key + 2 * idx[j - 1])) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = v;
        }
        return;
    }
    int64_t h = n / 2;
    merge_c(idx, tmp, h, key);
    merge_c(idx + h, tmp, n - h, key);
    memcpy(tmp, idx, (size_t)h * sizeof *idx);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) idx[k++] = tl_order_lt_c(key + 2 * idx[j], key + 2 * tmp[i]) ? idx[j++] : tmp[i++];
    while (i < h) idx[k++] = tmp[i++];
}

/* Complex keys: the positions sorted by key, then the pairs (and idx) gathered in that order. */
static int sort_complex(tl_okeys *k, int64_t *idx)
{
    int64_t n = k->n;
    int64_t *pos = malloc(sizeof(int64_t) * (size_t)n), *tmp = malloc(sizeof(int64_t) * (size_t)(n / 2 + 1));
    double *sorted = malloc(16 * (size_t)n);
    if (!pos || !tmp || !sorted) {
        free(pos), free(tmp), free(sorted);
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    for (int64_t i = 0; i < n; i++) pos[i] = i;
    const double *key = k->k;
    merge_c(pos, tmp, n, key);
    for (int64_t i = 0; i < n; i++) memcpy(sorted + 2 * i, key + 2 * pos[i], 16);
    memcpy(k->k, sorted, 16 * (size_t)n);
    if (idx) {
        int64_t *mapped = (int64_t *)(void *)sorted;   /* n * 16 bytes hold n indices */
        for (int64_t i = 0; i < n; i++) mapped[i] = idx[pos[i]];
        memcpy(idx, mapped, sizeof(int64_t) * (size_t)n);
    }
    free(pos), free(tmp), free(sorted);
    return tl_check_interrupt();
}

int tl_okeys_sort(tl_okeys *k, int64_t *idx)
{
    if (k->n < 2) return 0;
    int done = 0;
    if (!idx) {   /* values alone: counting when their range is narrow */
        switch (k->w) {
        case 1: done = counting_uint8_t(k->k, k->n); break;
        case 2: done = counting_uint16_t(k->k, k->n); break;
        case 4: done = counting_uint32_t(k->k, k->n); break;
        case 8: done = counting_uint64_t(k->k, k->n); break;
        }
    }
    if (done) return done < 0 ? -1 : 0;
    switch (k->w) {
    case 1: return radix_uint8_t(k->k, k->n, idx);
    case 2: return radix_uint16_t(k->k, k->n, idx);
    case 4: return radix_uint32_t(k->k, k->n, idx);
    case 8: return radix_uint64_t(k->k, k->n, idx);
    default: return sort_complex(k, idx);
    }
}
