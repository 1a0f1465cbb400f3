import numpy as np
np.linalg.norm([3.0, 4.0], "fro")   # ValueError: Invalid norm order 'fro' for vectors
