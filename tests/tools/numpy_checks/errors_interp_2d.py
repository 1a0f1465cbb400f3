import numpy as np
np.interp(1, [[1, 2]], [[1, 2]])   # ValueError: object too deep for desired array
