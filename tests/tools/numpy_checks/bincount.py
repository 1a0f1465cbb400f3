import numpy as np
import warnings
from tlfmt import p, show
warnings.simplefilter("ignore")
show(np.bincount([1, 1, 3]))
show(np.bincount(np.array([0, 4, 4, 2], np.int8)))
show(np.bincount(np.array([5, 5], np.uint32), minlength=3))
show(np.bincount([1, 1, 3], minlength=6))
show(np.bincount([True, False, True]))
show(np.bincount(np.zeros(0, np.int64)))
show(np.bincount(np.zeros(0, np.int64), minlength=2))
show(np.bincount([1, 1, 3], weights=[0.5, 1, 2]))
show(np.bincount([1, 1, 3], weights=np.array([0.5, 1, 2], np.float32)))
show(np.bincount([0, 0], weights=np.array([1.5, 2], np.float16)))
show(np.bincount([0, 2], weights=[3, 4]))
show(np.bincount([2, 0], weights=[True, True], minlength=4))
show(np.bincount([0, 1], weights=[np.inf, np.nan]))
show(np.bincount(np.arange(10) % 3))
