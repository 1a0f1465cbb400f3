import numpy as np
np.linalg.matrix_power(np.ones((2, 3)), 2)   # LinAlgError: Last 2 dimensions of the array must be square
