import numpy as np
np.linalg.matrix_power(np.ones((2, 2)), 1.5)   # TypeError: exponent must be an integer
