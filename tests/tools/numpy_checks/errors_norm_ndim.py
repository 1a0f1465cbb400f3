import numpy as np
np.linalg.norm(np.ones((2, 2, 2)), 1)   # ValueError: Improper number of dimensions to norm.
