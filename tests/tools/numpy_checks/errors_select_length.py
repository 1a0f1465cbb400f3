import numpy as np
np.select([np.array([True]), np.array([False])], [np.array([1])])   # ValueError: list of cases must be same length as list of conditions
