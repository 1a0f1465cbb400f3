import numpy as np
np.histogram([1, 2], bins=[3, 1])   # ValueError: `bins` must increase monotonically, when an array
