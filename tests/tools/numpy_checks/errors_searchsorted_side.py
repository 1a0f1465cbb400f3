import numpy as np
np.searchsorted(np.array([1, 2]), 2, side='middle')   # ValueError: search side must be 'left' or 'right' (got 'middle')
