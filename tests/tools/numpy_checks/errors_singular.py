import numpy as np
np.linalg.inv([[1.0, 2.0], [2.0, 4.0]])   # numpy.linalg.LinAlgError: Singular matrix
