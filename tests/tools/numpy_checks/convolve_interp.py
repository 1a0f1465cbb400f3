import numpy as np
import warnings
from tlfmt import p, show
warnings.simplefilter("ignore")
nan, inf = np.nan, np.inf
show(np.convolve([1, 2, 3], [0, 1, 0.5]))
show(np.convolve([1, 2, 3], [0, 1, 0.5], "same"))
show(np.convolve([1, 2, 3], [0, 1, 0.5], "valid"))
show(np.convolve([1, 2, 3], [0, 1], "same"))
show(np.convolve([1, 2], [1, 2, 3, 4, 5], mode="valid"))
show(np.convolve([1, 2], [1, 2, 3, 4, 5], mode="same"))
show(np.convolve([1, 2, 3], [4, 5]))
show(np.convolve(np.array([100, 100], np.int8), np.array([2], np.int8)))
show(np.convolve(np.array([0.5, 1], np.float32), np.array([2, 4], np.float32)))
show(np.convolve(np.array([0.5, 1], np.float16), [2.0]))
show(np.convolve([True, False, True], [True, True]))
show(np.convolve(3, [1, 2]))
show(np.convolve([1.0, inf], [1.0, 0.0]))
show(np.convolve([1.0, nan, 2.0], [1.0, 1.0], "valid"))
xp = [1.0, 2.0, 4.0]
fp = [3.0, 2.0, 0.0]
show(np.interp(2.5, xp, fp))
show(np.interp([0, 1, 1.5, 2, 3, 4, 5], xp, fp))
show(np.interp([0, 5], xp, fp, left=-1, right=9.5))
show(np.interp([[1.25, 3.5], [4.0, 2.0]], xp, fp))
show(np.interp(np.array([1.5, 3], np.float32), np.array(xp, np.float32), fp))
show(np.interp([1, 2, 3], [1, 3], [10, 20]))
show(np.interp([nan, 1.5], xp, fp))
show(np.interp([0, 2, 3], [2.0], [7.0]))
show(np.interp([1.5, 2.5], [1.0, 2.0, 3.0], [inf, 1.0, inf]))
show(np.interp([1.5], [1.0, 2.0], [inf, inf]))
show(np.interp(np.zeros(0), xp, fp))
show(np.interp([True, False], [0, 1], [5, 7]))
