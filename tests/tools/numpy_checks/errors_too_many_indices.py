import numpy as np
np.zeros((2, 3))[0, 1, 2]   # IndexError: too many indices for array: array is 2-dimensional, but 3 were indexed
