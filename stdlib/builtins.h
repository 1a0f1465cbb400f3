/* builtins.h — stdlib's own helpers over tlapi.h: argument access and conversion, results (as lauxlib over lua.h) */
#ifndef TL_BUILTINS_H
#define TL_BUILTINS_H

#include "ops.h"
#include "tlapi.h"

/* Each stdlib file defines one {NULL}-terminated table; registry.c lists them. */
extern const Builtin bi_core_table[];
extern const Builtin bi_format_table[];
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
extern const Builtin bi_expect_table[];
extern const Builtin bi_models_table[];
extern const Builtin bi_summary_table[];
extern const Builtin bi_graph_table[];
extern const Builtin bi_plot_table[];
extern const Builtin bi_strings_table[];
extern const Builtin bi_unicode_table[];
extern const Builtin bi_lists_table[];
extern const Builtin bi_dicts_table[];
/* Rows for a name's calls on one kind of first argument (registry.c's variant_tables). */
extern const Builtin bi_string_variants[];
extern const Builtin bi_list_variants[];
extern const Builtin bi_dict_variants[];

/* norm(x, ord=none, axis=none, keepdims=false) (decomp.c): the reduction table's norm row calls it. */
bool bi_norm(Interp *I, CallArgs *a, Value *out);

/* help(name) (help.c): core.c's table holds its row. */
bool bi_help(Interp *I, CallArgs *a, Value *out);
/* An example of a builtin (examples.c, the table beside the rows): code, and what it prints. */
typedef struct BuiltinExample { const char *name, *code, *output; } BuiltinExample;
/* The next example of the builtin name from *i on (start with *i = 0), or NULL when no more. */
const BuiltinExample *builtin_example(const char *name, int *i);

/* nonzero(a) (select.c): where(cond) with one argument calls it. */
bool bi_nonzero(Interp *I, CallArgs *a, Value *out);
/* The dtype n values (NULL entries skipped) combine to, numpy's promotion with number
   literals weak (math.c); *all_weak when every one is a weak literal. */
bool common_dtype(Interp *I, Span at, int n, Value *const *vs, tl_dtype *dt, bool *all_weak);

/* Parameters i and i + 1, start and end of a window of s's characters as Python's str.find
   takes them (none: 0 and the length; negative: from the end, clamped to the string; a start
   past the end stays there), into [*lo, *hi) (strings.c). */
bool str_window(Interp *I, CallArgs *a, int i, Str *s, int64_t *lo, int64_t *hi);
/* The character index of the first (last) sub in s's window [lo, hi) (str_window's), or -1 (an
   empty sub is found at lo, or at hi when last; nothing in a window whose hi < lo). */
int64_t str_find_sub(Str *s, const Str *sub, int64_t lo, int64_t hi, bool last);
/* The number of non-overlapping subs in the window [lo, hi) (an empty sub: one more than its
   characters). */
int64_t str_count_sub(Str *s, const Str *sub, int64_t lo, int64_t hi);
/* Python's str.isspace for one character (unicode.c): what split() and strip() take as whitespace. */
bool str_is_space(uint32_t cp);

/* ---- arguments, by parameter ---------------------------------------------------
   builtin_call (registry.c) has bound the call's values to the parameters of the row's
   signature before the builtin runs: parameter i of "sum(x, axis=none, dtype=none,
   keepdims=false)" is slot i (x 0, axis 1, ...), given by position or keyword alike. The
   readers below fail with an error naming the builtin and the parameter, as luaL_argerror. */

/* The value bound to parameter i, a given `none` included (where none means something); NULL
   when not given, or when the signature has no parameter i (a family's rows may have fewer). */
static inline Value *arg_given(const CallArgs *a, int i) { return i < a->params->n ? a->slot[i] : NULL; }
/* The value bound to parameter i, NULL when not given; a given `none` counts as not given. */
static inline Value *arg_at(const CallArgs *a, int i)
{
    Value *v = arg_given(a, i);
    return v && v->kind != V_NONE ? v : NULL;
}
/* Whether keyword j of the call (a->kwnames[j], a->kw[j]) is one the signature's **names takes. */
bool arg_kw_extra(const CallArgs *a, int j);
/* The name of parameter i, for messages. */
static inline const char *arg_name(const CallArgs *a, int i) { return a->params->name[i]; }

/* Parameter i as a tensor (a new reference): numbers become 0-d tensors; absent is an error. */
bool arg_tensor(Interp *I, CallArgs *a, int i, tl_tensor **out);
/* Runs the builtin again with the lists among parameters 0..n-1 replaced by the tensors they
   convert to: for a builtin that reads those parameters as values (a dtype, a number's weakness). */
bool arg_rerun_with_tensors(Interp *I, CallArgs *a, int n, Value *out);
/* Parameter i when its value is of kind (a ValueKind: V_STR, V_LIST, ...); else NULL, the error
   reported ("s must be a string, not a number"). */
Value *arg_kind(Interp *I, CallArgs *a, int i, int kind);
/* Parameter i when it is a string (its Str into *out); else false, the error reported. */
static inline bool arg_str(Interp *I, CallArgs *a, int i, Str **out)
{
    Value *v = arg_kind(I, a, i, V_STR);
    *out = v ? v->as.s : NULL;
    return v != NULL;
}
/* Parameter i as an integer, a real number, a bool, a string; def when not given. */
bool arg_int(Interp *I, CallArgs *a, int i, int64_t def, int64_t *out);
bool arg_double(Interp *I, CallArgs *a, int i, double def, double *out);
bool arg_bool(Interp *I, CallArgs *a, int i, bool def, bool *out);
/* def NULL: the parameter must be given. */
bool arg_string(Interp *I, CallArgs *a, int i, const char *def, const char **out);
/* A dtype given as a name ("f32") or a cast function (f32). */
bool arg_dtype(Interp *I, CallArgs *a, int i, tl_dtype def, tl_dtype *out);
/* A shape from the *rest values: integers (zeros(2, 3)) or one tuple or tensor (zeros((2, 3))). */
bool arg_shape(Interp *I, CallArgs *a, int *ndim, int64_t *shape);
/* The same, letting negative entries through (reshape's and expand's -1). */
bool arg_shape_entries(Interp *I, CallArgs *a, int *ndim, int64_t *shape);
/* Parameter i as axes: none (all axes), an int, or a tuple of ints; normalized against ndim,
   duplicates rejected. */
bool arg_axes(Interp *I, CallArgs *a, int i, int ndim, int *naxes, int *axes, bool *all);
/* A value as a shape-like tuple of ints (for dtype-agnostic helpers). */
bool value_to_shape(Interp *I, Span at, Value v, int *ndim, int64_t *shape);

/* Reports "NAME(): MESSAGE" for the builtin being called (its name from its row) and returns
   false: bi_fail(I, a, ValueError, "k = %d is out of range", k). */
bool builtin_error(Interp *I, CallArgs *a, tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define bi_fail(I, a, kind, ...) builtin_error(I, a, TL_E_##kind, __VA_ARGS__)

/* Returns a tensor result (owned) as a value; NULL means the runtime failed: error at the call. */
bool ret_tensor(Interp *I, CallArgs *a, tl_tensor *t, Value *out);
/* Returns n tensor results (owned) as a tuple; a NULL among them means the runtime failed. */
bool ret_tuple(Interp *I, CallArgs *a, int n, tl_tensor **ts, Value *out);
/* A shape as a tuple of ints. */
Value shape_tuple(int ndim, const int64_t *shape);
/* True when every numeric argument among the positional ones is a weak scalar (results stay weak). */
bool args_all_weak(CallArgs *a);

#endif
