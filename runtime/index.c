/* index.c — numpy indexing: basic indices give views, integer/bool tensor indices gather and scatter copies */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "tensor.h"

/* One position of the expanded index: ellipsis replaced by full slices (plus
   a marker, since numpy lets even an empty ellipsis separate advanced
   indices), bool tensors replaced by their nonzero coordinate arrays. */
typedef enum part_kind { P_INT, P_SLICE, P_NEWAXIS, P_ELLIPSIS, P_ADV } part_kind;

typedef struct index_part {
    part_kind kind;
    int src_axis;            /* axis of `a` consumed; -1 for none (a 0-d bool adds a new axis) */
    int64_t i;               /* P_INT */
    int64_t start, stop, step;
    bool has_start, has_stop;
    int ndim;                /* P_ADV: the index array; ndim 0 holds `i` */
    int64_t shape[TL_MAXDIM];
    int64_t *data;           /* owned, C order; NULL when ndim == 0 */
} index_part;

#define MAX_PARTS (3 * TL_MAXDIM + 2)

typedef struct index_plan {
    int nparts;
    index_part parts[MAX_PARTS];
    bool advanced;           /* some tensor index: the result is a copy */
    /* filled by build_view */
    int vndim;
    int64_t vshape[TL_MAXDIM], vstrides[TL_MAXDIM], voffset;
    int vaxis[MAX_PARTS];    /* view axis of each P_ADV part */
} index_plan;

static void plan_free(index_plan *p)
{
    for (int k = 0; k < p->nparts; k++) free(p->parts[k].data);
}

static index_part *add_part(index_plan *p, part_kind kind, int src_axis)
{
    if (p->nparts == MAX_PARTS) {
        tl_seterr(IndexError, "too many indices");
        return NULL;
    }
    index_part *q = &p->parts[p->nparts++];
    /* shape is read only up to ndim, so it is left as is: zeroing it was most of a view's cost */
    memset(q, 0, offsetof(index_part, shape));
    q->data = NULL;
    q->kind = kind;
    q->src_axis = src_axis;
    return q;
}

/* Calls fn(ctx, element pointer, C-order position) for every element of t. */
static void each_element(const tl_tensor *t, void (*fn)(void *, const void *, int64_t), void *ctx)
{
    int64_t idx[TL_MAXDIM] = { 0 }, n = tl_tensor_size(t);
    for (int64_t i = 0; i < n; i++) {
        fn(ctx, tl_tensor_at(t, idx), i);
        for (int k = t->ndim - 1; k >= 0; k--) {
            if (++idx[k] < t->shape[k]) break;
            idx[k] = 0;
        }
    }
}

typedef struct int_reader { tl_dtype dtype; int64_t *out; } int_reader;

static void read_int(void *ctx, const void *p, int64_t i)
{
    int_reader *r = ctx;
    if (tl_dtype_kind(r->dtype) == TL_KIND_UINT) {
        uint64_t u = tl_scalar_to_u64(p, r->dtype);
        r->out[i] = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
    } else {
        r->out[i] = tl_scalar_to_i64(p, r->dtype);
    }
}

static int64_t *alloc_i64(int64_t n)
{
    if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(int64_t)) {
        tl_seterr(MemoryError, "index tensor too large");
        return NULL;
    }
    int64_t *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    if (!p) tl_seterr(MemoryError, "out of memory");
    return p;
}

/* An integer tensor index: copied into a C-order int64 array. */
static int add_int_array(index_plan *p, const tl_tensor *t, int src_axis)
{
    index_part *q = add_part(p, P_ADV, src_axis);
    if (!q) return -1;
    q->ndim = t->ndim;
    memcpy(q->shape, t->shape, sizeof q->shape);
    if (!(q->data = alloc_i64(tl_tensor_size(t)))) return -1;
    int_reader r = { t->dtype, q->data };
    each_element(t, read_int, &r);
    return 0;
}

typedef struct nonzero_state { const tl_tensor *t; int64_t count; int64_t **coords; } nonzero_state;

static void count_true(void *ctx, const void *p, int64_t i)
{
    (void)i;
    nonzero_state *s = ctx;
    s->count += tl_scalar_is_nonzero(p, s->t->dtype);
}

static void record_true(void *ctx, const void *p, int64_t i)
{
    nonzero_state *s = ctx;
    if (!tl_scalar_is_nonzero(p, s->t->dtype)) return;
    for (int k = s->t->ndim - 1; k >= 0; k--) {   /* unravel the C-order position */
        s->coords[k][s->count] = i % s->t->shape[k];
        i /= s->t->shape[k];
    }
    s->count++;
}

/* A bool tensor index over axes [src_axis, src_axis + ndim): one int array per axis. */
static int add_bool_mask(index_plan *p, const tl_tensor *mask, const tl_tensor *a, int src_axis)
{
    if (mask->ndim == 0) {   /* numpy: a[True] adds an axis of length 1, a[False] of length 0 */
        index_part *q = add_part(p, P_ADV, -1);
        if (!q) return -1;
        bool on = tl_scalar_is_nonzero(tl_tensor_data(mask), mask->dtype);
        q->ndim = 1;
        q->shape[0] = on;
        if (!(q->data = alloc_i64(1))) return -1;
        q->data[0] = 0;
        return 0;
    }
    for (int k = 0; k < mask->ndim; k++) {
        if (mask->shape[k] != a->shape[src_axis + k]) {
            tl_seterr(IndexError, "boolean index did not match indexed tensor along axis %d; size of axis is %lld "
                      "but size of corresponding boolean axis is %lld",
                      src_axis + k, (long long)a->shape[src_axis + k], (long long)mask->shape[k]);
            return -1;
        }
    }
    nonzero_state s = { mask, 0, NULL };
    each_element(mask, count_true, &s);
    int64_t *coords[TL_MAXDIM];
    for (int k = 0; k < mask->ndim; k++) {
        index_part *q = add_part(p, P_ADV, src_axis + k);
        if (!q) return -1;
        q->ndim = 1;
        q->shape[0] = s.count;
        if (!(q->data = alloc_i64(s.count))) return -1;
        coords[k] = q->data;
    }
    s.count = 0;
    s.coords = coords;
    each_element(mask, record_true, &s);
    return 0;
}

/* How many axes of `a` an index item consumes. */
static int item_width(const tl_index_item *it)
{
    switch (it->kind) {
    case TL_IDX_INT: case TL_IDX_SLICE: return 1;
    case TL_IDX_TENSOR: return it->tensor->dtype == TL_BOOL ? it->tensor->ndim : 1;
    default: return 0;
    }
}

/* Expands items into parts, checking counts and index dtypes. */
static int build_plan(index_plan *p, const tl_tensor *a, int n, const tl_index_item *items)
{
    int used = 0, ellipses = 0;
    p->nparts = 0;   /* parts are initialized as add_part appends them, not all MAX_PARTS up front */
    p->advanced = false;
    for (int k = 0; k < n; k++) {
        if (items[k].kind == TL_IDX_ELLIPSIS && ++ellipses > 1) {
            tl_seterr(IndexError, "an index can only have a single ellipsis ('...')");
            return -1;
        }
        if (items[k].kind == TL_IDX_TENSOR) {
            tl_dtype dt = items[k].tensor->dtype;
            if (dt != TL_BOOL && !tl_is_int(dt)) {
                tl_seterr(TypeError, "only integer or boolean tensors can be used as indices, got %s", tl_dtype_name(dt));
                return -1;
            }
            p->advanced = true;
        }
        used += item_width(&items[k]);
    }
    if (used > a->ndim) {
        tl_seterr(IndexError, "too many indices for tensor: tensor is %d-dimensional, but %d were indexed", a->ndim, used);
        return -1;
    }
    int axis = 0;
    for (int k = 0; k < n; k++) {
        const tl_index_item *it = &items[k];
        index_part *q;
        switch (it->kind) {
        case TL_IDX_INT:
            if (!(q = add_part(p, P_INT, axis++))) return -1;
            q->i = it->i;
            break;
        case TL_IDX_SLICE:
            if (!(q = add_part(p, P_SLICE, axis++))) return -1;
            q->start = it->start, q->stop = it->stop, q->step = it->step;
            q->has_start = it->has_start, q->has_stop = it->has_stop;
            break;
        case TL_IDX_NEWAXIS:
            if (!add_part(p, P_NEWAXIS, -1)) return -1;
            break;
        case TL_IDX_ELLIPSIS:
            if (!add_part(p, P_ELLIPSIS, -1)) return -1;
            for (int e = 0; e < a->ndim - used; e++) {
                if (!(q = add_part(p, P_SLICE, axis++))) return -1;
                q->step = 1;
            }
            break;
        case TL_IDX_TENSOR:
            if (it->tensor->dtype == TL_BOOL) {
                if (add_bool_mask(p, it->tensor, a, axis) < 0) return -1;
                axis += it->tensor->ndim;
            } else if (it->tensor->ndim == 0) {   /* a 0-d integer tensor acts as an integer */
                if (!(q = add_part(p, P_INT, axis++))) return -1;
                read_int(&(int_reader){ it->tensor->dtype, &q->i }, tl_tensor_data(it->tensor), 0);
            } else if (add_int_array(p, it->tensor, axis++) < 0) {
                return -1;
            }
            break;
        }
    }
    while (axis < a->ndim) {   /* unindexed trailing axes */
        index_part *q = add_part(p, P_SLICE, axis++);
        if (!q) return -1;
        q->step = 1;
    }
    /* With any array present, numpy treats integers as 0-d advanced indices. */
    bool arrays = false;
    for (int k = 0; k < p->nparts; k++) arrays |= p->parts[k].kind == P_ADV;
    for (int k = 0; arrays && k < p->nparts; k++)
        if (p->parts[k].kind == P_INT) p->parts[k].kind = P_ADV;
    return 0;
}

static int check_index(int64_t i, int axis, int64_t n, int64_t *out)
{
    int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n) {
        tl_seterr(IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis, (long long)n);
        return -1;
    }
    *out = j;
    return 0;
}

/* The view that basic parts select; advanced parts keep their whole axis. */
static int build_view(index_plan *p, const tl_tensor *a)
{
    p->vndim = 0;
    p->voffset = a->offset;
    for (int k = 0; k < p->nparts; k++) {
        index_part *q = &p->parts[k];
        int64_t dim = 1, stride = 0;
        if (q->kind == P_ELLIPSIS) continue;
        if (q->kind == P_INT) {
            int64_t j;
            if (check_index(q->i, q->src_axis, a->shape[q->src_axis], &j) < 0) return -1;
            p->voffset += j * a->strides[q->src_axis];
            continue;
        }
        if (q->kind == P_SLICE) {
            int64_t start = q->start, stop = q->stop, step = q->step;
            int64_t len = tl_slice_indices(a->shape[q->src_axis], &start, &stop, &step, q->has_start, q->has_stop);
            if (len < 0) return -1;
            dim = len;
            stride = a->strides[q->src_axis];
            if (len > 0) p->voffset += start * stride;
            int64_t stepped;
            if (!__builtin_mul_overflow(stride, step, &stepped)) stride = stepped;
            else if (len > 1) {   /* cannot happen inside a real storage; length <= 1 never uses it */
                tl_seterr(ValueError, "slice step %lld overflows the stride", (long long)step);
                return -1;
            }
        } else if (q->kind == P_ADV && q->src_axis >= 0) {
            dim = a->shape[q->src_axis];
            stride = a->strides[q->src_axis];
        }
        if (p->vndim == TL_MAXDIM) {
            tl_seterr(ShapeError, "too many dimensions: indexing gives more than %d", TL_MAXDIM);
            return -1;
        }
        if (q->kind == P_ADV) p->vaxis[k] = p->vndim;
        p->vshape[p->vndim] = dim;
        p->vstrides[p->vndim] = stride;
        p->vndim++;
    }
    return 0;
}

static tl_tensor *view_from_plan(const index_plan *p, const tl_tensor *a)
{
    tl_tensor *v = tl_tensor_view_of(a->storage, a->dtype, p->vndim, p->vshape, p->vstrides, p->voffset);
    if (v) v->readonly = v->readonly || a->readonly;
    return v;
}

/* ---- advanced indexing: geometry ----------------------------------------- */

/* Where the advanced dims go and what the result looks like. */
typedef struct adv_geometry {
    int nb;                        /* broadcast index shape */
    int64_t bshape[TL_MAXDIM];
    int64_t bsize;
    int nn;                        /* view axes not advanced-indexed, in order */
    int naxis[TL_MAXDIM];
    int rndim;                     /* result: B placed first, or where the adjacent run was */
    int64_t rshape[TL_MAXDIM];
    int rpos_b[TL_MAXDIM];         /* result axis of each B dim */
    int rpos_n[TL_MAXDIM];         /* result axis of each non-advanced view axis */
} adv_geometry;

static int broadcast_error(const index_plan *p)
{
    char msg[512] = "shape mismatch: indexing arrays could not be broadcast together with shapes";
    for (int k = 0; k < p->nparts; k++) {
        const index_part *q = &p->parts[k];
        if (q->kind != P_ADV || q->ndim == 0) continue;
        char buf[TL_MAXDIM * 24 + 8];
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, " %s", tl_shape_str(q->ndim, q->shape, buf, sizeof buf));
    }
    tl_seterr(ShapeError, "%s", msg);
    return -1;
}

static int plan_geometry(const index_plan *p, adv_geometry *g)
{
    int first = -1, last = -1, count = 0;
    g->nb = 0;
    for (int k = 0; k < p->nparts; k++) {
        const index_part *q = &p->parts[k];
        if (q->kind != P_ADV) continue;
        if (first < 0) first = k;
        last = k;
        count++;
        if (tl_broadcast_shapes(g->nb, g->bshape, q->ndim, q->shape, &g->nb, g->bshape) < 0)
            return broadcast_error(p);
    }
    bool adjacent = last - first + 1 == count;
    if (tl_shape_size(g->nb, g->bshape, &g->bsize) < 0) return -1;
    /* Non-advanced view axes, and how many come before the advanced run. */
    bool is_adv[TL_MAXDIM] = { false };
    for (int k = 0; k < p->nparts; k++)
        if (p->parts[k].kind == P_ADV) is_adv[p->vaxis[k]] = true;
    int before = 0;
    for (int k = 0; adjacent && k < first; k++)
        before += p->parts[k].kind == P_SLICE || p->parts[k].kind == P_NEWAXIS;
    g->nn = 0;
    for (int ax = 0; ax < p->vndim; ax++)
        if (!is_adv[ax]) g->naxis[g->nn++] = ax;
    g->rndim = g->nb + g->nn;
    if (g->rndim > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: indexing gives %d (at most %d)", g->rndim, TL_MAXDIM);
        return -1;
    }
    int r = 0;
    for (int j = 0; j < before; j++) g->rpos_n[j] = r++;
    for (int b = 0; b < g->nb; b++) g->rpos_b[b] = r++;
    for (int j = before; j < g->nn; j++) g->rpos_n[j] = r++;
    for (int b = 0; b < g->nb; b++) g->rshape[g->rpos_b[b]] = g->bshape[b];
    for (int j = 0; j < g->nn; j++) g->rshape[g->rpos_n[j]] = p->vshape[g->naxis[j]];
    return 0;
}

/* advoff[q] = element offset, within the view, selected by broadcast index position q. */
static int64_t *advanced_offsets(const index_plan *p, const adv_geometry *g)
{
    int64_t *off = alloc_i64(g->bsize);
    if (!off) return NULL;
    int64_t bidx[TL_MAXDIM] = { 0 };
    for (int64_t q = 0; q < g->bsize; q++) {
        int64_t o = 0;
        for (int k = 0; k < p->nparts; k++) {
            const index_part *part = &p->parts[k];
            if (part->kind != P_ADV) continue;
            int64_t flat = 0, i = part->i;
            if (part->ndim > 0) {   /* broadcast: right-aligned, size-1 dims repeat */
                for (int d = 0; d < part->ndim; d++) {
                    int64_t dim = part->shape[d];
                    flat = flat * dim + (dim == 1 ? 0 : bidx[g->nb - part->ndim + d]);
                }
                i = part->data[flat];
            }
            int ax = p->vaxis[k];
            int64_t j;
            if (check_index(i, part->src_axis < 0 ? ax : part->src_axis, p->vshape[ax], &j) < 0) {
                free(off);
                return NULL;
            }
            o += j * p->vstrides[ax];
        }
        off[q] = o;
        for (int d = g->nb - 1; d >= 0; d--) {
            if (++bidx[d] < g->bshape[d]) break;
            bidx[d] = 0;
        }
    }
    return off;
}

/* ---- advanced indexing: moving the data ---------------------------------- */

/* Copies an n-d block of itemsize-byte elements between two strided layouts (byte strides). */
static void copy_block(char *dst, const int64_t *dstr, const char *src, const int64_t *sstr,
                       int nd, const int64_t *shape, size_t isz)
{
    if (nd == 0) {
        memcpy(dst, src, isz);
        return;
    }
    int64_t idx[TL_MAXDIM] = { 0 }, inner = shape[nd - 1], ds = dstr[nd - 1], ss = sstr[nd - 1];
    for (int k = 0; k < nd; k++)
        if (shape[k] == 0) return;
    for (;;) {
        char *d = dst;
        const char *s = src;
        switch (isz) {   /* constant sizes let the compiler emit plain moves */
        case 1: for (int64_t i = 0; i < inner; i++, d += ds, s += ss) memcpy(d, s, 1); break;
        case 2: for (int64_t i = 0; i < inner; i++, d += ds, s += ss) memcpy(d, s, 2); break;
        case 4: for (int64_t i = 0; i < inner; i++, d += ds, s += ss) memcpy(d, s, 4); break;
        case 8: for (int64_t i = 0; i < inner; i++, d += ds, s += ss) memcpy(d, s, 8); break;
        default: for (int64_t i = 0; i < inner; i++, d += ds, s += ss) memcpy(d, s, isz); break;
        }
        int k = nd - 2;
        for (; k >= 0; k--) {
            dst += dstr[k];
            src += sstr[k];
            if (++idx[k] < shape[k]) break;
            dst -= dstr[k] * shape[k];
            src -= sstr[k] * shape[k];
            idx[k] = 0;
        }
        if (k < 0) return;
    }
}

/* Moves data between a's indexed elements and a tensor `r` laid out in the
   result shape: gather (r ← a) or scatter (a ← r; later duplicates win). */
static int transfer(const index_plan *p, const adv_geometry *g, const int64_t *advoff, const tl_tensor *a,
                    const tl_tensor *r, bool scatter)
{
    size_t isz = tl_dtype_size(a->dtype);
    int64_t shape[TL_MAXDIM], astr[TL_MAXDIM], rstr[TL_MAXDIM], rstr_b[TL_MAXDIM], bidx[TL_MAXDIM] = { 0 };
    for (int j = 0; j < g->nn; j++) {
        shape[j] = p->vshape[g->naxis[j]];
        astr[j] = p->vstrides[g->naxis[j]] * (int64_t)isz;
        rstr[j] = r->strides[g->rpos_n[j]] * (int64_t)isz;
    }
    for (int b = 0; b < g->nb; b++) rstr_b[b] = r->strides[g->rpos_b[b]] * (int64_t)isz;
    char *abase = (char *)a->storage->data + p->voffset * (int64_t)isz;
    char *rbase = tl_tensor_data(r);
    /* a lazy `a` is materialized block by block: w[[5]] of a big one computes one chunk */
    bool lazy = a->storage->kind == TL_STORAGE_LAZY;
    int64_t blo = 0, bhi = (int64_t)isz;   /* bytes a block spans, from its first element */
    for (int j = 0; j < g->nn; j++) {
        int64_t span = (shape[j] - 1) * astr[j];
        if (span < 0) blo += span;
        else bhi += span;
    }
    int64_t roff = 0;
    for (int64_t q = 0; q < g->bsize; q++) {
        if ((q & 0xfff) == 0xfff && tl_check_interrupt() < 0) return -1;
        char *ap = abase + advoff[q] * (int64_t)isz, *rp = rbase + roff;
        if (lazy) tl_storage_materialize(a->storage, ap - (char *)a->storage->data + blo, ap - (char *)a->storage->data + bhi);
        if (scatter) copy_block(ap, astr, rp, rstr, g->nn, shape, isz);
        else copy_block(rp, rstr, ap, astr, g->nn, shape, isz);
        for (int d = g->nb - 1; d >= 0; d--) {
            roff += rstr_b[d];
            if (++bidx[d] < g->bshape[d]) break;
            roff -= rstr_b[d] * g->bshape[d];
            bidx[d] = 0;
        }
    }
    return 0;
}

/* Parses items and, for advanced indexing, the geometry and offsets. */
static int prepare(index_plan *p, adv_geometry *g, int64_t **advoff, const tl_tensor *a, int n,
                   const tl_index_item *items)
{
    *advoff = NULL;
    if (build_plan(p, a, n, items) < 0 || build_view(p, a) < 0) return -1;
    bool arrays = false;
    for (int k = 0; k < p->nparts; k++) arrays |= p->parts[k].kind == P_ADV;
    if (!arrays) return 0;
    if (plan_geometry(p, g) < 0 || !(*advoff = advanced_offsets(p, g))) return -1;
    return 1;
}

/* Appends one axis (dim, stride) to a view's geometry; -1 past TL_MAXDIM (build_view's error). */
static int basic_axis(int *vndim, int64_t *vshape, int64_t *vstrides, int64_t dim, int64_t stride)
{
    if (*vndim == TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: indexing gives more than %d", TL_MAXDIM);
        return -1;
    }
    vshape[*vndim] = dim;
    vstrides[*vndim] = stride;
    (*vndim)++;
    return 0;
}

/* a[items] when every item is basic (integers, slices, none, ...): the view's geometry
   computed straight from the items, with build_plan's and build_view's checks in their
   order and their messages, but no plan (a[:, 3] in a loop is a header and nothing else). */
static tl_tensor *basic_view(const tl_tensor *a, int n, const tl_index_item *items)
{
    int used = 0, ellipses = 0;
    for (int k = 0; k < n; k++) {
        if (items[k].kind == TL_IDX_ELLIPSIS && ++ellipses > 1) {
            tl_seterr(IndexError, "an index can only have a single ellipsis ('...')");
            return NULL;
        }
        used += item_width(&items[k]);
    }
    if (used > a->ndim) {
        tl_seterr(IndexError, "too many indices for tensor: tensor is %d-dimensional, but %d were indexed", a->ndim, used);
        return NULL;
    }
    int vndim = 0, axis = 0;
    int64_t vshape[TL_MAXDIM], vstrides[TL_MAXDIM], voffset = a->offset;
    for (int k = 0; k <= n; k++) {
        const tl_index_item *it = &items[k < n ? k : 0];
        /* whole axes: an ellipsis's, or (k == n) the unindexed trailing ones */
        int whole = k == n ? a->ndim - axis : it->kind == TL_IDX_ELLIPSIS ? a->ndim - used : 0;
        for (int e = 0; e < whole; e++, axis++)
            if (basic_axis(&vndim, vshape, vstrides, a->shape[axis], a->strides[axis]) < 0) return NULL;
        if (k == n || it->kind == TL_IDX_ELLIPSIS) continue;
        if (it->kind == TL_IDX_NEWAXIS) {
            if (basic_axis(&vndim, vshape, vstrides, 1, 0) < 0) return NULL;
        } else if (it->kind == TL_IDX_INT) {
            int64_t j;
            if (check_index(it->i, axis, a->shape[axis], &j) < 0) return NULL;
            voffset += j * a->strides[axis++];
        } else {
            int64_t start = it->start, stop = it->stop, step = it->step, stride = a->strides[axis];
            int64_t len = tl_slice_indices(a->shape[axis++], &start, &stop, &step, it->has_start, it->has_stop);
            if (len < 0) return NULL;
            if (len > 0) voffset += start * stride;
            int64_t stepped;
            if (!__builtin_mul_overflow(stride, step, &stepped)) stride = stepped;
            else if (len > 1) {
                tl_seterr(ValueError, "slice step %lld overflows the stride", (long long)step);
                return NULL;
            }
            if (basic_axis(&vndim, vshape, vstrides, len, stride) < 0) return NULL;
        }
    }
    tl_tensor *v = tl_tensor_view_of(a->storage, a->dtype, vndim, vshape, vstrides, voffset);
    if (v) v->readonly = v->readonly || a->readonly;
    return v;
}

/* a[items] for at most a->ndim integer and slice items (x[:, 3], x[i], x[1:3]) selecting at
   least one element: each element of the view is one of a's, so its header needs no bounds
   check (tl_tensor_subview). False, nothing done, for any other index or an empty result,
   an out-of-range integer or a zero step: basic_view makes those (or reports them). */
static bool simple_view(const tl_tensor *a, int n, const tl_index_item *items, tl_tensor **out)
{
    if (n > a->ndim) return false;
    int64_t vshape[TL_MAXDIM], vstrides[TL_MAXDIM], voffset = a->offset;
    int vndim = 0;
    for (int k = 0; k < n; k++) {
        const tl_index_item *it = &items[k];
        int64_t dim = a->shape[k], stride = a->strides[k];
        if (it->kind == TL_IDX_INT) {
            int64_t j = it->i < 0 ? it->i + dim : it->i;
            if (j < 0 || j >= dim) return false;
            voffset += j * stride;
            continue;
        }
        if (it->kind != TL_IDX_SLICE) return false;
        int64_t len = dim, start = 0, stop, step = it->step;
        if (it->has_start || it->has_stop || step != 1) {   /* `:` needs no clamping */
            if (step == 0) return false;
            start = it->start;
            stop = it->stop;
            len = tl_slice_indices(dim, &start, &stop, &step, it->has_start, it->has_stop);
            if (__builtin_mul_overflow(stride, step, &stride)) return false;
        }
        if (len <= 0) return false;
        voffset += start * a->strides[k];
        vshape[vndim] = len;
        vstrides[vndim++] = stride;
    }
    for (int k = n; k < a->ndim; k++) {
        if (a->shape[k] == 0) return false;
        vshape[vndim] = a->shape[k];
        vstrides[vndim++] = a->strides[k];
    }
    *out = tl_tensor_subview(a, vndim, vshape, vstrides, voffset);
    return true;
}

tl_tensor *tl_index_get(const tl_tensor *a, int n, const tl_index_item *items)
{
    tl_tensor *view;
    if (simple_view(a, n, items, &view)) return view;   /* the common case, without a second call */
    return tl_index_get_to(a, n, items, NULL);
}

tl_tensor *tl_index_get_to(const tl_tensor *a, int n, const tl_index_item *items, tl_tensor *into)
{
    tl_tensor *view;
    if (simple_view(a, n, items, &view)) return view;
    bool basic = n <= 2 * TL_MAXDIM;   /* more items than that: the plan reports "too many indices" */
    for (int k = 0; k < n && basic; k++) basic = items[k].kind != TL_IDX_TENSOR;
    if (basic) return basic_view(a, n, items);
    index_plan *p = malloc(sizeof *p);
    adv_geometry g;
    int64_t *advoff;
    tl_tensor *out = NULL;
    if (!p) {
        tl_seterr(MemoryError, "out of memory");
        return NULL;
    }
    int kind = prepare(p, &g, &advoff, a, n, items);
    if (kind == 0) {
        out = view_from_plan(p, a);
        if (out && p->advanced) {   /* a 0-d integer tensor index: numpy returns a copy */
            tl_tensor *c = tl_copy_to(out, into);
            tl_tensor_release(out);
            out = c;
        }
    } else if (kind == 1) {
        out = tl_tensor_result(into, a->dtype, g.rndim, g.rshape);
        if (out && transfer(p, &g, advoff, a, out, false) < 0) {
            tl_tensor_release(out);
            out = NULL;
        }
    }
    free(advoff);
    plan_free(p);
    free(p);
    return out;
}

/* The error for a value whose shape does not fit the elements it is assigned to. */
static void assign_mismatch(const tl_tensor *value, int ndim, const int64_t *shape)
{
    tl_seterr_shapes("cannot assign a value of shape %s to a selection of shape %s", value->ndim, value->shape, ndim, shape);
}

/* Whether value broadcasts to (ndim, shape) as an assignment reads it: its leading axes beyond
   ndim of length 1, each other axis equal or 1. */
static bool value_fits(const tl_tensor *value, int ndim, const int64_t *shape)
{
    int lead = value->ndim - ndim;
    for (int k = 0; k < value->ndim; k++) {
        int64_t d = value->shape[k];
        if (k < lead ? d != 1 : d != 1 && d != shape[k - lead]) return false;
    }
    return true;
}

/* value cast to dtype and broadcast to (ndim, shape), never aliasing `a`. */
static tl_tensor *value_for(const tl_tensor *a, const tl_tensor *value, int ndim, const int64_t *shape)
{
    tl_tensor *v;
    const tl_tensor *given = value;
    /* numpy drops the value's leading length-1 axes beyond the result's (a[[0, 1]] = [[1, 2]]) */
    int lead = 0;
    while (value->ndim - lead > ndim && value->shape[lead] == 1) lead++;
    tl_tensor *trimmed = lead ? tl_view_reshape(value, value->ndim - lead, value->shape + lead, NULL) : NULL;
    if (lead && !trimmed) return NULL;
    if (trimmed) value = trimmed;
    if (value->dtype != a->dtype) v = tl_cast(value, a->dtype);
    else if (tl_shares_memory(value, a)) v = tl_copy(value);
    else {
        tl_tensor_retain((tl_tensor *)value);
        v = (tl_tensor *)value;
    }
    tl_tensor *b = v ? tl_view_broadcast_to(v, ndim, shape) : NULL;
    if (v && !b) assign_mismatch(given, ndim, shape);
    if (v) tl_tensor_release(v);
    if (trimmed) tl_tensor_release(trimmed);
    return b;
}

int tl_index_set(tl_tensor *a, int n, const tl_index_item *items, const tl_tensor *value)
{
    if (a->readonly) {
        tl_seterr(ValueError, "assignment destination is read-only");
        return -1;
    }
    if (tl_is_complex(value->dtype) && !tl_is_complex(a->dtype)) {   /* numpy warns (ComplexWarning) */
        tl_seterr(TypeError, "cannot store complex values (%s) in a tensor of %s: the imaginary part would be lost (take real() first)",
                  tl_dtype_name(value->dtype), tl_dtype_name(a->dtype));
        return -1;
    }
    index_plan *p = malloc(sizeof *p);
    adv_geometry g;
    int64_t *advoff;
    int rc = -1;
    if (!p) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    int kind = prepare(p, &g, &advoff, a, n, items);
    tl_interrupts_hold();   /* the write below finishes whole once it starts */
    if (kind == 0) {
        tl_tensor *v = view_from_plan(p, a);
        if (v && !value_fits(value, v->ndim, v->shape)) assign_mismatch(value, v->ndim, v->shape);
        else if (v) rc = tl_assign(v, value);
        if (v) tl_tensor_release(v);
    } else if (kind == 1) {
        tl_tensor *src = value_for(a, value, g.rndim, g.rshape);
        if (src) {
            rc = transfer(p, &g, advoff, a, src, true);
            tl_tensor_release(src);
        }
    }
    tl_interrupts_release();
    free(advoff);
    plan_free(p);
    free(p);
    return rc;
}
