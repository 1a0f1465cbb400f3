import numpy as np
np.take_along_axis(np.array([[1, 2], [3, 4]]), np.array([0, 1]), 1)   # ValueError: `indices` and `arr` must have the same number of dimensions
