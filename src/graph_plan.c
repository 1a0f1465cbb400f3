/* graph_plan.c — a graph's plan (lifetimes, fused groups, arena offsets) and its print and Graphviz forms */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_int.h"

#define ARENA_ALIGN 64

/* graph_each_ref down to depth tuples. */
static void each_ref_within(Value t, int depth, int user, void (*fn)(void *, int, int), void *ctx)
{
    if (t.kind == V_TRACE) fn(ctx, (int)t.as.tr.node, user);
    else if (t.kind == V_TUPLE && depth > 0)
        for (int i = 0; i < t.as.tu->n; i++) each_ref_within(t.as.tu->items[i], depth - 1, user, fn, ctx);
}

void graph_each_ref(Value t, int user, void (*fn)(void *, int, int), void *ctx)
{
    each_ref_within(t, GRAPH_TRACE_DEPTH, user, fn, ctx);
}

static void note_use(void *ctx, int k, int user)
{
    Graph *g = ctx;
    g->nodes[k].consumers++;
    if (g->nodes[k].last_use < user) g->nodes[k].last_use = user;
}

static bool computes(const GNode *nd) { return nd->kind != GN_INPUT && nd->kind != GN_LEAF; }

/* Numbers the kernels (print's group column): a fused group is one, every other node that is no view one each. */
static void plan_kernels(Graph *g)
{
    int *kernel_of = malloc(sizeof *kernel_of * (size_t)(g->nfused ? g->nfused : 1));   /* per fused group */
    for (int i = 0; kernel_of && i < g->nfused; i++) kernel_of[i] = -1;
    g->nkernels = 0;
    for (int k = 0; k < g->n; k++) {
        GNode *nd = &g->nodes[k];
        nd->group = -1;
        if (!computes(nd) || nd->view) continue;
        if (nd->fgroup < 0 || !kernel_of) nd->group = g->nkernels++;
        else if (kernel_of[nd->fgroup] < 0) nd->group = kernel_of[nd->fgroup] = g->nkernels++;
        else nd->group = kernel_of[nd->fgroup];
    }
    free(kernel_of);
}

/* One free block of the arena. */
typedef struct { int64_t off, size; } Block;

/* The arena's free blocks, in the order ggml-alloc's rule leaves them. */
typedef struct { Block *b; int n; } FreeList;

/* The bytes node nd's buffer takes in the arena. */
static int64_t aligned_bytes(const GNode *nd) { return (nd->nbytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN; }

/* The offset of a buffer of need bytes: the best-fitting free block (the first of equals), or
   the end of the arena (*top grows). */
static int64_t take_block(FreeList *fl, int64_t need, int64_t *top)
{
    int best = -1;
    for (int i = 0; i < fl->n; i++)
        if (fl->b[i].size >= need && (best < 0 || fl->b[i].size < fl->b[best].size)) best = i;
    if (best < 0) {
        *top += need;
        return *top - need;
    }
    int64_t off = fl->b[best].off;
    fl->b[best].off += need;
    fl->b[best].size -= need;
    return off;
}

/* Gives a block back, merged with the free blocks it touches: the blocks are pairwise apart,
   so the one ending where it starts takes it, then the one starting where that ends is taken
   in (removed from the list by moving the last one into its place). */
static void give_block(FreeList *fl, Block blk)
{
    int at = fl->n++;
    fl->b[at] = blk;
    for (int i = 0; i < fl->n; i++)
        if (i != at && fl->b[i].off + fl->b[i].size == blk.off) {
            fl->b[i].size += blk.size;
            fl->b[at] = fl->b[--fl->n];   /* at was the last: it simply goes */
            at = i;
            break;
        }
    for (int m = 0; m < fl->n; m++)
        if (m != at && fl->b[at].off + fl->b[at].size == fl->b[m].off) {
            fl->b[at].size += fl->b[m].size;
            fl->b[m] = fl->b[--fl->n];
            break;
        }
}

/* Sorts nodes 0..n-1 by key (-1: left out) into order, stably; start[p]..start[p+1] holds
   those of key p. false when out of memory. */
static bool bucket(const Graph *g, bool (*key)(const GNode *, int *), int **order, int **start)
{
    *order = malloc(sizeof **order * (size_t)(g->n + 1));
    *start = calloc((size_t)g->n + 2, sizeof **start);
    if (!*order || !*start) return false;
    int p;
    for (int k = 0; k < g->n; k++)
        if (key(&g->nodes[k], &p)) (*start)[p + 1]++;
    for (int q = 0; q < g->n; q++) (*start)[q + 1] += (*start)[q];
    int *fill = malloc(sizeof *fill * (size_t)(g->n + 1));
    if (!fill) return false;
    memcpy(fill, *start, sizeof *fill * (size_t)(g->n + 1));
    for (int k = 0; k < g->n; k++)
        if (key(&g->nodes[k], &p)) (*order)[fill[p]++] = k;
    free(fill);
    return true;
}

/* A buffer of the arena allocated at step *p (its node's step). */
static bool allocated_at(const GNode *nd, int *p)
{
    *p = nd->step;
    return nd->nbytes > 0;
}

/* A node at whose release step *p its buffer may go back (checked for a buffer then). */
static bool released_at(const GNode *nd, int *p)
{
    *p = nd->release;
    return nd->nbytes > 0 && nd->release >= 0;
}

/* ggml-alloc's greedy rule: a buffer takes the best-fitting free block (or the
   end of the arena) when its node runs, and gives it back after its last consumer. */
static void plan_arena(Graph *g)
{
    FreeList fl = { calloc((size_t)g->n + 1, sizeof *fl.b), 0 };
    int *made = NULL, *made_at = NULL, *freed = NULL, *freed_at = NULL;
    bool ok = fl.b && bucket(g, allocated_at, &made, &made_at) && bucket(g, released_at, &freed, &freed_at);
    int64_t top = 0;
    for (int p = 0; p < g->n && ok; p++) {
        for (int i = made_at[p]; i < made_at[p + 1]; i++) {   /* the buffers computed at step p */
            GNode *nd = &g->nodes[made[i]];
            if (nd->last_use >= g->n) continue;   /* an output: not in the arena */
            nd->offset = take_block(&fl, aligned_bytes(nd), &top);
        }
        for (int i = freed_at[p]; i < freed_at[p + 1]; i++) {   /* buffers whose last reader ran at step p go back */
            GNode *b = &g->nodes[freed[i]];
            if (b->offset >= 0) give_block(&fl, (Block){ b->offset, aligned_bytes(b) });
        }
    }
    free(fl.b);
    free(made);
    free(made_at);
    free(freed);
    free(freed_at);
    g->arena_bytes = top;
}

static void mark_output(void *ctx, int k, int user)
{
    Graph *g = ctx;
    (void)user;
    g->nodes[k].last_use = g->n;
}

void graph_count_working(Graph *g)
{
    g->working = 0;
    for (int k = 0; k < g->n; k++)
        if (computes(&g->nodes[k]) && g->nodes[k].fgroup < 0) g->working += g->nodes[k].working;
}

void graph_plan(Graph *g)
{
    g->nleaves = g->ncompute = 0;
    g->output_bytes = g->eager_bytes = g->working = 0;
    for (int k = 0; k < g->n; k++) {
        GNode *nd = &g->nodes[k];
        nd->consumers = 0;
        nd->last_use = -1;
        nd->offset = -1;
        if (computes(nd)) g->ncompute++;
        else g->nleaves++;
    }
    for (int k = 0; k < g->n; k++)
        for (int i = 0; i < g->nodes[k].npos + g->nodes[k].nkw; i++) graph_each_ref(g->nodes[k].args[i], k, note_use, g);
    graph_each_ref(g->out, g->n, mark_output, g);
    for (int k = g->n - 1; k >= 0; k--) {   /* a view keeps its base alive */
        GNode *nd = &g->nodes[k];
        if (nd->view && g->nodes[nd->base].last_use < nd->last_use) g->nodes[nd->base].last_use = nd->last_use;
    }
    graph_fuse_plan(g);
    for (int k = 0; k < g->n; k++) {   /* a buffer for each value a kernel writes whole (not those inside a fused program) */
        GNode *nd = &g->nodes[k];
        int64_t size = 1;
        for (int d = 0; d < nd->ndim; d++) size *= nd->shape[d];
        bool value = computes(nd) && !nd->view && !nd->number;
        bool written = nd->fgroup >= 0 ? nd->last_use == g->n || nd->release > nd->step : nd->last_use == g->n || graph_writes_into(g, k);
        int64_t bytes = value ? size * (int64_t)tl_dtype_size(nd->dtype) : 0;
        nd->nbytes = written ? bytes : 0;
        if (nd->last_use == g->n) g->output_bytes += nd->nbytes;
        else if (!written && nd->fgroup < 0) g->eager_bytes += bytes;   /* a kernel with no output argument: allocates at each call */
    }
    graph_count_working(g);
    plan_kernels(g);
    plan_arena(g);
    /* the working region, after the buffers: the largest working tensors a kernel run alone needs */
    g->work_bytes = 0;
    for (int k = 0; k < g->n; k++) {
        const GNode *nd = &g->nodes[k];
        if (computes(nd) && nd->fgroup < 0 && nd->work_bytes > g->work_bytes) g->work_bytes = nd->work_bytes;
    }
    g->work_offset = (g->arena_bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (g->work_bytes) g->arena_bytes = g->work_offset + g->work_bytes;
}

/* ---- print forms ------------------------------------------------------ */

static const char *const binop_names[] = {
#define BINOP_NAME(ctx, e, sym, fn, ...) #fn,
    TL_BINOP_LIST(BINOP_NAME, _)
#undef BINOP_NAME
};

/* What print(g) calls node nd's operation: "mul", "exp", "index". */
static const char *op_name(const GNode *nd)
{
    static const char *const unary[] = { "neg", "pos", "invert", "not" };
    switch (nd->kind) {
    case GN_INPUT: return "input";
    case GN_LEAF: return "leaf";
    case GN_BINARY: return nd->op == OP_MATMUL ? "matmul" : binop_names[nd->op];
    case GN_UNARY: return unary[nd->op];
    case GN_CALL: return nd->bi->name;
    default: return "index";
    }
}

typedef struct { tl_write_fn w; void *ctx; int err; } Out;

static void out_printf(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(Out *o, const char *fmt, ...)
{
    if (o->err) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) { o->err = -1; return; }
    if (o->w(o->ctx, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1)) o->err = -1;
}

/* Appends an argument template's short form: a node index, a number, or the value's kind. */
static void arg_form(Value t, char *buf, size_t n)
{
    if (t.kind == V_TRACE) snprintf(buf, n, "%u", t.as.tr.node);
    else if (t.kind == V_NUM && t.weak && tl_fmt_scalar(t.as.num.bytes, (tl_dtype)t.dtype, buf, n) >= 0) return;
    else if (t.kind == V_NUM) {   /* a number of fixed dtype: as its cast would write it */
        char num[64];
        if (tl_fmt_scalar(t.as.num.bytes, (tl_dtype)t.dtype, num, sizeof num) < 0) snprintf(num, sizeof num, "?");
        snprintf(buf, n, "%s(%s)", tl_dtype_name((tl_dtype)t.dtype), num);
    }
    else if (t.kind == V_NONE) snprintf(buf, n, "none");
    else if (t.kind == V_STR) snprintf(buf, n, "\"%.*s\"", (int)(t.as.s->len < 20 ? t.as.s->len : 20), t.as.s->data);
    else if (t.kind == V_TUPLE) {
        size_t len = (size_t)snprintf(buf, n, "(");
        for (int i = 0; i < t.as.tu->n && len < n; i++) {
            arg_form(t.as.tu->items[i], buf + len, n - len);
            len = strlen(buf);
            if (len < n) len += (size_t)snprintf(buf + len, n - len, i + 1 < t.as.tu->n || t.as.tu->n == 1 ? ", " : "");
        }
        if (len < n) snprintf(buf + len, n - len, ")");
    } else snprintf(buf, n, "<%s>", val_kind_name(t));
}

/* Appends "[0, 1:3, ::2]" for an index node's items. */
static void items_form(const GNode *nd, char *buf, size_t n)
{
    size_t len = strlen(buf);
    for (int i = 0; i < nd->nitems && len + 1 < n; i++) {
        const tl_index_item *it = &nd->items[i];
        const char *sep = i ? ", " : "[";
        if (it->kind == TL_IDX_INT) snprintf(buf + len, n - len, "%s%lld", sep, (long long)it->i);
        else if (it->kind == TL_IDX_NEWAXIS) snprintf(buf + len, n - len, "%snone", sep);
        else if (it->kind == TL_IDX_ELLIPSIS) snprintf(buf + len, n - len, "%s...", sep);
        else if (it->kind == TL_IDX_TENSOR) snprintf(buf + len, n - len, "%s<tensor>", sep);
        else {
            char a[24] = "", b[24] = "", c[24] = "";
            if (it->has_start) snprintf(a, sizeof a, "%lld", (long long)it->start);
            if (it->has_stop) snprintf(b, sizeof b, "%lld", (long long)it->stop);
            if (it->step != 1) snprintf(c, sizeof c, ":%lld", (long long)it->step);
            snprintf(buf + len, n - len, "%s%s:%s%s", sep, a, b, c);
        }
        len = strlen(buf);
    }
    if (len + 1 < n) snprintf(buf + len, n - len, nd->nitems ? "]" : "[]");
}

/* The inputs column of node nd: its arguments, keywords as name=value. */
static void inputs_form(const GNode *nd, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (nd->kind == GN_INPUT) { snprintf(buf, n, "argument %s%s", nd->name, nd->weak ? " (weak)" : ""); return; }
    if (nd->kind == GN_LEAF) { snprintf(buf, n, "held by reference"); return; }
    int shown = nd->kind == GN_INDEX ? 1 : nd->npos + nd->nkw;
    for (int i = 0; i < shown && len + 1 < n; i++) {
        if (i) buf[len++] = ' ';
        if (i >= nd->npos) len += (size_t)snprintf(buf + len, n - len, "%s=", nd->kwnames[i - nd->npos]);
        if (len < n) arg_form(nd->args[i], buf + len, n - len);
        len = strlen(buf);
    }
    if (nd->kind == GN_INDEX) items_form(nd, buf, n);
}

static void node_line(Out *o, const Graph *g, int k)
{
    const GNode *nd = &g->nodes[k];
    char shape[160], inputs[200], group[16];
    tl_shape_str(nd->ndim, nd->shape, shape, sizeof shape);
    inputs_form(nd, inputs, sizeof inputs);
    int64_t size = 1;
    for (int d = 0; d < nd->ndim; d++) size *= nd->shape[d];
    if (nd->group >= 0) snprintf(group, sizeof group, "g%d", nd->group);
    else snprintf(group, sizeof group, nd->view ? "view" : computes(nd) ? "-" : "");
    out_printf(o, computes(nd) ? "%4d  %-12s %-14s %-5s %10lld  %-24s %s\n" : "%4d  %-12s %-14s %-5s %10lld  %s%s\n", k, op_name(nd), shape, tl_dtype_name(nd->dtype),
               (long long)(size * (int64_t)tl_dtype_size(nd->dtype)), inputs, group);
}

int graph_write(const void *self, tl_write_fn w, void *ctx)
{
    const Graph *g = self;
    Out o = { w, ctx, 0 };
    char outs[200];
    arg_form(g->out, outs, sizeof outs);
    out_printf(&o, "graph of %s(", g->fname);
    for (int k = 0, i = 0; k < g->n; k++)
        if (g->nodes[k].kind == GN_INPUT) out_printf(&o, "%s%s", i++ ? ", " : "", g->nodes[k].name);
    out_printf(&o, "): %d node%s, %d lea%s\n", g->ncompute, g->ncompute == 1 ? "" : "s", g->nleaves, g->nleaves == 1 ? "f" : "ves");
    out_printf(&o, "leaves:\n");
    out_printf(&o, "%4s  %-12s %-14s %-5s %10s  %s\n", "#", "op", "shape", "dtype", "bytes", "name");
    for (int k = 0; k < g->n; k++)
        if (g->nodes[k].kind == GN_INPUT || g->nodes[k].kind == GN_LEAF) node_line(&o, g, k);
    out_printf(&o, "nodes:\n");
    out_printf(&o, "%4s  %-12s %-14s %-5s %10s  %-24s %s\n", "#", "op", "shape", "dtype", "bytes", "inputs", "group");
    for (int k = 0; k < g->n; k++)
        if (computes(&g->nodes[k])) node_line(&o, g, k);
    out_printf(&o, "outputs: %s\n", outs);
    out_printf(&o, "nodes %d, leaves %d, kernels after fusion %d, planned peak bytes %lld (arena %lld, outputs %lld",
               g->ncompute, g->nleaves, g->nkernels, (long long)(g->arena_bytes + g->output_bytes),
               (long long)g->arena_bytes, (long long)g->output_bytes);
    if (g->work_bytes) out_printf(&o, "; working tensors of kernels in the arena %lld", (long long)g->work_bytes);
    if (g->eager_bytes) out_printf(&o, "; allocated by kernels at each call %lld", (long long)g->eager_bytes);
    if (g->working) out_printf(&o, "; working tensors kernels allocate at each call %lld", (long long)g->working);
    out_printf(&o, ")");
    return o.err;
}

/* Writes one Graphviz edge from every node reference in t to node k. */
static void dot_edges(Out *o, Value t, int depth, int k)
{
    if (t.kind == V_TRACE) out_printf(o, "  n%u -> n%d;\n", t.as.tr.node, k);
    else if (t.kind == V_TUPLE && depth > 0)
        for (int i = 0; i < t.as.tu->n; i++) dot_edges(o, t.as.tu->items[i], depth - 1, k);
}

int interp_graph_dot(Value gv, tl_write_fn w, void *ctx)
{
    const Graph *g = gv.as.g;
    Out o = { w, ctx, 0 };
    out_printf(&o, "digraph \"%s\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n", g->fname);
    for (int k = 0; k < g->n; k++) {
        const GNode *nd = &g->nodes[k];
        char shape[160];
        tl_shape_str(nd->ndim, nd->shape, shape, sizeof shape);
        out_printf(&o, "  n%d [label=\"%d %s%s%s\\n%s %s\"%s];\n", k, k, op_name(nd), nd->kind == GN_INPUT ? " " : "",
                   nd->kind == GN_INPUT ? nd->name : "", shape, tl_dtype_name(nd->dtype),
                   computes(nd) ? "" : ", shape=ellipse");
    }
    for (int i = 0; i < g->nfused; i++) {   /* a fused group as a cluster (in kernel order, as they are numbered) */
        const GFused *f = &g->fused[i];
        if (!f->prog || f->nmembers < 2) continue;
        int gi = g->nodes[f->member[0]].group;
        out_printf(&o, "  subgraph cluster_g%d {\n    label=\"g%d\"; style=dashed;\n   ", gi, gi);
        for (int m = 0; m < f->nmembers; m++) out_printf(&o, " n%d;", f->member[m]);
        out_printf(&o, "\n  }\n");
    }
    for (int k = 0; k < g->n; k++)
        for (int i = 0; i < g->nodes[k].npos + g->nodes[k].nkw; i++)
            if (g->nodes[k].kind != GN_INDEX || i == 0) dot_edges(&o, g->nodes[k].args[i], GRAPH_TRACE_DEPTH, k);
    out_printf(&o, "}\n");
    return o.err;
}
