import numpy as np
np.histogram([1, 2], bins=0)   # ValueError: `bins` must be positive, when an integer
