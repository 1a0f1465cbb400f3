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
     SIG     the builtin's signature    HELP  its one-line help */
#define TL_REDOP_AXIS_SIG(NAME) NAME "(x, axis=none, keepdims=false)"
#define TL_REDOP_LIST(X, arg)                                                                                     \
    X(arg, TL_RSUM, "sum", "sum", SUM, CAST, TL_REDOP_AXIS_SIG("sum"),                                              \
      "sum over axis (all axes if none); small ints and bool sum in i64")                                         \
    X(arg, TL_RPROD, "prod", "prod", SUM, CAST, TL_REDOP_AXIS_SIG("prod"), "product over axis")                   \
    X(arg, TL_RMEAN, "mean", "mean", MEAN, CAST, TL_REDOP_AXIS_SIG("mean"), "arithmetic mean over axis (f64 for integers)") \
    X(arg, TL_RVAR, "var", "var", REAL, ERROR, "var(x, axis=none, keepdims=false, ddof=0)",                       \
      "variance: mean squared deviation, divided by n - ddof")                                                    \
    X(arg, TL_RSTD, "std", "std", REAL, ERROR, "std(x, axis=none, keepdims=false, ddof=0)",                       \
      "standard deviation: sqrt(var)")                                                                            \
    X(arg, TL_RMIN, "min", "minimum", SAME, CAST, TL_REDOP_AXIS_SIG("min"), "smallest value over axis (nan propagates)") \
    X(arg, TL_RMAX, "max", "maximum", SAME, CAST, TL_REDOP_AXIS_SIG("max"), "largest value over axis (nan propagates)") \
    X(arg, TL_RARGMIN, "argmin", "argmin", I64, ERROR, TL_REDOP_AXIS_SIG("argmin"),                               \
      "index of the smallest value (of the flattened tensor if axis is none)")                                    \
    X(arg, TL_RARGMAX, "argmax", "argmax", I64, ERROR, TL_REDOP_AXIS_SIG("argmax"),                               \
      "index of the largest value (of the flattened tensor if axis is none)")                                     \
    X(arg, TL_RANY, "any", "any", BOOL, CAST, TL_REDOP_AXIS_SIG("any"), "true if any element over axis is nonzero") \
    X(arg, TL_RALL, "all", "all", BOOL, CAST, TL_REDOP_AXIS_SIG("all"), "true if every element over axis is nonzero") \
    X(arg, TL_RNORM, "norm", "norm", REAL, ERROR, TL_REDOP_AXIS_SIG("norm"),                                      \
      "2-norm over axis (Frobenius over all axes if none)")                                                       \
    X(arg, TL_RLOGSUMEXP, "logsumexp", "logsumexp", REAL, ERROR, TL_REDOP_AXIS_SIG("logsumexp"),                  \
      "log(sum(exp(x))) over axis, computed stably")

#endif
