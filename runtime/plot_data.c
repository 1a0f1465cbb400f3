/* plot_data.c — the numbers pictures need, streamed over strided tensors of any real dtype */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cast.h"
#include "iter.h"
#include "kernels/kern.h"
#include "plot_data.h"

/* One element of a real dtype as a double (bool 0/1; integers round to nearest beyond 2^53):
   load_S for every row of the dtype list but the complex ones. */
typedef double (*load_fn)(const char *p);
#define REAL_ROW(M, ENUM, S, NAME, NUMPY, CTYPE, KIND, ...) REAL_ROW_##KIND(M, S, ENUM)
#define REAL_ROW_BOOL(M, S, ENUM) M(S, ENUM)
#define REAL_ROW_UINT REAL_ROW_BOOL
#define REAL_ROW_INT REAL_ROW_BOOL
#define REAL_ROW_FLOAT REAL_ROW_BOOL
#define REAL_ROW_COMPLEX(M, S, ENUM)
#define DEF_LOADER(S, ENUM) \
    static double load_##S(const char *p) { return (double)cast_load_##S(p); }
#define LOADER_ENTRY(S, ENUM) [ENUM] = load_##S,
TL_DTYPE_LIST(REAL_ROW, DEF_LOADER)

/* The loader of a real dtype, NULL (error set) for complex ones. */
static load_fn loader_of(tl_dtype d)
{
    static const load_fn table[TL_NDTYPES] = { TL_DTYPE_LIST(REAL_ROW, LOADER_ENTRY) };
    if (tl_is_complex(d)) {
        tl_seterr(TypeError, "cannot draw complex numbers (dtype %s): draw real(x), imag(x) or abs(x)", tl_dtype_name(d));
        return NULL;
    }
    return table[d];
}

/* An empty summary (no finite element yet). */
static void stats_clear(tl_plot_stats *st)
{
    memset(st, 0, sizeof *st);
    st->lo = INFINITY;
    st->hi = -INFINITY;
}

/* Adds b's counts and extremes to a. */
static void stats_merge(tl_plot_stats *a, const tl_plot_stats *b)
{
    a->finite += b->finite;
    a->nan += b->nan;
    a->inf += b->inf;
    a->sum += b->sum;
    if (b->lo < a->lo) a->lo = b->lo;
    if (b->hi > a->hi) a->hi = b->hi;
}

/* Folds n elements of dtype d starting at p, bstride bytes apart, into st (any dtype, one by one). */
static void fold_slow(tl_plot_stats *st, const char *p, int64_t n, int64_t bstride, load_fn load)
{
    for (int64_t j = 0; j < n; j++, p += bstride) {
        double x = load(p);
        if (isnan(x)) st->nan++;
        else if (isinf(x)) st->inf++;
        else {
            st->finite++;
            st->sum += x;
            if (x < st->lo) st->lo = x;
            if (x > st->hi) st->hi = x;
        }
    }
}

/* Four floats (and their comparison masks) as one SSE register: GCC and clang vector extensions. */
typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));

/* Lanewise a < b ? a : b, and a > b ? a : b. */
static inline v4f vmin(v4f a, v4f b)
{
    v4i lt = a < b;   /* lanes: -1 where true */
    return (v4f)(((v4i)a & lt) | ((v4i)b & ~lt));
}
static inline v4f vmax(v4f a, v4f b)
{
    v4i gt = a > b;
    return (v4f)(((v4i)a & gt) | ((v4i)b & ~gt));
}

/* Folds a contiguous run of f32 into st, in pieces of 256: four float lanes (one SSE register) assume
   every element finite; a piece whose sum or extremes come out non-finite (a nan or inf in it,
   or a float overflow) is folded again one by one, in double. */
static void fold_f32_contiguous(tl_plot_stats *st, const float *p, int64_t n)
{
    for (int64_t j0 = 0; j0 < n; j0 += 256) {
        int64_t m = n - j0 < 256 ? n - j0 : 256, j = 0;
        const float *q = p + j0;
        v4f s = { 0 }, s2 = { 0 }, lo, hi, lo2, hi2, x, y;
        for (int l = 0; l < 4; l++) lo[l] = hi[l] = q[0];
        lo2 = lo, hi2 = hi;
        for (; j + 8 <= m; j += 8) {   /* two independent chains hide the add latency */
            memcpy(&x, q + j, sizeof x);
            memcpy(&y, q + j + 4, sizeof y);
            s += x, s2 += y;
            lo = vmin(x, lo), hi = vmax(x, hi), lo2 = vmin(y, lo2), hi2 = vmax(y, hi2);
        }
        s += s2, lo = vmin(lo, lo2), hi = vmax(hi, hi2);
        float sum = (s[0] + s[1]) + (s[2] + s[3]);
        float l0 = lo[0], h0 = hi[0];
        for (int l = 1; l < 4; l++) l0 = lo[l] < l0 ? lo[l] : l0, h0 = hi[l] > h0 ? hi[l] : h0;
        for (; j < m; j++) {
            sum += q[j];
            l0 = q[j] < l0 ? q[j] : l0;
            h0 = q[j] > h0 ? q[j] : h0;
        }
        if (!isfinite(sum) || !isfinite(l0) || !isfinite(h0)) {
            fold_slow(st, (const char *)q, m, 4, load_f32);
            continue;
        }
        st->finite += m;
        st->sum += sum;
        if (l0 < st->lo) st->lo = l0;
        if (h0 > st->hi) st->hi = h0;
    }
}

/* Folds a contiguous run of f32 into st's counts and sum only (lo and hi are left alone): what a
   block mean needs, a third of the work of fold_f32_contiguous, so a heatmap reads at memory speed.
   A piece of 256 whose sum is not finite holds a nan or inf (or overflowed): folded again one by one. */
static void fold_f32_sum_contiguous(tl_plot_stats *st, const float *p, int64_t n)
{
    for (int64_t j0 = 0; j0 < n; j0 += 256) {
        int64_t m = n - j0 < 256 ? n - j0 : 256, j = 0;
        const float *q = p + j0;
        v4f s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 }, x0, x1, x2, x3;
        for (; j + 16 <= m; j += 16) {   /* four independent chains hide the add latency */
            memcpy(&x0, q + j, sizeof x0);
            memcpy(&x1, q + j + 4, sizeof x1);
            memcpy(&x2, q + j + 8, sizeof x2);
            memcpy(&x3, q + j + 12, sizeof x3);
            s0 += x0, s1 += x1, s2 += x2, s3 += x3;
        }
        s0 = (s0 + s1) + (s2 + s3);
        float sum = (s0[0] + s0[1]) + (s0[2] + s0[3]);
        for (; j < m; j++) sum += q[j];
        if (!isfinite(sum)) {
            fold_slow(st, (const char *)q, m, 4, load_f32);
            continue;
        }
        st->finite += m;
        st->sum += sum;
    }
}

/* What a fold keeps: everything, or the counts and the sum (a block mean's needs). */
typedef enum fold_what { FOLD_ALL, FOLD_SUM } fold_what;

/* Folds n elements of dtype d starting at p, bstride bytes apart, into st; with FOLD_SUM, st's lo
   and hi may or may not be updated. */
static void fold_run(tl_plot_stats *st, const char *p, int64_t n, int64_t bstride, tl_dtype d, load_fn load,
                     fold_what what)
{
    if (d == TL_F32 && bstride == 4) {
        if (what == FOLD_SUM) fold_f32_sum_contiguous(st, (const float *)p, n);
        else fold_f32_contiguous(st, (const float *)p, n);
        return;
    }
    fold_slow(st, p, n, bstride, load);
}

/* What the inner loops of one pass share: the dtype, and the statistics or the histogram. */
typedef struct pass_ctx {
    tl_dtype dtype;
    load_fn load;
    tl_plot_stats st;
    double lo, hi, scale;   /* histogram: bin = (x - lo) * scale */
    int64_t bins, *counts;
} pass_ctx;

/* Inner loop of tl_plot_stats_of. */
static void stats_inner(int64_t n, char **ptrs, const int64_t *bs, void *aux)
{
    pass_ctx *c = aux;
    fold_run(&c->st, ptrs[0], n, bs[0], c->dtype, c->load, FOLD_ALL);
}

/* Plans one pass over every element of t (the iteration engine orders and merges its axes). */
static int plan_pass(const tl_tensor *t, tl_iter *it, pass_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->dtype = t->dtype;
    c->load = loader_of(t->dtype);
    stats_clear(&c->st);
    if (!c->load) return -1;
    const tl_tensor *ops[1] = { t };
    return tl_iter_init(it, 1, ops, t->ndim, t->shape);
}

int tl_plot_stats_of(const tl_tensor *t, tl_plot_stats *st)
{
    tl_iter it;
    pass_ctx c;
    if (plan_pass(t, &it, &c) < 0) return -1;
    if (it.size > 0 && tl_iter_run(&it, stats_inner, &c) < 0) return -1;
    *st = c.st;
    return 0;
}

/* Inner loop of tl_plot_hist. */
static void hist_inner(int64_t n, char **ptrs, const int64_t *bs, void *aux)
{
    pass_ctx *c = aux;
    const char *p = ptrs[0];
    int64_t last = c->bins - 1;
    for (int64_t j = 0; j < n; j++, p += bs[0]) {
        double x = c->dtype == TL_F32 ? (double)cast_mem_f32(p) : c->dtype == TL_F64 ? cast_mem_f64(p) : c->load(p);
        if (!(x >= c->lo && x <= c->hi)) continue;   /* also nan */
        int64_t k = (int64_t)((x - c->lo) * c->scale);
        c->counts[k > last ? last : k]++;
    }
}

int tl_plot_hist(const tl_tensor *t, double lo, double hi, int64_t bins, int64_t *counts)
{
    tl_iter it;
    pass_ctx c;
    if (!(lo < hi) || bins < 1) {
        tl_seterr(ValueError, "histogram needs lo < hi and at least one bin");
        return -1;
    }
    if (plan_pass(t, &it, &c) < 0) return -1;
    memset(counts, 0, (size_t)bins * sizeof *counts);
    c.lo = lo, c.hi = hi, c.bins = bins, c.counts = counts;
    c.scale = (double)bins / (hi - lo);
    if (!isfinite(c.scale)) {
        tl_seterr(ValueError, "histogram range [%g, %g] is too narrow or too wide", lo, hi);
        return -1;
    }
    return it.size > 0 ? tl_iter_run(&it, hist_inner, &c) : 0;
}

/* ---- block reduction ------------------------------------------------------ */

/* A block walk: t's axes as outer (walked one line at a time) and inner (the axis
   along which memory is nearer), the block edges along each, and one task per
   band of outer blocks. */
typedef struct blocks_ctx {
    const char *base;
    tl_dtype dtype;
    load_fn load;
    int64_t outer_n, inner_n, outer_bstride, inner_bstride;
    int64_t outer_cells, inner_cells;
    int64_t *outer_edge, *inner_edge;   /* cells + 1 entries each */
    bool transposed;                    /* outer is t's axis 1 */
    int64_t grid_cols;
    tl_plot_reduce how;
    double *grid;
    tl_plot_stats *task_stats;          /* one per outer cell */
    tl_plot_stats *cell;                /* scratch: inner_cells per outer cell */
} blocks_ctx;

/* Reduces the band of lines that make outer cell `task` into its grid cells. */
static int blocks_task(void *vc, int64_t task)
{
    blocks_ctx *c = vc;
    if (tl_check_interrupt() < 0) return -1;
    tl_plot_stats *cell = c->cell + task * c->inner_cells, *all = &c->task_stats[task];
    for (int64_t k = 0; k < c->inner_cells; k++) stats_clear(&cell[k]);
    stats_clear(all);
    for (int64_t line = c->outer_edge[task]; line < c->outer_edge[task + 1]; line++) {
        const char *row = c->base + line * c->outer_bstride;
        for (int64_t k = 0; k < c->inner_cells; k++) {
            int64_t j0 = c->inner_edge[k];
            fold_run(&cell[k], row + j0 * c->inner_bstride, c->inner_edge[k + 1] - j0, c->inner_bstride, c->dtype,
                     c->load, c->how == TL_PLOT_MAX ? FOLD_ALL : FOLD_SUM);
        }
    }
    for (int64_t k = 0; k < c->inner_cells; k++) {
        const tl_plot_stats *s = &cell[k];
        double v = s->finite == 0 ? NAN : c->how == TL_PLOT_MAX ? s->hi : s->sum / (double)s->finite;
        int64_t gi = c->transposed ? k : task, gj = c->transposed ? task : k;
        c->grid[gi * c->grid_cols + gj] = v;
        stats_merge(all, s);
    }
    return 0;
}

/* Fills edge[0..cells] with the block boundaries of n elements in cells blocks. */
static void block_edges(int64_t *edge, int64_t n, int64_t cells)
{
    for (int64_t k = 0; k <= cells; k++) edge[k] = (int64_t)((__int128)k * n / cells);
}

int tl_plot_blocks(const tl_tensor *t, int64_t rows, int64_t cols, tl_plot_reduce how, double *grid,
                   tl_plot_stats *st)
{
    if (t->ndim != 2 || rows < 1 || cols < 1 || rows > t->shape[0] || cols > t->shape[1]) {
        tl_seterr(ValueError, "block reduction needs a non-empty 2-d tensor and 1 <= cells <= its size");
        return -1;
    }
    blocks_ctx c = { .dtype = t->dtype, .load = loader_of(t->dtype), .how = how, .grid = grid, .grid_cols = cols };
    if (!c.load) return -1;
    int64_t es = (int64_t)tl_dtype_size(t->dtype);
    /* the axis with the smaller stride is read along; ties (size-1 axes) keep C order */
    c.transposed = t->shape[0] > 1 && t->shape[1] > 1 && llabs(t->strides[0]) < llabs(t->strides[1]);
    int o = c.transposed ? 1 : 0, in = 1 - o;
    c.outer_n = t->shape[o], c.inner_n = t->shape[in];
    c.outer_bstride = t->strides[o] * es, c.inner_bstride = t->strides[in] * es;
    c.outer_cells = c.transposed ? cols : rows, c.inner_cells = c.transposed ? rows : cols;
    c.outer_edge = malloc((size_t)(c.outer_cells + c.inner_cells + 2) * sizeof(int64_t));
    c.task_stats = malloc((size_t)c.outer_cells * sizeof *c.task_stats);
    c.cell = malloc((size_t)c.outer_cells * (size_t)c.inner_cells * sizeof *c.cell);
    int rc = -1;
    if (!c.outer_edge || !c.task_stats || !c.cell) {
        tl_seterr(MemoryError, "out of memory");
        goto done;
    }
    c.inner_edge = c.outer_edge + c.outer_cells + 1;
    block_edges(c.outer_edge, c.outer_n, c.outer_cells);
    block_edges(c.inner_edge, c.inner_n, c.inner_cells);
    c.base = tl_tensor_data(t);
    if (tl_parallel_for(c.outer_cells, blocks_task, &c) < 0) goto done;
    stats_clear(st);
    for (int64_t k = 0; k < c.outer_cells; k++) stats_merge(st, &c.task_stats[k]);
    rc = 0;
done:
    free(c.outer_edge);
    free(c.task_stats);
    free(c.cell);
    return rc;
}
