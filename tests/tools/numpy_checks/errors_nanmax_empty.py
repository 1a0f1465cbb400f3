import numpy as np
np.nanmax(np.zeros((0, 2)), axis=0)   # ValueError: zero-size array to reduction operation fmax which has no identity
