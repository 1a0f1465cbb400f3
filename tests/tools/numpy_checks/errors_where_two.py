import numpy as np
np.where(np.array([True, False]), 1)   # ValueError: either both or neither of x and y should be given
