import numpy as np
np.convolve([], [1])   # ValueError: v cannot be empty
