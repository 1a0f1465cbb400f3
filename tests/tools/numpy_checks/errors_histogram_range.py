import numpy as np
np.histogram([1, 2], range=(2, 1))   # ValueError: max must be larger than min in range parameter.
