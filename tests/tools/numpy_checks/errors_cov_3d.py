import numpy as np
np.cov(np.zeros((2, 2, 2)))   # ValueError: m has more than 2 dimensions
