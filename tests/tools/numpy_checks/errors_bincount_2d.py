import numpy as np
np.bincount([[1, 2]])   # ValueError: object too deep for desired array
