import numpy as np
np.min(np.zeros(0))   # ValueError: zero-size array to reduction operation minimum which has no identity
