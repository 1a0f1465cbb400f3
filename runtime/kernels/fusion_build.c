/* kernels/fusion_build.c — building fused programs: each node's dtypes, loop choice and shape, as eager picks them */
#include <string.h>

#include "../fusion.h"
#include "elem.h"
#include "kern.h"
#include "reduce_loops.h"

void tl_fuse_init(tl_fuse_prog *p) { p->n = 0; }

/* A fresh node of kind k, or NULL with the error set when p is full. */
static tl_fuse_node *new_node(tl_fuse_prog *p, tl_fuse_kind k)
{
    if (p->n >= TL_FUSE_MAX_NODES) {
        tl_seterr(ValueError, "fused program: more than %d nodes", TL_FUSE_MAX_NODES);
        return NULL;
    }
    tl_fuse_node *n = &p->node[p->n];
    memset(n, 0, sizeof *n);
    n->kind = k;
    n->in[0] = n->in[1] = n->in[2] = -1;
    return n;
}

/* -1 with a "not fusable" error: the caller evaluates this part eagerly. */
static int refuse(const char *why)
{
    tl_seterr(ValueError, "fused program: %s", why);
    return -1;
}

/* True when i names an existing node of p. */
static bool valid(const tl_fuse_prog *p, int i) { return i >= 0 && i < p->n; }

static bool is_scalar(const tl_fuse_prog *p, int i) { return p->node[i].kind == TL_FUSE_SCALAR; }

static int64_t node_size(const tl_fuse_node *n)
{
    int64_t s = 1;
    for (int d = 0; d < n->ndim; d++) s *= n->shape[d];
    return s;
}

/* Sets n's shape to the broadcast of its operands' shapes; -1 when they do not broadcast. */
static int broadcast_operands(const tl_fuse_prog *p, tl_fuse_node *n)
{
    n->ndim = 0;
    for (int k = 0; k < 3 && n->in[k] >= 0; k++) {
        const tl_fuse_node *o = &p->node[n->in[k]];
        int nd;
        int64_t shape[TL_MAXDIM];
        if (tl_broadcast_shapes(n->ndim, n->shape, o->ndim, o->shape, &nd, shape) < 0) return -1;
        n->ndim = nd;
        memcpy(n->shape, shape, sizeof shape[0] * (size_t)nd);
    }
    return 0;
}

/* Appends the node being built (the slot at p->n) and returns its index. */
static int commit(tl_fuse_prog *p) { return p->n++; }

int tl_fuse_leaf(tl_fuse_prog *p, const tl_tensor *t)
{
    if (!t || (unsigned)t->dtype >= TL_NDTYPES) return refuse("invalid leaf");
    tl_fuse_node *n = new_node(p, TL_FUSE_LEAF);
    if (!n) return -1;
    n->t = t;
    n->dtype = n->cdt = t->dtype;
    n->ndim = t->ndim;
    memcpy(n->shape, t->shape, sizeof t->shape[0] * (size_t)t->ndim);
    return commit(p);
}

int tl_fuse_scalar(tl_fuse_prog *p, tl_dtype dt, const void *bytes)
{
    if ((unsigned)dt >= TL_NDTYPES) return refuse("invalid scalar");
    tl_fuse_node *n = new_node(p, TL_FUSE_SCALAR);
    if (!n) return -1;
    n->dtype = n->cdt = dt;
    memcpy(n->bytes, bytes, tl_dtype_size(dt));
    return commit(p);
}

/* The scalar node s's value converted to dtype dt, as a double. */
static double scalar_as(const tl_fuse_prog *p, int s, tl_dtype dt)
{
    tl_scalar v;
    tl_convert_run(1, p->node[s].bytes, p->node[s].dtype, 0, &v, dt, 0);
    return tl_scalar_to_f64(&v, dt);
}

/* x ** e for a scalar e that tl_binary turns into another operation (tl_pow_shortcut_of:
   x*x, sqrt(x), x, 1/x); -2 when e is not one of those. */
static int power_shortcut(tl_fuse_prog *p, tl_dtype cdt, int a, int b)
{
    tl_pow_shortcut how = tl_pow_shortcut_of(cdt, p->node[b].bytes, p->node[b].dtype);
    if (how == TL_POW_SQUARE) return tl_fuse_binary(p, TL_MUL, cdt, a, a);
    if (how == TL_POW_COPY) return tl_fuse_cast(p, cdt, a);
    if (how == TL_POW_SQRT) {
        int x = p->node[a].dtype == cdt ? a : tl_fuse_cast(p, cdt, a);
        return x < 0 ? -1 : tl_fuse_unary(p, TL_SQRT, x);
    }
    if (how == TL_POW_RECIPROCAL) {
        double one = 1;
        tl_scalar o;
        tl_scalar_convert(&o, cdt, &one, TL_F64);
        int s = tl_fuse_scalar(p, cdt, &o);
        return s < 0 ? -1 : tl_fuse_binary(p, TL_DIV, cdt, s, a);
    }
    return -2;
}

int tl_fuse_binary(tl_fuse_prog *p, tl_binop op, tl_dtype dt, int a, int b)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)dt >= TL_NDTYPES || !valid(p, a) || !valid(p, b))
        return refuse("invalid binary node");
    if (is_scalar(p, a) && is_scalar(p, b)) return refuse("an operator over two scalars");
    tl_dtype cdt = tl_binop_compute_dtype(op, dt);
    if (!tl_binary_loop(op, cdt)) return refuse("operator not supported for the dtype");
    if (op == TL_POW && (tl_is_float(cdt) || tl_is_complex(cdt))) {
        /* tl_binary's shortcuts for a 0-d exponent; a complex power to a one-element exponent,
           and a float one to a one-element array, are left to tl_binary */
        if (!is_scalar(p, b) || tl_is_complex(cdt)) {
            int64_t bs = 1;
            for (int d = 0; d < p->node[b].ndim; d++) bs *= p->node[b].shape[d];
            if (bs == 1) return refuse("a power with a one-element exponent");
        } else {
            int r = power_shortcut(p, cdt, a, b);
            if (r != -2) return r;
        }
    }
    if (tl_is_int(cdt) && tl_int_operand_checked(op)) {
        /* integer // % ** check their right operand first: only a known-good scalar */
        if (!is_scalar(p, b)) return refuse("integer // % ** over a tensor divisor or exponent");
        double v = scalar_as(p, b, cdt);
        if (op == TL_POW ? v < 0 : v == 0) return refuse("integer // % ** by a zero or negative scalar");
    }
    tl_fuse_node *n = new_node(p, TL_FUSE_BINARY);
    if (!n) return -1;
    n->op = (int)op;
    n->cdt = cdt;
    n->dtype = tl_binop_result_dtype(op, dt);
    n->in[0] = a;
    n->in[1] = b;
    if (broadcast_operands(p, n) < 0) return -1;
    return commit(p);
}

/* True when eager's tl_unary over leaf t (already of dtype cdt) would hand the
   loop strided runs, where the SIMD loops fall back to the portable ones. */
static bool eager_runs_strided(const tl_tensor *t)
{
    if (tl_is_contiguous(t)) return false;   /* tl_iter_init's one flat run */
    int64_t item = (int64_t)tl_dtype_size(t->dtype), cstr[TL_MAXDIM];
    int64_t bstrides[2][TL_MAXDIM];
    tl_contiguous_strides(t->ndim, t->shape, cstr);
    for (int d = 0; d < t->ndim; d++) {
        bstrides[0][d] = cstr[d] * item;
        bstrides[1][d] = t->strides[d] * item;
    }
    char *base[2] = { t->storage->data, t->storage->data };
    tl_iter it;
    if (tl_iter_plan(&it, 2, t->ndim, t->shape, base, (const int64_t(*)[TL_MAXDIM])bstrides) < 0) return true;
    int in = it.ndim - 1;
    return it.size > 0 && (it.bstrides[0][in] != item || it.bstrides[1][in] != item);
}

int tl_fuse_unary(tl_fuse_prog *p, tl_unop op, int a)
{
    if ((unsigned)op >= TL_NUNOPS || !valid(p, a)) return refuse("invalid unary node");
    if (is_scalar(p, a)) return refuse("a function of a scalar");
    const tl_fuse_node *x = &p->node[a];
    tl_dtype cdt = tl_unop_compute_dtype(op, x->dtype);
    tl_inner_fn simd = tl_simd_unary_loop(op, cdt);
    if (!simd && !tl_unary_loop(op, cdt)) return refuse("function not supported for the dtype");
    tl_fuse_node *n = new_node(p, TL_FUSE_UNARY);
    if (!n) return -1;
    n->op = (int)op;
    n->cdt = cdt;
    n->dtype = tl_unop_result_dtype(op, x->dtype);
    n->in[0] = a;
    n->ndim = x->ndim;
    memcpy(n->shape, x->shape, sizeof x->shape[0] * (size_t)x->ndim);
    n->via_f32 = tl_is_half(cdt) && node_size(n) >= TL_HALF_VIA_F32_MIN && tl_unary_loop(op, TL_F32);
    n->portable = !n->via_f32 && simd && x->kind == TL_FUSE_LEAF && x->dtype == cdt && eager_runs_strided(x->t);
    return commit(p);
}

int tl_fuse_cast(tl_fuse_prog *p, tl_dtype dt, int a)
{
    if ((unsigned)dt >= TL_NDTYPES || !valid(p, a)) return refuse("invalid cast node");
    if (is_scalar(p, a)) return refuse("a cast of a scalar");
    tl_fuse_node *n = new_node(p, TL_FUSE_CAST);
    if (!n) return -1;
    n->dtype = n->cdt = dt;
    n->in[0] = a;
    if (broadcast_operands(p, n) < 0) return -1;
    return commit(p);
}

int tl_fuse_where(tl_fuse_prog *p, tl_dtype dt, int c, int a, int b)
{
    if ((unsigned)dt >= TL_NDTYPES || !valid(p, c) || !valid(p, a) || !valid(p, b)) return refuse("invalid where node");
    tl_fuse_node *n = new_node(p, TL_FUSE_WHERE);
    if (!n) return -1;
    n->dtype = n->cdt = dt;
    n->in[0] = c;
    n->in[1] = a;
    n->in[2] = b;
    if (broadcast_operands(p, n) < 0) return -1;
    if (n->ndim == 0) return refuse("where over scalars");
    return commit(p);
}

int tl_fuse_reduce(tl_fuse_prog *p, tl_redop op, int a)
{
    if (!valid(p, a)) return refuse("invalid reduction node");
    const tl_fuse_node *x = &p->node[a];
    if (op != TL_RSUM && op != TL_RMEAN && op != TL_RMAX && op != TL_RMIN) return refuse("reduction not fusable");
    if ((x->dtype != TL_F32 && x->dtype != TL_F64) || x->ndim < 1 || x->shape[x->ndim - 1] < 1)
        return refuse("reduction of a non-f32/f64 or empty row");
    /* eager's other values are C-contiguous; a leaf's rows may be laid out otherwise */
    if (x->kind == TL_FUSE_LEAF && !tl_reduce_rows_contiguous(x->t))
        return refuse("reduction of a leaf whose rows eager reduces in another order");
    tl_fuse_node *n = new_node(p, TL_FUSE_REDUCE);
    if (!n) return -1;
    n->op = (int)op;
    n->dtype = n->cdt = x->dtype;
    n->in[0] = a;
    n->ndim = x->ndim;
    memcpy(n->shape, x->shape, sizeof x->shape[0] * (size_t)x->ndim);
    n->shape[n->ndim - 1] = 1;
    return commit(p);
}
