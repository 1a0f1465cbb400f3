import numpy as np
np.interp(1, [1, 2], [1])   # ValueError: fp and xp are not of the same length.
