import numpy as np
np.tensordot(np.ones((2, 3)), np.ones((2, 3)), 1)   # ValueError: shape-mismatch for sum
