import numpy as np
np.argmin(np.zeros((0, 3)))   # ValueError: attempt to get argmin of an empty sequence
