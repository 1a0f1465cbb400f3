import numpy as np
np.linalg.lstsq(np.ones((3, 2)), np.ones(4), rcond=None)   # LinAlgError: Incompatible dimensions
