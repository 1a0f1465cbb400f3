import numpy as np
np.split(np.arange(7), 2)   # ValueError: array split does not result in an equal division
