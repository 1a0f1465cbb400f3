import numpy as np
np.linalg.eigvals(np.ones((2, 3)))   # LinAlgError: Last 2 dimensions of the array must be square
