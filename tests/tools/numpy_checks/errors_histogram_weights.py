import numpy as np
np.histogram([1, 2], weights=[1, 2, 3])   # ValueError: weights should have the same shape as a.
