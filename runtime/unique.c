/* unique.c — unique (flat and along an axis), isin and searchsorted, on order keys (order.h) */
#include <stdlib.h>
#include <string.h>

#include "order.h"

/* Keys i and i-1 of sorted keys are one unique value (every nan one value, as numpy 1.24's equal_nan). */
static bool same_group(const tl_okeys *k, int64_t i)
{
    if (tl_okeys_cmp(k, i - 1, k, i) == 0) return true;
    return k->w == 16 && tl_okeys_isnan(k, i - 1) && tl_okeys_isnan(k, i);
}

/* Whether the first zero of a real float tensor (C order) is -0.0: numpy's stable sort keeps the first. */
static bool first_zero_negative(const tl_tensor *a)
{
    if (!tl_is_float(a->dtype)) return false;
    tl_tensor *f = tl_cast(a, TL_F64);
    if (!f) return false;   /* only the sign of a zero is at stake */
    int64_t n = tl_tensor_size(f);
    const double *p = n ? tl_tensor_data(f) : NULL;
    bool neg = false;
    for (int64_t i = 0; i < n; i++) {
        if (p[i] == 0) {
            neg = __builtin_signbit(p[i]);
            break;
        }
    }
    tl_tensor_release(f);
    return neg;
}

/* The flattened unique values of a, sorted (a's dtype), and what was asked of index, inverse, counts. */
static int unique_flat(const tl_tensor *a, tl_unique_result *res, bool want_index, bool want_inverse, bool want_counts)
{
    tl_okeys k;
    if (tl_okeys_make(a, a->dtype, &k) < 0) return -1;
    int64_t n = k.n, *idx = NULL;
    tl_tensor *idxt = NULL;
    if (want_index || want_inverse) {
        idxt = tl_tensor_empty(TL_I64, 1, (int64_t[]){ n ? n : 1 });
        idx = idxt ? tl_tensor_data(idxt) : NULL;
        if (!idx) {
            tl_okeys_free(&k);
            tl_seterr(MemoryError, "out of memory");
            return -1;
        }
        for (int64_t i = 0; i < n; i++) idx[i] = i;
    }
    int rc = tl_okeys_sort(&k, idx);
    int64_t groups = n > 0;
    int64_t slen = n ? n : 1;
    tl_tensor *st = rc == 0 ? tl_tensor_empty(TL_BOOL, 1, &slen) : NULL;   /* pooled: no fresh pages */
    bool *starts = st ? tl_tensor_data(st) : NULL;   /* starts[i]: key i begins a new value */
    if (rc == 0 && !starts) rc = -1;
    if (rc == 0 && n) {
        starts[0] = true;
#define STARTS(T) { const T *kk = k.k; for (int64_t i = 1; i < n; i++) groups += starts[i] = kk[i] != kk[i - 1]; }
        switch (k.w) {
        case 1: STARTS(uint8_t) break;
        case 2: STARTS(uint16_t) break;
        case 4: STARTS(uint32_t) break;
        case 8: STARTS(uint64_t) break;
        default: for (int64_t i = 1; i < n; i++) groups += starts[i] = !same_group(&k, i);
        }
#undef STARTS
    }
    tl_tensor *vals = rc == 0 ? tl_tensor_empty(k.dt, 1, &groups) : NULL;
    tl_tensor *first = vals && want_index ? tl_tensor_empty(TL_I64, 1, &groups) : NULL;
    tl_tensor *inv = vals && want_inverse ? tl_tensor_empty(TL_I64, 1, &n) : NULL;
    tl_tensor *cnt = vals && want_counts ? tl_tensor_empty(TL_I64, 1, &groups) : NULL;
    if (!vals || (want_index && !first) || (want_inverse && !inv) || (want_counts && !cnt)) rc = -1;
    if (rc == 0 && n) {
        char *v = tl_tensor_data(vals);
        size_t vs = tl_dtype_size(k.dt);
        tl_okeys_values_at(&k, starts, v);
        int64_t *fp = first ? tl_tensor_data(first) : NULL, *ip = inv ? tl_tensor_data(inv) : NULL;
        int64_t *cp = cnt ? tl_tensor_data(cnt) : NULL, g = -1;
        bool negzero = first_zero_negative(a);
        for (int64_t i = 0; i < n; i++) {
            if (starts[i]) {
                g++;
                if (negzero && tl_okeys_iszero(&k, i)) v[vs * (size_t)g + vs - 1] |= (char)0x80;   /* the sign bit */
                if (fp) fp[g] = idx[i];   /* the sort is stable: the first of a group came first */
                if (cp) cp[g] = 0;
            }
            if (ip) ip[idx[i]] = g;
            if (cp) cp[g]++;
            if (!fp && !ip && !cp && !negzero) break;   /* the values are written already */
        }
    }
    if (idxt) tl_tensor_release(idxt);
    if (st) tl_tensor_release(st);
    tl_okeys_free(&k);
    if (rc == 0 && vals->dtype != a->dtype) {   /* complex keys are c128 */
        tl_tensor *c = tl_cast(vals, a->dtype);
        tl_tensor_release(vals);
        vals = c;
        rc = c ? 0 : -1;
    }
    res->values = vals, res->index = first, res->inverse = inv, res->counts = cnt;
    return rc;
}

/* Row order for unique along an axis: rows of `len` keys compared element by element. */
typedef struct rows_ctx {
    const tl_okeys *k;
    int64_t len;
} rows_ctx;

static int row_cmp(const rows_ctx *c, int64_t i, int64_t j)
{
    for (int64_t e = 0; e < c->len; e++) {
        int r = tl_okeys_cmp(c->k, i * c->len + e, c->k, j * c->len + e);
        if (r) return r;
    }
    return 0;
}

/* Rows i and j are one value: equal everywhere, and no nan (nan != nan, as numpy along an axis). */
static bool row_same(const rows_ctx *c, int64_t i, int64_t j)
{
    for (int64_t e = 0; e < c->len; e++)
        if (tl_okeys_cmp(c->k, i * c->len + e, c->k, j * c->len + e) || tl_okeys_isnan(c->k, i * c->len + e)) return false;
    return true;
}

/* Stable merge sort of row numbers (tmp: n/2 + 1 slots). */
static void sort_rows(int64_t *idx, int64_t *tmp, int64_t n, const rows_ctx *c)
{
    if (n < 2) return;
    int64_t h = n / 2;
    sort_rows(idx, tmp, h, c);
    sort_rows(idx + h, tmp, n - h, c);
    memcpy(tmp, idx, (size_t)h * sizeof *idx);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) idx[k++] = row_cmp(c, idx[j], tmp[i]) < 0 ? idx[j++] : tmp[i++];
    while (i < h) idx[k++] = tmp[i++];
}

/* Unique sub-tensors along axis ax (normalized): rows sorted lexicographically. */
static int unique_axis(const tl_tensor *a, int ax, tl_unique_result *res, bool want_index, bool want_inverse,
                       bool want_counts)
{
    int64_t rows = a->shape[ax], len = 1;
    for (int d = 0; d < a->ndim; d++)
        if (d != ax) len *= a->shape[d];
    tl_tensor *moved = tl_view_swapaxes(a, ax, 0);
    tl_okeys k;
    int rc = moved ? tl_okeys_make(moved, a->dtype, &k) : -1;
    if (moved) tl_tensor_release(moved);
    if (rc < 0) return -1;
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)(rows + 1)), *tmp = malloc(sizeof(int64_t) * (size_t)(rows / 2 + 1));
    tl_tensor *first = NULL, *inv = NULL, *cnt = NULL;
    if (!idx || !tmp) {
        tl_seterr(MemoryError, "out of memory");
        rc = -1;
    } else {
        rows_ctx c = { &k, len };
        for (int64_t i = 0; i < rows; i++) idx[i] = i;
        sort_rows(idx, tmp, rows, &c);
        int64_t groups = 0;
        for (int64_t i = 0; i < rows; i++) groups += i == 0 || !row_same(&c, idx[i - 1], idx[i]);
        first = tl_tensor_empty(TL_I64, 1, &groups);
        inv = first && want_inverse ? tl_tensor_empty(TL_I64, 1, &rows) : NULL;
        cnt = first && want_counts ? tl_tensor_empty(TL_I64, 1, &groups) : NULL;
        if (!first || (want_inverse && !inv) || (want_counts && !cnt)) rc = -1;
        int64_t *fp = first && groups ? tl_tensor_data(first) : NULL, g = -1;
        int64_t *ip = inv && rows ? tl_tensor_data(inv) : NULL, *cp = cnt && groups ? tl_tensor_data(cnt) : NULL;
        for (int64_t i = 0; rc == 0 && i < rows; i++) {
            if (i == 0 || !row_same(&c, idx[i - 1], idx[i])) {
                fp[++g] = idx[i];
                if (cp) cp[g] = 0;
            }
            if (ip) ip[idx[i]] = g;
            if (cp) cp[g]++;
        }
    }
    free(idx), free(tmp);
    tl_okeys_free(&k);
    res->values = rc == 0 ? tl_take(a, first, ax, TL_TAKE_RAISE) : NULL;
    if (!res->values) rc = -1;
    if (want_index || !first) res->index = first;
    else tl_tensor_release(first);
    res->inverse = inv, res->counts = cnt;
    return rc;
}

int tl_unique(const tl_tensor *a, int axis, bool want_index, bool want_inverse, bool want_counts, tl_unique_result *res)
{
    memset(res, 0, sizeof *res);
    int rc;
    if (axis == TL_AXIS_NONE) {
        rc = unique_flat(a, res, want_index, want_inverse, want_counts);
    } else {
        int ax;
        if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return -1;
        rc = unique_axis(a, ax, res, want_index, want_inverse, want_counts);
    }
    if (rc < 0) tl_unique_result_free(res);
    return rc;
}

void tl_unique_result_free(tl_unique_result *res)
{
    tl_tensor **ts[4] = { &res->values, &res->index, &res->inverse, &res->counts };
    for (int i = 0; i < 4; i++) {
        if (*ts[i]) tl_tensor_release(*ts[i]);
        *ts[i] = NULL;
    }
}

/* Per C integer type T (a row of TL_INT_CTYPES, suffix S): membership through a bitmap over
   test's range, when that range is at most `limit` values; 0 when it is wider (the caller sorts
   instead). One pass over test for its range, one to set bits, one to read them: a bitmap of a
   million values is 125 KB, which stays in cache, where a sorted search costs a sort and
   log2(nt) probes per element. */
#define ISIN_BITMAP(NAME, T, S)                                                                  \
    static int isin_bitmap_##S(const void *tv, int64_t nt, const void *ev, int64_t ne, bool invert, \
                               uint64_t limit, uint8_t *out)                                     \
    {                                                                                            \
        const T *t = tv, *e = ev;                                                                \
        T lo = t[0], hi = t[0];                                                                  \
        for (int64_t i = 1; i < nt; i++) {                                                       \
            lo = t[i] < lo ? t[i] : lo;                                                          \
            hi = t[i] > hi ? t[i] : hi;                                                          \
        }                                                                                        \
        uint64_t base = (uint64_t)lo, span = (uint64_t)hi - base;   /* modulo 2^64: exact */     \
        if (span >= limit) return 0;                                                             \
        uint64_t *bits = calloc(span / 64 + 1, sizeof(uint64_t));                                \
        if (!bits) return 0;                                                                     \
        for (int64_t i = 0; i < nt; i++) {                                                       \
            uint64_t d = (uint64_t)t[i] - base;                                                  \
            bits[d >> 6] |= (uint64_t)1 << (d & 63);                                             \
        }                                                                                        \
        for (int64_t i = 0; i < ne; i++) {                                                       \
            uint64_t d = (uint64_t)e[i] - base;   /* below lo wraps past span */                 \
            bool in = d <= span && (bits[d >> 6] >> (d & 63) & 1);                               \
            out[i] = in != invert;                                                               \
        }                                                                                        \
        free(bits);                                                                              \
        return 1;                                                                                \
    }
TL_INT_CTYPES(ISIN_BITMAP)

/* isin_bitmap_S by storage type (tl_int_ctype). */
typedef int (*isin_bitmap_fn)(const void *t, int64_t nt, const void *e, int64_t ne, bool invert, uint64_t limit,
                              uint8_t *out);
#define ISIN_BITMAP_ENTRY(NAME, T, S) [TL_CT_##NAME] = isin_bitmap_##S,
static const isin_bitmap_fn isin_bitmaps[TL_NCTYPES] = { TL_INT_CTYPES(ISIN_BITMAP_ENTRY) };
#undef ISIN_BITMAP_ENTRY

/* The bitmap path of isin for integer (and bool) dtypes: 1 done, 0 not taken, -1 error. */
static int isin_integers(const tl_tensor *element, const tl_tensor *test, tl_dtype dt, bool invert, tl_tensor *r)
{
    int64_t ne = tl_tensor_size(element), nt = tl_tensor_size(test);
    int ct = tl_int_ctype_of(dt);
    if (ct < 0 || nt == 0 || ne == 0) return 0;
    /* At most 64 bits per element of either input: the bitmap is no bigger than the inputs. */
    uint64_t limit = 64 * (uint64_t)(ne + nt) + 65536;
    bool e_copy = element->dtype != dt || !tl_is_contiguous(element), t_copy = test->dtype != dt || !tl_is_contiguous(test);
    tl_tensor *ec = e_copy ? tl_cast(element, dt) : NULL, *tc = t_copy ? tl_cast(test, dt) : NULL;
    int rc = -1;
    if ((ec || !e_copy) && (tc || !t_copy)) {
        const void *e = tl_tensor_data(ec ? ec : element), *t = tl_tensor_data(tc ? tc : test);
        uint8_t *out = tl_tensor_data(r);
        rc = isin_bitmaps[ct](t, nt, e, ne, invert, limit, out);
    }
    if (ec) tl_tensor_release(ec);
    if (tc) tl_tensor_release(tc);
    return rc;
}

tl_tensor *tl_isin(const tl_tensor *element, const tl_tensor *test, tl_dtype dt, bool invert)
{
    tl_tensor *bits = tl_tensor_empty(TL_BOOL, element->ndim, element->shape);
    int done = bits ? isin_integers(element, test, dt, invert, bits) : -1;
    if (done != 0) {
        if (done < 0 && bits) tl_tensor_release(bits);
        return done > 0 ? bits : NULL;
    }
    tl_tensor_release(bits);
    tl_okeys e, t;
    if (tl_okeys_make(test, dt, &t) < 0) return NULL;
    if (tl_okeys_sort(&t, NULL) < 0 || tl_okeys_make(element, dt, &e) < 0) {
        tl_okeys_free(&t);
        return NULL;
    }
    tl_tensor *r = tl_tensor_empty(TL_BOOL, element->ndim, element->shape);
    bool floats = tl_is_float(dt) || tl_is_complex(dt);
    if (r && e.n && !floats && tl_okeys_member_table(&t, &e, tl_tensor_data(r))) {   /* narrow integer range */
        uint8_t *out = tl_tensor_data(r);
        for (int64_t i = 0; i < e.n && invert; i++) out[i] ^= 1;
        tl_okeys_free(&t);
        tl_okeys_free(&e);
        return r;
    }
    int64_t *pos = r && e.n ? malloc(sizeof(int64_t) * (size_t)e.n) : NULL;
    if (r && e.n && !pos) {
        tl_tensor_release(r);
        r = NULL;
        tl_seterr(MemoryError, "out of memory");
    }
    if (pos) {
        uint8_t *out = tl_tensor_data(r);
        tl_okeys_search_all(&t, &e, false, pos);
        for (int64_t i = 0; i < e.n; i++) {
            int64_t j = pos[i];
            bool found = j < t.n && tl_okeys_cmp(&t, j, &e, i) == 0 && !(floats && tl_okeys_isnan(&e, i));
            out[i] = found != invert;
        }
        free(pos);
    }
    tl_okeys_free(&t);
    tl_okeys_free(&e);
    return r;
}

tl_tensor *tl_searchsorted(const tl_tensor *a, const tl_tensor *v, tl_dtype dt, bool right, const tl_tensor *sorter)
{
    if (a->ndim != 1) {
        tl_seterr(ValueError, "the sorted tensor must be 1-d, not %d-d", a->ndim);
        return NULL;
    }
    tl_tensor *sa = NULL;
    if (sorter) {
        if (!tl_is_int(sorter->dtype)) {
            tl_seterr(TypeError, "sorter must hold integers, not %s", tl_dtype_name(sorter->dtype));
            return NULL;
        }
        if (sorter->ndim != 1 || sorter->shape[0] != a->shape[0]) {
            tl_seterr(ValueError, "sorter must have the sorted tensor's size (%lld)", (long long)a->shape[0]);
            return NULL;
        }
        if (!(sa = tl_take(a, sorter, 0, TL_TAKE_RAISE))) return NULL;
    }
    tl_okeys s, k;
    int rc = tl_okeys_make(sa ? sa : a, dt, &s);
    if (sa) tl_tensor_release(sa);
    if (rc < 0) return NULL;
    if (tl_okeys_make(v, dt, &k) < 0) {
        tl_okeys_free(&s);
        return NULL;
    }
    tl_tensor *r = tl_tensor_empty(TL_I64, v->ndim, v->shape);
    if (r && k.n) tl_okeys_search_all(&s, &k, right, tl_tensor_data(r));
    tl_okeys_free(&s);
    tl_okeys_free(&k);
    return r;
}
