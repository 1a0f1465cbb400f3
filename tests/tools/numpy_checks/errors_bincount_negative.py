import numpy as np
np.bincount([1, -1])   # ValueError: 'list' argument must have no negative elements
