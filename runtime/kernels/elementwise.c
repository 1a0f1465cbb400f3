/* kernels/elementwise.c — binary and unary elementwise ops, where, clip: dispatch to the loops (the dtype rules: op_rules.c) */
#include <pthread.h>
#include <string.h>

#include "elem.h"
#include "kern.h"

/* ---- helpers ---------------------------------------------------------------- */

/* t itself (retained) when it already has dtype dt, else a converted copy. */
/* True when writing out while reading x (broadcast to out's shape) element
   by element cannot clobber an element of x before it is read: no shared
   bytes, or x is exactly out's own layout (x += y). */
static bool alias_safe(const tl_tensor *out, const tl_tensor *x)
{
    int64_t olo, ohi, xlo, xhi;
    if (out->storage != x->storage) return true;
    if (!tl_byte_range(out, &olo, &ohi) || !tl_byte_range(x, &xlo, &xhi)) return true;
    if (olo >= xhi || xlo >= ohi) return true;
    if (tl_dtype_size(out->dtype) != tl_dtype_size(x->dtype) || tl_tensor_data(out) != tl_tensor_data(x))
        return false;
    for (int d = 0; d < out->ndim; d++) {
        if (out->shape[d] == 1) continue;
        int xd = d - (out->ndim - x->ndim);
        int64_t xs = (xd >= 0 && x->shape[xd] != 1) ? x->strides[xd] : 0;
        if (xs != out->strides[d]) return false;
    }
    return true;
}

/* Scans an integer tensor: sets *found when an element is zero (want_zero) or
   negative (otherwise). Elements are little-endian integers of `size` bytes. */
typedef struct scan_aux { int size; bool want_zero, is_signed, found; } scan_aux;

static void scan_inner(int64_t n, char **p, const int64_t *s, void *vaux)
{
    scan_aux *a = vaux;
    const char *q = p[0];
    for (int64_t i = 0; i < n && !a->found; i++, q += s[0]) {
        if (a->want_zero) {
            bool zero = true;
            for (int k = 0; k < a->size; k++) zero = zero && q[k] == 0;
            a->found = zero;
        } else {
            a->found = a->is_signed && (q[a->size - 1] & 0x80);
        }
    }
}

/* Sets up the scan of integer op's right operand in cdt (zeros for // and %,
   negatives for signed **); false when op has no rule for cdt. */
static bool int_operand_scan(tl_binop op, tl_dtype cdt, scan_aux *aux)
{
    if (!tl_is_int(cdt) || !tl_int_operand_checked(op)) return false;
    if (op == TL_POW && tl_dtype_kind(cdt) == TL_KIND_UINT) return false;
    *aux = (scan_aux){ (int)tl_dtype_size(cdt), op != TL_POW, tl_dtype_kind(cdt) == TL_KIND_INT, false };
    return true;
}

/* The error of a scan that found a rejected operand: -1. */
static int int_operand_failed(tl_binop op, const scan_aux *aux)
{
    (void)op;   /* want_zero is set for // and %, the operators that reject a zero */
    if (aux->want_zero) tl_seterr(ZeroDivisionError, TL_ERR_INT_DIV_ZERO);
    else tl_seterr(ValueError, TL_ERR_INT_NEG_POW);
    return -1;
}

/* Rejects integer // and % by zero and integer ** with a negative exponent
   before anything is written, so a failed op leaves its output untouched. */
static int check_int_operands(tl_binop op, tl_dtype cdt, const tl_tensor *b)
{
    scan_aux aux;
    if (!int_operand_scan(op, cdt, &aux)) return 0;
    tl_iter it;
    const tl_tensor *ops[1] = { b };
    if (tl_iter_init(&it, 1, ops, b->ndim, b->shape) < 0) return -1;
    if (tl_iter_run(&it, scan_inner, &aux) < 0) return -1;
    return aux.found ? int_operand_failed(op, &aux) : 0;
}

/* The inner loop and dtypes of every (operator, dtype) pair, resolved once:
   looking them up costs more than a small tensor's arithmetic. */
typedef struct binary_plan {
    tl_inner_fn fn;      /* NULL: the operator does not support the dtype */
    tl_dtype cdt, rdt;   /* compute and result dtypes */
    bool over;           /* dt OP dt may be written over its left operand (see tl_binary_over) */
} binary_plan;

static binary_plan binary_plans[TL_NBINOPS][TL_NDTYPES];
static pthread_once_t binary_plans_once = PTHREAD_ONCE_INIT;
static bool binary_plans_ready;

static void resolve_binary_plans(void)
{
    for (int op = 0; op < TL_NBINOPS; op++)
        for (int dt = 0; dt < TL_NDTYPES; dt++) {
            binary_plan *p = &binary_plans[op][dt];
            p->cdt = tl_binop_compute_dtype((tl_binop)op, (tl_dtype)dt);
            p->rdt = tl_binop_result_dtype((tl_binop)op, (tl_dtype)dt);
            p->fn = tl_simd_binary_loop((tl_binop)op, p->cdt);
            if (!p->fn) p->fn = tl_binary_loop((tl_binop)op, p->cdt);
            p->over = p->fn && p->cdt == (tl_dtype)dt && p->rdt == (tl_dtype)dt && op != TL_POW &&
                      !(tl_is_int(p->cdt) && tl_int_operand_checked((tl_binop)op));
        }
    __atomic_store_n(&binary_plans_ready, true, __ATOMIC_RELEASE);
}

/* The plan for op over dt (both already range-checked). */
static inline const binary_plan *binary_plan_for(tl_binop op, tl_dtype dt)
{
    if (!__atomic_load_n(&binary_plans_ready, __ATOMIC_ACQUIRE)) pthread_once(&binary_plans_once, resolve_binary_plans);
    return &binary_plans[op][dt];
}

static int binary_loop_for(tl_binop op, tl_dtype dt, tl_dtype *cdt, tl_inner_fn *fn)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)dt >= TL_NDTYPES) {
        tl_seterr(ValueError, "invalid binary operator");
        return -1;
    }
    const binary_plan *p = binary_plan_for(op, dt);
    *cdt = p->cdt;
    *fn = p->fn;
    if (!*fn) {
        tl_seterr(TypeError, "%s is not supported for dtype %s", tl_binop_name(op), tl_dtype_name(dt));
        return -1;
    }
    return 0;
}

/* Streaming stores pay off only when the output cannot stay in cache. */
static tl_simd_hint hint_for(const tl_tensor *out)
{
    tl_simd_hint h = { tl_tensor_size(out) * (int64_t)tl_dtype_size(out->dtype) >= TL_STREAM_BYTES };
    return h;
}

static int run_binary(tl_inner_fn fn, tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    tl_iter it;
    const tl_tensor *ops[3] = { out, a, b };
    if (tl_iter_init(&it, 3, ops, out->ndim, out->shape) < 0) return -1;
    tl_simd_hint h = hint_for(out);
    return tl_kern_run(&it, fn, &h);
}

/* Converts a and b to cdt and checks integer operands; both or neither returned. */
static int prepare_operands(tl_binop op, tl_dtype cdt, const tl_tensor *a, const tl_tensor *b,
                            tl_tensor **ca, tl_tensor **cb)
{
    *ca = tl_as_dtype(a, cdt);
    if (!*ca) return -1;
    *cb = tl_as_dtype(b, cdt);
    /* an empty a makes the result empty (or the shapes fail to broadcast): numpy
       computes nothing then, so no exponent or divisor can be an error */
    if (!*cb || (tl_tensor_size(a) > 0 && check_int_operands(op, cdt, *cb) < 0)) {
        tl_tensor_release(*ca);
        if (*cb) tl_tensor_release(*cb);
        return -1;
    }
    return 0;
}

/* ---- f16 / bf16 through f32 ------------------------------------------------------
   The f16 loops widen each element with a call; for big tensors it is much
   faster to widen whole operands with the SIMD casts, run the f32 kernels and
   round once at the end. The bits are the same: the half loops also compute
   in f32 and round once (but for the zero minimum and maximum keep, see
   half_binary_via_f32). bf16 widens with a shift, so only its unary
   functions (which gain the SIMD f32 versions) take this path. */

/* t in dtype d (rounded there first), then widened to f32. */
static tl_tensor *half_to_f32(const tl_tensor *t, tl_dtype d)
{
    tl_tensor *h = tl_as_dtype(t, d);
    if (!h) return NULL;
    tl_tensor *w = tl_cast(h, TL_F32);
    tl_tensor_release(h);
    return w;
}

static tl_tensor *finish_half(tl_tensor *r, tl_dtype rdt)
{
    if (!r || r->dtype == rdt) return r;
    tl_tensor *c = tl_cast(r, rdt);
    tl_tensor_release(r);
    return c;
}

/* Does op over f16 operands of n elements go through f32 (binary_via_f32)? Not minimum and
   maximum: of two equal operands (-0 and 0) the f16 loops keep the first, as numpy's f16
   loops do, where the f32 SIMD loops keep the second, as numpy's f32 ones do. */
static bool half_binary_via_f32(tl_binop op, int64_t n)
{
    return n >= TL_HALF_VIA_F32_MIN && op != TL_MINIMUM && op != TL_MAXIMUM;
}

static tl_tensor *binary_via_f32(tl_binop op, const tl_tensor *a, const tl_tensor *b, tl_dtype cdt)
{
    tl_tensor *wa = half_to_f32(a, cdt), *wb = wa ? half_to_f32(b, cdt) : NULL, *r = NULL;
    if (wa && wb) r = tl_binary(op, wa, wb, TL_F32);
    if (wa) tl_tensor_release(wa);
    if (wb) tl_tensor_release(wb);
    return finish_half(r, tl_binop_result_dtype(op, cdt));
}

/* a ** b for a 0-d b whose value numpy computes another way (tl_pow_shortcut_of: x*x, sqrt(x),
   x or 1/x). Only a 0-d b: numpy's arrays take the general power for a one-element b of shape
   (1,) (f64([-0.]) ** [0.5] is 0., not sqrt's -0.). Returns NULL with *done false when the
   exponent is none of those. */
static tl_tensor *scalar_power(const tl_tensor *a, const tl_tensor *b, tl_dtype cdt, bool *done)
{
    *done = false;
    if (b->ndim != 0) return NULL;
    tl_pow_shortcut how = tl_pow_shortcut_of(cdt, tl_tensor_data(b), b->dtype);
    if (how == TL_POW_GENERAL) return NULL;
    *done = true;
    tl_tensor *x = tl_as_dtype(a, cdt), *r = NULL;
    if (!x) return NULL;
    if (how == TL_POW_SQUARE) {
        r = tl_binary(TL_MUL, x, x, cdt);
    } else if (how == TL_POW_SQRT) {
        r = tl_unary(TL_SQRT, x);
    } else if (how == TL_POW_COPY) {
        r = tl_cast(x, cdt);
    } else if (tl_is_complex(cdt)) {
        r = tl_unary(TL_RECIPROCAL, x);
    } else {
        tl_tensor *o = tl_tensor_from_f64(cdt, 1.0);
        r = o ? tl_binary(TL_DIV, o, x, cdt) : NULL;
        if (o) tl_tensor_release(o);
    }
    tl_tensor_release(x);
    return r;
}

/* ---- small operands ----------------------------------------------------------------
   At the prompt and in loops most operands are a handful of elements; there,
   planning an iteration costs more than the arithmetic. Two contiguous
   operands of one shape, already of the compute dtype, go straight to the
   inner loop as one run. */

#define SMALL_DIRECT_MAX 4096   /* elements; larger work goes through the planner and threads */

/* Integer //, % and ** check their right operand before writing anything. */
static bool needs_int_check(tl_binop op, tl_dtype cdt)
{
    return tl_is_int(cdt) && tl_int_operand_checked(op);
}

/* The element count when a and b, of one dtype, are one dense run of one shape
   and at most SMALL_DIRECT_MAX elements, else -1. One pass checks shape,
   contiguity and size together, since this runs once per loop step. */
static inline int64_t dense_run_count(const tl_tensor *a, const tl_tensor *b)
{
    int nd = a->ndim;
    if (nd != b->ndim) return -1;
    int64_t n = 1;
    bool dense = true;
    for (int i = nd - 1; i >= 0; i--) {
        int64_t d = a->shape[i];
        if (d != b->shape[i]) return -1;
        /* size-1 axes never break contiguity (numpy's relaxed rule) */
        if (d != 1) dense &= (a->strides[i] == n) & (b->strides[i] == n);
        n *= d;   /* a exists, so the product cannot overflow */
    }
    return n <= SMALL_DIRECT_MAX && (dense || n == 0) ? n : -1;
}

/* The element count when t is one dense run of at most SMALL_DIRECT_MAX elements, else -1. */
static inline int64_t dense_count(const tl_tensor *t)
{
    int64_t n = 1;
    bool dense = true;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1) dense &= t->strides[i] == n;
        n *= t->shape[i];
    }
    return n <= SMALL_DIRECT_MAX && (dense || n == 0) ? n : -1;
}

/* The element count when a and b can run as one direct run, else -1: one dense run of one
   shape, or (x * 2, 1 / x) one such run of two elements or more and a single element with
   no more dimensions, which the run reads again for each element, as a broadcast does
   (*scalar: 1 for a, 2 for b; else 0). */
static inline int64_t small_direct_count(tl_binop op, tl_dtype cdt, const tl_tensor *a, const tl_tensor *b, int *scalar)
{
    *scalar = 0;
    if (needs_int_check(op, cdt)) return -1;
    if (a->dtype == cdt && b->dtype == cdt) {
        int64_t n = dense_run_count(a, b);
        if (n >= 0) return n;
    }
    /* the single element may be of another dtype (x * 2: an i64 2): run_small_direct converts it */
    if (a->dtype == cdt && b->ndim <= a->ndim && tl_tensor_size(b) == 1) *scalar = 2;
    else if (b->dtype == cdt && a->ndim <= b->ndim && tl_tensor_size(a) == 1) *scalar = 1;
    else return -1;
    /* a run of one element keeps its old path: with a stride of 0 some complex loops give a
       nan another sign (inf * (nan + 0j)) than the one-element scalar arithmetic */
    int64_t n = dense_count(*scalar == 2 ? a : b);
    if (n < 2) {
        *scalar = 0;
        return -1;
    }
    return n;
}

/* fn over the n elements of contiguous a and b into contiguous out, as one run, in a's
   dtype (b's when a is the scalar); operand `scalar` (1: a, 2: b; 0: neither) is one
   element, copied (converted to that dtype as tl_as_dtype would) and read with stride 0. */
static inline void run_small_direct(tl_inner_fn fn, int64_t n, tl_tensor *out, const tl_tensor *a, const tl_tensor *b,
                                    int scalar)
{
    if (n == 0) return;
    const tl_tensor *run = scalar == 1 ? b : a, *one = scalar == 1 ? a : b;
    char *pa = tl_tensor_data(a);
    char *ptrs[3] = { out == a ? pa : tl_tensor_data(out), pa, tl_tensor_data(b) };
    tl_scalar conv;   /* a copy, also when no conversion is needed: out may hold the element (x *= x[:1]) */
    if (scalar) {
        tl_convert_run(1, tl_tensor_data(one), one->dtype, 0, &conv, run->dtype, 0);
        ptrs[scalar] = (char *)&conv;
    }
    int64_t item = (int64_t)tl_dtype_size(run->dtype);
    int64_t strides[3] = { out->dtype == run->dtype ? item : (int64_t)tl_dtype_size(out->dtype), scalar == 1 ? 0 : item,
                           scalar == 2 ? 0 : item };
    tl_simd_hint h = { false };
    fn(n, ptrs, strides, &h);
}

/* ---- public API -------------------------------------------------------------- */

tl_tensor *tl_binary(tl_binop op, const tl_tensor *a, const tl_tensor *b, tl_dtype dt)
{
    tl_dtype cdt;
    tl_inner_fn fn;
    if (binary_loop_for(op, dt, &cdt, &fn) < 0) return NULL;
    if (op == TL_POW) {
        bool done;
        tl_tensor *r = scalar_power(a, b, cdt, &done);
        if (done) return r;
    }
    if (cdt == TL_F16 && (half_binary_via_f32(op, tl_tensor_size(a)) || half_binary_via_f32(op, tl_tensor_size(b))))
        return binary_via_f32(op, a, b, cdt);
    int scalar;
    int64_t n = small_direct_count(op, cdt, a, b, &scalar);
    if (n >= 0) {
        const tl_tensor *big = scalar == 1 ? b : a;   /* the result has its shape */
        tl_tensor *out = tl_tensor_empty(tl_binop_result_dtype(op, dt), big->ndim, big->shape);
        if (out) run_small_direct(fn, n, out, a, b, scalar);
        return out;
    }
    int nd;
    int64_t shape[TL_MAXDIM];
    if (tl_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0) return NULL;
    tl_tensor *ca, *cb;
    if (prepare_operands(op, cdt, a, b, &ca, &cb) < 0) return NULL;
    tl_tensor *out = tl_tensor_empty(tl_binop_result_dtype(op, dt), nd, shape);
    if (out && run_binary(fn, out, ca, cb) < 0) {
        tl_tensor_release(out);
        out = NULL;
    }
    tl_tensor_release(ca);
    tl_tensor_release(cb);
    return out;
}

int tl_binary_scalar(tl_binop op, tl_dtype dt, const void *a, tl_dtype da, const void *b, tl_dtype db, void *out)
{
    tl_dtype cdt;
    tl_inner_fn fn;
    if ((unsigned)da >= TL_NDTYPES || (unsigned)db >= TL_NDTYPES) {
        tl_seterr(ValueError, "invalid dtype");
        return -1;
    }
    if (binary_loop_for(op, dt, &cdt, &fn) < 0) return -1;
    tl_scalar x, y;
    size_t item = tl_dtype_size(cdt);
    if (da == cdt) memcpy(&x, a, item);
    else tl_convert_run(1, a, da, 0, &x, cdt, 0);   /* as tl_binary converts its operands */
    if (db == cdt) memcpy(&y, b, item);
    else tl_convert_run(1, b, db, 0, &y, cdt, 0);
    scan_aux aux;
    if (int_operand_scan(op, cdt, &aux)) {
        char *py = (char *)&y;
        int64_t stride = 0;
        scan_inner(1, &py, &stride, &aux);
        if (aux.found) return int_operand_failed(op, &aux);
    }
    const binary_plan *p = binary_plan_for(op, dt);
    char *ptrs[3] = { out, (char *)&x, (char *)&y };
    int64_t strides[3] = { (int64_t)tl_dtype_size(p->rdt), (int64_t)item, (int64_t)item };
    tl_simd_hint h = { false };
    fn(1, ptrs, strides, &h);
    return (int)p->rdt;
}

/* True when nothing but the caller's `spare` references can see a's elements:
   a header no one else holds over heap storage no other header shares. */
static bool exclusively_held(const tl_tensor *a, int64_t spare)
{
    return a->refcount <= spare && a->storage->refcount == 1 && a->storage->kind == TL_STORAGE_HEAP &&
           !a->readonly;
}

/* tl_binary_over for operands that are not one small dense run: b must
   broadcast to exactly a's shape; a's own layout makes the writes safe (each
   element is read before it is written). Only up to one iteration chunk, which
   Ctrl-C cannot cut short: an interrupted x = x + y must leave x as it was.
   Out of line: it needs a big frame. */
static __attribute__((noinline)) int binary_over_planned(tl_inner_fn fn, tl_dtype cdt, tl_tensor *a, const tl_tensor *b)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    if (cdt == TL_F16 || tl_tensor_size(a) > TL_ITER_CHUNK ||
        tl_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0 || nd != a->ndim || memcmp(shape, a->shape, (size_t)nd * sizeof shape[0]) != 0)
        return 0;
    return run_binary(fn, a, a, b) < 0 ? -1 : 1;
}

/* The common case first: operands of dt whose plan allows writing over a (p->over:
   no promotion, no integer operand check, not **), one dense run of at most
   SMALL_DIRECT_MAX elements; the kernel gets the run straight (the loop of a
   4-element x = x + y is a few dozen instructions, see docs/architecture.md). */
int tl_binary_over(tl_binop op, tl_tensor *a, const tl_tensor *b, tl_dtype dt, int64_t spare)
{
    if ((unsigned)op >= TL_NBINOPS || (unsigned)dt >= TL_NDTYPES || a->dtype != dt || b->dtype != dt) return 0;
    const binary_plan *p = binary_plan_for(op, dt);
    if (!p->over || !exclusively_held(a, spare) || a->storage == b->storage) return 0;
    int64_t n = dense_run_count(a, b);
    if (n < 0) return binary_over_planned(p->fn, dt, a, b);
    run_small_direct(p->fn, n, a, a, b, 0);
    return 1;
}

int tl_binary_into(tl_binop op, tl_tensor *out, const tl_tensor *a, const tl_tensor *b, tl_dtype dt)
{
    tl_dtype cdt;
    tl_inner_fn fn;
    if (binary_loop_for(op, dt, &cdt, &fn) < 0) return -1;
    if (out->readonly) {
        tl_seterr(ValueError, "cannot write to a broadcast (read-only) view");
        return -1;
    }
    int nd, nd2;
    int64_t shape[TL_MAXDIM], shape2[TL_MAXDIM];
    if (tl_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0) return -1;
    bool fits = tl_broadcast_shapes(nd, shape, out->ndim, out->shape, &nd2, shape2) == 0 &&
                nd2 == out->ndim && memcmp(shape2, out->shape, (size_t)nd2 * sizeof shape2[0]) == 0;
    if (!fits) {
        char s1[160], s2[160];
        tl_seterr(ShapeError, "cannot store the %s result in place in a %s tensor: in place, a tensor keeps its shape "
                  "(x = x + y makes a new one)", tl_shape_str(nd, shape, s2, sizeof s2), tl_shape_str(out->ndim, out->shape, s1, sizeof s1));
        return -1;
    }
    bool fast_power = op == TL_POW && tl_is_float(cdt) && tl_tensor_size(b) == 1;
    if ((cdt == TL_F16 && half_binary_via_f32(op, tl_tensor_size(out))) || fast_power) {
        tl_tensor *tmp = fast_power ? tl_binary(op, a, b, dt) : binary_via_f32(op, a, b, cdt);
        int rc = tmp ? tl_assign(out, tmp) : -1;
        if (tmp) tl_tensor_release(tmp);
        return rc;
    }
    tl_dtype rdt = tl_binop_result_dtype(op, dt);
    /* x op= y over a small dense x, y one element (x *= 2) or x's own shape: tl_binary's direct
       run (from two elements: a one-element x keeps the planned path) */
    int scalar;
    int64_t n = a == out && out->dtype == rdt ? small_direct_count(op, cdt, a, b, &scalar) : -1;
    if (n >= 2 && scalar != 1 && (scalar == 2 || alias_safe(out, b))) {
        run_small_direct(fn, n, out, a, b, scalar);
        return 0;
    }
    tl_tensor *ca, *cb;
    if (prepare_operands(op, cdt, a, b, &ca, &cb) < 0) return -1;
    int rc;
    if (out->dtype == rdt && alias_safe(out, ca) && alias_safe(out, cb)) {
        tl_interrupts_hold();   /* operands are checked (check_int_operands): the write finishes whole */
        rc = run_binary(fn, out, ca, cb);
        tl_interrupts_release();
    } else {
        /* compute into a fresh tensor, then cast and copy: the no-alias result */
        tl_tensor *tmp = tl_tensor_empty(rdt, out->ndim, out->shape);
        rc = tmp ? run_binary(fn, tmp, ca, cb) : -1;
        if (rc == 0) rc = tl_assign(out, tmp);
        if (tmp) tl_tensor_release(tmp);
    }
    tl_tensor_release(ca);
    tl_tensor_release(cb);
    return rc;
}

tl_tensor *tl_unary(tl_unop op, const tl_tensor *a) { return tl_unary_to(op, a, NULL); }

tl_tensor *tl_binary_to(tl_binop op, const tl_tensor *a, const tl_tensor *b, tl_dtype dt, tl_tensor *into)
{
    int nd;
    int64_t shape[TL_MAXDIM];
    if (!into || tl_broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0) return tl_binary(op, a, b, dt);
    tl_tensor *out = tl_tensor_result(into, tl_binop_result_dtype(op, dt), nd, shape);
    if (!out || out->storage != into->storage) {   /* declined: tl_binary's own result */
        if (out) tl_tensor_release(out);
        return tl_binary(op, a, b, dt);
    }
    if (tl_binary_into(op, out, a, b, dt) < 0) {
        tl_tensor_release(out);
        return NULL;
    }
    return out;
}

tl_tensor *tl_unary_to(tl_unop op, const tl_tensor *a, tl_tensor *into)
{
    if ((unsigned)op >= TL_NUNOPS) {
        tl_seterr(ValueError, "invalid unary operator");
        return NULL;
    }
    tl_dtype cdt = tl_unop_compute_dtype(op, a->dtype);
    tl_inner_fn fn = tl_simd_unary_loop(op, cdt);
    if (!fn) fn = tl_unary_loop(op, cdt);
    if (!fn || !tl_unop_accepts(op, a->dtype)) {
        tl_seterr(TypeError, "%s is not supported for dtype %s", tl_unop_name(op), tl_dtype_name(a->dtype));
        return NULL;
    }
    if (tl_is_half(cdt) && tl_tensor_size(a) >= TL_HALF_VIA_F32_MIN && tl_unary_loop(op, TL_F32)) {
        tl_tensor *w = half_to_f32(a, cdt), *r = w ? tl_unary(op, w) : NULL;
        if (w) tl_tensor_release(w);
        return finish_half(r, tl_unop_result_dtype(op, a->dtype));
    }
    tl_tensor *ca = tl_as_dtype(a, cdt);
    if (!ca) return NULL;
    tl_tensor *out = tl_tensor_result(into, tl_unop_result_dtype(op, a->dtype), a->ndim, a->shape);
    if (out) {
        tl_iter it;
        const tl_tensor *ops[2] = { out, ca };
        tl_simd_hint h = hint_for(out);
        if (tl_iter_init(&it, 2, ops, out->ndim, out->shape) < 0 || tl_kern_run(&it, fn, &h) < 0) {
            tl_tensor_release(out);
            out = NULL;
        }
    }
    tl_tensor_release(ca);
    return out;
}

/* ---- where, clip ---------------------------------------------------------------- */

#define WHERE_LOOP(NAME, T)                                                           \
    static void NAME(int64_t n, char **p, const int64_t *s, void *aux)                \
    {                                                                                 \
        (void)aux;                                                                    \
        char *o = p[0];                                                               \
        const char *c = p[1], *x = p[2], *y = p[3];                                   \
        for (int64_t i = 0; i < n; i++, o += s[0], c += s[1], x += s[2], y += s[3])   \
            *(T *)o = *(const bool *)c ? *(const T *)x : *(const T *)y;               \
    }
typedef struct { uint64_t lo, hi; } where_u128;
WHERE_LOOP(where1, uint8_t)
WHERE_LOOP(where2, uint16_t)
WHERE_LOOP(where4, uint32_t)
WHERE_LOOP(where8, uint64_t)
WHERE_LOOP(where16, where_u128)

tl_tensor *tl_where(const tl_tensor *cond, const tl_tensor *a, const tl_tensor *b, tl_dtype dt)
{
    return tl_where_to(cond, a, b, dt, NULL);
}

tl_tensor *tl_where_to(const tl_tensor *cond, const tl_tensor *a, const tl_tensor *b, tl_dtype dt, tl_tensor *into)
{
    int n1, n2;
    int64_t s1[TL_MAXDIM], s2[TL_MAXDIM];
    if (tl_broadcast_shapes(cond->ndim, cond->shape, a->ndim, a->shape, &n1, s1) < 0) return NULL;
    if (tl_broadcast_shapes(n1, s1, b->ndim, b->shape, &n2, s2) < 0) return NULL;
    tl_inner_fn fns[17] = { [1] = where1, [2] = where2, [4] = where4, [8] = where8, [16] = where16 };
    tl_tensor *cc = tl_as_dtype(cond, TL_BOOL), *ca = NULL, *cb = NULL, *out = NULL;
    if (cc) ca = tl_as_dtype(a, dt);
    if (ca) cb = tl_as_dtype(b, dt);
    if (cb) out = tl_tensor_result(into, dt, n2, s2);
    if (out) {
        tl_iter it;
        const tl_tensor *ops[4] = { out, cc, ca, cb };
        if (tl_iter_init(&it, 4, ops, n2, s2) < 0 || tl_kern_run(&it, fns[tl_dtype_size(dt)], NULL) < 0) {
            tl_tensor_release(out);
            out = NULL;
        }
    }
    if (cc) tl_tensor_release(cc);
    if (ca) tl_tensor_release(ca);
    if (cb) tl_tensor_release(cb);
    return out;
}

tl_tensor *tl_clip(const tl_tensor *a, const tl_tensor *lo, const tl_tensor *hi, tl_dtype dt)
{
    return tl_clip_to(a, lo, hi, dt, NULL);
}

tl_tensor *tl_clip_to(const tl_tensor *a, const tl_tensor *lo, const tl_tensor *hi, tl_dtype dt, tl_tensor *into)
{
    /* numpy's clip is minimum(maximum(a, lo), hi): NaN propagates, hi wins over lo */
    if (!lo && !hi) return tl_cast_to(a, dt, into);
    tl_tensor *t = lo ? tl_binary_to(TL_MAXIMUM, a, lo, dt, into) : tl_as_dtype(a, dt);
    if (!t || !hi) return t;
    tl_tensor *r = tl_binary_to(TL_MINIMUM, t, hi, dt, into);   /* over t where t is in into */
    tl_tensor_release(t);
    return r;
}
