import numpy as np
np.linalg.matrix_power(np.array([[1.0, 2.0], [2.0, 4.0]]), -1)   # LinAlgError: Singular matrix
