import numpy as np
np.partition(np.array([3, 1, 2]), 3)   # ValueError: kth(=3) out of bounds (3)
