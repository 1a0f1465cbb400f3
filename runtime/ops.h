/* ops.h — elementwise operations, casts, reductions and linear algebra on tensors */
#ifndef TL_OPS_H
#define TL_OPS_H

#include "tensor.h"
#include "redop_list.h"
#include "unop_list.h"

/* The binary elementwise operators, one row each: enum, spelling (messages and
   the language's operator table), element function (tl_<dtype>_<fn> in elem.h,
   instantiated as kernels by kernels/binary_loops.c), whether it compares (its
   result is bool), and which kinds of computation dtype have a kernel (Y/N):
   bool, integers, floats (f16 bf16 f32 f64), complex. A kind without one is
   either promoted first (bool + bool computes in i64, int / int in f64: see
   tl_binop_compute_dtype) or an error ("%s is not supported for dtype %s").
   X gets CTX first, passed through for lists of lists (an operator for each
   dtype: kernels/binary_loops.c); the enum follows the rows' order. */
#define TL_BINOP_LIST(X, CTX)                                       \
    /* enum        symbol     fn     cmp  bool int float complex */ \
    X(CTX, TL_ADD,      "+",       add,   0,   N,   Y,  Y,    Y)        \
    X(CTX, TL_SUB,      "-",       sub,   0,   N,   Y,  Y,    Y)        \
    X(CTX, TL_MUL,      "*",       mul,   0,   N,   Y,  Y,    Y)        \
    X(CTX, TL_DIV,      "/",       div,   0,   N,   N,  Y,    Y)        \
    X(CTX, TL_FLOORDIV, "//",      fdiv,  0,   N,   Y,  Y,    N)        \
    X(CTX, TL_MOD,      "%",       mod,   0,   N,   Y,  Y,    N)        \
    X(CTX, TL_POW,      "**",      pow,   0,   N,   Y,  Y,    Y)        \
    X(CTX, TL_EQ,       "==",      eq,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_NE,       "!=",      ne,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_LT,       "<",       lt,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_LE,       "<=",      le,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_GT,       ">",       gt,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_GE,       ">=",      ge,    1,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_AND,      "&",       and,   0,   Y,   Y,  N,    N)        \
    X(CTX, TL_OR,       "|",       or,    0,   Y,   Y,  N,    N)        \
    X(CTX, TL_XOR,      "^",       xor,   0,   Y,   Y,  N,    N)        \
    X(CTX, TL_MINIMUM,  "minimum", min,   0,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_MAXIMUM,  "maximum", max,   0,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_ATAN2,    "atan2",   atan2, 0,   N,   N,  Y,    N)        \
    X(CTX, TL_LSHIFT,   "<<",      shl,   0,   N,   Y,  N,    N)        \
    X(CTX, TL_RSHIFT,   ">>",      shr,   0,   N,   Y,  N,    N)        \
    X(CTX, TL_FMOD,     "fmod",    fmod,  0,   N,   Y,  Y,    N)        \
    X(CTX, TL_HYPOT,    "hypot",   hypot, 0,   N,   N,  Y,    N)        \
    X(CTX, TL_FMIN,     "fmin",    fmin,  0,   Y,   Y,  Y,    Y)        \
    X(CTX, TL_FMAX,     "fmax",    fmax,  0,   Y,   Y,  Y,    Y)

/* Binary elementwise operators (the list above). Both operands are converted
   to the computation dtype `dt` chosen by the caller (promotion is the
   caller's job, with tl_binop_dtype: it knows about weak literals);
   comparisons produce bool, the rest `dt`. &, | and ^ are logical for bool,
   bitwise for integers; << and >> shift integers (bool shifts in i8, as numpy). */
typedef enum tl_binop {
#define TL_BINOP_ENUM(CTX, E, SYM, FN, CMP, B, I, F, C) E,
    TL_BINOP_LIST(TL_BINOP_ENUM, _)
#undef TL_BINOP_ENUM
    TL_NBINOPS
} tl_binop;

/* True when op compares (its result is bool). */
static inline bool tl_binop_is_comparison(tl_binop op)
{
    switch (op) {
#define TL_BINOP_CMP(CTX, E, SYM, FN, CMP, B, I, F, C) case E: return CMP;
    TL_BINOP_LIST(TL_BINOP_CMP, _)
#undef TL_BINOP_CMP
    default: return false;
    }
}

/* Spelling of op for messages: "+", "//", "minimum"; "?" when op is out of range. */
const char *tl_binop_name(tl_binop op);

/* Unary elementwise functions, one per row of unop_list.h (which gives each
   one's dtype rules: ISNAN/ISINF/ISFINITE give bool; ABS/ANGLE of complex
   give the real dtype; the float functions compute ints in floats). */
#define TL_UNOP_ENUM_(arg, ENUM, ...) ENUM,
typedef enum tl_unop {
    TL_UNOP_LIST(TL_UNOP_ENUM_, )
    TL_NUNOPS
} tl_unop;
#undef TL_UNOP_ENUM_

/* ---- the rules every path shares (op_rules.c): eager, fused and graph paths ask these ---- */

/* Whether unary op applies to dtype d: its loops exist for the dtype it computes in, and numpy's
   own refusal holds (- of bool). */
bool tl_unop_accepts(tl_unop op, tl_dtype d);
/* Whether binary op applies to operands promoted to dt: the list's column for the kind of the
   dtype it computes in (bool + bool computes in i64, so + accepts bool). */
bool tl_binop_accepts(tl_binop op, tl_dtype dt);
/* numpy's fast_scalar_power: what x ** e is computed as, for x computing in cdt and a 0-d exponent
   e of dtype edt (its bytes; numpy takes the general power for an exponent of shape (1,)): a float
   x to 2, 0.5, 1 or -1 is x*x, sqrt(x), x or 1/x (so (-0.) ** 0.5 is -0., as numpy); a complex x
   to a real 0.5 or -1 is sqrt(x) (so (-4+0j) ** 0.5 is exactly 2j) or numpy's complex reciprocal
   (TL_RECIPROCAL). Anything else, and integers, take the general power. */
typedef enum tl_pow_shortcut { TL_POW_GENERAL, TL_POW_SQUARE, TL_POW_SQRT, TL_POW_COPY, TL_POW_RECIPROCAL } tl_pow_shortcut;
tl_pow_shortcut tl_pow_shortcut_of(tl_dtype cdt, const void *e, tl_dtype edt);
/* The dtype operands combine to, as numpy's result_type with NEP 50 weak operands, gathered one
   operand at a time (so a literal of a million numbers needs no array of dtypes): the strong
   operands promote among themselves, the weak ones among themselves, and then the weak kind joins
   the strong dtype as it does in a binary operator (tl_promote_weak); an integer literal out of
   range of the integer dtype that results is an error, as in arithmetic. All weak: their own
   promotion. Start from a zeroed accumulator. */
typedef struct tl_dtype_acc {
    bool any_strong, any_weak, any_int;
    tl_dtype strong, weak;
    int64_t int_lo, int_hi;   /* the weak integer literals' range */
} tl_dtype_acc;
/* Adds an operand of dtype d; value: its bytes when weak (an integer literal's range is checked). */
void tl_dtype_acc_add(tl_dtype_acc *a, tl_dtype d, bool weak, const void *value);
/* The combined dtype; -1 with the error set when an integer literal does not fit it. */
int tl_dtype_acc_result(const tl_dtype_acc *a, tl_dtype *dt);

/* Dtype of `op` applied to a tensor of dtype d (after the caller's promotion). */
tl_dtype tl_binop_result_dtype(tl_binop op, tl_dtype computation);
tl_dtype tl_unop_result_dtype(tl_unop op, tl_dtype input);
/* Dtype the unary op computes in for input d (e.g. sqrt of i32 computes in f64). */
tl_dtype tl_unop_compute_dtype(tl_unop op, tl_dtype input);

/* The dtype a OP b computes in, for operands of dtypes da and db (numpy's
   promotion), either of which may be weak — a number literal, or computed
   from literals only — and then adopts the other's dtype when its kind allows
   (NEP 50). weak_value: the weak operand's bytes when exactly one is weak (an
   integer literal out of range for an integer dtype is an error, except in a
   comparison, which then compares exactly), else NULL. Then the operator's
   own rule: bool + bool computes in i64, int / int in f64. -1: error set. */
int tl_binop_dtype(tl_binop op, tl_dtype da, bool weak_a, tl_dtype db, bool weak_b, const void *weak_value,
                   tl_dtype *dt);
/* a OP b for single values, numpy's scalar arithmetic: a (of dtype da) and b
   (db) are converted to op's computation dtype for dt and run through the
   same loop as tl_binary's (integer // and % by zero and negative integer
   powers fail, as there). Unlike a tensor raised to a one-element power, no
   x ** 0.5 -> sqrt(x) shortcut: numpy scalars use pow. Writes the result to
   out (16 bytes) and returns its dtype; -1: error set. */
int tl_binary_scalar(tl_binop op, tl_dtype dt, const void *a, tl_dtype da, const void *b, tl_dtype db, void *out);
/* New tensor = a OP b with broadcasting; operands converted to dt first.
   Integer // and % by zero fail with "integer division by zero". */
tl_tensor *tl_binary(tl_binop op, const tl_tensor *a, const tl_tensor *b, tl_dtype dt);
/* a OP b written over a's own elements (numpy's temporary elision) when the
   caller holds every reference to a, `spare` of them, and drops them after
   the call; when a's storage is heap memory no other tensor shares; when
   the result has a's dtype and shape; and when a has at most TL_ITER_CHUNK
   elements, so the write cannot be cut short by Ctrl-C. Returns 1 when done
   (a holds the result), 0 when a cannot be reused (nothing written), -1 when
   the kernel failed (error set). */
int tl_binary_over(tl_binop op, tl_tensor *a, const tl_tensor *b, tl_dtype dt, int64_t spare);
/* out = a OP b written into out (shape must be the broadcast shape or out's,
   result cast to out's dtype); gives the no-alias result when out overlaps an input. */
int tl_binary_into(tl_binop op, tl_tensor *out, const tl_tensor *a, const tl_tensor *b, tl_dtype dt);
tl_tensor *tl_unary(tl_unop op, const tl_tensor *a);
tl_tensor *tl_unary_to(tl_unop op, const tl_tensor *a, tl_tensor *into);
tl_tensor *tl_binary_to(tl_binop op, const tl_tensor *a, const tl_tensor *b, tl_dtype dt, tl_tensor *into);
/* New tensor of dtype dt holding a's values (integer casts wrap; floats round to nearest even). */
tl_tensor *tl_cast(const tl_tensor *a, tl_dtype dt);
/* The _to forms of the kernels write their result into `into` when it fits (tl_tensor_result:
   a graph's arena buffer), else into a new tensor, with the same bits; NULL into is the plain form. */
tl_tensor *tl_cast_to(const tl_tensor *a, tl_dtype dt, tl_tensor *into);
/* a itself (one more reference) when it already has dtype dt, else tl_cast(a, dt). */
tl_tensor *tl_as_dtype(const tl_tensor *a, tl_dtype dt);
/* The cast kernel: converts n elements of dtype sd at src to dd at dst, byte
   strides; vectorized for dense f32<->f16/bf16 runs. src and dst must not overlap
   unless identical with sd == dd. */
void tl_convert_run(int64_t n, const void *src, tl_dtype sd, int64_t sstride, void *dst, tl_dtype dd, int64_t dstride);
/* dst[...] = src broadcast to dst's shape, cast to dst's dtype; overlap-safe.
   Fails on read-only dst. */
int tl_assign(tl_tensor *dst, const tl_tensor *src);
/* where(cond, a, b) with broadcasting; a, b already in dtype dt. */
tl_tensor *tl_where(const tl_tensor *cond, const tl_tensor *a, const tl_tensor *b, tl_dtype dt);
tl_tensor *tl_clip(const tl_tensor *a, const tl_tensor *lo, const tl_tensor *hi, tl_dtype dt);
tl_tensor *tl_where_to(const tl_tensor *cond, const tl_tensor *a, const tl_tensor *b, tl_dtype dt, tl_tensor *into);
tl_tensor *tl_clip_to(const tl_tensor *a, const tl_tensor *lo, const tl_tensor *hi, tl_dtype dt, tl_tensor *into);
/* numpy's isclose: |a - b| <= atol + rtol * |b| where both are finite, a == b
   elsewhere (nan == nan too when equal_nan), in the operands' float dtype (compare.c). */
tl_tensor *tl_isclose(const tl_tensor *a, const tl_tensor *b, double rtol, double atol, bool equal_nan);
tl_tensor *tl_isclose_to(const tl_tensor *a, const tl_tensor *b, double rtol, double atol, bool equal_nan, tl_tensor *into);
/* numpy's array_equal: 1 when a and b have one shape and equal elements, else 0; -1: error set. */
int tl_array_equal(const tl_tensor *a, const tl_tensor *b, bool equal_nan);

/* Reductions over a set of axes (axes[i] normalized, distinct; naxes == 0 with
   all_axes means every axis). Result dtypes follow docs/language.md §7. */
#define TL_REDOP_ENUM_(arg, ENUM, ...) ENUM,
typedef enum tl_redop {
    TL_REDOP_LIST(TL_REDOP_ENUM_, )     /* one per row of redop_list.h */
    TL_NREDOPS
} tl_redop;
#undef TL_REDOP_ENUM_
tl_dtype tl_reduce_result_dtype(tl_redop op, tl_dtype input);
/* The reduction's name in messages ("minimum"), and whether axis=() gives its
   input's values in the result dtype (numpy) rather than an error. */
const char *tl_redop_name(tl_redop op);
bool tl_redop_allows_no_axes(tl_redop op);
/* Whether the reduction takes numpy's dtype= (redop_list.h). */
bool tl_redop_takes_dtype(tl_redop op);
tl_tensor *tl_reduce(tl_redop op, const tl_tensor *a, int naxes, const int *axes, bool keepdims, int64_t ddof);
tl_tensor *tl_reduce_to(tl_redop op, const tl_tensor *a, int naxes, const int *axes, bool keepdims, int64_t ddof,
                        tl_tensor *into);
tl_tensor *tl_cumsum(const tl_tensor *a, int axis /* TL_AXIS_NONE: flattened */);
/* Running sums (TL_RSUM) or products (TL_RPROD) along axis, in the result dtype of sum. */
tl_tensor *tl_cumulative(tl_redop op, const tl_tensor *a, int axis /* TL_AXIS_NONE: flattened */);
tl_tensor *tl_cumulative_to(tl_redop op, const tl_tensor *a, int axis, tl_tensor *into);

/* Linear algebra (linalg.c): numpy matmul rules, batching with broadcast. */
tl_tensor *tl_matmul(const tl_tensor *a, const tl_tensor *b);
/* The shape of a @ b (numpy's rules: batch axes broadcast, a 1-d operand's axis dropped) into
   shape (TL_MAXDIM long); its ndim, or -1 (error set: the message a @ b would give). */
int tl_matmul_shape(const tl_tensor *a, const tl_tensor *b, int64_t *shape);
/* a @ b written into out, which must be the C-contiguous tensor of the product's dtype and
   shape (both operands at least 2-d, a product computed in its own dtype): 1 done; 0 when
   out is not that tensor (nothing written, no error: call tl_matmul); -1 error set.
   The bits are tl_matmul's. */
int tl_matmul_into(const tl_tensor *a, const tl_tensor *b, tl_tensor *out);
/* a @ b written into `into` when it fits (tl_tensor_result: its dtype and size; any operands), else a new tensor. */
tl_tensor *tl_matmul_to(const tl_tensor *a, const tl_tensor *b, tl_tensor *into);
tl_tensor *tl_det(const tl_tensor *a);
tl_tensor *tl_inv(const tl_tensor *a);
tl_tensor *tl_solve(const tl_tensor *a, const tl_tensor *b);
/* The same, the result written into `into` when it fits (tl_tensor_result). */
tl_tensor *tl_det_to(const tl_tensor *a, tl_tensor *into);
tl_tensor *tl_inv_to(const tl_tensor *a, tl_tensor *into);
tl_tensor *tl_solve_to(const tl_tensor *a, const tl_tensor *b, tl_tensor *into);

/* nn (nn.c) */
tl_tensor *tl_softmax(const tl_tensor *a, int axis, bool log);
tl_tensor *tl_layer_norm(const tl_tensor *a, const tl_tensor *w, const tl_tensor *b, double eps);
tl_tensor *tl_rms_norm(const tl_tensor *a, const tl_tensor *w, double eps);
tl_tensor *tl_softmax_to(const tl_tensor *a, int axis, bool log, tl_tensor *into);
/* layer_norm (rms false) or rms_norm (rms true, b NULL) into `into`. */
tl_tensor *tl_norm_layer_to(const tl_tensor *a, const tl_tensor *w, const tl_tensor *b, double eps, bool rms, tl_tensor *into);

/* sorting (sort.c) */
tl_tensor *tl_sort(const tl_tensor *a, int axis, bool descending);
tl_tensor *tl_argsort(const tl_tensor *a, int axis, bool descending);
/* tl_sort (indices false) or tl_argsort (true) into `into`. */
tl_tensor *tl_sort_to(const tl_tensor *a, int axis, bool descending, bool indices, tl_tensor *into);

/* selection (select.c, unique.c, partition.c) */
/* take's handling of an index outside the axis: an error, wrapped around, or clipped to the ends. */
typedef enum tl_take_mode { TL_TAKE_RAISE, TL_TAKE_WRAP, TL_TAKE_CLIP } tl_take_mode;
/* numpy's take: a's elements at integer (or bool as 0/1) indices along axis
   (TL_AXIS_NONE: of the flattened a); the result's shape puts indices' shape at axis. */
tl_tensor *tl_take(const tl_tensor *a, const tl_tensor *indices, int axis, tl_take_mode mode);
tl_tensor *tl_take_to(const tl_tensor *a, const tl_tensor *indices, int axis, tl_take_mode mode, tl_tensor *into);
/* numpy's take_along_axis / put_along_axis (axis TL_AXIS_NONE: a flattened, indices 1-d);
   put writes values (broadcast, cast) into a, which must be contiguous when axis is none. */
tl_tensor *tl_take_along_axis(const tl_tensor *a, const tl_tensor *indices, int axis);
tl_tensor *tl_take_along_axis_to(const tl_tensor *a, const tl_tensor *indices, int axis, tl_tensor *into);
int tl_put_along_axis(tl_tensor *a, const tl_tensor *indices, const tl_tensor *values, int axis);
/* The (count, ndim) i64 coordinates of a's nonzero elements in C order (nan counts as nonzero). */
tl_tensor *tl_argwhere(const tl_tensor *a);
/* The coordinates per axis: fills out[0..n) with 1-d i64 tensors and returns n (ndim, 1 for a
   0-d a as numpy 1.24), or -1 with the error set. out needs max(ndim, 1) slots. */
int tl_nonzero(const tl_tensor *a, tl_tensor **out);
/* numpy's unique: sorted distinct values of the flattened a (all nans one value), or distinct
   sub-tensors along axis; with the first index of each, the inverse (1-d) and counts on request. */
typedef struct tl_unique_result { tl_tensor *values, *index, *inverse, *counts; } tl_unique_result;
int tl_unique(const tl_tensor *a, int axis /* TL_AXIS_NONE */, bool want_index, bool want_inverse, bool want_counts,
              tl_unique_result *res);
void tl_unique_result_free(tl_unique_result *res);
/* Whether each element of element (compared in dtype dt) is among test's elements; bool, element's shape. */
tl_tensor *tl_isin(const tl_tensor *element, const tl_tensor *test, tl_dtype dt, bool invert);
/* Insertion points of v's values into the 1-d sorted a (or a taken in sorter's order), compared in dt. */
tl_tensor *tl_searchsorted(const tl_tensor *a, const tl_tensor *v, tl_dtype dt, bool right, const tl_tensor *sorter);
/* numpy's argpartition / partition along axis: for each kth (negative counts from the end) the
   element there is the one a sort would put there, with nothing larger before it and nothing
   smaller after it. The order inside each side is the selection algorithm's. */
tl_tensor *tl_argpartition(const tl_tensor *a, int nkth, const int64_t *kth, int axis);
tl_tensor *tl_partition(const tl_tensor *a, int nkth, const int64_t *kth, int axis);

/* random (random.c): counter-based, so results do not depend on thread count */
void tl_seed(uint64_t seed);
tl_tensor *tl_rand(tl_dtype dtype, int ndim, const int64_t *shape);
tl_tensor *tl_randn(tl_dtype dtype, int ndim, const int64_t *shape);
tl_tensor *tl_randint(int64_t lo, int64_t hi, tl_dtype dtype, int ndim, const int64_t *shape);
/* drawing from a population (sample.c), on the same stream */
/* A random permutation of 0..n-1 (i64). */
tl_tensor *tl_permutation_indices(int64_t n);
/* numpy's choice as indices into 0..n-1 (i64, the given shape): with or without replacement, with
   probabilities p (1-d, n entries, summing to 1) or uniformly when p is NULL. */
tl_tensor *tl_choice_indices(int64_t n, int ndim, const int64_t *shape, bool replace, const tl_tensor *p);

/* threads (used by kernels above a size threshold) */
#define TL_MAX_THREADS 64
/* n < 1: back to the default (TL_THREADS, else the online CPUs), read again at the next use. */
void tl_set_threads(int n);
int tl_get_threads(void);

#endif
