import numpy as np
np.nanmin(np.zeros(0))   # ValueError: zero-size array to reduction operation fmin which has no identity
