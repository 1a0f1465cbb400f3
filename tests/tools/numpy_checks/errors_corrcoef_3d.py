import numpy as np
np.corrcoef(np.zeros((2, 2, 2)))   # ValueError: m has more than 2 dimensions
