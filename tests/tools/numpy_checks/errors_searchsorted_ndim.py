import numpy as np
np.searchsorted(np.array([[1, 2], [3, 4]]), 2)   # ValueError: object too deep for desired array
