/* redop_list.h — the master list of reductions: enum, names, result dtypes, builtins, help */
#ifndef TL_REDOP_LIST_H
#define TL_REDOP_LIST_H

/* One row per reduction, in tl_redop order. X(arg, columns...):
     ENUM    the tl_redop constant     NAME  the builtin's name
     WHAT    its name in messages (numpy's: "attempt to get minimum of an empty sequence")
     RESULT  result dtype (docs/language.md §7): SUM unsigned -> u64, bool and signed -> i64,
             else the input's; MEAN bool and ints -> f64, else the input's;
             REAL bool and ints -> f64, complex -> its real dtype; I64; BOOL
     NOAXES  what axis=() gives: CAST the values in the result dtype (numpy); ERROR
     DT      DTYPE when it takes numpy's dtype= (the input is cast to it first), else NODTYPE
     SIG     the builtin's signature    HELP  its one-line help */
#define TL_REDOP_AXIS_SIG(NAME) NAME "(x, axis=none, *, keepdims=false)"
#define TL_REDOP_DTYPE_SIG(NAME) NAME "(x, axis=none, dtype=none, *, keepdims=false)"
#define TL_REDOP_LIST(X, arg)                                                                                     \
    X(arg, TL_RSUM, "sum", "sum", SUM, CAST, DTYPE, TL_REDOP_DTYPE_SIG("sum"),                                              \
      "sum over axis (all axes if none); small ints and bool sum in i64")                                         \
    X(arg, TL_RPROD, "prod", "prod", SUM, CAST, DTYPE, TL_REDOP_DTYPE_SIG("prod"), "product over axis")                   \
    X(arg, TL_RMEAN, "mean", "mean", MEAN, CAST, DTYPE, TL_REDOP_DTYPE_SIG("mean"), "arithmetic mean over axis (f64 for integers)") \
    X(arg, TL_RVAR, "var", "var", REAL, ERROR, DTYPE, "var(x, axis=none, dtype=none, *, ddof=0, keepdims=false)",                       \
      "variance: mean squared deviation, divided by n - ddof")                                                    \
    X(arg, TL_RSTD, "std", "std", REAL, ERROR, DTYPE, "std(x, axis=none, dtype=none, *, ddof=0, keepdims=false)",                       \
      "standard deviation: sqrt(var)")                                                                            \
    X(arg, TL_RMIN, "min", "minimum", SAME, CAST, NODTYPE, TL_REDOP_AXIS_SIG("min"), "smallest value over axis (nan propagates)") \
    X(arg, TL_RMAX, "max", "maximum", SAME, CAST, NODTYPE, TL_REDOP_AXIS_SIG("max"), "largest value over axis (nan propagates)") \
    X(arg, TL_RARGMIN, "argmin", "argmin", I64, ERROR, NODTYPE, TL_REDOP_AXIS_SIG("argmin"),                               \
      "index of the smallest value (of the flattened tensor if axis is none)")                                    \
    X(arg, TL_RARGMAX, "argmax", "argmax", I64, ERROR, NODTYPE, TL_REDOP_AXIS_SIG("argmax"),                               \
      "index of the largest value (of the flattened tensor if axis is none)")                                     \
    X(arg, TL_RANY, "any", "any", BOOL, CAST, NODTYPE, TL_REDOP_AXIS_SIG("any"), "true if any element over axis is nonzero") \
    X(arg, TL_RALL, "all", "all", BOOL, CAST, NODTYPE, TL_REDOP_AXIS_SIG("all"), "true if every element over axis is nonzero") \
    X(arg, TL_RNORM, "norm", "norm", REAL, ERROR, NODTYPE, "norm(x, ord=none, axis=none, keepdims=false)",         \
      "numpy.linalg.norm: vector norms over one axis, matrix norms over two (2-norm/Frobenius by default)")        \
    X(arg, TL_RLOGSUMEXP, "logsumexp", "logsumexp", REAL, ERROR, NODTYPE, TL_REDOP_AXIS_SIG("logsumexp"),                  \
      "log(sum(exp(x))) over axis, computed stably")                                                            \
    X(arg, TL_RNANSUM, "nansum", "sum", SUM, ERROR, DTYPE, TL_REDOP_DTYPE_SIG("nansum"),                           \
      "sum over axis treating nan as 0")                                                                          \
    X(arg, TL_RNANMEAN, "nanmean", "mean", MEAN, ERROR, DTYPE, TL_REDOP_DTYPE_SIG("nanmean"),                      \
      "mean over axis ignoring nan (nan where every value is nan)")                                               \
    X(arg, TL_RNANVAR, "nanvar", "var", REAL, ERROR, DTYPE, "nanvar(x, axis=none, dtype=none, *, ddof=0, keepdims=false)", \
      "variance over axis ignoring nan (nan where fewer than ddof+1 values are not nan)")                        \
    X(arg, TL_RNANSTD, "nanstd", "std", REAL, ERROR, DTYPE, "nanstd(x, axis=none, dtype=none, *, ddof=0, keepdims=false)", \
      "standard deviation over axis ignoring nan: sqrt(nanvar)")                                                  \
    X(arg, TL_RNANMIN, "nanmin", "fmin", SAME, CAST, NODTYPE, TL_REDOP_AXIS_SIG("nanmin"),                         \
      "smallest value over axis ignoring nan (nan where every value is nan)")                                     \
    X(arg, TL_RNANMAX, "nanmax", "fmax", SAME, CAST, NODTYPE, TL_REDOP_AXIS_SIG("nanmax"),                         \
      "largest value over axis ignoring nan (nan where every value is nan)")

#endif
