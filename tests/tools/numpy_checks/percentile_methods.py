import numpy as np
import warnings
from tlfmt import p, show, tl_name
warnings.simplefilter("ignore")
nan, inf = np.nan, np.inf
methods = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest")
q = np.array([0, 1, 10, 12.5, 20, 25, 30, 33.3, 37.5, 50, 62.5, 66.7, 75, 80, 90, 99, 100])
x = np.array([3.5, -1, 4, 1, 5, 9, 2.25, 6])
for m in methods: p(m, np.percentile(x, q, method=m))
for n in range(1, 6):
    for m in methods: p(n, m, np.quantile(np.arange(n) * 1.5 - 0.25, [0, 0.2, 0.25, 0.4, 0.5, 0.6, 0.75, 0.8, 1], method=m))
for m in methods: p(m, np.percentile(np.array([[1.0, 2.0, inf], [1.0, nan, 3.0], [-inf, 0.0, inf]]), [0, 40, 50, 100], axis=1, method=m))
for m in ("inverted_cdf", "closest_observation", "lower", "higher", "nearest"):
    p(m, tl_name(np.percentile(np.array([5, 1, 9, 3, 7, 2], np.int32), [20, 50, 90], method=m).dtype),
      np.percentile(np.array([2.5, 0.5, 1.5, 3.5], np.float16), 50, method=m),
      np.percentile(np.array([True, False, True]), 40, method=m), np.quantile(np.array([200, 7, 255], np.uint8), 0.5, method=m))
show(np.percentile(np.array([5, 1, 9, 3, 7, 2], np.int32), [20, 50, 90], method="nearest"))
show(np.percentile(np.array([2.5, 0.5, 1.5, 3.5], np.float16), [50, 75], method="higher"))
show(np.percentile(np.array([2**63 + 2, 7, 2**40], np.uint64), 50, method="lower"))
show(np.percentile(np.array([0.1, 0.7, 0.3, 0.2], np.float32), [33, 66], method="hazen"))
show(np.quantile(np.array([1, 2, 3, 4.5], np.float16), 0.3, method="midpoint"))
show(np.quantile(np.arange(24).reshape(2, 3, 4) % 7, [0.4, 0.6], axis=(0, 2), method="closest_observation"))
show(np.quantile(np.array([[3, 1, 2], [9, 7, 8]]), 0.5, axis=1, keepdims=True, method="averaged_inverted_cdf"))
show(np.percentile(np.zeros((0, 3)), 50, axis=1, method="lower"))
