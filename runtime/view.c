/* view.c — zero-copy views: shape, stride and offset arithmetic, and exact overlap tests */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor.h"

/* A new header over t's storage with the given geometry; it inherits t's
   read-only flag (a view of a broadcast view is still aliased). */
static tl_tensor *derive(const tl_tensor *t, tl_dtype dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, int64_t offset)
{
    tl_tensor *v = tl_tensor_view_of(t->storage, dtype, ndim, shape, strides, offset);
    if (v) v->readonly = v->readonly || t->readonly;
    return v;
}

static int check_axis(const tl_tensor *t, int axis, int limit)
{
    if (axis < 0 || axis >= limit) {
        tl_seterr(IndexError, "axis %d is out of bounds for tensor of dimension %d", axis, t->ndim);
        return -1;
    }
    return 0;
}

static int check_room(int ndim)
{
    if (ndim > TL_MAXDIM) {
        tl_seterr(ShapeError, "too many dimensions: %d (at most %d)", ndim, TL_MAXDIM);
        return -1;
    }
    return 0;
}

/* Removes axis `axis` from shape/strides copies (n entries → n-1). */
static void drop_axis(int n, int64_t *shape, int64_t *strides, int axis)
{
    memmove(shape + axis, shape + axis + 1, (size_t)(n - axis - 1) * sizeof *shape);
    memmove(strides + axis, strides + axis + 1, (size_t)(n - axis - 1) * sizeof *strides);
}

/* Inserts (dim, stride) before axis `axis` (n entries → n+1). */
static void insert_axis(int n, int64_t *shape, int64_t *strides, int axis, int64_t dim, int64_t stride)
{
    memmove(shape + axis + 1, shape + axis, (size_t)(n - axis) * sizeof *shape);
    memmove(strides + axis + 1, strides + axis, (size_t)(n - axis) * sizeof *strides);
    shape[axis] = dim;
    strides[axis] = stride;
}

tl_tensor *tl_view_index(const tl_tensor *t, int axis, int64_t i)
{
    if (check_axis(t, axis, t->ndim) < 0) return NULL;
    int64_t n = t->shape[axis], j = i < 0 ? i + n : i;
    if (j < 0 || j >= n) {
        tl_seterr(IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis, (long long)n);
        return NULL;
    }
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    int64_t offset = t->offset + j * t->strides[axis];
    drop_axis(t->ndim, shape, strides, axis);
    return derive(t, t->dtype, t->ndim - 1, shape, strides, offset);
}

/* Clamps one slice bound the way CPython's PySlice_AdjustIndices does. */
static int64_t clamp_bound(int64_t v, int64_t n, int64_t step)
{
    if (v < 0) {
        v += n;
        if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
        v = step < 0 ? n - 1 : n;
    }
    return v;
}

int64_t tl_slice_indices(int64_t n, int64_t *start, int64_t *stop, int64_t *step, bool has_start, bool has_stop)
{
    if (*step == 0) {
        tl_seterr(ValueError, "slice step cannot be zero");
        return -1;
    }
    if (*step < -INT64_MAX) *step = -INT64_MAX;   /* so -step cannot overflow */
    int64_t st = *step;
    *start = has_start ? clamp_bound(*start, n, st) : (st < 0 ? n - 1 : 0);
    *stop = has_stop ? clamp_bound(*stop, n, st) : (st < 0 ? -1 : n);
    int64_t len = st < 0 ? (*stop < *start ? (*start - *stop - 1) / -st + 1 : 0)
                         : (*start < *stop ? (*stop - *start - 1) / st + 1 : 0);
    if (len == 0) *step = 1;   /* numpy: an empty slice keeps the axis's stride */
    return len;
}

tl_tensor *tl_view_slice(const tl_tensor *t, int axis, int64_t start, int64_t stop, int64_t step,
                         bool has_start, bool has_stop)
{
    if (check_axis(t, axis, t->ndim) < 0) return NULL;
    int64_t len = tl_slice_indices(t->shape[axis], &start, &stop, &step, has_start, has_stop);
    if (len < 0) return NULL;
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    int64_t offset = t->offset, stride = t->strides[axis];
    /* An empty result keeps the parent's offset: start may sit one past the end. */
    if (len > 0) offset += start * stride;
    /* For length <= 1 the stride is never used to address anything; keep it
       finite instead of overflowing on huge steps. */
    int64_t newstride;
    if (__builtin_mul_overflow(stride, step, &newstride)) {
        if (len > 1) {
            tl_seterr(ValueError, "slice step %lld overflows the stride", (long long)step);
            return NULL;
        }
        newstride = stride;
    }
    shape[axis] = len;
    strides[axis] = newstride;
    return derive(t, t->dtype, t->ndim, shape, strides, offset);
}

tl_tensor *tl_view_newaxis(const tl_tensor *t, int axis)
{
    if (check_axis(t, axis, t->ndim + 1) < 0 || check_room(t->ndim + 1) < 0) return NULL;
    int64_t shape[TL_MAXDIM + 1], strides[TL_MAXDIM + 1];
    memcpy(shape, t->shape, sizeof t->shape);
    memcpy(strides, t->strides, sizeof t->strides);
    insert_axis(t->ndim, shape, strides, axis, 1, 0);   /* numpy gives None axes stride 0 */
    return derive(t, t->dtype, t->ndim + 1, shape, strides, t->offset);
}

tl_tensor *tl_view_permute(const tl_tensor *t, const int *perm)
{
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM];
    bool seen[TL_MAXDIM] = { false };
    for (int k = 0; k < t->ndim; k++) {
        int ax;
        if (tl_normalize_axis(perm[k], t->ndim, &ax) < 0) return NULL;
        if (seen[ax]) {
            tl_seterr(ValueError, "repeated axis in permute");
            return NULL;
        }
        seen[ax] = true;
        shape[k] = t->shape[ax];
        strides[k] = t->strides[ax];
    }
    return derive(t, t->dtype, t->ndim, shape, strides, t->offset);
}

tl_tensor *tl_view_transpose(const tl_tensor *t)
{
    int perm[TL_MAXDIM];
    for (int k = 0; k < t->ndim; k++) perm[k] = t->ndim - 1 - k;
    return tl_view_permute(t, perm);
}

tl_tensor *tl_view_swapaxes(const tl_tensor *t, int a, int b)
{
    int perm[TL_MAXDIM];
    if (tl_normalize_axis(a, t->ndim, &a) < 0 || tl_normalize_axis(b, t->ndim, &b) < 0) return NULL;
    for (int k = 0; k < t->ndim; k++) perm[k] = k;
    perm[a] = b;
    perm[b] = a;
    return tl_view_permute(t, perm);
}

/* Resolves a requested shape (one -1 allowed) against t's elements into out. */
static int resolve_shape(const tl_tensor *t, int ndim, const int64_t *req, int64_t *out)
{
    int64_t size = tl_tensor_size(t);
    int unknown = -1;
    int64_t known = 1;
    bool overflow = false;
    if (ndim < 0 || check_room(ndim) < 0) return -1;
    for (int k = 0; k < ndim; k++) {
        if (req[k] == -1) {
            if (unknown >= 0) {
                tl_seterr(ShapeError, "can only specify one unknown dimension");
                return -1;
            }
            unknown = k;
        } else if (req[k] < 0) {
            tl_seterr(ShapeError, "negative dimensions are not allowed in reshape (only one -1)");
            return -1;
        } else if (__builtin_mul_overflow(known, req[k], &known)) {
            overflow = true;
        }
        out[k] = req[k];
    }
    bool ok = !overflow;
    if (ok && unknown >= 0) {
        ok = known != 0 && size % known == 0;
        if (ok) out[unknown] = size / known;
    } else if (ok) {
        ok = known == size;
    }
    if (!ok) {
        char from[TL_MAXDIM * 24 + 8], to[TL_MAXDIM * 24 + 8], why[64] = "";
        if (overflow) snprintf(why, sizeof why, ": its size overflows");
        else if (unknown >= 0) snprintf(why, sizeof why, ": %lld is not a multiple of %lld", (long long)size, (long long)known);
        else snprintf(why, sizeof why, " (size %lld)", (long long)known);
        tl_seterr(ShapeError, "cannot reshape tensor of shape %s (size %lld) into shape %s%s", tl_shape_str(t->ndim, t->shape, from, sizeof from),
                  (long long)size, tl_shape_str(ndim, req, to, sizeof to), why);
        return -1;
    }
    return 0;
}

/* numpy's _attempt_nocopy_reshape for C order: fills newstrides and returns
   true when the old axes group into runs that are contiguous among themselves. */
static bool nocopy_strides(const tl_tensor *t, int newnd, const int64_t *newdims, int64_t *newstrides)
{
    int64_t olddims[TL_MAXDIM], oldstrides[TL_MAXDIM];
    int oldnd = 0;
    for (int k = 0; k < t->ndim; k++) {
        if (t->shape[k] != 1) {   /* size-1 axes' strides do not matter */
            olddims[oldnd] = t->shape[k];
            oldstrides[oldnd] = t->strides[k];
            oldnd++;
        }
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        int64_t np = newdims[ni], op = olddims[oi];
        while (np != op) {
            if (np < op) np *= newdims[nj++];   /* trailing 1s are handled below */
            else op *= olddims[oj++];
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return false;
        newstrides[nj - 1] = oldstrides[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
        ni = nj++;
        oi = oj++;
    }
    int64_t last = ni >= 1 ? newstrides[ni - 1] : 1;
    for (int nk = ni; nk < newnd; nk++) newstrides[nk] = last;
    return true;
}

tl_tensor *tl_view_reshape(const tl_tensor *t, int ndim, const int64_t *shape, bool *needs_copy)
{
    int64_t dims[TL_MAXDIM], strides[TL_MAXDIM];
    if (needs_copy) *needs_copy = false;
    if (resolve_shape(t, ndim, shape, dims) < 0) return NULL;
    if (ndim == t->ndim && memcmp(dims, t->shape, (size_t)ndim * sizeof *dims) == 0)
        return derive(t, t->dtype, ndim, t->shape, t->strides, t->offset);
    if (tl_is_contiguous(t)) {
        tl_contiguous_strides(ndim, dims, strides);
    } else if (!nocopy_strides(t, ndim, dims, strides)) {
        if (needs_copy) *needs_copy = true;
        tl_seterr(ShapeError, "cannot reshape this tensor as a view: its strides need a copy (use reshape)");
        return NULL;
    }
    return derive(t, t->dtype, ndim, dims, strides, t->offset);
}

tl_tensor *tl_reshape(const tl_tensor *t, int ndim, const int64_t *shape) { return tl_reshape_to(t, ndim, shape, NULL); }

tl_tensor *tl_reshape_to(const tl_tensor *t, int ndim, const int64_t *shape, tl_tensor *into)
{
    bool needs_copy = false;
    tl_tensor *v = tl_view_reshape(t, ndim, shape, &needs_copy);
    if (v || !needs_copy) return v;
    tl_tensor *c = tl_copy_to(t, into);
    if (!c) return NULL;
    v = tl_view_reshape(c, ndim, shape, NULL);
    tl_tensor_release(c);
    return v;
}

tl_tensor *tl_view_squeeze(const tl_tensor *t, int axis)
{
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM];
    int n = 0;
    if (axis != TL_AXIS_NONE) {
        if (tl_normalize_axis(axis, t->ndim, &axis) < 0) return NULL;
        if (t->shape[axis] != 1) {
            tl_seterr(ShapeError, "cannot select an axis to squeeze out which has size not equal to one");
            return NULL;
        }
    }
    for (int k = 0; k < t->ndim; k++) {
        bool drop = axis == TL_AXIS_NONE ? t->shape[k] == 1 : k == axis;
        if (drop) continue;
        shape[n] = t->shape[k];
        strides[n] = t->strides[k];
        n++;
    }
    return derive(t, t->dtype, n, shape, strides, t->offset);
}

/* numpy's expand_dims is a reshape, so the new axis's stride follows reshape's rules. */
tl_tensor *tl_view_unsqueeze(const tl_tensor *t, int axis)
{
    if (check_room(t->ndim + 1) < 0 || tl_normalize_axis(axis, t->ndim + 1, &axis) < 0) return NULL;
    int64_t shape[TL_MAXDIM + 1], strides[TL_MAXDIM + 1];
    memcpy(shape, t->shape, sizeof t->shape);
    memcpy(strides, t->strides, sizeof t->strides);
    insert_axis(t->ndim, shape, strides, axis, 1, 0);
    return tl_view_reshape(t, t->ndim + 1, shape, NULL);
}

tl_tensor *tl_view_broadcast_to(const tl_tensor *t, int ndim, const int64_t *shape)
{
    int64_t strides[TL_MAXDIM];
    if (check_room(ndim) < 0) return NULL;
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 0) {
            tl_seterr(ShapeError, "all elements of broadcast shape must be non-negative");
            return NULL;
        }
    }
    int lead = ndim - t->ndim;
    bool ok = lead >= 0;
    for (int k = 0; ok && k < ndim; k++) {
        if (k < lead) {
            strides[k] = 0;
        } else {
            int64_t d = t->shape[k - lead];
            if (d == 1) strides[k] = 0;   /* numpy zeroes size-1 axes' strides too */
            else if (d == shape[k]) strides[k] = t->strides[k - lead];
            else ok = false;
        }
    }
    if (!ok) {
        char a[TL_MAXDIM * 24 + 8], b[TL_MAXDIM * 24 + 8];
        tl_seterr(ShapeError, "cannot broadcast tensor of shape %s to shape %s",
                  tl_shape_str(t->ndim, t->shape, a, sizeof a), tl_shape_str(ndim, shape, b, sizeof b));
        return NULL;
    }
    tl_tensor *v = derive(t, t->dtype, ndim, shape, strides, t->offset);
    if (v) v->readonly = true;   /* stride-0 elements alias: writes would be ambiguous */
    return v;
}

tl_tensor *tl_view_flip(const tl_tensor *t, int axis)
{
    if (tl_normalize_axis(axis, t->ndim, &axis) < 0) return NULL;
    int64_t strides[TL_MAXDIM];
    memcpy(strides, t->strides, sizeof strides);
    int64_t offset = t->offset;
    if (t->shape[axis] > 0) offset += (t->shape[axis] - 1) * t->strides[axis];
    strides[axis] = -strides[axis];
    return derive(t, t->dtype, t->ndim, t->shape, strides, offset);
}

/* numpy's PyArray_Diagonal: drops axis1 and axis2, appends the diagonal as the last axis. */
tl_tensor *tl_view_diagonal(const tl_tensor *t, int64_t offset, int axis1, int axis2)
{
    if (t->ndim < 2) {
        tl_seterr(ShapeError, "diagonal requires a tensor of at least two dimensions");
        return NULL;
    }
    if (tl_normalize_axis(axis1, t->ndim, &axis1) < 0 || tl_normalize_axis(axis2, t->ndim, &axis2) < 0)
        return NULL;
    if (axis1 == axis2) {
        tl_seterr(ValueError, "axis1 and axis2 cannot be the same");
        return NULL;
    }
    int64_t dim1 = t->shape[axis1], dim2 = t->shape[axis2];
    int64_t s1 = t->strides[axis1], s2 = t->strides[axis2];
    int64_t start = t->offset, len;
    if (offset >= 0) {
        len = offset >= dim2 ? 0 : (dim2 - offset < dim1 ? dim2 - offset : dim1);
        if (len > 0) start += offset * s2;
    } else {
        len = offset <= -dim1 ? 0 : (dim1 + offset < dim2 ? dim1 + offset : dim2);
        if (len > 0) start += -offset * s1;
    }
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM];
    int n = 0;
    for (int k = 0; k < t->ndim; k++) {
        if (k == axis1 || k == axis2) continue;
        shape[n] = t->shape[k];
        strides[n] = t->strides[k];
        n++;
    }
    shape[n] = len;
    strides[n] = s1 + s2;
    return derive(t, t->dtype, n + 1, shape, strides, start);
}

/* Real or imaginary part of a complex tensor as a view of its component dtype. */
static tl_tensor *complex_part(const tl_tensor *t, int part)
{
    tl_dtype dt = tl_dtype_real(t->dtype);
    int64_t strides[TL_MAXDIM];
    for (int k = 0; k < t->ndim; k++) strides[k] = t->strides[k] * 2;
    return derive(t, dt, t->ndim, t->shape, strides, t->offset * 2 + part);
}

tl_tensor *tl_view_real(const tl_tensor *t)
{
    if (!tl_is_complex(t->dtype)) {
        tl_tensor_retain((tl_tensor *)t);
        return (tl_tensor *)t;
    }
    return complex_part(t, 0);
}

tl_tensor *tl_view_imag(const tl_tensor *t)
{
    if (!tl_is_complex(t->dtype)) {
        tl_seterr(TypeError, "imag view needs a complex tensor, got %s", tl_dtype_name(t->dtype));
        return NULL;
    }
    return complex_part(t, 1);
}

/* Converts a count of `from`-byte items to `to`-byte items; false when inexact. */
static bool rescale(int64_t v, int64_t from, int64_t to, int64_t *out)
{
    int64_t bytes;
    if (__builtin_mul_overflow(v, from, &bytes) || bytes % to != 0) return false;
    *out = bytes / to;
    return true;
}

/* Bytes as bool: every nonzero byte becomes 1, as numpy reads a bool byte. */
void tl_bool_normalize(uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (bytes[i] > 1) bytes[i] = 1;
}

/* A copy of view v's bytes as dtype (bool: normalized), for bitcasts to or
   from bool: a view would let either side write bytes other than 0 or 1 into
   a bool, which every kernel may assume it never holds. */
static tl_tensor *bitcast_copy(tl_tensor *v, tl_dtype dtype)
{
    if (!v) return NULL;
    tl_tensor *c = tl_copy(v);   /* a fresh storage: v may alias anything */
    tl_tensor_release(v);
    if (!c || dtype != TL_BOOL) return c;
    tl_bool_normalize(tl_tensor_data(c), (size_t)tl_tensor_size(c));
    return c;
}

tl_tensor *tl_view_bitcast(const tl_tensor *t, tl_dtype dtype)
{
    if ((t->dtype == TL_BOOL) != (dtype == TL_BOOL)) {
        /* reading a bool's bytes through u8 (same size) is always defined */
        tl_tensor *bytes = t->dtype == TL_BOOL ? derive(t, TL_U8, t->ndim, t->shape, t->strides, t->offset) : NULL;
        tl_tensor *v = tl_view_bitcast(bytes ? bytes : t, dtype == TL_BOOL ? TL_U8 : dtype);
        if (bytes) tl_tensor_release(bytes);
        tl_tensor *r = bitcast_copy(v, dtype);
        if (r && dtype == TL_BOOL) r->dtype = TL_BOOL;
        return r;
    }

    int64_t from = (int64_t)tl_dtype_size(t->dtype), to = (int64_t)tl_dtype_size(dtype);
    if (from == to) return derive(t, dtype, t->ndim, t->shape, t->strides, t->offset);
    if (t->ndim == 0) {
        tl_seterr(ValueError, "cannot bitcast a 0-d tensor from %s to %s: item sizes differ",
                  tl_dtype_name(t->dtype), tl_dtype_name(dtype));
        return NULL;
    }
    int last = t->ndim - 1;
    if (t->shape[last] != 1 && t->strides[last] != 1) {
        tl_seterr(ValueError, "cannot bitcast from %s to %s: the last axis must be contiguous",
                  tl_dtype_name(t->dtype), tl_dtype_name(dtype));
        return NULL;
    }
    int64_t shape[TL_MAXDIM], strides[TL_MAXDIM], offset;
    memcpy(shape, t->shape, sizeof shape);
    if (!rescale(t->shape[last], from, to, &shape[last])) {
        tl_seterr(ValueError, "cannot bitcast from %s to %s: the last axis holds %lld bytes, not a multiple of %lld",
                  tl_dtype_name(t->dtype), tl_dtype_name(dtype), (long long)(t->shape[last] * from),
                  (long long)to);
        return NULL;
    }
    bool ok = rescale(t->offset, from, to, &offset);
    for (int k = 0; ok && k < last; k++) ok = rescale(t->strides[k], from, to, &strides[k]);
    if (!ok) {
        tl_seterr(ValueError, "cannot bitcast from %s to %s: byte offset and strides must be multiples of %lld",
                  tl_dtype_name(t->dtype), tl_dtype_name(dtype), (long long)to);
        return NULL;
    }
    strides[last] = 1;
    return derive(t, dtype, t->ndim, shape, strides, offset);
}

/* ---- exact overlap ---------------------------------------------------------
   A tensor's elements are the byte ranges [addr, addr + itemsize) with
   addr = lowest + Σ stride_k·x_k, 0 <= x_k < count_k, once strides are made
   positive and sorted. One tensor (A) is walked outer axis first; every
   subtree is pruned when (1) its address hull cannot meet the other tensor
   (B), or (2) no difference of addresses permitted by the strides' gcd falls
   inside the overlap window. When B is "nested" (each stride exceeds the
   extent of the axes inside it, as for any slice/permutation of a
   contiguous tensor) the largest B address <= x is found greedily in
   O(ndim), so a subtree test is exact. Interleaved views are rejected at the
   root by the gcd test; disjoint blocks by the hull test. The walk is exact
   for any strides; its worst case is linear in A's size. */

typedef struct mem_layout {
    int64_t lowest;                 /* lowest byte address of any element */
    int64_t itemsize;
    int64_t size;                   /* number of elements */
    int n;                          /* axes kept: count > 1, stride != 0 */
    int64_t stride[TL_MAXDIM];      /* bytes, > 0, descending */
    int64_t count[TL_MAXDIM];
    int64_t extent[TL_MAXDIM + 1];  /* Σ_{j>=k} stride_j·(count_j-1); extent[n] = 0 */
    int64_t gcd[TL_MAXDIM + 1];     /* gcd of stride_j for j >= k; gcd[n] = 0 */
    bool nested;
} mem_layout;

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Floor division for any signs (b > 0). */
static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static void layout_of(const tl_tensor *t, mem_layout *L)
{
    int64_t isz = (int64_t)tl_dtype_size(t->dtype);
    L->itemsize = isz;
    L->size = tl_tensor_size(t);
    L->lowest = (int64_t)(intptr_t)t->storage->data + t->offset * isz;
    L->n = 0;
    for (int k = 0; k < t->ndim; k++) {
        int64_t c = t->shape[k], s = t->strides[k] * isz;
        if (c <= 1 || s == 0) continue;
        if (s < 0) {
            L->lowest += s * (c - 1);
            s = -s;
        }
        int j = L->n++;   /* insertion sort, descending stride */
        while (j > 0 && L->stride[j - 1] < s) {
            L->stride[j] = L->stride[j - 1];
            L->count[j] = L->count[j - 1];
            j--;
        }
        L->stride[j] = s;
        L->count[j] = c;
    }
    /* Merge an outer axis into the inner one when they tile contiguously. */
    for (int k = L->n - 2; k >= 0; k--) {
        if (L->stride[k] == L->stride[k + 1] * L->count[k + 1]) {
            L->count[k] *= L->count[k + 1];
            L->stride[k] = L->stride[k + 1];
            memmove(L->stride + k + 1, L->stride + k + 2, (size_t)(L->n - k - 2) * sizeof *L->stride);
            memmove(L->count + k + 1, L->count + k + 2, (size_t)(L->n - k - 2) * sizeof *L->count);
            L->n--;
        }
    }
    L->extent[L->n] = 0;
    L->gcd[L->n] = 0;
    L->nested = true;
    for (int k = L->n - 1; k >= 0; k--) {
        if (L->stride[k] <= L->extent[k + 1]) L->nested = false;
        L->extent[k] = L->extent[k + 1] + L->stride[k] * (L->count[k] - 1);
        L->gcd[k] = gcd64(L->stride[k], L->gcd[k + 1]);
    }
}

typedef struct overlap_search {
    const mem_layout *a, *b;
    int64_t work;
    bool interrupted;
} overlap_search;

/* Counts a search step; true when the user asked to stop (checked every 64k steps). */
static bool search_interrupted(overlap_search *s)
{
    if ((++s->work & 0xffff) == 0 && tl_check_interrupt() < 0) s->interrupted = true;
    return s->interrupted;
}

/* Does some value base + m·g (any integer m; g = 0: just base) lie in [lo, hi]? */
static bool congruent_in(int64_t base, int64_t g, int64_t lo, int64_t hi)
{
    if (lo > hi) return false;
    if (g == 0) return base >= lo && base <= hi;
    int64_t first = lo + ((base - lo) % g + g) % g;   /* smallest >= lo that is ≡ base */
    return first <= hi;
}

/* Nested B: is some B address in [lo, hi]? Greedy largest address <= hi. */
static bool nested_hits(const mem_layout *b, int64_t lo, int64_t hi)
{
    if (hi < b->lowest || lo > b->lowest + b->extent[0]) return false;
    int64_t rest = hi - b->lowest, got = 0;
    for (int k = 0; k < b->n; k++) {
        int64_t y = rest / b->stride[k];
        if (y > b->count[k] - 1) y = b->count[k] - 1;
        got += y * b->stride[k];
        rest -= y * b->stride[k];
    }
    return b->lowest + got >= lo;
}

/* Any B: is some address of B's subtree (axes >= k, at base) in [lo, hi]? */
static bool general_hits(overlap_search *s, int k, int64_t base, int64_t lo, int64_t hi)
{
    const mem_layout *b = s->b;
    if (search_interrupted(s)) return true;
    if (hi < base || lo > base + b->extent[k]) return false;
    if (!congruent_in(base, b->gcd[k], lo, hi)) return false;
    if (k == b->n) return true;
    int64_t st = b->stride[k];
    int64_t x0 = floordiv(lo - b->extent[k + 1] - base + st - 1, st);
    int64_t x1 = floordiv(hi - base, st);
    if (x0 < 0) x0 = 0;
    if (x1 > b->count[k] - 1) x1 = b->count[k] - 1;
    for (int64_t x = x0; x <= x1; x++)
        if (general_hits(s, k + 1, base + x * st, lo, hi)) return true;
    return false;
}

/* Does A's subtree (axes >= k, at base) share a byte with B? */
static bool subtree_hits(overlap_search *s, int k, int64_t base)
{
    const mem_layout *a = s->a, *b = s->b;
    if (search_interrupted(s)) return true;
    /* B addresses y overlap an A item at x when x - isb < y < x + isa. */
    int64_t lo = base - b->itemsize + 1, hi = base + a->extent[k] + a->itemsize - 1;
    if (hi < b->lowest || lo > b->lowest + b->extent[0]) return false;
    int64_t g = gcd64(a->gcd[k], b->gcd[0]);
    if (!congruent_in(base - b->lowest, g, -(a->itemsize - 1), b->itemsize - 1)) return false;
    if (b->nested && !nested_hits(b, lo, hi)) return false;
    if (k == a->n) return b->nested ? true : general_hits(s, 0, b->lowest, lo, hi);
    /* Only children whose hull reaches B's hull. */
    int64_t st = a->stride[k];
    int64_t x0 = floordiv(b->lowest - a->extent[k + 1] - a->itemsize + 1 - base + st - 1, st);
    int64_t x1 = floordiv(b->lowest + b->extent[0] + b->itemsize - 1 - base, st);
    if (x0 < 0) x0 = 0;
    if (x1 > a->count[k] - 1) x1 = a->count[k] - 1;
    for (int64_t x = x0; x <= x1; x++)
        if (subtree_hits(s, k + 1, base + x * st)) return true;
    return false;
}

/* Exact. If interrupted mid-search it answers true (the safe answer for
   callers deciding whether to copy) with the "interrupted" error set. */
bool tl_shares_memory(const tl_tensor *a, const tl_tensor *b)
{
    mem_layout la, lb;
    layout_of(a, &la);
    layout_of(b, &lb);
    if (la.size == 0 || lb.size == 0) return false;
    if (la.lowest + la.extent[0] + la.itemsize <= lb.lowest ||
        lb.lowest + lb.extent[0] + lb.itemsize <= la.lowest)
        return false;
    /* Walk the smaller; query the nested one when only one is nested. */
    bool swap = la.nested != lb.nested ? la.nested : la.size > lb.size;
    overlap_search s = { swap ? &lb : &la, swap ? &la : &lb, 0, false };
    return subtree_hits(&s, 0, s.a->lowest);
}
