import numpy as np
np.diff([1, 2], n=-1)   # ValueError: order must be non-negative but got -1
