import numpy as np
np.convolve([[1]], [1])   # ValueError: object too deep for desired array
