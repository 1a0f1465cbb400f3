import numpy as np
np.average([[1, 2]], weights=[1, 2])   # TypeError: Axis must be specified when shapes of a and weights differ.
