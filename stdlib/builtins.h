/* builtins.h — stdlib's own helpers over tlapi.h: argument access and conversion, results (as lauxlib over lua.h) */
#ifndef TL_BUILTINS_H
#define TL_BUILTINS_H

#include "ops.h"
#include "tlapi.h"

/* Each stdlib file defines one {NULL}-terminated table; registry.c lists them. */
extern const Builtin bi_core_table[];
extern const Builtin bi_introspect_table[];
extern const Builtin bi_make_table[];
extern const Builtin bi_shape_table[];
extern const Builtin bi_rearrange_table[];
extern const Builtin bi_random_table[];
extern const Builtin bi_math_table[];
extern const Builtin bi_logic_table[];
extern const Builtin bi_reduce_table[];
extern const Builtin bi_linalg_table[];
extern const Builtin bi_decomp_table[];
extern const Builtin bi_fft_table[];
extern const Builtin bi_nn_table[];
extern const Builtin bi_sort_table[];
extern const Builtin bi_stats_table[];
extern const Builtin bi_select_table[];
extern const Builtin bi_samples_table[];
extern const Builtin bi_files_table[];
extern const Builtin bi_graph_table[];
extern const Builtin bi_plot_table[];

/* norm(x, ord=none, axis=none, keepdims=false) (decomp.c): the reduction table's norm row calls it. */
bool bi_norm(Interp *I, CallArgs *a, Value *out);

/* nonzero(a) (select.c): where(cond) with one argument calls it. */
bool bi_nonzero(Interp *I, CallArgs *a, Value *out);
/* The dtype n values (NULL entries skipped) combine to, numpy's promotion with number
   literals weak (math.c); *all_weak when every one is a weak literal. */
bool common_dtype(Interp *I, Span at, int n, Value *const *vs, tl_dtype *dt, bool *all_weak);

/* Checks positional count and that every keyword is one of kws (NULL-terminated, may be NULL). */
bool args_check(Interp *I, CallArgs *a, const char *fname, int min_pos, int max_pos, const char *const *kws);
/* The argument at position i, else keyword kw (either may be absent: i < 0, kw NULL); NULL if not given.
   A given `none` counts as not given. */
Value *arg_find(CallArgs *a, int i, const char *kw);

/* Conversions: each fails with an error naming the function and parameter. */
bool arg_tensor(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, tl_tensor **out);
bool arg_int(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, int64_t def, int64_t *out);
bool arg_double(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, double def, double *out);
bool arg_bool(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, bool def, bool *out);
/* A dtype given as a name ("f32") or a cast function (f32). */
bool arg_dtype(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, tl_dtype def, tl_dtype *out);
bool arg_string(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, const char *def, const char **out);
/* A shape from positional args first.. (zeros(2, 3)) or one tuple/tensor (zeros((2, 3))). */
bool arg_shape(Interp *I, CallArgs *a, const char *fname, int first, int *ndim, int64_t *shape);
/* The same, letting negative entries through (reshape's and expand's -1). */
bool arg_shape_entries(Interp *I, CallArgs *a, const char *fname, int first, int *ndim, int64_t *shape);
/* axis= as none (all axes), an int, or a tuple of ints; normalized against ndim, duplicates rejected. */
bool arg_axes(Interp *I, CallArgs *a, const char *fname, int i, const char *kw, int ndim, int *naxes, int *axes, bool *all);
/* A value as a shape-like tuple of ints (for dtype-agnostic helpers). */
bool value_to_shape(Interp *I, Span at, Value v, int *ndim, int64_t *shape);

/* Returns a tensor result (owned) as a value; NULL means the runtime failed: error at the call. */
bool ret_tensor(Interp *I, CallArgs *a, tl_tensor *t, Value *out);
/* Returns n tensor results (owned) as a tuple; a NULL among them means the runtime failed. */
bool ret_tuple(Interp *I, CallArgs *a, int n, tl_tensor **ts, Value *out);
/* A shape as a tuple of ints. */
Value shape_tuple(int ndim, const int64_t *shape);
/* True when every numeric argument among the positional ones is a weak scalar (results stay weak). */
bool args_all_weak(CallArgs *a);

#endif
