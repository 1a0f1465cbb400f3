import numpy as np
np.bincount([1], minlength=-1)   # ValueError: 'minlength' must not be negative
