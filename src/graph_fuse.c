/* graph_fuse.c — a graph's fused groups: which nodes run as one runtime fused program, built once, run at each call */
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "graph_int.h"

/* Grouping, in node order (a node's inputs come before it): an elementwise
   node, or a sum/mean/max/min over the last axis, joins the
   open groups its inputs belong to when the fusion compiler accepts it there
   (tl_fuse_* is asked, so what the plan shows is what runs). A group closes
   once a node outside it reads one of its values: nothing can join it after,
   so the group may run at its last node's turn and every value it reads is
   ready then. Every node of a group has the group's full shape, except
   reductions (1 as the last axis, or without it for keepdims=false: such a
   value is only written out, since the group's nodes would broadcast it
   differently) and smaller nodes that only the group reads. */

/* ---- building a program from a set of nodes ---------------------------- */

/* The program's leaves stand for values a call computes: when building, a
   placeholder with the node's dtype, shape and traced strides (all the builder
   reads of a leaf); each call points the leaf at the value itself. */
static _Alignas(64) unsigned char placeholder_bytes[64];
static tl_storage placeholder_storage = { .refcount = 1, .data = placeholder_bytes, .nbytes = sizeof placeholder_bytes };

/* A program being built and what its leaves and scalars stand for. */
typedef struct Build {
    Graph *g;
    tl_tensor **ph;     /* per node: its placeholder, made when it first is a leaf */
    int *slot;          /* per node: its index in the program being built, when stamped with gen */
    uint32_t *stamp;    /* per node: the build that set its slot (a build touches a few nodes of many) */
    uint32_t gen;
    tl_fuse_prog *p;
    GFused f;           /* the maps of the program being built */
} Build;

/* The node a template names, or -1 for a constant. */
static int operand_node(Value t) { return t.kind == V_TRACE ? (int)t.as.tr.node : -1; }

/* Node j's index in the program being built, or -1. */
static int slot_of(const Build *b, int j) { return b->stamp[j] == b->gen ? b->slot[j] : -1; }

/* Records node j's index s in the program being built; returns s. */
static int set_slot(Build *b, int j, int s)
{
    b->stamp[j] = b->gen;
    return b->slot[j] = s;
}

/* Node j's placeholder (made the first time: its dtype, shape and traced strides), or NULL. */
static const tl_tensor *placeholder(Build *b, int j)
{
    if (b->ph[j]) return b->ph[j];
    const GNode *nd = &b->g->nodes[j];
    tl_tensor *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->refcount = 1;
    t->storage = nd->kind == GN_LEAF ? nd->leaf.as.t->storage : &placeholder_storage;
    t->offset = nd->kind == GN_LEAF ? nd->leaf.as.t->offset : 0;
    t->dtype = nd->dtype;
    t->ndim = nd->ndim;
    memcpy(t->shape, nd->shape, sizeof t->shape);
    memcpy(t->strides, nd->strides, sizeof t->strides);
    return b->ph[j] = t;
}

/* An operand of a node: its program index with its dtype and weakness (lit: a
   weak operand's value), or -1 when it cannot be one. */
static int operand(Build *b, const Value *tp, tl_dtype *dt, bool *weak, const void **lit, bool *scalar)
{
    *weak = false;
    *lit = NULL;
    *scalar = false;
    if (tp->kind == V_NUM) {
        *dt = (tl_dtype)tp->dtype;
        *weak = tp->weak;
        *lit = tp->as.num.bytes;
        *scalar = true;
        return tl_fuse_scalar(b->p, *dt, tp->as.num.bytes);
    }
    int j = operand_node(*tp);
    if (j < 0) return -1;
    GNode *nd = &b->g->nodes[j];
    *dt = nd->dtype;
    int have = slot_of(b, j);
    if (have >= 0 && b->p->node[have].ndim != nd->ndim) return -1;   /* a reduction without keepdims */
    if (nd->number) {   /* a number argument: a scalar whose value each call sets */
        if (nd->kind != GN_INPUT) return -1;   /* a computed number: eager's scalar rules */
        *weak = nd->weak;
        *lit = nd->example.bytes;
        *scalar = true;
        if (have >= 0) return have;
        int s = tl_fuse_scalar(b->p, nd->dtype, nd->example.bytes);
        if (s < 0) return -1;
        b->f.var_prog[b->f.nvars] = s;
        b->f.var_node[b->f.nvars++] = j;
        return set_slot(b, j, s);
    }
    if (have >= 0) return have;
    const tl_tensor *ph = placeholder(b, j);
    int l = ph ? tl_fuse_leaf(b->p, ph) : -1;
    if (l < 0) return -1;
    b->f.leaf_prog[b->f.nleaves] = l;
    b->f.leaf_node[b->f.nleaves++] = j;
    return set_slot(b, j, l);
}

/* The number argument whose value program node i holds (it varies by call), or -1. */
static int var_node_of(const Build *b, int i)
{
    for (int v = 0; v < b->f.nvars; v++)
        if (b->f.var_prog[v] == i) return b->f.var_node[v];
    return -1;
}

/* a OP b as eager's operators (builtin false) or the binary builtins compute it. */
static int add_binary(Build *b, tl_binop op, const Value *ta, const Value *tb, bool builtin)
{
    tl_dtype da, db, dt;
    bool wa, wb, sa, sb;
    const void *la, *lb;
    int a = operand(b, ta, &da, &wa, &la, &sa);
    int c = a < 0 ? -1 : operand(b, tb, &db, &wb, &lb, &sb);
    if (c < 0 || (sa && sb)) return -1;
    if (!builtin && !sa && !sb && da == db && da != TL_BOOL) dt = da;   /* arith.c's tensor pair rule */
    else if (tl_binop_dtype(op, da, wa, db, wb, wa && !wb ? la : wb && !wa ? lb : NULL, &dt) < 0) return -1;
    if (builtin && !tl_binop_accepts(op, dt)) return -1;   /* the builtin reports it */
    int va = var_node_of(b, a), vb = var_node_of(b, c);
    if ((va >= 0 || vb >= 0) && (op == TL_POW || tl_int_operand_checked(op))) return -1;   /* built from its value */
    if ((va >= 0 && wa) || (vb >= 0 && wb)) {   /* a weak argument: its value may change the dtype */
        int w = b->f.nweak++;
        b->f.weak[w].node = va >= 0 ? va : vb;
        b->f.weak[w].op = (int)op;
        b->f.weak[w].other = va >= 0 ? db : da;
        b->f.weak[w].first = va >= 0;
        b->f.weak[w].dt = dt;
    }
    return tl_fuse_binary(b->p, op, dt, a, c);
}

/* The reduction of node nd when it is one a program runs: op over the last axis (keepdims
   or not: the program's node keeps the axis either way). */
static bool fusable_reduction(const Graph *g, const GNode *nd, tl_redop *op)
{
    *op = (tl_redop)nd->bi->tag;
    if ((*op != TL_RSUM && *op != TL_RMEAN && *op != TL_RMAX && *op != TL_RMIN) || nd->npos < 1 || nd->npos > 2) return false;
    int x = operand_node(nd->args[0]);
    if (x < 0 || g->nodes[x].number || g->nodes[x].ndim < 1) return false;
    int xd = g->nodes[x].ndim;
    bool axis = false;
    for (int i = 1; i < nd->npos + nd->nkw; i++) {
        Value v = nd->args[i];
        const char *name = i < nd->npos ? "axis" : nd->kwnames[i - nd->npos];
        if (strcmp(name, "axis") == 0 && v.kind == V_NUM && tl_is_int((tl_dtype)v.dtype)) {
            int64_t a = tl_scalar_to_i64(v.as.num.bytes, (tl_dtype)v.dtype);
            axis = a == -1 || a == xd - 1;
        } else if (strcmp(name, "keepdims") != 0 || v.kind != V_NUM || v.dtype != TL_BOOL) {
            return false;
        }
    }
    return axis;
}

/* Appends node k to the program; -1 when the compiler (or this file) refuses it. */
static int add_node(Build *b, int k)
{
    const GNode *nd = &b->g->nodes[k];
    tl_dtype da, db, dt;
    bool wa, wb, sa, sb;
    const void *la, *lb;
    int r = -1;
    if (nd->kind == GN_BINARY && nd->op != OP_MATMUL) {
        r = add_binary(b, (tl_binop)nd->op, &nd->args[0], &nd->args[1], false);
    } else if (nd->kind == GN_UNARY && (nd->op == UOP_NEG || nd->op == UOP_INVERT)) {
        int a = operand(b, &nd->args[0], &da, &wa, &la, &sa);
        tl_unop op = op_unary_function((UnaryOp)nd->op);
        if (a >= 0 && !sa && tl_unop_accepts(op, da)) r = tl_fuse_unary(b->p, op, a);   /* refused: arith_unary reports it */
    } else if (nd->kind == GN_CALL && nd->nkw == 0) {
        BuiltinFamily kind = (BuiltinFamily)nd->bi->family;   /* a family's rows name their op by the tag */
        if ((kind == BF_UNARY || kind == BF_CAST) && nd->npos == 1) {
            int a = operand(b, &nd->args[0], &da, &wa, &la, &sa);
            if (a >= 0 && !sa && kind == BF_UNARY) r = tl_fuse_unary(b->p, (tl_unop)nd->bi->tag, a);
            if (a >= 0 && !sa && kind == BF_CAST) r = tl_fuse_cast(b->p, (tl_dtype)nd->bi->tag, a);
        } else if (kind == BF_BINARY && nd->npos == 2) {
            r = add_binary(b, (tl_binop)nd->bi->tag, &nd->args[0], &nd->args[1], true);
        } else if (kind == BF_WHERE && nd->npos == 3) {   /* as src/fuse.c: the dtype of x and y as operands of minimum */
            tl_dtype dc;
            bool wc, sc;
            const void *lc;
            int c = operand(b, &nd->args[0], &dc, &wc, &lc, &sc);
            int a = c < 0 ? -1 : operand(b, &nd->args[1], &da, &wa, &la, &sa);
            int e = a < 0 ? -1 : operand(b, &nd->args[2], &db, &wb, &lb, &sb);
            bool vars = var_node_of(b, c) >= 0 || var_node_of(b, a) >= 0 || var_node_of(b, e) >= 0;
            bool ok = e >= 0 && !(wa && wb) && !(vars && (wa || wb));
            if (ok) {   /* as the builtin's common_dtype */
                tl_dtype_acc acc = { 0 };
                tl_dtype_acc_add(&acc, da, wa, wa ? la : NULL);
                tl_dtype_acc_add(&acc, db, wb, wb ? lb : NULL);
                ok = tl_dtype_acc_result(&acc, &dt) == 0;
            }
            if (ok) r = tl_fuse_where(b->p, dt, c, a, e);
        }
    }
    if (gnode_reduction(nd)) {
        tl_redop op;
        if (fusable_reduction(b->g, nd, &op)) {
            int a = operand(b, &nd->args[0], &da, &wa, &la, &sa);
            if (a >= 0) r = tl_fuse_reduce(b->p, op, a);
        }
    }
    if (r < 0) return -1;
    const tl_fuse_node *n = &b->p->node[r];   /* what eager gave when traced, or eager's rules were missed */
    int nd_n = n->ndim - (gnode_reduction(nd) && n->ndim == nd->ndim + 1);   /* keepdims=false: 1 as the last axis */
    if (n->dtype != nd->dtype || nd_n != nd->ndim || memcmp(n->shape, nd->shape, sizeof *n->shape * (size_t)nd_n) ||
        (nd_n < n->ndim && n->shape[nd_n] != 1))
        return -1;
    return set_slot(b, k, r);
}

/* Builds the program of the nodes m[0..nm) (in node order) into b; false when refused. */
static bool build(Build *b, const int *m, int nm)
{
    if (++b->gen == 0) {   /* wrapped: every stamp is old */
        memset(b->stamp, 0, sizeof *b->stamp * (size_t)b->g->n);
        b->gen = 1;
    }
    tl_fuse_init(b->p);
    memset(&b->f, 0, sizeof b->f);
    for (int i = 0; i < nm; i++)
        if (add_node(b, m[i]) < 0) return false;
    return true;
}

/* ---- grouping --------------------------------------------------------- */

/* The grouping's state. A group's members are a list in node order; each is a node of its
   program, so a group has at most TL_FUSE_MAX_NODES of them and every step below costs what
   the groups a node meets hold, not what the graph holds. */
typedef struct Plan {
    Build b;
    int *grp;           /* per node: its group, -1 */
    int *next;          /* per node: the next member of its group, -1 */
    int *first, *last;  /* per group: its first and last members */
    bool *open;         /* per group: nothing outside it reads it yet */
    int ngroups;
    int members[TL_FUSE_MAX_NODES + 1];   /* a trial's nodes, in node order */
    int nm;
} Plan;

/* True when two nodes' values have one shape. */
static bool same_shape(const GNode *a, const GNode *b)
{
    return a->ndim == b->ndim && !memcmp(a->shape, b->shape, sizeof *a->shape * (size_t)a->ndim);
}

/* True for a node a program may hold. */
static bool may_fuse(const Graph *g, const GNode *nd)
{
    if (nd->kind == GN_INPUT || nd->kind == GN_LEAF || nd->view || nd->number || nd->no_join) return false;
    tl_redop op;
    if (gnode_reduction(nd)) return fusable_reduction(g, nd, &op);
    return (nd->kind == GN_BINARY && nd->op != OP_MATMUL) || nd->kind == GN_UNARY || gnode_elementwise(nd);
}

/* The shape a group's members must have: the first member's (a reduction's input's). */
static const GNode *group_shape(const Plan *pl, int gid)
{
    const Graph *g = pl->b.g;
    const GNode *nd = &g->nodes[pl->first[gid]];
    return gnode_reduction(nd) ? &g->nodes[operand_node(nd->args[0])] : nd;
}

/* True when node k (of shape nd) may join group gid by its shape. */
static bool fits(const Plan *pl, int gid, int k)
{
    const Graph *g = pl->b.g;
    const GNode *nd = &g->nodes[k], *s = group_shape(pl, gid);
    if (gnode_reduction(nd)) {
        int x = operand_node(nd->args[0]);
        return pl->grp[x] == gid && same_shape(&g->nodes[x], s);
    }
    if (same_shape(nd, s)) return true;
    int ndim;
    int64_t shape[TL_MAXDIM];   /* smaller: broadcasts to the group's shape */
    return tl_broadcast_shapes(nd->ndim, nd->shape, s->ndim, s->shape, &ndim, shape) == 0 && ndim == s->ndim &&
           !memcmp(shape, s->shape, sizeof *shape * (size_t)ndim);
}

/* Tries node k with the members of groups gids[0..n) (merged, in node order); true when the
   compiler accepts it, pl->members then holding the program's nodes. */
static bool try_join(Plan *pl, int k, const int *gids, int n)
{
    pl->nm = 0;
    for (int i = 0; i < n; i++)
        for (int j = pl->first[gids[i]]; j >= 0; j = pl->next[j]) {
            if (pl->nm == TL_FUSE_MAX_NODES) return false;   /* a member per program node: too many */
            int at = pl->nm++;
            while (at > 0 && pl->members[at - 1] > j) pl->members[at] = pl->members[at - 1], at--;
            pl->members[at] = j;
        }
    pl->members[pl->nm++] = k;
    return build(&pl->b, pl->members, pl->nm);
}

/* Makes the trial's nodes (pl->members) the members of group gid. */
static void adopt(Plan *pl, int gid)
{
    for (int i = 0; i < pl->nm; i++) {
        int j = pl->members[i];
        pl->grp[j] = gid;
        pl->next[j] = i + 1 < pl->nm ? pl->members[i + 1] : -1;
    }
    pl->first[gid] = pl->members[0];
    pl->last[gid] = pl->members[pl->nm - 1];
}

/* Calls fn(ctx, j, k) for each node j that node k reads (once per reference). */
static void each_input(const Graph *g, int k, void (*fn)(void *, int, int), void *ctx)
{
    const GNode *nd = &g->nodes[k];
    for (int i = 0; i < nd->npos + nd->nkw; i++) graph_each_ref(nd->args[i], k, fn, ctx);
}

/* Closes node j's group: a node outside it reads j. */
static void close_group(void *ctx, int j, int user)
{
    Plan *pl = ctx;
    (void)user;
    if (pl->grp[j] >= 0) pl->open[pl->grp[j]] = false;
}

/* Groups node k: with the open groups it reads (all of them, else one), alone, or not at all. */
static void group_node(Plan *pl, int k)
{
    Graph *g = pl->b.g;
    const GNode *nd = &g->nodes[k];
    int cands[3 * TL_FUSE_MAX_NODES], nc = 0;
    if (may_fuse(g, nd))
        for (int i = 0; i < nd->npos + nd->nkw && nc < 3 * TL_FUSE_MAX_NODES; i++) {
            int j = operand_node(nd->args[i]);
            int gid = j >= 0 ? pl->grp[j] : -1;
            bool seen = false;
            for (int c = 0; c < nc && !seen; c++) seen = cands[c] == gid;
            if (gid >= 0 && pl->open[gid] && !seen && fits(pl, gid, k)) cands[nc++] = gid;
        }
    int joined = -1;
    if (nc > 0 && try_join(pl, k, cands, nc)) {
        joined = cands[0];   /* the others merge into the first */
    } else {
        for (int c = 0; c < nc && joined < 0; c++)
            if (try_join(pl, k, &cands[c], 1)) joined = cands[c];
        if (joined < 0 && may_fuse(g, nd) && try_join(pl, k, NULL, 0)) joined = pl->ngroups++;
    }
    if (joined >= 0) adopt(pl, joined);
    each_input(g, k, close_group, pl);   /* whoever k reads is read from outside its group now ... */
    pl->grp[k] = joined;
    if (joined >= 0) pl->open[joined] = true;   /* ... except k's own */
}

/* True when node k's value is read after its step (or is f's result): an output of its program. */
static bool is_output(const Graph *g, int k)
{
    const GNode *nd = &g->nodes[k];
    return nd->last_use == g->n || nd->release > nd->step;
}

/* True when every value group gid gives to others has a shape a program can write. */
static bool outputs_fit(Plan *pl, int gid)
{
    Graph *g = pl->b.g;
    const GNode *s = group_shape(pl, gid);
    bool ok = true;
    for (int k = pl->first[gid]; k >= 0; k = pl->next[k]) {
        GNode *nd = &g->nodes[k];
        if (!is_output(g, k) || same_shape(nd, s) || gnode_reduction(nd)) continue;
        nd->no_join = true;
        ok = false;
    }
    return ok;
}

/* Extends node j's release to the step of node user, which reads it. */
static void note_step(void *ctx, int j, int user)
{
    Graph *g = ctx;
    if (g->nodes[j].release < g->nodes[user].step) g->nodes[j].release = g->nodes[user].step;
}

/* Each node's step (its group's last node) and release (the last step reading it). */
static void plan_steps(Graph *g, const Plan *pl)
{
    for (int k = 0; k < g->n; k++) g->nodes[k].step = pl->grp[k] >= 0 ? pl->last[pl->grp[k]] : k;
    for (int k = 0; k < g->n; k++) g->nodes[k].release = g->nodes[k].last_use == g->n ? g->n : -1;
    for (int k = 0; k < g->n; k++) each_input(g, k, note_step, g);
    for (int k = g->n - 1; k >= 0; k--) {   /* a view keeps its base alive */
        GNode *nd = &g->nodes[k];
        if (nd->view && g->nodes[nd->base].release < nd->release) g->nodes[nd->base].release = nd->release;
    }
}

/* Keeps group gid's program and maps in f (prog NULL when out of memory: its nodes run one by one). */
static void keep_group(Plan *pl, int gid, GFused *f)
{
    Graph *g = pl->b.g;
    int nm = 0;
    for (int k = pl->first[gid]; k >= 0; k = pl->next[k]) pl->members[nm++] = k;
    f->prog = NULL;
    if (!build(&pl->b, pl->members, nm)) return;   /* accepted when grouped: cannot happen */
    *f = pl->b.f;
    if (!(f->prog = malloc(sizeof *f->prog))) return;
    memcpy(f->prog, pl->b.p, sizeof *f->prog);
    f->last = pl->members[nm - 1];
    f->nmembers = nm;
    memcpy(f->member, pl->members, sizeof *f->member * (size_t)nm);
    for (int i = 0; i < f->nleaves; i++) f->prog->node[f->leaf_prog[i]].t = NULL;   /* set by each call */
    for (int i = 0; i < nm; i++)
        if (is_output(g, pl->members[i])) {
            f->root_prog[f->nroots] = slot_of(&pl->b, pl->members[i]);
            f->root_node[f->nroots++] = pl->members[i];
        }
}

/* Groups every node, again while a group gives others a value it cannot write (that node
   then runs alone). */
static void group_all(Plan *pl)
{
    Graph *g = pl->b.g;
    for (bool again = true; again;) {
        pl->ngroups = 0;
        for (int k = 0; k < g->n; k++) pl->grp[k] = pl->next[k] = -1;
        for (int k = 0; k < g->n; k++) group_node(pl, k);
        plan_steps(g, pl);
        again = false;
        for (int gid = 0; gid < pl->ngroups; gid++)
            if (pl->first[gid] >= 0 && pl->grp[pl->first[gid]] == gid && !outputs_fit(pl, gid)) again = true;
    }
}

/* Numbers the groups by their first node into g->fused and each node's fgroup; false when
   out of memory. */
static bool keep_groups(Plan *pl)
{
    Graph *g = pl->b.g;
    int *index = malloc(sizeof *index * (size_t)pl->ngroups);
    if (!index || !(g->fused = calloc((size_t)pl->ngroups, sizeof *g->fused))) {
        free(index);
        return false;
    }
    for (int gid = 0; gid < pl->ngroups; gid++) index[gid] = -1;
    for (int k = 0; k < g->n; k++) {
        int gid = pl->grp[k];
        if (gid < 0) continue;
        if (index[gid] < 0) {
            index[gid] = g->nfused++;
            keep_group(pl, gid, &g->fused[index[gid]]);
        }
        g->nodes[k].fgroup = index[gid];
    }
    free(index);
    return true;
}

void graph_fuse_plan(Graph *g)
{
    int n = g->n ? g->n : 1;
    Plan *pl = calloc(1, sizeof *pl);
    bool ok = pl != NULL;
    if (pl) {
        pl->b.g = g;
        pl->grp = malloc(sizeof *pl->grp * (size_t)n);
        pl->next = malloc(sizeof *pl->next * (size_t)n);
        pl->first = malloc(sizeof *pl->first * (size_t)n);
        pl->last = malloc(sizeof *pl->last * (size_t)n);
        pl->open = calloc((size_t)n, sizeof *pl->open);
        pl->b.slot = malloc(sizeof *pl->b.slot * (size_t)n);
        pl->b.stamp = calloc((size_t)n, sizeof *pl->b.stamp);
        pl->b.ph = calloc((size_t)n, sizeof *pl->b.ph);
        pl->b.p = malloc(sizeof *pl->b.p);
        ok = pl->grp && pl->next && pl->first && pl->last && pl->open && pl->b.slot && pl->b.stamp && pl->b.ph && pl->b.p;
    }
    graph_fuse_free(g);
    for (int k = 0; k < g->n; k++) g->nodes[k].fgroup = -1;
    if (ok) {
        group_all(pl);
        if (pl->ngroups > 0 && !keep_groups(pl)) {   /* out of memory: every node runs alone */
            for (int k = 0; k < g->n; k++) pl->grp[k] = -1;
            plan_steps(g, pl);
        }
    } else {   /* out of memory: every node runs alone */
        for (int k = 0; k < g->n; k++) g->nodes[k].step = k;
        for (int k = 0; k < g->n; k++) g->nodes[k].release = g->nodes[k].last_use;
    }
    for (int i = 0; i < g->nfused; i++)
        if (!g->fused[i].prog)   /* out of memory: its nodes run one by one */
            for (int m = 0; m < g->fused[i].nmembers; m++) {
                int k = g->fused[i].member[m];
                g->nodes[k].fgroup = -1;
                g->nodes[k].step = k;
            }
    if (pl) {
        for (int k = 0; pl->b.ph && k < g->n; k++) free(pl->b.ph[k]);
        free(pl->grp);
        free(pl->next);
        free(pl->first);
        free(pl->last);
        free(pl->open);
        free(pl->b.slot);
        free(pl->b.stamp);
        free(pl->b.ph);
        free(pl->b.p);
        free(pl);
    }
}

void graph_fuse_free(Graph *g)
{
    for (int i = 0; i < g->nfused; i++) free(g->fused[i].prog);
    free(g->fused);
    g->fused = NULL;
    g->nfused = 0;
}

/* ---- running ---------------------------------------------------------- */

tl_tensor *graph_arena_view(Graph *g, const GNode *nd)
{
    int64_t strides[TL_MAXDIM];
    tl_contiguous_strides(nd->ndim, nd->shape, strides);
    return tl_tensor_view_of(g->arena, nd->dtype, nd->ndim, nd->shape, strides, nd->offset / (int64_t)tl_dtype_size(nd->dtype));
}

/* True when node nd is a matrix product of two tensors of at least 2 axes (tl_matmul_into). */
static bool is_product(const Graph *g, const GNode *nd)
{
    if (nd->kind != GN_BINARY || nd->op != OP_MATMUL) return false;
    for (int i = 0; i < 2; i++) {
        int j = operand_node(nd->args[i]);
        if (j < 0 || g->nodes[j].number || g->nodes[j].ndim < 2) return false;
    }
    return true;
}

bool graph_writes_into(const Graph *g, int k)
{
    const GNode *nd = &g->nodes[k];
    if (nd->number || nd->view) return false;
    return nd->kind != GN_CALL || nd->bi->trace == BT_INTO;   /* operators and indexing write into it too */
}

int graph_run_product(Graph *g, int k, Value *vals, tl_tensor *out)
{
    const GNode *nd = &g->nodes[k];
    if (!is_product(g, nd)) return 0;
    Value a = vals[operand_node(nd->args[0])], b = vals[operand_node(nd->args[1])];
    if (a.kind != V_TENSOR || b.kind != V_TENSOR) return 0;
    int rc = tl_matmul_into(a.as.t, b.as.t, out);
    if (rc > 0) {
        tl_tensor_retain(out);
        vals[k] = val_from_tensor(out);
    }
    return rc;
}

/* A view of contiguous t (taken) with another shape of as many elements: a reduction
   without keepdims, which its program computes with 1 as the last axis. NULL: error set. */
static tl_tensor *reshaped(tl_tensor *t, int ndim, const int64_t *shape)
{
    tl_tensor *r = tl_reshape(t, ndim, shape);
    tl_tensor_release(t);
    return r;
}

int graph_fuse_run(Graph *g, GFused *f, Value *vals, bool use_arena)
{
    tl_fuse_prog *p = f->prog;
    if (f->nroots == 0) return 1;   /* nothing reads what it computes */
    for (int i = 0; i < f->nweak; i++) {   /* a weak argument's value may change its operator's dtype */
        Value v = vals[f->weak[i].node];
        tl_dtype dt;
        int rc = f->weak[i].first
                     ? tl_binop_dtype((tl_binop)f->weak[i].op, (tl_dtype)v.dtype, true, f->weak[i].other, false, v.as.num.bytes, &dt)
                     : tl_binop_dtype((tl_binop)f->weak[i].op, f->weak[i].other, false, (tl_dtype)v.dtype, true, v.as.num.bytes, &dt);
        if (rc < 0 || dt != f->weak[i].dt) return 0;
    }
    for (int i = 0; i < f->nleaves; i++) {
        Value v = vals[f->leaf_node[i]];
        if (v.kind != V_TENSOR) return 0;
        p->node[f->leaf_prog[i]].t = v.as.t;
    }
    for (int i = 0; i < f->nvars; i++) {
        Value v = vals[f->var_node[i]];
        if (v.kind != V_NUM || v.dtype != p->node[f->var_prog[i]].dtype) return 0;
        memcpy(p->node[f->var_prog[i]].bytes, v.as.num.bytes, tl_dtype_size((tl_dtype)v.dtype));
    }
    tl_tensor *outs[TL_FUSE_MAX_NODES];
    int rc = 1;
    for (int i = 0; i < f->nroots; i++) {
        const GNode *nd = &g->nodes[f->root_node[i]];
        const tl_fuse_node *pn = &p->node[f->root_prog[i]];
        outs[i] = NULL;
        if (use_arena && nd->offset >= 0 && rc > 0 && !(outs[i] = graph_arena_view(g, nd))) rc = -1;
        if (outs[i] && pn->ndim != nd->ndim && !(outs[i] = reshaped(outs[i], pn->ndim, pn->shape))) rc = -1;
    }
    if (rc > 0) rc = tl_fuse_run(p, f->nroots, f->root_prog, outs);
    for (int i = 0; i < f->nleaves; i++) p->node[f->leaf_prog[i]].t = NULL;
    for (int i = 0; i < f->nroots; i++) {
        const GNode *nd = &g->nodes[f->root_node[i]];
        if (rc > 0 && outs[i] && outs[i]->ndim != nd->ndim && !(outs[i] = reshaped(outs[i], nd->ndim, nd->shape))) rc = -1;
    }
    for (int i = 0; i < f->nroots; i++) {
        if (rc > 0) vals[f->root_node[i]] = val_from_tensor(outs[i]);
        else if (outs[i]) tl_tensor_release(outs[i]);
    }
    return rc;
}
