import numpy as np
np.linalg.cholesky([[1.0, 2.0], [2.0, 1.0]])   # LinAlgError: Matrix is not positive definite
