import numpy as np
np.max(np.zeros((0, 0)), axis=1)   # ValueError: zero-size array to reduction operation maximum which has no identity
