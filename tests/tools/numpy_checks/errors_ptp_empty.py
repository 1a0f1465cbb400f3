import numpy as np
np.ptp(np.zeros(0))   # ValueError: zero-size array to reduction operation maximum which has no identity
