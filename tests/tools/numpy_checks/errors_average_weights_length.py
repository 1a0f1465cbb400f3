import numpy as np
np.average([[1, 2]], axis=1, weights=[1, 2, 3])   # ValueError: Length of weights not compatible with specified axis.
