import numpy as np
np.select([np.array([1, 0])], [np.array([1, 2])])   # TypeError: invalid entry 0 in condlist: should be boolean ndarray
