import numpy as np
np.linalg.svd([[np.nan, 1.0], [1.0, 1.0]])   # LinAlgError: SVD did not converge
