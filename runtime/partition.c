/* partition.c — argpartition and partition: selection (quickselect) on order keys, row by row */
#include <stdlib.h>
#include <string.h>

#include "order.h"

/* Puts the k-th smallest of key[lo, hi) at k, smaller-or-equal keys before it and
   greater-or-equal after, moving idx alongside. Three-way quickselect with pivots
   from a per-row xorshift sequence (deterministic, so results repeat). */
static void select_kth(uint64_t *key, int64_t *idx, int64_t lo, int64_t hi, int64_t k, uint64_t *rng)
{
    while (hi - lo > 1) {
        *rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
        uint64_t p = key[lo + (int64_t)(*rng % (uint64_t)(hi - lo))];
        int64_t lt = lo, i = lo, gt = hi;   /* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
        while (i < gt) {
            if (key[i] < p) {
                uint64_t tk = key[i]; key[i] = key[lt]; key[lt] = tk;
                int64_t ti = idx[i]; idx[i] = idx[lt]; idx[lt] = ti;
                lt++, i++;
            } else if (key[i] > p) {
                gt--;
                uint64_t tk = key[i]; key[i] = key[gt]; key[gt] = tk;
                int64_t ti = idx[i]; idx[i] = idx[gt]; idx[gt] = ti;
            } else {
                i++;
            }
        }
        if (k < lt) hi = lt;
        else if (k >= gt) lo = gt;
        else return;
    }
}

typedef struct part_ctx {
    tl_okeys *k;
    int64_t D, nkth;
    const int64_t *kth;   /* ascending, normalized */
    int64_t *out;         /* rows x D indices */
} part_ctx;

/* Partitions row r: its indices into out. */
static int part_row(part_ctx *c, int64_t r, uint64_t *key)
{
    int64_t D = c->D, *idx = c->out + r * D;
    for (int64_t i = 0; i < D; i++) idx[i] = i;
    if (c->k->w == 16) {   /* complex: a stable sort is a partition for every kth */
        tl_okeys row = *c->k;
        row.owner = NULL, row.n = D, row.k = (char *)c->k->k + 16 * r * D;
        return tl_okeys_sort(&row, idx);
    }
    for (int64_t i = 0; i < D; i++) key[i] = 0;
    const char *base = (const char *)c->k->k + (size_t)(r * D) * (size_t)c->k->w;
    for (int64_t i = 0; i < D; i++) memcpy(&key[i], base + (size_t)i * (size_t)c->k->w, (size_t)c->k->w);   /* little-endian */
    uint64_t rng = 0x9E3779B97F4A7C15u ^ (uint64_t)r;
    int64_t lo = 0;
    for (int64_t j = 0; j < c->nkth; j++) {
        select_kth(key, idx, lo, D, c->kth[j], &rng);
        lo = c->kth[j] + 1;
    }
    return 0;
}

tl_tensor *tl_argpartition(const tl_tensor *a, int nkth, const int64_t *kth, int axis)
{
    int ax;
    if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
    int64_t D = a->shape[ax];
    int64_t *ks = malloc(sizeof(int64_t) * (size_t)(nkth + 1));
    if (!ks) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    bool empty = tl_tensor_size(a) == 0;   /* numpy checks no kth then */
    int nk = 0;
    for (int j = 0; j < nkth && !empty; j++) {
        int64_t k = kth[j] < 0 ? kth[j] + D : kth[j];
        if (k < 0 || k >= D) {
            tl_seterr(ValueError, "kth %lld is out of bounds for size %lld", (long long)kth[j], (long long)D);
            free(ks);
            return NULL;
        }
        int i = nk++;   /* insertion: ascending, duplicates dropped */
        while (i > 0 && ks[i - 1] > k) ks[i] = ks[i - 1], i--;
        ks[i] = k;
        if (i > 0 && ks[i - 1] == k) {
            memmove(ks + i, ks + i + 1, sizeof(int64_t) * (size_t)(nk - i - 1));
            nk--;
        }
    }
    tl_tensor *moved = tl_view_swapaxes(a, ax, a->ndim - 1);
    tl_okeys k = { 0 };
    tl_tensor *idx = moved && tl_okeys_make(moved, a->dtype, &k) == 0 ? tl_tensor_empty(TL_I64, moved->ndim, moved->shape) : NULL;
    int rc = idx ? 0 : -1;
    if (rc == 0 && !empty) {
        part_ctx c = { .k = &k, .D = D, .nkth = nk, .kth = ks, .out = tl_tensor_data(idx) };
        uint64_t *key = malloc(sizeof(uint64_t) * (size_t)D);
        if (!key) {
            tl_seterr(MemoryError, "out of memory");
            rc = -1;
        }
        for (int64_t r = 0; rc == 0 && r < tl_tensor_size(idx) / D; r++) {
            rc = part_row(&c, r, key);
            if (rc == 0 && (r & 63) == 0) rc = tl_check_interrupt();
        }
        free(key);
    }
    free(ks);
    tl_okeys_free(&k);
    if (moved) tl_tensor_release(moved);
    if (rc < 0) {
        if (idx) tl_tensor_release(idx);
        return NULL;
    }
    if (ax == a->ndim - 1) return idx;
    tl_tensor *back = tl_view_swapaxes(idx, ax, a->ndim - 1);
    tl_tensor_release(idx);
    tl_tensor *r = back ? tl_copy(back) : NULL;
    if (back) tl_tensor_release(back);
    return r;
}

tl_tensor *tl_partition(const tl_tensor *a, int nkth, const int64_t *kth, int axis)
{
    tl_tensor *idx = tl_argpartition(a, nkth, kth, axis);
    if (!idx) return NULL;
    tl_tensor *r = tl_take_along_axis(a, idx, axis);   /* the values themselves: -0.0 and nan bits kept */
    tl_tensor_release(idx);
    return r;
}
