/* kernels/reduce.c — reductions over any set of axes: dtype rules, the plan, threading, nan-reductions, cumsum/cumprod */
#include <math.h>
#include <stdlib.h>

#include "reduce_loops.h"

/* ---- names and dtype rules (redop_list.h, docs/language.md §7) ------------- */

enum { RD_RESULT_SUM, RD_RESULT_MEAN, RD_RESULT_REAL, RD_RESULT_SAME, RD_RESULT_I64, RD_RESULT_BOOL };
enum { RD_NOAXES_CAST, RD_NOAXES_ERROR };
enum { RD_NODTYPE, RD_DTYPE };
typedef struct redop_info { const char *what; uint8_t result, noaxes, dtype; } redop_info;
#define REDOP_INFO(arg, ENUM, NAME, WHAT, RESULT, NOAXES, DT, ...) \
    [ENUM] = { WHAT, RD_RESULT_##RESULT, RD_NOAXES_##NOAXES, RD_##DT },
static const redop_info redops[TL_NREDOPS] = { TL_REDOP_LIST(REDOP_INFO, ) };
#undef REDOP_INFO

const char *tl_redop_name(tl_redop op) { return (unsigned)op < TL_NREDOPS ? redops[op].what : "?"; }
bool tl_redop_allows_no_axes(tl_redop op) { return (unsigned)op < TL_NREDOPS && redops[op].noaxes == RD_NOAXES_CAST; }
bool tl_redop_takes_dtype(tl_redop op) { return (unsigned)op < TL_NREDOPS && redops[op].dtype == RD_DTYPE; }

tl_dtype tl_reduce_result_dtype(tl_redop op, tl_dtype in)
{
    switch (redops[op].result) {
    case RD_RESULT_SUM:
        if (tl_dtype_kind(in) == TL_KIND_UINT) return TL_U64;
        return tl_is_intlike(in) ? TL_I64 : in;
    case RD_RESULT_MEAN: return tl_is_intlike(in) ? TL_F64 : in;
    case RD_RESULT_REAL: return tl_is_intlike(in) ? TL_F64 : tl_dtype_real(in);
    case RD_RESULT_I64: return TL_I64;
    case RD_RESULT_BOOL: return TL_BOOL;
    default: return in;
    }
}

/* The dtype the kernels read: sums widen to 64-bit ints or f32; min/max
   compare in the widest type of the kind (exact, cast back after). */
static tl_dtype work_dtype(tl_redop op, tl_dtype in)
{
    if (op == TL_RANY || op == TL_RALL) return TL_BOOL;
    if (tl_dtype_kind(in) == TL_KIND_UINT || in == TL_BOOL) return TL_U64;
    if (tl_is_int(in)) return TL_I64;
    if (tl_is_half(in)) return TL_F32;
    if (in == TL_C64 && op != TL_RSUM && op != TL_RPROD) return TL_C128;
    return in;
}

/* Float dtype that mean/var/norm/logsumexp compute in. */
static tl_dtype float_work(tl_dtype in)
{
    if (tl_is_intlike(in)) return TL_F64;
    if (tl_is_half(in)) return TL_F32;
    return in;
}

/* ---- small tensor helpers ------------------------------------------------------ */

/* Replaces *t by a cast of it written into `into` when it fits (releasing the old one); false on failure. */
static bool recast_to(tl_tensor **t, tl_dtype dt, tl_tensor *into)
{
    if (!*t || (*t)->dtype == dt) return *t != NULL;
    tl_tensor *c = tl_cast_to(*t, dt, into);
    tl_tensor_release(*t);
    *t = c;
    return c != NULL;
}

/* Replaces *t by a cast of it (releasing the old one); false on failure. */
static bool recast(tl_tensor **t, tl_dtype dt) { return recast_to(t, dt, NULL); }

/* ---- the plan: tl_iter_runs over (output, input), the reduced axes as the run ---- */

/* Plans reducing x over the axes in mask into out (x's shape with 1 on the
   reduced axes). When the reduced axes do not merge into one strided run, x
   is copied with them innermost (in the order the planner chose). *src gets
   the tensor the plan reads (owned). Reduced axes are in memory order, or C
   order for argmin/argmax, whose index is the flat C index. */
static int plan_reduction(tl_iter_runs *r, tl_tensor *out, const tl_tensor *x, const bool *mask, bool c_order,
                          tl_tensor **src)
{
    const tl_tensor *ops[2] = { out, x };
    int rc = tl_iter_runs_init(r, 2, ops, x->ndim, x->shape, mask, c_order);
    if (rc <= 0) {
        if (rc == 0) tl_tensor_retain((tl_tensor *)x);
        *src = (tl_tensor *)x;
        return rc;
    }
    tl_tensor *v = tl_view_permute(x, r->perm), *o = tl_view_permute(out, r->perm);
    tl_tensor *c = v && o ? tl_copy(v) : NULL;
    bool inner[TL_MAXDIM];                  /* the reduced axes, now last */
    int nk = 0;
    for (int d = 0; d < x->ndim; d++) nk += !mask[d];
    for (int d = 0; d < x->ndim; d++) inner[d] = d >= nk;
    ops[0] = o;
    ops[1] = c;
    rc = c ? tl_iter_runs_init(r, 2, ops, c->ndim, c->shape, inner, c_order) : -1;
    if (v) tl_tensor_release(v);
    if (o) tl_tensor_release(o);
    if (rc != 0 && c) {
        if (rc > 0) tl_seterr(ValueError, "reduction: a copy's reduced axes do not merge");
        tl_tensor_release(c);
        c = NULL;
        rc = -1;
    }
    *src = c;
    return rc;
}

/* ---- strategy (a): one output from a long run, in fixed blocks ---------------- */

typedef struct single_ctx {
    const tl_reduce_kernel *k;
    const char *base;
    int64_t R, rs_bytes, blocks_per_task, nblocks;
    unsigned char *partials;     /* 16 bytes per block */
} single_ctx;

static int single_task(void *vctx, int64_t t)
{
    single_ctx *c = vctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t b0 = t * c->blocks_per_task, b1 = b0 + c->blocks_per_task;
    if (b1 > c->nblocks) b1 = c->nblocks;
    for (int64_t b = b0; b < b1; b++) {
        int64_t start = b * TL_SUM_BLOCK, len = c->R - start < TL_SUM_BLOCK ? c->R - start : TL_SUM_BLOCK;
        c->k->run(c->partials + 16 * b, c->base + start * c->rs_bytes, len, c->rs_bytes);
    }
    return 0;
}

/* Adds per-block sums in block order from +0: numpy's order, any thread count. */
static void add_partials(tl_dtype w, const unsigned char *parts, int64_t nb, void *out)
{
    if (w == TL_F32 || w == TL_C64) {
        float acc[2] = { 0, 0 };
        for (int64_t b = 0; b < nb; b++) {
            const float *v = (const float *)(parts + 16 * b);
            acc[0] += v[0];
            if (w == TL_C64) acc[1] += v[1];
        }
        memcpy(out, acc, w == TL_C64 ? 8 : 4);
    } else if (w == TL_F64 || w == TL_C128) {
        double acc[2] = { 0, 0 };
        for (int64_t b = 0; b < nb; b++) {
            const double *v = (const double *)(parts + 16 * b);
            acc[0] += v[0];
            if (w == TL_C128) acc[1] += v[1];
        }
        memcpy(out, acc, w == TL_C128 ? 16 : 8);
    } else {
        uint64_t acc = 0;
        for (int64_t b = 0; b < nb; b++) acc += *(const uint64_t *)(parts + 16 * b);
        memcpy(out, &acc, 8);
    }
}

/* One output from R elements of dtype `in`; sums combine their per-block
   partials in the accumulator dtype `acc`. */
static int reduce_single(tl_redop op, tl_dtype in, tl_dtype acc, const tl_reduce_kernel *k, const char *base,
                         int64_t R, int64_t rs_bytes, void *out)
{
    int nth = tl_threads_for(R);
    if (nth <= 1 || op == TL_RPROD) {   /* products stay sequential, as numpy */
        k->run(out, base, R, rs_bytes);
        return tl_check_interrupt();
    }
    single_ctx c = { .k = k, .base = base, .R = R, .rs_bytes = rs_bytes };
    c.nblocks = (R + TL_SUM_BLOCK - 1) / TL_SUM_BLOCK;
    int64_t ntasks = 4 * (int64_t)nth;
    c.blocks_per_task = (c.nblocks + ntasks - 1) / ntasks;
    ntasks = (c.nblocks + c.blocks_per_task - 1) / c.blocks_per_task;
    c.partials = malloc((size_t)c.nblocks * 16);
    if (!c.partials) { tl_seterr(MemoryError, "out of memory"); return -1; }
    int rc = tl_parallel_for(ntasks, single_task, &c);
    if (rc == 0) {
        size_t es = tl_dtype_size(in);
        if (op == TL_RSUM) {
            add_partials(acc, c.partials, c.nblocks, out);
        } else if (op == TL_RARGMIN || op == TL_RARGMAX) {
            /* the winner among each block's winner, then its global index */
            unsigned char *cand = malloc((size_t)c.nblocks * es);
            if (!cand) { free(c.partials); tl_seterr(MemoryError, "out of memory"); return -1; }
            for (int64_t b = 0; b < c.nblocks; b++) {
                int64_t idx = b * TL_SUM_BLOCK + *(int64_t *)(c.partials + 16 * b);
                memcpy(cand + b * es, base + idx * rs_bytes, es);
            }
            int64_t bb;
            k->run(&bb, (const char *)cand, c.nblocks, (int64_t)es);
            *(int64_t *)out = bb * TL_SUM_BLOCK + *(int64_t *)(c.partials + 16 * bb);
            free(cand);
        } else {
            /* min/max/any/all: the same kernel over the block results */
            for (int64_t b = 0; b < c.nblocks; b++) memmove(c.partials + b * es, c.partials + 16 * b, es);
            k->run(out, (const char *)c.partials, c.nblocks, (int64_t)es);
        }
    }
    free(c.partials);
    return rc;
}

/* ---- strategy (b): reduce a leading axis into a contiguous row of outputs ---- */

#define OUTER_COLS_MAX 8192
#define OUTER_ROWS 512
#define OUTER_PREFETCH 8

typedef struct outer_ctx {
    const tl_reduce_kernel *k;
    size_t es;
    bool from_identity;                           /* sum/prod: start at 0 or 1 */
    unsigned char identity[16];
    const tl_iter *kept;                          /* the kept axes over (output, row starts) */
    char *out;                                    /* nchunks partial results of M each */
    int64_t K, M, R, rs_bytes, cols, col_blocks, rows_out, nchunks;
} outer_ctx;

/* One (row chunk, outer index, column block): the chunk's rows added in order. */
static int outer_task(void *vctx, int64_t t)
{
    outer_ctx *c = vctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t chunk = t / (c->rows_out * c->col_blocks), rest = t % (c->rows_out * c->col_blocks);
    int64_t o = rest / c->col_blocks, cb = rest % c->col_blocks;
    int64_t j0 = cb * c->cols, n = c->K - j0 < c->cols ? c->K - j0 : c->cols;
    int64_t r0 = chunk * OUTER_ROWS, r1 = r0 + OUTER_ROWS < c->R ? r0 + OUTER_ROWS : c->R;
    char *at[2];
    tl_iter_at(c->kept, o * c->K + j0, at);
    const char *src = at[1];
    char *acc = c->out + (int64_t)c->es * chunk * c->M + (at[0] - c->kept->base[0]);
    if (c->from_identity) {
        for (int64_t j = 0; j < n; j++) memcpy(acc + (int64_t)c->es * j, c->identity, c->es);
    } else {
        memcpy(acc, src + r0 * c->rs_bytes, (size_t)n * c->es);
        r0++;
    }
    /* rows are far apart: when a block's piece of each row is short, fetch a
       few rows ahead (long pieces the hardware prefetcher handles itself) */
    int64_t bytes = n * (int64_t)c->es;
    bool prefetch = bytes < 4096;
    for (int64_t r = r0; r < r1;) {
        if (prefetch && r + OUTER_PREFETCH < r1) {
            const char *ahead = src + (r + OUTER_PREFETCH) * c->rs_bytes;
            for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(ahead + b, 0, 3);
        }
        if (r + 8 <= r1 && !prefetch) {
            c->k->outer8(acc, src + r * c->rs_bytes, n, c->rs_bytes);
            r += 8;
        } else {
            c->k->outer(acc, src + r * c->rs_bytes, n);
            r++;
        }
    }
    return 0;
}

/* Strategy (b) when the kept axes end in a contiguous run (sum(x, axis=0));
   returns 1 when it does not apply. Rows are added in order within fixed
   chunks of OUTER_ROWS, whose partial results are then combined in order:
   the same answer for any thread count, and numpy's exact order when the
   reduced axis is at most OUTER_ROWS long. */
static int try_outer(tl_redop op, tl_dtype w, const tl_reduce_kernel *k, const tl_iter_runs *p, char *out)
{
    int64_t es = (int64_t)tl_dtype_size(w);
    const tl_iter *kept = &p->outer;
    int inner = kept->ndim - 1;
    if (!k->outer || p->stride[1] == es || p->len < 2 || kept->bstrides[1][inner] != es) return 1;
    outer_ctx c = { .k = k, .es = (size_t)es, .kept = kept, .K = kept->shape[inner], .M = kept->size, .R = p->len };
    c.rs_bytes = p->stride[1];
    c.from_identity = op == TL_RSUM || op == TL_RPROD;
    if (op == TL_RPROD) {
        double one = 1.0;
        tl_scalar_convert(c.identity, w, &one, TL_F64);
    }
    c.rows_out = c.M / c.K;
    c.nchunks = (c.R + OUTER_ROWS - 1) / OUTER_ROWS;
    /* column blocks only for very wide rows (accumulators stay in L2) */
    c.cols = OUTER_COLS_MAX;
    c.col_blocks = (c.K + c.cols - 1) / c.cols;
    c.out = out;
    if (c.nchunks > 1) {
        c.out = malloc((size_t)(c.nchunks * c.M) * c.es);
        if (!c.out) { tl_seterr(MemoryError, "out of memory"); return -1; }
    }
    int64_t ntasks = c.nchunks * c.rows_out * c.col_blocks;
    int rc = 0;
    if (tl_threads_for(c.M * c.R) <= 1) {
        for (int64_t t = 0; t < ntasks && rc == 0; t++) rc = outer_task(&c, t);
    } else {
        rc = tl_parallel_for(ntasks, outer_task, &c);
    }
    if (c.nchunks > 1) {
        if (rc == 0) {       /* combine the chunks' partials in order */
            memcpy(out, c.out, (size_t)c.M * c.es);
            for (int64_t ch = 1; ch < c.nchunks; ch++) k->outer(out, c.out + ch * c.M * (int64_t)c.es, c.M);
        }
        free(c.out);
    }
    return rc;
}

/* ---- strategy (c): one run per output, outputs spread over threads ------------- */

typedef struct run_aux { const tl_reduce_kernel *k; int64_t R, rs_bytes; } run_aux;

static void run_inner(int64_t n, char **p, const int64_t *s, void *vaux)
{
    run_aux *a = vaux;
    char *o = p[0];
    const char *x = p[1];
    for (int64_t i = 0; i < n; i++, o += s[0], x += s[1]) a->k->run(o, x, a->R, a->rs_bytes);
}

static int reduce_per_output(const tl_reduce_kernel *k, const tl_iter_runs *p)
{
    run_aux aux = { k, p->len, p->stride[1] };
    return tl_kern_run_cost(&p->outer, run_inner, &aux, p->len);
}

/* ---- the core reductions: sum prod min max argmin argmax any all ------------ */

static void reduced_shape(const tl_tensor *a, const bool *mask, bool keepdims, int *nd, int64_t *shape)
{
    *nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!mask[d]) shape[(*nd)++] = a->shape[d];
        else if (keepdims) shape[(*nd)++] = 1;
    }
}

/* Result for an empty reduction over a non-empty output, or an error. */
static tl_tensor *empty_reduction(tl_redop op, tl_dtype rdt, int nd, const int64_t *shape)
{
    double v;
    switch (op) {
    case TL_RSUM: case TL_RNANSUM: case TL_RANY: v = 0; break;
    case TL_RPROD: case TL_RALL: v = 1; break;
    case TL_RARGMIN: case TL_RARGMAX:
        tl_seterr(ValueError, "attempt to get %s of an empty sequence", tl_redop_name(op));
        return NULL;
    default:
        tl_seterr(ValueError, "zero-size array to reduction operation %s which has no identity", tl_redop_name(op));
        return NULL;
    }
    tl_scalar s;
    tl_scalar_convert(&s, rdt, &v, TL_F64);
    return tl_full(rdt, nd, shape, &s);
}

static tl_tensor *reduce_core(tl_redop op, const tl_tensor *a, const bool *mask, bool keepdims, tl_tensor *into)
{
    tl_dtype rdt = tl_reduce_result_dtype(op, a->dtype), w = work_dtype(op, a->dtype);
    const tl_reduce_kernel *k = tl_reduce_kernel_for(op, w);
    if (!k) {
        tl_seterr(TypeError, "%s is not supported for dtype %s", tl_redop_name(op), tl_dtype_name(a->dtype));
        return NULL;
    }
    int nd, knd;
    int64_t shape[TL_MAXDIM], kshape[TL_MAXDIM];
    reduced_shape(a, mask, keepdims, &nd, shape);
    reduced_shape(a, mask, false, &knd, kshape);
    int64_t M, total;
    if (tl_shape_size(knd, kshape, &M) < 0 || tl_shape_size(a->ndim, a->shape, &total) < 0) return NULL;
    bool none_reduced = false;                                /* a reduced axis of length 0 */
    for (int d = 0; d < a->ndim; d++) none_reduced |= mask[d] && a->shape[d] == 0;
    if (none_reduced) return empty_reduction(op, rdt, nd, shape);   /* numpy raises even when the output is empty */
    if (M == 0) return tl_tensor_result(into, rdt, nd, shape);

    tl_dtype odt = (op == TL_RARGMIN || op == TL_RARGMAX) ? TL_I64 : w, in = w;
    int fnd;                                /* out has a's axes, 1 on the reduced ones */
    int64_t fshape[TL_MAXDIM];
    reduced_shape(a, mask, true, &fnd, fshape);
    tl_tensor *out = tl_tensor_result(into, odt, fnd, fshape), *src = NULL;
    if (!out) return NULL;
    tl_iter_runs p;
    int rc = 0;
    /* sums of bool and narrow ints read the input itself when the runs are
       contiguous (or there is one output); else they widen it first */
    const tl_reduce_kernel *nk = op == TL_RSUM ? tl_reduce_narrow_sum_kernel(a->dtype) : NULL;
    bool narrow = false;
    if (nk) {
        rc = plan_reduction(&p, out, a, mask, false, &src);
        narrow = rc == 0 && (M == 1 || p.stride[1] == (int64_t)tl_dtype_size(a->dtype));
        if (narrow) {
            k = nk;
            in = a->dtype;
        } else if (src) {
            tl_tensor_release(src);
            src = NULL;
        }
    }
    if (rc == 0 && !narrow) {
        tl_tensor *x = tl_as_dtype(a, w);
        rc = x ? plan_reduction(&p, out, x, mask, op == TL_RARGMIN || op == TL_RARGMAX, &src) : -1;
        if (x) tl_tensor_release(x);
    }
    if (rc == 0 && M == 1) {
        rc = reduce_single(op, in, odt, k, p.outer.base[1], p.len, p.stride[1], tl_tensor_data(out));
    } else if (rc == 0) {
        rc = narrow ? 1 : try_outer(op, w, k, &p, tl_tensor_data(out));
        if (rc == 1) rc = reduce_per_output(k, &p);
    }
    if (src) tl_tensor_release(src);
    if (rc < 0 || !recast_to(&out, rdt, into)) {
        if (out) tl_tensor_release(out);
        return NULL;
    }
    if (!keepdims && knd != fnd) {
        tl_tensor *r = tl_reshape(out, knd, kshape);
        tl_tensor_release(out);
        out = r;
    }
    return out;
}

/* ---- composed reductions: mean var std norm logsumexp ------------------------- */

static int64_t reduced_count(const tl_tensor *a, const bool *mask)
{
    int64_t R = 1;
    for (int d = 0; d < a->ndim; d++)
        if (mask[d]) R *= a->shape[d];
    return R;
}

/* t OP scalar(v) in t's dtype, releasing t; written into `into` when it fits. */
static tl_tensor *with_scalar_to(tl_binop op, tl_tensor *t, double v, tl_tensor *into)
{
    if (!t) return NULL;
    tl_tensor *s = tl_tensor_from_f64(t->dtype, v);
    tl_tensor *r = s ? tl_binary_to(op, t, s, t->dtype, into) : NULL;
    if (s) tl_tensor_release(s);
    tl_tensor_release(t);
    return r;
}

static tl_tensor *with_scalar(tl_binop op, tl_tensor *t, double v) { return with_scalar_to(op, t, v, NULL); }

/* |x|^2 elementwise: x*x, or re*re + im*im for complex (numpy's x * conj(x)). */
static tl_tensor *abs_squared(const tl_tensor *x)
{
    if (!tl_is_complex(x->dtype)) return tl_binary(TL_MUL, x, x, x->dtype);
    tl_tensor *re = tl_view_real(x), *im = tl_view_imag(x), *r2 = NULL, *i2 = NULL, *s = NULL;
    if (re && im) r2 = tl_binary(TL_MUL, re, re, re->dtype);
    if (r2) i2 = tl_binary(TL_MUL, im, im, im->dtype);
    if (i2) s = tl_binary(TL_ADD, r2, i2, r2->dtype);
    tl_tensor *all[4] = { re, im, r2, i2 };
    for (int i = 0; i < 4; i++) if (all[i]) tl_tensor_release(all[i]);
    return s;
}

static tl_tensor *mean_of(const tl_tensor *a, const bool *mask, bool keepdims, tl_tensor *into)
{
    tl_tensor *x = tl_as_dtype(a, float_work(a->dtype));
    if (!x) return NULL;
    tl_tensor *s = reduce_core(TL_RSUM, x, mask, keepdims, into);   /* divided where it is */
    tl_tensor_release(x);
    if (s && s->dtype == TL_C64) {
        /* numpy 2 (NEP 50) divides c64 sums by the count, an intp, in c128 (a 0-d sum as a
           c128 scalar, an array into its c64 output), then rounds: the correctly rounded
           quotient, where c64's own division multiplies by the count's reciprocal */
        tl_tensor *wide = tl_as_dtype(s, TL_C128);
        tl_tensor_release(s);
        tl_tensor *m = with_scalar(TL_DIV, wide, (double)reduced_count(a, mask));
        tl_tensor *r = m ? tl_as_dtype(m, TL_C64) : NULL;
        if (m) tl_tensor_release(m);
        return r;
    }
    return with_scalar_to(TL_DIV, s, (double)reduced_count(a, mask), into);
}

/* numpy's _var: mean, deviations, |d|^2, sum, divide by max(R - ddof, 0). */
static tl_tensor *var_of(const tl_tensor *a, const bool *mask, bool keepdims, int64_t ddof, tl_tensor *into)
{
    tl_tensor *x = tl_as_dtype(a, float_work(a->dtype));
    if (!x) return NULL;
    tl_tensor *m = mean_of(x, mask, true, NULL), *d = NULL, *sq = NULL, *s = NULL;
    if (m) d = tl_binary(TL_SUB, x, m, x->dtype);
    if (d) sq = abs_squared(d);
    if (sq) s = reduce_core(TL_RSUM, sq, mask, keepdims, into);   /* divided where it is */
    int64_t dof = reduced_count(a, mask) - ddof;
    tl_tensor *all[4] = { x, m, d, sq };
    for (int i = 0; i < 4; i++) if (all[i]) tl_tensor_release(all[i]);
    return with_scalar_to(TL_DIV, s, (double)(dof > 0 ? dof : 0), into);
}

static tl_tensor *norm_of(const tl_tensor *a, const bool *mask, bool keepdims, tl_tensor *into)
{
    tl_tensor *x = tl_as_dtype(a, float_work(a->dtype));
    if (!x) return NULL;
    tl_tensor *sq = abs_squared(x), *s = NULL, *r = NULL;
    tl_tensor_release(x);
    if (sq) s = reduce_core(TL_RSUM, sq, mask, keepdims, NULL);
    if (s) r = tl_unary_to(TL_SQRT, s, into);
    if (sq) tl_tensor_release(sq);
    if (s) tl_tensor_release(s);
    return r;
}

/* max + log(sum(exp(x - max))), with a non-finite max replaced by 0 (scipy). */
static tl_tensor *logsumexp_of(const tl_tensor *a, const bool *mask, bool keepdims, tl_tensor *into)
{
    if (tl_is_complex(a->dtype)) {
        tl_seterr(TypeError, "logsumexp is not supported for dtype %s", tl_dtype_name(a->dtype));
        return NULL;
    }
    tl_tensor *x = tl_as_dtype(a, float_work(a->dtype));
    if (!x) return NULL;
    if (reduced_count(a, mask) == 0) {            /* log(0) = -inf over empty axes */
        tl_tensor *s = reduce_core(TL_RSUM, x, mask, keepdims, NULL);
        tl_tensor_release(x);
        return with_scalar_to(TL_ADD, s, -INFINITY, into);
    }
    tl_tensor *m = reduce_core(TL_RMAX, x, mask, true, NULL), *fin = NULL, *zero = NULL, *mf = NULL;
    tl_tensor *d = NULL, *e = NULL, *s = NULL, *l = NULL, *r = NULL;
    if (m) fin = tl_unary(TL_ISFINITE, m);
    if (fin) zero = tl_tensor_from_f64(x->dtype, 0.0);
    if (zero) mf = tl_where(fin, m, zero, x->dtype);
    if (mf) d = tl_binary(TL_SUB, x, mf, x->dtype);
    if (d) e = tl_unary(TL_EXP, d);
    if (e) s = reduce_core(TL_RSUM, e, mask, true, NULL);
    if (s) l = tl_unary(TL_LOG, s);
    if (l) r = tl_binary_to(TL_ADD, l, mf, x->dtype, into);   /* keepdims=false: a view of it follows */
    tl_tensor *all[9] = { x, m, fin, zero, mf, d, e, s, l };
    for (int i = 0; i < 9; i++) if (all[i]) tl_tensor_release(all[i]);
    if (r && !keepdims) {
        int nd;
        int64_t shape[TL_MAXDIM];
        reduced_shape(a, mask, false, &nd, shape);
        tl_tensor *v = tl_reshape(r, nd, shape);
        tl_tensor_release(r);
        r = v;
    }
    return r;
}

/* ---- nan-ignoring reductions: numpy's nanfunctions, NaN replaced by 0 and counted --- */

/* x with each NaN replaced by 0 (numpy's _replace_nan); *nans gets isnan(x). */
static tl_tensor *nan_to_zero(const tl_tensor *x, tl_tensor **nans)
{
    tl_tensor *m = tl_unary(TL_ISNAN, x), *z = m ? tl_tensor_from_f64(x->dtype, 0.0) : NULL;
    tl_tensor *r = z ? tl_where(m, z, x, x->dtype) : NULL;
    if (z) tl_tensor_release(z);
    if (r) *nans = m;
    else if (m) tl_tensor_release(m);
    return r;
}

/* How many values over the reduced axes are not NaN, as f64. */
static tl_tensor *count_not_nan(const tl_tensor *nans, const bool *mask, bool keepdims)
{
    tl_tensor *s = reduce_core(TL_RSUM, nans, mask, keepdims, NULL);
    if (s && !recast(&s, TL_F64)) return NULL;
    return with_scalar(TL_ADD, with_scalar(TL_MUL, s, -1.0), (double)reduced_count(nans, mask));
}

/* tot / cnt computed in double precision and stored in tot's dtype (numpy's
   _divide_by_count divides into its f32/f16 output through the f64 loop). Releases tot. */
static tl_tensor *divide_by_count(tl_tensor *tot, const tl_tensor *cnt)
{
    if (!tot) return NULL;
    tl_dtype dt = tot->dtype, wide = tl_is_complex(dt) ? TL_C128 : TL_F64;
    tl_tensor *r = recast(&tot, wide) ? tl_binary(TL_DIV, tot, cnt, wide) : NULL;
    if (tot) tl_tensor_release(tot);
    if (r && !recast(&r, dt)) return NULL;
    return r;
}

/* nansum, nanmean and nanvar of a float or complex tensor, in its own dtype as numpy. */
static tl_tensor *nan_reduce(tl_redop op, const tl_tensor *a, const bool *mask, bool keepdims, int64_t ddof, tl_tensor *into)
{
    tl_tensor *nans = NULL, *z = nan_to_zero(a, &nans);
    if (!z) return NULL;
    tl_tensor *r = NULL;
    if (op == TL_RNANSUM) {
        r = reduce_core(TL_RSUM, z, mask, keepdims, into);
    } else if (op == TL_RNANMEAN) {
        tl_tensor *cnt = count_not_nan(nans, mask, keepdims);
        if (cnt) r = divide_by_count(reduce_core(TL_RSUM, z, mask, keepdims, NULL), cnt);
        if (cnt) tl_tensor_release(cnt);
    } else {   /* numpy's _nanvar: deviations from the nan-mean, NaN places zeroed, squared, summed */
        tl_tensor *cnt = count_not_nan(nans, mask, true), *avg = NULL, *d = NULL, *dz = NULL, *zero = NULL;
        tl_tensor *sq = NULL, *dof = NULL, *bad = NULL, *v = NULL, *nan = NULL;
        if (cnt) avg = divide_by_count(reduce_core(TL_RSUM, z, mask, true, NULL), cnt);
        if (avg) d = tl_binary(TL_SUB, z, avg, z->dtype);
        if (d) zero = tl_tensor_from_f64(z->dtype, 0.0);
        if (zero) dz = tl_where(nans, zero, d, z->dtype);
        if (dz) sq = abs_squared(dz);
        if (sq) dof = with_scalar(TL_ADD, count_not_nan(nans, mask, keepdims), -(double)ddof);
        if (dof) v = divide_by_count(reduce_core(TL_RSUM, sq, mask, keepdims, NULL), dof);
        if (v) {
            tl_tensor_retain(dof);
            bad = with_scalar(TL_LE, dof, 0.0);
        }
        if (bad) nan = tl_tensor_from_f64(v->dtype, NAN);
        if (nan) r = tl_where(bad, nan, v, v->dtype);
        tl_tensor *all[10] = { cnt, avg, d, dz, zero, sq, dof, v, nan, bad };
        for (int i = 0; i < 10; i++) if (all[i]) tl_tensor_release(all[i]);
    }
    tl_tensor_release(z);
    tl_tensor_release(nans);
    return r;
}

/* sqrt(t), releasing t; written into `into` when it fits. */
static tl_tensor *sqrt_of(tl_tensor *t, tl_tensor *into)
{
    tl_tensor *r = t ? tl_unary_to(TL_SQRT, t, into) : NULL;
    if (t) tl_tensor_release(t);
    return r;
}

/* The plain reduction a nan-reduction is on values that cannot be NaN (numpy does the same). */
static tl_redop plain_of(tl_redop op)
{
    switch (op) {
    case TL_RNANSUM: return TL_RSUM;
    case TL_RNANMEAN: return TL_RMEAN;
    case TL_RNANVAR: return TL_RVAR;
    case TL_RNANSTD: return TL_RSTD;
    case TL_RNANMIN: return TL_RMIN;
    case TL_RNANMAX: return TL_RMAX;
    default: return op;
    }
}

static tl_tensor *reduce_mask(tl_redop op, const tl_tensor *a, const bool *mask, bool keepdims, int64_t ddof, tl_tensor *into)
{
    tl_dtype rdt = tl_reduce_result_dtype(op, a->dtype);
    if (plain_of(op) != op && tl_is_intlike(a->dtype)) op = plain_of(op);
    tl_tensor *r;
    switch (op) {
    case TL_RNANSUM: case TL_RNANMEAN: case TL_RNANVAR: r = nan_reduce(op, a, mask, keepdims, ddof, into); break;
    case TL_RNANSTD: r = sqrt_of(nan_reduce(TL_RNANVAR, a, mask, keepdims, ddof, NULL), into); break;
    case TL_RMEAN: r = mean_of(a, mask, keepdims, into); break;
    case TL_RVAR: r = var_of(a, mask, keepdims, ddof, into); break;
    case TL_RSTD: r = sqrt_of(var_of(a, mask, keepdims, ddof, NULL), into); break;
    case TL_RNORM: r = norm_of(a, mask, keepdims, into); break;
    case TL_RLOGSUMEXP: r = logsumexp_of(a, mask, keepdims, into); break;
    default: return reduce_core(op, a, mask, keepdims, into);
    }
    if (!recast_to(&r, rdt, into)) return NULL;
    return r;
}

tl_tensor *tl_reduce(tl_redop op, const tl_tensor *a, int naxes, const int *axes, bool keepdims, int64_t ddof)
{
    return tl_reduce_to(op, a, naxes, axes, keepdims, ddof, NULL);
}

tl_tensor *tl_reduce_to(tl_redop op, const tl_tensor *a, int naxes, const int *axes, bool keepdims, int64_t ddof,
                        tl_tensor *into)
{
    if ((unsigned)op >= TL_NREDOPS) {
        tl_seterr(ValueError, "invalid reduction");
        return NULL;
    }
    bool mask[TL_MAXDIM] = { false };
    if (naxes == 0) {
        for (int d = 0; d < a->ndim; d++) mask[d] = true;
    }
    for (int i = 0; i < naxes; i++) {
        if (axes[i] < 0 || axes[i] >= a->ndim) {
            tl_seterr(IndexError, "axis %d is out of bounds for array of dimension %d", axes[i], a->ndim);
            return NULL;
        }
        if (mask[axes[i]]) {
            tl_seterr(ValueError, "duplicate value in 'axis'");
            return NULL;
        }
        mask[axes[i]] = true;
    }
    return reduce_mask(op, a, mask, keepdims, ddof, into);
}

/* ---- cumsum and cumprod: sequential along the axis (numpy's add/multiply.accumulate) ---- */

typedef struct cumulative_ctx {
    tl_dtype w;
    bool prod;
    const char *x;
    char *out;
    int64_t outer, L, inner, col_blocks;   /* inner counts reals for complex */
} cumulative_ctx;

#define CUMULATIVE_COLS 4096

/* out[k] = out[k-1] OP x[k] for one outer index and a block of columns; the
   first row is x itself (a leading -0.0 stays -0.0, as numpy). */
static int cumulative_task(void *vctx, int64_t t)
{
    cumulative_ctx *c = vctx;
    if (tl_check_interrupt() < 0) return -1;
    int64_t o = t / c->col_blocks, j0 = (t % c->col_blocks) * CUMULATIVE_COLS;
    int64_t n = c->inner - j0 < CUMULATIVE_COLS ? c->inner - j0 : CUMULATIVE_COLS;
    int64_t row = c->inner, base = o * c->L * row + j0;
#define CUMULATIVE_LOOP(T, OP)                                                        \
    {                                                                                 \
        const T *x = (const T *)c->x + base;                                          \
        T *y = (T *)c->out + base;                                                    \
        for (int64_t j = 0; j < n; j++) y[j] = x[j];                                  \
        for (int64_t k = 1; k < c->L; k++)                                            \
            for (int64_t j = 0; j < n; j++) y[k * row + j] = y[(k - 1) * row + j] OP x[k * row + j]; \
    }
/* complex products: columns come in (re, im) pairs (blocks are even-sized) */
#define CUMPROD_COMPLEX(T)                                                            \
    {                                                                                 \
        const T *x = (const T *)c->x + base;                                          \
        T *y = (T *)c->out + base;                                                    \
        for (int64_t j = 0; j < n; j++) y[j] = x[j];                                  \
        for (int64_t k = 1; k < c->L; k++)                                            \
            for (int64_t j = 0; j < n; j += 2) {                                      \
                const T *p = y + (k - 1) * row + j, *q = x + k * row + j;             \
                T re = p[0] * q[0] - p[1] * q[1], im = p[0] * q[1] + p[1] * q[0];     \
                y[k * row + j] = re;                                                  \
                y[k * row + j + 1] = im;                                              \
            }                                                                         \
    }
    bool cplx = tl_is_complex(c->w);
    if (c->prod && cplx && c->w == TL_C64) CUMPROD_COMPLEX(float)
    else if (c->prod && cplx) CUMPROD_COMPLEX(double)
    else if (c->w == TL_F32 || c->w == TL_C64) { if (c->prod) CUMULATIVE_LOOP(float, *) else CUMULATIVE_LOOP(float, +) }
    else if (c->w == TL_F64 || c->w == TL_C128) { if (c->prod) CUMULATIVE_LOOP(double, *) else CUMULATIVE_LOOP(double, +) }
    else if (c->prod) CUMULATIVE_LOOP(uint64_t, *)
    else CUMULATIVE_LOOP(uint64_t, +)
#undef CUMULATIVE_LOOP
#undef CUMPROD_COMPLEX
    return 0;
}

tl_tensor *tl_cumulative(tl_redop op, const tl_tensor *a, int axis) { return tl_cumulative_to(op, a, axis, NULL); }

tl_tensor *tl_cumulative_to(tl_redop op, const tl_tensor *a, int axis, tl_tensor *into)
{
    if (op != TL_RSUM && op != TL_RPROD) {
        tl_seterr(ValueError, "invalid running reduction");
        return NULL;
    }
    tl_tensor *src;
    if (axis == TL_AXIS_NONE) {
        int64_t n = tl_tensor_size(a);
        src = tl_reshape(a, 1, &n);
        axis = 0;
    } else {
        int ax;
        if (tl_normalize_axis(axis, a->ndim, &ax) < 0) return NULL;
        axis = ax;
        src = (tl_tensor *)a;
        tl_tensor_retain(src);
    }
    if (!src) return NULL;
    tl_dtype rdt = tl_reduce_result_dtype(op, a->dtype), w = work_dtype(op, a->dtype);
    tl_tensor *x = (src->dtype == w && tl_is_contiguous(src)) ? (tl_tensor_retain(src), src) : tl_cast(src, w);
    tl_tensor *out = x ? tl_tensor_result(into, w, src->ndim, src->shape) : NULL;
    int rc = out ? 0 : -1;
    if (rc == 0 && tl_tensor_size(out) > 0) {
        cumulative_ctx c = { .w = w, .prod = op == TL_RPROD, .x = tl_tensor_data(x), .out = tl_tensor_data(out),
                             .outer = 1, .inner = 1 };
        for (int d = 0; d < axis; d++) c.outer *= src->shape[d];
        for (int d = axis + 1; d < src->ndim; d++) c.inner *= src->shape[d];
        if (tl_is_complex(w)) c.inner *= 2;
        c.L = src->shape[axis];
        c.col_blocks = (c.inner + CUMULATIVE_COLS - 1) / CUMULATIVE_COLS;
        int64_t ntasks = c.outer * c.col_blocks;
        if (tl_threads_for(tl_tensor_size(out)) <= 1) {
            for (int64_t t = 0; t < ntasks && rc == 0; t++) rc = cumulative_task(&c, t);
        } else {
            rc = tl_parallel_for(ntasks, cumulative_task, &c);
        }
    }
    tl_tensor_release(src);
    if (x) tl_tensor_release(x);
    if (rc < 0 || !recast_to(&out, rdt, into)) {
        if (out) tl_tensor_release(out);
        return NULL;
    }
    return out;
}

tl_tensor *tl_cumsum(const tl_tensor *a, int axis) { return tl_cumulative(TL_RSUM, a, axis); }
