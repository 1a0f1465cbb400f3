import numpy as np
np.take_along_axis(np.array([1, 2, 3]), np.array([0.0, 1.0]), 0)   # IndexError: `indices` must be an integer array
