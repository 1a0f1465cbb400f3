import numpy as np
np.linalg.svd([1.0, 2.0])   # LinAlgError: 1-dimensional array given. Array must be at least two-dimensional
