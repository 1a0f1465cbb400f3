/* kernels/fusion.c — running fused programs block by block over the thread pool */
#include <stdlib.h>
#include <string.h>

#include "../fusion.h"
#include "kern.h"
#include "reduce_loops.h"

/* numpy runs a*b + c*d - e one operator at a time: each step reads whole
   arrays and writes a whole temporary. A fused program runs the same steps on
   one block of the output at a time: every intermediate lives in a block
   buffer that stays in cache, memory sees each input once and each output
   once. Each node calls the very loop the eager operator calls on the same
   dtype over a contiguous run, so the bits are the same. */

/* Elements per block. Short runs keep buffers in L1 but starve the hardware
   prefetchers, which ramp up afresh on every run of each input; 16384 (64 KiB
   of f32 per buffer, living in L2) measured 2x faster than 1024. */
#define FUSE_BLOCK 16384
/* Rows at least this long read a per-row value (a reduction, a column) without broadcasting it. */
#define COMPACT_ROW 256

typedef struct fuse_job {
    const tl_fuse_prog *p;
    int nd;                                   /* the program's shape (at least 1-d) */
    int64_t shape[TL_MAXDIM];
    int64_t n, blen, nblocks, row;            /* row: the last axis' length when rows matter */
    bool row_blocks;                          /* blocks are whole rows */
    size_t bufbytes;                          /* bytes of one block buffer */
    int nbufs;
    int order[TL_FUSE_MAX_NODES], norder;     /* the nodes the outputs need, in order */
    int buf[TL_FUSE_MAX_NODES];               /* block buffer of each node, -1: none */
    int out_of[TL_FUSE_MAX_NODES];            /* output written by each node, -1: none */
    bool direct[TL_FUSE_MAX_NODES];           /* a leaf read in place (contiguous, full shape) */
    bool compact[TL_FUSE_MAX_NODES];          /* a reduction kept as one value per row (its readers go row by row) */
    int64_t lstr[TL_FUSE_MAX_NODES][TL_MAXDIM];   /* a gathered leaf's byte strides over the shape */
    unsigned char sc[TL_FUSE_MAX_NODES][3][16];   /* scalar operands converted to the node's cdt */
    tl_inner_fn fn[TL_FUSE_MAX_NODES];
    const tl_reduce_kernel *rk[TL_FUSE_MAX_NODES];
    int nout;
    const int *roots;
    char *odata[TL_FUSE_MAX_NODES];
    bool stream;
    int ntemps;                               /* operand conversion buffers the nodes need */
    int64_t next_block;                       /* the next block a task takes (atomic) */
} fuse_job;

/* Copies n elements of `item` bytes from src (byte stride s, possibly 0) to contiguous dst. */
static void copy_strided(char *dst, const char *src, int64_t s, int64_t n, size_t item)
{
    if (s == (int64_t)item) {
        memcpy(dst, src, (size_t)n * item);
        return;
    }
#define COPY_AS(T)                                                   \
    for (int64_t i = 0; i < n; i++, src += s) ((T *)dst)[i] = *(const T *)src; \
    return;
    switch (item) {
    case 1: COPY_AS(uint8_t)
    case 2: COPY_AS(uint16_t)
    case 4: COPY_AS(uint32_t)
    case 8: COPY_AS(uint64_t)
    default:
        for (int64_t i = 0; i < n; i++, src += s) memcpy(dst + i * (int64_t)item, src, item);
    }
#undef COPY_AS
}

/* Elements [off, off + len) of leaf node i broadcast to the program's shape, into dst. */
static void gather(const fuse_job *j, int i, int64_t off, int64_t len, char *dst)
{
    const tl_tensor *t = j->p->node[i].t;
    const int64_t *bs = j->lstr[i];
    size_t item = tl_dtype_size(t->dtype);
    int nd = j->nd, in = nd - 1;
    int64_t idx[TL_MAXDIM], rem = off;
    const char *src = tl_tensor_data(t);
    for (int d = in; d >= 0; d--) {
        idx[d] = rem % j->shape[d];
        rem /= j->shape[d];
        src += idx[d] * bs[d];
    }
    while (len > 0) {
        int64_t run = j->shape[in] - idx[in] < len ? j->shape[in] - idx[in] : len;
        copy_strided(dst, src, bs[in], run, item);
        dst += run * (int64_t)item;
        len -= run;
        src += run * bs[in];
        idx[in] += run;
        for (int d = in; d > 0 && idx[d] == j->shape[d]; d--) {
            src += bs[d - 1] - idx[d] * bs[d];
            idx[d] = 0;
            idx[d - 1]++;
        }
    }
}

/* One block's values: a pointer per node and its byte stride (0 for a scalar). */
typedef struct block_vals { char *at[TL_FUSE_MAX_NODES]; } block_vals;

/* Operand k of node i as a run of len values in dtype cdt; stride in *s. A conversion goes into
   temporary buffer k of temps (the only use of temps, which is NULL when nothing converts). */
static char *operand(const fuse_job *j, const block_vals *v, int i, int k, tl_dtype cdt, int64_t len, char *temps,
                     int64_t *s)
{
    const tl_fuse_node *o = &j->p->node[j->p->node[i].in[k]];
    if (o->kind == TL_FUSE_SCALAR) {
        *s = 0;
        return (char *)j->sc[i][k];
    }
    *s = (int64_t)tl_dtype_size(cdt);
    char *x = v->at[j->p->node[i].in[k]];
    if (o->dtype == cdt) return x;
    char *temp = temps + (size_t)k * j->bufbytes;
    tl_convert_run(len, x, o->dtype, (int64_t)tl_dtype_size(o->dtype), temp, cdt, *s);
    return temp;
}

/* where(c, a, b) over n elements of `item` bytes; each operand's stride is 0 or its item. */
static void select_run(int64_t n, char *o, const char *c, int64_t cs, const char *a, int64_t as, const char *b,
                       int64_t bs, size_t item)
{
    for (int64_t i = 0; i < n; i++, c += cs, a += as, b += bs)
        memcpy(o + i * (int64_t)item, *(const bool *)c ? a : b, item);
}

/* Node i (a unary function) over len values into dst, as tl_unary would compute them. */
static void run_unary(const fuse_job *j, const block_vals *v, int i, int64_t len, char *dst, char *temp,
                      tl_simd_hint *h)
{
    const tl_fuse_node *n = &j->p->node[i];
    int64_t s;
    char *x = operand(j, v, i, 0, n->cdt, len, temp, &s);
    if (!n->via_f32) {
        char *ptr[2] = { dst, x };
        int64_t st[2] = { (int64_t)tl_dtype_size(n->dtype), s };
        j->fn[i](len, ptr, st, h);
        return;
    }
    /* as eager: the half values widened to f32, the f32 loop, one rounding to the result dtype */
    char *w = temp + j->bufbytes, *r = w + j->bufbytes;
    tl_convert_run(len, x, n->cdt, s, w, TL_F32, 4);
    tl_dtype rdt32 = tl_unop_result_dtype((tl_unop)n->op, TL_F32);
    char *ptr[2] = { r, w };
    int64_t st[2] = { (int64_t)tl_dtype_size(rdt32), 4 };
    tl_simd_hint cached = { false };
    j->fn[i](len, ptr, st, &cached);
    tl_convert_run(len, r, rdt32, st[0], dst, n->dtype, (int64_t)tl_dtype_size(n->dtype));
}

/* Node i (a reduction over rows of j->row) of len values; row results go
   into the output when i is one, and are broadcast along each row into dst
   for the nodes that read them. */
static void run_reduce(const fuse_job *j, const block_vals *v, int i, int64_t off, int64_t len, char *dst)
{
    const tl_fuse_node *n = &j->p->node[i];
    size_t item = tl_dtype_size(n->dtype);
    const char *x = v->at[n->in[0]];
    char *out = j->out_of[i] >= 0 ? j->odata[j->out_of[i]] + off / j->row * (int64_t)item : NULL;
    for (int64_t r = 0; r < len / j->row; r++) {
        unsigned char val[16];
        j->rk[i]->run(val, x + r * j->row * (int64_t)item, j->row, (int64_t)item);
        if (n->op == TL_RMEAN) {   /* mean is the sum divided by the count in the dtype, as tl_reduce */
            if (n->dtype == TL_F32) *(float *)val /= (float)j->row;
            else *(double *)val /= (double)j->row;
        }
        if (out) memcpy(out + r * (int64_t)item, val, item);
        if (dst && j->compact[i]) memcpy(dst + r * (int64_t)item, val, item);
        else if (dst) copy_strided(dst + r * j->row * (int64_t)item, (const char *)val, 0, j->row, item);
    }
}

/* Runs every node over elements [off, off + len) with the task's scratch. */
static void run_block(const fuse_job *j, char *scratch, int64_t off, int64_t len)
{
    block_vals v;
    char *temp = scratch ? scratch + (size_t)j->nbufs * j->bufbytes : NULL;   /* NULL: the program needs none */
    tl_simd_hint cached = { false }, streamed = { j->stream };
    for (int k = 0; k < j->norder; k++) {
        int i = j->order[k];
        const tl_fuse_node *n = &j->p->node[i];
        size_t item = tl_dtype_size(n->dtype);
        bool to_out = j->out_of[i] >= 0 && n->kind != TL_FUSE_REDUCE;
        char *dst = to_out ? j->odata[j->out_of[i]] + off * (int64_t)item
                           : j->buf[i] >= 0 ? scratch + (size_t)j->buf[i] * j->bufbytes : NULL;
        tl_simd_hint *h = to_out ? &streamed : &cached;
        int64_t s0, s1, s2;
        switch (n->kind) {
        case TL_FUSE_SCALAR:
            dst = (char *)n->bytes;
            break;
        case TL_FUSE_LEAF:
            if (j->compact[i]) {   /* a column: one value per row */
                for (int64_t r = 0; r < len / j->row; r++) gather(j, i, off + r * j->row, 1, dst + r * (int64_t)item);
            } else if (j->direct[i]) {
                char *src = (char *)tl_tensor_data(n->t) + off * (int64_t)item;
                if (to_out) memcpy(dst, src, (size_t)len * item);
                else dst = src;
            } else {
                gather(j, i, off, len, dst);
            }
            break;
        case TL_FUSE_BINARY: {
            char *ptr[3] = { dst, operand(j, &v, i, 0, n->cdt, len, temp, &s1),
                             operand(j, &v, i, 1, n->cdt, len, temp, &s2) };
            int64_t st[3] = { (int64_t)item, s1, s2 };
            bool c1 = j->compact[n->in[0]], c2 = j->compact[n->in[1]];
            if (!c1 && !c2) {
                j->fn[i](len, ptr, st, h);
                break;
            }
            /* a row's reduction read as a stride-0 operand, row by row */
            int64_t row = j->row, esz = (int64_t)tl_dtype_size(n->cdt);
            for (int64_t r = 0; r < len / row; r++) {
                char *rp[3] = { dst + r * row * st[0], c1 ? ptr[1] + r * esz : ptr[1] + r * row * s1,
                                c2 ? ptr[2] + r * esz : ptr[2] + r * row * s2 };
                int64_t rs[3] = { st[0], c1 ? 0 : s1, c2 ? 0 : s2 };
                j->fn[i](row, rp, rs, h);
            }
            break;
        }
        case TL_FUSE_UNARY:
            run_unary(j, &v, i, len, dst, temp, h);
            break;
        case TL_FUSE_CAST: {
            char *x = v.at[n->in[0]];
            tl_dtype sd = j->p->node[n->in[0]].dtype;
            tl_convert_run(len, x, sd, (int64_t)tl_dtype_size(sd), dst, n->dtype, (int64_t)item);
            break;
        }
        case TL_FUSE_WHERE: {
            char *c = operand(j, &v, i, 0, TL_BOOL, len, temp, &s0);
            char *a = operand(j, &v, i, 1, n->cdt, len, temp, &s1);
            char *b = operand(j, &v, i, 2, n->cdt, len, temp, &s2);
            select_run(len, dst, c, s0, a, s1, b, s2, item);
            break;
        }
        case TL_FUSE_REDUCE:
            run_reduce(j, &v, i, off, len, dst);
            break;
        }
        v.at[i] = dst;
    }
}

/* One task per thread: takes blocks in turn until none is left, with one
   set of scratch buffers (a set per block would keep freed buffers resident
   in every thread's malloc arena: memory beyond the outputs). */
static int fuse_task(void *ctx, int64_t task)
{
    (void)task;
    fuse_job *j = ctx;
    size_t bytes = (size_t)(j->nbufs + j->ntemps) * j->bufbytes;
    char *scratch = bytes ? aligned_alloc(64, bytes) : NULL;
    if (bytes && !scratch) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    int rc = 0;
    for (;;) {
        int64_t b = __atomic_fetch_add(&j->next_block, 1, __ATOMIC_RELAXED);
        if (b >= j->nblocks) break;
        int64_t off = b * j->blen, len = j->n - off < j->blen ? j->n - off : j->blen;
        run_block(j, scratch, off, len);
        if ((rc = tl_check_interrupt()) < 0) {
            __atomic_store_n(&j->next_block, j->nblocks, __ATOMIC_RELAXED);   /* the other tasks stop too */
            break;
        }
    }
    free(scratch);
    return rc;
}

/* Operand conversion buffers node n needs on a block. */
static int temps_for(const tl_fuse_prog *p, const tl_fuse_node *n)
{
    if (n->kind == TL_FUSE_UNARY && n->via_f32) return 3;
    int t = 0;
    for (int k = 0; k < 3 && n->in[k] >= 0; k++) {
        const tl_fuse_node *o = &p->node[n->in[k]];
        tl_dtype want = n->kind == TL_FUSE_WHERE && k == 0 ? TL_BOOL : n->cdt;
        bool converts = o->kind != TL_FUSE_SCALAR && o->dtype != want && n->kind != TL_FUSE_CAST && n->kind != TL_FUSE_REDUCE;
        if (converts) t = k + 1;   /* operand k converts into temp k */
    }
    return t;
}

/* Marks the nodes root needs (in[] point backwards, so one pass from the top). */
static void mark_needed(const tl_fuse_prog *p, int nout, const int *roots, bool *need)
{
    memset(need, 0, sizeof(bool) * (size_t)p->n);
    for (int k = 0; k < nout; k++) need[roots[k]] = true;
    for (int i = p->n - 1; i >= 0; i--)
        if (need[i])
            for (int k = 0; k < 3; k++)
                if (p->node[i].in[k] >= 0) need[p->node[i].in[k]] = true;
}

/* Sets the program's shape and block length; 0 when the outputs' shapes or a
   reduction do not allow a fused run. */
static int plan_shape(fuse_job *j)
{
    const tl_fuse_prog *p = j->p;
    bool rows = false;
    j->nd = 0;
    for (int k = 0; k < j->norder; k++) {
        const tl_fuse_node *n = &p->node[j->order[k]];
        const tl_fuse_node *s = n->kind == TL_FUSE_REDUCE ? &p->node[n->in[0]] : n;
        rows |= n->kind == TL_FUSE_REDUCE;
        int nd;
        int64_t shape[TL_MAXDIM];
        if (tl_broadcast_shapes(j->nd, j->shape, s->ndim, s->shape, &nd, shape) < 0) return 0;
        j->nd = nd;
        memcpy(j->shape, shape, sizeof shape[0] * (size_t)nd);
    }
    for (int k = 0; k < j->nout; k++) {
        const tl_fuse_node *n = &p->node[j->roots[k]];
        if (n->ndim != j->nd) return 0;
        for (int d = 0; d < j->nd; d++)
            if (n->shape[d] != (n->kind == TL_FUSE_REDUCE && d == j->nd - 1 ? 1 : j->shape[d])) return 0;
    }
    if (j->nd == 0) {
        j->nd = 1;
        j->shape[0] = 1;
    }
    if (tl_shape_size(j->nd, j->shape, &j->n) < 0) return 0;
    j->row = j->shape[j->nd - 1];
    j->blen = FUSE_BLOCK;
    for (int k = 0; k < j->norder && j->row >= COMPACT_ROW; k++) {   /* a column leaf: row blocks too */
        const tl_fuse_node *n = &p->node[j->order[k]];
        rows |= n->kind == TL_FUSE_LEAF && (n->ndim == 0 || n->shape[n->ndim - 1] == 1);
    }
    j->row_blocks = rows && j->n > 0;
    if (rows && j->n > 0) {
        for (int k = 0; k < j->norder; k++) {
            const tl_fuse_node *n = &p->node[j->order[k]];
            if (n->kind != TL_FUSE_REDUCE) continue;
            const tl_fuse_node *x = &p->node[n->in[0]];
            int64_t xs = 1;
            for (int d = 0; d < x->ndim; d++) xs *= x->shape[d];
            /* eager threads one long row over blocks of partial sums: not this order */
            if (x->shape[x->ndim - 1] != j->row || (xs == j->row && tl_threads_for(j->row) > 1)) return 0;
        }
        j->blen = (FUSE_BLOCK / j->row > 1 ? FUSE_BLOCK / j->row : 1) * j->row;
    }
    j->nblocks = j->n == 0 ? 0 : (j->n + j->blen - 1) / j->blen;
    return 1;
}

/* Keeps a reduction, or a leaf that is a column (one value per row), as one value per row
   when blocks are rows of at least COMPACT_ROW and every node reading it is + - * / in its
   own dtype (f32/f64): those run row by row with the value as a stride-0 operand instead of
   reading it broadcast along the row (exactly rounded operators: the same bits either way). */
static void mark_compact(fuse_job *j)
{
    const tl_fuse_prog *p = j->p;
    for (int k = 0; k < j->norder; k++) {
        int i = j->order[k];
        const tl_fuse_node *n = &p->node[i];
        bool column = n->kind == TL_FUSE_LEAF && (n->ndim == 0 || n->shape[n->ndim - 1] == 1) && j->out_of[i] < 0;
        bool ok = (n->kind == TL_FUSE_REDUCE || column) && j->row_blocks && j->row >= COMPACT_ROW;
        for (int m = k + 1; ok && m < j->norder; m++) {
            const tl_fuse_node *u = &p->node[j->order[m]];
            bool reads = u->in[0] == i || u->in[1] == i || u->in[2] == i;
            bool exact = u->kind == TL_FUSE_BINARY && (u->cdt == TL_F32 || u->cdt == TL_F64) && u->cdt == n->dtype &&
                         (u->op == TL_ADD || u->op == TL_SUB || u->op == TL_MUL || u->op == TL_DIV);
            ok = !reads || exact;
        }
        j->compact[i] = ok;
    }
}

/* Picks each node's loop, leaves' access and converted scalars; gives block
   buffers to the nodes whose values later nodes read, reusing a buffer once
   its value has had its last reader. */
static void plan_nodes(fuse_job *j)
{
    const tl_fuse_prog *p = j->p;
    int last_use[TL_FUSE_MAX_NODES], holder[TL_FUSE_MAX_NODES];
    size_t maxitem = 4;
    for (int k = 0; k < j->norder; k++) last_use[j->order[k]] = -1;
    for (int k = 0; k < j->norder; k++) {
        int i = j->order[k];
        const tl_fuse_node *n = &p->node[i];
        for (int s = 0; s < 3; s++)
            if (n->in[s] >= 0) last_use[n->in[s]] = k;
        if (tl_dtype_size(n->dtype) > maxitem) maxitem = tl_dtype_size(n->dtype);
        if (tl_dtype_size(n->cdt) > maxitem) maxitem = tl_dtype_size(n->cdt);
        if (temps_for(p, n) > j->ntemps) j->ntemps = temps_for(p, n);
        j->buf[i] = -1;
        switch (n->kind) {
        case TL_FUSE_BINARY:
            j->fn[i] = tl_simd_binary_loop((tl_binop)n->op, n->cdt);
            if (!j->fn[i]) j->fn[i] = tl_binary_loop((tl_binop)n->op, n->cdt);
            break;
        case TL_FUSE_UNARY: {
            tl_dtype ldt = n->via_f32 ? TL_F32 : n->cdt;
            j->fn[i] = n->portable ? NULL : tl_simd_unary_loop((tl_unop)n->op, ldt);
            if (!j->fn[i]) j->fn[i] = tl_unary_loop((tl_unop)n->op, ldt);
            break;
        }
        case TL_FUSE_REDUCE:
            j->rk[i] = tl_reduce_kernel_for(n->op == TL_RMEAN ? TL_RSUM : (tl_redop)n->op, n->dtype);
            break;
        case TL_FUSE_LEAF: {
            const tl_tensor *t = n->t;
            bool full = t->ndim == j->nd;
            for (int d = 0; full && d < j->nd; d++) full = t->shape[d] == j->shape[d];
            j->direct[i] = full && tl_is_contiguous(t);
            int64_t item = (int64_t)tl_dtype_size(t->dtype);
            for (int d = 0; d < j->nd; d++) {
                int td = d - (j->nd - t->ndim);
                j->lstr[i][d] = td >= 0 && t->shape[td] != 1 ? t->strides[td] * item : 0;
            }
            break;
        }
        default:
            break;
        }
        for (int s = 0; s < 3; s++)   /* scalar operands, converted once as the eager operator converts them */
            if (n->in[s] >= 0 && p->node[n->in[s]].kind == TL_FUSE_SCALAR) {
                const tl_fuse_node *o = &p->node[n->in[s]];
                tl_dtype want = n->kind == TL_FUSE_WHERE && s == 0 ? TL_BOOL : n->cdt;
                tl_convert_run(1, o->bytes, o->dtype, 0, j->sc[i][s], want, 0);
            }
    }
    mark_compact(j);
    for (int k = 0; k < j->nout; k++) last_use[j->roots[k]] = TL_FUSE_MAX_NODES;   /* outputs live to the end */
    j->nbufs = 0;
    for (int k = 0; k < j->norder; k++) {
        int i = j->order[k];
        const tl_fuse_node *n = &p->node[i];
        for (int b = 0; b < j->nbufs; b++)
            if (holder[b] >= 0 && last_use[holder[b]] < k) holder[b] = -1;
        bool writes_out = j->out_of[i] >= 0 && n->kind != TL_FUSE_REDUCE;
        bool needs = n->kind != TL_FUSE_SCALAR && !writes_out && !(n->kind == TL_FUSE_LEAF && j->direct[i]);
        if (n->kind == TL_FUSE_REDUCE && last_use[i] < k) needs = false;   /* an output read by nobody */
        if (n->kind == TL_FUSE_REDUCE && last_use[i] == TL_FUSE_MAX_NODES) {
            needs = false;
            for (int m = k + 1; m < j->norder; m++)
                for (int s = 0; s < 3; s++) needs |= p->node[j->order[m]].in[s] == i;
        }
        if (!needs) continue;
        int b = 0;
        while (b < j->nbufs && holder[b] >= 0) b++;
        if (b == j->nbufs) j->nbufs++;
        holder[b] = i;
        j->buf[i] = b;
    }
    j->bufbytes = ((size_t)j->blen * maxitem + 63) & ~(size_t)63;
}

/* Checks the caller's outputs and makes the missing ones. */
static int prepare_outputs(fuse_job *j, tl_tensor **outs, bool *made)
{
    for (int k = 0; k < j->nout; k++) {
        const tl_fuse_node *n = &j->p->node[j->roots[k]];
        made[k] = false;
        if (outs[k]) {
            bool ok = outs[k]->dtype == n->dtype && outs[k]->ndim == n->ndim && tl_is_contiguous(outs[k]) &&
                      !outs[k]->readonly;
            for (int d = 0; ok && d < n->ndim; d++) ok = outs[k]->shape[d] == n->shape[d];
            if (!ok) {
                tl_seterr(ValueError, "fused program: an output tensor has the wrong dtype, shape or layout");
                return -1;
            }
        } else {
            outs[k] = tl_tensor_empty(n->dtype, n->ndim, n->shape);
            if (!outs[k]) return -1;
            made[k] = true;
        }
        j->odata[k] = tl_tensor_data(outs[k]);
    }
    return 0;
}

int tl_fuse_run(const tl_fuse_prog *p, int nout, const int *roots, tl_tensor **outs)
{
    if (!p || nout < 1 || nout > TL_FUSE_MAX_NODES) {
        tl_seterr(ValueError, "fused program: invalid outputs");
        return -1;
    }
    fuse_job *j = calloc(1, sizeof *j);
    if (!j) {
        tl_seterr(MemoryError, "out of memory");
        return -1;
    }
    j->p = p;
    j->nout = nout;
    j->roots = roots;
    bool need[TL_FUSE_MAX_NODES], made[TL_FUSE_MAX_NODES];
    int rc = 1;
    for (int k = 0; k < nout; k++) {
        if (roots[k] < 0 || roots[k] >= p->n) rc = -1;
        for (int m = 0; rc > 0 && m < k; m++) rc = roots[m] == roots[k] ? -1 : 1;   /* one output per node */
    }
    if (rc < 0) {
        free(j);
        tl_seterr(ValueError, "fused program: invalid or repeated outputs");
        return -1;
    }
    for (int k = 0; k < nout; k++)
        if (p->node[roots[k]].kind == TL_FUSE_SCALAR) {
            free(j);
            return 0;
        }
    mark_needed(p, nout, roots, need);
    for (int i = 0; i < p->n; i++) {
        j->out_of[i] = -1;
        if (need[i]) j->order[j->norder++] = i;
    }
    for (int k = nout - 1; k >= 0; k--) j->out_of[roots[k]] = k;
    if (!plan_shape(j)) {
        free(j);
        return 0;
    }
    plan_nodes(j);
    if (prepare_outputs(j, outs, made) < 0) {
        rc = -1;
    } else if (j->nblocks > 0) {
        int64_t bytes = 0;
        for (int k = 0; k < nout; k++) bytes += tl_tensor_size(outs[k]) * (int64_t)tl_dtype_size(outs[k]->dtype);
        j->stream = bytes >= TL_STREAM_BYTES;
        int64_t ntasks = tl_threads_for(j->n);
        if (ntasks > j->nblocks) ntasks = j->nblocks;
        if (tl_parallel_for(ntasks, fuse_task, j) < 0) rc = -1;
    }
    if (rc < 0)
        for (int k = 0; k < nout; k++)
            if (made[k] && outs[k]) {
                tl_tensor_release(outs[k]);
                outs[k] = NULL;
            }
    free(j);
    return rc;
}
