import numpy as np
np.average([1, 2], weights=[0, 0])   # ZeroDivisionError: Weights sum to zero, can't be normalized
