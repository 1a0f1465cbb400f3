/* frame_cycles.c — frees the frames and closures that only reference cycles among themselves keep alive */
#include <stdlib.h>

#include "frame.h"

/* A closure holds its defining frame, and a frame made for a call holds its parent (the
   defining frame of the function called) and, in its slots, the closures made in it. So a
   closure made in one call and kept in another call's frame ties the two frames in a cycle
   (fn compose(f, g) = fn(x) = f(g(x)), called from a function that keeps the result in a
   local) that reference counts alone never free: 300,000 such calls kept 294 MB.

   When a frame's count drops and stays above zero (a call returning, a closure going), the
   frames and closures it reaches through those references are looked at, as a trial
   deletion: each one's references from inside the group are counted, and one with more
   references than that is held from outside, as is everything it reaches; the rest are
   garbage, and are emptied and freed. The look is bounded (CYCLE_MAX_NODES, CYCLE_MAX_EDGES,
   small, as the group lives on the C stack and a factory called in a loop looks each call):
   past it nothing is freed, as before. Lists, tuples and dicts are not followed: a cycle
   through them waits for the end of the run (val_owner_sweep). The globals are no frame of
   a closure's (a function defined at the top level has none), so a look stays among calls. */

enum { CYCLE_MAX_NODES = 32, CYCLE_MAX_EDGES = 2048 };

/* A frame or a closure of the group, its references from inside the group, and whether
   something outside the group reaches it. */
typedef struct CycleNode {
    void *p;
    int32_t internal;
    bool is_frame, live;
} CycleNode;

typedef struct CycleGroup {
    CycleNode n[CYCLE_MAX_NODES];
    int count;
    int edges;
    bool too_big;
    uint8_t work[CYCLE_MAX_NODES];
    int nwork;   /* held nodes whose references are still to follow */
} CycleGroup;

/* Set while a group is being freed: the releases it makes do not start another look. */
static bool freeing;

/* The references a frame or closure holds in all. */
static inline int64_t node_refcount(const CycleNode *x)
{
    return x->is_frame ? ((const Frame *)x->p)->refcount : ((const Closure *)x->p)->refcount;
}

/* The index of (is_frame, p) in g, added when add is set and it is new; -1 when absent or g is full. */
static int node_index(CycleGroup *g, bool is_frame, void *p, bool add)
{
    for (int i = 0; i < g->count; i++)
        if (g->n[i].p == p) return i;
    if (!add || g->count == CYCLE_MAX_NODES) return -1;
    g->n[g->count] = (CycleNode){ .p = p, .is_frame = is_frame };
    return g->count++;
}

typedef void (*edge_fn)(CycleGroup *g, bool is_frame, void *to);

/* Calls visit for each frame or closure node i holds a reference to: a frame its parent and
   the functions in its slots, a closure its defining frame and the functions among its
   defaults. */
static inline __attribute__((always_inline)) void each_edge(CycleGroup *g, int i, edge_fn visit)
{
    if (g->n[i].is_frame) {
        Frame *f = g->n[i].p;
        if (f->parent) visit(g, true, f->parent);
        for (int k = 0; k < f->nslots && !g->too_big; k++)
            if (f->slots[k].kind == V_FUNC) visit(g, false, f->slots[k].as.fn);
        return;
    }
    Closure *c = g->n[i].p;
    if (c->env) visit(g, true, c->env);
    for (int k = 0; c->defaults && k < c->def->nparams && !g->too_big; k++)
        if (c->has_default[k] && c->defaults[k].kind == V_FUNC) visit(g, false, c->defaults[k].as.fn);
}

/* A reference met while finding the group: its target joins, counted as referenced from inside. */
static void count_edge(CycleGroup *g, bool is_frame, void *to)
{
    int j = node_index(g, is_frame, to, true);
    if (j < 0 || ++g->edges > CYCLE_MAX_EDGES) {
        g->too_big = true;
        return;
    }
    g->n[j].internal++;
}

/* A reference from a node held from outside: its target is held too (its own references are
   followed when the worklist reaches it). */
static void mark_edge(CycleGroup *g, bool is_frame, void *to)
{
    int j = node_index(g, is_frame, to, false);
    if (j >= 0 && !g->n[j].live) {
        g->n[j].live = true;
        g->work[g->nwork++] = (uint8_t)j;
    }
}

/* Empties and frees the group's garbage: each held once more while all are emptied, so none is
   freed while another still points into it, then let go. */
static void free_garbage(CycleGroup *g)
{
    freeing = true;
    for (int i = 0; i < g->count; i++) {
        if (g->n[i].live) continue;
        if (g->n[i].is_frame) ((Frame *)g->n[i].p)->refcount++;
        else ((Closure *)g->n[i].p)->refcount++;
    }
    for (int i = 0; i < g->count; i++) {
        if (g->n[i].live) continue;
        if (g->n[i].is_frame) {
            Frame *f = g->n[i].p;
            f->collecting = true;
            frame_clear(f);
            f->collecting = false;
        } else {
            Closure *c = g->n[i].p;
            for (int k = 0; c->defaults && k < c->def->nparams; k++) {
                Value d = c->defaults[k];
                c->defaults[k] = val_none();
                val_release(d);
            }
        }
    }
    for (int i = 0; i < g->count; i++) {
        if (g->n[i].live) continue;
        if (g->n[i].is_frame) frame_release(g->n[i].p);
        else val_release((Value){ .kind = V_FUNC, .as.fn = g->n[i].p });
    }
    freeing = false;
}

void frame_collect_cycles(Frame *start)
{
    /* a frame a call is running in is held by that call, and so is all it reaches */
    if (freeing || start->collecting || start->running) return;
    CycleGroup g;
    g.count = 1, g.edges = 0, g.too_big = false, g.nwork = 0;
    g.n[0] = (CycleNode){ .p = start, .is_frame = true };
    for (int i = 0; i < g.count && !g.too_big; i++) each_edge(&g, i, count_edge);
    if (g.too_big) return;
    for (int i = 0; i < g.count; i++)
        if (node_refcount(&g.n[i]) > g.n[i].internal) {
            g.n[i].live = true;
            g.work[g.nwork++] = (uint8_t)i;
        }
    while (g.nwork > 0) each_edge(&g, g.work[--g.nwork], mark_edge);   /* what a held node reaches is held */
    for (int i = 0; i < g.count; i++)
        if (!g.n[i].live) {
            free_garbage(&g);
            return;
        }
}

void closure_collect_cycles(Closure *c)
{
    /* Held once, by a slot of its own frame or of a frame around it (an inner function that
       names itself, a closure a call kept, one `nonlocal` stored): the cases where a release
       can leave a cycle with nothing outside it. A closure held elsewhere (a global:
       h = compose(f, g), called in a loop) costs a scan of the few slots of its frames. */
    Frame *env = c->env;
    if (c->refcount != 1 || !env || env->running || freeing || env->collecting) return;
    for (const Frame *f = env; f; f = f->parent)
        for (int k = 0; k < f->nslots; k++)
            if (f->slots[k].kind == V_FUNC && f->slots[k].as.fn == c) {
                frame_collect_cycles(env);
                return;
            }
}
