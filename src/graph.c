/* graph.c — graph(f, examples...): tracing f into nodes; g(values...): computing them again */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "graph_int.h"

uint32_t graph_tracing;
static uint32_t trace_serial;
static Graph *tracing_graph;    /* the graph being built while graph_tracing != 0 */
static bool catch_refused;      /* a try in f met an error while this trace ran (graph_refuse_catch) */

/* The leaves found while tracing, by tensor (open addressing): template_of looks every tensor
   argument up, and a search of all nodes made tracing quadratic. A slot may name a node that
   was dropped (dropped()); a lookup checks the node. */
static struct { const tl_tensor **key; int *node; size_t cap, n; } leaves;

/* ---- graphs ----------------------------------------------------------- */

static void node_clear(GNode *nd)
{
    for (int i = 0; i < nd->npos + nd->nkw; i++) val_release(nd->args[i]);
    free(nd->args);
    for (int i = 0; i < nd->nkw; i++) free(nd->kwnames[i]);
    free(nd->kwnames);
    free(nd->items);
    free((char *)nd->name);
    val_release(nd->leaf);
}

/* Frees a graph whose last reference went (its head's free). */
static void graph_free(void *self)
{
    Graph *g = self;
    for (int i = 0; i < g->n; i++) node_clear(&g->nodes[i]);
    free(g->nodes);
    val_release(g->out);
    graph_fuse_free(g);
    if (g->arena) tl_storage_release(g->arena);
    free(g->fname);
    free(g);
}

/* A new node of g (zeroed, kind set); -1 with the error set when out of memory. */
static int node_add(Graph *g, GNodeKind kind)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 16;
        GNode *nodes = realloc(g->nodes, sizeof *nodes * (size_t)cap);
        if (!nodes) { tl_seterr(MemoryError, "out of memory"); return -1; }
        g->nodes = nodes;
        g->cap = cap;
    }
    GNode *nd = &g->nodes[g->n];
    memset(nd, 0, sizeof *nd);
    nd->kind = kind;
    nd->leaf = val_none();
    nd->base = -1;
    nd->offset = -1;
    return g->n++;
}

/* Records a value's dtype and shape in node k (v: a number or a tensor). */
static void node_set_type(GNode *nd, Value v)
{
    nd->dtype = val_dtype(v);
    nd->number = v.kind == V_NUM;
    nd->ndim = v.kind == V_TENSOR ? v.as.t->ndim : 0;
    if (nd->ndim) memcpy(nd->shape, v.as.t->shape, sizeof *nd->shape * (size_t)nd->ndim);
    if (nd->ndim) memcpy(nd->strides, v.as.t->strides, sizeof *nd->strides * (size_t)nd->ndim);
    if (v.kind == V_NUM) nd->example = v.as.num;
}

/* ---- traced values ---------------------------------------------------- */

/* A V_TRACE for node k holding its example value v (taken). */
static Value trace_wrap(int k, Value v)
{
    tl_tensor *t = v.kind == V_TENSOR ? v.as.t : val_to_tensor(v);
    if (v.kind != V_TENSOR) val_release(v);
    if (!t) return (Value){ .kind = V_UNDEF };
    Value r = { .kind = V_TRACE };
    r.as.tr.t = t;
    r.as.tr.node = (uint32_t)k;
    r.as.tr.trace = graph_tracing;
    return r;
}

/* The example value a live V_TRACE stands for (a new reference), as eager code holds it. */
static Value trace_example(Value v)
{
    if (v.kind != V_TRACE) return val_retain(v);
    const GNode *nd = &tracing_graph->nodes[v.as.tr.node];
    if (!nd->number) {
        Value r = { .kind = V_TENSOR };
        r.as.t = v.as.tr.t;
        tl_tensor_retain(r.as.t);
        return r;
    }
    tl_scalar s = { 0 };
    memcpy(s.bytes, tl_tensor_data(v.as.tr.t), tl_dtype_size(nd->dtype));
    Value r = val_num(nd->dtype, &s);
    r.weak = nd->weak;
    return r;
}

/* True when v holds a traced value of no trace in progress, looking depth tuples deep (and
   into dicts' values when dicts). */
static bool holds_stale(Value v, int depth, bool dicts)
{
    if (v.kind == V_TRACE) return !graph_trace_live(v);
    if (depth == 0) return false;
    if (v.kind == V_TUPLE)
        for (int i = 0; i < v.as.tu->n; i++)
            if (holds_stale(v.as.tu->items[i], depth - 1, dicts)) return true;
    if (v.kind == V_DICT && dicts)
        for (int i = 0; i < v.as.d->n; i++)
            if (holds_stale(v.as.d->vals[i], depth - 1, dicts)) return true;
    return false;
}

/* Checks that every traced value in v belongs to the trace in progress (a stale one stands for
   a node of another graph), before anything reads the node it names. */
static bool trace_check(Interp *I, Value v, Span at)
{
    return !holds_stale(v, GRAPH_TRACE_DEPTH, false) || interp_error(I, at, ValueError, GRAPH_STALE);
}

void graph_explain_failure(Interp *I, const CallArgs *a)
{
    if (!tl_errkind_catchable(I->err.kind)) return;   /* an interrupt stays one */
    for (int i = 0; i < a->npos + a->nkw; i++)
        if (holds_stale(i < a->npos ? a->pos[i] : a->kw[i - a->npos], GRAPH_TRACE_DEPTH, true)) {
            interp_error(I, a->at, ValueError, GRAPH_STALE);
            return;
        }
}

/* True when v is a V_TRACE or a tuple holding one, depth tuples deep. */
static bool has_trace(Value v, int depth)
{
    if (v.kind == V_TRACE) return true;
    if (v.kind == V_TUPLE && depth > 0)
        for (int i = 0; i < v.as.tu->n; i++)
            if (has_trace(v.as.tu->items[i], depth - 1)) return true;
    return false;
}

bool graph_args_traced(const CallArgs *a)
{
    for (int i = 0; i < a->npos + a->nkw; i++)
        if (has_trace(i < a->npos ? a->pos[i] : a->kw[i - a->npos], GRAPH_TRACE_DEPTH)) return true;
    return false;
}

void graph_refuse_catch(Interp *I)
{
    static const char why[] = " (f catches this error while graph() traces it: a graph cannot hold the branch a caught error takes)";
    Diag *d = &I->err;
    size_t len = strlen(d->msg);
    if (catch_refused || len + sizeof why > sizeof d->msg) return;   /* said once, by the innermost try */
    memcpy(d->msg + len, why, sizeof why);
    catch_refused = true;
}

/* The slot of tensor t in the leaf table: its own, or the empty one where it would go. */
static size_t leaf_slot(const tl_tensor *t)
{
    size_t h = (size_t)(((uintptr_t)t >> 4) * 0x9E3779B97F4A7C15u) & (leaves.cap - 1);
    while (leaves.key[h] && leaves.key[h] != t) h = (h + 1) & (leaves.cap - 1);
    return h;
}

/* The leaf node holding tensor t, or -1. */
static int leaf_find(const tl_tensor *t)
{
    if (!leaves.cap) return -1;
    size_t h = leaf_slot(t);
    int k = leaves.key[h] ? leaves.node[h] : -1;
    const Graph *g = tracing_graph;
    return k >= 0 && k < g->n && g->nodes[k].kind == GN_LEAF && g->nodes[k].leaf.as.t == t ? k : -1;
}

/* Records that leaf node k holds tensor t; false when out of memory (error set). */
static bool leaf_note(const tl_tensor *t, int k)
{
    if (2 * (leaves.n + 1) > leaves.cap) {   /* grow: at most half full */
        size_t cap = leaves.cap ? 2 * leaves.cap : 64, old = leaves.cap;
        const tl_tensor **key = calloc(cap, sizeof *key);
        int *node = calloc(cap, sizeof *node);
        if (!key || !node) {
            free(key);
            free(node);
            tl_seterr(MemoryError, "out of memory");
            return false;
        }
        const tl_tensor **okey = leaves.key;
        int *onode = leaves.node;
        leaves.key = key;
        leaves.node = node;
        leaves.cap = cap;
        for (size_t i = 0; i < old; i++)
            if (okey[i]) {
                size_t h = leaf_slot(okey[i]);
                leaves.key[h] = okey[i];
                leaves.node[h] = onode[i];
            }
        free(okey);
        free(onode);
    }
    size_t h = leaf_slot(t);
    leaves.n += !leaves.key[h];
    leaves.key[h] = t;
    leaves.node[h] = k;
    return true;
}

/* Empties the leaf table (a trace ended). */
static void leaves_clear(void)
{
    free(leaves.key);
    free(leaves.node);
    memset(&leaves, 0, sizeof leaves);
}

/* A reference to node k as an argument template. */
static Value node_ref(int k)
{
    Value r = { .kind = V_TRACE };
    r.as.tr.t = NULL;
    r.as.tr.node = (uint32_t)k;
    return r;
}

/* The template of an argument (trace_check passed): traced values become node references,
   tensors become leaves (held by reference), tuples holding traced values are copied item by
   item (depth tuples deep). */
static bool template_of(Interp *I, Value v, int depth, Span at, Value *out)
{
    Graph *g = tracing_graph;
    if (v.kind == V_TRACE) {
        *out = node_ref((int)v.as.tr.node);
        return true;
    }
    if (v.kind == V_TENSOR) {
        int k = leaf_find(v.as.t);
        if (k >= 0) { *out = node_ref(k); return true; }
        k = node_add(g, GN_LEAF);
        if (k < 0 || !leaf_note(v.as.t, k)) return interp_error_rt(I, at);
        g->nodes[k].leaf = val_retain(v);
        node_set_type(&g->nodes[k], v);
        *out = node_ref(k);
        return true;
    }
    if (v.kind == V_TUPLE && has_trace(v, depth)) {
        Value t = val_tuple_new(v.as.tu->n);
        if (t.kind != V_TUPLE) return interp_error_rt(I, at);
        for (int i = 0; i < v.as.tu->n; i++)
            if (!template_of(I, v.as.tu->items[i], depth - 1, at, &t.as.tu->items[i])) { val_release(t); return false; }
        *out = t;
        return true;
    }
    *out = val_retain(v);
    return true;
}

/* The example value of an argument (trace_check passed; tuples with traced items copied). */
static Value example_of(Value v, int depth)
{
    if (v.kind != V_TUPLE || !has_trace(v, depth)) return trace_example(v);
    Value t = val_tuple_new(v.as.tu->n);
    if (t.kind != V_TUPLE) return t;
    for (int i = 0; i < v.as.tu->n; i++) t.as.tu->items[i] = example_of(v.as.tu->items[i], depth - 1);
    return t;
}

/* What the kernel of a node being traced allocated: storages (made; lent: those a planned
   call's working region holds), and the bytes its working tensors need (a measuring workspace). */
typedef struct Measure { uint64_t made, lent; tl_workspace w; } Measure;

/* Starts measuring the kernel about to run. */
static void measure_begin(Measure *m)
{
    m->made = tl_storage_count();
    tl_workspace_begin(&m->w, NULL, 0, 0);
}

/* Stops measuring: m->made becomes the storages allocated, m->w.need the working bytes. */
static void measure_end(Measure *m)
{
    tl_workspace_end(&m->w);
    m->made = tl_storage_count() - m->made;
    m->lent = 0;
    for (int i = 0; i < m->w.n; i++) m->lent += !m->w.e[i].live;
}

/* Drops the nodes from mark on (a node being recorded failed: it and the leaves its arguments
   found), so that a graph holds only nodes whose values f received. Returns false. */
static bool dropped(int mark)
{
    Graph *g = tracing_graph;
    while (mark >= 0 && g->n > mark) node_clear(&g->nodes[--g->n]);
    return false;
}

/* Finishes node k from eager's result r for the examples (taken): its type,
   whether it is a view of a traced operand, the storages its kernel allocated
   besides its result (m: counted from tl_storage_count() when it started, and
   their bytes as a workspace measured them), and the traced value for f. */
static bool node_finish(Interp *I, int k, Value r, const Value *ops, int nops, const Measure *m, Span at, Value *out)
{
    GNode *nd = &tracing_graph->nodes[k];
    uint64_t made = m->made - m->lent;   /* what a planned call's working region does not hold */
    nd->work_bytes = (int64_t)m->w.need;
    if (r.kind != V_NUM && r.kind != V_TENSOR) {
        interp_error(I, at, TypeError, "graph(): a %s computed from a traced tensor cannot be traced", val_kind_name(r));
        val_release(r);
        return dropped(k);
    }
    node_set_type(nd, r);
    if (r.kind == V_TENSOR)
        for (int i = 0; i < nops && !nd->view; i++)
            if (ops[i].kind == V_TRACE && ops[i].as.tr.t->storage == r.as.t->storage) {
                nd->view = true;
                nd->base = (int)ops[i].as.tr.node;
            }
    bool result_counted = r.kind == V_TENSOR && !nd->view && tl_storage_counted(r.as.t->storage);
    nd->working = made > (uint64_t)result_counted ? (int64_t)(made - result_counted) : 0;
    *out = trace_wrap(k, r);
    return out->kind == V_TRACE || (interp_error_rt(I, at), dropped(k));
}

/* Records an operator node over operands ops (templates made from them) whose example
   result is r (taken), and gives f the traced value. */
static bool operator_node(Interp *I, GNodeKind kind, int op, const Value *ops, int nops, Value r, const Measure *m, Span at,
                          Value *out)
{
    int k = node_add(tracing_graph, kind);
    Value *args = k >= 0 ? calloc((size_t)nops, sizeof *args) : NULL;
    if (!args) { val_release(r); interp_error(I, at, MemoryError, "out of memory"); return dropped(k); }
    GNode *nd = &tracing_graph->nodes[k];
    nd->op = op;
    nd->args = args;
    nd->npos = nops;
    for (int i = 0; i < nops; i++) args[i] = val_none();
    for (int i = 0; i < nops; i++)
        if (!template_of(I, ops[i], GRAPH_TRACE_DEPTH, at, &args[i])) { val_release(r); return dropped(k); }
    return node_finish(I, k, r, ops, nops, m, at, out);
}

bool graph_trace_binary(Interp *I, int op, Value a, Value b, Span at, Value *out)
{
    if (!trace_check(I, a, at) || !trace_check(I, b, at)) return false;
    Value ea = trace_example(a), eb = trace_example(b), r;
    Measure m;
    measure_begin(&m);
    bool ok = arith_binary(I, op, ea, eb, at, &r);
    measure_end(&m);
    val_release(ea);
    val_release(eb);
    Value ops[2] = { a, b };
    return ok && operator_node(I, GN_BINARY, op, ops, 2, r, &m, at, out);
}

bool graph_trace_unary(Interp *I, int op, Value a, Span at, Value *out)
{
    if (!trace_check(I, a, at)) return false;
    if (op == UOP_NOT) return interp_error(I, at, TypeError, GRAPH_NEEDS_VALUES " (not reads its truth value)");
    Value ea = trace_example(a), r;
    Measure m;
    measure_begin(&m);
    bool ok = arith_unary(I, (UnaryOp)op, ea, at, &r);
    measure_end(&m);
    val_release(ea);
    return ok && operator_node(I, GN_UNARY, op, &a, 1, r, &m, at, out);
}

/* Calls builtin bi on the example values of a's arguments. */
static bool call_on_examples(Interp *I, CallArgs *a, Value *r)
{
    int n = a->npos + a->nkw;
    Value *ex = calloc((size_t)(n ? n : 1), sizeof *ex);
    if (!ex) return interp_error(I, a->at, MemoryError, "out of memory");
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        Value v = i < a->npos ? a->pos[i] : a->kw[i - a->npos];
        ok = trace_check(I, v, a->at);
        ex[i] = ok ? example_of(v, GRAPH_TRACE_DEPTH) : val_none();
        if (ok && ex[i].kind == V_UNDEF) ok = interp_error_rt(I, a->at);
    }
    if (ok) {
        CallArgs ca = { .npos = a->npos, .pos = ex, .nkw = a->nkw, .kwnames = a->kwnames, .kw = ex + a->npos,
                        .at = a->at, .self = a->self };
        ok = builtin_call(I, &ca, r);
    }
    for (int i = 0; i < n; i++) val_release(ex[i]);
    free(ex);
    return ok;
}

bool graph_trace_builtin(Interp *I, CallArgs *a, Value *out)
{
    const Builtin *bi = a->self;
    /* where(cond) alone is nonzero: its shape depends on the values */
    if (bi->trace == BT_NO || (bi->family == BF_WHERE && a->npos + a->nkw != 3))
        return interp_error(I, a->at, TypeError, GRAPH_NEEDS_VALUES ": %s() cannot be traced", bi->name);
    Value r;
    Measure m;
    measure_begin(&m);
    bool called = call_on_examples(I, a, &r);
    measure_end(&m);
    if (!called) return false;
    if (bi->trace == BT_STATIC) { *out = r; return true; }
    int k = node_add(tracing_graph, GN_CALL);
    int n = a->npos + a->nkw;
    Value *args = k >= 0 ? calloc((size_t)(n ? n : 1), sizeof *args) : NULL;
    char **names = args ? calloc((size_t)(a->nkw ? a->nkw : 1), sizeof *names) : NULL;
    if (!names) { free(args); val_release(r); interp_error(I, a->at, MemoryError, "out of memory"); return dropped(k); }
    GNode *nd = &tracing_graph->nodes[k];
    nd->bi = bi;
    nd->args = args;
    nd->kwnames = names;
    for (int i = 0; i < n; i++) args[i] = val_none();
    nd->npos = a->npos;
    nd->nkw = a->nkw;
    for (int i = 0; i < a->nkw; i++)
        if (!(names[i] = strdup(a->kwnames[i]))) { val_release(r); interp_error(I, a->at, MemoryError, "out of memory"); return dropped(k); }
    for (int i = 0; i < n; i++)
        if (!template_of(I, i < a->npos ? a->pos[i] : a->kw[i - a->npos], GRAPH_TRACE_DEPTH, a->at, &args[i])) { val_release(r); return dropped(k); }
    return node_finish(I, k, r, a->pos, a->npos, &m, a->at, out);
}

bool graph_trace_index(Interp *I, Value base, int n, const tl_index_item *items, const Value *held, Span at, Value *out)
{
    if (!trace_check(I, base, at)) return false;
    Measure m;
    measure_begin(&m);
    tl_tensor *r = tl_index_get(base.as.tr.t, n, items);
    measure_end(&m);
    if (!r) return interp_error_rt(I, at);
    Value rv = val_from_tensor(r);
    int k = node_add(tracing_graph, GN_INDEX);
    Value *args = k >= 0 ? calloc((size_t)n + 1, sizeof *args) : NULL;
    tl_index_item *its = args ? calloc((size_t)(n ? n : 1), sizeof *its) : NULL;
    if (!its) { free(args); val_release(rv); interp_error(I, at, MemoryError, "out of memory"); return dropped(k); }
    GNode *nd = &tracing_graph->nodes[k];
    nd->args = args;
    nd->items = its;
    nd->nitems = n;
    nd->npos = n + 1;
    args[0] = node_ref((int)base.as.tr.node);
    for (int i = 0; i < n; i++) args[i + 1] = val_retain(held[i]);   /* keeps the index tensors alive */
    memcpy(its, items, sizeof *its * (size_t)n);
    return node_finish(I, k, rv, &base, 1, &m, at, out);
}

/* ---- building --------------------------------------------------------- */

/* The name of f's parameter i, for messages and print ("x"), or "argN". */
static char *param_name(Value f, int i)
{
    char buf[32];
    if (f.kind == V_FUNC && i < f.as.fn->def->nparams) return strdup(f.as.fn->def->params[i]);
    for (int k = 0; f.kind == V_GRAPH && k < f.as.g->n; k++)   /* a graph: its own argument's */
        if (f.as.g->nodes[k].kind == GN_INPUT && f.as.g->nodes[k].op == i) return strdup(f.as.g->nodes[k].name);
    snprintf(buf, sizeof buf, "arg%d", i + 1);
    return strdup(buf);
}

/* The result template: traced values become node references, anything else a constant. */
static bool output_template(Interp *I, Value v, Span at, Value *out)
{
    if (v.kind == V_TRACE || v.kind == V_TENSOR || v.kind == V_TUPLE)
        return trace_check(I, v, at) && template_of(I, v, GRAPH_TRACE_DEPTH, at, out);
    if (v.kind == V_NUM || v.kind == V_NONE) { *out = v; return true; }
    return interp_error(I, at, TypeError, "graph(): f must return tensors or a tuple of them, not a %s", val_kind_name(v));
}

bool interp_graph_build(Interp *I, CallArgs *a, Value *out)
{
    if (a->nkw) return interp_error(I, a->at, TypeError, "graph() does not take keyword arguments");
    if (a->npos < 1) return interp_error(I, a->at, TypeError, "graph() needs a function: graph(f, examples...)");
    Value f = a->pos[0];
    if (f.kind != V_FUNC && f.kind != V_BUILTIN && f.kind != V_GRAPH)
        return interp_error(I, a->at, TypeError, "graph(): f must be a function, not a %s", val_kind_name(f));
    if (graph_tracing) return interp_error(I, a->at, ValueError, "graph() cannot be called while another graph is traced");
    Graph *g = calloc(1, sizeof *g);
    if (!g) return interp_error(I, a->at, MemoryError, "out of memory");
    g->head = (ObjHead){ .refcount = 1, .free = graph_free, .write = graph_write };
    g->out = val_none();
    g->fname = strdup(f.kind == V_FUNC ? f.as.fn->def->name : f.kind == V_BUILTIN ? f.as.bi->name : f.as.g->fname);
    int nin = a->npos - 1;
    Value *args = calloc((size_t)(nin ? nin : 1), sizeof *args);
    bool ok = g->fname && args;
    if (!ok) interp_error(I, a->at, MemoryError, "out of memory");
    tracing_graph = g;
    catch_refused = false;
    graph_tracing = ++trace_serial ? trace_serial : ++trace_serial;
    for (int i = 0; i < nin && ok; i++) {
        Value e = a->pos[i + 1];
        if (e.kind != V_NUM && e.kind != V_TENSOR) {
            ok = interp_error(I, a->at, TypeError, "graph(): example %d must be a tensor or a number, not a %s", i + 1,
                              val_kind_name(e));
            break;
        }
        int k = node_add(g, GN_INPUT);
        if (k < 0) { ok = interp_error_rt(I, a->at); break; }
        GNode *nd = &g->nodes[k];
        nd->op = i;
        nd->weak = e.kind == V_NUM && e.weak;
        node_set_type(nd, e);
        if (!(nd->name = param_name(f, i))) { ok = interp_error(I, a->at, MemoryError, "out of memory"); break; }
        args[i] = trace_wrap(k, val_retain(e));
        if (args[i].kind != V_TRACE) ok = interp_error_rt(I, a->at);
        g->ninputs++;
    }
    Value r = val_none();
    if (ok) ok = interp_call(I, f, nin, args, a->at, &r);
    if (ok) ok = output_template(I, r, a->at, &g->out);
    val_release(r);
    for (int i = 0; i < nin; i++) val_release(args[i]);
    free(args);
    graph_tracing = 0;
    tracing_graph = NULL;
    leaves_clear();
    if (!ok) { graph_free(g); return false; }
    graph_plan(g);
    *out = (Value){ .kind = V_GRAPH };
    out->as.g = g;
    return true;
}

/* ---- calling ---------------------------------------------------------- */

/* What a call checks of a value: a number or a tensor, its dtype, weakness and shape (a live
   traced value's as its node records them, when g is called while another graph is traced). */
typedef struct Typed { bool number, weak; tl_dtype dtype; int ndim; const int64_t *shape; } Typed;

/* Fills t for v; false when v is none of those. */
static bool typed_of(Value v, Typed *t)
{
    if (v.kind == V_NUM) {
        *t = (Typed){ true, v.weak, val_dtype(v), 0, NULL };
    } else if (v.kind == V_TENSOR) {
        *t = (Typed){ false, false, v.as.t->dtype, v.as.t->ndim, v.as.t->shape };
    } else if (v.kind == V_TRACE && graph_trace_live(v)) {
        const GNode *nd = &tracing_graph->nodes[v.as.tr.node];
        *t = (Typed){ nd->number, nd->weak, nd->dtype, nd->ndim, nd->shape };
    } else {
        return false;
    }
    return true;
}

/* True when t has node nd's dtype, shape and kind (number or tensor). */
static bool same_shape_dtype(const GNode *nd, const Typed *t)
{
    return t->dtype == nd->dtype && t->number == nd->number &&
           (t->number || (t->ndim == nd->ndim && !memcmp(t->shape, nd->shape, sizeof *nd->shape * (size_t)nd->ndim)));
}

/* Checks argument i of g(...) against its example. */
static bool check_argument(Interp *I, const GNode *nd, Value v, Span at)
{
    char want[200], got[200], s[160];
    if (!trace_check(I, v, at)) return false;
    if (nd->number) snprintf(want, sizeof want, "a%s %s number", nd->weak ? " weak" : "", tl_dtype_name(nd->dtype));
    else snprintf(want, sizeof want, "a %s tensor of shape %s", tl_dtype_name(nd->dtype), tl_shape_str(nd->ndim, nd->shape, s, sizeof s));
    Typed t;
    if (!typed_of(v, &t))
        return interp_error(I, at, TypeError, "graph argument %d (%s) must be %s, not a %s", nd->op + 1, nd->name, want, val_kind_name(v));
    if (t.dtype != nd->dtype || t.number != nd->number || (nd->number && t.weak != nd->weak)) {
        if (t.number) snprintf(got, sizeof got, "a%s %s number", t.weak ? " weak" : "", tl_dtype_name(t.dtype));
        else snprintf(got, sizeof got, "a %s tensor", tl_dtype_name(t.dtype));
        return interp_error(I, at, TypeError, "graph argument %d (%s) must be %s, not %s", nd->op + 1, nd->name, want, got);
    }
    if (!same_shape_dtype(nd, &t))
        return interp_error(I, at, ValueError, "graph argument %d (%s) must have shape %s, not %s", nd->op + 1, nd->name,
                            tl_shape_str(nd->ndim, nd->shape, s, sizeof s), tl_shape_str(t.ndim, t.shape, got, sizeof got));
    return true;
}

/* A template with node references replaced by their values (a new reference). */
static Value instantiate(Value t, int depth, const Value *vals)
{
    if (t.kind == V_TRACE) return val_retain(vals[t.as.tr.node]);
    if (t.kind != V_TUPLE || !has_trace(t, depth)) return val_retain(t);
    Value r = val_tuple_new(t.as.tu->n);
    if (r.kind != V_TUPLE) return r;
    for (int i = 0; i < t.as.tu->n; i++) r.as.tu->items[i] = instantiate(t.as.tu->items[i], depth - 1, vals);
    return r;
}

/* Computes node k from the values of the nodes before it (a builtin writing into `into` when not NULL). */
static bool run_node(Interp *I, const GNode *nd, Value *vals, tl_tensor *into, Span at, Value *r)
{
    int n = nd->npos + nd->nkw;
    Value small[8], *args = n <= 8 ? small : calloc((size_t)n, sizeof *args);
    if (!args) return interp_error(I, at, MemoryError, "out of memory");
    bool ok = true;
    for (int i = 0; i < n; i++) {
        args[i] = instantiate(nd->args[i], GRAPH_TRACE_DEPTH, vals);
        if (args[i].kind == V_UNDEF) ok = false;
    }
    if (!ok) {
        ok = interp_error_rt(I, at);
    } else if (nd->kind == GN_BINARY) {
        ok = arith_binary_to(I, nd->op, args[0], args[1], at, into, r);
    } else if (nd->kind == GN_UNARY) {
        ok = arith_unary_to(I, (UnaryOp)nd->op, args[0], at, into, r);
    } else if (nd->kind == GN_CALL) {   /* traced arguments: g is called while another graph is traced */
        CallArgs ca = { .npos = nd->npos, .pos = args, .nkw = nd->nkw, .kwnames = (const char *const *)nd->kwnames,
                        .kw = args + nd->npos, .at = at, .self = nd->bi, .into = into };
        ok = graph_tracing && graph_args_traced(&ca) ? graph_trace_builtin(I, &ca, r) : builtin_call(I, &ca, r);
    } else if (args[0].kind == V_TRACE) {
        ok = graph_trace_index(I, args[0], nd->nitems, nd->items, args + 1, at, r);
    } else {
        tl_tensor *t = val_to_tensor(args[0]);
        tl_tensor *x = t ? tl_index_get_to(t, nd->nitems, nd->items, into) : NULL;
        if (t) tl_tensor_release(t);
        ok = x ? (*r = val_from_tensor(x), true) : interp_error_rt(I, at);
    }
    for (int i = 0; i < n; i++) val_release(args[i]);
    if (args != small) free(args);
    return ok;
}

/* True when v has the dtype and shape node nd had when traced. */
static bool same_type(const GNode *nd, Value v)
{
    Typed t;
    return typed_of(v, &t) && same_shape_dtype(nd, &t);
}

/* True when every tensor argument has its example's strides: the kernels then lay out every
   intermediate as when traced, so the plan (fused programs, arena) holds. */
static bool laid_out_as_examples(const Graph *g, const CallArgs *a)
{
    for (int k = 0; k < g->n; k++) {
        const GNode *nd = &g->nodes[k];
        Value v = nd->kind == GN_INPUT ? a->pos[nd->op] : val_none();
        if (v.kind == V_TENSOR && memcmp(v.as.t->strides, nd->strides, sizeof *nd->strides * (size_t)nd->ndim)) return false;
    }
    return true;
}

/* Computes node k alone (into its arena buffer when planned there) and checks its type. */
static bool run_alone(Interp *I, Graph *g, int k, Value *vals, bool planned, Span at)
{
    const GNode *nd = &g->nodes[k];
    tl_tensor *into = planned && nd->offset >= 0 ? graph_arena_view(g, nd) : NULL;
    if (planned && nd->offset >= 0 && !into) return interp_error_rt(I, at);
    uint64_t before = tl_storage_count();
    /* its working tensors take the arena's working region (sized by the largest that
       tracing measured); a planned call runs one node at a time, so they all share it */
    tl_workspace w;
    bool lend = planned && nd->work_bytes > 0 && g->work_bytes > 0;
    if (lend) tl_workspace_begin(&w, g->arena, (size_t)g->work_offset, (size_t)g->work_bytes);
    int rc = into ? graph_run_product(g, k, vals, into) : 0;
    bool ok = rc < 0 ? interp_error_rt(I, at) : rc > 0 || run_node(I, nd, vals, into, at, &vals[k]);
    if (lend && tl_workspace_end(&w) < 0 && ok) ok = interp_error_rt(I, at);
    if (into) tl_tensor_release(into);
    if (ok && planned) {   /* what its kernel allocated besides its result, for print(g) */
        Value v = vals[k];
        /* a result outside the arena counts too when the plan gave the node a region there */
        bool fresh = v.kind == V_TENSOR && !nd->view && nd->offset < 0 && tl_storage_counted(v.as.t->storage);
        uint64_t made = tl_storage_count() - before;
        g->nodes[k].working = made > (uint64_t)fresh ? (int64_t)(made - fresh) : 0;
    }
    if (ok && !same_type(nd, vals[k]))
        ok = interp_error(I, at, ValueError, "graph of %s(): node %d's shape depends on the values of its inputs", g->fname, k);
    return ok;
}

/* What release_one needs: the values, the step that ran, how lifetimes are counted. */
typedef struct Release { Graph *g; Value *vals; int step; bool planned; } Release;

/* Releases vals[j] when no step after the one that ran reads it. */
static void release_one(void *ctx, int j, int user)
{
    Release *r = ctx;
    (void)user;
    if ((r->planned ? r->g->nodes[j].release : r->g->nodes[j].last_use) == r->step) {
        val_release(r->vals[j]);
        r->vals[j] = val_none();
    }
}

/* Releases vals[j] for each node j that node m reads and no step after step k reads
   (planned: by steps; else by nodes, k == m). */
static void release_inputs(Graph *g, int m, int k, Value *vals, bool planned)
{
    const GNode *nd = &g->nodes[m];
    Release r = { g, vals, k, planned };
    for (int i = 0; i < nd->npos + nd->nkw; i++) graph_each_ref(nd->args[i], m, release_one, &r);
}

/* Computes step k: node k alone, or the fused group whose last node it is (one by one
   when its program declines this call's values). */
static bool run_step(Interp *I, Graph *g, int k, Value *vals, bool planned, Span at)
{
    const GNode *nd = &g->nodes[k];
    if (!planned || nd->fgroup < 0) {
        bool ok = run_alone(I, g, k, vals, planned, at);
        release_inputs(g, k, k, vals, planned);
        return ok;
    }
    GFused *f = &g->fused[nd->fgroup];
    if (k != f->last) return true;   /* runs with its group's last node */
    int rc = graph_fuse_run(g, f, vals, true);
    if (rc < 0) return interp_error_rt(I, at);
    bool ok = true;
    for (int i = 0; i < f->nmembers && ok && rc == 0; i++) ok = run_alone(I, g, f->member[i], vals, false, at);
    for (int i = 0; i < f->nmembers; i++) release_inputs(g, f->member[i], k, vals, planned);
    return ok;
}

bool graph_call(Interp *I, Graph *g, CallArgs *a, Value *out)
{
    if (a->nkw) return interp_error(I, a->at, TypeError, "a graph does not take keyword arguments");
    if (a->npos != g->ninputs)
        return interp_error(I, a->at, TypeError, "graph of %s() takes %d argument%s, not %d", g->fname, g->ninputs,
                            g->ninputs == 1 ? "" : "s", a->npos);
    for (int k = 0; k < g->n; k++)
        if (g->nodes[k].kind == GN_INPUT && !check_argument(I, &g->nodes[k], a->pos[g->nodes[k].op], a->at)) return false;
    /* The plan holds when the arguments are laid out as the examples were; a call from inside
       one of the graph's own nodes, or other layouts, run node by node with fresh storages, and
       so does a call with traced values (f calls g while graph() traces f, or g is f): each node
       then records its node in the graph being built, as its operator or builtin does. */
    bool traced = graph_tracing && graph_args_traced(a);
    bool planned = !traced && !g->running && laid_out_as_examples(g, a);
    if (planned && g->arena_bytes > 0 && !g->arena && !(g->arena = tl_storage_new((size_t)g->arena_bytes, false)))
        return interp_error_rt(I, a->at);
    Value *vals = calloc((size_t)(g->n ? g->n : 1), sizeof *vals);
    if (!vals) return interp_error(I, a->at, MemoryError, "out of memory");
    bool ok = true;
    bool was_running = g->running;
    g->running = true;
    for (int k = 0; k < g->n; k++) {   /* leaves first: a leaf is numbered after the node that found it */
        const GNode *nd = &g->nodes[k];
        vals[k] = nd->kind == GN_INPUT ? val_retain(a->pos[nd->op]) : nd->kind == GN_LEAF ? val_retain(nd->leaf) : val_none();
    }
    for (int k = 0; k < g->n && ok; k++) {
        const GNode *nd = &g->nodes[k];
        if (tl_interrupt_flag) { ok = interp_error(I, a->at, Interrupt, "interrupted"); break; }
        if (nd->kind != GN_INPUT && nd->kind != GN_LEAF) ok = run_step(I, g, k, vals, planned, a->at);
    }
    if (ok) {
        *out = instantiate(g->out, GRAPH_TRACE_DEPTH, vals);
        if (out->kind == V_UNDEF) ok = interp_error_rt(I, a->at);
    }
    for (int k = 0; k < g->n; k++) val_release(vals[k]);
    free(vals);
    if (ok && planned) graph_count_working(g);
    g->running = was_running;
    return ok;
}
