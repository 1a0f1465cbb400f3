/* iter.c — strided iteration: broadcast, order, flip and coalesce axes, then hand inner runs to kernels */
#include <stdlib.h>
#include <string.h>

#include "iter.h"

/* Elements handed to one inner call at most; the interrupt flag is checked
   between chunks, so a Ctrl-C stops a big operation within ~16k elements. */

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* Fills byte strides of op's first op_ndim axes broadcast to (ndim, shape),
   right-aligned; 0 on stretched or missing axes. Extra leading axes of op
   must have size 1. */
static int broadcast_operand(const tl_tensor *op, int op_ndim, int ndim, const int64_t *shape, int64_t *bstrides)
{
    int64_t item = (int64_t)tl_dtype_size(op->dtype);
    int lead = op_ndim - ndim;
    for (int i = 0; i < lead; i++)
        if (op->shape[i] != 1) goto fail;
    for (int i = 0; i < ndim; i++) {
        int j = i - (ndim - op_ndim);
        if (j < 0) {
            bstrides[i] = 0;
        } else if (op->shape[j] == shape[i]) {
            bstrides[i] = shape[i] == 1 ? 0 : op->strides[j] * item;
        } else if (op->shape[j] == 1) {
            bstrides[i] = 0;
        } else {
            goto fail;
        }
    }
    return 0;
fail:
    tl_seterr_shapes("cannot broadcast shape %s to %s", op_ndim, op->shape, ndim, shape);
    return -1;
}

/* Checks the operand and axis counts of a plan (error set when out of range). */
static int check_counts(int nops, int ndim)
{
    if (nops < 1 || nops > TL_ITER_MAXOPS) {
        tl_seterr(ValueError, "iterator: %d operands (at most %d)", nops, TL_ITER_MAXOPS);
        return -1;
    }
    if (ndim < 0 || ndim > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", ndim, TL_MAXDIM);
        return -1;
    }
    return 0;
}

/* Broadcasts every operand (without its last core[k] axes; no core: all axes)
   to (ndim, shape) into byte strides and base pointers. */
static int broadcast_all(int nops, const tl_tensor *const *ops, const int *core, int ndim, const int64_t *shape,
                         char **base, int64_t (*bstrides)[TL_MAXDIM])
{
    for (int op = 0; op < nops; op++) {
        int op_ndim = ops[op]->ndim - (core ? core[op] : 0);
        if (op_ndim < 0) {
            tl_seterr(ValueError, "iterator: operand %d has fewer than %d axes", op, core[op]);
            return -1;
        }
        if (broadcast_operand(ops[op], op_ndim, ndim, shape, bstrides[op]) < 0) return -1;
        base[op] = tl_tensor_data(ops[op]);
    }
    return 0;
}

/* numpy's npyiter_find_best_axis_ordering: stable insertion sort of axes
   (perm[0] = innermost) by |stride|, smallest first. An axis moves inward
   past another only when every operand with nonzero strides on both agrees;
   disagreement or ties keep C order. */
static void order_axes(const tl_iter *it, int ndim, int *perm)
{
    for (int i0 = 1; i0 < ndim; i0++) {
        int pos = i0, ax0 = perm[i0];
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            int ax1 = perm[i1];
            bool ambiguous = true, swap = false;
            for (int op = 0; op < it->nops; op++) {
                int64_t s0 = it->bstrides[op][ax0], s1 = it->bstrides[op][ax1];
                if (s0 == 0 || s1 == 0) continue;
                if (abs64(s1) <= abs64(s0)) swap = false;
                else if (ambiguous) swap = true;
                ambiguous = false;
            }
            if (ambiguous) continue;
            if (!swap) break;
            pos = i1;
        }
        if (pos != i0) {
            memmove(perm + pos + 1, perm + pos, (size_t)(i0 - pos) * sizeof *perm);
            perm[pos] = ax0;
        }
    }
}

/* Reverses axis d for every operand when all its strides are <= 0 and one is
   < 0 (numpy's npyiter_flip_negative_strides): memory is then walked upward. */
static void flip_negative_axis(tl_iter *it, int d)
{
    bool any_negative = false;
    for (int op = 0; op < it->nops; op++) {
        if (it->bstrides[op][d] > 0) return;
        if (it->bstrides[op][d] < 0) any_negative = true;
    }
    if (!any_negative) return;
    for (int op = 0; op < it->nops; op++) {
        it->base[op] += (it->shape[d] - 1) * it->bstrides[op][d];
        it->bstrides[op][d] = -it->bstrides[op][d];
    }
}

/* True when every operand is C-contiguous with exactly this shape: the plan is one flat run. */
static bool all_contiguous_same_shape(int nops, const tl_tensor *const *ops, int ndim, const int64_t *shape)
{
    for (int op = 0; op < nops; op++) {
        const tl_tensor *t = ops[op];
        if (t->ndim != ndim || !tl_is_contiguous(t)) return false;
        for (int d = 0; d < ndim; d++)
            if (t->shape[d] != shape[d]) return false;
    }
    return true;
}

int tl_iter_init(tl_iter *it, int nops, const tl_tensor *const *ops, int ndim, const int64_t *shape)
{
    if (check_counts(nops, ndim) < 0) return -1;
    int64_t size;
    if (tl_shape_size(ndim, shape, &size) < 0) return -1;
    if (size > 0 && all_contiguous_same_shape(nops, ops, ndim, shape)) {
        it->nops = nops;    /* fast path: one flat run (as PyTorch's fast_set_up) */
        it->ndim = 1;
        it->size = size;
        it->shape[0] = size;
        for (int op = 0; op < nops; op++) {
            it->base[op] = tl_tensor_data(ops[op]);
            it->bstrides[op][0] = (int64_t)tl_dtype_size(ops[op]->dtype);
        }
        return 0;
    }
    char *base[TL_ITER_MAXOPS];
    int64_t bstrides[TL_ITER_MAXOPS][TL_MAXDIM];
    if (broadcast_all(nops, ops, NULL, ndim, shape, base, bstrides) < 0) return -1;
    return tl_iter_plan(it, nops, ndim, shape, base, (const int64_t(*)[TL_MAXDIM])bstrides);
}

int tl_iter_plan(tl_iter *it, int nops, int ndim, const int64_t *shape, char *const *base,
                 const int64_t (*bstrides)[TL_MAXDIM])
{
    if (check_counts(nops, ndim) < 0) return -1;
    int64_t size;
    if (tl_shape_size(ndim, shape, &size) < 0) return -1;
    tl_iter full;                       /* broadcast, not yet reduced */
    full.nops = nops;
    full.ndim = ndim;
    for (int d = 0; d < ndim; d++) full.shape[d] = shape[d];    /* shape may be NULL when ndim is 0 */
    for (int op = 0; op < nops; op++) {
        for (int d = 0; d < ndim; d++) full.bstrides[op][d] = bstrides[op][d];
        full.base[op] = base[op];
    }

    memset(it, 0, sizeof *it);
    it->nops = nops;
    it->size = size;
    for (int op = 0; op < nops; op++) it->base[op] = full.base[op];
    if (size == 0) {                    /* nothing runs; keep one empty axis */
        it->ndim = 1;
        return 0;
    }
    /* drop size-1 axes and flip all-negative axes */
    int perm[TL_MAXDIM], n = 0;
    for (int d = ndim - 1; d >= 0; d--) {
        if (full.shape[d] == 1) continue;
        flip_negative_axis(&full, d);
        perm[n++] = d;                  /* fastest-first: C order reversed */
    }
    for (int op = 0; op < nops; op++) it->base[op] = full.base[op];
    order_axes(&full, n, perm);

    /* coalesce perm[k] (inner) with the axis just outside it when every
       operand's outer stride equals inner stride * inner size */
    int64_t cshape[TL_MAXDIM], cstr[TL_ITER_MAXOPS][TL_MAXDIM];
    int m = 0;
    for (int k = 0; k < n; k++) {
        int ax = perm[k];
        bool merge = m > 0;
        for (int op = 0; op < nops && merge; op++)
            merge = cstr[op][m - 1] * cshape[m - 1] == full.bstrides[op][ax];
        if (merge) {
            cshape[m - 1] *= full.shape[ax];
            continue;
        }
        cshape[m] = full.shape[ax];
        for (int op = 0; op < nops; op++) cstr[op][m] = full.bstrides[op][ax];
        m++;
    }

    /* store C order: innermost axis last; a 0-d iteration is one axis of 1 */
    if (m == 0) {
        it->ndim = 1;
        it->shape[0] = 1;
        return 0;
    }
    it->ndim = m;
    for (int k = 0; k < m; k++) {
        it->shape[m - 1 - k] = cshape[k];
        for (int op = 0; op < nops; op++) it->bstrides[op][m - 1 - k] = cstr[op][k];
    }
    return 0;
}

int tl_iter_run(const tl_iter *it, tl_inner_fn fn, void *aux)
{
    if (it->size == 0) return 0;
    if (it->ndim == 0) {                /* hand-made 0-d plan: one element */
        static const int64_t zero[TL_ITER_MAXOPS];
        char *ptrs[TL_ITER_MAXOPS];
        memcpy(ptrs, it->base, sizeof ptrs);
        fn(1, ptrs, zero, aux);
        return 0;
    }
    int nops = it->nops, nd = it->ndim, inner = nd - 1;
    int64_t idx[TL_MAXDIM] = {0};
    int64_t inner_strides[TL_ITER_MAXOPS];
    char *outer[TL_ITER_MAXOPS], *ptrs[TL_ITER_MAXOPS];
    for (int op = 0; op < nops; op++) {
        outer[op] = it->base[op];
        inner_strides[op] = it->bstrides[op][inner];
    }
    int64_t n = it->shape[inner], since_check = 0;
    for (;;) {
        for (int64_t done = 0; done < n;) {
            if (since_check >= TL_ITER_CHUNK) {
                if (tl_check_interrupt() < 0) return -1;
                since_check = 0;
            }
            int64_t len = n - done < TL_ITER_CHUNK ? n - done : TL_ITER_CHUNK;
            for (int op = 0; op < nops; op++) ptrs[op] = outer[op] + done * inner_strides[op];
            fn(len, ptrs, inner_strides, aux);
            done += len;
            since_check += len;
        }
        /* advance the odometer over the outer axes */
        int d = inner - 1;
        for (; d >= 0; d--) {
            for (int op = 0; op < nops; op++) outer[op] += it->bstrides[op][d];
            if (++idx[d] < it->shape[d]) break;
            for (int op = 0; op < nops; op++) outer[op] -= it->shape[d] * it->bstrides[op][d];
            idx[d] = 0;
        }
        if (d < 0) return 0;
    }
}

int tl_iter_batch_init(tl_iter *it, int nops, const tl_tensor *const *ops, const int *core, int ndim,
                       const int64_t *shape)
{
    if (check_counts(nops, ndim) < 0) return -1;
    char *base[TL_ITER_MAXOPS];
    int64_t bstrides[TL_ITER_MAXOPS][TL_MAXDIM];
    if (broadcast_all(nops, ops, core, ndim, shape, base, bstrides) < 0) return -1;
    return tl_iter_plan(it, nops, ndim, shape, base, (const int64_t(*)[TL_MAXDIM])bstrides);
}

void tl_iter_at(const tl_iter *it, int64_t i, char **ptrs)
{
    for (int op = 0; op < it->nops; op++) ptrs[op] = it->base[op];
    for (int d = it->ndim - 1; d >= 0; d--) {
        int64_t q = i % it->shape[d];
        i /= it->shape[d];
        for (int op = 0; op < it->nops; op++) ptrs[op] += q * it->bstrides[op][d];
    }
}

/* Merges the run's axes run[0..n) (outermost first) into one run of *len
   elements at stride[op] bytes; false when some operand's strides do not
   chain. Size-1 axes are skipped; with none left the run is one element. */
static bool merge_run(int nops, const int64_t *shape, const int64_t (*bstrides)[TL_MAXDIM], const int *run, int n,
                      const int64_t *item, int64_t *len, int64_t *stride)
{
    int64_t count = 1;
    bool have = false;
    for (int op = 0; op < nops; op++) stride[op] = item[op];
    for (int i = 0; i < n; i++) {
        int ax = run[i];
        if (shape[ax] == 1) continue;
        for (int op = 0; op < nops && have; op++)
            if (stride[op] != shape[ax] * bstrides[op][ax]) return false;
        count = have ? count * shape[ax] : shape[ax];
        for (int op = 0; op < nops; op++) stride[op] = bstrides[op][ax];
        have = true;
    }
    *len = count;
    return true;
}

int tl_iter_runs_init(tl_iter_runs *r, int nops, const tl_tensor *const *ops, int ndim, const int64_t *shape,
                      const bool *mask, bool c_order)
{
    if (check_counts(nops, ndim) < 0) return -1;
    char *base[TL_ITER_MAXOPS];
    int64_t bstrides[TL_ITER_MAXOPS][TL_MAXDIM], item[TL_ITER_MAXOPS];
    if (broadcast_all(nops, ops, NULL, ndim, shape, base, bstrides) < 0) return -1;
    for (int op = 0; op < nops; op++) item[op] = (int64_t)tl_dtype_size(ops[op]->dtype);

    int nk = 0, nr = 0;
    int64_t kshape[TL_MAXDIM], kstrides[TL_ITER_MAXOPS][TL_MAXDIM];
    for (int d = 0; d < ndim; d++) {
        if (!mask[d]) {
            kshape[nk] = shape[d];
            for (int op = 0; op < nops; op++) kstrides[op][nk] = bstrides[op][d];
            r->perm[nk++] = d;
        }
    }
    int *run = r->perm + nk;
    for (int d = 0; d < ndim; d++)
        if (mask[d]) run[nr++] = d;
    const int64_t *lead = bstrides[nops - 1];
    if (!c_order)   /* stable sort of the run's axes by |stride|, largest first */
        for (int i = 1; i < nr; i++)
            for (int j = i; j > 0 && llabs(lead[run[j - 1]]) < llabs(lead[run[j]]); j--) {
                int t = run[j]; run[j] = run[j - 1]; run[j - 1] = t;
            }
    if (!merge_run(nops, shape, (const int64_t(*)[TL_MAXDIM])bstrides, run, nr, item, &r->len, r->stride)) return 1;
    return tl_iter_plan(&r->outer, nops, nk, kshape, base, (const int64_t(*)[TL_MAXDIM])kstrides);
}
